/*
 * crypto/bn/bn_api.c - the public asmcrypt_bn_* functions: check the
 * arguments (writing nothing on error), then call the dispatched code.
 * The range checks a < n, b < n are constant-time compares; the error
 * return itself only tells the caller what it passed in.
 */
#include "bn_local.h"
#include "bn_dispatch.h"

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
    return ASMCRYPT_OK;
}

static int check_add(asmcrypt_word *rp, const asmcrypt_word *ap,
                     const asmcrypt_word *bp, int num)
{
    if (!words_size_ok(num))
        return ASMCRYPT_ESIZE;
    if (num > 0 && (rp == NULL || ap == NULL || bp == NULL))
        return ASMCRYPT_ENULL;
    return ASMCRYPT_OK;
}

int asmcrypt_bn_mul_add_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                              asmcrypt_word w, asmcrypt_word *carry)
{
    int rc = check_mul(rp, ap, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    put_carry(carry, num > 0 ? asmcrypt_words_mul_add(rp, ap, num, w) : 0);
    return ASMCRYPT_OK;
}

int asmcrypt_bn_mul_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                          asmcrypt_word w, asmcrypt_word *carry)
{
    int rc = check_mul(rp, ap, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    put_carry(carry, num > 0 ? asmcrypt_words_mul(rp, ap, num, w) : 0);
    return ASMCRYPT_OK;
}

int asmcrypt_bn_mul_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num,
                              asmcrypt_word w, asmcrypt_word *borrow)
{
    int rc = check_mul(rp, ap, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    put_carry(borrow, num > 0 ? asmcrypt_words_mul_sub(rp, ap, num, w) : 0);
    return ASMCRYPT_OK;
}

int asmcrypt_bn_sqr_words(asmcrypt_word *rp, const asmcrypt_word *ap, int num)
{
    int rc = check_mul(rp, ap, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    if (num > 0)
        asmcrypt_words_sqr(rp, ap, num);
    return ASMCRYPT_OK;
}

int asmcrypt_bn_add_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                          const asmcrypt_word *bp, int num, asmcrypt_word *carry)
{
    int rc = check_add(rp, ap, bp, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    put_carry(carry, num > 0 ? asmcrypt_words_add(rp, ap, bp, num) : 0);
    return ASMCRYPT_OK;
}

int asmcrypt_bn_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                          const asmcrypt_word *bp, int num, asmcrypt_word *borrow)
{
    int rc = check_add(rp, ap, bp, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    put_carry(borrow, num > 0 ? asmcrypt_words_sub(rp, ap, bp, num) : 0);
    return ASMCRYPT_OK;
}

int asmcrypt_bn_cnd_add_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                              const asmcrypt_word *bp, int num, asmcrypt_word cond,
                              asmcrypt_word *carry)
{
    int rc = check_add(rp, ap, bp, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    put_carry(carry, num > 0 ? asmcrypt_words_cnd_add(rp, ap, bp, num, cond) : 0);
    return ASMCRYPT_OK;
}

int asmcrypt_bn_cnd_sub_words(asmcrypt_word *rp, const asmcrypt_word *ap,
                              const asmcrypt_word *bp, int num, asmcrypt_word cond,
                              asmcrypt_word *borrow)
{
    int rc = check_add(rp, ap, bp, num);

    if (rc != ASMCRYPT_OK)
        return rc;
    put_carry(borrow, num > 0 ? asmcrypt_words_cnd_sub(rp, ap, bp, num, cond) : 0);
    return ASMCRYPT_OK;
}

/* Order of checks (shared with asmcrypt_mod_exp): ENULL, ESIZE, EEVEN, ERANGE. */
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
    asmcrypt_mont_mul_any(rp, ap, bp, np, n0, num);
    return ASMCRYPT_OK;
}
