/*
 * apps/speed_report.c - output of apps/speed: text tables (one column per
 * implementation, best of each row marked '#'), CSV and JSON.
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "routines.h"
#include "speed.h"

static int first_table = 1;

/* Value of the primary unit per op for a cell (-1 when absent). */
static double per_op(const sp_opts *o, const sp_cell *c)
{
    if (c == NULL || c->ns <= 0)
        return -1.0;
    if (o->unit == SP_U_CYC && c->cyc > 0)
        return c->cyc;
    if (o->unit == SP_U_TSC)
        return c->tsc;
    return c->ns;
}

static const char *unit_name(const sp_opts *o)
{
    if (o->unit == SP_U_CYC)
        return sp_have_tsc() ? "est. core cycles" : "cycles (ns x --mhz)";
    if (o->unit == SP_U_TSC)
        return sp_have_tsc() ? "TSC ticks" : "ns";
    return "ns";
}

static void fmt_num(char *buf, size_t len, double v)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else if (v < 10)
        snprintf(buf, len, "%.3f", v);
    else if (v < 100)
        snprintf(buf, len, "%.2f", v);
    else if (v < 10000)
        snprintf(buf, len, "%.1f", v);
    else if (v < 1e6)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.3gM", v * 1e-6);
}

/* Column names of a table: union over rows, first-seen order. */
static int columns(const sp_table *t, const char *col[], int max)
{
    int n = 0, i, j, k;

    for (i = 0; i < t->nrow; i++)
        for (j = 0; j < t->row[i].ncell; j++) {
            for (k = 0; k < n; k++)
                if (strcmp(col[k], t->row[i].cell[j].name) == 0)
                    break;
            if (k == n && n < max)
                col[n++] = t->row[i].cell[j].name;
        }
    return n;
}

static const sp_cell *find(const sp_row *r, const char *name)
{
    int j;

    for (j = 0; j < r->ncell; j++)
        if (strcmp(r->cell[j].name, name) == 0)
            return &r->cell[j];
    return NULL;
}

enum what { W_PER_UNIT, W_PER_OP, W_RATIO, W_THROUGHPUT, W_SPREAD };

static double value(const sp_opts *o, const sp_table *t, const sp_row *r,
                    const sp_cell *c, enum what w)
{
    double p = per_op(o, c);

    if (p <= 0)
        return -1.0;
    switch (w) {
    case W_PER_UNIT:   return p / r->units;
    case W_PER_OP:     return p;
    case W_RATIO:      return c->ratio;
    case W_THROUGHPUT:          /* MB/s for byte tables, else op/s */
        return 1e9 / c->ns * (strcmp(t->per, "byte") == 0 ? r->units * 1e-6 : 1.0);
    case W_SPREAD:     return c->spread;
    }
    return -1.0;
}

static void print_block(const sp_opts *o, const sp_table *t, enum what w,
                        const char *caption)
{
    const char *col[SP_MAXCELL * 2];
    int ncol = columns(t, col, SP_MAXCELL * 2), i, k, width[SP_MAXCELL * 2];
    char buf[64];

    printf("%s\n", caption);
    printf("%10s", "size");
    for (k = 0; k < ncol; k++) {
        width[k] = (int)strlen(col[k]) + 2;
        if (width[k] < 11)
            width[k] = 11;
        printf("%*s", width[k], col[k]);
    }
    printf("\n");
    for (i = 0; i < t->nrow; i++) {
        const sp_row *r = &t->row[i];
        double best = -1.0;

        /* best of the block: lowest time or ratio, highest throughput */
        for (k = 0; k < r->ncell; k++) {
            double v = value(o, t, r, &r->cell[k], w);

            if (v > 0 && (best < 0 || (w == W_THROUGHPUT ? v > best : v < best)))
                best = v;
        }
        snprintf(buf, sizeof(buf), "%ld %s", r->size, t->size_unit);
        printf("%10s", buf);
        for (k = 0; k < ncol; k++) {
            const sp_cell *c = find(r, col[k]);
            double v = c ? value(o, t, r, c, w) : -1.0;
            int mark = c && best > 0 && v == best;

            fmt_num(buf, sizeof(buf) - 1, v);
            if (mark)
                strcat(buf, "#");
            else if (v >= 0)
                strcat(buf, " ");
            printf("%*s", width[k], buf);
        }
        printf("\n");
    }
}

