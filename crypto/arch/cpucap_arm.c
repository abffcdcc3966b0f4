/*
 * crypto/arch/cpucap_arm.c - 32-bit ARM capability detection: UMAAL from
 * the build's architecture (v6 and later, not v7-M without DSP), NEON
 * from HWCAP.  Compiled for asm_arch arm only (Configure's registry).
 */
#include "internal.h"
#if defined(__linux__)
# include <sys/auxv.h>
#endif

#ifndef HWCAP_ARM_NEON
# define HWCAP_ARM_NEON (1ul << 12)
#endif

unsigned int cpucap_arch_detect(void)
{
    unsigned int caps = 0;
#if defined(__ARM_ARCH) && __ARM_ARCH >= 6 && \
    !(defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && \
      !defined(__ARM_FEATURE_DSP))
    caps |= ASMCRYPT_CAP_ARM_UMAAL;  /* v7-M without DSP has no umaal */
#endif
#if defined(__linux__)
    if (getauxval(AT_HWCAP) & HWCAP_ARM_NEON)
        caps |= ASMCRYPT_CAP_ARM_NEON;
#endif
    return caps;
}
