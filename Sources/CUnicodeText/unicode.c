#include "lamina_unicode.h"
#include <stdlib.h>
#include <fribidi/fribidi.h>
#include <unicode/ubrk.h>

int lamina_bidi_levels(const uint32_t *text, int32_t length, int direction, uint8_t *levels) {
    if (length <= 0) return 0;
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)length);
    FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (size_t)length);
    FriBidiLevel *resolved = malloc(sizeof(FriBidiLevel) * (size_t)length);
    int result = -1;
    if (types && brackets && resolved) {
        fribidi_get_bidi_types(text, length, types);
        fribidi_get_bracket_types(text, length, types, brackets);
        FriBidiParType paragraph = direction == 0 ? FRIBIDI_PAR_LTR : direction == 1 ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_ON;
        if (fribidi_get_par_embedding_levels_ex(types, brackets, length, &paragraph, resolved) != 0
            // L1 (whitespace at the end and before separators takes the
            // paragraph's level): FriBidi applies it when it reorders a line.
            && fribidi_reorder_line(FRIBIDI_FLAGS_DEFAULT, types, length, 0, paragraph, resolved, NULL, NULL) != 0) {
            for (int32_t i = 0; i < length; i++) levels[i] = (uint8_t)resolved[i];
            result = FRIBIDI_IS_RTL(paragraph) ? 1 : 0;
        }
    }
    free(types);
    free(brackets);
    free(resolved);
    return result;
}

void *lamina_line_breaker_open(int normal) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *it = ubrk_open(UBRK_LINE, normal ? "@lb=normal" : "", NULL, 0, &status);
    return U_SUCCESS(status) ? it : NULL;
}

void lamina_line_breaker_close(void *breaker) { ubrk_close((UBreakIterator *)breaker); }

int lamina_line_breaks(void *breaker, const uint16_t *text, int32_t length, uint8_t *breaks) {
    UBreakIterator *it = (UBreakIterator *)breaker;
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText(it, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return -1;
    for (int32_t p = ubrk_next(it); p != UBRK_DONE; p = ubrk_next(it)) {
        int32_t rule = ubrk_getRuleStatus(it);
        breaks[p] = (rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT) ? 2 : 1;
    }
    // The iterator keeps a pointer to the text: forget it before it goes.
    ubrk_setText(it, NULL, 0, &status);
    return 0;
}
