/*
 * test/test_bn.c - Montgomery multiplication and modular exponentiation
 * against the Math::BigInt vectors: mont.txt (M32 or M64 by the build's
 * word size) through the public API, bn_mul_mont_c and, when Configure
 * enabled it, the assembly bn_mul_mont (which may decline a num), each
 * also with rp == ap, rp == bp and ap == bp; modexp.txt through
 * asmcrypt_mod_exp, also with rp == ap; squarings with near-all-ones
 * operands and moduli (test_sqr_ones) and with words mixed from 0, 1,
 * near-all-ones and random (test_sqr_mixed) against bn_mul_mont_c; on
 * x86_64, the fused squarings bn_mont_sqrn_x86_64 (test_sqrn); on ARM and
 * AArch64, the modexp table gathers at every idx (test_gathers); on ARM
 * NEON builds, the NEON bn_mul_mont against the module's integer path at
 * num 264..1024 (test_neon_big).  Output
 * buffers carry guard words that must survive.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util.h"

#define W ASMCRYPT_WORD_BITS
#define MAXW (ASMCRYPT_BN_MAX_WORDS + 2)
#define GUARD ((asmcrypt_word)0x5a5a5a5a5a5a5a5aull)

typedef int (*mont_f)(BN_ULONG *, const BN_ULONG *, const BN_ULONG *,
                      const BN_ULONG *, const BN_ULONG *, int);

static asmcrypt_word N[MAXW], A[MAXW], B[MAXW], M[MAXW], E[MAXW], R[MAXW];
static long asm_declined, asm_ran;

static int same(const asmcrypt_word *x, const asmcrypt_word *y, int num)
{
    return memcmp(x, y, sizeof(asmcrypt_word) * (size_t)num) == 0;
}

static void set_guard(asmcrypt_word *r, int num)
{
    r[num] = r[num + 1] = GUARD;
}

static int guard_ok(const asmcrypt_word *r, int num)
{
    return r[num] == GUARD && r[num + 1] == GUARD;
}

#if defined(ASMCRYPT_BN_MONT_ASM)
/* A random odd modulus n of num words with the top bit set and operands
 * a, b < n; with ones, near-all-ones words instead (the carries' worst
 * case).  For test_poisoned_stack, test_sqrn and test_neon_big. */
static void rand_operands(asmcrypt_word *n, asmcrypt_word *a, asmcrypt_word *b, int num,
                          int ones)
{
    int i;

    for (i = 0; i < num; i++) {
        n[i] = ones ? (asmcrypt_word)-1 : tu_rand_word();
        a[i] = ones ? (asmcrypt_word)-2 : tu_rand_word();
        b[i] = ones ? (asmcrypt_word)-3 : tu_rand_word();
    }
    n[0] |= 1;
    n[num - 1] |= (asmcrypt_word)1 << (W - 1);
    a[num - 1] = n[num - 1] - 1;
    b[num - 1] = n[num - 1] - 2;
}
#endif

/* r = mont(a, b) by fn in every aliasing shape the vector allows */
static void mont_shapes(const char *name, mont_f fn, int api, int num, int a_eq_b,
                        asmcrypt_word n0, long line)
{
    asmcrypt_word r[MAXW], n0w[1];
    int ok, rc = 0;

    n0w[0] = n0;
#define CALL(rp, ap, bp) \
    (api ? (rc = asmcrypt_bn_mont_mul(rp, ap, bp, N, n0, num), 1) : fn(rp, ap, bp, N, n0w, num))

    set_guard(r, num);
    ok = CALL(r, A, B);
    if (!ok) {                       /* only the asm may decline */
        asm_declined++;
        return;
    }
    if (!api && fn != bn_mul_mont_c)
        asm_ran++;
    CHECK(rc == 0 && same(r, M, num) && guard_ok(r, num),
          "%s: rp separate, line %ld, num %d, rc %d", name, line, num, rc);

    memcpy(r, A, sizeof(asmcrypt_word) * (size_t)num);
    CALL(r, r, B);
    CHECK(rc == 0 && same(r, M, num) && guard_ok(r, num), "%s: rp == ap, line %ld", name, line);

    memcpy(r, B, sizeof(asmcrypt_word) * (size_t)num);
    CALL(r, A, r);
    CHECK(rc == 0 && same(r, M, num) && guard_ok(r, num), "%s: rp == bp, line %ld", name, line);

    if (a_eq_b) {
        CALL(r, A, A);
        CHECK(rc == 0 && same(r, M, num), "%s: ap == bp, line %ld", name, line);
        memcpy(r, A, sizeof(asmcrypt_word) * (size_t)num);
        CALL(r, r, r);
        CHECK(rc == 0 && same(r, M, num), "%s: rp == ap == bp, line %ld", name, line);
    }
#undef CALL
}

