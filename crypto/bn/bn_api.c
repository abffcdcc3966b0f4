/*
 * crypto/bn/bn_api.c - the public asmcrypt_bn_* functions: check the
 * arguments (writing nothing on error), then call the dispatched code.
 * The range checks a < n, b < n are constant-time compares; the error
 * return itself only tells the caller what it passed in.  The overlap
 * checks (ASMCRYPT_ERANGE, the rules are in asmcrypt/bn.h) compare
 * addresses only, which are public.
 */
#include "bn_local.h"
#include "bn_dispatch.h"

/* 1 when the words p[0..pn-1] and q[0..qn-1] share memory */
static int overlaps(const void *p, size_t pn, const void *q, size_t qn)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;

    pn *= sizeof(asmcrypt_word);
    qn *= sizeof(asmcrypt_word);
    return a < b + qn && b < a + pn;
}

/* 1 when output rp[0..rn-1] and input xp[0..xn-1] overlap other than as the
 * same array (rp == xp, rn == xn), which the loops allow: each word is read
 * before the word at the same index is written. */
static int bad_overlap(const void *rp, size_t rn, const void *xp, size_t xn)
{
    return overlaps(rp, rn, xp, xn) && !(rp == xp && rn == xn);
}

/* the carry/borrow word is written last, so it may alias an input but not
 * one of the result words */
static int bad_carry(const asmcrypt_word *out, const asmcrypt_word *rp, int num)
{
    return out != NULL && overlaps(out, 1, rp, (size_t)num);
}

static int words_size_ok(int num)
{
    return num >= 0 && num <= ASMCRYPT_BN_MAX_WORDS;
}

static void put_carry(asmcrypt_word *out, BN_ULONG c)
{
    if (out != NULL)
        *out = c;
}

/* common checks for mul_add / mul / mul_sub */
static int check_mul(asmcrypt_word *rp, const asmcrypt_word *ap, int num)
{
    if (!words_size_ok(num))
        return ASMCRYPT_ESIZE;
    if (num > 0 && (rp == NULL || ap == NULL))
        return ASMCRYPT_ENULL;
    if (num > 0 && bad_overlap(rp, (size_t)num, ap, (size_t)num))
        return ASMCRYPT_ERANGE;
    return ASMCRYPT_OK;
}

static int check_add(asmcrypt_word *rp, const asmcrypt_word *ap,
                     const asmcrypt_word *bp, int num)
{
    if (!words_size_ok(num))
        return ASMCRYPT_ESIZE;
    if (num > 0 && (rp == NULL || ap == NULL || bp == NULL))
        return ASMCRYPT_ENULL;
    if (num > 0 && (bad_overlap(rp, (size_t)num, ap, (size_t)num) ||
                    bad_overlap(rp, (size_t)num, bp, (size_t)num)))
        return ASMCRYPT_ERANGE;
    return ASMCRYPT_OK;
}

typedef BN_ULONG mul_words_f(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w);
typedef BN_ULONG add_words_f(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num);
typedef BN_ULONG cnd_words_f(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                             int num, BN_ULONG cond);

/* The shared bodies are expanded into each public function, so f and g
 * are constants there and the call is as direct as before the sharing
 * (out of line they cost 14 to 26 instructions a call, which the
 * icount-gate row measured on x86_64). */
#if defined(__GNUC__)
# define WORDS_OP static inline __attribute__((always_inline)) int
#else
# define WORDS_OP static inline int
#endif

