/*
 * crypto/bn/bn_dispatch.c - route the library's bignum calls to the
 * assembly entry points when Configure enabled them, else to the C
 * references (bn_names.c names what runs).  bn_mul_mont may decline a
 * size (returns 0): C takes over.
 */
#include "bn_local.h"
#include "bn_dispatch.h"

void bn_mont_mul_any(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                           const BN_ULONG *np, BN_ULONG n0, int num)
{
    BN_ULONG n0w[1];

    n0w[0] = n0;
#ifdef ASMCRYPT_BN_MONT_ASM
    if (bn_mul_mont(rp, ap, bp, np, n0w, num))
        return;
#endif
    bn_mul_mont_c(rp, ap, bp, np, n0w, num);
}

#ifdef ASMCRYPT_BN_WORDS_ASM
# define WORDS(name) name
#else
# define WORDS(name) name##_c
#endif

BN_ULONG bn_words_mul_add(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w)
{
    return WORDS(bn_mul_add_words)(rp, ap, num, w);
}

BN_ULONG bn_words_mul(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w)
{
    return WORDS(bn_mul_words)(rp, ap, num, w);
}

BN_ULONG bn_words_mul_sub(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w)
{
    return WORDS(bn_mul_sub_words)(rp, ap, num, w);
}

void bn_words_sqr(BN_ULONG *rp, const BN_ULONG *ap, int num)
{
    WORDS(bn_sqr_words)(rp, ap, num);
}

BN_ULONG bn_words_add(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num)
{
    return WORDS(bn_add_words)(rp, ap, bp, num);
}

BN_ULONG bn_words_sub(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num)
{
    return WORDS(bn_sub_words)(rp, ap, bp, num);
}

BN_ULONG bn_words_cnd_add(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                                int num, BN_ULONG cond)
{
    return WORDS(bn_cnd_add_words)(rp, ap, bp, num, cond);
}

BN_ULONG bn_words_cnd_sub(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                                int num, BN_ULONG cond)
{
    return WORDS(bn_cnd_sub_words)(rp, ap, bp, num, cond);
}