/*
 * Squarings a * a with operands and moduli near all ones, which random
 * vectors almost never give: n = 2^(W num) - d for a small odd d (every
 * word but the lowest all ones), a = n - x for small x, and a with all-ones
 * words except one.  The cross products and their carries then sit at
 * 2^W - 1 in every window of the squaring paths (AArch64 sqr8x for num a
 * multiple of 8; x86_64 sqr8/IFMA; the others' squaring entries).  The
 * oracle is bn_mul_mont_c, the C reference that test_mont checks against
 * the Math::BigInt vectors; the API and the assembly bn_mul_mont must
 * agree with it word for word.
 */
static int test_sqr_ones(void)
{
    static const int nums[] = { 8, 9, 16, 24, 31, 32, 40, 64, 128 };
    static const asmcrypt_word ds[] = { 1, 3, 0x10001 };
    asmcrypt_word r[MAXW], ref[MAXW], n0w[1];
    int count = 0;
    size_t i, j;

    for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
        int num = nums[i], v, w, rc;

        if (num > ASMCRYPT_BN_MAX_WORDS)
            continue;
        for (j = 0; j < sizeof(ds) / sizeof(ds[0]); j++) {
            for (w = 0; w < num; w++)
                N[w] = (asmcrypt_word)-1;
            N[0] = (asmcrypt_word)0 - ds[j];             /* n = 2^(W num) - d */
            n0w[0] = asmcrypt_bn_mont_n0(N);
            for (v = 0; v < 6; v++) {
                memcpy(A, N, sizeof(asmcrypt_word) * (size_t)num);
                if (v < 3)
                    A[0] -= (asmcrypt_word)(1 + v);      /* n-1, n-2, n-3 */
                else if (v == 3)
                    A[1] -= 1;                           /* n - 2^W */
                else if (v == 4)
                    A[num / 2] = 0;                      /* one zero word */
                else
                    A[num - 1] ^= (asmcrypt_word)1 << (W - 1); /* top bit clear */
                count++;
                CHECK(bn_mul_mont_c(ref, A, A, N, n0w, num) == 1,
                      "sqr ones: bn_mul_mont_c num %d", num);
                set_guard(r, num);
                rc = asmcrypt_bn_mont_mul(r, A, A, N, n0w[0], num);
                CHECK(rc == 0 && same(r, ref, num) && guard_ok(r, num),
                      "sqr ones: asmcrypt_bn_mont_mul num %d d %lu case %d rc %d", num,
                      (unsigned long)ds[j], v, rc);
                memcpy(r, A, sizeof(asmcrypt_word) * (size_t)num);
                rc = asmcrypt_bn_mont_mul(r, r, r, N, n0w[0], num);
                CHECK(rc == 0 && same(r, ref, num),
                      "sqr ones: asmcrypt_bn_mont_mul rp == ap == bp, num %d d %lu case %d",
                      num, (unsigned long)ds[j], v);
#if defined(ASMCRYPT_BN_MONT_ASM)
                set_guard(r, num);
                if (bn_mul_mont(r, A, A, N, n0w, num))
                    CHECK(same(r, ref, num) && guard_ok(r, num),
                          "sqr ones: bn_mul_mont (asm) num %d d %lu case %d", num,
                          (unsigned long)ds[j], v);
#endif
            }
        }
    }
    return count;
}

