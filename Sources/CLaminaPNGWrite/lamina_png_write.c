#include "lamina_png_write.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// What libpng's callbacks reach through its error and io pointers.
typedef struct {
    lamina_png_sink sink;
    void *context;
    char *error;
    size_t error_capacity;
} writer_state;

static void on_error(png_structp png, png_const_charp message) {
    writer_state *state = png_get_error_ptr(png);
    if (state->error_capacity > 0) {
        strncpy(state->error, message ? message : "unknown libpng error", state->error_capacity - 1);
        state->error[state->error_capacity - 1] = '\0';
    }
    png_longjmp(png, 1);
}

// Warnings (none are expected for a valid RGBA picture) are not printed on
// a server's standard error.
static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void on_write(png_structp png, png_bytep data, size_t length) {
    writer_state *state = png_get_io_ptr(png);
    state->sink(state->context, data, length);
}

static void on_flush(png_structp png) { (void)png; }

int lamina_png_write_rgba(uint32_t width, uint32_t height, lamina_png_write_options options,
                          lamina_png_row_source source, lamina_png_sink sink, void *context,
                          char *error, size_t error_capacity) {
    writer_state state = {sink, context, error, error_capacity};
    if (error_capacity > 0) error[0] = '\0';

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
    if (!png) {
        if (error_capacity > 0) strncpy(error, "libpng could not start (out of memory)", error_capacity - 1);
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    // Volatile: written after setjmp and read after a longjmp back to it.
    uint8_t *volatile row = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_write_struct(&png, info ? &info : NULL);
        if (!info && error_capacity > 0) strncpy(error, "libpng could not start (out of memory)", error_capacity - 1);
        return -1;
    }
    png_set_write_fn(png, &state, on_write, on_flush);
    // libpng's default limit of 1,000,000 pixels per side is a decoding
    // safeguard; PNG itself allows 2^31 - 1.
    png_set_user_limits(png, 0x7FFFFFFF, 0x7FFFFFFF);
    png_set_compression_level(png, options.compression_level);
    png_set_compression_strategy(png, options.strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, options.filters);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (options.srgb_intent >= 0) png_set_sRGB(png, info, options.srgb_intent);
    png_write_info(png, info);

    row = malloc((size_t)width * 4);
    if (!row) png_error(png, "out of memory for a row");
    for (uint32_t y = 0; y < height; y++) {
        source(context, y, row);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    free(row);
    png_destroy_write_struct(&png, &info);
    return 0;
}
