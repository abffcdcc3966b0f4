/*
 * apps/speed_words.c - word primitives (bn_*_words), one table each, per
 * size in limbs (-s list, default 1-10,100), cycles per limb.  Every
 * implementation of a primitive works on one shared state (sp_words), so
 * each is verified the same way: same inputs, one call, compare rp and the
 * carry with the C reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "speed.h"

#define RUN_MULW(fn) static void run_##fn(void *p, unsigned long n) \
    { sp_words *s = p; while (n--) s->carry = fn(s->rp, s->ap, s->num, s->w); }
#define RUN_ADDW(fn) static void run_##fn(void *p, unsigned long n) \
    { sp_words *s = p; while (n--) s->carry = fn(s->rp, s->ap, s->bp, s->num); }
#define RUN_CNDW(fn) static void run_##fn(void *p, unsigned long n) \
    { sp_words *s = p; while (n--) s->carry = fn(s->rp, s->ap, s->bp, s->num, s->cond); }
#define RUN_SQRW(fn) static void run_##fn(void *p, unsigned long n) \
    { sp_words *s = p; while (n--) fn(s->rp, s->ap, s->num); }

RUN_MULW(bn_mul_add_words_c) RUN_MULW(bn_mul_words_c) RUN_MULW(bn_mul_sub_words_c)
RUN_SQRW(bn_sqr_words_c) RUN_ADDW(bn_add_words_c) RUN_ADDW(bn_sub_words_c)
RUN_CNDW(bn_cnd_add_words_c) RUN_CNDW(bn_cnd_sub_words_c)
#ifdef ASMCRYPT_BN_WORDS_ASM
RUN_MULW(bn_mul_add_words) RUN_MULW(bn_mul_words) RUN_MULW(bn_mul_sub_words)
RUN_SQRW(bn_sqr_words) RUN_ADDW(bn_add_words) RUN_ADDW(bn_sub_words)
RUN_CNDW(bn_cnd_add_words) RUN_CNDW(bn_cnd_sub_words)
# define ASM(fn) run_##fn
#else
# define ASM(fn) NULL
#endif

static const struct prim {
    const char *name, *title;
    sp_run_f c, a;
} prims[] = {
#define PRIM(fn, title) { #fn, title, run_##fn##_c, ASM(fn) }
    PRIM(bn_mul_add_words, "rp[] += ap[]*w, carry out"),
    PRIM(bn_mul_sub_words, "rp[] -= ap[]*w, borrow out"),
    PRIM(bn_mul_words, "rp[] = ap[]*w, carry out"),
    PRIM(bn_sqr_words, "rp[2i..2i+1] = ap[i]^2"),
    PRIM(bn_add_words, "rp[] = ap[] + bp[], carry out"),
    PRIM(bn_sub_words, "rp[] = ap[] - bp[], borrow out"),
    PRIM(bn_cnd_add_words, "rp[] = ap[] + (cond ? bp[] : 0), constant time"),
    PRIM(bn_cnd_sub_words, "rp[] = ap[] - (cond ? bp[] : 0), constant time"),
#undef PRIM
};

/* Pristine inputs of a row, copied into a cell's state before verifying. */
typedef struct inputs { asmcrypt_word *r, *a, *b, w; int num; } inputs;

static sp_words *new_state(sp_row *r, const inputs *in)
{
    sp_words *s = sp_row_alloc(r, sizeof(*s));
    size_t n = (size_t)(in->num ? in->num : 1);

    s->rp = sp_row_alloc(r, 2 * n * sizeof(asmcrypt_word));
    s->ap = sp_row_alloc(r, n * sizeof(asmcrypt_word));
    s->bp = sp_row_alloc(r, n * sizeof(asmcrypt_word));
    s->num = in->num;
    return s;
}

static void load(sp_words *s, const inputs *in)
{
    size_t n = (size_t)in->num * sizeof(asmcrypt_word);

    memcpy(s->rp, in->r, 2 * n);
    memcpy(s->ap, in->a, n);
    memcpy(s->bp, in->b, n);
    s->w = in->w;
    s->cond = 1;
    s->carry = 0;
}

/* Run cell i once on the pristine inputs and compare with cell 0 (C). */
static void verify(const char *table, sp_row *r, int i, const inputs *in,
                   sp_words *ref)
{
    sp_words *s = r->cell[i].arg;
    size_t n = 2 * (size_t)in->num * sizeof(asmcrypt_word);

    load(s, in);
    asmcrypt_cpucap_restrict(r->cell[i].caps);
    r->cell[i].run(s, 1);
    asmcrypt_cpucap_restrict(SP_ALLCAPS);
    if (i > 0 && (memcmp(s->rp, ref->rp, n) != 0 || s->carry != ref->carry))
        sp_mismatch(table, in->num, "limb", r->cell[i].name, r->cell[0].name);
}

static void bench_prim(const sp_opts *o, const struct prim *p)
{
    sp_table *t = sp_table_new(p->name, p->title, "limb", "limb", "call/s");
    sp_level lv[SP_MAXCELL];
    int nl = p->a ? sp_levels(p->name, lv, SP_MAXCELL) : 0, k, i;

    for (k = 0; k < o->nsizes && t->nrow < SP_MAXROW; k++) {
        sp_row *r = &t->row[t->nrow++];
        inputs in;
        sp_words *ref;
        size_t j, n;

        in.num = (int)o->sizes[k];
        n = (size_t)(in.num ? in.num : 1);
        sp_row_init(r, in.num, in.num ? in.num : 1);
        in.r = sp_row_alloc(r, 2 * n * sizeof(asmcrypt_word));
        in.a = sp_row_alloc(r, n * sizeof(asmcrypt_word));
        in.b = sp_row_alloc(r, n * sizeof(asmcrypt_word));
        for (j = 0; j < n; j++) {
            in.r[j] = (asmcrypt_word)sp_rand64();
            in.r[n + j] = (asmcrypt_word)sp_rand64();
            in.a[j] = (asmcrypt_word)sp_rand64();
            in.b[j] = (asmcrypt_word)sp_rand64();
        }
        in.w = (asmcrypt_word)sp_rand64();
        ref = new_state(r, &in);
        sp_row_add(r, "c", SP_REF, SP_ALLCAPS, p->c, ref);
        for (i = 0; i < nl; i++)
            sp_row_add(r, lv[i].name, SP_ASM, lv[i].mask, p->a, new_state(r, &in));
        if (in.num > 0)
            sp_peer_words(r, p->name, new_state(r, &in));
        for (i = 0; i < r->ncell; i++)
            verify(p->name, r, i, &in, ref);
        sp_measure_row(o, p->name, r);
        sp_row_release(r);
    }
    sp_report_table(o, t);
    free(t);
}

void sp_bench_words(const sp_opts *o)
{
    size_t i;

    for (i = 0; i < sizeof(prims) / sizeof(prims[0]); i++)
        if (sp_selected(o, prims[i].name, "words"))
            bench_prim(o, &prims[i]);
}
