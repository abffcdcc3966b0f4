/*
 * tools/dudect.c - a dudect-style timing-leak measurement for x86_64
 * (after Reparaz, Balasch and Verbauwhede, "Dude, is my code constant
 * time?", DATE 2017; written from the paper's description).
 *
 *   dudect [-n MEASUREMENTS] [-r CALLS] [CAPMASK...]
 *
 * For each constant-time primitive at each capability level it times
 * CALLS (default 8) calls on the same input with rdtsc (lfence on both sides) for inputs of two classes drawn
 * in random order: class 0 a FIXED secret (all-zero operands, an all-zero
 * key), class 1 a fresh RANDOM secret each time; everything public
 * (sizes, modulus, buffers) is the same.  It then prints Welch's t
 * statistic between the classes, on all measurements and on the
 * measurements below each of ten cropping percentiles (the paper's
 * p_k = 1 - 0.5^(10 (k+1) / 10) thresholds, taken from the first
 * measurements of the run, which are not used otherwise), and the
 * largest |t|.  The means printed (cycles per call) are those below the
 * last crop (the 99.9th percentile of the warm-up), without the outliers.  |t| above 4.5 is the paper's "probably not constant
 * time"; this tool only measures: it never fails (exit 0) whatever the
 * values, and timing on a shared machine is noisy (docs/perf/dudect.md).
 * DUDECT_FIXED=ones makes the fixed class all-ones words (n - 1 for the
 * Montgomery and modexp operands, an all-ones exponent, cond and w
 * all-ones, key and message 0xff bytes) instead of all zeros.
 * DUDECT_ONLY=SUBSTRING in the environment runs only the cases whose name
 * contains it.  The planted leaks of ct_leaks.c run last, as a check that the method
 * sees a leak.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#include "drv.h"

#define NCROP 10
#define NTEST (NCROP + 1)
#define WARM 1000               /* first measurements: percentiles only */

struct welch { double n[2], mean[2], m2[2]; };

static void welch_add(struct welch *w, int cls, double x)
{
    double d;

    w->n[cls] += 1;
    d = x - w->mean[cls];
    w->mean[cls] += d / w->n[cls];
    w->m2[cls] += d * (x - w->mean[cls]);
}

