/*
 * crypto/arch/cpucap_aarch64.c - AArch64 capability detection (HWCAP).
 * Compiled for asm_arch aarch64 only (Configure's registry).
 */
#include "internal.h"
#if defined(__linux__)
# include <sys/auxv.h>
#endif

#ifndef HWCAP_ASIMD
# define HWCAP_ASIMD (1ul << 1)
#endif

unsigned int cpucap_arch_detect(void)
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
