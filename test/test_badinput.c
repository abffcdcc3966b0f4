/*
 * test/test_badinput.c - the bad-input table of every public function
 * (docs/testing-badinput.md).
 *
 * bn: each function has a valid baseline call; every row of the table
 * breaks one argument of it (NULL pointers, num/ewords out of range, even
 * modulus, operand >= n, a wrong n0, a carry pointer into the result) and
 * must get its documented ASMCRYPT_E* code with no byte of the arena
 * changed: every operand, output and carry word lives in one canary-filled
 * arena that is compared whole after the call.  The aliasing table places
 * the output at every word offset across each input (and the carry word
 * across the output): the allowed patterns must give the result of the
 * same call on separate copies, the refused ones ASMCRYPT_ERANGE and an
 * unchanged arena.  Valid edge cases (num 0, 1 and the maximum, modulus 1,
 * cnd_* with any nonzero cond) are compared with the C references.
 * Poly1305: NULL pointers, lengths near SIZE_MAX, contexts never
 * initialised, corrupted or finalised, and its aliasing rules, with the
 * output tag and the context canary-compared.  Then asmcrypt_impl,
 * asmcrypt_cpu_caps, asmcrypt_bn_mont_n0 and asmcrypt_strerror.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "internal.h"
#include "util.h"

#define MAXW   ASMCRYPT_BN_MAX_WORDS
#define CANARY 0xc5
#define WMAX   ((asmcrypt_word)-1)

/* ---- the arena ------------------------------------------------------------ */
/* Slots (r, a, b, n, e, carry), each 3*MAXW words plus guards: room for
 * an input moved across r's 2*MAXW words by the aliasing table; the slot
 * below r is left free for inputs moved under r. */
#define SLOT   (3 * MAXW + 16)
#define ARENA  (7 * SLOT)
static asmcrypt_word arena[ARENA], snap[ARENA], want_arena[ARENA];

enum { S_PAD, S_R, S_A, S_B, S_N, S_E, S_C };
static asmcrypt_word *slot(int s) { return arena + s * SLOT + 8; }

static void arena_fill(void) { memset(arena, CANARY, sizeof(arena)); }
static void arena_snap(void) { memcpy(snap, arena, sizeof(arena)); }
static int arena_same(void) { return memcmp(arena, snap, sizeof(arena)) == 0; }

/* ---- one call of any bn function ------------------------------------------ */
enum op {
    OP_MUL_ADD, OP_MUL, OP_MUL_SUB, OP_SQR, OP_ADD, OP_SUB, OP_CND_ADD,
    OP_CND_SUB, OP_MONT, OP_EXP, OP_COUNT
};

/* argument shape of each op */
#define HAS_B 1u      /* bp */
#define HAS_N 2u      /* np (and n0 for mont) */
#define HAS_E 4u      /* ep, ewords */
#define HAS_C 8u      /* carry / borrow out pointer */
#define RDBL  16u     /* rp has 2*num words */
#define RIN   32u     /* rp is also an input (mul_add, mul_sub) */
#define HAS_W 64u     /* w or cond word */

static const struct opinfo {
    const char *name;
    unsigned shape;
    int min_num;      /* smallest valid num */
} ops[OP_COUNT] = {
    { "bn_mul_add_words", HAS_C | RIN | HAS_W, 0 },
    { "bn_mul_words",     HAS_C | HAS_W, 0 },
    { "bn_mul_sub_words", HAS_C | RIN | HAS_W, 0 },
    { "bn_sqr_words",     RDBL, 0 },
    { "bn_add_words",     HAS_B | HAS_C, 0 },
    { "bn_sub_words",     HAS_B | HAS_C, 0 },
    { "bn_cnd_add_words", HAS_B | HAS_C | HAS_W, 0 },
    { "bn_cnd_sub_words", HAS_B | HAS_C | HAS_W, 0 },
    { "bn_mont_mul",      HAS_B | HAS_N, 1 },
    { "mod_exp",          HAS_N | HAS_E, 1 },
};

struct args {
    asmcrypt_word *rp, *carry;
    const asmcrypt_word *ap, *bp, *np, *ep;
    int num, ewords;
    asmcrypt_word w, n0;      /* w is cond for cnd_* */
};

static int rlen(enum op op, int num) { return ops[op].shape & RDBL ? 2 * num : num; }

static int call_api(enum op op, const struct args *x)
{
    switch (op) {
    case OP_MUL_ADD: return asmcrypt_bn_mul_add_words(x->rp, x->ap, x->num, x->w, x->carry);
    case OP_MUL:     return asmcrypt_bn_mul_words(x->rp, x->ap, x->num, x->w, x->carry);
    case OP_MUL_SUB: return asmcrypt_bn_mul_sub_words(x->rp, x->ap, x->num, x->w, x->carry);
    case OP_SQR:     return asmcrypt_bn_sqr_words(x->rp, x->ap, x->num);
    case OP_ADD:     return asmcrypt_bn_add_words(x->rp, x->ap, x->bp, x->num, x->carry);
    case OP_SUB:     return asmcrypt_bn_sub_words(x->rp, x->ap, x->bp, x->num, x->carry);
    case OP_CND_ADD: return asmcrypt_bn_cnd_add_words(x->rp, x->ap, x->bp, x->num, x->w, x->carry);
    case OP_CND_SUB: return asmcrypt_bn_cnd_sub_words(x->rp, x->ap, x->bp, x->num, x->w, x->carry);
    case OP_MONT:    return asmcrypt_bn_mont_mul(x->rp, x->ap, x->bp, x->np, x->n0, x->num);
    case OP_EXP:     return asmcrypt_mod_exp(x->rp, x->ap, x->ep, x->ewords, x->np, x->num);
    default:         return 99;
    }
}

