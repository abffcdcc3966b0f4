/*
 * tools/ct_main.c - constant-time driver: runs each constant-time
 * primitive on several inputs that differ only in secret values (same
 * sizes, same buffers) inside asmcrypt_probe(), under qemu with
 * tools/qemu-icount.c in trace mode (sym=asmcrypt_probe,trace=on).
 *
 *   ct_driver CAPMASK...
 *
 * Before every probe call it prints one line "case NAME VARIANT" (VARIANT
 * "warm" for the warm-up call that is not compared).  tools/ct-check.pl
 * then requires, per case, identical instruction-address and
 * memory-access hashes over all variants; cases named "leak-*" are the
 * planted leaks of ct_leaks.c and must show a difference instead.
 *
 * Secrets varied: Montgomery operands (also squaring, bp == ap);
 * word-primitive operands and multiplier; modexp base and exponent; cnd_*
 * condition and operands; Poly1305 key (r and s) and message bytes.
 * Public and fixed per case: modulus, num, exponent length, message length.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "drv.h"

#define NVAR 6
static struct rt_job job;
static const BN_ULONG ONES = ~(BN_ULONG)0;

/* ---- secret variants ------------------------------------------------------ */

/* Value number v below np: 0 random, 1 zero, 2 one, 3 np-1, 4 random,
 * 5 all-ones limbs below the top word. */
static void secret_below(BN_ULONG *x, int v, uint64_t *st)
{
    int i, num = job.num;

    switch (v) {
    case 1: memset(x, 0, sizeof(BN_ULONG) * (size_t)num); break;
    case 2: memset(x, 0, sizeof(BN_ULONG) * (size_t)num); x[0] = 1; break;
    case 3: memcpy(x, job.np, sizeof(BN_ULONG) * (size_t)num); x[0] -= 1; break;
    case 5:
        for (i = 0; i < num; i++)
            x[i] = ONES;
        x[num - 1] = job.np[num - 1] - 1;
        break;
    default: drv_rand_below(x, job.np, num, st); break;
    }
}

static void secret_words(BN_ULONG *x, int n, int v, uint64_t *st)
{
    int i;

    for (i = 0; i < n; i++)
        x[i] = v == 1 ? 0 : v == 2 ? ONES : v == 3 ? (BN_ULONG)(i & 1) : (BN_ULONG)drv_rand(st);
}

static void secret_bytes(unsigned char *x, size_t n, int v, uint64_t *st)
{
    memset(x, v == 1 ? 0x00 : 0xff, n);
    if (v != 1 && v != 2)
        drv_rand_bytes(x, n, st);
}

/* ---- cases ------------------------------------------------------------------ */
typedef void (*setup_f)(int variant);

static void run_case(const char *name, rt_op fn, setup_f setup)
{
    int v;

    setup(0);
    printf("case %s warm\n", name);
    asmcrypt_probe(fn, &job, 1);
    drv_require_ok("ct_driver", name);
    for (v = 0; v < NVAR; v++) {
        setup(v);
        printf("case %s %d\n", name, v);
        asmcrypt_probe(fn, &job, 1);
        /* a refused call traces the same for every secret: it would pass */
        drv_require_ok("ct_driver", name);
    }
    fflush(stdout);
}

static void public_modulus(int num, uint64_t seed)
{
    drv_job_modulus(&job, num, &seed);
}

static void mont_setup(int v)
{
    uint64_t st = 0xc0ffee + (uint64_t)v;

    secret_below(job.ap, v, &st);
    secret_below(job.bp, (v + 3) % NVAR, &st);
}

static void modexp_setup(int v)
{
    uint64_t st = 0xe4e4 + (uint64_t)v;

    secret_below(job.ap, (v + 2) % NVAR, &st);
    secret_words(job.ep, job.ewords, v % 4, &st);
}

static void cnd_setup(int v)
{
    static const BN_ULONG conds[NVAR] = {0, 1, 2, 0, ~(BN_ULONG)0,
                                         (BN_ULONG)1 << (ASMCRYPT_WORD_BITS - 1)};
    uint64_t st = 0xc4d + (uint64_t)v;

    job.cond = conds[v];
    secret_words(job.ap, job.num, v % 4, &st);
    secret_words(job.bp, job.num, (v + 1) % 4, &st);
}

static void words_setup(int v)
{
    uint64_t st = 0x3013d + (uint64_t)v;

    secret_words(job.rp, 2 * job.num, (v + 2) % 4, &st);
    secret_words(job.ap, job.num, v % 4, &st);
    secret_words(job.bp, job.num, (v + 1) % 4, &st);
    secret_words(&job.w, 1, (v + 3) % 4, &st);
}

static void poly_setup(int v)
{
    uint64_t st = 0x1305 + (uint64_t)v;

    secret_bytes(job.key, 32, v % 3, &st);
    secret_bytes(job.msg, job.len, (v + 1) % 3, &st);
}

/* Implementations to check for prim: the C reference(s), then the API (or
 * internal dispatch, api_kind) at each distinct capability level. */
