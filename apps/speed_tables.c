/*
 * apps/speed_tables.c - the tables of apps/speed, one per primitive of the
 * routine table (tools/routines.h), in its order.  A row is one size; its
 * cells are the primitive's routines:
 *
 *   poly1305   the C references, the assembly at each distinct capability
 *              level, "api" (the public one-shot at full capabilities),
 *              "api-inc" (init, one update, final), the peers; key set
 *              per message, 16 B .. 16 KiB
 *   mont_mul, mont_sqr  (sqr: ap == bp, where asm may take a squaring
 *              path) bn_mul_mont_c, the assembly at each level, "api"
 *              (asmcrypt_bn_mont_mul), the peers; 512..4096-bit odd moduli
 *              with the top bit set, operands below the modulus
 *   mod_exp    asmcrypt_mod_exp at each level (a C-only build: one column
 *              "c"), the peers, full-size exponent; ratios to the first
 *   bn_*_words the C reference, the assembly at each level, the peers;
 *              the -s sizes in limbs, cycles per limb
 *
 * Every cell runs once on the row's inputs before it is timed and must
 * give the first cell's result (rp and the carry, or the tag; for
 * Poly1305 also the RFC 8439 tag): sp_mismatch exits otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "routines.h"
#include "speed.h"

/* How apps/speed shows each shape. */
static const struct shape_view {
    const char *group;          /* command-line group selector */
    const char *per, *thr_unit;
    enum rt_impl levels;        /* the routine run at each capability level */
    int api_column;             /* a column "api" for the RT_API routine */
    int c_fallback;             /* no level: the level routine as column "c" */
} views[] = {
    [RT_POLY1305] = {"poly1305", "byte", "MB/s (10^6 B/s)", RT_ASM, 1, 0},
    [RT_MONT]     = {"mont", "op", "op/s", RT_ASM, 1, 0},
    [RT_MONT_SQR] = {"mont", "op", "op/s", RT_ASM, 1, 0},
    [RT_MODEXP]   = {"modexp", "op", "op/s", RT_API, 0, 1},
    [RT_WORDS]    = {"words", "limb", "call/s", RT_ASM, 0, 0},
};

static const long poly_sizes[] = {16, 64, 256, 1024, 8192, 16384};
static const long bn_bits[] = {512, 1024, 2048, 3072, 4096};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAXLEN 16384

/* The inputs of a row, which each cell's job copies. */
typedef struct row_in {
    const struct rt_prim *p;
    struct rt_job tmpl;
    BN_ULONG *r0;               /* words: pristine rp, 2 num words */
    size_t out;                 /* bytes of rp compared (bn; Poly1305: the tag) */
    int ref_carry;              /* the first cell's carry (ref_res) counts */
    BN_ULONG ref_res;
} row_in;

/* Random odd modulus with the top bit set; operands < 2^(bits-1) < n. */
static void mont_operands(BN_ULONG *n, BN_ULONG *a, BN_ULONG *b, int num)
{
    int i;

    for (i = 0; i < num; i++) {
        n[i] = (BN_ULONG)sp_rand64();
        a[i] = (BN_ULONG)sp_rand64();
        b[i] = (BN_ULONG)sp_rand64();
    }
    n[0] |= 1;
    n[num - 1] |= (BN_ULONG)1 << (ASMCRYPT_WORD_BITS - 1);
    a[num - 1] &= ~((BN_ULONG)1 << (ASMCRYPT_WORD_BITS - 1));
    b[num - 1] &= ~((BN_ULONG)1 << (ASMCRYPT_WORD_BITS - 1));
}

static BN_ULONG *row_words(sp_row *r, size_t n)
{
    return sp_row_alloc(r, (n ? n : 1) * sizeof(BN_ULONG));
}

