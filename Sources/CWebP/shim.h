// libwebp's animation encoder and decoder (Debian's libwebp-dev). The
// library's initialisers are function-like macros, which Swift cannot call:
// these wrappers are the same calls.
#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/mux.h>
#include <webp/demux.h>

static inline int lamina_webp_config_init(WebPConfig *config) { return WebPConfigInit(config); }
static inline int lamina_webp_picture_init(WebPPicture *picture) { return WebPPictureInit(picture); }
static inline int lamina_webp_anim_encoder_options_init(WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderOptionsInit(options);
}
static inline WebPAnimEncoder *lamina_webp_anim_encoder_new(int width, int height, const WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderNew(width, height, options);
}
static inline int lamina_webp_anim_decoder_options_init(WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderOptionsInit(options);
}
static inline WebPAnimDecoder *lamina_webp_anim_decoder_new(const WebPData *data, const WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderNew(data, options);
}
