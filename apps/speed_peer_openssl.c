/*
 * apps/speed_peer_openssl.c - OpenSSL libcrypto as a peer: Poly1305
 * through EVP_MAC (the cheapest public path: one context, re-keyed per
 * message), BN_mod_mul_montgomery and BN_mod_exp_mont_consttime with a
 * precomputed BN_MONT_CTX.
 */
#include <stdio.h>
#include <string.h>
#include "speed_peers.h"

#ifdef HAVE_OPENSSL
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

/* Fixed-width little-endian byte string of a word array (num words), and
 * back: the format of BN_bn2lebinpad / BN_lebin2bn. */
static void sp_words_to_le(unsigned char *out, const asmcrypt_word *w, int num)
{
    size_t i, nb = sizeof(asmcrypt_word) * (size_t)num;

    for (i = 0; i < nb; i++)
        out[i] = (unsigned char)(w[i / sizeof(asmcrypt_word)] >>
                                 (8 * (i % sizeof(asmcrypt_word))));
}

static void sp_le_to_words(asmcrypt_word *w, const unsigned char *in, int num)
{
    size_t i, nb = sizeof(asmcrypt_word) * (size_t)num;

    for (i = 0; i < (size_t)num; i++)
        w[i] = 0;
    for (i = 0; i < nb; i++)
        w[i / sizeof(asmcrypt_word)] |=
            (asmcrypt_word)in[i] << (8 * (i % sizeof(asmcrypt_word)));
}

const char *sp_openssl_version(void)
{
    return OpenSSL_version(OPENSSL_VERSION);
}

static void free_bn(void *p) { BN_free(p); }
static void free_mont(void *p) { BN_MONT_CTX_free(p); }
static void free_bnctx(void *p) { BN_CTX_free(p); }
static void free_macctx(void *p) { EVP_MAC_CTX_free(p); }

/* ---- Poly1305 ----------------------------------------------------------- */
typedef struct ossl_mac {
    sp_mac_job job;
    EVP_MAC_CTX *ctx;
} ossl_mac;

static EVP_MAC *poly1305_mac(void)
{
    static EVP_MAC *mac;

    if (mac == NULL)
        mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    return mac;
}

static void run_mac(void *arg, unsigned long n)
{
    ossl_mac *m = arg;
    size_t outl;

    while (n--) {
        if (!EVP_MAC_init(m->ctx, m->job.key, 32, NULL) ||
            !EVP_MAC_update(m->ctx, m->job.msg, m->job.len) ||
            !EVP_MAC_final(m->ctx, m->job.tag, &outl, sizeof(m->job.tag)))
            sp_die("OpenSSL EVP_MAC POLY1305 failed");
    }
}

void sp_openssl_poly1305(sp_row *r, const char *table, const unsigned char key[32],
                         const unsigned char *msg, size_t len,
                         const unsigned char expect[16])
{
    ossl_mac *m;

    if (poly1305_mac() == NULL)
        return;
    m = sp_row_alloc(r, sizeof(*m));
    m->ctx = EVP_MAC_CTX_new(poly1305_mac());
    if (m->ctx == NULL)
        sp_die("EVP_MAC_CTX_new failed");
    sp_row_own(r, m->ctx, free_macctx);
    sp_peer_mac_cell(r, table, "openssl", run_mac, m, &m->job, key, msg, len, expect);
}

/* ---- bignum ------------------------------------------------------------- */
typedef struct ossl_bn {
    BIGNUM *r, *a, *b, *n;
    BN_MONT_CTX *mont;
    BN_CTX *ctx;
    enum sp_peer_bn op;
} ossl_bn;

static BIGNUM *bn_from(sp_row *r, const asmcrypt_word *w, int num)
{
    unsigned char *buf = sp_row_alloc(r, sizeof(asmcrypt_word) * (size_t)num);
    BIGNUM *b;

    sp_words_to_le(buf, w, num);
    b = BN_lebin2bn(buf, (int)(sizeof(asmcrypt_word) * (size_t)num), NULL);
    if (b == NULL)
        sp_die("BN_lebin2bn failed");
    sp_row_own(r, b, free_bn);
    return b;
}