/* Expected result of a valid call: the C reference on private copies of
 * every operand (mod_exp: the API itself on separate buffers, its own
 * correctness is test_bn's job).  Writes want[0..rlen-1] and *wc. */
static asmcrypt_word cr[2 * MAXW], ca[MAXW], cb[MAXW], cn[MAXW], ce[MAXW];

static void expected(enum op op, const struct args *x, asmcrypt_word *want,
                     asmcrypt_word *wc)
{
    int n = x->num;
    asmcrypt_word c = 0, n0w[1];

    memcpy(ca, x->ap, sizeof(asmcrypt_word) * (size_t)n);
    if (ops[op].shape & HAS_B)
        memcpy(cb, x->bp, sizeof(asmcrypt_word) * (size_t)n);
    if (ops[op].shape & HAS_N)
        memcpy(cn, x->np, sizeof(asmcrypt_word) * (size_t)n);
    if (ops[op].shape & HAS_E)
        memcpy(ce, x->ep, sizeof(asmcrypt_word) * (size_t)x->ewords);
    if (ops[op].shape & RIN)
        memcpy(cr, x->rp, sizeof(asmcrypt_word) * (size_t)n);
    switch (op) {
    case OP_MUL_ADD: c = bn_mul_add_words_c(cr, ca, n, x->w); break;
    case OP_MUL:     c = bn_mul_words_c(cr, ca, n, x->w); break;
    case OP_MUL_SUB: c = bn_mul_sub_words_c(cr, ca, n, x->w); break;
    case OP_SQR:     bn_sqr_words_c(cr, ca, n); break;
    case OP_ADD:     c = bn_add_words_c(cr, ca, cb, n); break;
    case OP_SUB:     c = bn_sub_words_c(cr, ca, cb, n); break;
    case OP_CND_ADD: c = bn_cnd_add_words_c(cr, ca, cb, n, x->w); break;
    case OP_CND_SUB: c = bn_cnd_sub_words_c(cr, ca, cb, n, x->w); break;
    case OP_MONT:    n0w[0] = x->n0; bn_mul_mont_c(cr, ca, cb, cn, n0w, n); break;
    case OP_EXP:
        CHECK(asmcrypt_mod_exp(cr, ca, ce, x->ewords, cn, n) == 0, "mod_exp reference call");
        break;
    default: break;
    }
    memcpy(want, cr, sizeof(asmcrypt_word) * (size_t)rlen(op, n));
    *wc = c;
}

/* ---- valid baselines --------------------------------------------------------- */
/* Random odd n with a nonzero top word, a, b < n, e random, w random. */
static void baseline(enum op op, int num, struct args *x)
{
    asmcrypt_word *r = slot(S_R), *a = slot(S_A), *b = slot(S_B);
    asmcrypt_word *n = slot(S_N), *e = slot(S_E);
    int k = num > 0 ? num : 1;

    arena_fill();
    tu_rand_words(r, 2 * k);
    tu_rand_words(a, k);
    tu_rand_words(b, k);
    tu_rand_modulus(n, k);
    tu_rand_words(e, k);
    a[k - 1] = n[k - 1] >> 1;
    b[k - 1] = n[k - 1] >> 2;
    x->rp = r;
    x->ap = a;
    x->bp = ops[op].shape & HAS_B ? b : NULL;
    x->np = ops[op].shape & HAS_N ? n : NULL;
    x->ep = ops[op].shape & HAS_E ? e : NULL;
    x->carry = ops[op].shape & HAS_C ? slot(S_C) : NULL;
    x->num = num;
    x->ewords = ops[op].shape & HAS_E ? (num < 3 ? num : 3) : 0;
    x->w = tu_rand_word();
    x->n0 = asmcrypt_bn_mont_n0(n);
}

/* Runs a call the rules allow: rc 0 and the arena equal to the snapshot
 * with the result words (and then the carry word) replaced by the C
 * reference's. */
static void run_valid(enum op op, const struct args *x, const char *what)
{
    asmcrypt_word want[2 * MAXW], wc;
    int rc;

    expected(op, x, want, &wc);
    arena_snap();
    memcpy(want_arena, arena, sizeof(arena));
    memcpy(want_arena + (x->rp - arena), want, sizeof(asmcrypt_word) * (size_t)rlen(op, x->num));
    if (x->carry != NULL)
        want_arena[x->carry - arena] = wc;
    rc = call_api(op, x);
    CHECK(rc == 0, "%s %s num %d: rc %d on a valid call", ops[op].name, what, x->num, rc);
    CHECK(memcmp(arena, want_arena, sizeof(arena)) == 0,
          "%s %s num %d: result or bytes around it differ from the C reference",
          ops[op].name, what, x->num);
}

static void run_bad(enum op op, const struct args *x, int want, const char *what)
{
    int rc;

    arena_snap();
    rc = call_api(op, x);
    CHECK(rc == want, "%s %s num %d: rc %d, expected %d (%s)", ops[op].name, what,
          x->num, rc, want, asmcrypt_strerror(want));
    CHECK(arena_same(), "%s %s num %d: a byte of the arena changed on error",
          ops[op].name, what, x->num);
}