/*
 * Squarings whose words are drawn from {0, 1, 2^W-1, 2^W-2, 2^W-3,
 * random} (a below n, top word n's minus 1 or 2) with n all ones but for a
 * small even offset in its low word and now and then one random odd word.
 * The zero and one words inside runs of all-ones words give the windows
 * that test_sqr_ones does not: the top word of a sqr8x step (cross product
 * or reduction) at 2^W-1 or 2^W-2 with no carry out of the first chain, so
 * that the second chain's carry is the one that reaches the next step
 * (AArch64 sqr8x; docs/mutation.md, gap 6 re-run).  Fixed seed; the oracle
 * is bn_mul_mont_c, as above.
 */
static int test_sqr_mixed(void)
{
    static const int nums[] = { 8, 16, 24, 32 };
    asmcrypt_word r[MAXW], ref[MAXW], n0w[1];
    int count, i, num, rc;

    tu_seed(0x5172d);
    for (count = 0; count < 4000; count++) {
        num = nums[tu_rand64() % 4];
        if (num > ASMCRYPT_BN_MAX_WORDS)
            continue;
        for (i = 0; i < num; i++)
            N[i] = (asmcrypt_word)-1;
        if (tu_rand64() & 1)
            N[0] -= (asmcrypt_word)(2 * (tu_rand64() % 8));
        if (tu_rand64() % 4 == 0)
            N[tu_rand64() % (uint64_t)num] = tu_rand_word() | 1;
        for (i = 0; i < num; i++) {
            switch (tu_rand64() % 6) {
            case 0: A[i] = 0; break;
            case 1: A[i] = 1; break;
            case 2: A[i] = tu_rand_word(); break;
            default: A[i] = (asmcrypt_word)-1 - (asmcrypt_word)(tu_rand64() % 3); break;
            }
        }
        A[num - 1] = N[num - 1] - 1 - (asmcrypt_word)(tu_rand64() % 2);   /* a < n */
        if (N[num - 1] < 2)
            A[num - 1] = 0;
        n0w[0] = asmcrypt_bn_mont_n0(N);
        CHECK(bn_mul_mont_c(ref, A, A, N, n0w, num) == 1, "sqr mixed: bn_mul_mont_c num %d", num);
        set_guard(r, num);
        rc = asmcrypt_bn_mont_mul(r, A, A, N, n0w[0], num);
        CHECK(rc == 0 && same(r, ref, num) && guard_ok(r, num),
              "sqr mixed: asmcrypt_bn_mont_mul case %d num %d rc %d", count, num, rc);
#if defined(ASMCRYPT_BN_MONT_ASM)
        set_guard(r, num);
        if (bn_mul_mont(r, A, A, N, n0w, num))
            CHECK(same(r, ref, num) && guard_ok(r, num),
                  "sqr mixed: bn_mul_mont (asm) case %d num %d", count, num);
#endif
    }
    return count;
}

#if defined(ASMCRYPT_BN_MONT_ASM)
/* Fill the stack below the caller's frame, as deep as bn_mul_mont's frame
 * can go, so that the next call from the same caller finds the junk in
 * its own frame: kind 0 zero words, 1 all-ones, 2 alternating bits, 3
 * random words. */
static void __attribute__((noinline)) poison_stack(int kind)
{
    volatile asmcrypt_word junk[8192];
    int i;

    for (i = 0; i < 8192; i++)
        junk[i] = kind == 0 ? 0 : kind == 1 ? (asmcrypt_word)-1
                : kind == 2 ? (asmcrypt_word)0xa5a5a5a5a5a5a5a5ull : tu_rand_word();
    (void)junk[kind];
}

/*
 * bn_mul_mont (the arch's assembly) on a stack full of junk (each kind of
 * poison_stack), a*b and a*a at sizes around every path's boundaries.  A
 * frame slot read before it is written (a temporary not zeroed, a carry
 * word, an unused position of the NEON array) gives a wrong product under
 * one kind or another.  The oracle is bn_mul_mont_c.  Returns the number
 * of calls.
 */
