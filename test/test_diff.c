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
 * The implementations compared are the routine table's (tools/routines.h,
 * as apps/speed and the drivers run them): RT_API against RT_C (and
 * RT_C64) of each primitive, on one job.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "routines.h"
#include "util.h"

#define W ASMCRYPT_WORD_BITS
#define MAXN 128

static uint64_t seed = 0x61736d63727970ull;      /* "asmcryp" */

/* ---- Poly1305 ------------------------------------------------------------ */
/* The tag of the routine of kind impl (RT_C: the radix-2^26 reference,
 * RT_C64 the radix-2^64 one, RT_API the library's one-shot, RT_API_INC
 * its init/update/final as apps/speed times it). */
static void tag_of(enum rt_impl impl, const unsigned char key[32], const unsigned char *m,
                   size_t len, unsigned char tag[16])
{
    struct rt_job j;

    memset(&j, 0, sizeof(j));
    j.key = (unsigned char *)key;
    j.msg = (unsigned char *)m;
    j.len = len;
    j.tag = tag;
    rt_one("poly1305", impl)(&j);
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
    tag_of(RT_API, key, msg, len, t_api);
    tag_of(RT_C, key, msg, len, t_ref);
    CHECK(memcmp(t_api, t_ref, 16) == 0, "poly1305 one-shot vs ref26, len %zu, seed %llx",
          len, (unsigned long long)seed);
    {
        unsigned char t_inc1[16];
        tag_of(RT_API_INC, key, msg, len, t_inc1);
        CHECK(memcmp(t_inc1, t_ref, 16) == 0,
              "poly1305 api-inc routine vs ref26, len %zu, seed %llx",
              len, (unsigned long long)seed);
    }
    if (rt_get("poly1305", RT_C64) != NULL) {
        unsigned char t64[16];
        tag_of(RT_C64, key, msg, len, t64);
        CHECK(memcmp(t64, t_ref, 16) == 0, "poly1305 ref64 vs ref26, len %zu, seed %llx",
              len, (unsigned long long)seed);
    }
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

/* prim's API (RT_API) and C reference (RT_C) on the job j, out words of
 * rp each: rp must agree, and the carry where both return one; the API
 * must return 0 (rt_status()).  inplace: ap is rp too (mul_add, mul and
 * mul_sub allow it), each run on its own copy of r0. */
static void same_api_c(const char *prim, struct rt_job *j, const asmcrypt_word *r0,
                       size_t out, const char *what, int inplace)
{
    static asmcrypt_word r1[2 * MAXN], r2[2 * MAXN];
    const struct routine *api = rt_get(prim, RT_API), *c = rt_get(prim, RT_C);
    asmcrypt_word res1, res2;
    int ok, rc;

    memcpy(r1, r0, out * sizeof(asmcrypt_word));
    memcpy(r2, r0, out * sizeof(asmcrypt_word));
    j->rp = r1;
    if (inplace)
        j->ap = r1;
    api->one(j);
    res1 = rt_result();
    rc = rt_status();
    j->rp = r2;
    if (inplace)
        j->ap = r2;
    c->one(j);
    res2 = rt_result();
    ok = memcmp(r1, r2, out * sizeof(asmcrypt_word)) == 0 && rc == 0;
    if (api->result == RT_R_CARRY && c->result == RT_R_CARRY)
        ok &= res1 == res2;
    CHECK(ok, "%s num %d%s%s, seed %llx", prim, j->num, inplace ? " in place" : "", what,
          (unsigned long long)seed);
}

static void test_mont(void)
{
    static const char *const prims[] = {"bn_mont_mul", "bn_mont_sqr"};
    asmcrypt_word n[MAXN], a[MAXN], b[MAXN], r0[MAXN] = {0};
    struct rt_job j;
    int num, kind;
    size_t p;

    for (num = 1; num <= 80; num++) {
        for (kind = 0; kind < 3; kind++) {
            make_modulus(n, num, kind);
            rand_below(a, n, num);
            rand_below(b, n, num);
            if (kind == 1 && num > 2) {           /* all-ones words */
                a[0] = a[1] = ~(asmcrypt_word)0;
                b[num - 2] = ~(asmcrypt_word)0;
            }
            memset(&j, 0, sizeof(j));
            j.ap = a;
            j.bp = b;
            j.np = n;
            j.n0 = asmcrypt_bn_mont_n0(n);
            j.num = num;
            for (p = 0; p < sizeof(prims) / sizeof(prims[0]); p++)
                same_api_c(prims[p], &j, r0, (size_t)num, kind == 0 ? "" : kind == 1
                           ? " (top word all ones)" : " (top word 1)", 0);
        }
    }
}

/* ---- word primitives --------------------------------------------------------- */
/* every num 0..100 (the x86_64 entries: 1, 2..4 straight-line, pieces of
 * 1..16 limbs, mul_sub's 32-limb piece at 32..63, the loops from 16/32/64)
 * with: random words; r, a and w all ones (every product carry of
 * mul_add); r zero with a and w all ones (every borrow of mul_sub); and
 * mul_add/mul/mul_sub in place, random and all ones */
static void test_words(void)
{
    static const char *const inplace[] = {"bn_mul_add_words", "bn_mul_words",
                                          "bn_mul_sub_words"};
    static const char *const kinds[] = {"", " (all ones)", " (r zero, a and w all ones)"};
    asmcrypt_word a[MAXN], b[MAXN], r0[2 * MAXN];
    struct rt_job j;
    int num, rep;
    size_t i;

    for (num = 0; num <= 100; num++) {
        for (rep = 0; rep < 3; rep++) {
            size_t sz = sizeof(asmcrypt_word) * (size_t)num;

            tu_rand_words(a, num);
            tu_rand_words(b, num);
            tu_rand_words(r0, 2 * num);
            memset(&j, 0, sizeof(j));
            j.w = rep ? ~(asmcrypt_word)0 : tu_rand_word();
            if (rep) {
                memset(a, 0xff, sz);
                memset(r0, rep == 1 ? 0xff : 0, sz);
            }
            j.ap = a;
            j.bp = b;
            j.num = num;
            for (i = 0; i < rt_nprims; i++) {
                const struct rt_prim *p = &rt_prims[i];

                if (p->shape != RT_WORDS)
                    continue;
                /* cnd_add: condition 0 or 1; cnd_sub: w (random or all ones) */
                j.cond = strcmp(p->prim, "bn_cnd_add_words") ? j.w : (asmcrypt_word)rep;
                same_api_c(p->prim, &j, r0, strcmp(p->prim, "bn_sqr_words")
                           ? (size_t)num : 2 * (size_t)num, kinds[rep], 0);
            }
            if (rep < 2)
                for (i = 0; i < sizeof(inplace) / sizeof(inplace[0]); i++)
                    same_api_c(inplace[i], &j, a, (size_t)num, kinds[rep], 1);
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
            {
                struct rt_job j;

                memset(&j, 0, sizeof(j));
                j.rp = r1;
                j.ap = a;
                j.ep = e;
                j.ewords = ew;
                j.np = n;
                j.num = num;
                rt_one("mod_exp", RT_API)(&j);
                rc = rt_status();
            }
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
    size_t i;

    printf("caps %#x (detected %#x):", asmcrypt_cpu_caps(), asmcrypt_cpucap_detected());
    for (i = 0; i < rt_nprims; i++) {
        const char *prim = rt_prims[i].impl, *name = asmcrypt_impl(prim);

        if (i > 0 && strcmp(prim, rt_prims[i - 1].impl) == 0)
            continue;               /* bn_mont_sqr: bn_mont_mul's dispatch */
        CHECK(name != NULL && name[0] != '\0', "asmcrypt_impl(\"%s\")", prim);
        printf(" %s=%s", prim, name ? name : "(null)");
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
