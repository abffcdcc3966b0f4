/*
 * apps/speed_bench.c - the measurement engine of apps/speed.
 *
 * This VM's speed drifts by 10-40% within a minute, so the cells of a row
 * are never timed one after the other: every round times one batch of
 * every cell (order alternating forward/backward between rounds), and the
 * figures are medians over rounds.  The ratio of a cell to the reference
 * is the median of the per-round ratios, which cancels drift slower than a
 * round.  Each batch is preceded by a short untimed warm-up of the same
 * cell (caches and branch predictors were just used by another cell).
 *
 * The machine is also shared: a batch during which the vCPU was taken away
 * is simply too slow, and with more runnable threads than vCPUs the
 * scheduler's slices are a few ms.  So a round's share of a cell is split
 * into sub-batches of at most SUB_NS and the round keeps the fastest of
 * them (GMP speed's "minimum of repetitions"); the median across rounds
 * then handles drift.  An operation longer than SUB_NS is timed alone.
 */
#define _POSIX_C_SOURCE 200112L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "speed.h"

#define MAXROUNDS 101
#define SUB_NS    250000.0      /* longest sub-batch, ns */

void *sp_row_alloc(sp_row *r, size_t n)
{
    void *p = sp_xmalloc(n);

    sp_row_own(r, p, free);
    return p;
}

void sp_row_own(sp_row *r, void *p, void (*fn)(void *))
{
    if (r->nown == (int)(sizeof(r->own) / sizeof(r->own[0])))
        sp_die("internal: too many objects in one row");
    r->own[r->nown] = p;
    r->own_free[r->nown] = fn;
    r->nown++;
}

void sp_row_release(sp_row *r)
{
    int i;

    for (i = r->nown - 1; i >= 0; i--)
        r->own_free[i](r->own[i]);
    r->nown = 0;
    for (i = 0; i < r->ncell; i++)
        r->cell[i].arg = NULL;
}

void sp_row_init(sp_row *r, long size, double units)
{
    memset(r, 0, sizeof(*r));
    r->size = size;
    r->units = units;
    r->ref = -1;
}

void sp_row_add(sp_row *r, const char *name, int kind, unsigned int caps,
                sp_run_f run, void *arg)
{
    sp_cell *c;

    if (r->ncell == SP_MAXCELL)
        sp_die("internal: too many implementations in one row");
    c = &r->cell[r->ncell++];
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "%s", name);
    c->kind = kind;
    c->caps = caps;
    c->run = run;
    c->arg = arg;
    c->tsc = c->ns = c->cyc = c->ratio = c->spread = -1.0;
    if (kind == SP_REF && r->ref < 0)
        r->ref = r->ncell - 1;
}

/* tty: one line rewritten per round; otherwise one line per row. */
static int progress_tty(const sp_opts *o)
{
    static int tty = -1;

    if (tty < 0)
        tty = isatty(2);
    return !o->quiet && tty;
}

static void progress(const sp_opts *o, const char *table, const sp_row *r,
                     const char *what, int round)
{
    if (progress_tty(o))
        fprintf(stderr, "\r\033[Kspeed: %s %ld: %s, round %d/%d ",
                table, r->size, what, round, o->rounds);
}

static void progress_row(const sp_opts *o, const char *table, const sp_row *r)
{
    if (!o->quiet && !progress_tty(o))
        fprintf(stderr, "speed: %s %ld\n", table, r->size);
}

void sp_progress_done(const sp_opts *o)
{
    if (progress_tty(o))
        fputs("\r\033[K", stderr);
}

/* Nanoseconds of run(arg, n). */
static double time_ns(const sp_cell *c, unsigned long n)
{
    uint64_t t0 = sp_nsec();

    c->run(c->arg, n);
    return (double)(sp_nsec() - t0);
}

/* Operations per sub-batch so that it lasts about target_ns; *op_ns is
 * the time of one operation. */
static unsigned long calibrate(const sp_cell *c, double target_ns, double *op_ns)
{
    unsigned long n = 1;
    double t;

    asmcrypt_cpucap_restrict(c->caps);
    c->run(c->arg, 1);                  /* first touch */
    for (;;) {
        t = time_ns(c, n);
        if (t >= target_ns / 8 || n >= ULONG_MAX / 64)
            break;
        n *= (t < target_ns / 1024) ? 16 : 2;
    }
    asmcrypt_cpucap_restrict(SP_ALLCAPS);
    *op_ns = t / (double)n;
    if (t <= 0)
        return n;
    t = (double)n * target_ns / t;
    return t < 1.0 ? 1 : (unsigned long)t;
}

typedef struct sample { double tsc, ns, cyc; } sample;

/* Time one sub-batch.  The wall clock (TSC or CLOCK_MONOTONIC) is scaled by
 * the share of it this thread actually ran (thread CPU time / wall time):
 * on a shared machine the scheduler takes the vCPU away for milliseconds,
 * which matters for operations too long to dodge it (modexp). */
