/*
 * asmcrypt/bn.h - bignum word primitives, Montgomery multiplication and
 * constant-time modular exponentiation.
 *
 * Numbers are little-endian arrays of asmcrypt_word (least significant
 * word first); asmcrypt_word is the target's native word (uint32_t or
 * uint64_t, ASMCRYPT_WORD_BITS), the BN_ULONG of the assembly modules.
 *
 * Every function returns 0 on success or a negative ASMCRYPT_E* code
 * (asmcrypt/err.h) and writes nothing on error.  Carries and borrows are
 * returned through an optional out pointer (NULL: discarded).
 *
 * Limits: num for the word primitives is 0..ASMCRYPT_BN_MAX_WORDS (0 does
 * nothing and yields carry 0); Montgomery multiplication and modexp take
 * 1..ASMCRYPT_BN_MAX_WORDS words (ASMCRYPT_BN_MAX_BITS bits).
 *
 * Errors, checked in this order (the first that applies is returned):
 *   word primitives:  ESIZE  num < 0 or num > ASMCRYPT_BN_MAX_WORDS
 *                     ENULL  rp, ap or bp NULL with num > 0 (with num 0
 *                            every pointer may be NULL)
 *                     ERANGE a refused overlap (below)
 *   mont_mul, mod_exp: ENULL  any pointer argument NULL
 *                     ESIZE  num (or ewords) < 1 or > ASMCRYPT_BN_MAX_WORDS
 *                     EEVEN  np[0] even (so n = 0 and n = 2 too)
 *                     ERANGE an operand >= n, then (mont_mul) an n0 that
 *                            is not asmcrypt_bn_mont_n0(np), then a
 *                            refused overlap
 * Modulus 1 (np[0] = 1, any leading zero words) is valid: only 0 is below
 * it and every result is 0, a^0 included.  Leading zero words of n are
 * allowed in general (the time depends on num, not on the value).
 *
 * Aliasing.  An output may be the same array as an input (same address,
 * same length) where each function says so; any other overlap of an
 * output with an input is refused with ASMCRYPT_ERANGE before anything
 * is written.  Inputs may overlap each other freely (they are only read).
 * The carry/borrow word is written last: it may point into an input or
 * next to the result (e.g. rp[num]) but not into rp[0..num-1] (ERANGE).
 *   mul_add, mul, mul_sub:    rp == ap allowed
 *   sqr:                      rp (2*num words) must not overlap ap at all
 *   add, sub, cnd_add, cnd_sub: rp == ap, rp == bp (and ap == bp) allowed
 *   mont_mul:                 rp == ap, rp == bp, ap == bp allowed; rp must
 *                             not overlap np
 *   mod_exp:                  rp may overlap ap and ep in any way; rp must
 *                             not overlap np (ASMCRYPT_ERANGE)
 * Overlap checks compare addresses only (public), never the values.
 */
#ifndef ASMCRYPT_BN_H
#define ASMCRYPT_BN_H

#include <stddef.h>
#include <stdint.h>
#include <asmcrypt/conf.h>
#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

#if ASMCRYPT_WORD_BITS == 64
typedef uint64_t asmcrypt_word;
#elif ASMCRYPT_WORD_BITS == 32
typedef uint32_t asmcrypt_word;
#else
# error "ASMCRYPT_WORD_BITS must be 32 or 64"
#endif

#define ASMCRYPT_BN_MAX_BITS  8192
#define ASMCRYPT_BN_MAX_WORDS (ASMCRYPT_BN_MAX_BITS / ASMCRYPT_WORD_BITS)

/*
 * n0 = -np[0]^-1 mod 2^ASMCRYPT_WORD_BITS.  np[0] must be odd; returns 0
 * (never a valid n0) when it is even.  This function has no error code
 * because every odd word has an inverse; check the modulus yourself or let
 * asmcrypt_bn_mont_mul report ASMCRYPT_EEVEN.
 */
asmcrypt_word asmcrypt_bn_mont_n0(const asmcrypt_word *np);

/*
 * rp = ap * bp * R^-1 mod np, R = 2^(ASMCRYPT_WORD_BITS*num).
 * Requires np odd, ap < np, bp < np, n0 = asmcrypt_bn_mont_n0(np).
 * rp may alias ap and/or bp (exactly), not np.  Constant time in ap, bp
 * (np, num public).  Errors: ENULL, ESIZE (num < 1 or >
 * ASMCRYPT_BN_MAX_WORDS), EEVEN, ERANGE (ap >= np or bp >= np, n0 wrong,
 * a refused overlap).
 */
int asmcrypt_bn_mont_mul(asmcrypt_word *rp, const asmcrypt_word *ap,
                         const asmcrypt_word *bp, const asmcrypt_word *np,
                         asmcrypt_word n0, int num);

/*
 * rp = ap^ep mod np in plain (not Montgomery) form.  ep has ewords words
 * (1..ASMCRYPT_BN_MAX_WORDS, leading zero words allowed and processed like
 * any other: the time depends on ewords, not on the value of ep).
 * Requires np odd and ap < np.  rp may overlap ap, ep (any way), not np.
 * Constant time in ap and ep.  Errors: ENULL, ESIZE (num or ewords),
 * EEVEN, ERANGE (ap >= np).
 */
int asmcrypt_mod_exp(asmcrypt_word *rp, const asmcrypt_word *ap,
                     const asmcrypt_word *ep, int ewords,
                     const asmcrypt_word *np, int num);

/* rp[i] += ap[i]*w with carry; *carry = final carry word.  rp == ap ok. */
int asmcrypt_bn_mul_add_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                              asmcrypt_word w, asmcrypt_word *carry);
/* rp[i] = ap[i]*w + carry; *carry = final carry word.  rp == ap ok. */
int asmcrypt_bn_mul_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                          asmcrypt_word w, asmcrypt_word *carry);
/* rp[i] -= ap[i]*w with borrow; *borrow = word still to subtract above.
 * rp == ap ok. */
int asmcrypt_bn_mul_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                              asmcrypt_word w, asmcrypt_word *borrow);
/* rp[2i], rp[2i+1] = ap[i]^2 (rp has 2*num words and must not overlap ap:
 * ERANGE). */
int asmcrypt_bn_sqr_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num);
/* rp = ap + bp; *carry = 0 or 1.  rp == ap, rp == bp ok. */
int asmcrypt_bn_add_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                          const asmcrypt_word *bp, int num, asmcrypt_word *carry);
/* rp = ap - bp; *borrow = 0 or 1.  rp == ap, rp == bp ok. */
int asmcrypt_bn_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                          const asmcrypt_word *bp, int num, asmcrypt_word *borrow);
/* rp = ap + (cond ? bp : 0) in constant time (any nonzero cond is true);
 * *carry = 0 or 1.  rp == ap, rp == bp ok. */
int asmcrypt_bn_cnd_add_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                              const asmcrypt_word *bp, int num, asmcrypt_word cond,
                              asmcrypt_word *carry);
/* rp = ap - (cond ? bp : 0) in constant time (any nonzero cond is true);
 * *borrow = 0 or 1.  rp == ap, rp == bp ok. */
int asmcrypt_bn_cnd_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                              const asmcrypt_word *bp, int num, asmcrypt_word cond,
                              asmcrypt_word *borrow);

#ifdef __cplusplus
}
#endif

#endif
