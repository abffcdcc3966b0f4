/*
 * tools/icount_main.c - counting driver: runs every primitive at every
 * size for every implementation inside asmcrypt_probe(), N and 2N times,
 * under qemu with tools/qemu-icount.c (sym=asmcrypt_probe,percall=on).
 *
 *   icount_driver [-q | -g] CAPMASK...
 *
 * One stdout line per probe call, in call order:
 *   probe PRIM SIZE UNITS IMPL REPS
 * (UNITS = bytes, limbs or 1 op per call; IMPL "c", "c-ref26", "c-ref64",
 * "api:<name>" (the library's dispatch at a capability level, <name> from
 * asmcrypt_impl(); for bn_mont_mul and poly1305 the internal dispatch
 * without the API's argument checks and context wipe), "asm:<name>" (asm
 * builds: the assembly entry called directly, as the C references are,
 * at each level; not in -g),
 * a peer library ("openssl", "gmp", "sodium": its routine-table entries),
 * or "null" for the empty-loop baseline; REPS 0 marks a
 * warm-up call).  tools/icount-report.pl divides the difference of the 2N
 * and N counts by N*UNITS.  -q runs a reduced size list.  -g runs the
 * set test/icount-gate.sh gates: the headline sizes, the library paths
 * ("api:" rows) only, no C references and no peers, plus "bn_mont_sqr"
 * (bn_mont_mul's dispatch with ap == bp, which selects the squaring code
 * where the asm has one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "drv.h"

static int quick, gate;

static void null_op(void *a)
{
    (void)a;
}

struct impl {
    const struct routine *r;
    unsigned int cap;
    char label[48];
};

static void add_impl(struct impl *out, int *n, const struct routine *r,
                     unsigned int cap, const char *label)
{
    out[*n].r = r;
    out[*n].cap = cap;
    snprintf(out[(*n)++].label, sizeof(out[0].label), "%s", label);
}

/* r at each distinct implementation the capability levels select, the
 * label prefix:<asmcrypt_impl() name> (r == NULL: none) */
static void add_levels(struct impl *out, int *n, const char *prim,
                       const struct routine *r, const char *prefix,
                       char **caps, int ncaps)
{
    char label[48];
    int i, k;

    for (i = 0; i < ncaps && r != NULL; i++) {
        unsigned int cap = drv_parse_cap(caps[i]);
        int dup = 0;

        asmcrypt_cpucap_restrict(cap);
        snprintf(label, sizeof(label), "%s:%s", prefix, rt_impl_name(prim));
        for (k = 0; k < *n; k++)
            dup |= !strcmp(out[k].label, label);
        if (!dup)
            add_impl(out, n, r, cap, label);
    }
    asmcrypt_cpucap_restrict(~0u);
}

/* Implementations of prim in the routine table: C refs, the internal
 * dispatch ("api:", no API checks or wipes in the count; the API where
 * there is none) at each distinct implementation the capability levels
 * select, the bare assembly entry likewise ("asm:", its own capability
 * dispatch only, called directly as the C references are; not with -g),
 * then peers. */
static int impls(const char *prim, char **caps, int ncaps, struct impl *out)
{
    const struct routine *dispatch = rt_get(prim, RT_ANY);
    int n = 0;
    size_t t;

    if (dispatch == NULL)
        dispatch = rt_get(prim, RT_API);
    if (!gate && rt_get(prim, RT_C))
        add_impl(out, &n, rt_get(prim, RT_C), ~0u, rt_get(prim, RT_C)->name);
    if (!gate && rt_get(prim, RT_C64))
        add_impl(out, &n, rt_get(prim, RT_C64), ~0u, rt_get(prim, RT_C64)->name);
    add_levels(out, &n, prim, dispatch, "api", caps, ncaps);
    if (!gate)
        add_levels(out, &n, prim, rt_get(prim, RT_ASM), "asm", caps, ncaps);
    for (t = 0; t < rt_ntable && !gate; t++)
        if (rt_table[t].impl == RT_PEER && !strcmp(rt_table[t].prim, prim))
            add_impl(out, &n, &rt_table[t], ~0u, rt_table[t].lib);
    return n;
}

/* Does a job of prim at size fit the drivers' buffers (drv.h)? */
static int fits(enum rt_shape shape, int size)
{
    switch (shape) {
    case RT_POLY1305:
        return (size_t)size <= DRV_MAX_BYTES;
    case RT_MONT:
    case RT_MONT_SQR:
    case RT_MODEXP:
        return size / ASMCRYPT_WORD_BITS <= DRV_MAX_WORDS;
    case RT_WORDS:
        break;
    }
    return size <= DRV_MAX_WORDS;     /* word primitives: limbs */
}

