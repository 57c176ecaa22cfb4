#ifndef NEON_SYNTAX_H
#define NEON_SYNTAX_H

// A C face for KDE's KSyntaxHighlighting (C++ and Qt behind it): the
// highlighter is made once, a fence's language is resolved to one of the
// library's definitions, and highlighting a block of code hands every token
// to a callback as UTF-8 byte offsets with its text style (the library's
// KSyntaxHighlighting::Theme::TextStyle numbers).
//
// Built as the shared object libNeonSyntax.so (a plug-in: the neonsync
// executable does not link it). NeonRender's CodeHighlighter opens it with
// dlopen and finds these functions with dlsym, by name, so their names and
// types are the plug-in's interface: a change to either is a new
// NEON_SYNTAX_INTERFACE, which the client checks before anything else.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The interface this header describes; neon_syntax_interface() returns it.
#define NEON_SYNTAX_INTERFACE 1

typedef struct neon_syntax neon_syntax;

/// NEON_SYNTAX_INTERFACE, as the plug-in was built.
int32_t neon_syntax_interface(void);

/// The library and its version, e.g. "KSyntaxHighlighting 5.103.0" (the
/// headers the plug-in was built with; static storage).
const char *neon_syntax_version(void);

/// Called for each token: its UTF-8 byte range in the whole text and the
/// library's text style number.
typedef void (*neon_syntax_token)(void *context, int64_t start, int64_t length, int32_t style);

/// Loads the library's repository of definitions (compiled into it), or
/// returns NULL when that failed.
neon_syntax *neon_syntax_new(void);
void neon_syntax_free(neon_syntax *syntax);

/// The definition for a fence's language (a name such as "Swift" or an
/// alias the library knows, or a file extension such as "py"), or -1.
int32_t neon_syntax_find(neon_syntax *syntax, const char *language);

/// The number of definitions, and the name of definition `index`.
int32_t neon_syntax_count(neon_syntax *syntax);
/// Writes the NUL-terminated name of definition `index` into `out` (at most
/// `capacity` bytes); returns the name's length.
int32_t neon_syntax_name(neon_syntax *syntax, int32_t index, char *out, int32_t capacity);

/// Highlights `text` (UTF-8, `length` bytes, lines split by '\n') with
/// definition `definition`, calling `token` for every token that has a
/// style other than normal text, in order.
void neon_syntax_highlight(neon_syntax *syntax, int32_t definition, const char *text, size_t length,
                           neon_syntax_token token, void *context);

#ifdef __cplusplus
}
#endif

#endif
