// libpng 1.6 (Debian's libpng-dev). Lamina uses the simplified png_image API
// for decoding any PNG into 8-bit RGBA and encoding RGBA8 pictures.
#ifndef LAMINA_CPNG_SHIM_H
#define LAMINA_CPNG_SHIM_H
#include <png.h>
#endif
