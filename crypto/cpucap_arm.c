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

/*
 * Names of the paths the 32-bit ARM modules take (crypto/bn/asm/armv4-*.pl,
 * crypto/poly1305/asm/poly1305-armv4.pl).  The umaal code exists only in
 * builds for ARMv6 or later and runs only when the UMAAL bit is set;
 * otherwise the umull/umlal code ("armv4") runs.  poly1305: "armv7-neon"
 * (radix 2^26, two blocks per step, for calls of 64 bytes and more; the
 * scalar code does shorter calls and odd blocks) in NEON builds with the
 * NEON bit, else the scalar radix-2^32 code.  bn_mont_mul: "armv7-neon"
 * in NEON builds with the NEON bit (taken for num % 8 == 0 and
 * 16 <= num <= 1024, 512 to 32768 bits; other sizes run the integer
 * code), else umaal or umlal as above.  sqr/add/sub/cnd_* words have a
 * single path.
 */
#if defined(ASMCRYPT_BN_MONT_ASM) || defined(ASMCRYPT_BN_WORDS_ASM)
static int arm_umaal(unsigned int caps)
{
#if defined(__ARM_ARCH) && __ARM_ARCH >= 6
    return (caps & ASMCRYPT_CAP_ARM_UMAAL) != 0;
#else
    (void)caps;
    return 0;
#endif
}
#endif

const char *asmcrypt_arch_impl(const char *primitive, unsigned int caps)
{
#if defined(ASMCRYPT_POLY1305_ASM)
    if (strcmp(primitive, "poly1305") == 0) {
# if (defined(__ARM_NEON) || defined(__ARM_NEON__)) && __ARM_ARCH >= 7
        if (caps & ASMCRYPT_CAP_ARM_NEON)
            return "armv7-neon";
# endif
        return "armv4";
    }
#endif
#if defined(ASMCRYPT_BN_MONT_ASM)
    if (strcmp(primitive, "bn_mont_mul") == 0) {
# if (defined(__ARM_NEON) || defined(__ARM_NEON__)) && __ARM_ARCH >= 7
        if (caps & ASMCRYPT_CAP_ARM_NEON)
            return "armv7-neon";
# endif
        return arm_umaal(caps) ? "armv6-umaal" : "armv4";
    }
#endif
#if defined(ASMCRYPT_BN_WORDS_ASM)
    if (strcmp(primitive, "bn_mul_add_words") == 0
        || strcmp(primitive, "bn_mul_words") == 0
        || strcmp(primitive, "bn_mul_sub_words") == 0)
        return arm_umaal(caps) ? "armv6-umaal" : "armv4";
    if (strncmp(primitive, "bn_", 3) == 0 && strcmp(primitive, "bn_mont_mul") != 0)
        return "armv4";
#endif
    (void)primitive;
    (void)caps;
    return NULL;
}
#else
typedef int asmcrypt_cpucap_unused;  /* ISO C forbids an empty unit */
#endif