static void text_table(const sp_opts *o, const sp_table *t)
{
    char cap[256];
    const sp_row *r0 = &t->row[0];

    printf("\n== %s: %s ==\n", t->name, t->title);
    if (strcmp(t->per, "op") != 0) {
        snprintf(cap, sizeof(cap), "%s per %s (median of %d rounds; # = best in row)",
                 unit_name(o), t->per, o->rounds);
        print_block(o, t, W_PER_UNIT, cap);
        if (o->verbose) {
            snprintf(cap, sizeof(cap), "%s per call", unit_name(o));
            print_block(o, t, W_PER_OP, cap);
        }
    } else {
        snprintf(cap, sizeof(cap), "%s per op (median of %d rounds; # = best in row)",
                 unit_name(o), o->rounds);
        print_block(o, t, W_PER_OP, cap);
    }
    if (r0->ref >= 0) {
        snprintf(cap, sizeof(cap), "time relative to %s (median of per-round ratios; < 1 is faster)",
                 r0->cell[r0->ref].name);
        print_block(o, t, W_RATIO, cap);
    }
    if (o->verbose || strcmp(t->per, "limb") != 0) {
        snprintf(cap, sizeof(cap), "throughput, %s", t->thr_unit);
        print_block(o, t, W_THROUGHPUT, cap);
    }
    if (o->verbose)
        print_block(o, t, W_SPREAD, "spread over rounds, (max - min) / median");
    fflush(stdout);
}

static void csv_table(const sp_opts *o, const sp_table *t)
{
    int i, k;

    if (first_table)
        printf("table,size,size_unit,impl,kind,caps,iters,tsc_per_op,ns_per_op,"
               "cyc_per_op,per,cyc_per_unit,ops_per_s,mb_per_s,ratio,ratio_to,spread\n");
    for (i = 0; i < t->nrow; i++) {
        const sp_row *r = &t->row[i];

        for (k = 0; k < r->ncell; k++) {
            const sp_cell *c = &r->cell[k];

            if (c->ns <= 0)
                continue;
            printf("%s,%ld,%s,%s,%s,0x%x,%lu,%.4f,%.4f,%.4f,%s,%.5f,%.2f,%.3f,%.4f,%s,%.3f\n",
                   t->name, r->size, t->size_unit, c->name,
                   c->kind == SP_REF ? "c" : c->kind == SP_ASM ? "asm" : "peer",
                   c->caps, c->iters, c->tsc, c->ns, c->cyc, t->per,
                   c->cyc > 0 ? c->cyc / r->units : -1.0, 1e9 / c->ns,
                   strcmp(t->per, "byte") == 0 ? r->units * 1e3 / c->ns : -1.0, c->ratio,
                   r->ref >= 0 ? r->cell[r->ref].name : "", c->spread);
        }
    }
    (void)o;
    fflush(stdout);
}

static void json_table(const sp_opts *o, const sp_table *t)
{
    int i, k, first;

    printf("%s\n  {\"table\": \"%s\", \"title\": \"%s\", \"size_unit\": \"%s\", \"per\": \"%s\", \"rows\": [",
           first_table ? "" : ",", t->name, t->title, t->size_unit, t->per);
    for (i = 0; i < t->nrow; i++) {
        const sp_row *r = &t->row[i];

        printf("%s\n    {\"size\": %ld, \"units_per_op\": %g, \"ratio_to\": \"%s\", \"cells\": [",
               i ? "," : "", r->size, r->units, r->ref >= 0 ? r->cell[r->ref].name : "");
        for (first = 1, k = 0; k < r->ncell; k++) {
            const sp_cell *c = &r->cell[k];

            if (c->ns <= 0)
                continue;
            printf("%s\n      {\"impl\": \"%s\", \"kind\": \"%s\", \"caps\": %u, \"iters\": %lu, "
                   "\"tsc_per_op\": %.4f, \"ns_per_op\": %.4f, \"cyc_per_op\": %.4f, "
                   "\"ops_per_s\": %.2f, \"ratio\": %.4f, \"spread\": %.3f}",
                   first ? "" : ",", c->name,
                   c->kind == SP_REF ? "c" : c->kind == SP_ASM ? "asm" : "peer",
                   c->caps, c->iters, c->tsc, c->ns, c->cyc, 1e9 / c->ns, c->ratio, c->spread);
            first = 0;
        }
        printf("]}");
    }
    printf("]}");
    (void)o;
    fflush(stdout);
}