/* The inputs of the row of size; msg and key: the table's message. */
static void row_inputs(row_in *in, sp_row *r, long size, unsigned char *msg,
                       unsigned char *key)
{
    struct rt_job *j = &in->tmpl;
    size_t n, i;

    memset(j, 0, sizeof(*j));
    in->r0 = NULL;
    in->out = 0;
    in->ref_carry = 0;
    switch (in->p->shape) {
    case RT_POLY1305:
        j->msg = msg;
        j->key = key;
        j->len = (size_t)size;
        return;
    case RT_WORDS:
        j->num = (int)size;
        n = (size_t)j->num;
        in->r0 = row_words(r, 2 * n);
        j->ap = row_words(r, n);
        j->bp = row_words(r, n);
        for (i = 0; i < n; i++) {
            in->r0[i] = (BN_ULONG)sp_rand64();
            in->r0[n + i] = (BN_ULONG)sp_rand64();
            j->ap[i] = (BN_ULONG)sp_rand64();
            j->bp[i] = (BN_ULONG)sp_rand64();
        }
        j->w = (BN_ULONG)sp_rand64();
        j->cond = 1;
        in->out = 2 * n * sizeof(BN_ULONG);
        return;
    case RT_MONT:
    case RT_MONT_SQR:
    case RT_MODEXP:
        break;
    }
    j->num = (int)(size / ASMCRYPT_WORD_BITS);
    n = (size_t)j->num;
    j->np = row_words(r, n);
    j->ap = row_words(r, n);
    j->bp = row_words(r, n);
    mont_operands(j->np, j->ap, j->bp, j->num);
    j->n0 = asmcrypt_bn_mont_n0(j->np);
    if (in->p->shape == RT_MODEXP) {    /* the exponent: bp, full size */
        j->ep = j->bp;
        j->ep[n - 1] |= (BN_ULONG)1 << (ASMCRYPT_WORD_BITS - 2);
        j->ewords = j->num;
    }
    in->out = n * sizeof(BN_ULONG);
}

/* A cell's job: the row's inputs, outputs of its own. */
static struct rt_job *cell_job(sp_row *r, const row_in *in)
{
    struct rt_job *j = sp_row_alloc(r, sizeof(*j));

    *j = in->tmpl;
    if (in->p->shape == RT_POLY1305)
        j->tag = sp_row_alloc(r, 16);
    else
        j->rp = row_words(r, in->out / sizeof(BN_ULONG));
    return j;
}

/* Run rt once at caps on the row's inputs into j; *res: its result.
 * Returns 1 when it computed, 0 when it declined (bn_mul_mont).  A
 * library call that returned an error (rt_status(): every API column,
 * the word primitives' too, whose result is the carry) stops the run:
 * its timing would be the argument check's. */
static int run_once(const sp_row *r, const row_in *in, const struct routine *rt,
                    const char *name, unsigned int caps, struct rt_job *j,
                    BN_ULONG *res)
{
    int rc;

    if (in->r0 != NULL)
        memcpy(j->rp, in->r0, in->out);
    asmcrypt_cpucap_restrict(caps);
    rt->one(j);
    asmcrypt_cpucap_restrict(SP_ALLCAPS);
    *res = rt_result();
    rc = rt_status();
    if (rt->fetch != NULL)
        rt->fetch(j);
    if (rc != 0)
        sp_die("%s at %ld %s (%s): error %d (%s)", in->p->table, r->size,
               in->p->size_unit, name, rc, asmcrypt_strerror(rc));
    if (rt->result == RT_R_ACCEPT && *res == 0) {
        if (rt->impl == RT_PEER)
            sp_die("%s at %ld %s: %s failed", in->p->table, r->size,
                   in->p->size_unit, name);
        return 0;
    }
    return 1;
}

/* Add the cell of rt to row r, checked against the first cell (rp and,
 * where both give one, the carry; or the tag). */
static void add_cell(sp_row *r, row_in *in, const struct routine *rt,
                     const char *name, int kind, unsigned int caps)
{
    struct rt_job *j = cell_job(r, in);
    BN_ULONG res;

    if (!run_once(r, in, rt, name, caps, j, &res)) {   /* declined this size */
        sp_row_add(r, name, kind, caps, NULL, NULL);
        return;
    }
    if (r->ncell == 0) {
        in->ref_carry = rt->result == RT_R_CARRY;
        in->ref_res = res;
    } else {
        const struct rt_job *ref = r->cell[0].arg;
        int same = in->p->shape == RT_POLY1305 ? memcmp(j->tag, ref->tag, 16) == 0
                                               : memcmp(j->rp, ref->rp, in->out) == 0;

        if (in->ref_carry && rt->result == RT_R_CARRY && res != in->ref_res)
            same = 0;
        if (!same)
            sp_mismatch(in->p->table, r->size, in->p->size_unit, name, r->cell[0].name);
    }
    sp_row_add(r, name, kind, caps, rt->loop, j);
}

/* RFC 8439 section 2.5.2 test vector (key, message, tag). */
static const unsigned char rfc_key[32] = {
    0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe,
    0x42, 0xd5, 0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd,
    0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b
};
static const char rfc_msg[] = "Cryptographic Forum Research Group";
static const unsigned char rfc_tag[16] = {
    0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6,
    0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01, 0x27, 0xa9
};

