/*
 * crypto/cpucap_arm.c - 32-bit ARM capability detection and
 * implementation names.
 */
#if defined(__arm__)
#include <string.h>
#include "internal.h"
#if defined(__linux__)
# include <sys/auxv.h>
#endif

#ifndef HWCAP_ARM_NEON
# define HWCAP_ARM_NEON (1ul << 12)
#endif

unsigned int asmcrypt_arch_detect(void)
{
    unsigned int caps = 0;
#if defined(__ARM_ARCH) && __ARM_ARCH >= 6
    caps |= ASMCRYPT_CAP_ARM_UMAAL;
#endif
#if defined(__linux__)
    if (getauxval(AT_HWCAP) & HWCAP_ARM_NEON)
        caps |= ASMCRYPT_CAP_ARM_NEON;
#endif
    return caps;
}

const char *asmcrypt_arch_impl(const char *primitive, unsigned int caps)
{
    (void)primitive;
    (void)caps;
    return NULL;    /* no ARM assembly wired in yet */
}
#else
typedef int asmcrypt_cpucap_unused;  /* ISO C forbids an empty unit */
#endif