static double welch_t(const struct welch *w)
{
    double v0, v1;

    if (w->n[0] < 2 || w->n[1] < 2)
        return 0;
    v0 = w->m2[0] / (w->n[0] - 1);
    v1 = w->m2[1] / (w->n[1] - 1);
    if (v0 + v1 == 0)
        return 0;
    return (w->mean[0] - w->mean[1]) / sqrt(v0 / w->n[0] + v1 / w->n[1]);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static inline uint64_t ticks(void)
{
    uint64_t t;

    _mm_lfence();
    t = __rdtsc();
    _mm_lfence();
    return t;
}

/* ---- the cases: prepare(class) writes the secret inputs of the job ---- */
static struct rt_job job;
static uint64_t rng = 0xd0dec7;
static long reps = 8;           /* calls per measurement (-r): the TSC may tick coarsely */
typedef void (*prep_f)(int cls);

static int fixed_ones;          /* DUDECT_FIXED=ones: the fixed class is all-ones / n-1 */

static void fixed_words(BN_ULONG *p, int n)
{
    memset(p, fixed_ones ? 0xff : 0, sizeof(BN_ULONG) * (size_t)n);
}

static void prep_mont(int cls)
{
    if (cls == 0) {
        if (fixed_ones) {                   /* n - 1: the largest operand below n */
            memcpy(job.ap, job.np, sizeof(BN_ULONG) * (size_t)job.num);
            job.ap[0] -= 1;
            memcpy(job.bp, job.ap, sizeof(BN_ULONG) * (size_t)job.num);
        } else {
            fixed_words(job.ap, job.num);
            fixed_words(job.bp, job.num);
        }
    } else {
        drv_rand_below(job.ap, job.np, job.num, &rng);
        drv_rand_below(job.bp, job.np, job.num, &rng);
    }
}

static void prep_exp(int cls)
{
    prep_mont(cls);
    if (cls == 0)
        fixed_words(job.ep, job.ewords);
    else
        drv_rand_words(job.ep, job.ewords, &rng);
}

static void prep_words(int cls)
{
    if (cls == 0) {
        fixed_words(job.rp, 2 * job.num);
        fixed_words(job.ap, job.num);
        fixed_words(job.bp, job.num);
        job.w = fixed_ones ? ~(BN_ULONG)0 : 0;
        job.cond = job.w;
    } else {
        drv_rand_words(job.rp, 2 * job.num, &rng);
        drv_rand_words(job.ap, job.num, &rng);
        drv_rand_words(job.bp, job.num, &rng);
        job.w = (BN_ULONG)drv_rand(&rng);
        job.cond = (BN_ULONG)drv_rand(&rng);
    }
}

static void prep_poly(int cls)
{
    if (cls == 0) {
        memset(job.key, fixed_ones ? 0xff : 0, 32);
        memset(job.msg, fixed_ones ? 0xff : 0, job.len);
    } else {
        drv_rand_bytes(job.key, 32, &rng);
        drv_rand_bytes(job.msg, job.len, &rng);
    }
}

static const char *impl_of(const char *name)
{
    char prim[64];

    if (!strncmp(name, "leak-", 5))
        return "ct_leaks.c";
    snprintf(prim, sizeof(prim), "%s", name);
    prim[strcspn(prim, "/")] = 0;
    return asmcrypt_impl(prim);
}

/* The secret inputs of a job, saved per measurement before the timed
 * loop: both classes are then loaded by the same memcpy code right
 * before the call (no class-dependent preparation in between). */
static size_t snap_size(void)
{
    return sizeof(BN_ULONG) * (size_t)(4 * job.num + (job.ewords > 0 ? job.ewords : 0) + 2) + 32 + job.len;
}

static void snap(unsigned char *p, int save)
{
    size_t w = sizeof(BN_ULONG);
#define SNAP(ptr, n) do { if (save) memcpy(p, (ptr), (n)); else memcpy((ptr), p, (n)); p += (n); } while (0)
    SNAP(job.rp, 2 * w * (size_t)job.num);
    SNAP(job.ap, w * (size_t)job.num);
    SNAP(job.bp, w * (size_t)job.num);
    if (job.ewords > 0)
        SNAP(job.ep, w * (size_t)job.ewords);
    SNAP(&job.w, w);
    SNAP(&job.cond, w);
    SNAP(job.key, 32);
    SNAP(job.msg, job.len);
#undef SNAP
}

static void measure(const char *name, const char *level, rt_op fn, prep_f prep, long n)
{
    long total = WARM + n, i;
    size_t sz = snap_size();
    unsigned char *in = malloc(sz * (size_t)total), *cls = malloc((size_t)total);
    uint64_t *warm = malloc(sizeof(uint64_t) * WARM);
    uint64_t crop[NCROP];
    struct welch w[NTEST];
    double tmax = 0, t0;
    int k;
    long r;
    const char *only = getenv("DUDECT_ONLY");

    if (only != NULL && strstr(name, only) == NULL) {
        free(in); free(cls); free(warm);
        return;
    }
    if (in == NULL || cls == NULL || warm == NULL || fn == NULL) {
        fprintf(stderr, "dudect: %s: out of memory or no implementation\n", name);
        free(in); free(cls); free(warm);
        return;
    }
    for (i = 0; i < total; i++) {
        cls[i] = (unsigned char)(drv_rand(&rng) & 1);
        prep(cls[i]);
        snap(in + sz * (size_t)i, 1);
    }
    memset(w, 0, sizeof(w));
    for (i = 0; i < total; i++) {
        uint64_t t;

        snap(in + sz * (size_t)i, 0);
        _mm_mfence();
        t = ticks();
        for (r = 0; r < reps; r++)
            fn(&job);
        t = ticks() - t;
        drv_require_ok("dudect", name);     /* outside the timed loop */
        if (i < WARM) {
            warm[i] = t;
            if (i == WARM - 1) {
                qsort(warm, WARM, sizeof(warm[0]), cmp_u64);
                for (k = 0; k < NCROP; k++) {
                    double p = 1 - pow(0.5, 10.0 * (k + 1) / NCROP);
                    crop[k] = warm[(size_t)(p * (WARM - 1))];
                }
            }
            continue;
        }
        welch_add(&w[0], cls[i], (double)t);
        for (k = 0; k < NCROP; k++)
            if (t < crop[k])
                welch_add(&w[k + 1], cls[i], (double)t);
    }
    t0 = welch_t(&w[0]);
    for (k = 0; k < NTEST; k++)
        if (fabs(welch_t(&w[k])) > tmax)
            tmax = fabs(welch_t(&w[k]));
    printf("| %-26s | %-8s | %-14s | %7ld | %9.0f | %9.0f | %8.2f | %8.2f%s |\n", name, level,
           impl_of(name), n, w[NCROP].mean[0] / reps, w[NCROP].mean[1] / reps, t0, tmax, tmax > 4.5 ? " (> 4.5)" : "");
    fflush(stdout);
    free(in);
    free(cls);
    free(warm);
}

static void modulus(int num)
{
    uint64_t st = 0x3a3a + (uint64_t)num;

    drv_job_buffers(&job);
    job.num = num;
    drv_rand_modulus(job.np, num, &st);
    drv_job_prepare(&job);
}

static void all_cases(const char *lvl, long n)
{
    static const char *const wp[] = {"bn_mul_add_words", "bn_add_words", "bn_cnd_add_words", "bn_cnd_sub_words"};
    char name[64];
    size_t k;

    modulus(256 / ASMCRYPT_WORD_BITS);
    measure("bn_mont_mul/256", lvl, rt_one("bn_mont_mul", RT_ANY), prep_mont, n);
    modulus(2048 / ASMCRYPT_WORD_BITS);
    measure("bn_mont_mul/2048", lvl, rt_one("bn_mont_mul", RT_ANY), prep_mont, n / 4);
    modulus(512 / ASMCRYPT_WORD_BITS);
    job.ewords = job.num;
    measure("mod_exp/512", lvl, rt_one("mod_exp", RT_API), prep_exp, n / 100 > 200 ? n / 100 : 200);
    for (k = 0; k < sizeof(wp) / sizeof(wp[0]); k++) {
        drv_job_buffers(&job);
        job.num = 16;
        snprintf(name, sizeof(name), "%s/16", wp[k]);
        measure(name, lvl, rt_one(wp[k], RT_API), prep_words, n);
    }
    drv_job_buffers(&job);
    job.len = 64;
    measure("poly1305/64", lvl, rt_one("poly1305", RT_API), prep_poly, n);
    job.len = 1024;
    measure("poly1305/1024", lvl, rt_one("poly1305", RT_API), prep_poly, n / 4);
}

int main(int argc, char **argv)
{
    char *deflt[] = {"ffffffff", "ff", "1f", "f", "9", "0"};
    char **caps = deflt;
    int ncaps = 6, i;
    long n = 20000;

    while (argc > 2 && (!strcmp(argv[1], "-n") || !strcmp(argv[1], "-r"))) {
        if (argv[1][1] == 'n')
            n = atol(argv[2]);
        else
            reps = atol(argv[2]) > 0 ? atol(argv[2]) : 1;
        argc -= 2;
        argv += 2;
    }
    fixed_ones = getenv("DUDECT_FIXED") != NULL && !strcmp(getenv("DUDECT_FIXED"), "ones");
    if (argc > 1) {
        caps = argv + 1;
        ncaps = argc - 1;
    }
    printf("| primitive / size           | ASMCRYPT_CAP | impl   | samples | fixed (cyc/call) | random (cyc/call) | t (all) | max abs t |\n");
    printf("|---|---|---|---:|---:|---:|---:|---:|\n");
    for (i = 0; i < ncaps; i++) {
        asmcrypt_cpucap_restrict(drv_parse_cap(caps[i]));
        all_cases(caps[i], n);
    }
    asmcrypt_cpucap_restrict(~0u);
    modulus(128 / ASMCRYPT_WORD_BITS);
    job.ewords = 1;
    measure("leak-branchy-exp", "planted", ct_leak_exp_op, prep_exp, n / 4);
    drv_job_buffers(&job);
    job.len = 16;
    measure("leak-table", "planted", ct_leak_table_op, prep_poly, n);
    return 0;
}
