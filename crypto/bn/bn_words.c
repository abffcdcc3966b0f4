/*
 * crypto/bn/bn_words.c - C references for the word primitives (the
 * bn_*_words_c twins of the assembly entry points).  Straight
 * schoolbook loops over a double-width product; cnd_* build a mask from
 * the condition word and never branch on it.
 */
#include "bn_local.h"

BN_ULONG bn_mul_add_words_c(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w)
{
    BN_ULONG c = 0;
    int i;

    for (i = 0; i < num; i++)
        bn_mac2(&c, &rp[i], ap[i], w, rp[i], c);
    return c;
}

BN_ULONG bn_mul_words_c(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w)
{
    BN_ULONG c = 0;
    int i;

    for (i = 0; i < num; i++)
        bn_mac2(&c, &rp[i], ap[i], w, c, 0);
    return c;
}

/* rp - ap*w: subtract the low half of ap[i]*w + borrow, carry the high half.
 * ap[i]*w + borrow <= 2^w (2^w - 1), so hi + (rp[i] < lo) fits a word. */
BN_ULONG bn_mul_sub_words_c(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w)
{
    BN_ULONG b = 0, hi, lo;
    int i;

    for (i = 0; i < num; i++) {
        bn_mac2(&hi, &lo, ap[i], w, b, 0);
        b = hi + bn_sub_borrow(rp[i], lo, 0, &rp[i]);
    }
    return b;
}

void bn_sqr_words_c(BN_ULONG *rp, const BN_ULONG *ap, int num)
{
    int i;

    /* top down, so rp == ap would also work (not part of the contract) */
    for (i = num - 1; i >= 0; i--) {
        BN_ULONG a = ap[i];
        bn_mac2(&rp[2 * i + 1], &rp[2 * i], a, a, 0, 0);
    }
}

/* Carries and borrows come from unsigned compares, which compilers turn
 * into setb/adc/sltu rather than branches. */
static BN_ULONG add_masked(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                           int num, BN_ULONG mask)
{
    BN_ULONG c = 0;
    int i;

    for (i = 0; i < num; i++) {
        BN_ULONG a = ap[i], s = a + (bp[i] & mask), c1 = s < a;
        s += c;
        c = c1 | (s < c);
        rp[i] = s;
    }
    return c;
}

static BN_ULONG sub_masked(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                           int num, BN_ULONG mask)
{
    BN_ULONG b = 0;
    int i;

    for (i = 0; i < num; i++) {
        BN_ULONG a = ap[i], y = bp[i] & mask, d = a - y, b1 = a < y;
        rp[i] = d - b;
        b = b1 | (d < b);
    }
    return b;
}

BN_ULONG bn_add_words_c(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num)
{
    return add_masked(rp, ap, bp, num, ~(BN_ULONG)0);
}

BN_ULONG bn_sub_words_c(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num)
{
    return sub_masked(rp, ap, bp, num, ~(BN_ULONG)0);
}

BN_ULONG bn_cnd_add_words_c(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                            int num, BN_ULONG cond)
{
    return add_masked(rp, ap, bp, num, bn_mask_nz(cond));
}

BN_ULONG bn_cnd_sub_words_c(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                            int num, BN_ULONG cond)
{
    return sub_masked(rp, ap, bp, num, bn_mask_nz(cond));
}
