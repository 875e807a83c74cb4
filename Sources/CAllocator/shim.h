// glibc's allocator settings (mallopt), for `AllocatorTuning`.
#ifndef LAMINA_CALLOCATOR_SHIM_H
#define LAMINA_CALLOCATOR_SHIM_H
#if defined(__linux__)
#include <malloc.h>
#endif
#endif
