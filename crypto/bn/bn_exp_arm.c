/*
 * crypto/bn/bn_exp_arm.c - constant-time modexp for 32-bit ARM with the
 * armv4-mont module.
 *
 * Compiled with the modexp module on asm_arch arm only (Configure's
 * registry).  bn_mod_exp_arch() is tried first by asmcrypt_mod_exp
 * (bn_exp.c) after its argument checks and always computes rp (returns
 * 1).  The window loop is the common one (bn_exp_windows: 32 Montgomery
 * powers, five squarings and one multiplication per window, all through
 * bn_mul_mont); what differs is the table read of each window:
 * bn_gather5_armv7_neon (armv4-mont.pl: 16-word columns of the 32 entries
 * merged with vbit under vector-compare masks) when the build has NEON
 * code and the NEON capability bit is set, else bn_gather5_armv4 (ldm,
 * and, orr; any ARM).  C's gather (bn_exp_gather_c) took a fifth of a
 * 1024-bit modexp on the armv7 row: 7.7k instructions per window.
 * The table stride is num rounded up to the gather's column (16 words
 * for NEON, 4 for the integer gather; padding zeroed).
 *
 * Measured figures (instructions under qemu-arm against OpenSSL's
 * BN_mod_exp_mont_consttime): docs/perf/arm.md.
 */
#include "bn_local.h"
#include "bn_dispatch.h"
#include "bn_exp_util.h"

/* The gather follows bn_mul_mont's NEON test, so the name is that of the
 * Montgomery path at full size: "armv7-neon", "armv6-umaal" or "armv4". */
const char *bn_mod_exp_arch_name(unsigned int caps)
{
    return bn_mont_arch_name(caps);
}

/* The gather is chosen once per modexp, with the table stride it needs:
 * num rounded up to the NEON gather's 16-word columns, or to the integer
 * gather's 4 words. */
int bn_mod_exp_arch(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep,
                    int ewords, const BN_ULONG *np, int num)
{
    bn_exp_gather_f gather = bn_gather5_armv4;
    int S = (num + 3) & ~3;

#if ASMCRYPT_ARM_NEON_BUILD
    if (asmcrypt_cpu_caps() & ASMCRYPT_CAP_ARM_NEON) {    /* bn_mul_mont's own test */
        gather = bn_gather5_armv7_neon;
        S = (num + 15) & ~15;
    }
#endif
    if (S > ASMCRYPT_BN_MAX_WORDS)
        return 0;                                   /* no room for padding */
    bn_exp_windows(rp, ap, ep, ewords, np, num, S, gather, NULL);
    return 1;
}
