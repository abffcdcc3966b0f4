/*
 * apps/speed_timer.c - clocks of apps/speed.
 *
 * x86_64: the time stamp counter (constant rate, measured against
 * CLOCK_MONOTONIC at start-up) and an estimate of the core clock: a chain
 * of dependent ADDs retires one ADD per core cycle, so CHAIN_LEN ADDs over
 * their TSC ticks give core cycles per tick.  Sampled before and after
 * every timed batch, it turns the batch's ticks into core cycles (the
 * method of shared/research/peers-x86_64.md).
 * Elsewhere: CLOCK_MONOTONIC nanoseconds; no cycle estimate.
 */
#define _POSIX_C_SOURCE 200112L
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "speed.h"

#define CHAIN_REPS 200           /* x 50 ADDs = 10000 core cycles, ~3 us */
#define CHAIN_LEN  (CHAIN_REPS * 50)
#define MAXSAMPLE  65536

static double tsc_per_ns;        /* TSC ticks per ns; 1 without a TSC */
static double core_samples[MAXSAMPLE];
static int ncore;

uint64_t sp_nsec(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t sp_cpu_nsec(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__) && defined(__GNUC__)

/* Reservoir sampling keeps a uniform sample of all core-clock readings
 * for the run's median, however long the run. */
static void keep_sample(double r)
{
    static uint64_t seen, lcg = 1;

    seen++;
    if (ncore < MAXSAMPLE) {
        core_samples[ncore++] = r;
        return;
    }
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    if ((lcg >> 33) % seen < MAXSAMPLE)
        core_samples[(lcg >> 33) % MAXSAMPLE] = r;
}

int sp_have_tsc(void)
{
    return 1;
}

uint64_t sp_ticks(void)
{
    uint32_t lo, hi;

    /* lfence: earlier instructions complete before the counter is read */
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

#define ADD10 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t" \
              "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t" \
              "add $1, %0\n\tadd $1, %0\n\t"

double sp_core_per_tick(void)
{
    uint64_t t0, t1, x = 0, n = CHAIN_REPS;
    double r;

    t0 = sp_ticks();
    __asm__ volatile(".Lsp_chain%=:\n\t"
                     ADD10 ADD10 ADD10 ADD10 ADD10
                     "dec %1\n\t"
                     "jnz .Lsp_chain%="
                     : "+r"(x), "+r"(n) : : "cc");
    t1 = sp_ticks();
    if (t1 <= t0)
        return 0.0;
    r = (double)CHAIN_LEN / (double)(t1 - t0);
    keep_sample(r);
    return r;
}

#else

int sp_have_tsc(void)
{
    return 0;
}

uint64_t sp_ticks(void)
{
    return sp_nsec();
}

double sp_core_per_tick(void)
{
    return 0.0;
}

#endif

void sp_timer_init(void)
{
    uint64_t n0, n1, t0, t1;
    int i;

    if (!sp_have_tsc()) {
        tsc_per_ns = 1.0;
        return;
    }
    /* ~50 ms spin: long enough for 4 significant digits */
    n0 = sp_nsec();
    t0 = sp_ticks();
    do
        n1 = sp_nsec();
    while (n1 - n0 < 50000000u);
    t1 = sp_ticks();
    tsc_per_ns = (double)(t1 - t0) / (double)(n1 - n0);
    for (i = 0; i < 21; i++)
        sp_core_per_tick();
}

double sp_tsc_ghz(void)
{
    return tsc_per_ns;
}

double sp_core_ghz(void)
{
    double *tmp, med;

    if (ncore == 0)
        return 0.0;
    tmp = sp_xmalloc(sizeof(*tmp) * (size_t)ncore);
    memcpy(tmp, core_samples, sizeof(*tmp) * (size_t)ncore);
    med = sp_median(tmp, ncore);
    free(tmp);
    return med * tsc_per_ns;
}
