// libsixel: its encoder (palette, dithering, the sixel bytes) and its
// image scaler.
#include <sixel.h>
