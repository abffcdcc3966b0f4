/*
 * crypto/cpucap_aarch64.c - AArch64 capability detection and
 * implementation names.
 */
#if defined(__aarch64__)
#include <string.h>
#include "internal.h"
#if defined(__linux__)
# include <sys/auxv.h>
#endif

#ifndef HWCAP_ASIMD
# define HWCAP_ASIMD (1ul << 1)
#endif

unsigned int asmcrypt_arch_detect(void)
{
    unsigned int caps = 0;
#if defined(__linux__)
    if (getauxval(AT_HWCAP) & HWCAP_ASIMD)
        caps |= ASMCRYPT_CAP_A64_NEON;
#else
    caps |= ASMCRYPT_CAP_A64_NEON;
#endif
    return caps;
}

const char *asmcrypt_arch_impl(const char *primitive, unsigned int caps)
{
    (void)primitive;
    (void)caps;
    return NULL;    /* no AArch64 assembly wired in yet */
}
#else
typedef int asmcrypt_cpucap_unused;  /* ISO C forbids an empty unit */
#endif
