/*
 * crypto/bn/bn_exp_x86_64.c - constant-time modexp for x86_64 with the
 * x86_64-mont module.
 *
 * Compiled with the modexp module on asm_arch x86_64 only (Configure's
 * registry).  bn_mod_exp_arch() is tried first by asmcrypt_mod_exp (bn_exp.c)
 * after its argument checks and always computes rp (returns 1):
 *
 * AVX512-IFMA (the capabilities have BMI2, AVX512F and AVX512IFMA), every num
 * but those where MULX wins (mulx_wins: num <= 4 and num 8):
 *   numbers are held as L = 8k limbs of 52 bits (k zmm registers, 4n < R =
 *   2^(52 lp), lp <= L limbs in use) and multiplied by bn_amm52_x86_64
 *   (x86_64-mont.pl), an "almost Montgomery" product: inputs and outputs
 *   < 2n, so no subtraction is needed until the very end.
 * otherwise: radix 2^64 over bn_mul_mont (MULX or mulq paths).
 *
 * Both: R^2 mod n without a division: x = 2^(bitlen(n)-1), doubled mod n
 *   up to 2^e R, i.e. the Montgomery form of 2^e with e = log2(R) / 2^s;
 *   s Montgomery squarings give the form of 2^log2(R) = R, which is R^2
 *   mod n.  n is public: only its length decides the number of steps.
 *   Fixed 5-bit windows as in bn_exp.c: 32 powers, 5 squarings and one
 *   multiplication per window (radix 2^64 with MULX and num % 8 == 0: the
 *   5 squarings and the product are one bn_mont_sqrn_mul_x86_64 call,
 *   which saves five entries and wipes of bn_mul_mont), table entries
 *   read by a masked scan of all 32 entries (bn_gather52_x86_64 with
 *   AVX-512, bn_gather64_avx2_x86_64 with AVX2, else a C scan).
 *   Out of Montgomery form with a product by 1.
 */
#include "bn_local.h"
#include "bn_exp_util.h"
#include "bn_dispatch.h"

#define AMM_MAXK 20                    /* bn_amm52_x86_64 takes k = 1..20 */
#define LMAX     (8 * AMM_MAXK)
#define M52      (((uint64_t)1 << 52) - 1)
#define WIN_SIZE BN_EXP_WIN_SIZE

void bn_amm52_x86_64(uint64_t *r, const uint64_t *a, const uint64_t *b,
                     const uint64_t *n, uint64_t n0, int kl);
/* out = tab[idx] of 32 entries of L limbs, every entry read (masked) */
void bn_gather52_x86_64(uint64_t *out, const uint64_t *tab, unsigned int idx, int L);
/* the same with AVX2 (L a multiple of 8) */
void bn_gather64_avx2_x86_64(uint64_t *out, const uint64_t *tab, unsigned int idx, int L);

/* radix 2^64 (num words) -> radix 2^52 (L limbs) */
static void to52(uint64_t *out, const BN_ULONG *in, int num, int L)
{
    int j;

    for (j = 0; j < L; j++) {
        int bit = 52 * j, w = bit / 64, sh = bit % 64;
        uint64_t v = 0;

        if (w < num)
            v = in[w] >> sh;
        if (sh > 12 && w + 1 < num)
            v |= in[w + 1] << (64 - sh);
        out[j] = v & M52;
    }
}

/* radix 2^52 (L normalised limbs) -> radix 2^64, num words (value < 2^(64num)) */
static void from52(BN_ULONG *out, const uint64_t *in, int num, int L)
{
    int j;

    for (j = 0; j < num; j++)
        out[j] = 0;
    for (j = 0; j < L; j++) {
        int bit = 52 * j, w = bit / 64, sh = bit % 64;

        if (w < num)
            out[w] |= in[j] << sh;
        if (sh > 12 && w + 1 < num)
            out[w + 1] |= in[j] >> (64 - sh);
    }
}


