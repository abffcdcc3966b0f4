/*
 * crypto/bn/bn_exp_aarch64.c - constant-time modexp for AArch64 with the
 * armv8-mont module.
 *
 * Compiled with the modexp module on asm_arch aarch64 only (Configure's
 * registry).  bn_mod_exp_arch() is tried first by asmcrypt_mod_exp (bn_exp.c)
 * after its argument checks and always computes rp (returns 1).  Same
 * fixed 5-bit windows as bn_exp.c (32 Montgomery powers, five squarings
 * and one multiplication per window, all through bn_mul_mont), with two
 * cheaper pieces around the products:
 *
 *  - R^2 mod n without ~w*num doublings: x = 2^(bitlen(n)-1) is doubled
 *    mod n up to 2^(66 num) mod n, the Montgomery form of 2^(2 num); five
 *    Montgomery squarings give the form of 2^(64 num) = R, i.e. R^2 mod n.
 *    n is public: only its length decides the number of steps (about 65
 *    doublings for a full-length n instead of ~w*num).
 *  - the table entry of a window is read by bn_gather5_armv8 (armv8-mont.pl,
 *    NEON: all 32 entries loaded, merged under vector-compare masks) when
 *    the NEON capability bit is set, else by bn_gather5_armv8_gpr (ldp and
 *    csel on flags from the entry number, no NEON: also for kernel code).
 *    The table stride is num rounded up to 8 words (padding zeroed).
 *
 * Measured figures (instructions under qemu-aarch64 against OpenSSL's
 * BN_mod_exp_mont_consttime): docs/perf/aarch64.md.
 */
#include "bn_local.h"
#include "bn_exp_util.h"

/* the NEON gather runs */
static int use_neon(unsigned int caps)
{
    return (caps & ASMCRYPT_CAP_A64_NEON) != 0;
}

/* out = tab[idx] (32 entries, stride S words), every entry read */
static void lookup(BN_ULONG *out, const BN_ULONG *tab, unsigned int idx, int S)
{
    if (use_neon(asmcrypt_cpu_caps()))
        bn_gather5_armv8(out, tab, idx, S);
    else
        bn_gather5_armv8_gpr(out, tab, idx, S);
}

/* distinct names so the tools (ct-test, icount) run both gathers */
const char *bn_mod_exp_arch_name(unsigned int caps)
{
    return use_neon(caps) ? "armv8-neon" : "armv8";
}

int bn_mod_exp_arch(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep,
                    int ewords, const BN_ULONG *np, int num)
{
    int S = (num + 7) & ~7;                         /* the gathers take 8-word blocks */

    if (S > ASMCRYPT_BN_MAX_WORDS)
        return 0;                                   /* no room for padding */
    bn_exp_windows(rp, ap, ep, ewords, np, num, S, lookup, NULL);
    return 1;
}
