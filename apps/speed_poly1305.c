/*
 * apps/speed_poly1305.c - Poly1305 one-shot MAC timings: key set per
 * message, whole message, tag.  Our C references and asm are driven the way
 * the library's one-shot drives them (init, blocks over the whole 16-byte
 * blocks, a padded last block, emit), so the cells compare the code and not
 * the glue.  Column "api" is the library's public asmcrypt_poly1305() at
 * full capabilities, comparable with the peers' public one-shot APIs
 * (speed_peer_*.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "speed.h"

static const long sizes[] = { 16, 64, 256, 1024, 8192, 16384 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
#define MAXLEN 16384

typedef int (*init3_f)(void *ctx, const unsigned char key[16], void *func[2]);

typedef struct p1305 {
    init3_f init;
    poly1305_blocks_f blocks;
    poly1305_emit_f emit;
    const unsigned char *key, *msg;
    size_t len;
    unsigned char tag[16];
} p1305;

static int ref26_init(void *ctx, const unsigned char key[16], void *func[2])
{
    (void)func;
    return poly1305_ref26_init(ctx, key) != 0;      /* 0: use blocks/emit */
}
#ifdef ASMCRYPT_HAVE_INT128
static int ref64_init(void *ctx, const unsigned char key[16], void *func[2])
{
    (void)func;
    return poly1305_ref64_init(ctx, key) != 0;
}
#endif

static unsigned int le32(const unsigned char *p)
{
    return (unsigned int)p[0] | (unsigned int)p[1] << 8 |
           (unsigned int)p[2] << 16 | (unsigned int)p[3] << 24;
}

static void oneshot(p1305 *a, asmcrypt_poly1305_ctx *ctx)
{
    poly1305_blocks_f blocks = a->blocks;
    poly1305_emit_f emit = a->emit;
    void *func[2] = { NULL, NULL };
    unsigned int nonce[4];
    size_t full = a->len & ~(size_t)15, rest = a->len & 15;
    int i;

    if (a->init(ctx->opaque, a->key, func)) {
        blocks = (poly1305_blocks_f)func[0];
        emit = (poly1305_emit_f)func[1];
    }
    if (full)
        blocks(ctx->opaque, a->msg, full, 1);
    if (rest) {
        unsigned char last[16] = { 0 };

        memcpy(last, a->msg + full, rest);
        last[rest] = 1;
        blocks(ctx->opaque, last, 16, 0);
    }
    for (i = 0; i < 4; i++)
        nonce[i] = le32(a->key + 16 + 4 * i);
    emit(ctx->opaque, a->tag, nonce);
}

static void run_oneshot(void *arg, unsigned long n)
{
    asmcrypt_poly1305_ctx ctx;

    while (n--)
        oneshot(arg, &ctx);
}

/* The library's public one-shot, for comparison with the peers' public
 * APIs: it adds argument checks and the context glue to the asm. */
static void run_api(void *arg, unsigned long n)
{
    p1305 *a = arg;

    while (n--)
        if (asmcrypt_poly1305(a->tag, a->msg, a->len, a->key) != 0)
            sp_die("asmcrypt_poly1305 failed");
}

/* RFC 8439 section 2.5.2 test vector (key, message, tag). */
static const unsigned char rfc_key[32] = {
    0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe,
    0x42, 0xd5, 0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd,
    0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b
};
static const char rfc_msg[] = "Cryptographic Forum Research Group";
static const unsigned char rfc_tag[16] = {
    0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6,
    0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01, 0x27, 0xa9
};

/* Implementations of ours: C references, then asm at each distinct level. */
typedef struct ours { char name[SP_NAMELEN]; int kind; unsigned int caps;
                      init3_f init; poly1305_blocks_f blocks; poly1305_emit_f emit; } ours;