static int test_poisoned_stack(void)
{
    static const int nums[] = { 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32,
                                33, 40, 48, 63, 64, 65, 96, 128 };
    asmcrypt_word r[MAXW], ref[MAXW], n0w[1];
    int calls = 0, kind, ni, sq, rc;

    tu_seed(0x9015);
    for (kind = 0; kind < 4; kind++) {
        for (ni = 0; ni < (int)(sizeof(nums) / sizeof(nums[0])); ni++) {
            int num = nums[ni];

            if (num > ASMCRYPT_BN_MAX_WORDS)
                continue;
            rand_operands(N, A, B, num, 0);
            n0w[0] = asmcrypt_bn_mont_n0(N);
            for (sq = 0; sq < 2; sq++) {
                const asmcrypt_word *bp = sq ? A : B;

                CHECK(bn_mul_mont_c(ref, A, bp, N, n0w, num) == 1, "poisoned: C num %d", num);
                set_guard(r, num);
                poison_stack(kind);
                rc = bn_mul_mont(r, A, bp, N, n0w, num);
                calls++;
                if (rc)
                    CHECK(same(r, ref, num) && guard_ok(r, num),
                          "poisoned stack (kind %d): bn_mul_mont num %d %s", kind, num,
                          sq ? "a*a" : "a*b");
            }
        }
    }
    return calls;
}
#endif

#if defined(__x86_64__) && defined(ASMCRYPT_BN_MONT_ASM)
/*
 * bn_mont_sqrn_x86_64 (x86_64-mont, the modexp windows' squarings): count
 * squarings in one call must equal count calls of bn_mul_mont_c, at every
 * num it takes (multiples of 8 up to the maximum) and counts 1, 2, 5 and 9,
 * with rp apart from ap and rp == ap, random and near-all-ones operands;
 * bn_mont_sqrn_mul_x86_64 (a whole window: the squarings of rp in place,
 * then the product with b) must equal them followed by one bn_mul_mont_c
 * by b; at num 8, 16, 32 and 64 also 300, 150, 60 and 20 more windows
 * (counts 1-6, moduli with all-ones top words among them), whose
 * squarings end almost reduced (s8 at num 8, .Lmont_alm8 above it), each
 * also run through bn_mont_sqrn_x86_64, whose squarings must not.  Where
 * they must decline (no BMI2+ADX at this capability level, num not a
 * multiple of 8 or out of range, count < 1) they return 0 and leave rp
 * alone.  Returns the number of calls.
 */
/* The almost-reduced windows of test_sqrn: num and how many windows */
static const int alm_num[4] = { 8, 16, 32, 64 }, alm_windows[4] = { 300, 150, 60, 20 };

/* ref = count Montgomery squarings of A, refb = ref*B (bn_mul_mont_c, N,
 * n0w); returns the first squaring's return code */
static int sqrn_refs(asmcrypt_word *ref, asmcrypt_word *refb, const asmcrypt_word *n0w,
                     int num, int count)
{
    int rc = bn_mul_mont_c(ref, A, A, N, n0w, num), k;

    for (k = 1; k < count; k++)
        bn_mul_mont_c(ref, ref, ref, N, n0w, num);
    bn_mul_mont_c(refb, ref, B, N, n0w, num);
    return rc;
}

