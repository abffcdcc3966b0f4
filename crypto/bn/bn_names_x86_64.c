/*
 * crypto/bn/bn_names_x86_64.c - names of the paths x86_64-mont.pl and
 * x86_64-words.pl take (asmcrypt_impl).  Compiled with those modules on
 * asm_arch x86_64 only (Configure's registry).
 *
 * Both take their MULX/ADCX/ADOX code when BMI2 and ADX are present, mulq
 * otherwise; bn_mul_mont runs num 16..64 (1024..4096 bits) on AVX512-IFMA
 * in radix 2^52 (other sizes on mulx/mulq) when BMI2, AVX-512F and IFMA
 * are present.  The add, sub and cnd_* loops
 * have a single path.
 */
#include <string.h>
#include "bn_dispatch.h"

#define X86_MULX (ASMCRYPT_CAP_X86_BMI2 | ASMCRYPT_CAP_X86_ADX)
/* the ifma gate of x86_64-mont.pl (@CAP_IFMA): bn_amm52_int also uses mulx */
#define X86_IFMA (ASMCRYPT_CAP_X86_BMI2 | ASMCRYPT_CAP_X86_AVX512F | ASMCRYPT_CAP_X86_AVX512IFMA)

const char *bn_mont_arch_name(unsigned int caps)
{
    if ((caps & X86_IFMA) == X86_IFMA)
        return "x86_64-ifma";
    return (caps & X86_MULX) == X86_MULX ? "x86_64-adx" : "x86_64";
}

const char *bn_words_arch_name(const char *primitive, unsigned int caps)
{
    if (bn_words_is_mul(primitive) || strcmp(primitive, "bn_sqr_words") == 0)
        return (caps & X86_MULX) == X86_MULX ? "x86_64-adx" : "x86_64";
    return "x86_64";
}
