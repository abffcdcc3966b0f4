/*
 * tools/routines.c - the routine table (routines.h): each implementation
 * of each primitive as one operation on a struct rt_job, ours and the
 * peers'.  Built twice (tools/tools.mk): routines_peers.o with PEER_CFLAGS
 * (OpenSSL, GMP, libsodium entries present where Configure found them)
 * and routines.o without.
 */
#include <stdio.h>
#include <string.h>
#include "routines.h"

#if defined(HAVE_OPENSSL)
# include <openssl/bn.h>
# include <openssl/crypto.h>
# include <openssl/evp.h>
#endif
#if defined(HAVE_GMP)
# include <gmp.h>
#endif
#if defined(HAVE_SODIUM)
# include <sodium.h>
#endif

/* The state of the one-shot Poly1305 routines (poly_ctx); the volatile
 * sink the results go to so that the calls cannot be dropped (also the
 * scalar result rt_result() reports); and status, the return code of the
 * last library call that has one (rt_status()).  One object in a section
 * of its own, poly_ctx first: where the compiler addresses statics from
 * a section anchor (AArch64) that is their layout when they were the
 * drivers' only statics, so the counted routines address them in as many
 * instructions as then (test/icount-gate.sh's baseline).
 *
 * status is a static rather than a job field: storing into the job would
 * keep the job pointer live across the call, a saved register in the
 * measured region.
 *
 * carry is where the API's word primitives write their carry (then copied
 * to the sink).  It is a static, not a local: the API's overlap check of
 * the carry word against rp (crypto/bn/bn_api.c, a < b + Q && b < a + P)
 * takes its second compare or not by which of the two lies lower, and a
 * 32-bit guest's stack under qemu-user lies below the program image in
 * one environment and above it in another.  With a local the same armv7
 * and thumb2 builds counted 3 instructions more per word call in CI than
 * where the baseline was taken (stop 25); a static's place relative to
 * the drivers' buffers is fixed when the program is linked. */
#if defined(__GNUC__) && defined(__ELF__)
# define RT_STATE __attribute__((section(".bss.asmcrypt_routines")))
#else
# define RT_STATE
#endif
static struct {
    asmcrypt_poly1305_ctx poly_ctx;
    volatile BN_ULONG sink;
    volatile int status;
    BN_ULONG carry;
} rt_state RT_STATE;

/* RT_OP(f, statement): f(job) performs the statement once (the drivers'
 * probe calls it), f_n(job, n) n times (apps/speed times it), with j the
 * job.
 *
 * f_n starts a 64-byte line on x86_64, so that the timing loops of the
 * implementations of a table (same prologue, same loop) sit at the same
 * offset in their lines.  Unaligned, gcc placed them at 0x18, 0x28 or
 * 0x38 of a line, the loop of ~33 bytes crossing a line in some, and on
 * the Zen 5 VM that alone moved a word call of 1-3 limbs by up to 25%:
 * the same bn_mul_sub_words called from two otherwise identical loops at
 * different offsets took 1.25x the time at 1 limb and 1.08x at 3 (docs/
 * perf/x86_64-small.md, 2026-12-07), so a table compared the callers'
 * placement as much as the callees. */
#if defined(__GNUC__) && defined(__x86_64__)
# define RT_TIMED __attribute__((aligned(64)))
#else
# define RT_TIMED
#endif
#define RT_OP(fn, ...)                                                       \
    static void fn(void *a_)                                                 \
    {                                                                        \
        struct rt_job *j = a_;                                               \
        __VA_ARGS__;                                                         \
    }                                                                        \
    static RT_TIMED void fn##_n(void *a_, unsigned long n_)                  \
    {                                                                        \
        struct rt_job *j = a_;                                               \
        while (n_--) {                                                       \
            __VA_ARGS__;                                                     \
        }                                                                    \
    }

