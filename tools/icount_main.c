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
 * without the API's argument checks and context wipe),
 * "openssl", "gmp", or "null" for the empty-loop baseline; REPS 0 marks a
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

/* bn_mont_mul's internal dispatch squaring: ap == bp, rp apart */
static void mont_sqr_any(void *a)
{
    struct drv_job *j = a;

    bn_mont_mul_any(j->rp, j->ap, j->ap, j->np, j->n0, j->num);
}

/* the prim the dispatch and asmcrypt_impl() know it by */
static const char *base_prim(const char *prim)
{
    return strcmp(prim, "bn_mont_sqr") ? prim : "bn_mont_mul";
}

struct impl {
    enum drv_impl kind;
    unsigned int cap;
    char label[48];
};

/* Implementations of prim in this build: C refs, the API at each distinct
 * implementation the capability levels select, then peers. */
static int impls(const char *prim, char **caps, int ncaps, struct impl *out)
{
    int n = 0, i, k;

    prim = base_prim(prim);
    if (drv_op(prim, DRV_C) && !gate) {
        out[n].kind = DRV_C;
        out[n].cap = ~0u;
        snprintf(out[n++].label, sizeof(out[0].label),
                 strcmp(prim, "poly1305") ? "c" : "c-ref26");
    }
    if (drv_op(prim, DRV_C64) && !gate) {
        out[n].kind = DRV_C64;
        out[n].cap = ~0u;
        snprintf(out[n++].label, sizeof(out[0].label), "c-ref64");
    }
    for (i = 0; i < ncaps; i++) {
        unsigned int cap = drv_parse_cap(caps[i]);
        const char *name;
        int dup = 0;

        asmcrypt_cpucap_restrict(cap);
        name = asmcrypt_impl(prim);
        for (k = 0; k < n; k++)
            if (!strncmp(out[k].label, "api:", 4) && !strcmp(out[k].label + 4, name))
                dup = 1;
        if (dup)
            continue;
        /* the internal dispatch where there is one (no API checks or
         * wipes in the count), else the API */
        out[n].kind = drv_op(prim, DRV_ANY) ? DRV_ANY : DRV_API;
        out[n].cap = cap;
        snprintf(out[n++].label, sizeof(out[0].label), "api:%s", name);
    }
    asmcrypt_cpucap_restrict(~0u);
    if (gate)
        return n;
    if (drv_peer_op(prim, DRV_OPENSSL)) {
        out[n].kind = DRV_OPENSSL;
        out[n].cap = ~0u;
        snprintf(out[n++].label, sizeof(out[0].label), "openssl");
    }
    if (drv_peer_op(prim, DRV_GMP)) {
        out[n].kind = DRV_GMP;
        out[n].cap = ~0u;
        snprintf(out[n++].label, sizeof(out[0].label), "gmp");
    }
    return n;
}

static void setup(struct drv_job *j, const char *prim, int size)
{
    uint64_t st = 0x5eed1234abcdull + (uint64_t)size;

    drv_job_buffers(j);
    if (!strcmp(prim, "poly1305")) {
        j->len = (size_t)size;
        drv_rand_bytes(j->msg, j->len, &st);
        drv_rand_bytes(j->key, 32, &st);
        return;
    }
    if (!strcmp(prim, "bn_mont_mul") || !strcmp(prim, "bn_mont_sqr") ||
        !strcmp(prim, "mod_exp")) {
        j->num = size / ASMCRYPT_WORD_BITS;
        drv_rand_modulus(j->np, j->num, &st);
        drv_rand_below(j->ap, j->np, j->num, &st);
        drv_rand_below(j->bp, j->np, j->num, &st);
        j->ewords = j->num;
        drv_rand_words(j->ep, j->ewords, &st);
        j->ep[j->ewords - 1] |= (BN_ULONG)1 << (ASMCRYPT_WORD_BITS - 1);
        drv_job_prepare(j);
        return;
    }
    j->num = size;                    /* word primitives: size in limbs */
    drv_rand_words(j->rp, 2 * size, &st);
    drv_rand_words(j->ap, size, &st);
    drv_rand_words(j->bp, size, &st);
    j->w = (BN_ULONG)drv_rand(&st);
    j->cond = 1;
}

static void measure(const char *prim, int size, long units, const char *label,
                    drv_fn fn, struct drv_job *j, long reps)
{
    printf("probe %s %d %ld %s 0\n", prim, size, units, label);
    asmcrypt_probe(fn, j, 1);                       /* warm-up */
    printf("probe %s %d %ld %s %ld\n", prim, size, units, label, reps);
    asmcrypt_probe(fn, j, reps);
    printf("probe %s %d %ld %s %ld\n", prim, size, units, label, 2 * reps);
    asmcrypt_probe(fn, j, 2 * reps);
}

static void run_prim(const char *prim, const int *sizes, int nsizes,
                     char **caps, int ncaps)
{
    struct impl im[16];
    int ni = impls(prim, caps, ncaps, im), s, i;
    static struct drv_job job;

    for (s = 0; s < nsizes; s++) {
        int size = sizes[s];
        long units, reps;

        if (!strcmp(prim, "poly1305")) {
            units = size;
            reps = size >= 4096 ? 1 : 4096 / size;
        } else if (!strcmp(prim, "bn_mont_mul") || !strcmp(prim, "bn_mont_sqr") ||
                   !strcmp(prim, "mod_exp")) {
            units = 1;
            reps = 1;
        } else {
            units = size;
            reps = size >= 128 ? 1 : 128 / size;
        }
        for (i = 0; i < ni; i++) {
            drv_fn fn;

            setup(&job, prim, size);
            if (im[i].kind == DRV_OPENSSL || im[i].kind == DRV_GMP) {
                if (!drv_peer_prepare(prim, im[i].kind, &job))
                    continue;
                fn = drv_peer_op(prim, im[i].kind);
            } else if (!strcmp(prim, "bn_mont_sqr")) {
                fn = im[i].kind == DRV_ANY ? mont_sqr_any : NULL;
            } else {
                fn = drv_op(prim, im[i].kind);
            }
            if (!fn)
                continue;
            asmcrypt_cpucap_restrict(im[i].cap);
            measure(prim, size, units, im[i].label, fn, &job, reps);
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
    static const int words[] = {8, 32, 128};   /* 128: the API maximum on 64-bit is 8192/64 */
    /* -g: the gated headline sizes */
    static const int gpoly[] = {16, 1024, 8192};
    static const int gmont[] = {1024, 2048};
    static const int gmexp[] = {1024};
    static const int gwords[] = {8, 32};
    static const char *const wprims[] = {
        "bn_mul_add_words", "bn_mul_words", "bn_mul_sub_words", "bn_sqr_words",
        "bn_add_words", "bn_sub_words", "bn_cnd_add_words", "bn_cnd_sub_words",
    };
    static struct drv_job job;
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
            run_prim(wprims[w], gwords, 2, caps, ncaps);
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