static void each_impl(const char *prim, const char *what, enum rt_impl api_kind,
                      setup_f setup, char **caps, int ncaps, int with_c)
{
    const struct routine *api = rt_get(prim, api_kind);     /* named as its column */
    char name[128], seen[8][48];
    int i, k, nseen = 0;

    if (with_c && rt_one(prim, RT_C)) {
        snprintf(name, sizeof(name), "%s/c", what);
        run_case(name, rt_one(prim, RT_C), setup);
    }
    if (with_c && rt_one(prim, RT_C64)) {
        snprintf(name, sizeof(name), "%s/c64", what);
        run_case(name, rt_one(prim, RT_C64), setup);
    }
    for (i = 0; i < ncaps; i++) {
        const char *impl;
        int dup = 0;

        asmcrypt_cpucap_restrict(drv_parse_cap(caps[i]));
        impl = asmcrypt_impl(prim);
        for (k = 0; k < nseen; k++)
            dup |= !strcmp(seen[k], impl);
        if (!dup && nseen < 8) {
            snprintf(seen[nseen++], sizeof(seen[0]), "%s", impl);
            snprintf(name, sizeof(name), "%s/%s:%s@%s", what, api->name, impl, caps[i]);
            run_case(name, api->one, setup);
        }
    }
    asmcrypt_cpucap_restrict(~0u);
}

int main(int argc, char **argv)
{
    static const int mont_bits[] = {64, 192, 256, 512, 1024, 2048};
    static const int cnd_words[] = {1, 7, 16};
    static const size_t poly_len[] = {16, 48, 100, 512, 1024};
    char *all[] = {"ffffffff"};
    char **caps = argc > 1 ? argv + 1 : all;
    int ncaps = argc > 1 ? argc - 1 : 1;
    char what[64];
    size_t i;

    for (i = 0; i < sizeof(mont_bits) / sizeof(mont_bits[0]); i++) {
        int num = mont_bits[i] / ASMCRYPT_WORD_BITS;
        if (num < 1)
            num = 1;
        public_modulus(num, 0x3a3a + i);
        snprintf(what, sizeof(what), "bn_mont_mul/%d", num);
        each_impl("bn_mont_mul", what, RT_ANY, mont_setup, caps, ncaps, 1);
        if (mont_bits[i] == 256)
            each_impl("bn_mont_mul", what, RT_API, mont_setup, caps, 1, 0);
        /* squaring: bp == ap, where asm may take a squaring path */
        job.bp = job.ap;
        snprintf(what, sizeof(what), "bn_mont_sqr/%d", num);
        each_impl("bn_mont_mul", what, RT_ANY, mont_setup, caps, ncaps, 1);
    }

    public_modulus(256 / ASMCRYPT_WORD_BITS, 0x77);
    job.ewords = job.num;
    snprintf(what, sizeof(what), "mod_exp/%d", job.num);
    each_impl("mod_exp", what, RT_API, modexp_setup, caps, ncaps, 1);
    job.ewords = 1;
    snprintf(what, sizeof(what), "mod_exp/%d/e1", job.num);
    each_impl("mod_exp", what, RT_API, modexp_setup, caps, ncaps, 1);

    for (i = 0; i < sizeof(cnd_words) / sizeof(cnd_words[0]); i++) {
        drv_job_buffers(&job);
        job.num = cnd_words[i];
        snprintf(what, sizeof(what), "bn_cnd_add_words/%d", job.num);
        each_impl("bn_cnd_add_words", what, RT_API, cnd_setup, caps, ncaps, 1);
        snprintf(what, sizeof(what), "bn_cnd_sub_words/%d", job.num);
        each_impl("bn_cnd_sub_words", what, RT_API, cnd_setup, caps, ncaps, 1);
    }

    /* the word primitives Montgomery and modexp are built from: secret
     * operands and multiplier, public length */
    for (i = 0; i < sizeof(cnd_words) / sizeof(cnd_words[0]); i++) {
        static const char *const wp[] = {
            "bn_mul_add_words", "bn_mul_words", "bn_mul_sub_words",
            "bn_sqr_words", "bn_add_words", "bn_sub_words",
        };
        size_t k;

        for (k = 0; k < sizeof(wp) / sizeof(wp[0]); k++) {
            drv_job_buffers(&job);
            job.num = cnd_words[i];
            snprintf(what, sizeof(what), "%s/%d", wp[k], job.num);
            each_impl(wp[k], what, RT_API, words_setup, caps, ncaps, 1);
        }
    }

    for (i = 0; i < sizeof(poly_len) / sizeof(poly_len[0]); i++) {
        drv_job_buffers(&job);
        job.len = poly_len[i];
        snprintf(what, sizeof(what), "poly1305/%zu", job.len);
        each_impl("poly1305", what, RT_API, poly_setup, caps, ncaps, 1);
        each_impl("poly1305", what, RT_ANY, poly_setup, caps, ncaps, 0);
        each_impl("poly1305", what, RT_API_INC, poly_setup, caps, ncaps, 0);
    }

    /* The planted leaks: must be flagged. */
    public_modulus(128 / ASMCRYPT_WORD_BITS, 0x1ea4);
    job.ewords = 1;
    run_case("leak-branchy-exp", ct_leak_exp_op, modexp_setup);
    drv_job_buffers(&job);
    job.len = 16;
    run_case("leak-table", ct_leak_table_op, poly_setup);
    printf("done\n");
    return 0;
}
