// libpng 1.6 (Debian's libpng-dev). Decoding uses the simplified png_image API
// (errors as return codes). Encoding does not use libpng (see CDeflate).
#ifndef LAMINA_CPNG_SHIM_H
#define LAMINA_CPNG_SHIM_H
#include <png.h>
#endif