/* ---- the invalid-argument table ------------------------------------------------ */
/* Each row breaks one argument of a valid baseline; `need` selects the ops
 * it applies to (by shape bits; 0 = every op; WORDS / MOD = only those). */
#define WORDS 0x100u
#define MOD   0x200u
#define MONT  0x400u

static void m_rp_null(struct args *x) { x->rp = NULL; }
static void m_ap_null(struct args *x) { x->ap = NULL; }
static void m_bp_null(struct args *x) { x->bp = NULL; }
static void m_np_null(struct args *x) { x->np = NULL; }
static void m_ep_null(struct args *x) { x->ep = NULL; }
static void m_all_null(struct args *x) { x->rp = NULL; x->ap = NULL; x->bp = NULL; x->np = NULL; x->ep = NULL; }
static void m_num_m1(struct args *x) { x->num = -1; }
static void m_num_min(struct args *x) { x->num = INT_MIN; }
static void m_num_big(struct args *x) { x->num = MAXW + 1; }
static void m_num_2max(struct args *x) { x->num = 2 * MAXW; }
static void m_num_imax(struct args *x) { x->num = INT_MAX; }
static void m_num_0(struct args *x) { x->num = 0; }
static void m_ew_0(struct args *x) { x->ewords = 0; }
static void m_ew_m1(struct args *x) { x->ewords = -1; }
static void m_ew_big(struct args *x) { x->ewords = MAXW + 1; }
static void m_ew_imax(struct args *x) { x->ewords = INT_MAX; }
static void m_n_even(struct args *x) { (void)x; slot(S_N)[0] &= ~(asmcrypt_word)1; }
static void m_n_zero(struct args *x) { memset(slot(S_N), 0, sizeof(asmcrypt_word) * (size_t)x->num); }
static void m_n_two(struct args *x) { m_n_zero(x); slot(S_N)[0] = 2; }
static void m_a_eq_n(struct args *x) { memcpy(slot(S_A), x->np, sizeof(asmcrypt_word) * (size_t)x->num); }
static void m_a_n1(struct args *x)   /* a = n + 1 (n is odd: no carry out of word 0) */
{
    m_a_eq_n(x);
    slot(S_A)[0]++;
}
static void m_a_ones(struct args *x) { memset(slot(S_A), 0xff, sizeof(asmcrypt_word) * (size_t)x->num); }
static void m_a_top(struct args *x)  /* a > n decided by the top word alone */
{
    asmcrypt_word *n = slot(S_N), *a = slot(S_A);

    n[x->num - 1] &= ~(asmcrypt_word)2;      /* keeps n odd and above b */
    memset(a, 0, sizeof(asmcrypt_word) * (size_t)x->num);
    a[x->num - 1] = n[x->num - 1] + 2;
}
static void m_b_eq_n(struct args *x) { memcpy(slot(S_B), x->np, sizeof(asmcrypt_word) * (size_t)x->num); }
static void m_b_ones(struct args *x) { memset(slot(S_B), 0xff, sizeof(asmcrypt_word) * (size_t)x->num); }
static void m_ab_n(struct args *x) { m_a_eq_n(x); m_b_eq_n(x); }
static void m_n0_wrong(struct args *x) { x->n0 ^= 2; }
static void m_n0_zero(struct args *x) { x->n0 = 0; }
static void m_carry_r0(struct args *x) { x->carry = x->rp; }
static void m_carry_rtop(struct args *x) { x->carry = x->rp + x->num - 1; }
/* order of the checks: ENULL before ESIZE before EEVEN before ERANGE */
static void m_null_and_size(struct args *x) { x->rp = NULL; x->num = 0; }
static void m_size_and_even(struct args *x) { x->num = -5; m_n_even(x); }
static void m_even_and_range(struct args *x) { m_a_ones(x); m_n_even(x); }