static void setup(struct rt_job *j, const char *prim, int size)
{
    uint64_t st = 0x5eed1234abcdull + (uint64_t)size;

    if (!fits(rt_prim(prim)->shape, size)) {
        fflush(stdout);
        fprintf(stderr, "icount_driver: %s %d: larger than the buffers\n", prim, size);
        _exit(3);
    }
    drv_job_buffers(j);
    switch (rt_prim(prim)->shape) {
    case RT_POLY1305:
        j->len = (size_t)size;
        drv_rand_bytes(j->msg, j->len, &st);
        drv_rand_bytes(j->key, 32, &st);
        return;
    case RT_MONT:
    case RT_MONT_SQR:
    case RT_MODEXP:
        j->num = size / ASMCRYPT_WORD_BITS;
        drv_rand_modulus(j->np, j->num, &st);
        drv_rand_below(j->ap, j->np, j->num, &st);
        drv_rand_below(j->bp, j->np, j->num, &st);
        j->ewords = j->num;
        drv_rand_words(j->ep, j->ewords, &st);
        j->ep[j->ewords - 1] |= (BN_ULONG)1 << (ASMCRYPT_WORD_BITS - 1);
        drv_job_prepare(j);
        return;
    case RT_WORDS:
        break;
    }
    j->num = size;                    /* word primitives: size in limbs */
    drv_rand_words(j->rp, 2 * size, &st);
    drv_rand_words(j->ap, size, &st);
    drv_rand_words(j->bp, size, &st);
    j->w = (BN_ULONG)drv_rand(&st);
    j->cond = 1;
}

/* A call the library refused (rt_status()) ends the run, checked outside
 * the probe calls: its count would be the cost of the argument check,
 * not of the primitive. */
static void measure(const char *prim, int size, long units, const char *label,
                    rt_op fn, struct rt_job *j, long reps)
{
    char what[96];

    snprintf(what, sizeof(what), "%s %d %s", prim, size, label);
    printf("probe %s %d %ld %s 0\n", prim, size, units, label);
    asmcrypt_probe(fn, j, 1);                       /* warm-up */
    drv_require_ok("icount_driver", what);
    printf("probe %s %d %ld %s %ld\n", prim, size, units, label, reps);
    asmcrypt_probe(fn, j, reps);
    printf("probe %s %d %ld %s %ld\n", prim, size, units, label, 2 * reps);
    asmcrypt_probe(fn, j, 2 * reps);
    drv_require_ok("icount_driver", what);
}

static void run_prim(const char *prim, const int *sizes, int nsizes,
                     char **caps, int ncaps)
{
    struct impl im[24];
    int ni = impls(prim, caps, ncaps, im), s, i;
    enum rt_shape shape = rt_prim(prim)->shape;
    static struct rt_job job;

    for (s = 0; s < nsizes; s++) {
        int size = sizes[s];
        long units, reps;

        if (shape == RT_POLY1305) {
            units = size;
            reps = size >= 4096 ? 1 : 4096 / size;
        } else if (shape != RT_WORDS) {
            units = 1;
            reps = 1;
        } else {
            units = size;
            reps = size >= 128 ? 1 : 128 / size;
        }
        for (i = 0; i < ni; i++) {
            setup(&job, prim, size);
            if (im[i].r->prepare && !im[i].r->prepare(&job))
                continue;
            asmcrypt_cpucap_restrict(im[i].cap);
            measure(prim, size, units, im[i].label, im[i].r->one, &job, reps);
            asmcrypt_cpucap_restrict(~0u);
        }
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    static const int poly[] = {16, 64, 256, 1024, 8192, 16384};
    static const int mont[] = {512, 1024, 2048, 3072, 4096};
    static const int mexp[] = {1024, 2048};
    /* 128: ASMCRYPT_BN_MAX_WORDS on 64-bit targets (8192 / 64) */
    static const int words[] = {8, 32, 128};
    /* -g: the gated headline sizes */
    static const int gpoly[] = {16, 1024, 8192};
    static const int gmont[] = {1024, 2048};
    static const int gmexp[] = {1024};
    static const int gwords[] = {3, 8, 32};
    static const char *const wprims[] = {   /* the order of the reports */
        "bn_mul_add_words", "bn_mul_words", "bn_mul_sub_words", "bn_sqr_words",
        "bn_add_words", "bn_sub_words", "bn_cnd_add_words", "bn_cnd_sub_words",
    };
    static struct rt_job job;
    char *all[] = {"ffffffff"};
    char **caps = all;
    int ncaps = 1;
    size_t w;

    if (argc > 1 && !strcmp(argv[1], "-q")) {
        quick = 1;
        argv++;
        argc--;
    } else if (argc > 1 && !strcmp(argv[1], "-g")) {
        gate = 1;
        argv++;
        argc--;
    }
    if (argc > 1) {
        caps = argv + 1;
        ncaps = argc - 1;
    }
    drv_job_buffers(&job);
    measure("null", 0, 1, "null", null_op, &job, 1);  /* loop overhead */
    if (gate) {
        run_prim("poly1305", gpoly, 3, caps, ncaps);
        run_prim("bn_mont_mul", gmont, 2, caps, ncaps);
        run_prim("bn_mont_sqr", gmont, 2, caps, ncaps);
        run_prim("mod_exp", gmexp, 1, caps, ncaps);
        for (w = 0; w < sizeof(wprims) / sizeof(wprims[0]); w++)
            run_prim(wprims[w], gwords, 3, caps, ncaps);
        printf("done\n");
        fflush(stdout);
        _exit(0);
    }
    run_prim("poly1305", poly, quick ? 2 : 6, caps, ncaps);
    run_prim("bn_mont_mul", mont, quick ? 2 : 5, caps, ncaps);
    run_prim("mod_exp", mexp, quick ? 1 : 2, caps, ncaps);
    for (w = 0; w < sizeof(wprims) / sizeof(wprims[0]); w++)
        run_prim(wprims[w], words, quick ? 2 : 3, caps, ncaps);
    printf("done\n");
    fflush(stdout);
    /* _exit: a statically linked libcrypto can crash in its atexit
     * cleanup, and nothing is left to clean up. */
    _exit(0);
}
