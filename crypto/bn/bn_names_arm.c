/*
 * crypto/bn/bn_names_arm.c - names of the paths armv4-mont.pl and
 * armv4-words.pl take (asmcrypt_impl).  Compiled with those modules on
 * asm_arch arm only (Configure's registry).
 *
 * The umaal code exists only in builds for ARMv6 or later, and the UMAAL
 * capability bit is only ever set in those (crypto/arch/cpucap_arm.c);
 * without it the umull/umlal code ("armv4") runs.  bn_mul_mont:
 * "armv7-neon" in NEON builds with the NEON bit (the module takes it for
 * num % 8 == 0 and 16 <= num <= 1024; other sizes run the integer code),
 * else umaal or umlal as above.  sqr/add/sub/cnd_* have a single path.
 */
#include "bn_dispatch.h"

static const char *integer_name(unsigned int caps)
{
    return (caps & ASMCRYPT_CAP_ARM_UMAAL) ? "armv6-umaal" : "armv4";
}

const char *bn_mont_arch_name(unsigned int caps)
{
    if (ASMCRYPT_ARM_NEON_BUILD && (caps & ASMCRYPT_CAP_ARM_NEON))
        return "armv7-neon";
    return integer_name(caps);
}

const char *bn_words_arch_name(const char *primitive, unsigned int caps)
{
    return bn_words_is_mul(primitive) ? integer_name(caps) : "armv4";
}
