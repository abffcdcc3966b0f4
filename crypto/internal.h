/*
 * crypto/internal.h - the contract between the C layer, the C references
 * and the assembly modules.  Not installed.
 *
 * Assembly entry points keep the OpenSSL names and argument lists
 * (BN_ULONG is asmcrypt_word).  Modules are enabled by Configure from its
 * registry, each with a conf.h define:
 *   ASMCRYPT_BN_MONT_ASM   bn_mul_mont            (crypto/bn/asm/<arch>-mont.pl)
 *   ASMCRYPT_BN_WORDS_ASM  bn_*_words             (crypto/bn/asm/<arch>-words.pl)
 *   ASMCRYPT_BN_MODEXP_ASM bn_mod_exp_arch        (crypto/bn/bn_exp_<arch>.c)
 *   ASMCRYPT_POLY1305_ASM  poly1305_init/_blocks/_emit (crypto/poly1305/asm)
 * The C references carry a _c / ref suffix so both can be linked together
 * (tests and apps/speed compare them in one binary).
 */
#ifndef ASMCRYPT_INTERNAL_H
#define ASMCRYPT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "asmcrypt/bn.h"
#include "asmcrypt/poly1305.h"
#include "asmcrypt/cpu.h"

typedef asmcrypt_word BN_ULONG;

/* ---- capabilities (crypto/cpucap.c + crypto/arch/cpucap_<arch>.c) ----- */

/* Read by assembly modules to choose a path: detected & ASMCRYPT_CAP.
 * Hidden so that PC-relative access works from inside the shared library. */
extern unsigned int asmcrypt_cpucap
#if defined(__GNUC__) && !defined(_WIN32)
    __attribute__((visibility("hidden")))
#endif
    ;
void asmcrypt_cpucap_init(void);          /* idempotent */
unsigned int asmcrypt_cpucap_detected(void);
/* Tests and apps/speed only: caps = detected & mask (never adds). */
void asmcrypt_cpucap_restrict(unsigned int mask);
/* The capability bits of this machine: crypto/arch/cpucap_<arch>.c, the
 * one Configure's registry lists for the target's asm_arch. */
unsigned int cpucap_arch_detect(void);
/* MIPS only (crypto/arch/cpucap_mips.c): the code the MIPS modules
 * assemble for this build's ISA ("mips32r2", "mips64r6", ...). */
const char *cpucap_mips_build_name(void);
/* MIPS o32 MIPS32r1 builds for Linux (GNU C): ASMCRYPT_CAP_MIPS_R2 comes
 * from a run-time probe (crypto/arch/cpucap_mips.c), and poly1305-mips
 * carries its R2 block function too.  cpucap_mips_r2_probe runs the probe
 * once more (tests; the library probes once per process): 1 when a
 * MIPS32R2 instruction runs, 0 when it traps.  The caller's SIGILL
 * disposition and signal mask are the same afterwards. */
#if defined(__mips__) && defined(__linux__) && defined(__GNUC__) && \
    defined(__mips_isa_rev) && __mips_isa_rev == 1 && \
    (!defined(_MIPS_SIM) || !defined(_ABIO32) || _MIPS_SIM == _ABIO32)
# define ASMCRYPT_MIPS_R2_PROBE 1
int cpucap_mips_r2_probe(void);
#else
# define ASMCRYPT_MIPS_R2_PROBE 0
#endif
/* MIPS64 R6 little-endian n64 builds for Linux (GNU C):
 * ASMCRYPT_CAP_MIPS_MSA comes from a run-time probe, and poly1305-mips's
 * poly1305_blocks has an MSA body.  cpucap_mips_msa_probe runs the probe once
 * more (tests): 1 when an MSA instruction runs, 0 when it traps; like
 * cpucap_mips_r2_probe it leaves the SIGILL disposition and the signal mask
 * as they were.  (Not o32 or n32: no matrix row runs such code on a CPU
 * with MSA; qemu-mipsel has none.  docs/perf/mips.md.) */