/* ---- Montgomery multiplication and modexp ------------------------------- */
RT_OP(mont_c, rt_state.sink = (BN_ULONG)bn_mul_mont_c(j->rp, j->ap, j->bp, j->np, &j->n0, j->num))
RT_OP(mont_any, bn_mont_mul_any(j->rp, j->ap, j->bp, j->np, j->n0, j->num))
RT_OP(mont_api, rt_state.status = asmcrypt_bn_mont_mul(j->rp, j->ap, j->bp, j->np, j->n0, j->num))
RT_OP(sqr_c, rt_state.sink = (BN_ULONG)bn_mul_mont_c(j->rp, j->ap, j->ap, j->np, &j->n0, j->num))
RT_OP(sqr_any, bn_mont_mul_any(j->rp, j->ap, j->ap, j->np, j->n0, j->num))
RT_OP(sqr_api, rt_state.status = asmcrypt_bn_mont_mul(j->rp, j->ap, j->ap, j->np, j->n0, j->num))
#ifdef ASMCRYPT_BN_MONT_ASM
RT_OP(mont_asm, rt_state.sink = (BN_ULONG)bn_mul_mont(j->rp, j->ap, j->bp, j->np, &j->n0, j->num))
RT_OP(sqr_asm, rt_state.sink = (BN_ULONG)bn_mul_mont(j->rp, j->ap, j->ap, j->np, &j->n0, j->num))
#endif
RT_OP(modexp_api, rt_state.status = asmcrypt_mod_exp(j->rp, j->ap, j->ep, j->ewords, j->np, j->num))

/* ---- word primitives ----------------------------------------------------- */
/* C reference, API and (asm builds) the assembly of one word primitive;
 * W: rp, ap, num, w; AB: rp, ap, bp, num; CND: AB and cond. */