static int list_ours(ours *o, int max)
{
    int n = 0;
#ifdef ASMCRYPT_POLY1305_ASM
    sp_level lv[SP_MAXCELL];
    int i, nl;
#endif

#ifdef ASMCRYPT_HAVE_INT128
    o[n] = (ours){ "c-ref64", SP_REF, SP_ALLCAPS, ref64_init,
                   poly1305_ref64_blocks, poly1305_ref64_emit };
    n++;
#endif
    o[n] = (ours){ "c-ref26", SP_REF, SP_ALLCAPS, ref26_init,
                   poly1305_ref26_blocks, poly1305_ref26_emit };
    n++;
#ifdef ASMCRYPT_POLY1305_ASM
    nl = sp_levels("poly1305", lv, SP_MAXCELL);
    for (i = 0; i < nl && n < max; i++, n++) {
        o[n] = (ours){ "", SP_ASM, lv[i].mask, poly1305_init,
                       poly1305_blocks, poly1305_emit };
        snprintf(o[n].name, sizeof(o[n].name), "%s", lv[i].name);
    }
#endif
    (void)max;
    return n;
}

/* Every implementation of ours must reproduce the RFC 8439 tag. */
static void check_rfc(const ours *im, int n)
{
    asmcrypt_poly1305_ctx ctx;
    p1305 a;
    int i;

    for (i = 0; i < n; i++) {
        memset(&a, 0, sizeof(a));
        a.init = im[i].init;
        a.blocks = im[i].blocks;
        a.emit = im[i].emit;
        a.key = rfc_key;
        a.msg = (const unsigned char *)rfc_msg;
        a.len = sizeof(rfc_msg) - 1;
        asmcrypt_cpucap_restrict(im[i].caps);
        oneshot(&a, &ctx);
        asmcrypt_cpucap_restrict(SP_ALLCAPS);
        if (memcmp(a.tag, rfc_tag, 16) != 0)
            sp_mismatch("poly1305", (long)a.len, "B", im[i].name, "RFC 8439 2.5.2");
    }
}

void sp_bench_poly1305(const sp_opts *o)
{
    sp_table *t;
    ours im[SP_MAXCELL];
    unsigned char *msg, key[32];
    int n, i;
    size_t s;

    if (!sp_selected(o, "poly1305", "poly1305"))
        return;
    t = sp_table_new("poly1305", "one-shot MAC, key set per message",
                     "B", "byte", "MB/s (10^6 B/s)");
    n = list_ours(im, SP_MAXCELL);
    check_rfc(im, n);
    msg = sp_xmalloc(MAXLEN);
    sp_rand_bytes(msg, MAXLEN);
    sp_rand_bytes(key, sizeof(key));
    for (s = 0; s < NSIZES; s++) {
        sp_row *r = &t->row[t->nrow++];
        unsigned char expect[16];

        sp_row_init(r, sizes[s], (double)sizes[s]);
        for (i = 0; i < n; i++) {
            p1305 *a = sp_row_alloc(r, sizeof(*a));
            asmcrypt_poly1305_ctx ctx;

            a->init = im[i].init;
            a->blocks = im[i].blocks;
            a->emit = im[i].emit;
            a->key = key;
            a->msg = msg;
            a->len = (size_t)sizes[s];
            asmcrypt_cpucap_restrict(im[i].caps);
            oneshot(a, &ctx);
            asmcrypt_cpucap_restrict(SP_ALLCAPS);
            if (i == 0)
                memcpy(expect, a->tag, 16);
            else if (memcmp(expect, a->tag, 16) != 0)
                sp_mismatch("poly1305", sizes[s], "B", im[i].name, im[0].name);
            sp_row_add(r, im[i].name, im[i].kind, im[i].caps, run_oneshot, a);
        }
        {
            p1305 *a = sp_row_alloc(r, sizeof(*a));

            a->key = key;
            a->msg = msg;
            a->len = (size_t)sizes[s];
            run_api(a, 1);
            if (memcmp(expect, a->tag, 16) != 0)
                sp_mismatch("poly1305", sizes[s], "B", "api", im[0].name);
            sp_row_add(r, "api", SP_ASM, SP_ALLCAPS, run_api, a);
        }
        sp_peer_poly1305(r, "poly1305", key, msg, (size_t)sizes[s], expect);
        sp_measure_row(o, "poly1305", r);
        sp_row_release(r);
    }
    sp_report_table(o, t);
    free(msg);
    free(t);
}