/* radix 2^52 on AVX512-IFMA; 0 when num is too large for it */
static __attribute__((noinline)) int
mod_exp_ifma(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep, int ewords,
             const BN_ULONG *np, int num)
{
    uint64_t tab[WIN_SIZE * LMAX];
    uint64_t n52[LMAX], acc[LMAX], x[LMAX], one[LMAX];
    BN_ULONG w[ASMCRYPT_BN_MAX_WORDS];
    uint64_t n0;
    int k, kl, lp, sq, L, i, j;

    lp = (64 * num + 2 + 51) / 52;                  /* 52 lp >= 64 num + 2 */
    k = (lp + 7) / 8;
    if (k > AMM_MAXK)
        return 0;
    L = 8 * k;
    kl = k | (lp << 8);
    for (sq = 2; sq < 5 && ((lp >> (sq - 2)) & 1) == 0; sq++)
        ;                                           /* 2^sq divides 52 lp */

    n0 = asmcrypt_bn_mont_n0(np) & M52;             /* -n^-1 mod 2^52 */
    to52(n52, np, num, L);
    for (j = 0; j < L; j++)
        one[j] = 0;
    one[0] = 1;

    /* x = 2^e R mod n with e = 52 lp / 2^sq, then RR = R^2 mod n by sq
     * squarings (the Montgomery form of 2^(e 2^sq) = R) */
    bn_exp_pow2_mod(w, 52 * lp + (52 * lp >> sq), np, num);
    to52(x, w, num, L);
    for (i = 0; i < sq; i++)
        bn_amm52_x86_64(x, x, x, n52, n0, kl);      /* x = RR */

    /* tab[i] = a^i R */
    to52(acc, ap, num, L);
    bn_amm52_x86_64(&tab[0], x, one, n52, n0, kl);
    bn_amm52_x86_64(&tab[L], acc, x, n52, n0, kl);
    for (i = 2; i < WIN_SIZE; i++)
        bn_amm52_x86_64(&tab[(size_t)i * L], &tab[(size_t)(i - 1) * L], &tab[L],
                        n52, n0, kl);

    bn_exp_scan(acc, x, ep, ewords, tab, L, bn_gather52_x86_64, bn_amm52_x86_64,
                NULL, n52, n0, kl);

    bn_amm52_x86_64(x, acc, one, n52, n0, kl);      /* < n + 1 */
    from52(w, x, num, L);
    bn_exp_cond_sub(w, 0, np, num, x);             /* x: scratch now */
    for (j = 0; j < num; j++)
        rp[j] = w[j];

    bn_wipe(tab, sizeof(uint64_t) * (size_t)WIN_SIZE * (size_t)L);
    bn_wipe(acc, sizeof(acc));
    bn_wipe(x, sizeof(x));
    bn_wipe(w, sizeof(w));
    return 1;
}


/* out = tab[idx] (32 entries, stride S words), every entry read */
static void lookup64(BN_ULONG *out, const BN_ULONG *tab, unsigned int idx, int S)
{
    unsigned int caps = asmcrypt_cpu_caps();

    if (caps & ASMCRYPT_CAP_X86_AVX512F)
        bn_gather52_x86_64(out, tab, idx, S);       /* any 64-bit words */
    else if (caps & ASMCRYPT_CAP_X86_AVX2)
        bn_gather64_avx2_x86_64(out, tab, idx, S);
    else
        bn_exp_gather_c(out, tab, idx, S);
}

/* x86_64-mont's MULX paths run (BMI2 and ADX) */
static int has_mulx(unsigned int caps)
{
    const unsigned int mulx = ASMCRYPT_CAP_X86_BMI2 | ASMCRYPT_CAP_X86_ADX;

    return (caps & mulx) == mulx;
}

/* a window (its squarings and product) in one call on bn_mul_mont's sqr8
 * and mulx2 paths, where bn_mont_sqrn_mul_x86_64 takes it: decided once
 * per modexp, so that the other paths do not pay a declined call per
 * window */
static int sqrn_takes(int num, unsigned int caps)
{
    return has_mulx(caps) && num % 8 == 0;
}

static int sqrn64(BN_ULONG *r, const BN_ULONG *b, const BN_ULONG *np,
                  BN_ULONG n0, int num, int count)
{
    BN_ULONG n0w[1];

    n0w[0] = n0;
    return bn_mont_sqrn_mul_x86_64(r, b, np, n0w, num, count);
}

/* the radix-2^52 path runs (for every num it takes): bn_amm52_x86_64
 * needs AVX-512F, IFMA and, for its scalar m chain, BMI2 (mulx) */
static int use_ifma(unsigned int caps)
{
    const unsigned int ifma = ASMCRYPT_CAP_X86_BMI2 | ASMCRYPT_CAP_X86_AVX512F |
                              ASMCRYPT_CAP_X86_AVX512IFMA;

    return (caps & ifma) == ifma;
}

const char *bn_mod_exp_arch_name(unsigned int caps)
{
    return use_ifma(caps) ? "x86_64-ifma" : bn_mont_arch_name(caps);
}

/* Sizes where radix 2^64 with MULX beats the radix-2^52 path even when
 * IFMA is there: num <= 4, and num 8 (512 bits: one eight-row block with
 * the window's squarings in one call).  Time ratio MULX / IFMA, modexp
 * with a full-size exponent on a Zen 5 VM, 31 interleaved rounds:
 * num 1..8: 0.50 0.71 0.88 0.98 1.02 1.20 1.03 0.77; 16: 1.22; 24: 1.50. */
static int mulx_wins(int num, unsigned int caps)
{
    return has_mulx(caps) && (num <= 4 || num == 8);
}

int bn_mod_exp_arch(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep,
                    int ewords, const BN_ULONG *np, int num)
{
    unsigned int caps = asmcrypt_cpu_caps();

    if (use_ifma(caps) && !mulx_wins(num, caps) && mod_exp_ifma(rp, ap, ep, ewords, np, num))
        return 1;
    /* radix 2^64 over bn_mul_mont (MULX or mulq), table padded to 8-word
     * blocks for the vector gathers */
    bn_exp_windows(rp, ap, ep, ewords, np, num, (num + 7) & ~7, lookup64,
                   sqrn_takes(num, caps) ? sqrn64 : NULL);
    return 1;
}
