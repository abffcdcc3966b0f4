/*
 * crypto/bn/bn_exp_util.c - constant-time conditional subtraction, window
 * extraction and R^2 mod n, shared by every modexp path.
 */
#include "bn_local.h"
#include "bn_exp_util.h"

void bn_exp_cond_sub(BN_ULONG *x, BN_ULONG top, const BN_ULONG *np, int num,
                     BN_ULONG *tmp)
{
    BN_ULONG b = 0, mask;
    int j;

    for (j = 0; j < num; j++)
        b = bn_sub_borrow(x[j], np[j], b, &tmp[j]);
    mask = (BN_ULONG)0 - ((top - b) >> (BN_BITS - 1));   /* ones: keep x */
    for (j = 0; j < num; j++)
        x[j] = (x[j] & mask) | (tmp[j] & ~mask);
}

unsigned int bn_exp_window(const BN_ULONG *ep, int pos, int len, int ewords)
{
    int w = pos / BN_BITS, sh = pos % BN_BITS;
    BN_ULONG v = ep[w] >> sh;

    if (sh + len > BN_BITS && w + 1 < ewords)
        v |= ep[w + 1] << (BN_BITS - sh);
    return (unsigned int)(v & (((BN_ULONG)1 << len) - 1));
}

int bn_exp_bitlen(const BN_ULONG *np, int num)
{
    int i = num - 1, b = 0;

    while (i > 0 && np[i] == 0)
        i--;
    while (b < BN_BITS && (np[i] >> b) != 0)
        b++;
    return BN_BITS * i + b;
}

void bn_exp_pow2_mod(BN_ULONG *x, int e, const BN_ULONG *np, int num)
{
    BN_ULONG tmp[ASMCRYPT_BN_MAX_WORDS];
    int i, j, top = bn_exp_bitlen(np, num) - 1;

    if (top < 0)
        top = 0;
    for (j = 0; j < num; j++)
        x[j] = 0;
    x[top / BN_BITS] = (BN_ULONG)1 << (top % BN_BITS);
    bn_exp_cond_sub(x, 0, np, num, tmp);                 /* n == 1 */
    for (i = top; i < e; i++) {
        BN_ULONG c = x[num - 1] >> (BN_BITS - 1);

        for (j = num - 1; j > 0; j--)
            x[j] = (x[j] << 1) | (x[j - 1] >> (BN_BITS - 1));
        x[0] <<= 1;
        bn_exp_cond_sub(x, c, np, num, tmp);
    }
}

void bn_exp_rr(BN_ULONG *x, const BN_ULONG *np, BN_ULONG n0, int num)
{
    int i, wn = BN_BITS * num;

    bn_exp_pow2_mod(x, wn + wn / 32, np, num);
    for (i = 0; i < 5; i++)
        bn_mont_mul_any(x, x, x, np, n0, num);
}

/* Column by column: four words of out in registers while all the entries
 * go by (out was loaded, merged and stored for every entry before: about
 * 7.5 instructions per word and entry, a fifth of a 1024-bit modexp on
 * ARM, an eighth on MIPS64, now about 4); the masks are computed once. */
void bn_exp_gather_c(BN_ULONG *out, const BN_ULONG *tab, unsigned int idx, int S)
{
    BN_ULONG mask[BN_EXP_WIN_SIZE];
    int i, j;

    for (i = 0; i < BN_EXP_WIN_SIZE; i++)
        mask[i] = bn_mask_eq((BN_ULONG)i, (BN_ULONG)idx);
    for (j = 0; j + 4 <= S; j += 4) {
        const BN_ULONG *p = tab + j;
        BN_ULONG a0 = 0, a1 = 0, a2 = 0, a3 = 0;

        for (i = 0; i < BN_EXP_WIN_SIZE; i++, p += S) {
            a0 |= p[0] & mask[i];
            a1 |= p[1] & mask[i];
            a2 |= p[2] & mask[i];
            a3 |= p[3] & mask[i];
        }
        out[j] = a0;
        out[j + 1] = a1;
        out[j + 2] = a2;
        out[j + 3] = a3;
    }
    for (; j < S; j++) {
        const BN_ULONG *p = tab + j;
        BN_ULONG a = 0;

        for (i = 0; i < BN_EXP_WIN_SIZE; i++, p += S)
            a |= *p & mask[i];
        out[j] = a;
    }
    bn_wipe(mask, sizeof(mask));
}