static const struct bad {
    const char *what;
    unsigned need;
    void (*apply)(struct args *);
    int want;
} bad_table[] = {
    { "rp NULL",           0,     m_rp_null,   ASMCRYPT_ENULL },
    { "ap NULL",           0,     m_ap_null,   ASMCRYPT_ENULL },
    { "bp NULL",           HAS_B, m_bp_null,   ASMCRYPT_ENULL },
    { "np NULL",           HAS_N, m_np_null,   ASMCRYPT_ENULL },
    { "ep NULL",           HAS_E, m_ep_null,   ASMCRYPT_ENULL },
    { "all NULL",          0,     m_all_null,  ASMCRYPT_ENULL },
    { "num -1",            0,     m_num_m1,    ASMCRYPT_ESIZE },
    { "num INT_MIN",       0,     m_num_min,   ASMCRYPT_ESIZE },
    { "num max+1",         0,     m_num_big,   ASMCRYPT_ESIZE },
    { "num 2*max",         0,     m_num_2max,  ASMCRYPT_ESIZE },
    { "num INT_MAX",       0,     m_num_imax,  ASMCRYPT_ESIZE },
    { "num 0",             MOD,   m_num_0,     ASMCRYPT_ESIZE },
    { "ewords 0",          HAS_E, m_ew_0,      ASMCRYPT_ESIZE },
    { "ewords -1",         HAS_E, m_ew_m1,     ASMCRYPT_ESIZE },
    { "ewords max+1",      HAS_E, m_ew_big,    ASMCRYPT_ESIZE },
    { "ewords INT_MAX",    HAS_E, m_ew_imax,   ASMCRYPT_ESIZE },
    { "n even",            HAS_N, m_n_even,    ASMCRYPT_EEVEN },
    { "n 0",               HAS_N, m_n_zero,    ASMCRYPT_EEVEN },
    { "n 2",               HAS_N, m_n_two,     ASMCRYPT_EEVEN },
    { "a == n",            HAS_N, m_a_eq_n,    ASMCRYPT_ERANGE },
    { "a == n+1",          HAS_N, m_a_n1,      ASMCRYPT_ERANGE },
    { "a all ones",        HAS_N, m_a_ones,    ASMCRYPT_ERANGE },
    { "a top words >= n",  HAS_N, m_a_top,     ASMCRYPT_ERANGE },
    { "b == n",            MONT,  m_b_eq_n,    ASMCRYPT_ERANGE },
    { "b all ones",        MONT,  m_b_ones,    ASMCRYPT_ERANGE },
    { "a == b == n",       MONT,  m_ab_n,      ASMCRYPT_ERANGE },
    { "n0 wrong",          MONT,  m_n0_wrong,  ASMCRYPT_ERANGE },
    { "n0 0",              MONT,  m_n0_zero,   ASMCRYPT_ERANGE },
    { "carry = &rp[0]",    HAS_C, m_carry_r0,  ASMCRYPT_ERANGE },
    { "carry = &rp[num-1]", HAS_C, m_carry_rtop, ASMCRYPT_ERANGE },
    { "rp NULL + num 0 (ENULL first)", MOD, m_null_and_size, ASMCRYPT_ENULL },
    { "num -5 + n even (ESIZE first)", MOD, m_size_and_even, ASMCRYPT_ESIZE },
    { "n even + a >= n (EEVEN first)", MOD, m_even_and_range, ASMCRYPT_EEVEN },
};

static int applies(enum op op, unsigned need)
{
    if (need & WORDS)
        return !(ops[op].shape & HAS_N);
    if (need & MOD)
        return (ops[op].shape & HAS_N) != 0;
    if (need & MONT)
        return op == OP_MONT;
    return (ops[op].shape & need) == need;
}

static void test_bad_table(void)
{
    static const int nums[] = { 1, 2, 5, MAXW };
    size_t i, k;
    int o;

    for (o = 0; o < OP_COUNT; o++)
        for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
            struct args x;

            /* the baseline itself is valid (so each row's error is its own) */
            baseline((enum op)o, nums[k], &x);
            run_valid((enum op)o, &x, "baseline");
            for (i = 0; i < sizeof(bad_table) / sizeof(bad_table[0]); i++) {
                if (!applies((enum op)o, bad_table[i].need))
                    continue;
                baseline((enum op)o, nums[k], &x);
                bad_table[i].apply(&x);
                run_bad((enum op)o, &x, bad_table[i].want, bad_table[i].what);
            }
        }
}

