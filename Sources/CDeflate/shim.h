// libdeflate (Debian's libdeflate-dev): whole-buffer zlib streams and CRC-32
// for the PNG encoder. Errors are return values; nothing aborts or jumps.
#ifndef LAMINA_CDEFLATE_SHIM_H
#define LAMINA_CDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