#if defined(__mips__) && defined(__linux__) && defined(__GNUC__) && \
    defined(__mips_isa_rev) && __mips_isa_rev >= 6 && !defined(__MIPSEB__) && \
    defined(__mips64) && defined(_MIPS_SIM) && defined(_ABI64) && _MIPS_SIM == _ABI64
# define ASMCRYPT_MIPS_MSA_PROBE 1
int cpucap_mips_msa_probe(void);
#else
# define ASMCRYPT_MIPS_MSA_PROBE 0
#endif

/* ---- implementation names ---------------------------------------------
 * Each area names what its dispatch selects ("c" for the C reference) in a
 * function of this type; crypto/impl.c tables them by primitive. */
typedef const char *impl_name_f(const char *primitive);

/* ---- the word primitives ------------------------------------------------
 * One list of prototypes, declared three times below with NAME(op) giving
 * the name of operation op: the C references bn_<op>_words_c, the assembly
 * entry points bn_<op>_words and the dispatch bn_words_<op>
 * (bn_dispatch.h), for op = mul_add, mul, mul_sub, sqr, add, sub,
 * cnd_add, cnd_sub. */
#define ASMCRYPT_BN_WORDS_DECLARE(NAME) \
    BN_ULONG NAME(mul_add)(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w); \
    BN_ULONG NAME(mul)(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w); \
    BN_ULONG NAME(mul_sub)(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w); \
    void     NAME(sqr)(BN_ULONG *rp, const BN_ULONG *ap, int num); \
    BN_ULONG NAME(add)(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num); \
    BN_ULONG NAME(sub)(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num); \
    BN_ULONG NAME(cnd_add)(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, \
                           int num, BN_ULONG cond); \
    BN_ULONG NAME(cnd_sub)(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, \
                           int num, BN_ULONG cond)

/* ---- C references: crypto/bn/bn_words.c, bn_mont.c --------------------- */
#define ASMCRYPT_BN_C_NAME(op) bn_##op##_words_c
ASMCRYPT_BN_WORDS_DECLARE(ASMCRYPT_BN_C_NAME);
/* Word-serial (CIOS) Montgomery multiplication, any num >= 1, rp may alias
 * ap/bp, constant time; reads n0[0] only; always returns 1. */
int bn_mul_mont_c(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                  const BN_ULONG *np, const BN_ULONG *n0, int num);

/* ---- assembly entry points (OpenSSL ABI) -------------------------------- */
/* bn_mul_mont: returns 1 when it computed rp, 0 when it declines (e.g. a
 * num it does not handle); the caller then uses bn_mul_mont_c.  Only n0[0]
 * is read (asmcrypt passes a one-word n0 on every target). */
int bn_mul_mont(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                const BN_ULONG *np, const BN_ULONG *n0, int num);
/* x86_64-mont only (the modexp windows): count Montgomery squarings, each
 * what bn_mul_mont(rp, x, x, np, n0, num) gives, in one call; returns 0
 * without writing unless BMI2+ADX, num a multiple of 8 up to
 * ASMCRYPT_BN_MAX_WORDS and count >= 1.  rp may be ap. */
int bn_mont_sqrn_x86_64(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *np,
                        const BN_ULONG *n0, int num, int count);
/* The same count squarings of rp in place, then rp = the Montgomery
 * product of rp and bp (bn_mul_mont(rp, rp, bp, ..)): a modexp window in
 * one call; bp must not overlap rp.  Declines as bn_mont_sqrn_x86_64. */
int bn_mont_sqrn_mul_x86_64(BN_ULONG *rp, const BN_ULONG *bp, const BN_ULONG *np,
                            const BN_ULONG *n0, int num, int count);
/* 32-bit ARM: 1 when armv4-mont.pl assembled its NEON code (bn_mul_mont's
 * NEON path and bn_gather5_armv7_neon), as its cpp block decides for
 * this compiler's flags; the NEON capability bit then picks them. */
