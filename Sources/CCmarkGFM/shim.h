#ifndef NEONSYNC_CCMARKGFM_SHIM_H
#define NEONSYNC_CCMARKGFM_SHIM_H
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

/* The node types of the table and strikethrough extensions: globals the
   extensions library exports and fills when it registers, not declared in
   its installed headers. */
extern cmark_node_type CMARK_NODE_TABLE;
extern cmark_node_type CMARK_NODE_TABLE_ROW;
extern cmark_node_type CMARK_NODE_TABLE_CELL;
extern cmark_node_type CMARK_NODE_STRIKETHROUGH;

static inline cmark_node_type neon_cmark_table(void) { return CMARK_NODE_TABLE; }
static inline cmark_node_type neon_cmark_table_row(void) { return CMARK_NODE_TABLE_ROW; }
static inline cmark_node_type neon_cmark_table_cell(void) { return CMARK_NODE_TABLE_CELL; }
static inline cmark_node_type neon_cmark_strikethrough(void) { return CMARK_NODE_STRIKETHROUGH; }

/* The version string cmark-gfm was built as, e.g. "0.29.0.gfm.6". */
static inline const char *neon_cmark_version(void) { return cmark_version_string(); }

#endif
