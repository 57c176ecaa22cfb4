#ifndef NEONSYNC_CSQLITE_SHIM_H
#define NEONSYNC_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro that does not import into Swift. */
static inline sqlite3_destructor_type neon_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/* SQLITE_CONSTRAINT_UNIQUE is an or-ed expression macro, so it does not import. */
static inline int neon_sqlite_constraint_unique(void) { return SQLITE_CONSTRAINT_UNIQUE; }

#endif
