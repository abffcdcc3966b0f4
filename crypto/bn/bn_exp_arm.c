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
 * The table stride is num rounded up to 16 words (padding zeroed).
 *
 * Measured figures (instructions under qemu-arm against OpenSSL's
 * BN_mod_exp_mont_consttime): docs/perf/arm.md.
 */
#include "bn_local.h"
#include "bn_dispatch.h"
#include "bn_exp_util.h"

/* the NEON gather runs: the same test as bn_mul_mont's NEON path */
static int use_neon(unsigned int caps)
{
    return ASMCRYPT_ARM_NEON_BUILD && (caps & ASMCRYPT_CAP_ARM_NEON) != 0;
}

/* out = tab[idx] (32 entries, stride S words), every entry read */
static void lookup(BN_ULONG *out, const BN_ULONG *tab, unsigned int idx, int S)
{
#if ASMCRYPT_ARM_NEON_BUILD
    if (use_neon(asmcrypt_cpu_caps())) {
        bn_gather5_armv7_neon(out, tab, idx, S);
        return;
    }
#endif
    bn_gather5_armv4(out, tab, idx, S);
}

/* The gather follows bn_mul_mont's NEON test, so the name is that of the
 * Montgomery path at full size: "armv7-neon", "armv6-umaal" or "armv4". */
const char *bn_mod_exp_arch_name(unsigned int caps)
{
    return bn_mont_arch_name(caps);
}

int bn_mod_exp_arch(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep,
                    int ewords, const BN_ULONG *np, int num)
{
    int S = (num + 15) & ~15;                       /* the gathers' columns */

    if (S > ASMCRYPT_BN_MAX_WORDS)
        return 0;                                   /* no room for padding */
    bn_exp_windows(rp, ap, ep, ewords, np, num, S, lookup, NULL);
    return 1;
}