void bn_exp_scan(BN_ULONG *acc, BN_ULONG *x, const BN_ULONG *ep, int ewords,
                 const BN_ULONG *tab, int S, bn_exp_gather_f gather,
                 bn_exp_mul_f *mul, bn_exp_sqrn_f *sqrn,
                 const BN_ULONG *np, BN_ULONG n0, int num)
{
    int i, pos, first, ebits = BN_BITS * ewords;

    /* windows from the top; the first one takes the leftover bits */
    first = ebits % BN_EXP_WIN_BITS;
    if (first == 0)
        first = BN_EXP_WIN_BITS;
    pos = ebits - first;
    gather(acc, tab, bn_exp_window(ep, pos, first, ewords), S);
    while (pos > 0) {
        pos -= BN_EXP_WIN_BITS;
        gather(x, tab, bn_exp_window(ep, pos, BN_EXP_WIN_BITS, ewords), S);
        if (sqrn != NULL && sqrn(acc, x, np, n0, num, BN_EXP_WIN_BITS))
            continue;
        for (i = 0; i < BN_EXP_WIN_BITS; i++)
            mul(acc, acc, acc, np, n0, num);
        mul(acc, acc, x, np, n0, num);
    }
}

void bn_exp_windows(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep,
                    int ewords, const BN_ULONG *np, int num, int S,
                    bn_exp_gather_f gather, bn_exp_sqrn_f *sqrn)
{
    BN_ULONG tab[BN_EXP_WIN_SIZE * ASMCRYPT_BN_MAX_WORDS];
    BN_ULONG acc[ASMCRYPT_BN_MAX_WORDS], x[ASMCRYPT_BN_MAX_WORDS];
    BN_ULONG n0 = asmcrypt_bn_mont_n0(np);
    int i, j;

    bn_exp_rr(x, np, n0, num);                          /* R^2 mod n */
    for (j = 0; j < num; j++)
        acc[j] = 0;
    acc[0] = 1;
    bn_mont_mul_any(&tab[0], acc, x, np, n0, num);        /* R mod n */
    bn_mont_mul_any(&tab[S], ap, x, np, n0, num);         /* a R */
    /* even powers as squarings (a^2k = (a^k)^2: the squaring paths are
     * cheaper where there is one), odd ones times a */
    for (i = 2; i < BN_EXP_WIN_SIZE; i++) {
        int ia = (i & 1) ? i - 1 : i / 2, ib = (i & 1) ? 1 : i / 2;

        bn_mont_mul_any(&tab[(size_t)i * S], &tab[(size_t)ia * S], &tab[(size_t)ib * S],
                        np, n0, num);
    }
    for (i = 0; i < BN_EXP_WIN_SIZE; i++)
        for (j = num; j < S; j++)
            tab[(size_t)i * S + j] = 0;

    bn_exp_scan(acc, x, ep, ewords, tab, S, gather, bn_mont_mul_any, sqrn, np, n0, num);

    /* out of Montgomery form: acc * 1 * R^-1 (< n: the product reduces) */
    for (j = 0; j < num; j++)
        x[j] = 0;
    x[0] = 1;
    bn_mont_mul_any(rp, acc, x, np, n0, num);

    bn_wipe(tab, sizeof(BN_ULONG) * (size_t)BN_EXP_WIN_SIZE * (size_t)S);
    bn_wipe(acc, sizeof(BN_ULONG) * (size_t)S);
    bn_wipe(x, sizeof(BN_ULONG) * (size_t)S);
}
