/*
 * apps/speed_util.c - small helpers of apps/speed: errors, memory,
 * a deterministic PRNG for benchmark inputs, medians, size lists.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "speed.h"

void sp_die(const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    fputs("\nspeed: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(3);
}

/* a cell's result differs from the reference's: stop before timing it
 * (called by the groups and the peers, so it lives with the errors here,
 * not in speed_report.c, which calls the peers) */
void sp_mismatch(const char *table, long size, const char *size_unit,
                 const char *impl, const char *ref)
{
    sp_die("%s at %ld %s: %s disagrees with %s; not timing wrong code",
           table, size, size_unit, impl, ref);
}

void *sp_xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);

    if (p == NULL)
        sp_die("out of memory (%zu bytes)", n);
    return p;
}

sp_table *sp_table_new(const char *name, const char *title, const char *size_unit,
                       const char *per, const char *thr_unit)
{
    sp_table *t = sp_xmalloc(sizeof(*t));

    snprintf(t->name, sizeof(t->name), "%s", name);
    t->title = title;
    t->size_unit = size_unit;
    t->per = per;
    t->thr_unit = thr_unit;
    return t;
}

/* splitmix64: inputs only need to look random, not be secret. */
static uint64_t rng_state = 0x243f6a8885a308d3ull;

uint64_t sp_rand64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void sp_rand_bytes(void *p, size_t n)
{
    unsigned char *c = p;
    uint64_t v = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        if ((i & 7) == 0)
            v = sp_rand64();
        c[i] = (unsigned char)v;
        v >>= 8;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Median of v[0..n-1]; sorts v. */
double sp_median(double *v, int n)
{
    if (n <= 0)
        return -1.0;
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* "1-10,100" -> 1 2 ... 10 100.  Returns the count or -1 on a syntax error. */
int sp_parse_sizes(const char *s, long *out, int max)
{
    int n = 0;

    while (*s != '\0') {
        char *end;
        long lo = strtol(s, &end, 10), hi = lo, v;

        if (end == s || lo < 0)
            return -1;
        s = end;
        if (*s == '-') {
            hi = strtol(s + 1, &end, 10);
            if (end == s + 1 || hi < lo)
                return -1;
            s = end;
        }
        for (v = lo; v <= hi; v++) {
            if (n == max)
                return -1;
            out[n++] = v;
        }
        if (*s == ',')
            s++;
        else if (*s != '\0')
            return -1;
    }
    return n;
}

/* Is table (e.g. "bn_mul_add_words") of group (e.g. "words") selected?
 * Accepted selectors: the group, the table name, or the table name
 * without its "bn_" prefix / "_words" suffix ("mul_add"). */
int sp_selected(const sp_opts *o, const char *table, const char *group)
{
    int i;

    if (o->nselect == 0)
        return 1;
    for (i = 0; i < o->nselect; i++) {
        const char *s = o->select[i];
        size_t tl = strlen(table);

        if (strcmp(s, group) == 0 || strcmp(s, table) == 0)
            return 1;
        if (strncmp(table, "bn_", 3) == 0 && tl > 9 &&
            strcmp(table + tl - 6, "_words") == 0 &&
            strlen(s) == tl - 9 && strncmp(s, table + 3, tl - 9) == 0)
            return 1;
    }
    return 0;
}