/* ---- valid edges ------------------------------------------------------------------ */
static void test_valid_edges(void)
{
    struct args x;
    static const asmcrypt_word conds[] = { 0, 1, 2, 0x80, WMAX, (asmcrypt_word)1 << (ASMCRYPT_WORD_BITS - 1) };
    size_t i;
    int o, num;

    for (o = 0; o < OP_COUNT; o++) {
        if (ops[o].shape & HAS_N)
            continue;
        /* num 0: nothing is read or written but the carry, which is 0; any
         * pointer may then be NULL */
        baseline((enum op)o, 1, &x);
        x.num = 0;
        arena_snap();
        memcpy(want_arena, arena, sizeof(arena));
        if (x.carry != NULL)
            want_arena[x.carry - arena] = 0;
        CHECK(call_api((enum op)o, &x) == 0 && memcmp(arena, want_arena, sizeof(arena)) == 0,
              "%s num 0: rc 0, carry 0, nothing else written", ops[o].name);
        m_all_null(&x);
        arena_snap();
        CHECK(call_api((enum op)o, &x) == 0 && arena_same(), "%s num 0 with NULL pointers", ops[o].name);
        x.carry = NULL;
        CHECK(call_api((enum op)o, &x) == 0, "%s num 0, carry NULL", ops[o].name);
        /* NULL carry pointer: the result still written */
        for (num = 1; num <= MAXW; num = num < 8 ? num + 1 : num * 2) {
            baseline((enum op)o, num, &x);
            x.carry = NULL;
            run_valid((enum op)o, &x, "carry NULL");
        }
        /* w / cond extremes; cnd_* must take any nonzero cond as true */
        if (ops[o].shape & HAS_W)
            for (i = 0; i < sizeof(conds) / sizeof(conds[0]); i++) {
                baseline((enum op)o, 7, &x);
                x.w = conds[i];
                run_valid((enum op)o, &x, "w/cond extreme");
            }
        /* all-ones operands: every carry chain at its longest */
        baseline((enum op)o, MAXW, &x);
        memset(slot(S_A), 0xff, sizeof(asmcrypt_word) * MAXW);
        memset(slot(S_B), 0xff, sizeof(asmcrypt_word) * MAXW);
        memset(slot(S_R), 0xff, sizeof(asmcrypt_word) * 2 * MAXW);
        x.w = WMAX;
        run_valid((enum op)o, &x, "all ones");
    }

    /* modulus 1 (num 1 and with leading zero words): only a = 0 is below
     * it and every result is 0, including a^0 */
    for (num = 1; num <= 4; num++) {
        int ew;

        for (o = OP_MONT; o <= OP_EXP; o++) {
            baseline((enum op)o, num, &x);
            memset(slot(S_N), 0, sizeof(asmcrypt_word) * (size_t)num);
            memset(slot(S_A), 0, sizeof(asmcrypt_word) * (size_t)num);
            memset(slot(S_B), 0, sizeof(asmcrypt_word) * (size_t)num);
            slot(S_N)[0] = 1;
            x.n0 = asmcrypt_bn_mont_n0(slot(S_N));
            for (ew = 0; ew < 2; ew++) {
                memset(slot(S_E), ew ? 0xff : 0, sizeof(asmcrypt_word) * (size_t)num);
                arena_snap();
                memcpy(want_arena, arena, sizeof(arena));
                memset(want_arena + (x.rp - arena), 0, sizeof(asmcrypt_word) * (size_t)num);
                CHECK(call_api((enum op)o, &x) == 0 && memcmp(arena, want_arena, sizeof(arena)) == 0,
                      "%s modulus 1, num %d, e %s: result 0", ops[o].name, num, ew ? "ones" : "0");
            }
            baseline((enum op)o, num, &x);
            memset(slot(S_N), 0, sizeof(asmcrypt_word) * (size_t)num);
            slot(S_N)[0] = 1;
            x.n0 = asmcrypt_bn_mont_n0(slot(S_N));
            slot(S_A)[0] = 1;
            run_bad((enum op)o, &x, ASMCRYPT_ERANGE, "modulus 1, a = 1");
        }
    }
    /* the largest operands below n: a = b = n - 1, n = 2^k - 1 */
    for (o = OP_MONT; o <= OP_EXP; o++)
        for (num = 1; num <= MAXW; num = num < 4 ? num + 1 : num * 4) {
            baseline((enum op)o, num, &x);
            memset(slot(S_N), 0xff, sizeof(asmcrypt_word) * (size_t)num);
            memset(slot(S_A), 0xff, sizeof(asmcrypt_word) * (size_t)num);
            memset(slot(S_B), 0xff, sizeof(asmcrypt_word) * (size_t)num);
            slot(S_A)[0] = slot(S_B)[0] = WMAX - 1;
            x.n0 = asmcrypt_bn_mont_n0(slot(S_N));
            run_valid((enum op)o, &x, "a = b = n-1, n = 2^k-1");
        }
}

/* ---- aliasing ---------------------------------------------------------------------- */
/* The output is placed at word offset d from an input (d < 0: below it).
 * Allowed (asmcrypt/bn.h): rp == ap / bp exactly (same length) for the
 * word functions but sqr_words and for mont_mul; for mod_exp any overlap
 * of rp with ap or ep (it writes rp only at the end, from its own
 * buffers); the carry word anywhere but in the result.  Refused: every
 * other overlap, and for mont_mul and mod_exp any overlap with np.
 * Returns 1 allowed, 0 refused (-1 would mean not checked). */
enum which { IN_A, IN_B, IN_N, IN_E, IN_CARRY };
static const char *const which_name[] = { "ap", "bp", "np", "ep", "carry" };

static int alias_allowed(enum op op, enum which w, int d, int num)
{
    if (w == IN_CARRY)          /* carry at rp + d */
        return d < 0 || d >= num;
    if (op == OP_SQR)
        return 0;
    if (w == IN_N) {
        return 0;
    }
    if (op == OP_EXP)
        return 1;
    return d == 0;
}

/* Places input `w` so that rp = input + d (rp stays in its slot), keeping
 * the input's value, and runs the call as allowed or refused. */
static void alias_case(enum op op, enum which w, int num, int d)
{
    struct args x;
    asmcrypt_word *r = slot(S_R), *in;
    int len = w == IN_E ? 0 : num, allowed;
    char what[64];

    baseline(op, num, &x);
    if (w == IN_E)
        len = x.ewords;
    if (w == IN_CARRY) {
        x.carry = r + d;
    } else {
        const asmcrypt_word *src = w == IN_A ? x.ap : w == IN_B ? x.bp : w == IN_N ? x.np : x.ep;
        asmcrypt_word tmp[2 * MAXW];

        memcpy(tmp, src, sizeof(asmcrypt_word) * (size_t)len);
        in = r - d;
        memcpy(in, tmp, sizeof(asmcrypt_word) * (size_t)len);
        /* the moved input must keep a valid value where it overlaps rp's
         * initial contents: those are the input's words now */
        if (w == IN_A) x.ap = in;
        else if (w == IN_B) x.bp = in;
        else if (w == IN_N) x.np = in;
        else x.ep = in;
    }
    snprintf(what, sizeof(what), "rp = %s%+d", which_name[w], d);
    allowed = alias_allowed(op, w, d, num);
    if (allowed < 0)
        return;
    if (allowed)
        run_valid(op, &x, what);
    else
        run_bad(op, &x, ASMCRYPT_ERANGE, what);
}