static int test_sqrn(void)
{
    static const int counts[] = { 1, 2, 5, 9 };
    static const int odd_nums[] = { 0, -8, 1, 7, 12, 20, ASMCRYPT_BN_MAX_WORDS + 8 };
    const unsigned int mulx = ASMCRYPT_CAP_X86_BMI2 | ASMCRYPT_CAP_X86_ADX;
    int takes = (asmcrypt_cpu_caps() & mulx) == mulx;
    asmcrypt_word r[MAXW], ref[MAXW], refb[MAXW], n0w[1];
    int calls = 0, num, ci, k, i, rc;

    tu_seed(0x5e9a);
    for (num = 8; num <= ASMCRYPT_BN_MAX_WORDS; num += 8) {
        for (ci = 0; ci < 4; ci++) {
            int count = counts[ci], ones = (num / 8 + ci) % 3 == 0;

            rand_operands(N, A, B, num, ones);
            n0w[0] = asmcrypt_bn_mont_n0(N);
            CHECK(sqrn_refs(ref, refb, n0w, num, count) == 1, "sqrn: C num %d", num);
            set_guard(r, num);
            memcpy(r, A, sizeof(asmcrypt_word) * (size_t)num);
            rc = bn_mont_sqrn_mul_x86_64(r, B, N, n0w, num, count);
            calls++;
            CHECK(rc == takes, "sqrn_mul: num %d count %d returned %d (caps %x)", num, count,
                  rc, asmcrypt_cpu_caps());
            if (rc)
                CHECK(same(r, refb, num) && guard_ok(r, num), "sqrn_mul: num %d count %d", num,
                      count);
            else
                CHECK(same(r, A, num) && guard_ok(r, num), "sqrn_mul: num %d declined and wrote",
                      num);
            for (k = 0; k < 2; k++) {                           /* rp apart, rp == ap */
                const asmcrypt_word *ap = A;

                set_guard(r, num);
                if (k == 1) {
                    memcpy(r, A, sizeof(asmcrypt_word) * (size_t)num);
                    ap = r;
                }
                rc = bn_mont_sqrn_x86_64(r, ap, N, n0w, num, count);
                calls++;
                CHECK(rc == takes, "sqrn: num %d count %d returned %d (caps %x)", num, count,
                      rc, asmcrypt_cpu_caps());
                if (rc)
                    CHECK(same(r, ref, num) && guard_ok(r, num),
                          "sqrn: num %d count %d %s", num, count, k ? "rp == ap" : "");
            }
        }
    }
    /* The squarings of a window end almost reduced (rp < R = 2^(64 num)
     * but maybe >= n, t - n taken only when t >= R: s8 at num 8, the
     * block paths' .Lmont_alm8 above), so the window must still come out
     * below n; many windows, so that the top bit is set in many of their
     * steps, and moduli whose top words are all ones (t >= R most often).
     * The plain bn_mont_sqrn_x86_64 must keep exact steps (its last
     * squaring's result is below 2n only for an input below n): it runs on
     * the same operands, and every fourth modulus has the top word 5 2^61
     * (R/n near 1.6: an almost-reduced input near R leaves the
     * last step's t >= 2n in some windows). */
    for (ci = 0; ci < 4; ci++) {
        num = alm_num[ci];
        for (i = 0; i < alm_windows[ci]; i++) {
            int count = 1 + i % 6;

            rand_operands(N, A, B, num, i % 4 == 0);
            if (i % 4 == 1)
                N[num - 1] = N[num - 2] = (asmcrypt_word)-1;
            if (i % 4 == 2) {
                N[num - 1] = (asmcrypt_word)0xa000000000000000u;
                A[num - 1] >>= 1;
                B[num - 1] >>= 1;
            }
            n0w[0] = asmcrypt_bn_mont_n0(N);
            sqrn_refs(ref, refb, n0w, num, count);
            memcpy(r, A, sizeof(asmcrypt_word) * (size_t)num);
            rc = bn_mont_sqrn_mul_x86_64(r, B, N, n0w, num, count);
            calls++;
            CHECK(rc == takes && same(r, rc ? refb : A, num),
                  "sqrn_mul: num %d count %d, window %d", num, count, i);
            memcpy(r, A, sizeof(asmcrypt_word) * (size_t)num);
            rc = bn_mont_sqrn_x86_64(r, r, N, n0w, num, count);
            calls++;
            CHECK(rc == takes && same(r, rc ? ref : A, num), "sqrn: num %d count %d, window %d",
                  num, count, i);
        }
    }
    for (i = 0; i < 8; i++)
        N[i] = tu_rand_word() | 1;
    n0w[0] = asmcrypt_bn_mont_n0(N);
    for (ci = 0; ci < (int)(sizeof(odd_nums) / sizeof(odd_nums[0])) + 2; ci++) {
        int count = ci < 7 ? 5 : ci - 7 - 1;                   /* then count 0 and -1 */

        num = ci < 7 ? odd_nums[ci] : 8;
        for (i = 0; i < MAXW; i++)
            r[i] = GUARD;
        rc = bn_mont_sqrn_x86_64(r, A, N, n0w, num, count);
        calls++;
        for (i = 0; i < MAXW && r[i] == GUARD; i++)
            ;
        CHECK(rc == 0 && i == MAXW, "sqrn: num %d count %d must decline, returned %d", num,
              count, rc);
        rc = bn_mont_sqrn_mul_x86_64(r, B, N, n0w, num, count);
        calls++;
        for (i = 0; i < MAXW && r[i] == GUARD; i++)
            ;
        CHECK(rc == 0 && i == MAXW, "sqrn_mul: num %d count %d must decline, returned %d",
              num, count, rc);
    }
    return calls;
}
#endif

