#ifndef LAMINA_PROCESSOR_CHECK_H
#define LAMINA_PROCESSOR_CHECK_H

/// 1 where this build of Lamina may run on this processor: it was built for
/// any x86-64 processor (or another architecture), or for x86-64-v3 and the
/// processor has those instructions. A program built of Lamina's modules
/// checks this before `main` and stops, saying why, where it is 0.
int lamina_processor_runs_this_build(void);

#endif