static void time_sub(const sp_opts *o, const sp_cell *c, sample *s)
{
    uint64_t t0, t1, n0, n1, u0, u1;
    double k0, k1, share = 1.0;

    k0 = sp_core_per_tick();
    u0 = sp_cpu_nsec();
    n0 = sp_nsec();
    t0 = sp_ticks();
    c->run(c->arg, c->iters);
    t1 = sp_ticks();
    n1 = sp_nsec();
    u1 = sp_cpu_nsec();
    k1 = sp_core_per_tick();
    if (u1 > u0 && n1 > n0 && u1 - u0 < n1 - n0)
        share = (double)(u1 - u0) / (double)(n1 - n0);
    s->tsc = share * (double)(t1 - t0) / (double)c->iters;
    s->ns = share * (double)(n1 - n0) / (double)c->iters;
    if (k0 > 0 && k1 > 0) {
        /* a reading taken while the vCPU was away is too low: when the
         * two disagree by more than 10%, trust the higher one */
        double hi = k0 > k1 ? k0 : k1, lo = k0 > k1 ? k1 : k0;

        s->cyc = s->tsc * (lo < 0.9 * hi ? hi : 0.5 * (k0 + k1));
    }
    else if (o->mhz > 0)
        s->cyc = s->ns * o->mhz * 1e-3;     /* user-stated fixed clock */
    else
        s->cyc = -1.0;
}

/* One sub-batch of a cell, after a short warm-up (the previous sub-batch
 * was another cell's); keeps the fastest in *best. */
static void time_one(const sp_opts *o, const sp_cell *c, sample *best, int first)
{
    unsigned long warm = c->iters / 8 ? c->iters / 8 : 1;
    sample s;

    asmcrypt_cpucap_restrict(c->caps);
    c->run(c->arg, warm);
    time_sub(o, c, &s);
    asmcrypt_cpucap_restrict(SP_ALLCAPS);
    /* fastest by the clock; its cycle estimate comes along (taking the
     * minimum of the estimates would select low core-clock readings) */
    if (first || s.tsc < best->tsc)
        *best = s;
}

static double primary(const sp_opts *o, const sample *s)
{
    if (o->unit == SP_U_CYC && s->cyc > 0)
        return s->cyc;
    if (o->unit == SP_U_TSC)
        return s->tsc;
    return s->ns;
}

void sp_measure_row(const sp_opts *o, const char *table, sp_row *r)
{
    int R = o->rounds < 1 ? 1 : (o->rounds > MAXROUNDS ? MAXROUNDS : o->rounds);
    double target = o->seconds * 1e9 / R;          /* per cell per round */
    sample (*s)[MAXROUNDS] = sp_xmalloc(sizeof(*s) * SP_MAXCELL);
    double v[MAXROUNDS], w[MAXROUNDS];
    int i, k, j, q, maxsub;

    progress_row(o, table, r);
    for (i = 0; o->ref_name != NULL && i < r->ncell; i++)    /* --ref */
        if (strcmp(r->cell[i].name, o->ref_name) == 0 && r->cell[i].run != NULL)
            r->ref = i;
    for (i = 0; i < r->ncell; i++)
        if (r->cell[i].run != NULL) {
            sp_cell *c = &r->cell[i];
            double op_ns, sub = target < SUB_NS ? target : SUB_NS, fill;

            progress(o, table, r, "calibrating", 0);
            c->iters = calibrate(c, sub, &op_ns);
            fill = op_ns > 0 ? target / (op_ns * (double)c->iters) : 1.0;
            c->subs = fill < 1.0 ? 1 : (fill > 100000.0 ? 100000 : (int)fill);
        }
    for (i = 0, maxsub = 1; i < r->ncell; i++)
        if (r->cell[i].run != NULL && r->cell[i].subs > maxsub)
            maxsub = r->cell[i].subs;
    /* a round: sub-batch q of every cell in turn, order alternating */
    for (k = 0; k < R; k++) {
        progress(o, table, r, "timing", k + 1);
        for (q = 0; q < maxsub; q++)
            for (j = 0; j < r->ncell; j++) {
                sp_cell *c;

                i = ((k + q) & 1) ? r->ncell - 1 - j : j;
                c = &r->cell[i];
                /* cells with fewer sub-batches spread them over the round */
                if (c->run == NULL || (long)q * c->subs / maxsub ==
                    ((long)q + 1) * c->subs / maxsub)
                    continue;
                time_one(o, c, &s[i][k], (long)q * c->subs / maxsub == 0);
            }
    }
    for (i = 0; i < r->ncell; i++) {
        sp_cell *c = &r->cell[i];
        double med;

        if (c->run == NULL)
            continue;
        for (k = 0; k < R; k++) v[k] = s[i][k].tsc;
        c->tsc = sp_median(v, R);
        for (k = 0; k < R; k++) v[k] = s[i][k].ns;
        c->ns = sp_median(v, R);
        for (k = 0; k < R; k++) v[k] = s[i][k].cyc;
        c->cyc = sp_median(v, R);
        for (k = 0; k < R; k++) v[k] = primary(o, &s[i][k]);
        med = sp_median(v, R);
        c->spread = med > 0 ? (v[R - 1] - v[0]) / med : -1.0;
        if (r->ref >= 0 && r->cell[r->ref].run != NULL) {
            for (k = 0; k < R; k++)
                w[k] = primary(o, &s[i][k]) / primary(o, &s[r->ref][k]);
            c->ratio = sp_median(w, R);
        }
    }
    free(s);
}