static ossl_bn *bn_setup(sp_row *r, const asmcrypt_word *a, const asmcrypt_word *b,
                         const asmcrypt_word *n, int num)
{
    ossl_bn *o = sp_row_alloc(r, sizeof(*o));

    o->ctx = BN_CTX_new();
    o->mont = BN_MONT_CTX_new();
    if (o->ctx == NULL || o->mont == NULL)
        sp_die("OpenSSL: out of memory");
    sp_row_own(r, o->ctx, free_bnctx);
    sp_row_own(r, o->mont, free_mont);
    o->n = bn_from(r, n, num);
    o->a = bn_from(r, a, num);
    o->b = (b == a) ? o->a : bn_from(r, b, num);
    o->r = BN_new();
    if (o->r == NULL || !BN_MONT_CTX_set(o->mont, o->n, o->ctx))
        sp_die("OpenSSL: BN_MONT_CTX_set failed");
    sp_row_own(r, o->r, free_bn);
    return o;
}

static void bn_check(sp_row *r, const BIGNUM *v, const asmcrypt_word *expect,
                     int num, const char *table, const char *name, const char *ref)
{
    size_t nb = sizeof(asmcrypt_word) * (size_t)num;
    unsigned char *buf = sp_row_alloc(r, nb);
    asmcrypt_word *w = sp_row_alloc(r, nb);

    if (BN_bn2lebinpad(v, buf, (int)nb) < 0)
        sp_die("BN_bn2lebinpad failed");
    sp_le_to_words(w, buf, num);
    if (memcmp(w, expect, nb) != 0)
        sp_mismatch(table, (long)num * ASMCRYPT_WORD_BITS, "bit", name, ref);
}

/* r = a b / R mod n or a^b mod n, n times (the loop per op) */
static void run_bn(void *arg, unsigned long n)
{
    ossl_bn *o = arg;
    int ok = 1;

    if (o->op == SP_PEER_MODEXP)
        while (ok && n--)
            ok = BN_mod_exp_mont_consttime(o->r, o->a, o->b, o->n, o->ctx, o->mont);
    else
        while (ok && n--)
            ok = BN_mod_mul_montgomery(o->r, o->a, o->b, o->mont, o->ctx);
    if (!ok)
        sp_die(o->op == SP_PEER_MODEXP ? "BN_mod_exp_mont_consttime failed"
                                       : "BN_mod_mul_montgomery failed");
}

/* the cell of op, checked against expect (the reference cell's result) */
static void bn_cell(enum sp_peer_bn op, sp_row *r, const char *table,
                    const asmcrypt_word *a, const asmcrypt_word *b,
                    const asmcrypt_word *n, int num, const asmcrypt_word *expect)
{
    ossl_bn *o = bn_setup(r, a, b, n, num);

    o->op = op;
    run_bn(o, 1);
    bn_check(r, o->r, expect, num, table, "openssl",
             op == SP_PEER_MODEXP ? r->cell[0].name : "c");
    sp_row_add(r, "openssl", SP_PEER, SP_ALLCAPS, run_bn, o);
}

void sp_openssl_mont(sp_row *r, const char *table, const asmcrypt_word *a,
                     const asmcrypt_word *b, const asmcrypt_word *n, int num,
                     const asmcrypt_word *expect)
{ bn_cell(SP_PEER_MONT, r, table, a, b, n, num, expect); }

void sp_openssl_modexp(sp_row *r, const char *table, const asmcrypt_word *a,
                       const asmcrypt_word *e, const asmcrypt_word *n, int num,
                       const asmcrypt_word *expect)
{ bn_cell(SP_PEER_MODEXP, r, table, a, e, n, num, expect); }

#endif
