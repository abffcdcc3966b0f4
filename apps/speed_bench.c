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
 */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "speed.h"

#define MAXROUNDS 101

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

/* tty: one line rewritten per cell; otherwise one line per row. */
static void progress(const sp_opts *o, const char *table, const sp_row *r,
                     const char *what, int round)
{
    static int tty = -1;

    if (o->quiet)
        return;
    if (tty < 0)
        tty = isatty(2);
    if (tty)
        fprintf(stderr, "\r\033[Kspeed: %s %ld: %s, round %d/%d ",
                table, r->size, what, round, o->rounds);
    else if (what == NULL)
        fprintf(stderr, "speed: %s %ld\n", table, r->size);
}

void sp_progress_done(const sp_opts *o)
{
    if (!o->quiet && isatty(2))
        fputs("\r\033[K", stderr);
}

/* Nanoseconds of run(arg, n). */
static double time_ns(const sp_cell *c, unsigned long n)
{
    uint64_t t0 = sp_nsec();

    c->run(c->arg, n);
    return (double)(sp_nsec() - t0);
}

/* Operations per batch so that a batch lasts about target_ns. */
static unsigned long calibrate(const sp_cell *c, double target_ns)
{
    unsigned long n = 1;
    double t;

    asmcrypt_cpucap_restrict(c->caps);
    c->run(c->arg, 1);                  /* first touch */
    for (;;) {
        t = time_ns(c, n);
        if (t >= target_ns / 8 || n >= (1ul << 40))
            break;
        n *= (t < target_ns / 1024) ? 16 : 2;
    }
    asmcrypt_cpucap_restrict(SP_ALLCAPS);
    if (t <= 0)
        return n;
    t = (double)n * target_ns / t;
    return t < 1.0 ? 1 : (unsigned long)t;
}

typedef struct sample { double tsc, ns, cyc; } sample;

static void time_batch(const sp_opts *o, const sp_cell *c, sample *s)
{
    unsigned long warm = c->iters / 16 ? c->iters / 16 : 1;
    uint64_t t0, t1, n0, n1;
    double k0, k1;

    asmcrypt_cpucap_restrict(c->caps);
    c->run(c->arg, warm);
    k0 = sp_core_per_tick();
    n0 = sp_nsec();
    t0 = sp_ticks();
    c->run(c->arg, c->iters);
    t1 = sp_ticks();
    n1 = sp_nsec();
    k1 = sp_core_per_tick();
    asmcrypt_cpucap_restrict(SP_ALLCAPS);
    s->tsc = (double)(t1 - t0) / (double)c->iters;
    s->ns = (double)(n1 - n0) / (double)c->iters;
    if (k0 > 0 && k1 > 0)
        s->cyc = s->tsc * 0.5 * (k0 + k1);
    else if (o->mhz > 0)
        s->cyc = s->ns * o->mhz * 1e-3;     /* user-stated fixed clock */
    else
        s->cyc = -1.0;
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
    double target = o->seconds * 1e9 / R;
    sample (*s)[MAXROUNDS] = sp_xmalloc(sizeof(*s) * SP_MAXCELL);
    double v[MAXROUNDS], w[MAXROUNDS];
    int i, k, j;

    if (!isatty(2))
        progress(o, table, r, NULL, 0);
    for (i = 0; i < r->ncell; i++)
        if (r->cell[i].run != NULL) {
            progress(o, table, r, "calibrating", 0);
            r->cell[i].iters = calibrate(&r->cell[i], target);
        }
    for (k = 0; k < R; k++)
        for (j = 0; j < r->ncell; j++) {
            i = (k & 1) ? r->ncell - 1 - j : j;
            if (r->cell[i].run == NULL)
                continue;
            progress(o, table, r, r->cell[i].name, k + 1);
            time_batch(o, &r->cell[i], &s[i][k]);
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
