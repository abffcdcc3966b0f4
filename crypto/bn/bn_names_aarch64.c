/*
 * crypto/bn/bn_names_aarch64.c - names of the paths armv8-mont.pl and
 * armv8-words.pl take (asmcrypt_impl).  Compiled with those modules on
 * asm_arch aarch64 only (Configure's registry).
 *
 * One path each: "armv8" is the mul/umulh code (bn_mul_mont: a 4-way loop
 * for num % 4 == 0, squaring for ap == bp and num % 8 == 0, word-serial
 * otherwise); neither uses NEON.
 */
#include "bn_dispatch.h"

const char *bn_mont_arch_name(unsigned int caps)
{
    (void)caps;
    return "armv8";
}

const char *bn_words_arch_name(const char *primitive, unsigned int caps)
{
    (void)primitive;
    (void)caps;
    return "armv8";
}
