// libpng's row writer behind a setjmp, so that a libpng error (zlib out of
// memory, a bad argument) is a return code for one picture instead of the
// end of the process. Swift cannot call setjmp; this C function does, and
// every longjmp libpng makes lands here, crossing only libpng's own frames.
#ifndef LAMINA_PNG_WRITE_H
#define LAMINA_PNG_WRITE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Where the encoded bytes go: called any number of times, in order.
typedef void (*lamina_png_sink)(void *context, const uint8_t *bytes, size_t count);
/// Fills `row` (width * 4 bytes, straight-alpha RGBA8) with row `y`.
typedef void (*lamina_png_row_source)(void *context, uint32_t y, uint8_t *row);

typedef struct {
    int compression_level;  // zlib's 0...9
    int strategy;           // zlib's strategy code (Z_DEFAULT_STRATEGY = 0, ...)
    int filters;            // libpng's PNG_FILTER_* mask
    int srgb_intent;        // -1: no sRGB chunk
} lamina_png_write_options;

/// Encodes a `width` x `height` RGBA8 picture. Returns 0, or -1 with
/// libpng's message in `error` (always NUL-terminated).
int lamina_png_write_rgba(uint32_t width, uint32_t height, lamina_png_write_options options,
                          lamina_png_row_source source, lamina_png_sink sink, void *context,
                          char *error, size_t error_capacity);

#ifdef __cplusplus
}
#endif

#endif
