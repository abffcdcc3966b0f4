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
 * Every multiplication goes through bn_mont_mul_any, so an assembly
 * bn_mul_mont speeds this up.  The window loop is bn_exp_windows
 * (bn_exp_util.c), shared with the per-architecture paths, which differ
 * only in their table gathers (and x86_64's IFMA radix-2^52 path): the
 * modexp module of Configure's registry, bn_mod_exp_arch.  Stack
 * use is fixed by ASMCRYPT_BN_MAX_WORDS (about 35 numbers of
 * ASMCRYPT_BN_MAX_BITS bits, ~36 KB), no malloc.
 */
#include "bn_local.h"
#include "bn_exp_util.h"

int asmcrypt_mod_exp(asmcrypt_word *rp, const asmcrypt_word *ap,
                     const asmcrypt_word *ep, int ewords,
                     const asmcrypt_word *np, int num)
{
    if (rp == NULL || ap == NULL || ep == NULL || np == NULL)
        return ASMCRYPT_ENULL;
    if (num < 1 || num > ASMCRYPT_BN_MAX_WORDS ||
        ewords < 1 || ewords > ASMCRYPT_BN_MAX_WORDS)
        return ASMCRYPT_ESIZE;
    if ((np[0] & 1) == 0)
        return ASMCRYPT_EEVEN;
    if (bn_lt_ct(ap, np, num) == 0)
        return ASMCRYPT_ERANGE;
    /* rp may overlap ap and ep (written once, at the end), never np:
     * the window loop keeps reading the modulus. */
    if ((uintptr_t)rp < (uintptr_t)(np + num) && (uintptr_t)np < (uintptr_t)(rp + num))
        return ASMCRYPT_ERANGE;

#ifdef ASMCRYPT_BN_MODEXP_ASM
    if (bn_mod_exp_arch(rp, ap, ep, ewords, np, num))
        return ASMCRYPT_OK;          /* the arch's path, bn_exp_<arch>.c */
#endif
    bn_exp_windows(rp, ap, ep, ewords, np, num, num, bn_exp_gather_c, NULL);
    return ASMCRYPT_OK;
}