static void test_aliasing(void)
{
    static const int nums[] = { 1, 2, 3, 4, 5, 8, 9, 16, 17, 32, MAXW };
    size_t k;
    int o, w, d;

    for (o = 0; o < OP_COUNT; o++)
        for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
            int num = nums[k];

            for (w = IN_A; w <= IN_CARRY; w++) {
                unsigned s = ops[o].shape;
                int rl = rlen((enum op)o, num), il = num, step, lo, hi;

                if ((w == IN_B && !(s & HAS_B)) || (w == IN_N && !(s & HAS_N)) ||
                    (w == IN_E && !(s & HAS_E)) || (w == IN_CARRY && !(s & HAS_C)))
                    continue;
                if (w == IN_E)
                    il = num < 3 ? num : 3;
                if (w == IN_CARRY)
                    il = 1;
                /* rp = in + d overlaps in for -(rl-1) <= d <= il-1; the
                 * carry word at rp + d is in the result for 0 <= d < rl.
                 * Every offset for small num; the ends, the middle and
                 * the neighbours of 0 for large num. */
                step = num <= 9 ? 1 : num / 4;
                lo = w == IN_CARRY ? -1 : -(rl - 1);
                hi = w == IN_CARRY ? rl : il - 1;
                for (d = lo; d <= hi; d++) {
                    int near = d >= -2 && d <= 2;
                    int edge = d <= lo + 1 || d >= hi - 1;

                    if (!near && !edge && (d % step) != 0)
                        continue;
                    alias_case((enum op)o, (enum which)w, num, d);
                }
            }
        }
}

/* ---- Poly1305 ------------------------------------------------------------------------- */
static const unsigned char key0[32] = {
    0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe,
    0x42, 0xd5, 0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd,
    0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b };

/* one canary-filled block holding tag, ctx, key and message */
static struct pbox {
    unsigned char tag[16 + 16];
    asmcrypt_poly1305_ctx ctx;
    unsigned char key[32];
    unsigned char msg[300];
} box, box_snap;

static void box_fill(void)
{
    memset(&box, CANARY, sizeof(box));
    memcpy(box.key, key0, 32);
    tu_rand_bytes(box.msg, sizeof(box.msg));
}

#define BOX_SAME() (memcmp(&box, &box_snap, sizeof(box)) == 0)

static void pcheck(int rc, int want, const char *what)
{
    CHECK(rc == want, "poly1305 %s: rc %d, expected %d (%s)", what, rc, want, asmcrypt_strerror(want));
    CHECK(BOX_SAME(), "poly1305 %s: a byte of tag, ctx, key or message changed", what);
}