#if (defined(__arm__) || defined(__aarch64__) || defined(__x86_64__)) && \
    defined(ASMCRYPT_BN_MODEXP_ASM)
# define TEST_GATHERS 1
# include "bn/bn_exp_util.h"        /* bn_exp_gather_f */
# if defined(__x86_64__)
/* x86_64-mont.S, for crypto/bn/bn_exp_x86_64.c */
void bn_gather52_x86_64(uint64_t *out, const uint64_t *tab, unsigned int idx, int L);
void bn_gather64_avx2_x86_64(uint64_t *out, const uint64_t *tab, unsigned int idx, int L);
# endif

/*
 * The modexp table gathers of armv4-mont / armv8-mont / x86_64-mont,
 * called directly (the modexp vectors run them only through
 * asmcrypt_mod_exp, at one stride per size): for every stride S they take
 * up to 256 words and every idx 0..31, out[0..S-1] must be entry idx of a
 * table of 32 random entries, whatever out held before; the two words
 * after out and the table stay untouched.  A gather that needs a
 * capability (NEON, AVX2, AVX-512F) runs only where the build has it and
 * the CPU has it.  Returns the number of calls; *runnable = how many of
 * the gathers this CPU could run.
 */
static int test_gathers(int *runnable)
{
    static const struct {
        bn_exp_gather_f f;
        const char *name;
        int mult;
        unsigned int caps;            /* all of these, or it is not run */
    } g[] = {
# if defined(__arm__)
#  if ASMCRYPT_ARM_NEON_BUILD
        { bn_gather5_armv7_neon, "bn_gather5_armv7_neon", 16, ASMCRYPT_CAP_ARM_NEON },
#  endif
        { bn_gather5_armv4, "bn_gather5_armv4", 4, 0 },
# elif defined(__aarch64__)
        { bn_gather5_armv8, "bn_gather5_armv8", 8, 0 },
        { bn_gather5_armv8_gpr, "bn_gather5_armv8_gpr", 8, 0 },
# else
        { bn_gather64_avx2_x86_64, "bn_gather64_avx2_x86_64", 8, ASMCRYPT_CAP_X86_AVX2 },
        { bn_gather52_x86_64, "bn_gather52_x86_64", 8, ASMCRYPT_CAP_X86_AVX512F },
# endif
    };
    static asmcrypt_word tab[32 * 256], copy[32 * 256];
    asmcrypt_word out[256 + 2];
    int calls = 0, k, S, i;
    unsigned int idx;

    tu_seed(0x6a7e);
    *runnable = 0;
    for (k = 0; k < (int)(sizeof(g) / sizeof(g[0])); k++) {
        if ((asmcrypt_cpu_caps() & g[k].caps) != g[k].caps)
            continue;                 /* the level says this CPU lacks it */
        ++*runnable;
        for (S = g[k].mult; S <= 256; S += S < 64 ? g[k].mult : 64) {
            for (i = 0; i < 32 * S; i++)
                tab[i] = copy[i] = tu_rand_word();
            for (idx = 0; idx < 32; idx++) {
                for (i = 0; i < S; i++)
                    out[i] = tu_rand_word();
                set_guard(out, S);
                g[k].f(out, tab, idx, S);
                calls++;
                CHECK(same(out, &tab[idx * (unsigned int)S], S) && guard_ok(out, S),
                      "%s: S %d idx %u", g[k].name, S, idx);
            }
            CHECK(same(tab, copy, 32 * S), "%s: S %d: the table changed", g[k].name, S);
        }
    }
    return calls;
}
#endif

#if defined(__arm__) && ASMCRYPT_ARM_NEON_BUILD && defined(ASMCRYPT_BN_MONT_ASM)
# define TEST_NEON_BIG 1
/*
 * armv4-mont's NEON path takes num up to 1024 (OpenSSL's BN calls it up
 * to its own limit), past ASMCRYPT_BN_MAX_WORDS and so past
 * bn_mul_mont_c: there the integer path of the same module (NEON masked
 * off) is the reference, at sizes where the NEON lanes hold the most
 * (num 1024, near-all-ones operands and modulus), for a*b and the
 * squaring (ap == bp).  Skipped where this level has no NEON.  Returns
 * the number of comparisons.
 */
