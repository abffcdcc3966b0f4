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
 * rp may alias ap and/or bp.  Constant time in ap, bp (np, num public).
 * Errors: ENULL, ESIZE (num < 1 or > ASMCRYPT_BN_MAX_WORDS), EEVEN,
 * ERANGE (ap >= np or bp >= np).
 */
int asmcrypt_bn_mont_mul(asmcrypt_word *rp, const asmcrypt_word *ap,
                         const asmcrypt_word *bp, const asmcrypt_word *np,
                         asmcrypt_word n0, int num);

/*
 * rp = ap^ep mod np in plain (not Montgomery) form.  ep has ewords words
 * (1..ASMCRYPT_BN_MAX_WORDS, leading zero words allowed and processed like
 * any other: the time depends on ewords, not on the value of ep).
 * Requires np odd and ap < np.  rp may alias ap, ep.  Constant time in ap
 * and ep.  Errors: ENULL, ESIZE, EEVEN, ERANGE.
 */
int asmcrypt_mod_exp(asmcrypt_word *rp, const asmcrypt_word *ap,
                     const asmcrypt_word *ep, int ewords,
                     const asmcrypt_word *np, int num);

/* rp[i] += ap[i]*w with carry; *carry = final carry word. */
int asmcrypt_bn_mul_add_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                              asmcrypt_word w, asmcrypt_word *carry);
/* rp[i] = ap[i]*w + carry; *carry = final carry word. */
int asmcrypt_bn_mul_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                          asmcrypt_word w, asmcrypt_word *carry);
/* rp[i] -= ap[i]*w with borrow; *borrow = word still to subtract above. */
int asmcrypt_bn_mul_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                              asmcrypt_word w, asmcrypt_word *borrow);
/* rp[2i], rp[2i+1] = ap[i]^2 (rp has 2*num words, must not overlap ap). */
int asmcrypt_bn_sqr_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num);
/* rp = ap + bp; *carry = 0 or 1. */
int asmcrypt_bn_add_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                          const asmcrypt_word *bp, int num, asmcrypt_word *carry);
/* rp = ap - bp; *borrow = 0 or 1. */
int asmcrypt_bn_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                          const asmcrypt_word *bp, int num, asmcrypt_word *borrow);
/* rp = ap + (cond ? bp : 0) in constant time; *carry = 0 or 1. */
int asmcrypt_bn_cnd_add_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                              const asmcrypt_word *bp, int num, asmcrypt_word cond,
                              asmcrypt_word *carry);
/* rp = ap - (cond ? bp : 0) in constant time; *borrow = 0 or 1. */
int asmcrypt_bn_cnd_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                              const asmcrypt_word *bp, int num, asmcrypt_word cond,
                              asmcrypt_word *borrow);

#ifdef __cplusplus
}
#endif

#endif
