/*
 * tools/drv_peers.c - the same work done by installed peer libraries, so
 * their instruction counts sit in the same table: OpenSSL libcrypto
 * (Montgomery multiplication, constant-time modexp, Poly1305 through
 * EVP_MAC) and GMP (mpn word primitives, mpz_powm_sec).  Compiled in only
 * when Configure found the peer (HAVE_OPENSSL / HAVE_GMP).
 */
#include <string.h>
#include "drv.h"

#if defined(HAVE_OPENSSL)
# include <openssl/bn.h>
# include <openssl/evp.h>
# include <openssl/params.h>
#endif
#if defined(HAVE_GMP)
# include <gmp.h>
#endif

static volatile unsigned long peer_sink;

#if defined(HAVE_OPENSSL)
/* Big-endian bytes of a little-endian word array (endian-independent). */
static size_t words_to_be(unsigned char *out, const BN_ULONG *p, int num)
{
    size_t n = (size_t)num * sizeof(BN_ULONG), i;

    for (i = 0; i < n; i++) {
        size_t k = n - 1 - i;   /* byte k counted from the least significant */
        out[i] = (unsigned char)(p[k / sizeof(BN_ULONG)]
                                 >> (8 * (k % sizeof(BN_ULONG))));
    }
    return n;
}

static struct {
    BN_CTX *ctx;
    BN_MONT_CTX *mont;
    BIGNUM *r, *a, *b, *n, *e;
    EVP_MAC *mac;
    EVP_MAC_CTX *mctx;
} ossl;

static BIGNUM *to_bn(BIGNUM *bn, const BN_ULONG *p, int num)
{
    static unsigned char tmp[DRV_MAX_WORDS * sizeof(BN_ULONG)];
    size_t n = words_to_be(tmp, p, num);
    return BN_bin2bn(tmp, (int)n, bn);
}

static int ossl_prepare(const char *prim, struct drv_job *j)
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
    if (!strcmp(prim, "poly1305"))
        return ossl.mctx != NULL;
    if (strcmp(prim, "bn_mont_mul") && strcmp(prim, "mod_exp"))
        return 0;
    to_bn(ossl.n, j->np, j->num);
    to_bn(ossl.a, j->ap, j->num);
    to_bn(ossl.b, j->bp, j->num);
    if (j->ewords > 0)
        to_bn(ossl.e, j->ep, j->ewords);
    BN_set_flags(ossl.e, BN_FLG_CONSTTIME);
    return BN_MONT_CTX_set(ossl.mont, ossl.n, ossl.ctx) == 1;
}

static void ossl_mont(void *a)
{
    (void)a;
    peer_sink = (unsigned long)BN_mod_mul_montgomery(ossl.r, ossl.a, ossl.b,
                                                     ossl.mont, ossl.ctx);
}

static void ossl_modexp(void *a)
{
    (void)a;
    peer_sink = (unsigned long)BN_mod_exp_mont_consttime(ossl.r, ossl.a, ossl.e,
                                                         ossl.n, ossl.ctx, ossl.mont);
}

static void ossl_poly(void *a)
{
    struct drv_job *j = a;
    size_t outl = 0;

    EVP_MAC_init(ossl.mctx, j->key, 32, NULL);
    EVP_MAC_update(ossl.mctx, j->msg, j->len);
    EVP_MAC_final(ossl.mctx, j->tag, &outl, 16);
    peer_sink = outl;
}
#endif

#if defined(HAVE_GMP)
/* The mpn functions work on our buffers when the limb is our word. */
# define GMP_LIMB_OK (sizeof(mp_limb_t) == sizeof(BN_ULONG))
static mpz_t gr, ga, ge, gn;
static int gmp_ready;

static void to_mpz(mpz_t z, const BN_ULONG *p, int num)
{
    mpz_import(z, (size_t)num, -1, sizeof(BN_ULONG), 0, 0, p);
}

