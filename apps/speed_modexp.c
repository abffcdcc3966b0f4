/*
 * apps/speed_modexp.c - constant-time modular exponentiation a^e mod n
 * with a full-size exponent (as many words as n), 512..4096 bits.
 *
 * The library's asmcrypt_mod_exp runs on the Montgomery multiplication
 * the build selects; there is no separate C-reference entry point, so the
 * columns are asmcrypt_mod_exp at each distinct capability level (a
 * no-asm build gives the C column) and the peers.  Ratios are relative to
 * the first column.  Results are cross-checked between all columns, and
 * the peers (OpenSSL, GMP) are an independent oracle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "speed.h"

static const int bits_list[] = { 512, 1024, 2048, 3072, 4096 };
#define NBITS (sizeof(bits_list) / sizeof(bits_list[0]))

typedef struct mexp {
    BN_ULONG *rp;
    const BN_ULONG *ap, *ep, *np;
    int num, ret;
} mexp;

static void run_modexp(void *arg, unsigned long n)
{
    mexp *m = arg;

    while (n--)
        m->ret = asmcrypt_mod_exp(m->rp, m->ap, m->ep, m->num, m->np, m->num);
}

void sp_bench_modexp(const sp_opts *o)
{
    sp_level lv[SP_MAXCELL];
    sp_table *t;
    size_t s;
    int nl, i;

    if (!sp_selected(o, "mod_exp", "modexp"))
        return;
    nl = sp_levels("mod_exp", lv, SP_MAXCELL);
    if (nl == 0) {              /* no asm: the library runs C */
        lv[0].mask = SP_ALLCAPS;
        snprintf(lv[0].name, sizeof(lv[0].name), "c");
        nl = 1;
    }
    t = sp_table_new("mod_exp", "r = a^e mod n, constant time, full-size exponent",
                     "bit", "op", "op/s");
    for (s = 0; s < NBITS; s++) {
        int bits = bits_list[s], num = bits / ASMCRYPT_WORD_BITS;
        size_t bytes = sizeof(BN_ULONG) * (size_t)num;
        BN_ULONG *n, *a, *e, *expect = NULL;
        sp_row *r;

        if (bits > ASMCRYPT_BN_MAX_BITS)
            break;
        r = &t->row[t->nrow++];
        sp_row_init(r, bits, 1.0);
        n = sp_row_alloc(r, bytes);
        a = sp_row_alloc(r, bytes);
        e = sp_row_alloc(r, bytes);
        sp_mont_operands(n, a, e, num);
        e[num - 1] |= (BN_ULONG)1 << (ASMCRYPT_WORD_BITS - 2);
        for (i = 0; i < nl; i++) {
            mexp *m = sp_row_alloc(r, sizeof(*m));

            m->rp = sp_row_alloc(r, bytes);
            m->ap = a;
            m->ep = e;
            m->np = n;
            m->num = num;
            asmcrypt_cpucap_restrict(lv[i].mask);
            run_modexp(m, 1);
            asmcrypt_cpucap_restrict(SP_ALLCAPS);
            if (m->ret != 0)
                sp_die("mod_exp at %d bits (%s): error %d (%s)", bits, lv[i].name,
                       m->ret, asmcrypt_strerror(m->ret));
            if (expect == NULL)
                expect = m->rp;
            else if (memcmp(expect, m->rp, bytes) != 0)
                sp_mismatch("mod_exp", bits, "bit", lv[i].name, lv[0].name);
            sp_row_add(r, lv[i].name, strcmp(lv[i].name, "c") ? SP_ASM : SP_REF,
                       lv[i].mask, run_modexp, m);
        }
        r->ref = 0;
        sp_peer_bn(SP_PEER_MODEXP, r, "mod_exp", a, e, n, num, expect);
        sp_measure_row(o, "mod_exp", r);
        sp_row_release(r);
    }
    sp_report_table(o, t);
    free(t);
}
