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

/*
 * Names of the paths the AArch64 modules take (crypto/bn/asm/armv8-*.pl,
 * crypto/poly1305/asm/poly1305-armv8.pl).  bn_mont_mul: "armv8" is the
 * mul/umulh code (4-way loop for num % 4 == 0, squaring for ap == bp and
 * num % 8 == 0, word-serial otherwise); it does not use NEON.  poly1305:
 * "armv8-neon" when NEON is enabled (base 2^26 for inputs of 64 bytes
 * and more, the scalar code for the tails), else "armv8" (base 2^64).
 * mod_exp (crypto/bn/bn_exp_aarch64.c over bn_mul_mont): "armv8-neon"
 * when the table is read by the NEON gather bn_gather5_armv8, "armv8"
 * with the masked C scan; distinct names so the tools (ct-test, icount)
 * run both paths.
 */
const char *asmcrypt_arch_impl(const char *primitive, unsigned int caps)
{
    (void)caps;
#if defined(ASMCRYPT_POLY1305_ASM)
    if (strcmp(primitive, "poly1305") == 0)
        return (caps & ASMCRYPT_CAP_A64_NEON) ? "armv8-neon" : "armv8";
#endif
#if defined(ASMCRYPT_BN_MONT_ASM)
    if (strcmp(primitive, "bn_mont_mul") == 0)
        return "armv8";
    if (strcmp(primitive, "mod_exp") == 0)
        return (caps & ASMCRYPT_CAP_A64_NEON) ? "armv8-neon" : "armv8";
#endif
#if defined(ASMCRYPT_BN_WORDS_ASM)
    if (strncmp(primitive, "bn_", 3) == 0 && strcmp(primitive, "bn_mont_mul") != 0)
        return "armv8";
#endif
    (void)primitive;
    return NULL;
}
#else
typedef int asmcrypt_cpucap_unused;  /* ISO C forbids an empty unit */
#endif
