// Lamina's own modules may be compiled for x86-64-v3 (AVX2, FMA, BMI2; see
// the end of Package.swift). Such a program started on an older processor
// would die of an illegal instruction somewhere in its first frame; this
// constructor runs before `main` (and before any of that code) and stops it
// with a message instead. Compiled without those instructions itself.
#include "lamina_processor_check.h"

#include <unistd.h>

int lamina_processor_runs_this_build(void) {
#if defined(LAMINA_BUILT_FOR_X86_64_V3) && defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("x86-64-v3") ? 1 : 0;
#else
    return 1;
#endif
}

__attribute__((constructor))
static void lamina_check_processor(void) {
    if (lamina_processor_runs_this_build()) return;
    static const char message[] =
        "lamina: this build uses the x86-64-v3 instructions (AVX2, FMA, BMI2), which this processor lacks;\n"
        "build it for any x86-64 processor: LAMINA_TARGET_CPU=x86-64 scripts/setup.sh\n";
    // write(2), not stdio: nothing else of the program has run.
    ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
    (void)written;
    _exit(1);
}