static void test_poly1305_bad(void)
{
    static const size_t huge[] = { SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 15, SIZE_MAX - 16,
                                   SIZE_MAX / 2 + 1 };
    size_t i;

    /* one-shot */
    box_fill(); box_snap = box;
    pcheck(asmcrypt_poly1305(NULL, box.msg, 10, box.key), ASMCRYPT_ENULL, "one-shot tag NULL");
    pcheck(asmcrypt_poly1305(box.tag, NULL, 10, box.key), ASMCRYPT_ENULL, "one-shot in NULL");
    pcheck(asmcrypt_poly1305(box.tag, box.msg, 10, NULL), ASMCRYPT_ENULL, "one-shot key NULL");
    pcheck(asmcrypt_poly1305(NULL, NULL, 0, NULL), ASMCRYPT_ENULL, "one-shot all NULL");
    for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
        pcheck(asmcrypt_poly1305(box.tag, NULL, huge[i], box.key), ASMCRYPT_ENULL, "one-shot in NULL, len near SIZE_MAX");
        pcheck(asmcrypt_poly1305(NULL, box.msg, huge[i], box.key), ASMCRYPT_ENULL, "one-shot tag NULL, len near SIZE_MAX");
        pcheck(asmcrypt_poly1305(box.tag, box.msg, huge[i], NULL), ASMCRYPT_ENULL, "one-shot key NULL, len near SIZE_MAX");
    }

    /* init */
    pcheck(asmcrypt_poly1305_init(NULL, box.key), ASMCRYPT_ENULL, "init ctx NULL");
    pcheck(asmcrypt_poly1305_init(&box.ctx, NULL), ASMCRYPT_ENULL, "init key NULL");
    pcheck(asmcrypt_poly1305_init(NULL, NULL), ASMCRYPT_ENULL, "init all NULL");

    /* contexts init never set up: zeroed, canary-filled */
    pcheck(asmcrypt_poly1305_update(&box.ctx, box.msg, 5), ASMCRYPT_ESTATE, "update on canary ctx");
    pcheck(asmcrypt_poly1305_update(&box.ctx, box.msg, 0), ASMCRYPT_ESTATE, "update len 0 on canary ctx");
    pcheck(asmcrypt_poly1305_final(&box.ctx, box.tag), ASMCRYPT_ESTATE, "final on canary ctx");
    memset(&box.ctx, 0, sizeof(box.ctx)); box_snap = box;
    pcheck(asmcrypt_poly1305_update(&box.ctx, box.msg, 5), ASMCRYPT_ESTATE, "update on zeroed ctx");
    pcheck(asmcrypt_poly1305_final(&box.ctx, box.tag), ASMCRYPT_ESTATE, "final on zeroed ctx");
    /* both wrong: a length no buffer can have on a context init never set
     * up is ESIZE (the order poly1305.h gives: ENULL, ESIZE, ESTATE) */
    pcheck(asmcrypt_poly1305_update(&box.ctx, box.msg, SIZE_MAX), ASMCRYPT_ESIZE, "update len SIZE_MAX on zeroed ctx");

    /* a live context: NULL arguments and huge lengths leave it usable */
    box_fill();
    CHECK(asmcrypt_poly1305_init(&box.ctx, box.key) == 0, "poly1305 init");
    CHECK(asmcrypt_poly1305_update(&box.ctx, box.msg, 7) == 0, "poly1305 update 7");
    box_snap = box;
    pcheck(asmcrypt_poly1305_update(NULL, box.msg, 5), ASMCRYPT_ENULL, "update ctx NULL");
    pcheck(asmcrypt_poly1305_update(&box.ctx, NULL, 5), ASMCRYPT_ENULL, "update in NULL");
    pcheck(asmcrypt_poly1305_update(NULL, NULL, 0), ASMCRYPT_ENULL, "update ctx NULL, len 0");
    for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++)
        pcheck(asmcrypt_poly1305_update(&box.ctx, NULL, huge[i]), ASMCRYPT_ENULL, "update in NULL, len near SIZE_MAX");
    pcheck(asmcrypt_poly1305_final(&box.ctx, NULL), ASMCRYPT_ENULL, "final tag NULL");
    pcheck(asmcrypt_poly1305_final(NULL, box.tag), ASMCRYPT_ENULL, "final ctx NULL");
    pcheck(asmcrypt_poly1305_final(NULL, NULL), ASMCRYPT_ENULL, "final all NULL");
    pcheck(asmcrypt_poly1305_update(&box.ctx, NULL, 0), ASMCRYPT_OK, "update in NULL, len 0 (valid, no-op)");
    pcheck(asmcrypt_poly1305_update(&box.ctx, box.msg, 0), ASMCRYPT_OK, "update len 0 (valid, no-op)");
    {
        unsigned char t1[16], t2[16];
        asmcrypt_poly1305_ctx c2 = box.ctx;

        CHECK(asmcrypt_poly1305_update(&c2, box.msg + 7, 50) == 0 &&
              asmcrypt_poly1305_final(&c2, t1) == 0 &&
              asmcrypt_poly1305(t2, box.msg, 57, box.key) == 0 &&
              memcmp(t1, t2, 16) == 0, "poly1305: the context still works after the errors");
    }
    /* a corrupted buffer count is a state error, not an overrun */
    box.ctx.num = 16; box_snap = box;
    pcheck(asmcrypt_poly1305_update(&box.ctx, box.msg, 3), ASMCRYPT_ESTATE, "update with num 16");
    pcheck(asmcrypt_poly1305_final(&box.ctx, box.tag), ASMCRYPT_ESTATE, "final with num 16");
    box.ctx.num = SIZE_MAX; box_snap = box;
    pcheck(asmcrypt_poly1305_update(&box.ctx, box.msg, 3), ASMCRYPT_ESTATE, "update with num SIZE_MAX");
    pcheck(asmcrypt_poly1305_final(&box.ctx, box.tag), ASMCRYPT_ESTATE, "final with num SIZE_MAX");

    /* finalised context */
    box_fill();
    CHECK(asmcrypt_poly1305_init(&box.ctx, box.key) == 0 &&
          asmcrypt_poly1305_final(&box.ctx, box.tag) == 0, "poly1305 init + final");
    box_snap = box;
    pcheck(asmcrypt_poly1305_update(&box.ctx, box.msg, 5), ASMCRYPT_ESTATE, "update after final");
    pcheck(asmcrypt_poly1305_final(&box.ctx, box.tag), ASMCRYPT_ESTATE, "final after final");

    /* a buffer that wraps around the address space cannot exist */
    box_fill(); box_snap = box;
    for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++)
        pcheck(asmcrypt_poly1305(box.tag, box.msg, huge[i], box.key), ASMCRYPT_ESIZE, "one-shot len near SIZE_MAX");
    CHECK(asmcrypt_poly1305_init(&box.ctx, box.key) == 0, "init");
    box_snap = box;
    for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++)
        pcheck(asmcrypt_poly1305_update(&box.ctx, box.msg, huge[i]), ASMCRYPT_ESIZE, "update len near SIZE_MAX");
}

/* Aliasing: the one-shot reads all of in and key before it writes tag, so
 * tag may overlap either; in and key may overlap each other.  The context
 * functions: key, in and tag must not lie in *ctx (not checked). */
