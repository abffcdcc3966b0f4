/*
 * test/test_words.c - the word primitives against words32.txt or
 * words64.txt (by the build's word size): through the public API, the C
 * references and, when Configure enabled them, the assembly entry
 * points; add/sub/cnd_* also with rp == ap and rp == bp, mul with
 * rp == ap.  Guard words after rp must survive every call.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util.h"

#define W ASMCRYPT_WORD_BITS
#define MAXN 128
#define GUARD ((asmcrypt_word)0xa5a5a5a5a5a5a5a5ull)

enum op { MUL_ADD, MUL, MUL_SUB, SQR, ADD, SUB, CND_ADD, CND_SUB, NOPS };
static const char *const op_names[NOPS] = {
    "mul_add", "mul", "mul_sub", "sqr", "add", "sub", "cnd_add", "cnd_sub"
};

/* one implementation of every primitive, in a uniform shape */
typedef struct {
    const char *name;
    BN_ULONG (*mul_add)(BN_ULONG *, const BN_ULONG *, int, BN_ULONG);
    BN_ULONG (*mul)(BN_ULONG *, const BN_ULONG *, int, BN_ULONG);
    BN_ULONG (*mul_sub)(BN_ULONG *, const BN_ULONG *, int, BN_ULONG);
    void (*sqr)(BN_ULONG *, const BN_ULONG *, int);
    BN_ULONG (*add)(BN_ULONG *, const BN_ULONG *, const BN_ULONG *, int);
    BN_ULONG (*sub)(BN_ULONG *, const BN_ULONG *, const BN_ULONG *, int);
    BN_ULONG (*cnd_add)(BN_ULONG *, const BN_ULONG *, const BN_ULONG *, int, BN_ULONG);
    BN_ULONG (*cnd_sub)(BN_ULONG *, const BN_ULONG *, const BN_ULONG *, int, BN_ULONG);
} impl;

/* the public API wrapped into the same shape (rc checked on the side) */
static int api_rc_bad;
#define RC(x) do { if ((x) != 0) api_rc_bad++; } while (0)
static BN_ULONG api_mul_add(BN_ULONG *r, const BN_ULONG *a, int n, BN_ULONG w)
{ BN_ULONG c = 0; RC(asmcrypt_bn_mul_add_words(r, a, n, w, &c)); return c; }
static BN_ULONG api_mul(BN_ULONG *r, const BN_ULONG *a, int n, BN_ULONG w)
{ BN_ULONG c = 0; RC(asmcrypt_bn_mul_words(r, a, n, w, &c)); return c; }
static BN_ULONG api_mul_sub(BN_ULONG *r, const BN_ULONG *a, int n, BN_ULONG w)
{ BN_ULONG c = 0; RC(asmcrypt_bn_mul_sub_words(r, a, n, w, &c)); return c; }
static void api_sqr(BN_ULONG *r, const BN_ULONG *a, int n)
{ RC(asmcrypt_bn_sqr_words(r, a, n)); }
static BN_ULONG api_add(BN_ULONG *r, const BN_ULONG *a, const BN_ULONG *b, int n)
{ BN_ULONG c = 0; RC(asmcrypt_bn_add_words(r, a, b, n, &c)); return c; }
static BN_ULONG api_sub(BN_ULONG *r, const BN_ULONG *a, const BN_ULONG *b, int n)
{ BN_ULONG c = 0; RC(asmcrypt_bn_sub_words(r, a, b, n, &c)); return c; }
static BN_ULONG api_cnd_add(BN_ULONG *r, const BN_ULONG *a, const BN_ULONG *b, int n, BN_ULONG k)
{ BN_ULONG c = 0; RC(asmcrypt_bn_cnd_add_words(r, a, b, n, k, &c)); return c; }
static BN_ULONG api_cnd_sub(BN_ULONG *r, const BN_ULONG *a, const BN_ULONG *b, int n, BN_ULONG k)
{ BN_ULONG c = 0; RC(asmcrypt_bn_cnd_sub_words(r, a, b, n, k, &c)); return c; }

static const impl impls[] = {
    { "api", api_mul_add, api_mul, api_mul_sub, api_sqr, api_add, api_sub,
      api_cnd_add, api_cnd_sub },
    { "c", bn_mul_add_words_c, bn_mul_words_c, bn_mul_sub_words_c, bn_sqr_words_c,
      bn_add_words_c, bn_sub_words_c, bn_cnd_add_words_c, bn_cnd_sub_words_c },
#if defined(ASMCRYPT_BN_WORDS_ASM)
    { "asm", bn_mul_add_words, bn_mul_words, bn_mul_sub_words, bn_sqr_words,
      bn_add_words, bn_sub_words, bn_cnd_add_words, bn_cnd_sub_words },
#endif
};

typedef struct {
    enum op op;
    int num;
    asmcrypt_word r[MAXN], a[MAXN], b[MAXN], out[2 * MAXN], w, cond, c;
} vec;

