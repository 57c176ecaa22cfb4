// libjpeg-turbo's TurboJPEG API: JPEG files decoded from memory, errors
// returned rather than longjmp'd.
#include <turbojpeg.h>
