// libpng 1.6's simplified API (png_image): PNG files read into and written
// from memory, errors returned rather than longjmp'd.
#include <png.h>

// PNG_FORMAT_RGBA is an expression of two flags, which Swift does not import.
static const unsigned int neon_png_format_rgba = PNG_FORMAT_RGBA;