static void test_poly1305_alias(void)
{
    static const size_t lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 200 };
    unsigned char want[16], buf[320], kcopy[32], mcopy[300];
    size_t i;
    int off;

    for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        size_t len = lens[i];

        /* tag at every offset across the message (and just before it) */
        for (off = -15; off <= (int)len; off++) {
            tu_rand_bytes(buf, sizeof(buf));
            memcpy(mcopy, buf + 16, len);
            memcpy(kcopy, key0, 32);
            CHECK(asmcrypt_poly1305(want, mcopy, len, kcopy) == 0, "poly1305 reference");
            CHECK(asmcrypt_poly1305(buf + 16 + off, buf + 16, len, key0) == 0 &&
                  memcmp(buf + 16 + off, want, 16) == 0,
                  "poly1305 one-shot: tag = in%+d, len %zu", off, len);
        }
        /* tag over the key, key inside the message */
        for (off = 0; off <= 16; off += 4) {
            unsigned char kb[48];

            tu_rand_bytes(kb, sizeof(kb));
            memcpy(kcopy, kb + 8, 32);
            tu_rand_bytes(mcopy, len);
            CHECK(asmcrypt_poly1305(want, mcopy, len, kcopy) == 0, "poly1305 reference");
            CHECK(asmcrypt_poly1305(kb + off, mcopy, len, kb + 8) == 0 &&
                  memcmp(kb + off, want, 16) == 0, "poly1305 one-shot: tag = key%+d, len %zu",
                  off - 8, len);
        }
        if (len >= 32) {
            tu_rand_bytes(buf, sizeof(buf));
            memcpy(mcopy, buf, len);
            memcpy(kcopy, buf + len - 32, 32);
            CHECK(asmcrypt_poly1305(want, mcopy, len, kcopy) == 0 &&
                  asmcrypt_poly1305(buf, buf, len, buf + len - 32) == 0 &&
                  memcmp(buf, want, 16) == 0, "poly1305 one-shot: key inside in, tag = in, len %zu", len);
        }
        /* incremental: the tag may overlap the message and key (outside ctx) */
        {
            asmcrypt_poly1305_ctx c;

            tu_rand_bytes(buf, sizeof(buf));
            memcpy(mcopy, buf + 40, len);
            memcpy(kcopy, buf, 32);
            CHECK(asmcrypt_poly1305(want, mcopy, len, kcopy) == 0, "poly1305 reference");
            CHECK(asmcrypt_poly1305_init(&c, buf) == 0 &&
                  asmcrypt_poly1305_update(&c, buf + 40, len) == 0 &&
                  asmcrypt_poly1305_final(&c, buf + 40) == 0 &&
                  memcmp(buf + 40, want, 16) == 0, "poly1305 incremental: tag = in, len %zu", len);
        }
    }
}

/* ---- the rest of the API ----------------------------------------------------------------- */
static void test_misc(void)
{
    static const char *const bad_names[] = { "", "c", "Poly1305", "poly1305 ", "bn_", "bn_mont",
                                            "bn_mont_mul_", "mod_exp\n", "asmcrypt_poly1305" };
    static const char *const names[] = {
        "poly1305", "bn_mont_mul", "mod_exp", "bn_mul_add_words", "bn_mul_words",
        "bn_mul_sub_words", "bn_sqr_words", "bn_add_words", "bn_sub_words",
        "bn_cnd_add_words", "bn_cnd_sub_words" };
    static const int codes[] = { ASMCRYPT_OK, ASMCRYPT_ENULL, ASMCRYPT_ESIZE, ASMCRYPT_EEVEN,
                                 ASMCRYPT_ERANGE, ASMCRYPT_ESTATE };
    static const int bad_codes[] = { 1, -6, -100, 100, INT_MIN, INT_MAX };
    asmcrypt_word w[2];
    size_t i, j;

    CHECK(asmcrypt_impl(NULL) == NULL, "impl(NULL) is NULL");
    for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++)
        CHECK(asmcrypt_impl(bad_names[i]) == NULL, "impl(\"%s\") is NULL", bad_names[i]);
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *p = asmcrypt_impl(names[i]);

        CHECK(p != NULL && *p != '\0', "impl(%s) names a path", names[i]);
    }
    CHECK((asmcrypt_cpu_caps() & ~asmcrypt_cpucap_detected()) == 0, "cpu_caps never adds bits");

    for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        const char *s = asmcrypt_strerror(codes[i]);

        CHECK(s != NULL && *s != '\0' && strcmp(s, "unknown error") != 0, "strerror(%d)", codes[i]);
        for (j = 0; j < i; j++)
            CHECK(strcmp(s, asmcrypt_strerror(codes[j])) != 0, "strerror(%d) != strerror(%d)",
                  codes[i], codes[j]);
    }
    for (i = 0; i < sizeof(bad_codes) / sizeof(bad_codes[0]); i++) {
        const char *s = asmcrypt_strerror(bad_codes[i]);

        CHECK(s != NULL && strcmp(s, "unknown error") == 0, "strerror(%d) is \"unknown error\"", bad_codes[i]);
    }

    CHECK(asmcrypt_bn_mont_n0(NULL) == 0, "n0(NULL) is 0");
    w[1] = 0x1234;
    for (i = 0; i < 64; i++) {
        asmcrypt_word n0;

        w[0] = i < 32 ? 2 * (asmcrypt_word)i : tu_rand_word() & ~(asmcrypt_word)1;
        CHECK(asmcrypt_bn_mont_n0(w) == 0, "n0 of even %llx is 0", (unsigned long long)w[0]);
        w[0] |= 1;
        n0 = asmcrypt_bn_mont_n0(w);
        CHECK((asmcrypt_word)(n0 * w[0]) == WMAX, "n0 of odd %llx", (unsigned long long)w[0]);
    }
    w[0] = WMAX;
    CHECK(asmcrypt_bn_mont_n0(w) == 1, "n0 of 2^w-1 is 1");
    w[0] = 1;
    CHECK(asmcrypt_bn_mont_n0(w) == WMAX, "n0 of 1 is 2^w-1");
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    tu_seed(0x6261646970757473ull);
    test_bad_table();
    test_valid_edges();
    test_aliasing();
    test_poly1305_bad();
    test_poly1305_alias();
    test_misc();
    return tu_finish();
}