static int test_neon_big(void)
{
    static const int nums[] = { 264, 512, 1024 };
    static asmcrypt_word n[1024], a[1024], b[1024], r1[1026], r2[1026];
    unsigned int caps = asmcrypt_cpu_caps();
    asmcrypt_word n0w[1];
    int k, ones, sq, calls = 0;

    if (!(caps & ASMCRYPT_CAP_ARM_NEON))
        return 0;
    tu_seed(0xb16);
    for (k = 0; k < 3; k++) {
        int num = nums[k];

        for (ones = 0; ones < 2; ones++) {
            rand_operands(n, a, b, num, ones);
            n0w[0] = asmcrypt_bn_mont_n0(n);
            for (sq = 0; sq < 2; sq++) {
                const asmcrypt_word *bp = sq ? a : b;
                int rc1, rc2;

                set_guard(r1, num);
                set_guard(r2, num);
                rc1 = bn_mul_mont(r1, a, bp, n, n0w, num);          /* NEON */
                asmcrypt_cpucap_restrict(caps & ~ASMCRYPT_CAP_ARM_NEON);
                rc2 = bn_mul_mont(r2, a, bp, n, n0w, num);          /* integer */
                asmcrypt_cpucap_restrict(~0u);
                calls++;
                CHECK(rc1 == 1 && rc2 == 1 && same(r1, r2, num) && guard_ok(r1, num) &&
                      guard_ok(r2, num), "NEON vs integer bn_mul_mont: num %d %s%s", num,
                      ones ? "near-all-ones" : "random", sq ? " squaring" : "");
            }
        }
    }
    return calls;
}
#endif

static int read_num(const tu_record *rec, const char *key, asmcrypt_word *out, int num)
{
    const char *v = tu_get(rec, key);

    return v != NULL && tu_hex_words(v, out, num) == 0;
}

static int test_mont(const char *dir)
{
    tu_record rec = { 0 };
    FILE *f = tu_open(dir, "mont.txt");
    int count = 0;

    if (!CHECK(f != NULL, "mont.txt"))
        return 0;
    while (tu_read_record(f, &rec)) {
        const char *bits = tu_get(&rec, "bits");
        int num;
        asmcrypt_word n0;

        if (!CHECK(bits != NULL, "bits missing at line %ld", rec.line))
            continue;
        num = (atoi(bits) + W - 1) / W;
        if (!CHECK(num >= 1 && num <= ASMCRYPT_BN_MAX_WORDS &&
                   read_num(&rec, "N", N, num) && read_num(&rec, "A", A, num) &&
                   read_num(&rec, "B", B, num) &&
                   read_num(&rec, W == 64 ? "M64" : "M32", M, num),
                   "malformed record at line %ld", rec.line))
            continue;
        count++;
        n0 = asmcrypt_bn_mont_n0(N);
        CHECK((asmcrypt_word)(n0 * N[0]) == (asmcrypt_word)-1, "n0 at line %ld", rec.line);
        mont_shapes("asmcrypt_bn_mont_mul", NULL, 1, num, same(A, B, num), n0, rec.line);
        mont_shapes("bn_mul_mont_c", bn_mul_mont_c, 0, num, same(A, B, num), n0, rec.line);
#if defined(ASMCRYPT_BN_MONT_ASM)
        mont_shapes("bn_mul_mont (asm)", bn_mul_mont, 0, num, same(A, B, num), n0, rec.line);
#endif
    }
    fclose(f);
    tu_record_free(&rec);
    return count;
}

