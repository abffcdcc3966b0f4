/*
 * tools/drv_ops.c - one operation of each primitive, per implementation,
 * for the drivers: the C references called directly and the library API
 * (which dispatches to the assembly allowed by the current capability
 * mask).  Peers live in drv_peers.c.
 */
#include <string.h>
#include "drv.h"

/* Results go to a volatile sink so the calls cannot be dropped. */
static volatile BN_ULONG sink;

/* ---- Montgomery multiplication and modexp ------------------------------- */
static void mont_c(void *a)
{
    struct drv_job *j = a;
    sink = (BN_ULONG)bn_mul_mont_c(j->rp, j->ap, j->bp, j->np, &j->n0, j->num);
}

static void mont_any(void *a)
{
    struct drv_job *j = a;
    bn_mont_mul_any(j->rp, j->ap, j->bp, j->np, j->n0, j->num);
}

static void mont_api(void *a)
{
    struct drv_job *j = a;
    sink = (BN_ULONG)asmcrypt_bn_mont_mul(j->rp, j->ap, j->bp, j->np, j->n0, j->num);
}

static void modexp_api(void *a)
{
    struct drv_job *j = a;
    sink = (BN_ULONG)asmcrypt_mod_exp(j->rp, j->ap, j->ep, j->ewords, j->np, j->num);
}

/* ---- word primitives ----------------------------------------------------- */
#define WORDS_W(name)                                                        \
    static void name##_c(void *a)                                            \
    {                                                                        \
        struct drv_job *j = a;                                               \
        sink = bn_##name##_c(j->rp, j->ap, j->num, j->w);                    \
    }                                                                        \
    static void name##_api(void *a)                                          \
    {                                                                        \
        struct drv_job *j = a;                                               \
        BN_ULONG c;                                                          \
        asmcrypt_bn_##name(j->rp, j->ap, j->num, j->w, &c);                  \
        sink = c;                                                            \
    }
WORDS_W(mul_add_words)
WORDS_W(mul_words)
WORDS_W(mul_sub_words)

#define WORDS_AB(name)                                                       \
    static void name##_c(void *a)                                            \
    {                                                                        \
        struct drv_job *j = a;                                               \
        sink = bn_##name##_c(j->rp, j->ap, j->bp, j->num);                   \
    }                                                                        \
    static void name##_api(void *a)                                          \
    {                                                                        \
        struct drv_job *j = a;                                               \
        BN_ULONG c;                                                          \
        asmcrypt_bn_##name(j->rp, j->ap, j->bp, j->num, &c);                 \
        sink = c;                                                            \
    }
WORDS_AB(add_words)
WORDS_AB(sub_words)

#define WORDS_CND(name)                                                      \
    static void name##_c(void *a)                                            \
    {                                                                        \
        struct drv_job *j = a;                                               \
        sink = bn_##name##_c(j->rp, j->ap, j->bp, j->num, j->cond);          \
    }                                                                        \
    static void name##_api(void *a)                                          \
    {                                                                        \
        struct drv_job *j = a;                                               \
        BN_ULONG c;                                                          \
        asmcrypt_bn_##name(j->rp, j->ap, j->bp, j->num, j->cond, &c);        \
        sink = c;                                                            \
    }
WORDS_CND(cnd_add_words)
WORDS_CND(cnd_sub_words)

static void sqr_words_c(void *a)
{
    struct drv_job *j = a;
    bn_sqr_words_c(j->rp, j->ap, j->num);
}

static void sqr_words_api(void *a)
{
    struct drv_job *j = a;
    sink = (BN_ULONG)asmcrypt_bn_sqr_words(j->rp, j->ap, j->num);
}

/* ---- Poly1305: one-shot tag (init, blocks, padded last block, emit) ----- */
static asmcrypt_poly1305_ctx poly_ctx;

static void nonce_words(unsigned int nonce[4], const unsigned char *s)
{
    int i;

    for (i = 0; i < 4; i++)
        nonce[i] = (unsigned int)s[4 * i] | (unsigned int)s[4 * i + 1] << 8
                   | (unsigned int)s[4 * i + 2] << 16
                   | (unsigned int)s[4 * i + 3] << 24;
}

typedef int (*poly_init_f)(void *, const unsigned char *);

static void poly_ref(struct drv_job *j, poly_init_f init, poly1305_blocks_f blocks,
                     poly1305_emit_f emit)
{
    unsigned int nonce[4];
    size_t full = j->len & ~(size_t)15, rest = j->len & 15;

    nonce_words(nonce, j->key + 16);
    init(poly_ctx.opaque, j->key);
    if (full)
        blocks(poly_ctx.opaque, j->msg, full, 1);
    if (rest) {
        unsigned char last[16] = {0};
        memcpy(last, j->msg + full, rest);
        last[rest] = 1;
        blocks(poly_ctx.opaque, last, 16, 0);
    }
    emit(poly_ctx.opaque, j->tag, nonce);
}