/* mul_add / mul / mul_sub: check, run f, store its carry (or borrow) */
WORDS_OP mul_op(mul_words_f *f, asmcrypt_word *rp, const asmcrypt_word *ap,
                int num, asmcrypt_word w, asmcrypt_word *carry)
{
    int rc = check_mul(rp, ap, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    if (num > 0 && bad_carry(carry, rp, num))
        return ASMCRYPT_ERANGE;
    put_carry(carry, num > 0 ? f(rp, ap, num, w) : 0);
    return ASMCRYPT_OK;
}

/* add / sub (f) and cnd_add / cnd_sub (g, f == NULL): the same */
WORDS_OP add_op(add_words_f *f, cnd_words_f *g, asmcrypt_word *rp,
                const asmcrypt_word *ap, const asmcrypt_word *bp, int num,
                asmcrypt_word cond, asmcrypt_word *carry)
{
    int rc = check_add(rp, ap, bp, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    if (num > 0 && bad_carry(carry, rp, num))
        return ASMCRYPT_ERANGE;
    if (num == 0)
        put_carry(carry, 0);
    else
        put_carry(carry, f != NULL ? f(rp, ap, bp, num) : g(rp, ap, bp, num, cond));
    return ASMCRYPT_OK;
}

int asmcrypt_bn_mul_add_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                              asmcrypt_word w, asmcrypt_word *carry)
{ return mul_op(bn_words_mul_add, rp, ap, num, w, carry); }

int asmcrypt_bn_mul_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                          asmcrypt_word w, asmcrypt_word *carry)
{ return mul_op(bn_words_mul, rp, ap, num, w, carry); }

int asmcrypt_bn_mul_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                              asmcrypt_word w, asmcrypt_word *borrow)
{ return mul_op(bn_words_mul_sub, rp, ap, num, w, borrow); }

int asmcrypt_bn_sqr_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num)
{
    int rc = check_mul(rp, ap, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    /* rp has 2*num words and rp[2i+1] is written before ap[i+1] is read */
    if (num > 0 && overlaps(rp, 2 * (size_t)num, ap, (size_t)num))
        return ASMCRYPT_ERANGE;
    if (num > 0)
        bn_words_sqr(rp, ap, num);
    return ASMCRYPT_OK;
}

int asmcrypt_bn_add_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                          const asmcrypt_word *bp, int num, asmcrypt_word *carry)
{ return add_op(bn_words_add, NULL, rp, ap, bp, num, 0, carry); }

int asmcrypt_bn_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                          const asmcrypt_word *bp, int num, asmcrypt_word *borrow)
{ return add_op(bn_words_sub, NULL, rp, ap, bp, num, 0, borrow); }

int asmcrypt_bn_cnd_add_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                              const asmcrypt_word *bp, int num, asmcrypt_word cond,
                              asmcrypt_word *carry)
{ return add_op(NULL, bn_words_cnd_add, rp, ap, bp, num, cond, carry); }

int asmcrypt_bn_cnd_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                              const asmcrypt_word *bp, int num, asmcrypt_word cond,
                              asmcrypt_word *borrow)
{ return add_op(NULL, bn_words_cnd_sub, rp, ap, bp, num, cond, borrow); }

/* Order of checks (shared with asmcrypt_mod_exp): ENULL, ESIZE, EEVEN,
 * ERANGE (a, b < n; then n0 matching np; then the overlaps). */
int asmcrypt_bn_mont_mul(asmcrypt_word *rp, const asmcrypt_word *ap,
                         const asmcrypt_word *bp, const asmcrypt_word *np,
                         asmcrypt_word n0, int num)
{
    if (rp == NULL || ap == NULL || bp == NULL || np == NULL)
        return ASMCRYPT_ENULL;
    if (num < 1 || num > ASMCRYPT_BN_MAX_WORDS)
        return ASMCRYPT_ESIZE;
    if ((np[0] & 1) == 0)
        return ASMCRYPT_EEVEN;
    if (bn_lt2_ct(ap, bp, np, num) == 0)
        return ASMCRYPT_ERANGE;
    if ((BN_ULONG)(n0 * np[0]) != (BN_ULONG)-1)
        return ASMCRYPT_ERANGE;      /* n0 is not -np[0]^-1 */
    if (overlaps(rp, (size_t)num, np, (size_t)num) ||
        bad_overlap(rp, (size_t)num, ap, (size_t)num) ||
        bad_overlap(rp, (size_t)num, bp, (size_t)num))
        return ASMCRYPT_ERANGE;
    bn_mont_mul_any(rp, ap, bp, np, n0, num);
    return ASMCRYPT_OK;
}