#if (defined(__ARM_NEON) || defined(__ARM_NEON__)) && defined(__ARM_ARCH) && __ARM_ARCH >= 7
# define ASMCRYPT_ARM_NEON_BUILD 1
#else
# define ASMCRYPT_ARM_NEON_BUILD 0
#endif
/* The modexp windows' table reads (armv4-mont, armv8-mont): out[0..S-1] =
 * tab[idx*S ..], the entry idx of 32 entries of S words, every entry
 * read.  S: a positive multiple of 16 (armv7 NEON), 8 (AArch64) or 4
 * (bn_gather5_armv4). */
void bn_gather5_armv7_neon(BN_ULONG *out, const BN_ULONG *tab, unsigned int idx, int S);
void bn_gather5_armv4(BN_ULONG *out, const BN_ULONG *tab, unsigned int idx, int S);
void bn_gather5_armv8(BN_ULONG *out, const BN_ULONG *tab, unsigned int idx, int S);
void bn_gather5_armv8_gpr(BN_ULONG *out, const BN_ULONG *tab, unsigned int idx, int S);
/* bn_mul_add_words, bn_mul_words, ... bn_cnd_sub_words */
#define ASMCRYPT_BN_ASM_NAME(op) bn_##op##_words
ASMCRYPT_BN_WORDS_DECLARE(ASMCRYPT_BN_ASM_NAME);

/* ---- dispatch used by the library (crypto/bn/bn_dispatch.c) ------------- */
/* Montgomery multiplication through asm when it accepts num, else C. */
void bn_mont_mul_any(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                           const BN_ULONG *np, BN_ULONG n0, int num);

/* ---- Poly1305 ------------------------------------------------------------ */
typedef void (*poly1305_blocks_f)(void *ctx, const unsigned char *inp,
                                  size_t len, unsigned int padbit);
typedef void (*poly1305_emit_f)(void *ctx, unsigned char mac[16],
                                const unsigned int nonce[4]);

/* C references (crypto/poly1305/poly1305_ref26.c, poly1305_ref64.c): same
 * semantics as the asm entry points; init returns 0 and never fills func.
 * State fits in asmcrypt_poly1305_ctx.opaque. */
int  poly1305_ref26_init(void *ctx, const unsigned char key[16]);
void poly1305_ref26_blocks(void *ctx, const unsigned char *inp, size_t len,
                           unsigned int padbit);
void poly1305_ref26_emit(void *ctx, unsigned char mac[16], const unsigned int nonce[4]);
#if defined(__SIZEOF_INT128__)
# define ASMCRYPT_HAVE_INT128 1
int  poly1305_ref64_init(void *ctx, const unsigned char key[16]);
void poly1305_ref64_blocks(void *ctx, const unsigned char *inp, size_t len,
                           unsigned int padbit);
void poly1305_ref64_emit(void *ctx, unsigned char mac[16], const unsigned int nonce[4]);
#endif

/* Assembly (OpenSSL semantics): init clamps r, zeroes h; it returns 1 and
 * stores the best blocks/emit pair for this CPU in func[0]/func[1], or
 * returns 0 meaning "use poly1305_blocks/poly1305_emit".  key == NULL only
 * zeroes h.  blocks processes floor(len/16) blocks, adding padbit<<128 to
 * each.  emit adds nonce (4 LE words) mod 2^128 and writes 16 bytes with
 * byte stores (mac may be unaligned). */
int  poly1305_init(void *ctx, const unsigned char key[16], void *func[2]);
void poly1305_blocks(void *ctx, const unsigned char *inp, size_t len,
                     unsigned int padbit);
void poly1305_emit(void *ctx, unsigned char mac[16], const unsigned int nonce[4]);
/* The name of a block function the module's init hands out
 * (crypto/poly1305/poly1305_names_<arch>.c, with the module only). */
const char *poly1305_asm_name(poly1305_blocks_f chosen);

#endif
