/*
 * crypto/bn/bn_mont.c - C reference Montgomery multiplication and n0.
 *
 * bn_mul_mont_c is word-serial CIOS (coarsely integrated operand
 * scanning): for each word b[i], t += a*b[i], then m = t[0]*n0 makes
 * t + m*n divisible by the word base and t = (t + m*n) / 2^w.  With
 * a, b < n the result t < 2n, so one subtraction of n, selected by a
 * mask computed from the borrow, finishes it in constant time.
 * The accumulator lives in a stack temporary, so rp may alias ap and bp.
 */
#include "bn_local.h"

int bn_mul_mont_c(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                  const BN_ULONG *np, const BN_ULONG *n0, int num)
{
    BN_ULONG t[ASMCRYPT_BN_MAX_WORDS + 2];
    BN_ULONG c, lo, m, top, mask, k = n0[0];
    int i, j;

    if (num < 1 || num > ASMCRYPT_BN_MAX_WORDS)
        return 0;
    for (j = 0; j < num + 2; j++)
        t[j] = 0;

    for (i = 0; i < num; i++) {
        BN_ULONG b = bp[i];

        /* t += a * b[i] */
        c = 0;
        for (j = 0; j < num; j++)
            bn_mac2(&c, &t[j], ap[j], b, t[j], c);
        t[num] += c;
        t[num + 1] = (t[num] < c);

        /* t = (t + m*n) / 2^w */
        m = t[0] * k;
        bn_mac2(&c, &lo, m, np[0], t[0], 0);
        for (j = 1; j < num; j++)
            bn_mac2(&c, &t[j - 1], m, np[j], t[j], c);
        t[num - 1] = t[num] + c;
        t[num] = t[num + 1] + (t[num - 1] < c);
    }

    /* rp = t - n; keep it unless that borrowed past t[num] */
    c = 0;
    for (j = 0; j < num; j++)
        c = bn_sub_borrow(t[j], np[j], c, &rp[j]);
    top = t[num] - c;                       /* all ones: t < n */
    mask = (BN_ULONG)0 - (top >> (BN_BITS - 1));
    for (j = 0; j < num; j++)
        rp[j] = (t[j] & mask) | (rp[j] & ~mask);

    bn_wipe(t, sizeof(BN_ULONG) * (size_t)(num + 2));
    return 1;
}

/* -np[0]^-1 mod 2^w by Newton: x = a is right to 3 bits for odd a, and
 * x <- x(2 - ax) doubles the correct bits (3, 6, 12, 24, 48, 96). */
asmcrypt_word asmcrypt_bn_mont_n0(const asmcrypt_word *np)
{
    BN_ULONG a, x;
    int i;

    if (np == NULL || (np[0] & 1) == 0)
        return 0;
    a = np[0];
    x = a;
    for (i = 0; i < 5; i++)
        x *= 2 - a * x;
    return (BN_ULONG)0 - x;
}