static int test_modexp(const char *dir)
{
    tu_record rec = { 0 };
    FILE *f = tu_open(dir, "modexp.txt");
    asmcrypt_word r[MAXW];
    int count = 0;

    if (!CHECK(f != NULL, "modexp.txt"))
        return 0;
    while (tu_read_record(f, &rec)) {
        const char *bits = tu_get(&rec, "bits"), *e = tu_get(&rec, "E");
        int num, ewords, rc;

        if (!CHECK(bits != NULL && e != NULL, "malformed record at line %ld", rec.line))
            continue;
        num = (atoi(bits) + W - 1) / W;
        ewords = tu_hex_nwords(e);
        if (!CHECK(num >= 1 && num <= ASMCRYPT_BN_MAX_WORDS && ewords >= 1 &&
                   ewords <= ASMCRYPT_BN_MAX_WORDS &&
                   read_num(&rec, "N", N, num) && read_num(&rec, "A", A, num) &&
                   read_num(&rec, "R", R, num) && tu_hex_words(e, E, ewords) == 0,
                   "malformed record at line %ld", rec.line))
            continue;
        count++;
        set_guard(r, num);
        rc = asmcrypt_mod_exp(r, A, E, ewords, N, num);
        CHECK(rc == 0 && same(r, R, num) && guard_ok(r, num),
              "mod_exp line %ld (%s bits, %d exponent words) rc %d", rec.line, bits, ewords, rc);
        if (num * W <= 1024 && ewords * W <= 128) {    /* keep qemu runs short */
            /* aliasing: rp == ap; rp == ep (when the sizes allow) */
            memcpy(r, A, sizeof(asmcrypt_word) * (size_t)num);
            rc = asmcrypt_mod_exp(r, r, E, ewords, N, num);
            CHECK(rc == 0 && same(r, R, num), "mod_exp rp == ap, line %ld", rec.line);
            if (ewords <= num) {
                memset(r, 0, sizeof(asmcrypt_word) * (size_t)num);
                memcpy(r, E, sizeof(asmcrypt_word) * (size_t)ewords);
                rc = asmcrypt_mod_exp(r, A, r, ewords, N, num);
                CHECK(rc == 0 && same(r, R, num), "mod_exp rp == ep, line %ld", rec.line);
            }
        }
    }
    fclose(f);
    tu_record_free(&rec);
    return count;
}

int main(int argc, char **argv)
{
    int nm, ne, ns, nx;

    if (argc < 2) {
        printf("usage: %s <vectors-dir>\n", argv[0]);
        return 2;
    }
    nm = test_mont(argv[1]);
    ne = test_modexp(argv[1]);
    ns = test_sqr_ones();
    nx = test_sqr_mixed();
#if defined(ASMCRYPT_BN_MONT_ASM)
    printf("bn: %d bn_mul_mont calls on a poisoned stack\n", test_poisoned_stack());
#endif
#if defined(__x86_64__) && defined(ASMCRYPT_BN_MONT_ASM)
    {
        int nq = test_sqrn(), alm = 0, ci;

        for (ci = 0; ci < 4; ci++)
            alm += alm_windows[ci];
        CHECK(nq == (ASMCRYPT_BN_MAX_WORDS / 8) * 4 * 3 + 2 * alm + 9 * 2,
              "only %d bn_mont_sqrn_x86_64 / bn_mont_sqrn_mul_x86_64 calls", nq);
        printf("bn: %d bn_mont_sqrn_x86_64 / bn_mont_sqrn_mul_x86_64 calls\n", nq);
    }
#endif
#if defined(TEST_NEON_BIG)
    {
        int nb = test_neon_big();

        CHECK(nb == 12 || (nb == 0 && !(asmcrypt_cpu_caps() & ASMCRYPT_CAP_ARM_NEON)),
              "only %d NEON/integer comparisons", nb);
        printf("bn: %d NEON/integer comparisons past the C reference's limit\n", nb);
    }
#endif
#if defined(TEST_GATHERS)
    {
        int runnable, ng = test_gathers(&runnable);

        CHECK(ng >= (runnable ? 32 * 7 : 0), "only %d gather calls", ng);
        printf("bn: %d table gather calls\n", ng);
    }
#endif
    CHECK(nm > 300, "only %d mont vectors", nm);
    CHECK(ne > 150, "only %d modexp vectors", ne);
    CHECK(ns >= 100, "only %d near-all-ones squarings", ns);
    CHECK(nx == 4000, "only %d mixed-word squarings", nx);
    printf("bn: %d mont and %d modexp vectors, %d near-all-ones and %d mixed-word squarings, "
           "%d-bit words, bn_mont_mul %s (asm ran %ld, declined %ld)\n", nm, ne, ns, nx, W,
           asmcrypt_impl("bn_mont_mul"), asm_ran, asm_declined);
    return tu_finish();
}
