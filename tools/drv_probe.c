/*
 * tools/drv_probe.c - the region the plugin measures (sym=asmcrypt_probe).
 * In a file of its own and noinline so that the compiler cannot merge it
 * into the drivers.
 */
#include "drv.h"

#if defined(__GNUC__)
__attribute__((noinline))
#endif
void asmcrypt_probe(rt_op fn, void *arg, long reps)
{
    long i;

    for (i = 0; i < reps; i++)
        fn(arg);
#if defined(__GNUC__)
    __asm__ volatile("" ::: "memory");   /* keep this a real call+return */
#endif
}
