/*
 * crypto/bn/bn_dispatch.h - word-primitive dispatch (bn_dispatch.c):
 * the assembly names under ASMCRYPT_BN_WORDS_ASM, else the C references.
 * asmcrypt_mont_mul_any is declared in crypto/internal.h.
 */
#ifndef ASMCRYPT_BN_DISPATCH_H
#define ASMCRYPT_BN_DISPATCH_H

#include "internal.h"

BN_ULONG asmcrypt_words_mul_add(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w);
BN_ULONG asmcrypt_words_mul(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w);
BN_ULONG asmcrypt_words_mul_sub(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w);
void     asmcrypt_words_sqr(BN_ULONG *rp, const BN_ULONG *ap, int num);
BN_ULONG asmcrypt_words_add(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num);
BN_ULONG asmcrypt_words_sub(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num);
BN_ULONG asmcrypt_words_cnd_add(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                                int num, BN_ULONG cond);
BN_ULONG asmcrypt_words_cnd_sub(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                                int num, BN_ULONG cond);

#endif
