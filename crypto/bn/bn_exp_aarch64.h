/*
 * crypto/bn/bn_exp_aarch64.h - the AArch64 modexp of bn_exp_aarch64.c,
 * tried by asmcrypt_mod_exp before its generic path.
 */
#ifndef ASMCRYPT_BN_EXP_AARCH64_H
#define ASMCRYPT_BN_EXP_AARCH64_H

#include "internal.h"

#if defined(__aarch64__) && defined(ASMCRYPT_BN_MONT_ASM) && ASMCRYPT_WORD_BITS == 64
# define ASMCRYPT_MOD_EXP_AARCH64 1
/* Arguments already checked by asmcrypt_mod_exp.  Returns 1 when rp was
 * computed, 0 when this path does not apply (caller continues). */
int asmcrypt_mod_exp_aarch64(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep,
                             int ewords, const BN_ULONG *np, int num);
#endif

#endif
