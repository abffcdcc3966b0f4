/*
 * apps/speed_peer_gmp.c - GMP as a peer: the mpn primitives that match
 * our word primitives (mpn_addmul_1, mpn_submul_1, mpn_mul_1, mpn_add_n,
 * mpn_sub_n, mpn_cnd_add_n, mpn_cnd_sub_n; GMP has no counterpart of
 * bn_sqr_words) and mpz_powm_sec for constant-time modexp.  The mpn cells
 * are used only when a GMP limb is an asmcrypt_word.
 */
#include <string.h>
#include "speed_peers.h"

#ifdef HAVE_GMP
#include <gmp.h>

const char *sp_gmp_version(void)
{
    return gmp_version;
}

/* ---- mpz_powm_sec --------------------------------------------------------- */
typedef struct gmp_exp { mpz_t r, a, e, n; } gmp_exp;

static void free_exp(void *p)
{
    gmp_exp *g = p;

    mpz_clears(g->r, g->a, g->e, g->n, NULL);
}

static void run_powm(void *arg, unsigned long n)
{
    gmp_exp *g = arg;

    while (n--)
        mpz_powm_sec(g->r, g->a, g->e, g->n);
}

void sp_gmp_modexp(sp_row *r, const char *table, const asmcrypt_word *a,
                   const asmcrypt_word *e, const asmcrypt_word *n, int num,
                   const asmcrypt_word *expect)
{
    gmp_exp *g = sp_row_alloc(r, sizeof(*g));
    asmcrypt_word *w = sp_row_alloc(r, sizeof(asmcrypt_word) * (size_t)num);
    size_t cnt = 0;

    mpz_inits(g->r, g->a, g->e, g->n, NULL);
    sp_row_own(r, g, free_exp);
    mpz_import(g->a, (size_t)num, -1, sizeof(asmcrypt_word), 0, 0, a);
    mpz_import(g->e, (size_t)num, -1, sizeof(asmcrypt_word), 0, 0, e);
    mpz_import(g->n, (size_t)num, -1, sizeof(asmcrypt_word), 0, 0, n);
    run_powm(g, 1);
    if (mpz_sizeinbase(g->r, 2) > (size_t)num * ASMCRYPT_WORD_BITS)
        sp_mismatch(table, (long)num * ASMCRYPT_WORD_BITS, "bit", "gmp", r->cell[0].name);
    mpz_export(w, &cnt, -1, sizeof(asmcrypt_word), 0, 0, g->r);
    if (memcmp(w, expect, sizeof(asmcrypt_word) * (size_t)num) != 0)
        sp_mismatch(table, (long)num * ASMCRYPT_WORD_BITS, "bit", "gmp", r->cell[0].name);
    sp_row_add(r, "gmp", SP_PEER, SP_ALLCAPS, run_powm, g);
}

/* ---- mpn ------------------------------------------------------------------ */
#define LIMBS(p) ((mp_limb_t *)(p))
#define CLIMBS(p) ((const mp_limb_t *)(p))

static void run_addmul(void *p, unsigned long n)
{ sp_words *s = p; while (n--) s->carry = mpn_addmul_1(LIMBS(s->rp), CLIMBS(s->ap), s->num, s->w); }
static void run_submul(void *p, unsigned long n)
{ sp_words *s = p; while (n--) s->carry = mpn_submul_1(LIMBS(s->rp), CLIMBS(s->ap), s->num, s->w); }
static void run_mul1(void *p, unsigned long n)
{ sp_words *s = p; while (n--) s->carry = mpn_mul_1(LIMBS(s->rp), CLIMBS(s->ap), s->num, s->w); }
static void run_addn(void *p, unsigned long n)
{ sp_words *s = p; while (n--) s->carry = mpn_add_n(LIMBS(s->rp), CLIMBS(s->ap), CLIMBS(s->bp), s->num); }
static void run_subn(void *p, unsigned long n)
{ sp_words *s = p; while (n--) s->carry = mpn_sub_n(LIMBS(s->rp), CLIMBS(s->ap), CLIMBS(s->bp), s->num); }
static void run_cndadd(void *p, unsigned long n)
{ sp_words *s = p; while (n--) s->carry = mpn_cnd_add_n(s->cond, LIMBS(s->rp), CLIMBS(s->ap), CLIMBS(s->bp), s->num); }
static void run_cndsub(void *p, unsigned long n)
{ sp_words *s = p; while (n--) s->carry = mpn_cnd_sub_n(s->cond, LIMBS(s->rp), CLIMBS(s->ap), CLIMBS(s->bp), s->num); }

void sp_gmp_words(sp_row *r, const char *prim, sp_words *st)
{
    static const struct { const char *prim, *name; sp_run_f run; } map[] = {
        { "bn_mul_add_words", "mpn_addmul_1", run_addmul },
        { "bn_mul_sub_words", "mpn_submul_1", run_submul },
        { "bn_mul_words", "mpn_mul_1", run_mul1 },
        { "bn_add_words", "mpn_add_n", run_addn },
        { "bn_sub_words", "mpn_sub_n", run_subn },
        { "bn_cnd_add_words", "mpn_cnd_add_n", run_cndadd },
        { "bn_cnd_sub_words", "mpn_cnd_sub_n", run_cndsub },
    };
    size_t i;

    if (sizeof(mp_limb_t) != sizeof(asmcrypt_word) || GMP_NAIL_BITS != 0 || st->num < 1)
        return;
    for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(map[i].prim, prim) == 0)
            sp_row_add(r, map[i].name, SP_PEER, SP_ALLCAPS, map[i].run, st);
}

#endif
