/*
 * crypto/bn/bn_names.c - asmcrypt_impl's names of the bignum primitives
 * (crypto/impl.c's table): "c" where bn_dispatch.c calls the C
 * references, else the name of the path the arch's module takes
 * (bn_names_<arch>.c, bn_exp_<arch>.c).
 */
#include "bn_dispatch.h"
#include "bn_exp_util.h"

const char *bn_mont_impl_name(const char *primitive)
{
    (void)primitive;
#ifdef ASMCRYPT_BN_MONT_ASM
    return bn_mont_arch_name(asmcrypt_cpu_caps());
#else
    return "c";
#endif
}

const char *bn_words_impl_name(const char *primitive)
{
#ifdef ASMCRYPT_BN_WORDS_ASM
    return bn_words_arch_name(primitive, asmcrypt_cpu_caps());
#else
    (void)primitive;
    return "c";
#endif
}

/* The modexp module's own name where it has one (its gathers and, on
 * x86_64, radix 2^52), else that of the Montgomery multiplication all
 * its products go through. */
const char *bn_mod_exp_impl_name(const char *primitive)
{
#ifdef ASMCRYPT_BN_MODEXP_ASM
    (void)primitive;
    return bn_mod_exp_arch_name(asmcrypt_cpu_caps());
#else
    return bn_mont_impl_name(primitive);
#endif
}
