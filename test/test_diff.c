/*
 * test/test_diff.c - differential test: the dispatched implementation
 * (public API: assembly where Configure enabled it, at the capability
 * level ASMCRYPT_CAP leaves) against the C references, on inputs from a
 * fixed-seed PRNG.  The seed is printed with every failure; rerun with
 * ASMCRYPT_DIFF_SEED=<hex> to try another.
 *   Poly1305: every length 0..1100 with random update splits, a few long
 *   messages; Montgomery: every num 1..80 with random odd n (also top word
 *   all ones and top word 1); word primitives: sizes 0..100; modexp: small
 *   sizes against a square-and-multiply on bn_mul_mont_c.
 * Also: asmcrypt_impl() names every primitive and rejects "bogus".
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util.h"

#define W ASMCRYPT_WORD_BITS
#define MAXN 128

static uint64_t seed = 0x61736d63727970ull;      /* "asmcryp" */

/* ---- Poly1305 ------------------------------------------------------------ */
typedef struct {
    uint64_t opaque[64] ASMCRYPT_ALIGN64;
} state512;

static void ref_tag(int radix, const unsigned char key[32], const unsigned char *m,
                    size_t len, unsigned char tag[16])
{
    state512 st;
    unsigned char last[16];
    unsigned int nonce[4];
    size_t full = len & ~(size_t)15;
    int i;
    int (*init)(void *, const unsigned char *) = poly1305_ref26_init;
    poly1305_blocks_f blocks = poly1305_ref26_blocks;
    poly1305_emit_f emit = poly1305_ref26_emit;

#if defined(ASMCRYPT_HAVE_INT128)
    if (radix == 64) {
        init = poly1305_ref64_init;
        blocks = poly1305_ref64_blocks;
        emit = poly1305_ref64_emit;
    }
#else
    (void)radix;
#endif
    for (i = 0; i < 4; i++)
        nonce[i] = (unsigned int)key[16 + 4 * i] | (unsigned int)key[17 + 4 * i] << 8 |
                   (unsigned int)key[18 + 4 * i] << 16 | (unsigned int)key[19 + 4 * i] << 24;
    init(st.opaque, key);
    if (full)
        blocks(st.opaque, m, full, 1);
    if (len > full) {
        memset(last, 0, 16);
        memcpy(last, m + full, len - full);
        last[len - full] = 1;
        blocks(st.opaque, last, 16, 0);
    }
    emit(st.opaque, tag, nonce);
}

static void poly_one(size_t len, unsigned char *msg)
{
    unsigned char key[32], t_api[16], t_ref[16], t_inc[16];
    asmcrypt_poly1305_ctx ctx;
    size_t off, step;
    int kind = (int)(tu_rand64() % 8);

    tu_rand_bytes(key, 32);
    tu_rand_bytes(msg, len);
    if (kind == 0)
        memset(msg, 0xff, len);                   /* all-ones blocks */
    if (kind == 1)
        memset(key, 0xff, 16);                    /* r at its clamped maximum */
    asmcrypt_poly1305(t_api, msg, len, key);
    ref_tag(26, key, msg, len, t_ref);
    CHECK(memcmp(t_api, t_ref, 16) == 0, "poly1305 one-shot vs ref26, len %zu, seed %llx",
          len, (unsigned long long)seed);
#if defined(ASMCRYPT_HAVE_INT128)
    {
        unsigned char t64[16];
        ref_tag(64, key, msg, len, t64);
        CHECK(memcmp(t64, t_ref, 16) == 0, "poly1305 ref64 vs ref26, len %zu, seed %llx",
              len, (unsigned long long)seed);
    }
#endif
    asmcrypt_poly1305_init(&ctx, key);
    for (off = 0; off < len; off += step) {
        step = (size_t)(tu_rand64() % 4 == 0 ? tu_rand64() % 700 : tu_rand64() % 40);
        if (step > len - off)
            step = len - off;
        asmcrypt_poly1305_update(&ctx, msg + off, step);
    }
    asmcrypt_poly1305_final(&ctx, t_inc);
    CHECK(memcmp(t_inc, t_ref, 16) == 0, "poly1305 random splits vs ref26, len %zu, seed %llx",
          len, (unsigned long long)seed);
}

static void test_poly1305(void)
{
    static unsigned char msg[70000];
    size_t len;

    for (len = 0; len <= 1100; len++)
        poly_one(len, msg);
    poly_one(4096, msg);
    poly_one(8191, msg);
    poly_one(16384 + 13, msg);
    poly_one(65536 + 7, msg);
}