/* A Poly1305 routine of ours must reproduce the RFC 8439 tag. */
static void check_rfc(const struct routine *rt, const char *name, unsigned int caps)
{
    unsigned char tag[16];
    struct rt_job j;

    memset(&j, 0, sizeof(j));
    j.key = (unsigned char *)rfc_key;
    j.msg = (unsigned char *)rfc_msg;
    j.len = sizeof(rfc_msg) - 1;
    j.tag = tag;
    asmcrypt_cpucap_restrict(caps);
    rt->one(&j);
    asmcrypt_cpucap_restrict(SP_ALLCAPS);
    if (memcmp(tag, rfc_tag, 16) != 0)
        sp_mismatch("poly1305", (long)j.len, "B", name, "RFC 8439 2.5.2");
}

/* The cells of one row, in column order. */
static void row_cells(sp_row *r, row_in *in, const sp_level *lv, int nl, int first)
{
    const struct rt_prim *p = in->p;
    const struct shape_view *v = &views[p->shape];
    const struct routine *lr = rt_get(p->prim, v->levels), *rt;
    int i;
    size_t t;

    for (t = 0; t < rt_ntable; t++) {       /* the C references */
        rt = &rt_table[t];
        if ((rt->impl == RT_C || rt->impl == RT_C64) && !strcmp(rt->prim, p->prim)) {
            if (first && p->shape == RT_POLY1305)
                check_rfc(rt, rt->name, SP_ALLCAPS);
            add_cell(r, in, rt, rt->name, SP_REF, SP_ALLCAPS);
        }
    }
    for (i = 0; lr != NULL && i < nl; i++) {
        if (first && p->shape == RT_POLY1305)
            check_rfc(lr, lv[i].name, lv[i].mask);
        add_cell(r, in, lr, lv[i].name, SP_ASM, lv[i].mask);
    }
    if (lr != NULL && nl == 0 && v->c_fallback)
        add_cell(r, in, lr, "c", SP_REF, SP_ALLCAPS);
    if (v->api_column && (rt = rt_get(p->prim, RT_API)) != NULL)
        add_cell(r, in, rt, "api", SP_ASM, SP_ALLCAPS);
    if (v->api_column && (rt = rt_get(p->prim, RT_API_INC)) != NULL) {
        if (first && p->shape == RT_POLY1305)
            check_rfc(rt, rt->name, SP_ALLCAPS);
        add_cell(r, in, rt, rt->name, SP_ASM, SP_ALLCAPS);
    }
    if (r->ref < 0 && r->ncell > 0)     /* mod_exp: ratios to the first column */
        r->ref = 0;
    for (t = 0; t < rt_ntable; t++) {       /* the peers */
        rt = &rt_table[t];
        if (rt->impl == RT_PEER && !strcmp(rt->prim, p->prim)) {
            if (rt->prepare != NULL && !rt->prepare(&in->tmpl))
                continue;
            add_cell(r, in, rt, rt->name, SP_PEER, SP_ALLCAPS);
        }
    }
}

static void bench_prim(const sp_opts *o, const struct rt_prim *p, unsigned char *msg,
                       unsigned char *key)
{
    const struct shape_view *v = &views[p->shape];
    sp_table *t = sp_table_new(p->table, p->title, p->size_unit, v->per, v->thr_unit);
    sp_level lv[SP_MAXCELL];
    int nl = sp_levels(p->impl, lv, SP_MAXCELL), k, nsizes;
    const long *sizes;

    if (p->shape == RT_POLY1305) {
        sizes = poly_sizes;
        nsizes = COUNT(poly_sizes);
    } else if (p->shape == RT_WORDS) {
        sizes = o->sizes;
        nsizes = o->nsizes;
    } else {
        sizes = bn_bits;
        nsizes = COUNT(bn_bits);
    }
    for (k = 0; k < nsizes && t->nrow < SP_MAXROW; k++) {
        sp_row *r;
        row_in in;

        if (p->shape != RT_POLY1305 && p->shape != RT_WORDS && sizes[k] > ASMCRYPT_BN_MAX_BITS)
            break;
        r = &t->row[t->nrow++];
        sp_row_init(r, sizes[k], p->shape == RT_POLY1305 ? (double)sizes[k]
                                 : p->shape == RT_WORDS && sizes[k] > 0 ? (double)sizes[k] : 1.0);
        in.p = p;
        row_inputs(&in, r, sizes[k], msg, key);
        row_cells(r, &in, lv, nl, k == 0);
        sp_measure_row(o, p->table, r);
        sp_row_release(r);
    }
    sp_report_table(o, t);
    free(t);
}

void sp_bench(const sp_opts *o)
{
    unsigned char *msg = sp_xmalloc(MAXLEN), key[32];
    size_t i;

    sp_rand_bytes(msg, MAXLEN);
    sp_rand_bytes(key, sizeof(key));
    for (i = 0; i < rt_nprims; i++)
        if (sp_selected(o, rt_prims[i].table, views[rt_prims[i].shape].group))
            bench_prim(o, &rt_prims[i], msg, key);
    free(msg);
}