void sp_report_table(const sp_opts *o, const sp_table *t)
{
    sp_progress_done(o);
    if (t->nrow == 0)
        return;
    if (o->format == SP_CSV)
        csv_table(o, t);
    else if (o->format == SP_JSON)
        json_table(o, t);
    else
        text_table(o, t);
    first_table = 0;
}

/* the assembly modules Configure enabled (its registry, conf.h) */
static void asm_modules(char *buf, size_t len)
{
    buf[0] = '\0';
#ifdef ASMCRYPT_ASM_MODULES
    snprintf(buf, len, "%s", ASMCRYPT_ASM_MODULES);
#endif
    if (buf[0] == '\0')
        snprintf(buf, len, "none (C only)");
}

#ifndef ASMCRYPT_TARGET
# define ASMCRYPT_TARGET "unknown"
#endif
#ifndef ASMCRYPT_CPU_CHOICE      /* Configure --cpu=NAME (docs/perf/choice.md) */
# define ASMCRYPT_CPU_CHOICE "generic"
#endif
#ifndef __VERSION__
# define __VERSION__ "unknown"
#endif

void sp_report_begin(const sp_opts *o)
{
    char det[256], eff[256], mods[64], peers[256];
    double tsc = sp_tsc_ghz(), core = sp_core_ghz();

    sp_caps_string(asmcrypt_cpucap_detected(), det, sizeof(det));
    sp_caps_string(asmcrypt_cpu_caps(), eff, sizeof(eff));
    asm_modules(mods, sizeof(mods));
    rt_peer_versions(peers, sizeof(peers));
    if (o->format == SP_JSON) {
        printf("{\"target\": \"%s\", \"word_bits\": %d, \"asm\": \"%s\", \"cpu_choice\": \"%s\",\n"
               " \"cpu\": \"%s\","
               " \"caps_detected\": %u, \"caps\": %u, \"tsc_ghz\": %.4f, \"core_ghz\": %.3f,\n"
               " \"unit\": \"%s\", \"rounds\": %d, \"seconds_per_cell\": %.3f,\n"
               " \"peers\": \"%s\", \"compiler\": \"%s\",\n \"tables\": [",
               ASMCRYPT_TARGET, ASMCRYPT_WORD_BITS, mods, ASMCRYPT_CPU_CHOICE, sp_cpu_model(),
               asmcrypt_cpucap_detected(), asmcrypt_cpu_caps(),
               sp_have_tsc() ? tsc : 0.0, core, unit_name(o), o->rounds, o->seconds,
               peers, __VERSION__);
        return;
    }
    if (o->format == SP_CSV)
        return;
    printf("asmcrypt speed: target %s, %d-bit words, asm: %s, built for cpu %s\n",
           ASMCRYPT_TARGET, ASMCRYPT_WORD_BITS, mods, ASMCRYPT_CPU_CHOICE);
    printf("cpu:      %s\n", sp_cpu_model());
    printf("caps:     detected %s\n          in use   %s\n", det, eff);
    if (sp_have_tsc())
        printf("clock:    TSC %.4f GHz (vs CLOCK_MONOTONIC); core ~%.2f GHz "
               "(dependent-ADD chain), 1 tick ~ %.2f core cycles\n",
               tsc, core, tsc > 0 ? core / tsc : 0.0);
    else
        printf("clock:    CLOCK_MONOTONIC ns%s\n",
               o->mhz > 0 ? " (cycles = ns x --mhz)" : "");
    printf("units:    %s%s\n", unit_name(o),
           o->unit == SP_U_CYC && sp_have_tsc()
           ? " = TSC ticks of each batch x core cycles per tick sampled just before and after it" : "");
    printf("timing:   %d rounds, round-robin over implementations, %.2f s per cell, medians\n",
           o->rounds, o->seconds);
    printf("peers:    %s\n", peers);
    printf("compiler: %s\n", __VERSION__);
    fflush(stdout);
}

void sp_report_end(const sp_opts *o)
{
    sp_progress_done(o);
    if (o->format == SP_JSON)
        printf("\n ],\n \"core_ghz_run_median\": %.3f}\n", sp_core_ghz());
    else if (o->format == SP_TEXT && sp_have_tsc())
        printf("\ncore clock over the run: median %.2f GHz\n", sp_core_ghz());
}