/* ---- Montgomery ------------------------------------------------------------ */
/* random a < n: random words, top word reduced below n's top word */
static void rand_below(asmcrypt_word *a, const asmcrypt_word *n, int num)
{
    tu_rand_words(a, num);
    a[num - 1] = n[num - 1] > 1 ? a[num - 1] % n[num - 1] : 0;
    if (num == 1 && a[0] >= n[0])
        a[0] = n[0] - 1;
}

static void make_modulus(asmcrypt_word *n, int num, int kind)
{
    tu_rand_words(n, num);
    n[0] |= 1;
    if (kind == 1)
        n[num - 1] = ~(asmcrypt_word)0;
    else if (kind == 2 && num > 1)
        n[num - 1] = 1;
    else
        n[num - 1] |= (asmcrypt_word)1 << (W - 1);
}

static void test_mont(void)
{
    asmcrypt_word n[MAXN], a[MAXN], b[MAXN], r1[MAXN], r2[MAXN], n0w[1];
    int num, kind, rc;

    for (num = 1; num <= 80; num++) {
        for (kind = 0; kind < 3; kind++) {
            make_modulus(n, num, kind);
            n0w[0] = asmcrypt_bn_mont_n0(n);
            rand_below(a, n, num);
            rand_below(b, n, num);
            if (kind == 1 && num > 2) {           /* all-ones words */
                a[0] = a[1] = ~(asmcrypt_word)0;
                b[num - 2] = ~(asmcrypt_word)0;
            }
            rc = asmcrypt_bn_mont_mul(r1, a, b, n, n0w[0], num);
            bn_mul_mont_c(r2, a, b, n, n0w, num);
            CHECK(rc == 0 && memcmp(r1, r2, sizeof(asmcrypt_word) * (size_t)num) == 0,
                  "mont num %d kind %d rc %d, seed %llx", num, kind, rc,
                  (unsigned long long)seed);
            rc = asmcrypt_bn_mont_mul(r1, a, a, n, n0w[0], num);      /* squaring */
            bn_mul_mont_c(r2, a, a, n, n0w, num);
            CHECK(rc == 0 && memcmp(r1, r2, sizeof(asmcrypt_word) * (size_t)num) == 0,
                  "mont square num %d kind %d, seed %llx", num, kind,
                  (unsigned long long)seed);
        }
    }
}

/* ---- word primitives --------------------------------------------------------- */
static void test_words(void)
{
    asmcrypt_word a[MAXN], b[MAXN], r0[2 * MAXN], r1[2 * MAXN], r2[2 * MAXN], w, c1, c2;
    int num, rep;
    size_t sz;

    for (num = 0; num <= 100; num++) {
        for (rep = 0; rep < 2; rep++) {
            sz = sizeof(asmcrypt_word) * (size_t)num;
            tu_rand_words(a, num);
            tu_rand_words(b, num);
            tu_rand_words(r0, 2 * num);
            w = rep ? ~(asmcrypt_word)0 : tu_rand_word();
            if (rep) {
                memset(a, 0xff, sz);
                memset(r0, 0xff, sz);
            }
            /* the API call (carry c1) and the C reference (c2) agree */
#define SAME(what, n, api, ref) \
    do { \
        api; \
        ref; \
        CHECK(c1 == c2 && memcmp(r1, r2, sizeof(asmcrypt_word) * (size_t)(n)) == 0, \
              "%s num %d, seed %llx", what, num, (unsigned long long)seed); \
    } while (0)
            memcpy(r1, r0, sz); memcpy(r2, r0, sz);
            SAME("mul_add", num, asmcrypt_bn_mul_add_words(r1, a, num, w, &c1),
                 c2 = bn_mul_add_words_c(r2, a, num, w));
            SAME("mul", num, asmcrypt_bn_mul_words(r1, a, num, w, &c1),
                 c2 = bn_mul_words_c(r2, a, num, w));
            memcpy(r1, r0, sz); memcpy(r2, r0, sz);
            SAME("mul_sub", num, asmcrypt_bn_mul_sub_words(r1, a, num, w, &c1),
                 c2 = bn_mul_sub_words_c(r2, a, num, w));
            SAME("sqr", 2 * num, asmcrypt_bn_sqr_words(r1, a, num),
                 bn_sqr_words_c(r2, a, num); c1 = c2 = 0);
            SAME("add", num, asmcrypt_bn_add_words(r1, a, b, num, &c1),
                 c2 = bn_add_words_c(r2, a, b, num));
            SAME("sub", num, asmcrypt_bn_sub_words(r1, a, b, num, &c1),
                 c2 = bn_sub_words_c(r2, a, b, num));
            SAME("cnd_add", num, asmcrypt_bn_cnd_add_words(r1, a, b, num, (asmcrypt_word)rep, &c1),
                 c2 = bn_cnd_add_words_c(r2, a, b, num, (asmcrypt_word)rep));
            SAME("cnd_sub", num, asmcrypt_bn_cnd_sub_words(r1, a, b, num, w, &c1),
                 c2 = bn_cnd_sub_words_c(r2, a, b, num, w));
#undef SAME
        }
    }
}

