/*
 * apps/speed_mont.c - Montgomery multiplication r = a*b*R^-1 mod n
 * (table mont_mul) and squaring a*a*R^-1 mod n (table mont_sqr, where asm
 * paths may take a dedicated squaring path when ap == bp), 512..4096-bit
 * odd moduli with the top bit set, operands below the modulus.  Columns:
 * bn_mul_mont_c, the asm bn_mul_mont at each level, "api" (the public
 * asmcrypt_bn_mont_mul at full capabilities) and the peers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "speed.h"

static const int bits_list[] = { 512, 1024, 2048, 3072, 4096 };
#define NBITS (sizeof(bits_list) / sizeof(bits_list[0]))

typedef struct mont {
    int (*mul)(BN_ULONG *, const BN_ULONG *, const BN_ULONG *,
               const BN_ULONG *, const BN_ULONG *, int);
    BN_ULONG *rp;
    const BN_ULONG *ap, *bp, *np;
    BN_ULONG n0[1];
    int num, ret;
} mont;

/* The public API (argument and range checks, asm or C by dispatch). */
static int api_mul(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
                   const BN_ULONG *np, const BN_ULONG *n0, int num)
{
    return asmcrypt_bn_mont_mul(rp, ap, bp, np, n0[0], num) == 0;
}

static void run_mont(void *arg, unsigned long n)
{
    mont *m = arg;

    while (n--)
        m->ret = m->mul(m->rp, m->ap, m->bp, m->np, m->n0, m->num);
}

/* Random odd modulus with the top bit set; operands < 2^(bits-1) < n. */
void sp_mont_operands(BN_ULONG *n, BN_ULONG *a, BN_ULONG *b, int num)
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

static void add_ours(sp_row *r, const char *table, const char *name, int kind,
                     unsigned int caps, const mont *tmpl, const BN_ULONG *expect)
{
    mont *m = sp_row_alloc(r, sizeof(*m));
    size_t bytes = sizeof(BN_ULONG) * (size_t)tmpl->num;

    *m = *tmpl;
    m->rp = sp_row_alloc(r, bytes);
    asmcrypt_cpucap_restrict(caps);
    run_mont(m, 1);
    asmcrypt_cpucap_restrict(SP_ALLCAPS);
    if (m->ret == 0) {          /* asm declined this size: no cell */
        sp_row_add(r, name, kind, caps, NULL, NULL);
        return;
    }
    if (expect != NULL && memcmp(m->rp, expect, bytes) != 0)
        sp_mismatch(table, (long)tmpl->num * ASMCRYPT_WORD_BITS, "bit", name, "c");
    sp_row_add(r, name, kind, caps, run_mont, m);
}

static void bench_table(const sp_opts *o, const char *table, int sqr)
{
    sp_table *t;
    size_t s;
#ifdef ASMCRYPT_BN_MONT_ASM
    sp_level lv[SP_MAXCELL];
    int nl = sp_levels("bn_mont_mul", lv, SP_MAXCELL), i;
#endif

    if (!sp_selected(o, table, "mont"))
        return;
    t = sp_table_new(table, sqr ? "r = a*a/R mod n (a == b)" : "r = a*b/R mod n",
                     "bit", "op", "op/s");
    for (s = 0; s < NBITS; s++) {
        int bits = bits_list[s], num = bits / ASMCRYPT_WORD_BITS;
        sp_row *r;
        BN_ULONG *n, *a, *b;
        mont tmpl;

        if (bits > ASMCRYPT_BN_MAX_BITS)
            break;
        r = &t->row[t->nrow++];
        sp_row_init(r, bits, 1.0);
        n = sp_row_alloc(r, sizeof(BN_ULONG) * (size_t)num);
        a = sp_row_alloc(r, sizeof(BN_ULONG) * (size_t)num);
        b = sp_row_alloc(r, sizeof(BN_ULONG) * (size_t)num);
        sp_mont_operands(n, a, b, num);
        memset(&tmpl, 0, sizeof(tmpl));
        tmpl.ap = a;
        tmpl.bp = sqr ? a : b;
        tmpl.np = n;
        tmpl.n0[0] = asmcrypt_bn_mont_n0(n);
        tmpl.num = num;
        tmpl.mul = bn_mul_mont_c;
        add_ours(r, table, "c", SP_REF, SP_ALLCAPS, &tmpl, NULL);
        {
            const BN_ULONG *expect = ((mont *)r->cell[0].arg)->rp;
#ifdef ASMCRYPT_BN_MONT_ASM
            tmpl.mul = bn_mul_mont;
            for (i = 0; i < nl; i++)
                add_ours(r, table, lv[i].name, SP_ASM, lv[i].mask, &tmpl, expect);
#endif
            tmpl.mul = api_mul;
            add_ours(r, table, "api", SP_ASM, SP_ALLCAPS, &tmpl, expect);
            sp_peer_bn(SP_PEER_MONT, r, table, tmpl.ap, tmpl.bp, n, num, expect);
        }
        sp_measure_row(o, table, r);
        sp_row_release(r);
    }
    sp_report_table(o, t);
    free(t);
}

void sp_bench_mont(const sp_opts *o)
{
    bench_table(o, "mont_mul", 0);
    bench_table(o, "mont_sqr", 1);
}
