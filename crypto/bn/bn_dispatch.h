/*
 * crypto/bn/bn_dispatch.h - bignum dispatch (bn_dispatch.c): the
 * word primitives (the assembly entry points under ASMCRYPT_BN_WORDS_ASM,
 * else the C references) and the names of what runs (asmcrypt_impl).
 * bn_mont_mul_any is declared in crypto/internal.h.
 */
#ifndef ASMCRYPT_BN_DISPATCH_H
#define ASMCRYPT_BN_DISPATCH_H

#include <string.h>
#include "internal.h"

/* bn_words_mul_add, bn_words_mul, ... bn_words_cnd_sub */
#define ASMCRYPT_BN_DISPATCH_NAME(op) bn_words_##op
ASMCRYPT_BN_WORDS_DECLARE(ASMCRYPT_BN_DISPATCH_NAME);

/* asmcrypt_impl's names of the bignum primitives (bn_names.c) */
impl_name_f bn_mont_impl_name, bn_mod_exp_impl_name, bn_words_impl_name;

/* 1 for the multiply-by-a-word primitives (mul_add, mul, mul_sub): the
 * ones whose assembly has a path per multiplier instruction */
static inline int bn_words_is_mul(const char *primitive)
{
    return strcmp(primitive, "bn_mul_add_words") == 0
        || strcmp(primitive, "bn_mul_words") == 0
        || strcmp(primitive, "bn_mul_sub_words") == 0;
}

/* Names of the arch's assembly paths at capability mask caps, in
 * crypto/bn/bn_names_<arch>.c: compiled (and called) only where
 * Configure's registry enables the mont or words module. */
const char *bn_mont_arch_name(unsigned int caps);
const char *bn_words_arch_name(const char *primitive, unsigned int caps);

#endif
