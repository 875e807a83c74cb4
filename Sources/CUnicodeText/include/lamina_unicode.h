// Unicode's bidirectional algorithm (UAX #9, through Debian's GNU FriBidi,
// which passes all of Unicode 15's BidiCharacterTest.txt) and line breaking
// (UAX #14, through Debian's ICU), behind plain C functions: Swift sees no
// ICU type, so Debian's ICU and the one Foundation carries (its own
// headers, its own `swift_`-prefixed symbols) never meet in one module.
#ifndef LAMINA_UNICODE_H
#define LAMINA_UNICODE_H
#include <stdint.h>

/// The resolved embedding level of each code point of one paragraph, with
/// rule L1 applied as if the paragraph were one line. `direction`: 0
/// left-to-right, 1 right-to-left, 2 from the first strong character
/// (left-to-right without one). Returns the paragraph's level (0 or 1), or
/// -1 when FriBidi fails (out of memory).
int lamina_bidi_levels(const uint32_t *text, int32_t length, int direction, uint8_t *levels);

/// A line-break iterator of the root locale (UAX #14 as ICU implements
/// it); NULL when ICU fails. One thread at a time may use it. `normal`:
/// 0 for UAX #14's default (conditional Japanese starters, class CJ, as
/// non-starters: no break before small kana or "ー"), 1 for CSS's
/// `line-break: normal` (CJ as ideographs), what browsers and Apple's text
/// system do.
void *lamina_line_breaker_open(int normal);
void lamina_line_breaker_close(void *breaker);

/// For each UTF-16 offset 1...length of `text`: 1 where a line may break
/// before it, 2 where a line must (a hard break), and 0 elsewhere (`breaks`
/// has length + 1 entries; entry 0 is left as it is). Returns 0, or -1.
int lamina_line_breaks(void *breaker, const uint16_t *text, int32_t length, uint8_t *breaks);
#endif
