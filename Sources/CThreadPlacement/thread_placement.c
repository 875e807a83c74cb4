#define _GNU_SOURCE
#include "lamina_thread_placement.h"

#include <string.h>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>

int lamina_allowed_cores(unsigned char *mask, int bytes) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    memset(mask, 0, (size_t)bytes);
    for (int core = 0; core < CPU_SETSIZE && core / 8 < bytes; core++) {
        if (CPU_ISSET(core, &set)) mask[core / 8] |= (unsigned char)(1u << (core % 8));
    }
    return 0;
}

int lamina_pin_current_thread(int core) {
    if (core < 0 || core >= CPU_SETSIZE) return -1;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0 ? 0 : -1;
}

int lamina_current_core(void) {
    return sched_getcpu();
}

int lamina_name_current_thread(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    return pthread_setname_np(pthread_self(), shortened) == 0 ? 0 : -1;
}

#else

int lamina_allowed_cores(unsigned char *mask, int bytes) { (void)mask; (void)bytes; return -1; }
int lamina_pin_current_thread(int core) { (void)core; return -1; }
int lamina_current_core(void) { return -1; }
int lamina_name_current_thread(const char *name) { (void)name; return -1; }

#endif
