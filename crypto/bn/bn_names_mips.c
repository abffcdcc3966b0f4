/*
 * crypto/bn/bn_names_mips.c - names of the paths mips-mont.pl and
 * mips-words.pl take (asmcrypt_impl): the code they assembled for this
 * build's ISA; neither reads a capability bit.  Compiled with those
 * modules on asm_arch mips only (Configure's registry).
 */
#include "bn_dispatch.h"

const char *bn_mont_arch_name(unsigned int caps)
{
    (void)caps;
    return cpucap_mips_build_name();
}

const char *bn_words_arch_name(const char *primitive, unsigned int caps)
{
    (void)primitive;
    (void)caps;
    return cpucap_mips_build_name();
}
