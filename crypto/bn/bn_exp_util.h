/*
 * crypto/bn/bn_exp_util.h - pieces shared by the modular exponentiations
 * (bn_exp.c and the per-architecture bn_exp_<arch>.c).  Not installed.
 */
#ifndef ASMCRYPT_BN_EXP_UTIL_H
#define ASMCRYPT_BN_EXP_UTIL_H

#include "internal.h"

#define BN_EXP_WIN_BITS 5
#define BN_EXP_WIN_SIZE (1 << BN_EXP_WIN_BITS)

/* x = x - n when top:x >= n (x < 2n), in constant time; tmp has num words. */
void bn_exp_cond_sub(BN_ULONG *x, BN_ULONG top, const BN_ULONG *np, int num,
                     BN_ULONG *tmp);

/* Bits pos..pos+len-1 of the exponent (len <= BN_EXP_WIN_BITS). */
unsigned int bn_exp_window(const BN_ULONG *ep, int pos, int len, int ewords);

/* Bit length of the (public) modulus; 0 for n == 0. */
int bn_exp_bitlen(const BN_ULONG *np, int num);

/* x = 2^e mod n for e >= bitlen(n) - 1, by doublings from 2^(bitlen(n)-1).
 * n is public: only its length decides the number of steps. */
void bn_exp_pow2_mod(BN_ULONG *x, int e, const BN_ULONG *np, int num);

/* x = R^2 mod n, R = 2^(w num): x = 2^(w num + w num / 32) mod n is the
 * Montgomery form of 2^(w num / 32); five Montgomery squarings give the
 * form of 2^(w num) = R, i.e. R^2 mod n.  About w num / 32 doublings. */
void bn_exp_rr(BN_ULONG *x, const BN_ULONG *np, BN_ULONG n0, int num);

/* out = tab[idx] of BN_EXP_WIN_SIZE entries of S words, reading every
 * entry (no secret-dependent address). */
typedef void (*bn_exp_gather_f)(BN_ULONG *out, const BN_ULONG *tab,
                                unsigned int idx, int S);

/* The portable gather: a masked scan of all entries. */
void bn_exp_gather_c(BN_ULONG *out, const BN_ULONG *tab, unsigned int idx, int S);

/* A Montgomery product r = a b / R mod n in some representation, with
 * the argument list of bn_mont_mul_any (and of bn_amm52_x86_64). */
typedef void bn_exp_mul_f(BN_ULONG *r, const BN_ULONG *a, const BN_ULONG *b,
                          const BN_ULONG *np, BN_ULONG n0, int num);

/* A whole window in one call: count Montgomery squarings of r in place,
 * then the product with b (b does not overlap r), each step the same as
 * mul(r, r, r, ..) and then mul(r, r, b, ..) would compute; returns 0,
 * having written nothing, when it does not take these arguments (the
 * caller then uses mul).  May be NULL in the calls below: every product
 * goes to mul. */
typedef int bn_exp_sqrn_f(BN_ULONG *r, const BN_ULONG *b, const BN_ULONG *np,
                          BN_ULONG n0, int num, int count);

/* The exponent scan of a fixed-window exponentiation (BN_EXP_WIN_BITS bits,
 * most significant first, the first window taking the leftover bits):
 * acc = tab[top window], then per window BN_EXP_WIN_BITS squarings of acc
 * and a product with the entry gathered into x, every product being
 * mul(.., np, n0, num) (a window one sqrn call when it takes it; the
 * entry is gathered before the squarings).  The same operations for
 * every exponent of ewords words; tab holds BN_EXP_WIN_SIZE entries of
 * stride S. */
void bn_exp_scan(BN_ULONG *acc, BN_ULONG *x, const BN_ULONG *ep, int ewords,
                 const BN_ULONG *tab, int S, bn_exp_gather_f gather,
                 bn_exp_mul_f *mul, bn_exp_sqrn_f *sqrn,
                 const BN_ULONG *np, BN_ULONG n0, int num);

/*
 * rp = ap^ep mod np over bn_mont_mul_any: fixed 5-bit windows, most
 * significant first; a table of the 32 Montgomery-form powers a^0..a^31
 * with a stride of S words (num <= S <= ASMCRYPT_BN_MAX_WORDS, the padding
 * zeroed for gathers that read whole blocks), read through gather; each
 * window costs five squarings and one multiplication, a zero window
 * multiplying by table[0] like any other.  rp may alias ap and ep (rp is
 * written last).  Arguments are checked by the caller.
 */
void bn_exp_windows(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep,
                    int ewords, const BN_ULONG *np, int num, int S,
                    bn_exp_gather_f gather, bn_exp_sqrn_f *sqrn);

/* The modexp module (crypto/bn/bn_exp_<arch>.c, compiled only where
 * Configure's registry enables it, ASMCRYPT_BN_MODEXP_ASM): called by
 * asmcrypt_mod_exp after its argument checks; returns 1 when rp was
 * computed, 0 when this path does not apply (the caller continues).
 * bn_mod_exp_arch_name names the path it takes at capability mask caps,
 * from the same test the dispatch uses. */
int bn_mod_exp_arch(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep,
                    int ewords, const BN_ULONG *np, int num);
const char *bn_mod_exp_arch_name(unsigned int caps);

#endif
