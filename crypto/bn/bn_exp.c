/*
 * crypto/bn/bn_exp.c - constant-time modular exponentiation.
 *
 * Fixed 5-bit windows, most significant first: a table of the 32
 * Montgomery-form powers a^0..a^31 is built, then for each window the
 * accumulator is squared five times and multiplied by the table entry the
 * window selects.  The entry is read by scanning all 32 entries and
 * keeping one under a mask, so neither the memory addresses nor the
 * branches depend on the exponent; a zero window multiplies by table[0]
 * (R mod n) like any other.  R^2 mod n comes from about w*num/32
 * doublings modulo n and five Montgomery squarings (bn_exp_rr); n is
 * public, so only the time depends on its length.
 * Every multiplication goes through asmcrypt_mont_mul_any, so an assembly
 * bn_mul_mont speeds this up.  Stack use is fixed by ASMCRYPT_BN_MAX_WORDS
 * (about 36 numbers of ASMCRYPT_BN_MAX_BITS bits, ~37 KB), no malloc.
 */
#include "bn_local.h"
#include "bn_exp_util.h"
#include "bn_exp_x86_64.h"
#include "bn_exp_aarch64.h"

#define WIN_BITS BN_EXP_WIN_BITS
#define WIN_SIZE BN_EXP_WIN_SIZE

/* out = table[idx], touching every entry */
static void ct_lookup(BN_ULONG *out, BN_ULONG (*table)[ASMCRYPT_BN_MAX_WORDS],
                      unsigned int idx, int num)
{
    int i, j;

    for (j = 0; j < num; j++)
        out[j] = 0;
    for (i = 0; i < WIN_SIZE; i++) {
        BN_ULONG mask = bn_mask_eq((BN_ULONG)i, (BN_ULONG)idx);
        for (j = 0; j < num; j++)
            out[j] |= table[i][j] & mask;
    }
}

int asmcrypt_mod_exp(asmcrypt_word *rp, const asmcrypt_word *ap,
                     const asmcrypt_word *ep, int ewords,
                     const asmcrypt_word *np, int num)
{
    BN_ULONG table[WIN_SIZE][ASMCRYPT_BN_MAX_WORDS];
    BN_ULONG acc[ASMCRYPT_BN_MAX_WORDS], x[ASMCRYPT_BN_MAX_WORDS];
    BN_ULONG tmp[ASMCRYPT_BN_MAX_WORDS];
    BN_ULONG n0;
    int i, j, pos, first, ebits;

    if (rp == NULL || ap == NULL || ep == NULL || np == NULL)
        return ASMCRYPT_ENULL;
    if (num < 1 || num > ASMCRYPT_BN_MAX_WORDS ||
        ewords < 1 || ewords > ASMCRYPT_BN_MAX_WORDS)
        return ASMCRYPT_ESIZE;
    if ((np[0] & 1) == 0)
        return ASMCRYPT_EEVEN;
    if (bn_lt_ct(ap, np, num) == 0)
        return ASMCRYPT_ERANGE;

#ifdef ASMCRYPT_MOD_EXP_X86_64
    if (asmcrypt_mod_exp_x86_64(rp, ap, ep, ewords, np, num))
        return ASMCRYPT_OK;          /* x86_64 paths, bn_exp_x86_64.c */
#endif
#ifdef ASMCRYPT_MOD_EXP_AARCH64
    if (asmcrypt_mod_exp_aarch64(rp, ap, ep, ewords, np, num))
        return ASMCRYPT_OK;          /* AArch64 path, bn_exp_aarch64.c */
#endif
    n0 = asmcrypt_bn_mont_n0(np);

    bn_exp_rr(x, np, n0, num);                          /* R^2 mod n */

    /* table[0] = R mod n = mont(1, R^2), table[1] = a R, table[i] = a^i R */
    tmp[0] = 1;
    for (j = 1; j < num; j++)
        tmp[j] = 0;
    asmcrypt_mont_mul_any(table[0], tmp, x, np, n0, num);
    asmcrypt_mont_mul_any(table[1], ap, x, np, n0, num);
    for (i = 2; i < WIN_SIZE; i++)
        asmcrypt_mont_mul_any(table[i], table[i - 1], table[1], np, n0, num);

    /* windows from the top; the first one takes the leftover bits */
    ebits = ewords * BN_BITS;
    first = ebits % WIN_BITS;
    if (first == 0)
        first = WIN_BITS;
    pos = ebits - first;
    ct_lookup(acc, table, bn_exp_window(ep, pos, first, ewords), num);
    while (pos > 0) {
        pos -= WIN_BITS;
        for (i = 0; i < WIN_BITS; i++)
            asmcrypt_mont_mul_any(acc, acc, acc, np, n0, num);
        ct_lookup(x, table, bn_exp_window(ep, pos, WIN_BITS, ewords), num);
        asmcrypt_mont_mul_any(acc, acc, x, np, n0, num);
    }

    /* out of Montgomery form: acc * 1 * R^-1 */
    tmp[0] = 1;
    for (j = 1; j < num; j++)
        tmp[j] = 0;
    asmcrypt_mont_mul_any(x, acc, tmp, np, n0, num);
    for (j = 0; j < num; j++)
        rp[j] = x[j];

    for (i = 0; i < WIN_SIZE; i++)               /* only the words used */
        bn_wipe(table[i], sizeof(BN_ULONG) * (size_t)num);
    bn_wipe(acc, sizeof(BN_ULONG) * (size_t)num);
    bn_wipe(x, sizeof(BN_ULONG) * (size_t)num);
    bn_wipe(tmp, sizeof(BN_ULONG) * (size_t)num);
    return ASMCRYPT_OK;
}