static int same(const asmcrypt_word *x, const asmcrypt_word *y, int n)
{
    return n == 0 || memcmp(x, y, sizeof(asmcrypt_word) * (size_t)n) == 0;
}

/* rp layout: n result words then two guard words */
static void prep(asmcrypt_word *rp, const asmcrypt_word *init, int n)
{
    int i;

    for (i = 0; i < n; i++)
        rp[i] = init != NULL ? init[i] : (asmcrypt_word)0x3c3c3c3c3c3c3c3cull;
    rp[n] = rp[n + 1] = GUARD;
}

static int guard_ok(const asmcrypt_word *rp, int n)
{
    return rp[n] == GUARD && rp[n + 1] == GUARD;
}

/* Runs v through one implementation; shape 0 separate buffers, 1 rp == ap,
 * 2 rp == bp.  Returns -1 when the shape does not apply. */
static int run(const impl *im, const vec *v, int shape, asmcrypt_word *rp)
{
    BN_ULONG c = 0;
    int n = v->num, outn = v->op == SQR ? 2 * n : n;
    const asmcrypt_word *ap = v->a, *bp = v->b;

    if (shape == 1 && (v->op == MUL_ADD || v->op == MUL_SUB || v->op == SQR))
        return -1;
    if (shape == 2 && v->op <= SQR)
        return -1;
    switch (v->op) {
    case MUL_ADD: case MUL_SUB: prep(rp, v->r, n); break;
    default: prep(rp, shape == 1 ? v->a : shape == 2 ? v->b : NULL, outn);
    }
    if (shape == 1)
        ap = rp;
    if (shape == 2)
        bp = rp;
    switch (v->op) {
    case MUL_ADD: c = im->mul_add(rp, ap, n, v->w); break;
    case MUL:     c = im->mul(rp, ap, n, v->w); break;
    case MUL_SUB: c = im->mul_sub(rp, ap, n, v->w); break;
    case SQR:     im->sqr(rp, ap, n); break;
    case ADD:     c = im->add(rp, ap, bp, n); break;
    case SUB:     c = im->sub(rp, ap, bp, n); break;
    case CND_ADD: c = im->cnd_add(rp, ap, bp, n, v->cond); break;
    case CND_SUB: c = im->cnd_sub(rp, ap, bp, n, v->cond); break;
    default: break;
    }
    return same(rp, v->out, outn) && guard_ok(rp, outn) && (v->op == SQR || c == v->c);
}

static int parse(const tu_record *rec, vec *v)
{
    const char *op = tu_get(rec, "op"), *num = tu_get(rec, "num"), *s;
    int i;

    if (op == NULL || num == NULL)
        return 0;
    for (i = 0; i < NOPS; i++)
        if (strcmp(op, op_names[i]) == 0)
            break;
    if (i == NOPS)
        return 0;
    v->op = (enum op)i;
    v->num = atoi(num);
    if (v->num < 0 || v->num > MAXN)
        return 0;
#define FIELD(key, dst, n) \
    if ((s = tu_get(rec, key)) != NULL && tu_hex_words(s, dst, n) != 0) return 0;
    FIELD("r", v->r, v->num)
    FIELD("a", v->a, v->num)
    FIELD("b", v->b, v->num)
    FIELD("w", &v->w, 1)
    FIELD("cond", &v->cond, 1)
    FIELD("c", &v->c, 1)
    FIELD("out", v->out, v->op == SQR ? 2 * v->num : v->num)
#undef FIELD
    return tu_get(rec, "out") != NULL;
}

int main(int argc, char **argv)
{
    static vec v;
    static asmcrypt_word rp[2 * MAXN + 2];
    tu_record rec = { 0 };
    FILE *f;
    int count = 0, shape, ok;
    size_t i;

    if (argc < 2) {
        printf("usage: %s <vectors-dir>\n", argv[0]);
        return 2;
    }
    f = tu_open(argv[1], W == 64 ? "words64.txt" : "words32.txt");
    if (!CHECK(f != NULL, "vector file"))
        return tu_finish();
    while (tu_read_record(f, &rec)) {
        memset(&v, 0, sizeof(v));
        if (!CHECK(parse(&rec, &v), "malformed record at line %ld", rec.line))
            continue;
        count++;
        for (i = 0; i < sizeof(impls) / sizeof(impls[0]); i++) {
            for (shape = 0; shape < 3; shape++) {
                ok = run(&impls[i], &v, shape, rp);
                if (ok < 0)
                    continue;
                CHECK(ok, "%s %s num %d shape %s, line %ld", impls[i].name,
                      op_names[v.op], v.num,
                      shape == 0 ? "separate" : shape == 1 ? "rp == ap" : "rp == bp",
                      rec.line);
            }
        }
    }
    fclose(f);
    tu_record_free(&rec);
    CHECK(api_rc_bad == 0, "public API returned an error %d times", api_rc_bad);
    CHECK(count > 500, "only %d vectors", count);
    printf("words: %d vectors, %d-bit words, bn_mul_add_words %s\n", count, W,
           asmcrypt_impl("bn_mul_add_words"));
    return tu_finish();
}
