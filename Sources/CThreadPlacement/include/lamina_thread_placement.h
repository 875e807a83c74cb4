#ifndef LAMINA_THREAD_PLACEMENT_H
#define LAMINA_THREAD_PLACEMENT_H

/// Linux's thread placement calls (GNU extensions Swift's Glibc module does
/// not show), for the server's render workers. Each returns -1 where the
/// platform has no such call.

/// Writes into `mask` (of `bytes` bytes, bit n of byte n/8 for core n) the
/// cores this process may run on; returns 0, or -1 on failure.
int lamina_allowed_cores(unsigned char *mask, int bytes);

/// Keeps the calling thread on `core`; returns 0, or -1 on failure.
int lamina_pin_current_thread(int core);

/// The core the calling thread runs on now, or -1.
int lamina_current_core(void);

/// Names the calling thread (at most 15 bytes are kept), as `top -H` and
/// `perf` show it; returns 0, or -1 on failure.
int lamina_name_current_thread(const char *name);

#endif
