/*
 * crypto/cpucap.c - capability mask shared by the C layer and the
 * assembly modules: detected once, restricted by ASMCRYPT_CAP.
 *
 * Thread safety: the first calls may come from several threads at once
 * (without the constructor below, or from another constructor).  Each
 * thread computes the same values into locals and publishes them with
 * atomic stores, cap_ready last with release order; readers test
 * cap_ready with acquire order, so a thread that sees it set also sees
 * the mask.  Detecting twice is harmless (the one detection with a side
 * effect, the SIGILL probe of o32 MIPS32r1 builds, runs once per process
 * and the other threads wait for its answer: crypto/arch/cpucap_mips.c).
 * asmcrypt_cpucap_restrict is for tests and apps/speed: call it before
 * starting threads.
 *
 * ASMCRYPT_CAP_BUILD_MASK (conf.h, written by Configure --cpu=NAME) removes
 * the capabilities whose paths lose on that core (docs/perf/choice.md)
 * from what is detected, so neither ASMCRYPT_CAP nor the restrict call
 * can bring them back: the build behaves as on a machine without them.
 */
#include <stdlib.h>
#include "internal.h"

unsigned int asmcrypt_cpucap;
static unsigned int cap_detected;
static int cap_ready;

#ifndef ASMCRYPT_CAP_BUILD_MASK
# define ASMCRYPT_CAP_BUILD_MASK (~0u)      /* default build: keep every bit */
#endif

#if defined(__GNUC__)
# define LOAD_ACQ(p)    __atomic_load_n((p), __ATOMIC_ACQUIRE)
# define LOAD(p)        __atomic_load_n((p), __ATOMIC_RELAXED)
# define STORE(p, v)    __atomic_store_n((p), (v), __ATOMIC_RELAXED)
# define STORE_REL(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#else   /* no GNU builtins: plain accesses (single-threaded first use) */
# define LOAD_ACQ(p)    (*(p))
# define LOAD(p)        (*(p))
# define STORE(p, v)    (*(p) = (v))
# define STORE_REL(p, v) (*(p) = (v))
#endif

static unsigned int env_mask(void)
{
    const char *s = getenv("ASMCRYPT_CAP");
    char *end;
    unsigned long v;

    if (s == NULL || *s == '\0')
        return ~0u;
    v = strtoul(s, &end, 16);
    if (*end != '\0')
        return ~0u;                 /* unparsable: ignore, never add */
    return (unsigned int)v;
}

void asmcrypt_cpucap_init(void)
{
    unsigned int d;

    if (LOAD_ACQ(&cap_ready))
        return;
    d = cpucap_arch_detect() & ASMCRYPT_CAP_BUILD_MASK;
    STORE(&cap_detected, d);
    STORE(&asmcrypt_cpucap, d & env_mask());
    STORE_REL(&cap_ready, 1);
}

#if defined(__GNUC__)
__attribute__((constructor))
#endif
static void cpucap_ctor(void)
{
    asmcrypt_cpucap_init();
}

unsigned int asmcrypt_cpucap_detected(void)
{
    asmcrypt_cpucap_init();
    return LOAD(&cap_detected);
}

void asmcrypt_cpucap_restrict(unsigned int mask)
{
    asmcrypt_cpucap_init();
    STORE(&asmcrypt_cpucap, LOAD(&cap_detected) & env_mask() & mask);
}

unsigned int asmcrypt_cpu_caps(void)
{
    asmcrypt_cpucap_init();
    return LOAD(&asmcrypt_cpucap);
}
