// libjpeg-turbo's TurboJPEG API (Debian's libturbojpeg0-dev): whole-buffer
// JPEG decoding. Errors are return values (-1, tjGetErrorStr2); nothing
// aborts or jumps past Swift frames.
#ifndef LAMINA_CTURBOJPEG_SHIM_H
#define LAMINA_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
