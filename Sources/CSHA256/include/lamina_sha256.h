// SHA-256's block function on the processor's SHA extensions (x86's SHA-NI),
// for LaminaIO's `SHA256`, which uses it where the processor has them and
// its own Swift rounds everywhere else; and the round constants both use.
#ifndef LAMINA_SHA256_H
#define LAMINA_SHA256_H
#include <stddef.h>
#include <stdint.h>

/// SHA-256's 64 round constants (K), for both ways of computing it.
extern const uint32_t lamina_sha256_round_constants[64];

/// Whether `lamina_sha256_blocks` can run on this processor (x86-64 with
/// SHA, SSSE3 and SSE4.1); asked once, then remembered.
int lamina_sha256_hardware_available(void);

/// Compresses `blocks` 64-byte blocks at `data` into `state` (a, b, ..., h),
/// as FIPS 180-4's SHA-256 does. Only call it where
/// `lamina_sha256_hardware_available()` is 1.
void lamina_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