#define ARGS_W   j->rp, j->ap, j->num, j->w
#define ARGS_AB  j->rp, j->ap, j->bp, j->num
#define ARGS_CND j->rp, j->ap, j->bp, j->num, j->cond
#define WORDS_C_API(name, args)                                              \
    RT_OP(name##_c, rt_state.sink = bn_##name##_c(ARGS_##args))              \
    RT_OP(name##_api, rt_state.status = asmcrypt_bn_##name(ARGS_##args, &rt_state.carry); \
          rt_state.sink = rt_state.carry)
#ifdef ASMCRYPT_BN_WORDS_ASM
# define WORDS(name, args) WORDS_C_API(name, args)                           \
    RT_OP(name##_asm, rt_state.sink = bn_##name(ARGS_##args))
#else
# define WORDS(name, args) WORDS_C_API(name, args)
#endif
WORDS(mul_add_words, W)
WORDS(mul_words, W)
WORDS(mul_sub_words, W)
WORDS(add_words, AB)
WORDS(sub_words, AB)
WORDS(cnd_add_words, CND)
WORDS(cnd_sub_words, CND)

RT_OP(sqr_words_c, bn_sqr_words_c(j->rp, j->ap, j->num))
RT_OP(sqr_words_api, rt_state.status = asmcrypt_bn_sqr_words(j->rp, j->ap, j->num))
#ifdef ASMCRYPT_BN_WORDS_ASM
RT_OP(sqr_words_asm, bn_sqr_words(j->rp, j->ap, j->num))
#endif

/* ---- Poly1305: one-shot tag (init, blocks, padded last block, emit) ----- */

static void nonce_words(unsigned int nonce[4], const unsigned char *s)
{
    int i;

    for (i = 0; i < 4; i++)
        nonce[i] = (unsigned int)s[4 * i] | (unsigned int)s[4 * i + 1] << 8
                   | (unsigned int)s[4 * i + 2] << 16
                   | (unsigned int)s[4 * i + 3] << 24;
}

/* Inlined where used, so that each one-shot is the one function it was
 * when written out in full (the gated instruction counts). */
#if defined(__GNUC__)
# define RT_INLINE static inline __attribute__((always_inline))
#else
# define RT_INLINE static inline
#endif

/* The message after init: its whole blocks (full bytes), then the padded
 * last one (rest bytes), both counted before init as the callers do.
 * *blocks is read at each call, as the dispatch's poly_ctx.blocks is. */
RT_INLINE void poly_message(const struct rt_job *j, poly1305_blocks_f const *blocks,
                            size_t full, size_t rest)
{
    if (full)
        (*blocks)(rt_state.poly_ctx.opaque, j->msg, full, 1);
    if (rest) {
        unsigned char last[16] = {0};
        memcpy(last, j->msg + full, rest);
        last[rest] = 1;
        (*blocks)(rt_state.poly_ctx.opaque, last, 16, 0);
    }
}

typedef int (*poly_init_f)(void *, const unsigned char *);

static void poly_ref(struct rt_job *j, poly_init_f init, poly1305_blocks_f blocks,
                     poly1305_emit_f emit)
{
    unsigned int nonce[4];
    size_t full = j->len & ~(size_t)15, rest = j->len & 15;

    nonce_words(nonce, j->key + 16);
    init(rt_state.poly_ctx.opaque, j->key);
    poly_message(j, &blocks, full, rest);
    emit(rt_state.poly_ctx.opaque, j->tag, nonce);
}

RT_OP(poly_c26, poly_ref(j, poly1305_ref26_init, poly1305_ref26_blocks, poly1305_ref26_emit))
#ifdef ASMCRYPT_HAVE_INT128
RT_OP(poly_c64, poly_ref(j, poly1305_ref64_init, poly1305_ref64_blocks, poly1305_ref64_emit))
#endif
RT_OP(poly_api, rt_state.status = asmcrypt_poly1305(j->tag, j->msg, j->len, j->key))

/* The incremental API on the whole message: init, one update, final (the
 * issue 13 row "API within 1.2x of the raw asm, incremental use").  The
 * three return codes are ORed: every one is 0 on success. */
RT_INLINE void poly_incremental(struct rt_job *j)
{
    asmcrypt_poly1305_ctx *c = &rt_state.poly_ctx;
    int rc = asmcrypt_poly1305_init(c, j->key);

    rc |= asmcrypt_poly1305_update(c, j->msg, j->len);
    rc |= asmcrypt_poly1305_final(c, j->tag);
    rt_state.status = rc;
}
RT_OP(poly_inc, poly_incremental(j))

/* What the API selects (asm when enabled), without the API's buffering and
 * final wipe: init, blocks, padded last block, emit - like poly_ref. */
RT_INLINE void poly_dispatch(struct rt_job *j)
{
    size_t full = j->len & ~(size_t)15, rest = j->len & 15;

    rt_state.status = asmcrypt_poly1305_init(&rt_state.poly_ctx, j->key);
    poly_message(j, &rt_state.poly_ctx.blocks, full, rest);
    rt_state.poly_ctx.emit(rt_state.poly_ctx.opaque, j->tag, rt_state.poly_ctx.nonce);
}
RT_OP(poly_any, poly_dispatch(j))

#ifdef ASMCRYPT_POLY1305_ASM
/* The assembly itself: its init may hand out other block and emit
 * functions (a vector path) in func[]. */
RT_INLINE void poly_bare(struct rt_job *j)
{
    poly1305_blocks_f blocks = poly1305_blocks;
    poly1305_emit_f emit = poly1305_emit;
    void *func[2] = {NULL, NULL};
    unsigned int nonce[4];
    size_t full = j->len & ~(size_t)15, rest = j->len & 15;

    nonce_words(nonce, j->key + 16);
    if (poly1305_init(rt_state.poly_ctx.opaque, j->key, func)) {
        blocks = (poly1305_blocks_f)func[0];
        emit = (poly1305_emit_f)func[1];
    }
    poly_message(j, &blocks, full, rest);
    emit(rt_state.poly_ctx.opaque, j->tag, nonce);
}
RT_OP(poly_asm, poly_bare(j))
#endif

/* ---- peers ---------------------------------------------------------------- */
#if defined(HAVE_OPENSSL)
static struct {
    BN_CTX *ctx;
    BN_MONT_CTX *mont;
    BIGNUM *r, *a, *b, *n, *e;
    EVP_MAC *mac;
    EVP_MAC_CTX *mctx;
} ossl;

/* num words as the fixed-width little-endian bytes of BN_lebin2bn, and
 * back (endian-independent) */
static BIGNUM *to_bn(BIGNUM *bn, const BN_ULONG *p, int num)
{
    static unsigned char tmp[ASMCRYPT_BN_MAX_WORDS * sizeof(BN_ULONG)];
    size_t n = (size_t)num * sizeof(BN_ULONG), i;

    for (i = 0; i < n; i++)
        tmp[i] = (unsigned char)(p[i / sizeof(BN_ULONG)] >> (8 * (i % sizeof(BN_ULONG))));
    return BN_lebin2bn(tmp, (int)n, bn);
}

static void ossl_fetch(struct rt_job *j)
{
    static unsigned char tmp[ASMCRYPT_BN_MAX_WORDS * sizeof(BN_ULONG)];
    size_t n = (size_t)j->num * sizeof(BN_ULONG), i;

    memset(j->rp, 0, n);
    if (BN_bn2lebinpad(ossl.r, tmp, (int)n) < 0)
        return;
    for (i = 0; i < n; i++)
        j->rp[i / sizeof(BN_ULONG)] |= (BN_ULONG)tmp[i] << (8 * (i % sizeof(BN_ULONG)));
}

static int ossl_init(void)
{
    if (ossl.ctx == NULL) {
        ossl.ctx = BN_CTX_new();
        ossl.mont = BN_MONT_CTX_new();
        ossl.r = BN_new();
        ossl.a = BN_new();
        ossl.b = BN_new();
        ossl.n = BN_new();
        ossl.e = BN_new();
        ossl.mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
        ossl.mctx = ossl.mac ? EVP_MAC_CTX_new(ossl.mac) : NULL;
    }
    return ossl.ctx != NULL && ossl.mont != NULL && ossl.r != NULL && ossl.a != NULL
           && ossl.b != NULL && ossl.n != NULL && ossl.e != NULL;
}

static int ossl_prepare_bn(struct rt_job *j)
{
    if (!ossl_init() || j->num < 1)
        return 0;
    to_bn(ossl.n, j->np, j->num);
    to_bn(ossl.a, j->ap, j->num);
    to_bn(ossl.b, j->bp, j->num);
    if (j->ewords > 0)
        to_bn(ossl.e, j->ep, j->ewords);
    BN_set_flags(ossl.e, BN_FLG_CONSTTIME);
    return BN_MONT_CTX_set(ossl.mont, ossl.n, ossl.ctx) == 1;
}

static int ossl_prepare_mac(struct rt_job *j)
{
    (void)j;
    return ossl_init() && ossl.mctx != NULL;
}

RT_OP(ossl_mont, rt_state.sink = (BN_ULONG)BN_mod_mul_montgomery(ossl.r, ossl.a, ossl.b, ossl.mont, ossl.ctx); (void)j)
/* a == b: OpenSSL's own squaring path */
RT_OP(ossl_sqr, rt_state.sink = (BN_ULONG)BN_mod_mul_montgomery(ossl.r, ossl.a, ossl.a, ossl.mont, ossl.ctx); (void)j)
RT_OP(ossl_modexp, rt_state.sink = (BN_ULONG)BN_mod_exp_mont_consttime(ossl.r, ossl.a, ossl.e, ossl.n,
                                                              ossl.ctx, ossl.mont); (void)j)

static void ossl_mac(struct rt_job *j)
{
    size_t outl = 0;

    EVP_MAC_init(ossl.mctx, j->key, 32, NULL);
    EVP_MAC_update(ossl.mctx, j->msg, j->len);
    EVP_MAC_final(ossl.mctx, j->tag, &outl, 16);
    rt_state.sink = outl;
}
RT_OP(ossl_poly, ossl_mac(j))
#endif

#if defined(HAVE_GMP)
/* The mpn functions work on our buffers when the limb is our word. */
# define GMP_LIMB_OK (sizeof(mp_limb_t) == sizeof(BN_ULONG) && GMP_NAIL_BITS == 0)
# define MP(p) ((mp_limb_t *)(void *)(p))
# define CMP(p) ((const mp_limb_t *)(const void *)(p))
static mpz_t gr, ga, ge, gn;

static int gmp_prepare_exp(struct rt_job *j)
{
    static int ready;

    if (!ready) {
        mpz_inits(gr, ga, ge, gn, NULL);
        ready = 1;
    }
    mpz_import(gn, (size_t)j->num, -1, sizeof(BN_ULONG), 0, 0, j->np);
    mpz_import(ga, (size_t)j->num, -1, sizeof(BN_ULONG), 0, 0, j->ap);
    mpz_import(ge, (size_t)j->ewords, -1, sizeof(BN_ULONG), 0, 0, j->ep);
    return mpz_sgn(ge) > 0;     /* mpz_powm_sec needs e > 0 */
}

static void gmp_fetch_exp(struct rt_job *j)
{
    memset(j->rp, 0, (size_t)j->num * sizeof(BN_ULONG));
    if (mpz_sizeinbase(gr, 2) <= (size_t)j->num * ASMCRYPT_WORD_BITS)
        mpz_export(j->rp, NULL, -1, sizeof(BN_ULONG), 0, 0, gr);
    else
        j->rp[0] = ~j->rp[0];   /* cannot be the result: too large */
}

static int gmp_prepare_words(struct rt_job *j)
{
    return GMP_LIMB_OK && j->num >= 1;
}

RT_OP(g_powm, mpz_powm_sec(gr, ga, ge, gn); rt_state.sink = mpz_size(gr); (void)j)
RT_OP(g_addmul, rt_state.sink = mpn_addmul_1(MP(j->rp), CMP(j->ap), j->num, j->w))
RT_OP(g_mul, rt_state.sink = mpn_mul_1(MP(j->rp), CMP(j->ap), j->num, j->w))
RT_OP(g_submul, rt_state.sink = mpn_submul_1(MP(j->rp), CMP(j->ap), j->num, j->w))
RT_OP(g_add, rt_state.sink = mpn_add_n(MP(j->rp), CMP(j->ap), CMP(j->bp), j->num))
RT_OP(g_sub, rt_state.sink = mpn_sub_n(MP(j->rp), CMP(j->ap), CMP(j->bp), j->num))
RT_OP(g_cadd, rt_state.sink = mpn_cnd_add_n(j->cond, MP(j->rp), CMP(j->ap), CMP(j->bp), j->num))
RT_OP(g_csub, rt_state.sink = mpn_cnd_sub_n(j->cond, MP(j->rp), CMP(j->ap), CMP(j->bp), j->num))
#endif

#if defined(HAVE_SODIUM)
static int sodium_prepare(struct rt_job *j)
{
    (void)j;
    return sodium_init() >= 0;
}

RT_OP(sodium_poly, crypto_onetimeauth_poly1305(j->tag, j->msg, (unsigned long long)j->len, j->key))
#endif

/* ---- the tables ------------------------------------------------------------ */
const struct rt_prim rt_prims[] = {
    {"poly1305", "poly1305", "poly1305", "one-shot MAC, key set per message", "B", RT_POLY1305},
    {"bn_mont_mul", "bn_mont_mul", "mont_mul", "r = a*b/R mod n", "bit", RT_MONT},
    {"bn_mont_sqr", "bn_mont_mul", "mont_sqr", "r = a*a/R mod n (a == b)", "bit", RT_MONT_SQR},
    {"mod_exp", "mod_exp", "mod_exp", "r = a^e mod n, constant time, full-size exponent",
     "bit", RT_MODEXP},
#define WPRIM(name, title) {#name, #name, #name, title, "limb", RT_WORDS}
    WPRIM(bn_mul_add_words, "rp[] += ap[]*w, carry out"),
    WPRIM(bn_mul_sub_words, "rp[] -= ap[]*w, borrow out"),
    WPRIM(bn_mul_words, "rp[] = ap[]*w, carry out"),
    WPRIM(bn_sqr_words, "rp[2i..2i+1] = ap[i]^2"),
    WPRIM(bn_add_words, "rp[] = ap[] + bp[], carry out"),
    WPRIM(bn_sub_words, "rp[] = ap[] - bp[], borrow out"),
    WPRIM(bn_cnd_add_words, "rp[] = ap[] + (cond ? bp[] : 0), constant time"),
    WPRIM(bn_cnd_sub_words, "rp[] = ap[] - (cond ? bp[] : 0), constant time"),
#undef WPRIM
};
const size_t rt_nprims = sizeof(rt_prims) / sizeof(rt_prims[0]);

/* OURS(prim, impl, name, result, f): f and f_n; PEER(prim, lib, name,
 * result, f, prepare, fetch).  WITH_<X>(entry): the entry and its comma
 * where the build has X, nothing otherwise. */
#define OURS(p, k, name, res, f) {p, k, name, NULL, res, f, f##_n, NULL, NULL}
#define PEER(p, lib, name, res, f, prep, fetch) {p, RT_PEER, name, lib, res, f, f##_n, prep, fetch}
#define WITH(entry) entry,
#define WITHOUT(entry)
#ifdef ASMCRYPT_HAVE_INT128
# define WITH_INT128 WITH
#else
# define WITH_INT128 WITHOUT
#endif
#ifdef ASMCRYPT_POLY1305_ASM
# define WITH_POLY1305_ASM WITH
#else
# define WITH_POLY1305_ASM WITHOUT
#endif
#ifdef ASMCRYPT_BN_MONT_ASM
# define WITH_MONT_ASM WITH
#else
# define WITH_MONT_ASM WITHOUT
#endif
#ifdef ASMCRYPT_BN_WORDS_ASM
# define WITH_WORDS_ASM WITH
#else
# define WITH_WORDS_ASM WITHOUT
#endif
#if defined(HAVE_OPENSSL)
# define WITH_OPENSSL WITH
#else
# define WITH_OPENSSL WITHOUT
#endif
#if defined(HAVE_GMP)
# define WITH_GMP WITH
#else
# define WITH_GMP WITHOUT
#endif
#if defined(HAVE_SODIUM)
# define WITH_SODIUM WITH
#else
# define WITH_SODIUM WITHOUT
#endif

/* Montgomery multiplication or squaring (op mont or sqr) */
#define MONT_ROWS(p, op)                                                     \
    OURS(p, RT_C, "c", RT_R_ACCEPT, op##_c),                                 \
    WITH_MONT_ASM(OURS(p, RT_ASM, NULL, RT_R_ACCEPT, op##_asm))              \
    OURS(p, RT_API, "api", RT_R_RC, op##_api),                               \
    OURS(p, RT_ANY, "dispatch", RT_R_NONE, op##_any),                        \
    WITH_OPENSSL(PEER(p, "openssl", "openssl", RT_R_ACCEPT, ossl_##op,       \
                      ossl_prepare_bn, ossl_fetch))
/* a word primitive: C, asm, API (its result the carry, or where there is
 * none, bn_sqr_words, its return code); GMP's counterparts come last */
#define WORDS_ROWS(p, op, res)                                               \
    OURS(p, RT_C, "c", res, op##_c),                                         \
    WITH_WORDS_ASM(OURS(p, RT_ASM, NULL, res, op##_asm))                     \
    OURS(p, RT_API, "api", res == RT_R_NONE ? RT_R_RC : RT_R_CARRY, op##_api),
#define GMP_ROW(p, name, f) \
    WITH_GMP(PEER(p, "gmp", name, RT_R_CARRY, f, gmp_prepare_words, NULL))

const struct routine rt_table[] = {
    /* the widest C reference first: apps/speed's ratios are to it */
    WITH_INT128(OURS("poly1305", RT_C64, "c-ref64", RT_R_NONE, poly_c64))
    OURS("poly1305", RT_C, "c-ref26", RT_R_NONE, poly_c26),
    WITH_POLY1305_ASM(OURS("poly1305", RT_ASM, NULL, RT_R_NONE, poly_asm))
    OURS("poly1305", RT_API, "api", RT_R_RC, poly_api),
    OURS("poly1305", RT_API_INC, "api-inc", RT_R_RC, poly_inc),
    OURS("poly1305", RT_ANY, "dispatch", RT_R_NONE, poly_any),
    WITH_OPENSSL(PEER("poly1305", "openssl", "openssl", RT_R_NONE, ossl_poly,
                      ossl_prepare_mac, NULL))
    WITH_SODIUM(PEER("poly1305", "sodium", "sodium", RT_R_NONE, sodium_poly,
                     sodium_prepare, NULL))

    MONT_ROWS("bn_mont_mul", mont)
    MONT_ROWS("bn_mont_sqr", sqr)

    OURS("mod_exp", RT_API, "api", RT_R_RC, modexp_api),
    WITH_OPENSSL(PEER("mod_exp", "openssl", "openssl", RT_R_ACCEPT, ossl_modexp,
                      ossl_prepare_bn, ossl_fetch))
    WITH_GMP(PEER("mod_exp", "gmp", "gmp", RT_R_NONE, g_powm, gmp_prepare_exp, gmp_fetch_exp))

    WORDS_ROWS("bn_mul_add_words", mul_add_words, RT_R_CARRY)
    WORDS_ROWS("bn_mul_sub_words", mul_sub_words, RT_R_CARRY)
    WORDS_ROWS("bn_mul_words", mul_words, RT_R_CARRY)
    WORDS_ROWS("bn_sqr_words", sqr_words, RT_R_NONE)
    WORDS_ROWS("bn_add_words", add_words, RT_R_CARRY)
    WORDS_ROWS("bn_sub_words", sub_words, RT_R_CARRY)
    WORDS_ROWS("bn_cnd_add_words", cnd_add_words, RT_R_CARRY)
    WORDS_ROWS("bn_cnd_sub_words", cnd_sub_words, RT_R_CARRY)
    GMP_ROW("bn_mul_add_words", "mpn_addmul_1", g_addmul)
    GMP_ROW("bn_mul_sub_words", "mpn_submul_1", g_submul)
    GMP_ROW("bn_mul_words", "mpn_mul_1", g_mul)
    GMP_ROW("bn_add_words", "mpn_add_n", g_add)
    GMP_ROW("bn_sub_words", "mpn_sub_n", g_sub)
    GMP_ROW("bn_cnd_add_words", "mpn_cnd_add_n", g_cadd)
    GMP_ROW("bn_cnd_sub_words", "mpn_cnd_sub_n", g_csub)
};
const size_t rt_ntable = sizeof(rt_table) / sizeof(rt_table[0]);

const struct rt_prim *rt_prim(const char *prim)
{
    size_t i;

    for (i = 0; i < rt_nprims; i++)
        if (strcmp(rt_prims[i].prim, prim) == 0)
            return &rt_prims[i];
    return NULL;
}

const struct routine *rt_get(const char *prim, enum rt_impl impl)
{
    size_t i;

    for (i = 0; i < rt_ntable; i++)
        if (rt_table[i].impl == impl && strcmp(rt_table[i].prim, prim) == 0)
            return &rt_table[i];
    return NULL;
}

BN_ULONG rt_result(void)
{
    return rt_state.sink;
}

int rt_status(void)
{
    return rt_state.status;
}

rt_op rt_one(const char *prim, enum rt_impl impl)
{
    const struct routine *r = rt_get(prim, impl);

    return r ? r->one : NULL;
}

const char *rt_impl_name(const char *prim)
{
    const struct rt_prim *p = rt_prim(prim);

    return p ? asmcrypt_impl(p->impl) : NULL;
}

void rt_peer_versions(char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
#define VERSION(label, v)                                                    \
    if (used < len)                                                          \
        used += (size_t)snprintf(buf + used, len - used, "%s%s%s",           \
                                 used ? ", " : "", label, v)
#if defined(HAVE_OPENSSL)
    VERSION("", OpenSSL_version(OPENSSL_VERSION));
#endif
#if defined(HAVE_SODIUM)
    VERSION("libsodium ", sodium_version_string());
#endif
#if defined(HAVE_GMP)
    VERSION("GMP ", gmp_version);
#endif
#undef VERSION
    (void)used;
    if (buf[0] == '\0')
        snprintf(buf, len, "none built in");
}
