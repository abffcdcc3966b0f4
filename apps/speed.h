/*
 * apps/speed.h - shared types of apps/speed, the asmcrypt benchmark.
 *
 * A table is one primitive (poly1305, mont_mul, bn_mul_add_words, ...)
 * over several sizes.  A row is one size; its cells are the
 * implementations (C reference, each asm capability level, peers), the
 * primitive's entries in the routine table (tools/routines.h).  The
 * measurement engine (speed_bench.c) times the cells of a row
 * round-robin, several rounds, and keeps medians; speed_report.c prints
 * tables, CSV or JSON.
 */
#ifndef ASMCRYPT_APPS_SPEED_H
#define ASMCRYPT_APPS_SPEED_H

#include <stddef.h>
#include <stdint.h>
#include "asmcrypt/bn.h"

#define SP_MAXCELL   16          /* implementations per row */
#define SP_MAXROW    64          /* sizes per table */
#define SP_NAMELEN   32
#define SP_ALLCAPS   (~0u)

enum sp_kind { SP_REF = 'c', SP_ASM = 'a', SP_PEER = 'p' };
enum sp_unit { SP_U_CYC, SP_U_TSC, SP_U_NS };
enum sp_format { SP_TEXT, SP_CSV, SP_JSON };

/* Work that one cell does: run(arg, n) performs n operations. */
typedef void (*sp_run_f)(void *arg, unsigned long n);

typedef struct sp_cell {
    char name[SP_NAMELEN];      /* column name */
    int kind;                   /* enum sp_kind */
    unsigned int caps;          /* capability mask while it runs */
    sp_run_f run;               /* NULL: not available at this size */
    void *arg;
    /* results: medians per operation */
    unsigned long iters;        /* operations per timed sub-batch */
    int subs;                   /* sub-batches per round */
    double tsc, ns, cyc;        /* cyc < 0: not available */
    double ratio;               /* median per-round ratio to the ref cell */
    double spread;              /* (max - min) / median of the per-round primary */
} sp_cell;

typedef struct sp_row {
    long size;                  /* in size_unit */
    double units;               /* work units per op (bytes, limbs) or 1 */
    int ncell;
    int ref;                    /* index of the ratio base, -1 none */
    sp_cell cell[SP_MAXCELL];
    /* memory and objects owned by the cells, released after timing */
    int nown;
    void *own[4 * SP_MAXCELL];
    void (*own_free[4 * SP_MAXCELL])(void *);
} sp_row;

typedef struct sp_table {
    char name[SP_NAMELEN];      /* "poly1305", "mont_mul", ... */
    const char *title;          /* one-line description */
    const char *size_unit;      /* "B", "bit", "limb" */
    const char *per;            /* "byte", "limb", "op" */
    const char *thr_unit;       /* "MB/s", "op/s" */
    int nrow;
    sp_row row[SP_MAXROW];
} sp_table;

typedef struct sp_opts {
    double seconds;             /* per cell, over all rounds */
    int rounds;
    enum sp_unit unit;          /* primary unit of the text tables */
    enum sp_format format;
    int verbose;                /* more text tables */
    int quiet;                  /* no progress line */
    double mhz;                 /* >0: cycles = ns * mhz / 1000 (no TSC) */
    int nsizes;                 /* word-primitive sizes (limbs) */
    long sizes[SP_MAXROW];
    const char *ref_name;       /* --ref: the ratio base where a row has it */
    int nselect;                /* primitives selected on the command line */
    const char *select[32];
} sp_opts;

/* speed_util.c */
void sp_die(const char *fmt, ...);
void *sp_xmalloc(size_t n);
/* a new empty table; name is copied, the other strings are kept as given */
sp_table *sp_table_new(const char *name, const char *title, const char *size_unit,
                       const char *per, const char *thr_unit);
void sp_rand_bytes(void *p, size_t n);
uint64_t sp_rand64(void);
double sp_median(double *v, int n);
int sp_parse_sizes(const char *s, long *out, int max);
int sp_selected(const sp_opts *o, const char *table, const char *group);
/* exits: an implementation disagrees with the reference */
void sp_mismatch(const char *table, long size, const char *size_unit,
                 const char *impl, const char *ref);

/* speed_timer.c: a clock in TSC ticks (x86_64) or ns, and core cycles */
void sp_timer_init(void);
int sp_have_tsc(void);
uint64_t sp_ticks(void);
uint64_t sp_nsec(void);
uint64_t sp_cpu_nsec(void);     /* this thread's CPU time */
double sp_core_per_tick(void);  /* sample: core cycles per tick, 0 if n/a */
double sp_tsc_ghz(void);        /* ticks per ns */
double sp_core_ghz(void);       /* median of the core clock samples so far */

/* speed_caps.c: capability levels and the machine description */
typedef struct sp_level { unsigned int mask; char name[SP_NAMELEN]; } sp_level;
int sp_levels(const char *primitive, sp_level *out, int max);
const char *sp_cpu_model(void);
void sp_caps_string(unsigned int caps, char *buf, size_t len);

/* speed_bench.c */
void sp_row_init(sp_row *r, long size, double units);
void *sp_row_alloc(sp_row *r, size_t n);           /* zeroed, freed with the row */
void sp_row_own(sp_row *r, void *p, void (*fn)(void *));
void sp_row_release(sp_row *r);
void sp_row_add(sp_row *r, const char *name, int kind, unsigned int caps,
                sp_run_f run, void *arg);
void sp_measure_row(const sp_opts *o, const char *table, sp_row *r);
void sp_progress_done(const sp_opts *o);

/* speed_report.c */
void sp_report_begin(const sp_opts *o);
void sp_report_table(const sp_opts *o, const sp_table *t);
void sp_report_end(const sp_opts *o);

/* speed_tables.c: every selected table of the routine table
 * (tools/routines.h), measured and reported */
void sp_bench(const sp_opts *o);

#endif