static int gmp_prepare(const char *prim, struct drv_job *j)
{
    if (!gmp_ready) {
        mpz_inits(gr, ga, ge, gn, NULL);
        gmp_ready = 1;
    }
    if (!strcmp(prim, "mod_exp")) {
        to_mpz(gn, j->np, j->num);
        to_mpz(ga, j->ap, j->num);
        to_mpz(ge, j->ep, j->ewords);
        return mpz_sgn(ge) > 0;     /* mpz_powm_sec needs e > 0 */
    }
    return GMP_LIMB_OK;
}

# define MP(p) ((mp_limb_t *)(void *)(p))
# define CMP(p) ((const mp_limb_t *)(const void *)(p))
static void g_addmul(void *a) { struct drv_job *j = a; peer_sink = mpn_addmul_1(MP(j->rp), CMP(j->ap), j->num, j->w); }
static void g_mul(void *a)    { struct drv_job *j = a; peer_sink = mpn_mul_1(MP(j->rp), CMP(j->ap), j->num, j->w); }
static void g_submul(void *a) { struct drv_job *j = a; peer_sink = mpn_submul_1(MP(j->rp), CMP(j->ap), j->num, j->w); }
static void g_add(void *a)    { struct drv_job *j = a; peer_sink = mpn_add_n(MP(j->rp), CMP(j->ap), CMP(j->bp), j->num); }
static void g_sub(void *a)    { struct drv_job *j = a; peer_sink = mpn_sub_n(MP(j->rp), CMP(j->ap), CMP(j->bp), j->num); }
static void g_cadd(void *a)   { struct drv_job *j = a; peer_sink = mpn_cnd_add_n(j->cond, MP(j->rp), CMP(j->ap), CMP(j->bp), j->num); }
static void g_csub(void *a)   { struct drv_job *j = a; peer_sink = mpn_cnd_sub_n(j->cond, MP(j->rp), CMP(j->ap), CMP(j->bp), j->num); }
static void g_powm(void *a)   { (void)a; mpz_powm_sec(gr, ga, ge, gn); peer_sink = mpz_size(gr); }
#endif

int drv_peer_prepare(const char *prim, enum drv_impl impl, struct drv_job *j)
{
    (void)prim;
    (void)j;
    if (drv_peer_op(prim, impl) == NULL)
        return 0;
#if defined(HAVE_OPENSSL)
    if (impl == DRV_OPENSSL)
        return ossl_prepare(prim, j);
#endif
#if defined(HAVE_GMP)
    if (impl == DRV_GMP)
        return gmp_prepare(prim, j);
#endif
    return 0;
}

drv_fn drv_peer_op(const char *prim, enum drv_impl impl)
{
    (void)prim;
    (void)impl;
#if defined(HAVE_OPENSSL)
    if (impl == DRV_OPENSSL) {
        if (!strcmp(prim, "bn_mont_mul")) return ossl_mont;
        if (!strcmp(prim, "mod_exp"))     return ossl_modexp;
        if (!strcmp(prim, "poly1305"))    return ossl_poly;
    }
#endif
#if defined(HAVE_GMP)
    if (impl == DRV_GMP) {
        if (!strcmp(prim, "mod_exp"))          return g_powm;
        if (!GMP_LIMB_OK)                      return NULL;
        if (!strcmp(prim, "bn_mul_add_words")) return g_addmul;
        if (!strcmp(prim, "bn_mul_words"))     return g_mul;
        if (!strcmp(prim, "bn_mul_sub_words")) return g_submul;
        if (!strcmp(prim, "bn_add_words"))     return g_add;
        if (!strcmp(prim, "bn_sub_words"))     return g_sub;
        if (!strcmp(prim, "bn_cnd_add_words")) return g_cadd;
        if (!strcmp(prim, "bn_cnd_sub_words")) return g_csub;
    }
#endif
    return NULL;
}