/* ---- modexp ------------------------------------------------------------------- */
/* plain left-to-right square-and-multiply on bn_mul_mont_c (not constant
 * time; an independent check of the windowing in asmcrypt_mod_exp) */
static void slow_exp(asmcrypt_word *r, const asmcrypt_word *a, const asmcrypt_word *e,
                     int ewords, const asmcrypt_word *n, int num)
{
    asmcrypt_word x[MAXN], am[MAXN], rr[MAXN], one[MAXN], n0w[1], top, c;
    int i, j, k;

    n0w[0] = asmcrypt_bn_mont_n0(n);
    /* rr = 2^(2 W num) mod n by doubling (start at 1 mod n) */
    memset(rr, 0, sizeof(rr));
    rr[0] = num == 1 && n[0] == 1 ? 0 : 1;
    for (i = 0; i < 2 * W * num; i++) {
        top = rr[num - 1] >> (W - 1);
        for (j = num - 1; j > 0; j--)
            rr[j] = (rr[j] << 1) | (rr[j - 1] >> (W - 1));
        rr[0] <<= 1;
        c = bn_sub_words_c(x, rr, n, num);
        if (top || !c)
            memcpy(rr, x, sizeof(asmcrypt_word) * (size_t)num);
    }
    memset(one, 0, sizeof(one));
    one[0] = 1;
    bn_mul_mont_c(am, a, rr, n, n0w, num);
    bn_mul_mont_c(x, one, rr, n, n0w, num);
    for (i = ewords - 1; i >= 0; i--)
        for (k = W - 1; k >= 0; k--) {
            bn_mul_mont_c(x, x, x, n, n0w, num);
            if ((e[i] >> k) & 1)
                bn_mul_mont_c(x, x, am, n, n0w, num);
        }
    bn_mul_mont_c(r, x, one, n, n0w, num);
}

static void test_modexp(void)
{
    asmcrypt_word n[MAXN], a[MAXN], e[4], r1[MAXN], r2[MAXN];
    int num, ew, rc, kind;

    for (num = 1; num <= 12; num++) {
        for (kind = 0; kind < 3; kind++) {
            ew = 1 + (int)(tu_rand64() % 3);
            make_modulus(n, num, kind);
            rand_below(a, n, num);
            tu_rand_words(e, ew);
            rc = asmcrypt_mod_exp(r1, a, e, ew, n, num);
            slow_exp(r2, a, e, ew, n, num);
            CHECK(rc == 0 && memcmp(r1, r2, sizeof(asmcrypt_word) * (size_t)num) == 0,
                  "mod_exp num %d ewords %d kind %d rc %d, seed %llx", num, ew, kind, rc,
                  (unsigned long long)seed);
        }
    }
}

/* ---- implementation names --------------------------------------------------------- */
static void test_impl(void)
{
    static const char *const prims[] = {
        "poly1305", "bn_mont_mul", "mod_exp", "bn_mul_add_words", "bn_mul_words",
        "bn_mul_sub_words", "bn_sqr_words", "bn_add_words", "bn_sub_words",
        "bn_cnd_add_words", "bn_cnd_sub_words",
    };
    size_t i;

    printf("caps %#x (detected %#x):", asmcrypt_cpu_caps(), asmcrypt_cpucap_detected());
    for (i = 0; i < sizeof(prims) / sizeof(prims[0]); i++) {
        const char *name = asmcrypt_impl(prims[i]);
        CHECK(name != NULL && name[0] != '\0', "asmcrypt_impl(\"%s\")", prims[i]);
        printf(" %s=%s", prims[i], name ? name : "(null)");
    }
    printf("\n");
    CHECK(asmcrypt_impl("bogus") == NULL, "asmcrypt_impl(\"bogus\") not NULL");
    CHECK(asmcrypt_impl(NULL) == NULL, "asmcrypt_impl(NULL) not NULL");
}

int main(int argc, char **argv)
{
    const char *s = getenv("ASMCRYPT_DIFF_SEED");

    (void)argc;
    (void)argv;
    if (s != NULL && *s != '\0')
        seed = strtoull(s, NULL, 16);
    tu_seed(seed);
    test_impl();
    test_poly1305();
    test_mont();
    test_words();
    test_modexp();
    printf("diff: seed %llx\n", (unsigned long long)seed);
    return tu_finish();
}