static void poly_c26(void *a)
{
    poly_ref(a, poly1305_ref26_init, poly1305_ref26_blocks, poly1305_ref26_emit);
}

#ifdef ASMCRYPT_HAVE_INT128
static void poly_c64(void *a)
{
    poly_ref(a, poly1305_ref64_init, poly1305_ref64_blocks, poly1305_ref64_emit);
}
#endif

static void poly_api(void *a)
{
    struct drv_job *j = a;
    sink = (BN_ULONG)asmcrypt_poly1305(j->tag, j->msg, j->len, j->key);
}

/* What the API selects (asm when enabled), without the API's buffering and
 * final wipe: init, blocks, padded last block, emit - like poly_ref. */
static void poly_any(void *a)
{
    struct drv_job *j = a;
    size_t full = j->len & ~(size_t)15, rest = j->len & 15;

    asmcrypt_poly1305_init(&poly_ctx, j->key);
    if (full)
        poly_ctx.blocks(poly_ctx.opaque, j->msg, full, 1);
    if (rest) {
        unsigned char last[16] = {0};
        memcpy(last, j->msg + full, rest);
        last[rest] = 1;
        poly_ctx.blocks(poly_ctx.opaque, last, 16, 0);
    }
    poly_ctx.emit(poly_ctx.opaque, j->tag, poly_ctx.nonce);
}

/* ---- table ------------------------------------------------------------- */
static const struct {
    const char *prim;
    drv_fn c, c64, api, any;
} ops[] = {
    {"bn_mont_mul", mont_c, NULL, mont_api, mont_any},
    {"mod_exp", NULL, NULL, modexp_api, NULL},
    {"bn_mul_add_words", mul_add_words_c, NULL, mul_add_words_api, NULL},
    {"bn_mul_words", mul_words_c, NULL, mul_words_api, NULL},
    {"bn_mul_sub_words", mul_sub_words_c, NULL, mul_sub_words_api, NULL},
    {"bn_sqr_words", sqr_words_c, NULL, sqr_words_api, NULL},
    {"bn_add_words", add_words_c, NULL, add_words_api, NULL},
    {"bn_sub_words", sub_words_c, NULL, sub_words_api, NULL},
    {"bn_cnd_add_words", cnd_add_words_c, NULL, cnd_add_words_api, NULL},
    {"bn_cnd_sub_words", cnd_sub_words_c, NULL, cnd_sub_words_api, NULL},
#ifdef ASMCRYPT_HAVE_INT128
    {"poly1305", poly_c26, poly_c64, poly_api, poly_any},
#else
    {"poly1305", poly_c26, NULL, poly_api, poly_any},
#endif
};

drv_fn drv_op(const char *prim, enum drv_impl impl)
{
    size_t i;

    for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        if (strcmp(ops[i].prim, prim) != 0)
            continue;
        switch (impl) {
        case DRV_C:   return ops[i].c;
        case DRV_C64: return ops[i].c64;
        case DRV_API: return ops[i].api;
        case DRV_ANY: return ops[i].any;
        default:      return drv_peer_op(prim, impl);
        }
    }
    return NULL;
}

/* ---- buffers ------------------------------------------------------------ */
static BN_ULONG buf_r[2 * DRV_MAX_WORDS], buf_a[DRV_MAX_WORDS],
    buf_b[DRV_MAX_WORDS], buf_n[DRV_MAX_WORDS], buf_e[DRV_MAX_WORDS];
static unsigned char buf_msg[DRV_MAX_BYTES], buf_key[32], buf_tag[16];

void drv_job_buffers(struct drv_job *j)
{
    memset(j, 0, sizeof(*j));
    j->rp = buf_r;
    j->ap = buf_a;
    j->bp = buf_b;
    j->np = buf_n;
    j->ep = buf_e;
    j->msg = buf_msg;
    j->key = buf_key;
    j->tag = buf_tag;
}

void drv_job_prepare(struct drv_job *j)
{
    if (j->num > 0 && (j->np[0] & 1))
        j->n0 = asmcrypt_bn_mont_n0(j->np);
}

void drv_job_modulus(struct drv_job *j, int num, uint64_t *state)
{
    drv_job_buffers(j);
    j->num = num;
    drv_rand_modulus(j->np, num, state);
    drv_job_prepare(j);
}
