/*
 * test/test_paths.c - path gates (issue 14, "also close these holes"):
 * the path asmcrypt_impl() names is the one that runs, each path runs only
 * when its own capability bits are set, and no assembly entry declines a
 * size it claims (docs/testing-badinput.md).
 *
 * The capability masks: the level the program runs at (ASMCRYPT_CAP) and,
 * in-process through asmcrypt_cpucap_restrict, that level with each of
 * its bits cleared in turn, so that a gate on the wrong bit shows even on
 * a host that has both bits.  What ran is observed, not derived from the
 * naming rules of crypto/bn/bn_names_<arch>.c and
 * crypto/poly1305/poly1305_names_<arch>.c:
 *
 *  - every target: bn_mul_mont is called directly for every num its
 *    header claims (ap != bp and ap == bp) and must return 1 with the C
 *    reference's result; the Poly1305 block/emit pair the assembly's
 *    poly1305_init picked (in the context) must partition the masks
 *    exactly as the names do: one pair per name, one name per pair.
 *  - x86_64 (native only): every API call is single-stepped (the trap
 *    flag); each instruction executed inside this program's text is
 *    decoded far enough to know the ISA extension it needs (mulx, adcx /
 *    adox, VEX 128/256, EVEX, VL, IFMA...).  Every instruction must be
 *    allowed by the mask, and the extensions seen must be the ones that
 *    identify the named path (ifma: IFMA instructions; adx: mulx/adcx;
 *    avx512: EVEX; avx2: 256-bit integer VEX; plain: none of these).
 *    Poly1305 also at the minimum length of each vector body the
 *    instruction classes tell apart (192, 256, 384 bytes) and one block
 *    less, so an entry that declines its minimum shows.
 *    Under valgrind (no trap flag) this part reports itself skipped; it
 *    is not built under ThreadSanitizer.
 *  - MIPS o32 MIPS32r1..R5 builds: the Poly1305 block function init
 *    hands out is the R2 one exactly when ASMCRYPT_CAP_MIPS_R2 is set;
 *    on a MIPS32r1 build the detected bit must also agree with an R2
 *    instruction run here under a SIGILL handler of this test's own.
 *  - MIPS n64 R6 builds: poly1305_blocks runs its MSA body (a sentinel
 *    in $w0-$w3 around the call) exactly when ASMCRYPT_CAP_MIPS_MSA is
 *    set and from 32 blocks, and is named for it; the detected bit agrees
 *    with an MSA instruction run here under this test's own handler, a
 *    probe leaves the SIGILL disposition and mask alone.
 *  - AArch64: the NEON Poly1305 block function runs its vector body from
 *    256 bytes with the key's powers cached and from 512 without (a
 *    sentinel in v16-v31 around the call), and not below.
 *  - 32-bit ARM NEON builds: bn_mul_mont runs between setting the NEON
 *    scratch registers d16-d31 to a sentinel and reading them back; they
 *    change iff its NEON path ran, which must be exactly when the name is
 *    "armv7-neon" and num is one the path claims (num % 8 == 0, 16..1024);
 *    the same around mod_exp, whose table gather uses NEON exactly when
 *    mod_exp is named "armv7-neon" (num 8 and 12: the gather alone).
 */
#if defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define PATHS_TSAN 1
# endif
#endif
#if defined(__SANITIZE_THREAD__)
# define PATHS_TSAN 1
#endif
/* Not under ThreadSanitizer: its runtime is linked into the program's
 * text and its signal handling does not survive single-stepping. */
#if defined(__x86_64__) && defined(__linux__) && !defined(PATHS_TSAN)
# define _GNU_SOURCE 1            /* REG_RIP in ucontext */
# define PATHS_TRACE 1
#endif
#if defined(__mips__) && defined(__linux__)
# define _DEFAULT_SOURCE 1        /* sigaction, sigsetjmp (the R2 probe) */
#endif
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "util.h"
#if defined(PATHS_TRACE)
# include <signal.h>
# include <ucontext.h>
#endif
#if ASMCRYPT_MIPS_R2_PROBE || ASMCRYPT_MIPS_MSA_PROBE
# include <setjmp.h>
# include <signal.h>
#endif

#define MAXW ASMCRYPT_BN_MAX_WORDS

static unsigned int masks[40];
static int nmasks;

/* Bits that need another bit: clearing the prerequisite clears them too,
 * as no CPU has them without it (AVX2 without AVX, VL without F...). */
static unsigned int dependents(unsigned int bit)
{
#if defined(__x86_64__)
    if (bit == ASMCRYPT_CAP_X86_AVX)
        return dependents(ASMCRYPT_CAP_X86_AVX2) | ASMCRYPT_CAP_X86_AVX2;
    if (bit == ASMCRYPT_CAP_X86_AVX2)
        return dependents(ASMCRYPT_CAP_X86_AVX512F) | ASMCRYPT_CAP_X86_AVX512F;
    if (bit == ASMCRYPT_CAP_X86_AVX512F)
        return ASMCRYPT_CAP_X86_AVX512VL | ASMCRYPT_CAP_X86_AVX512BW | ASMCRYPT_CAP_X86_AVX512IFMA;
#endif
    (void)bit;
    return 0;
}

/* The level itself; when it is the full detected set (the first level
 * run.sh uses), also each bit cleared (with its dependents). */
static void make_masks(void)
{
    unsigned int base = asmcrypt_cpu_caps(), b;

    masks[nmasks++] = base;
    if (base != asmcrypt_cpucap_detected())
        return;
    for (b = 0; b < 32; b++)
        if (base & (1u << b))
            masks[nmasks++] = base & ~((1u << b) | dependents(1u << b));
}

/* ---- operands -------------------------------------------------------------- */
/* (for the parts that call bn_mul_mont or trace; a C-only build without
 * tracing has neither) */
#if defined(ASMCRYPT_BN_MONT_ASM) || defined(PATHS_TRACE)
static asmcrypt_word A[MAXW], B[MAXW], N[MAXW];

static void operands(int num)
{
    tu_rand_modulus(N, num);
    tu_rand_words(A, num);
    tu_rand_words(B, num);
    A[num - 1] = N[num - 1] >> 1;
    B[num - 1] = N[num - 1] >> 3;
}
#endif
#if defined(ASMCRYPT_BN_MONT_ASM)
static asmcrypt_word R1[MAXW], R2[MAXW];
#endif

/* ---- 1. no entry declines a size it claims ------------------------------------ */
#if defined(ASMCRYPT_BN_MONT_ASM)
# if defined(__arm__)
#  define MONT_MIN 2             /* armv4-mont.pl: declines num < 2 */
# else
#  define MONT_MIN 1             /* x86_64, armv8, mips: every num >= 1 */
# endif
static void test_mont_accepts(void)
{
    int m, num, sq;

    for (m = 0; m < nmasks; m++) {
        unsigned long bad = 0;

        asmcrypt_cpucap_restrict(masks[m]);
        for (num = MONT_MIN; num <= MAXW; num++)
            for (sq = 0; sq < 2; sq++) {
                asmcrypt_word n0w[1];
                int rc;

                operands(num);
                n0w[0] = asmcrypt_bn_mont_n0(N);
                bn_mul_mont_c(R2, A, sq ? A : B, N, n0w, num);
                memset(R1, 0xa5, sizeof(R1));
                rc = bn_mul_mont(R1, A, sq ? A : B, N, n0w, num);
                if (!CHECK(rc == 1 && memcmp(R1, R2, sizeof(asmcrypt_word) * (size_t)num) == 0,
                           "caps %#x: bn_mul_mont num %d%s: rc %d (1 = taken)%s", masks[m], num,
                           sq ? " (a == b)" : "", rc, rc == 1 ? ", result differs from C" : ""))
                    bad++;
            }
        CHECK(bad == 0, "caps %#x: bn_mul_mont takes every num %d..%d", masks[m], MONT_MIN, MAXW);
    }
    asmcrypt_cpucap_restrict(~0u);
}
#endif

/* ---- 2. Poly1305: the pair init picked partitions the masks like the names ----- */
/* The path is the pair, and in n64 R6 builds also the MSA bit, which
 * poly1305_blocks reads itself (its MSA body, section 2d). */
#if ASMCRYPT_MIPS_MSA_PROBE
# define POLY_RUNTIME_BITS ASMCRYPT_CAP_MIPS_MSA
#else
# define POLY_RUNTIME_BITS 0u
#endif
static void test_poly1305_pairs(void)
{
    struct { const char *name; uintptr_t blocks, emit; unsigned int bits; } seen[40];
    int m, i;

    for (m = 0; m < nmasks; m++) {
        asmcrypt_poly1305_ctx ctx;
        static const unsigned char key[32] = { 7, 6, 5 };

        asmcrypt_cpucap_restrict(masks[m]);
        CHECK(asmcrypt_poly1305_init(&ctx, key) == 0, "poly1305 init");
        seen[m].name = asmcrypt_impl("poly1305");
        seen[m].blocks = (uintptr_t)ctx.blocks;
        seen[m].emit = (uintptr_t)ctx.emit;
        seen[m].bits = asmcrypt_cpu_caps() & POLY_RUNTIME_BITS;
    }
    asmcrypt_cpucap_restrict(~0u);
    for (m = 0; m < nmasks; m++)
        for (i = 0; i < m; i++) {
            int same_name = strcmp(seen[m].name, seen[i].name) == 0;
            int same_pair = seen[m].blocks == seen[i].blocks && seen[m].emit == seen[i].emit &&
                            seen[m].bits == seen[i].bits;

            CHECK(same_name == same_pair,
                  "poly1305: caps %#x (\"%s\", blocks %#lx) and caps %#x (\"%s\", blocks %#lx): %s",
                  masks[m], seen[m].name, (unsigned long)seen[m].blocks, masks[i], seen[i].name,
                  (unsigned long)seen[i].blocks,
                  same_name ? "one name, two block functions" : "two names, one block function");
        }
}

/* ---- 2a. MIPS o32 MIPS32r1..R5: the R2 bit picks the Poly1305 body ------------ */
/* On big-endian poly1305-mips.pl's init hands out its R2 (maddu,
 * wsbh/rotr) block function when ASMCRYPT_CAP_MIPS_R2 is set and the
 * MIPS32r1 one when it is clear; poly1305_blocks is the one of the
 * build's ISA, the other is local to the module.  Both run correctly on
 * an R2 core, so only the pointer shows a gate that is skipped or
 * inverted (docs/mutation.md, gap 7).  On little-endian the two would be
 * the same instructions, so there is one: poly1305_blocks at every
 * capability mask, named as the build. */
#if defined(ASMCRYPT_POLY1305_ASM) && defined(__mips__) && !defined(__mips64) && \
    defined(__mips_isa_rev) && __mips_isa_rev >= 1 && __mips_isa_rev < 6
# define PATHS_MIPS_R2 1
# define BUILD_IS_R2 (__mips_isa_rev >= 2)
# if defined(__MIPSEB__)
#  define TWO_BODIES 1
# else
#  define TWO_BODIES 0
# endif
static void test_mips_r2_gate(void)
{
    int m;

    for (m = 0; m < nmasks; m++) {
        asmcrypt_poly1305_ctx ctx;
        static const unsigned char key[32] = { 9, 8, 7 };
        int r2 = (masks[m] & ASMCRYPT_CAP_MIPS_R2) != 0, own;
        int want_r2 = TWO_BODIES ? r2 : BUILD_IS_R2;
        const char *name;

        asmcrypt_cpucap_restrict(masks[m]);
        CHECK(asmcrypt_poly1305_init(&ctx, key) == 0, "poly1305 init");
        own = ctx.blocks == poly1305_blocks;
        name = asmcrypt_impl("poly1305");
        CHECK(own == (want_r2 == BUILD_IS_R2),
              "caps %#x: init handed out the %s block function with the R2 bit %s",
              masks[m], own == BUILD_IS_R2 ? "R2" : "pre-R2", r2 ? "set" : "clear");
        CHECK(strcmp(name, want_r2 ? "mips32r2" : "mips32") == 0,
              "caps %#x: poly1305 named \"%s\"", masks[m], name);
    }
    asmcrypt_cpucap_restrict(~0u);
}
#endif

/* ---- 2b. MIPS32r1 builds: the run-time R2 probe ---------------------------- */
/* crypto/arch/cpucap_mips.c sets ASMCRYPT_CAP_MIPS_R2 from a probe that
 * steps over an `ext` under a temporary SIGILL handler.  The oracle here
 * is independent of it: `wsbh` under this test's own handler, which
 * leaves with siglongjmp.  The detected bit must agree (on the matrix
 * rows' 24Kf both say R2; the freestanding test/mips_r2_probe.c covers
 * R1 cores, where Debian's libc cannot run).  And a probe run now must
 * leave this test's SIGILL handler and signal mask as they were. */
#if ASMCRYPT_MIPS_R2_PROBE || (ASMCRYPT_MIPS_MSA_PROBE && defined(ASMCRYPT_POLY1305_ASM))
/* The probe checks of 2b and 2d (one of them per build): the oracle runs
 * an instruction under this test's own SIGILL handler, which leaves with
 * siglongjmp; the detected bit must be its answer; and a probe run now,
 * with SIGILL unblocked and then blocked, must give the same answer and
 * leave this test's SIGILL handler (its flags and mask) and the signal
 * mask as they were. */
static sigjmp_buf oracle_jmp;

static void oracle_sigill(int sig)
{
    (void)sig;
    siglongjmp(oracle_jmp, 1);
}

/* insn(): 1 when its instruction gave the right result; 0 when it trapped */
static int oracle_run(int (*insn)(void))
{
    struct sigaction sa, old;
    volatile int ok = 0;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = oracle_sigill;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGILL, &sa, &old);
    if (sigsetjmp(oracle_jmp, 1) == 0)
        ok = insn();
    sigaction(SIGILL, &old, NULL);
    return ok;
}

static void check_probe(const char *what, unsigned int bit, int (*insn)(void), int (*probe)(void))
{
    struct sigaction mine, before, after;
    sigset_t blocked, mask_before, mask_after;
    int want = oracle_run(insn), i;

    CHECK(((asmcrypt_cpucap_detected() & bit) != 0) == want,
          "%s detected %s, the oracle says %s", what, (asmcrypt_cpucap_detected() & bit) ?
          "set" : "clear", want ? "yes" : "no");
    /* a handler with flags and a mask of its own, SIGILL and SIGUSR2 blocked */
    memset(&mine, 0, sizeof(mine));
    mine.sa_handler = oracle_sigill;
    mine.sa_flags = SA_RESTART | SA_NODEFER;
    sigemptyset(&mine.sa_mask);
    sigaddset(&mine.sa_mask, SIGUSR1);
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGILL);
    sigaddset(&blocked, SIGUSR2);
    /* i = 0: nothing blocked; i = 1: SIGILL and SIGUSR2 blocked */
    for (i = 0; i < 2; i++) {
        sigaction(SIGILL, &mine, NULL);
        if (i)
            sigprocmask(SIG_BLOCK, &blocked, NULL);
        sigaction(SIGILL, NULL, &before);
        sigprocmask(SIG_BLOCK, NULL, &mask_before);
        CHECK(probe() == want, "%s probe %d: the answer differs from the oracle's", what, i);
        sigaction(SIGILL, NULL, &after);
        sigprocmask(SIG_BLOCK, NULL, &mask_after);
        CHECK(before.sa_handler == oracle_sigill && after.sa_handler == before.sa_handler &&
              after.sa_flags == before.sa_flags && sigismember(&after.sa_mask, SIGUSR1) == 1 &&
              sigismember(&after.sa_mask, SIGUSR2) == 0,
              "%s probe %d: the SIGILL disposition changed", what, i);
        CHECK(sigismember(&mask_before, SIGILL) == i && sigismember(&mask_after, SIGILL) == i &&
              sigismember(&mask_after, SIGUSR2) == i,
              "%s probe %d: the signal mask changed", what, i);
        sigprocmask(SIG_UNBLOCK, &blocked, NULL);
    }
    signal(SIGILL, SIG_DFL);
}
#endif

#if ASMCRYPT_MIPS_R2_PROBE
# define PATHS_MIPS_PROBE 1
static int r2_insn(void)
{
    unsigned int x = 0x11223344u, y;

    __asm__ volatile(".set push\n\t.set mips32r2\n\twsbh %0,%1\n\t.set pop" : "=r"(y) : "r"(x));
    return y == 0x22114433u;
}

static void test_mips_r2_probe(void)
{
    check_probe("R2", ASMCRYPT_CAP_MIPS_R2, r2_insn, cpucap_mips_r2_probe);
}
#endif

/* One call of a Poly1305 block function through a thunk, for the checks
 * below that set vector registers to a sentinel around it (2c, 2d). */
#if defined(ASMCRYPT_POLY1305_ASM) && (defined(__aarch64__) || ASMCRYPT_MIPS_MSA_PROBE)
static struct {
    poly1305_blocks_f fn;
    void *st;
    const unsigned char *in;
    size_t len;
} pb;

static void __attribute__((noinline)) pb_thunk(void)
{
    pb.fn(pb.st, pb.in, pb.len, 1);
}
#endif

/* ---- 2d. n64 R6: the MSA bit, its probe and the MSA Poly1305 body ------------ */
/* poly1305-mips.pl's poly1305_blocks goes to its MSA body from 32 blocks
 * (its MSA_MIN) when ASMCRYPT_CAP_MIPS_MSA is set (cpucap_mips.c probes
 * for it: one MSA instruction under a temporary SIGILL handler), and the
 * name is "mips64r6-msa" then.  The oracle for the probe is
 * independent of it: an MSA load-immediate and copy under this test's own
 * handler, which leaves with siglongjmp, whose result must be right (on
 * the matrix row's I6400 both say MSA).  A probe run now must leave this
 * test's SIGILL handler and signal mask as they were.  And the MSA body
 * runs exactly when the bit is set and from 32 blocks, not below: $w0-$w3,
 * which it writes and the scalar code never touches, are set to a
 * sentinel around the call. */
#if ASMCRYPT_MIPS_MSA_PROBE && defined(ASMCRYPT_POLY1305_ASM)
# define PATHS_MIPS_MSA 1
static int msa_insn(void)
{
    int y;

    __asm__ volatile(".set push\n\t.set msa\n\t.set fp=64\n\t"
                     "ldi.w $w1,77\n\tcopy_s.w %0,$w1[3]\n\t.set pop"
                     : "=r"(y) : : "$f1");
    return y == 77;
}

static void test_mips_msa_probe(void)
{
    check_probe("MSA", ASMCRYPT_CAP_MIPS_MSA, msa_insn, cpucap_mips_msa_probe);
}

/* 1 when the block function changed one of $w0-$w3 (the MSA body writes
 * them first: its multiplier vectors) */
static int mips_msa_ran(void)
{
    unsigned int out[16];
    int i, changed = 0;

    __asm__ __volatile__(
        ".set push\n\t.set msa\n\t.set fp=64\n\t"
        "ldi.b $w0,0x5a\n\tldi.b $w1,0x5a\n\tldi.b $w2,0x5a\n\tldi.b $w3,0x5a\n\t"
        "move $25,%[fn]\n\tjalr $25\n\t"
        "st.w $w0,0(%[o])\n\tst.w $w1,16(%[o])\n\tst.w $w2,32(%[o])\n\tst.w $w3,48(%[o])\n\t"
        ".set pop"
        :
        : [fn] "r"(pb_thunk), [o] "r"(out)
        : "$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "$10", "$11", "$12",
          "$13", "$14", "$15", "$24", "$25", "$31", "memory",
          "$f0", "$f1", "$f2", "$f3", "$f4", "$f5", "$f6", "$f7", "$f8", "$f9",
          "$f10", "$f11", "$f12", "$f13", "$f14", "$f15", "$f16", "$f17", "$f18", "$f19");
    for (i = 0; i < 16; i++)
        changed |= out[i] != 0x5a5a5a5au;
    return changed;
}

static void test_mips_msa_gate(void)
{
    static const size_t lens[] = { 16 * 31, 16 * 32, 16 * 33, 16 * 64 };
    static unsigned char in[16 * 64];
    int m;

    tu_rand_bytes(in, sizeof(in));
    for (m = 0; m < nmasks; m++) {
        asmcrypt_poly1305_ctx ctx;
        static const unsigned char key[32] = { 2, 7, 1, 8, 2, 8, 1, 8 };
        int want = (masks[m] & asmcrypt_cpucap_detected() & ASMCRYPT_CAP_MIPS_MSA) != 0;
        const char *name;
        size_t k;

        asmcrypt_cpucap_restrict(masks[m]);
        CHECK(asmcrypt_poly1305_init(&ctx, key) == 0, "poly1305 init");
        name = asmcrypt_impl("poly1305");
        CHECK(ctx.blocks == poly1305_blocks, "caps %#x: init handed out another block function",
              masks[m]);
        CHECK(strcmp(name, want ? "mips64r6-msa" : "mips64r6") == 0,
              "caps %#x: poly1305 named \"%s\"", masks[m], name);
        pb.fn = ctx.blocks;
        pb.st = ctx.opaque;
        pb.in = in;
        for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
            int ran;

            pb.len = lens[k];
            ran = mips_msa_ran();
            CHECK(ran == (want && lens[k] >= 16 * 32),
                  "caps %#x (\"%s\"): %zu bytes: the MSA body %s", masks[m], name,
                  lens[k], ran ? "ran" : "did not run");
        }
    }
    asmcrypt_cpucap_restrict(~0u);
}
#endif

/* ---- 2c. AArch64: does the NEON Poly1305 body run from its minimum length? ---- */
/* poly1305-armv8.pl's NEON block function runs its base-2^26 body from 256
 * bytes once the key's powers are cached in the state, from 512 before,
 * and the scalar code below that.  Both give the right tag, so only the
 * vector registers show an entry check that declines its minimum (or
 * takes one block less): v16-v31, which the NEON body uses and the
 * scalar code never touches, are set to a sentinel around the call
 * (docs/mutation.md, gap 3). */
#if defined(__aarch64__) && defined(ASMCRYPT_POLY1305_ASM)
# define PATHS_A64_NEON 1
static int a64_neon_ran(void)
{
    uint64_t out[32], *o = out;
    int i, changed = 0;

    __asm__ __volatile__(
        "movi v16.16b, #0x5a\n\tmovi v17.16b, #0x5a\n\tmovi v18.16b, #0x5a\n\t"
        "movi v19.16b, #0x5a\n\tmovi v20.16b, #0x5a\n\tmovi v21.16b, #0x5a\n\t"
        "movi v22.16b, #0x5a\n\tmovi v23.16b, #0x5a\n\tmovi v24.16b, #0x5a\n\t"
        "movi v25.16b, #0x5a\n\tmovi v26.16b, #0x5a\n\tmovi v27.16b, #0x5a\n\t"
        "movi v28.16b, #0x5a\n\tmovi v29.16b, #0x5a\n\tmovi v30.16b, #0x5a\n\t"
        "movi v31.16b, #0x5a\n\t"
        "blr %[fn]\n\t"
        "st1 {v16.2d-v19.2d}, [%[o]], #64\n\tst1 {v20.2d-v23.2d}, [%[o]], #64\n\t"
        "st1 {v24.2d-v27.2d}, [%[o]], #64\n\tst1 {v28.2d-v31.2d}, [%[o]]"
        : [o] "+r"(o)
        : [fn] "r"(pb_thunk)
        : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
          "x13", "x14", "x15", "x16", "x17", "x30", "memory", "cc",
          "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
          "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23",
          "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31");
    for (i = 0; i < 32; i++)
        changed |= out[i] != 0x5a5a5a5a5a5a5a5aull;
    return changed;
}

static void test_a64_neon_poly(void)
{
    /* in call order on one context: fresh state (powers not cached),
     * then cached after the first NEON call */
    static const struct { size_t len; int cached; } calls[] = {
        { 496, 0 }, { 512, 0 }, { 240, 1 }, { 256, 1 }, { 1024, 1 } };
    static unsigned char in[1024];
    size_t k;
    int m;

    tu_rand_bytes(in, sizeof(in));
    for (m = 0; m < nmasks; m++) {
        asmcrypt_poly1305_ctx ctx;
        static const unsigned char key[32] = { 3, 1, 4, 1, 5, 9, 2, 6 };
        const char *name;
        int neon;

        asmcrypt_cpucap_restrict(masks[m]);
        CHECK(asmcrypt_poly1305_init(&ctx, key) == 0, "poly1305 init");
        name = asmcrypt_impl("poly1305");
        neon = strcmp(name, "armv8-neon") == 0;
        pb.fn = ctx.blocks;
        pb.st = ctx.opaque;
        pb.in = in;
        for (k = 0; k < sizeof(calls) / sizeof(calls[0]); k++) {
            int ran, want;

            pb.len = calls[k].len;
            ran = a64_neon_ran();
            want = neon && calls[k].len >= (calls[k].cached ? 256u : 512u);
            CHECK(ran == want, "caps %#x (\"%s\"): %zu bytes, powers %s: the NEON body %s",
                  masks[m], name, calls[k].len, calls[k].cached ? "cached" : "not cached",
                  ran ? "ran" : "did not run");
        }
    }
    asmcrypt_cpucap_restrict(~0u);
}
#endif

/* ---- 2b. 32-bit ARM: did the NEON Montgomery path run? ------------------------ */
#if defined(__arm__) && (defined(__ARM_NEON) || defined(__ARM_NEON__)) && \
    defined(ASMCRYPT_BN_MONT_ASM)
# define PATHS_ARM_NEON 1
static struct {
    BN_ULONG *rp;
    const BN_ULONG *ap, *bp, *np, *n0;
    int num, rc, exp;
} mm;

/* bn_mul_mont, or with mm.exp asmcrypt_mod_exp(rp, ap, bp as a one-word
 * exponent, np): rc 1 when it computed rp */
static void __attribute__((noinline)) mm_thunk(void)
{
    if (mm.exp)
        mm.rc = asmcrypt_mod_exp(mm.rp, mm.ap, mm.bp, 1, mm.np, mm.num) == ASMCRYPT_OK;
    else
        mm.rc = bn_mul_mont(mm.rp, mm.ap, mm.bp, mm.np, mm.n0, mm.num);
}

/* 1 when bn_mul_mont changed any of d16-d31 (the integer code never
 * touches VFP/NEON registers) */
static int neon_ran(void)
{
    uint32_t out[32];
    int i, changed = 0;

    __asm__ __volatile__(
        "vmov.i32 q8, #0x5a\n\tvmov.i32 q9, #0x5a\n\tvmov.i32 q10, #0x5a\n\t"
        "vmov.i32 q11, #0x5a\n\tvmov.i32 q12, #0x5a\n\tvmov.i32 q13, #0x5a\n\t"
        "vmov.i32 q14, #0x5a\n\tvmov.i32 q15, #0x5a\n\t"
        "blx %[fn]\n\t"
        "vstmia %[o], {d16-d31}"
        :
        : [fn] "r"(mm_thunk), [o] "r"(out)
        : "r0", "r1", "r2", "r3", "r12", "lr", "memory", "cc",
          "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
          "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23",
          "d24", "d25", "d26", "d27", "d28", "d29", "d30", "d31");
    for (i = 0; i < 32; i++)
        changed |= out[i] != 0x5a;
    return changed;
}

static void test_arm_neon_mont(void)
{
    static const int nums[] = { 2, 8, 15, 16, 17, 24, 64, 100, 128, MAXW };
    size_t k;
    int m;

    for (m = 0; m < nmasks; m++) {
        asmcrypt_cpucap_restrict(masks[m]);
        for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
            BN_ULONG n0w[1];
            int num = nums[k], claims, ran;
            const char *name = asmcrypt_impl("bn_mont_mul");

            operands(num);
            n0w[0] = asmcrypt_bn_mont_n0(N);
            mm.rp = R1; mm.ap = A; mm.bp = B; mm.np = N; mm.n0 = n0w; mm.num = num;
            mm.exp = 0;
            ran = neon_ran();
            claims = strcmp(name, "armv7-neon") == 0 && num % 8 == 0 && num >= 16 && num <= 1024;
            CHECK(mm.rc == 1 && ran == claims,
                  "caps %#x num %d: named \"%s\", the NEON path %s (rc %d)", masks[m], num, name,
                  ran ? "ran" : "did not run", mm.rc);
        }
    }
    asmcrypt_cpucap_restrict(~0u);
}

# if defined(ASMCRYPT_BN_MODEXP_ASM)
/* mod_exp's table gather (bn_exp_arm.c): NEON exactly when mod_exp is
 * named "armv7-neon", at sizes where bn_mul_mont runs integer code (num
 * 8 and 12), so that only the gather can touch d16-d31, and at num 16 */
static void test_arm_neon_modexp(void)
{
    static const int nums[] = { 8, 12, 16 };
    size_t k;
    int m;

    for (m = 0; m < nmasks; m++) {
        asmcrypt_cpucap_restrict(masks[m]);
        for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
            int num = nums[k], ran, claims;
            const char *name = asmcrypt_impl("mod_exp");

            operands(num);
            mm.rp = R1; mm.ap = A; mm.bp = B; mm.np = N; mm.num = num; mm.exp = 1;
            ran = neon_ran();
            claims = strcmp(name, "armv7-neon") == 0;
            CHECK(mm.rc == 1 && ran == claims,
                  "caps %#x mod_exp num %d: named \"%s\", NEON %s (rc %d)", masks[m], num,
                  name, ran ? "ran" : "did not run", mm.rc);
        }
    }
    mm.exp = 0;
    asmcrypt_cpucap_restrict(~0u);
}
# endif
#endif

/* ---- 3. x86_64: single-step the API and decode what ran ------------------------ */
#if defined(PATHS_TRACE)
/* ISA classes of an instruction; bit i needs capability bit i (cpu.h) */
#define K_BMI1   ASMCRYPT_CAP_X86_BMI1
#define K_BMI2   ASMCRYPT_CAP_X86_BMI2
#define K_ADX    ASMCRYPT_CAP_X86_ADX
#define K_AVX    ASMCRYPT_CAP_X86_AVX
#define K_AVX2   ASMCRYPT_CAP_X86_AVX2
#define K_F      ASMCRYPT_CAP_X86_AVX512F
#define K_VL     ASMCRYPT_CAP_X86_AVX512VL
#define K_IFMA   ASMCRYPT_CAP_X86_AVX512IFMA

extern const char __executable_start[], etext[];

static volatile unsigned long tr_steps;      /* instructions inside our text */
static volatile unsigned int tr_used;        /* union of their classes */
static volatile unsigned int tr_bad;         /* classes outside tr_mask */
static volatile unsigned int tr_mask;
static volatile const unsigned char *tr_bad_at;
static volatile unsigned int tr_stop;        /* stop stepping once all seen */
static volatile unsigned long tr_limit;      /* or after this many steps */
static unsigned long tr_total;

/* 256-bit VEX ops of map 0F that are AVX (moves, float), not AVX2 */
static int vex256_int(int map, int op)
{
    if (map == 1)
        return (op >= 0x60 && op <= 0x76 && op != 0x6f) || (op >= 0xd1 && op <= 0xfe &&
               op != 0xd0 && op != 0xe6 && op != 0xe7 && op != 0xf0);
    if (map == 2)
        return !(op == 0x18 || op == 0x19 || op == 0x1a || (op >= 0x0c && op <= 0x0f) ||
                 (op >= 0x2c && op <= 0x2f) || (op >= 0x96 && op <= 0xbf));
    if (map == 3)
        return !(op == 0x04 || op == 0x05 || op == 0x06 || op == 0x18 || op == 0x19 ||
                 op == 0x0c || op == 0x0d || op == 0x40 || op == 0x4a || op == 0x4b);
    return 0;
}

static unsigned int classify(const unsigned char *p)
{
    int pfx = 0, map, pp, L, op;

    for (;; p++) {
        if (*p == 0x66 || *p == 0xf2 || *p == 0xf3)
            pfx = *p;
        else if (!(*p == 0x67 || *p == 0x2e || *p == 0x3e || *p == 0x26 || *p == 0x64 ||
                   *p == 0x65 || *p == 0x36 || *p == 0xf0))
            break;
    }
    if (*p == 0xc5 || *p == 0xc4) {               /* VEX */
        if (*p == 0xc5) {
            map = 1; L = (p[1] >> 2) & 1; pp = p[1] & 3; op = p[2];
        } else {
            map = p[1] & 0x1f; L = (p[2] >> 2) & 1; pp = p[2] & 3; op = p[3];
        }
        if (map == 2 && op == 0xf6 && pp == 3) return K_BMI2;              /* mulx */
        if (map == 2 && op == 0xf5) return K_BMI2;                         /* bzhi pdep pext */
        if (map == 2 && op == 0xf7) return pp ? K_BMI2 : K_BMI1;           /* shlx.. / bextr */
        if (map == 2 && (op == 0xf2 || op == 0xf3)) return K_BMI1;         /* andn, blsr.. */
        if (map == 3 && op == 0xf0 && pp == 3) return K_BMI2;              /* rorx */
        return L && vex256_int(map, op) ? K_AVX | K_AVX2 : K_AVX;
    }
    if (*p == 0x62) {                               /* EVEX */
        unsigned int k = K_F;

        map = p[1] & 7; op = p[4];
        if (((p[3] >> 5) & 3) != 2 && !(p[3] & 0x10))   /* 128/256 bits, no rounding */
            k |= K_VL;
        if (map == 2 && (op == 0xb4 || op == 0xb5))
            k |= K_IFMA;                                 /* vpmadd52luq/huq */
        return k;
    }
    while (*p >= 0x40 && *p <= 0x4f)                /* REX */
        p++;
    if (p[0] == 0x0f && p[1] == 0x38 && p[2] == 0xf6 && (pfx == 0x66 || pfx == 0xf3))
        return K_ADX;                                /* adcx / adox */
    return 0;
}

static void on_trap(int sig, siginfo_t *si, void *uc)
{
    const unsigned char *ip = (const unsigned char *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];

    (void)sig;
    (void)si;
    if (ip >= (const unsigned char *)__executable_start && ip < (const unsigned char *)etext) {
        unsigned int k = classify(ip);

        tr_steps++;
        tr_used |= k;
        if (k & ~tr_mask) {
            tr_bad |= k & ~tr_mask;
            tr_bad_at = ip;
        }
        if ((tr_stop != 0 && (tr_used & tr_stop) == tr_stop) ||
            (tr_limit != 0 && tr_steps >= tr_limit))
            ((ucontext_t *)uc)->uc_mcontext.gregs[REG_EFL] &= ~0x100;
    }
}

static void tf_on(void)
{
    __asm__ __volatile__("pushfq; orq $0x100, (%%rsp); popfq" ::: "memory", "cc");
}

static void tf_off(void)
{
    __asm__ __volatile__("pushfq; andq $-257, (%%rsp); popfq" ::: "memory", "cc");
}

enum prim { P_POLY, P_MONT, P_MONT_SQR, P_EXP, P_MULADD, P_MUL, P_MULSUB, P_SQR, P_ADD,
            P_SUB, P_CNDADD, P_CNDSUB, P_COUNT };
static const char *const prim_impl[P_COUNT] = {
    "poly1305", "bn_mont_mul", "bn_mont_mul", "mod_exp", "bn_mul_add_words", "bn_mul_words",
    "bn_mul_sub_words", "bn_sqr_words", "bn_add_words", "bn_sub_words", "bn_cnd_add_words",
    "bn_cnd_sub_words" };

static unsigned char msg[1024 + 13];
static asmcrypt_word RR[2 * MAXW], E[4];

static void call_prim(enum prim p, int num)
{
    unsigned char tag[16];
    static const unsigned char key[32] = { 0x11, 0x22, 0x33, 0x44, 0x55 };
    asmcrypt_word c, n0 = asmcrypt_bn_mont_n0(N);
    int rc = 0;

    tf_on();
    switch (p) {
    case P_POLY:     rc = asmcrypt_poly1305(tag, msg, num > 0 ? (size_t)num : sizeof(msg), key); break;
    case P_MONT:     rc = asmcrypt_bn_mont_mul(RR, A, B, N, n0, num); break;
    case P_MONT_SQR: rc = asmcrypt_bn_mont_mul(RR, A, A, N, n0, num); break;
    case P_EXP:      rc = asmcrypt_mod_exp(RR, A, E, 1, N, num); break;
    case P_MULADD:   rc = asmcrypt_bn_mul_add_words(RR, A, num, B[0], &c); break;
    case P_MUL:      rc = asmcrypt_bn_mul_words(RR, A, num, B[0], &c); break;
    case P_MULSUB:   rc = asmcrypt_bn_mul_sub_words(RR, A, num, B[0], &c); break;
    case P_SQR:      rc = asmcrypt_bn_sqr_words(RR, A, num); break;
    case P_ADD:      rc = asmcrypt_bn_add_words(RR, A, B, num, &c); break;
    case P_SUB:      rc = asmcrypt_bn_sub_words(RR, A, B, num, &c); break;
    case P_CNDADD:   rc = asmcrypt_bn_cnd_add_words(RR, A, B, num, 1, &c); break;
    case P_CNDSUB:   rc = asmcrypt_bn_cnd_sub_words(RR, A, B, num, 1, &c); break;
    default: break;
    }
    tf_off();
    CHECK(rc == 0, "%s num %d: rc %d", prim_impl[p], num, rc);
}

/* The Poly1305 body that poly1305-x86_64.pl's entry for name takes for a
 * one-shot of len bytes, as classes of instructions (the one-shot hands
 * the block function len rounded down to whole blocks): from $VEC4_MIN =
 * 192 bytes the AVX2 four-lane body (also the body the AVX-512 and IFMA
 * entries start with), from $VEC44_MIN = 256 the IFMA body, from
 * $VEC8_MIN = 384 the AVX-512F eight-lane body; below 192 the scalar loop.
 * An entry check that declined its minimum length (or took one block
 * less) shows here as the next body down.  0 for a name it does not know. */
static int poly_evidence(const char *name, int len, unsigned int *must, unsigned int *mustnot)
{
    const unsigned int vec = K_AVX | K_AVX2 | K_F | K_IFMA;
    int blocks = len & ~15;
    int ifma = strcmp(name, "x86_64-avx512ifma") == 0;
    int f = strcmp(name, "x86_64-avx512") == 0;

    if (!ifma && !f && strcmp(name, "x86_64-avx2") != 0 && strcmp(name, "x86_64") != 0)
        return 0;
    if (ifma && blocks >= 256) {
        *must = K_IFMA;
        *mustnot = 0;
    } else if (f && blocks >= 384) {
        *must = K_F;
        *mustnot = K_IFMA;
    } else if (strcmp(name, "x86_64") != 0 && blocks >= 192) {
        *must = K_AVX2;
        *mustnot = K_F | K_IFMA;
    } else {
        *must = 0;
        *mustnot = vec;
    }
    return 1;
}

/* Which classes identify a path: must_have all of them (when the call is
 * one the path takes), must_not any of them. */
static void evidence(const char *name, enum prim p, int num, unsigned int *must, unsigned int *mustnot)
{
    int ifma_size = num >= 16 && num <= 64 && !(p == P_MONT_SQR && num == 16);

    *must = 0;
    *mustnot = 0;
    /* a Poly1305 message of num bytes: the body its length selects */
    if (p == P_POLY && num > 0 && poly_evidence(name, num, must, mustnot))
        return;
    if (strcmp(name, "x86_64-avx512ifma") == 0) {
        *must = K_IFMA;
    } else if (strcmp(name, "x86_64-avx512") == 0) {
        *must = K_F; *mustnot = K_IFMA;
    } else if (strcmp(name, "x86_64-avx2") == 0) {
        *must = K_AVX2; *mustnot = K_F;
    } else if (strcmp(name, "x86_64-ifma") == 0) {
        if (p == P_EXP && (num <= 4 || num == 8) && (tr_mask & (K_BMI2 | K_ADX)) == (K_BMI2 | K_ADX))
            *mustnot = K_IFMA;   /* bn_exp_x86_64.c: MULX wins there (mulx_wins) */
        else if (p == P_EXP || ifma_size)
            *must = K_IFMA;
        else
            *mustnot = K_IFMA;
    } else if (strcmp(name, "x86_64-adx") == 0) {
        if (p == P_EXP || p == P_MONT || p == P_MONT_SQR)
            *must = K_BMI2 | K_ADX;
        else if (p == P_MUL && num == 2)
            *mustnot = K_BMI2;   /* x86_64-words: mul at 2 limbs is the mulq code
                                    at every level (1.17x C with mulx) */
        else if (p >= P_MULADD && p <= P_MULSUB && num == 1)
            *mustnot = K_BMI2;   /* x86_64-words: one limb is the mulq code at
                                    every level, no capability test (mul 1.2x C
                                    on the mulq path with it) */
        else if (p >= P_MULADD && p <= P_SQR)
            *must = K_BMI2;      /* the word loops: mulx (adcx only where they add) */
        /* mod_exp's table gather is not part of the name: AVX2 or
         * AVX-512 gathers may run under "x86_64-adx" (see the docs) */
        *mustnot |= p == P_EXP ? K_IFMA : K_F;
    } else if (strcmp(name, "x86_64") == 0) {
        *mustnot = K_BMI2 | K_ADX | (p == P_EXP ? K_IFMA : K_F) | (p == P_POLY ? K_AVX | K_AVX2 : 0);
    } else if (strcmp(name, "c") == 0) {
        /* the C reference (a C-only build such as generic64): no class is
         * required; the per-instruction mask check above still applies */
    } else {
        *must = ~0u;             /* an unknown name: the table below must learn it */
    }
}

/* stop: 0 traces the whole call; else stepping stops once these classes
 * were seen (the IFMA size sweep) */
static void trace_one(unsigned int mask, enum prim p, int num, unsigned int stop)
{
    const char *name;
    unsigned int must, mustnot;

    asmcrypt_cpucap_restrict(mask);
    name = asmcrypt_impl(prim_impl[p]);
    tr_steps = 0; tr_used = 0; tr_bad = 0; tr_mask = asmcrypt_cpu_caps(); tr_bad_at = NULL;
    evidence(name, p, num, &must, &mustnot);
    tr_stop = stop;
    /* mod_exp runs ~600k instructions at num 16: it is stepped until the
     * named path's instructions show (at most 400k), or for 30k when its
     * name needs none; the multiplications and word loops are traced
     * whole on their own */
    tr_limit = 0;
    if (p == P_EXP) {
        tr_stop = must;
        tr_limit = must ? 400000 : 30000;
        if (num == 8)            /* the whole call: no IFMA anywhere in it */
            tr_stop = 0, tr_limit = 400000;
    }
    call_prim(p, num);
    if (p == P_EXP && num == 8)
        CHECK(tr_steps < tr_limit, "caps %#x mod_exp num 8: trace cut at %lu steps, before the "
              "call ended", mask, (unsigned long)tr_steps);
    tr_stop = 0;
    tr_limit = 0;
    tr_total += tr_steps;
    CHECK(tr_bad == 0, "caps %#x %s num %d (\"%s\"): ran an instruction needing caps %#x "
          "at text offset %#lx (objdump -d this program)", mask, prim_impl[p], num, name, tr_bad,
          (unsigned long)(tr_bad_at - (const unsigned char *)__executable_start));
    CHECK((tr_used & must) == must && (tr_used & mustnot) == 0,
          "caps %#x %s num %d: named \"%s\" but the instructions that ran use %#x",
          mask, prim_impl[p], num, name, tr_used);
}

/* The two-chain Poly1305 bodies (docs/mutation.md, gap 3) use the same
 * instruction classes as the one-chain bodies below them, so the classes
 * cannot show which ran.  Their instruction counts can: a one-shot of len
 * bytes through one body costs a + b len instructions over whole
 * iterations, so from the two-chain minimum B the counts at B, B + S and
 * B + 2S (S: the bytes of one two-chain iteration) must be in arithmetic
 * progression, which fails when an entry check sends B to the one-chain
 * body; and B - S (one chain) must not continue it. */
static unsigned long poly_steps(size_t len)
{
    static unsigned char big[1536];
    static const unsigned char key[32] = { 0x5a, 0x17, 0xc3, 0x02, 0x9e };
    unsigned char tag[16];
    int rc;

    if (big[0] == 0)
        tu_rand_bytes(big, sizeof(big));
    tr_steps = 0; tr_used = 0; tr_bad = 0; tr_mask = asmcrypt_cpu_caps(); tr_stop = 0; tr_limit = 0;
    tf_on();
    rc = asmcrypt_poly1305(tag, big, len, key);
    tf_off();
    CHECK(rc == 0, "poly1305 %zu bytes: rc %d", len, rc);
    tr_total += tr_steps;
    return tr_steps;
}

static void test_poly_chains(void)
{
    static const struct { const char *name; size_t min, step; } body[] = {
        { "x86_64-avx2", 512, 128 },          /* $VEC4D_MIN, 2 chains x 4 blocks */
        { "x86_64-avx512ifma", 768, 256 },    /* $VEC44D_MIN, 2 x 8 */
        { "x86_64-avx512", 1024, 256 },       /* $VEC16_MIN, 2 x 8 */
    };
    size_t b;
    int m;

    for (b = 0; b < sizeof(body) / sizeof(body[0]); b++) {
        for (m = 0; m < nmasks; m++) {
            unsigned long c[4];
            size_t B = body[b].min, S = body[b].step;
            int i;

            asmcrypt_cpucap_restrict(masks[m]);
            if (strcmp(asmcrypt_impl("poly1305"), body[b].name) != 0)
                continue;
            for (i = 0; i < 4; i++)
                c[i] = poly_steps(B + (size_t)(i - 1) * S);
            CHECK(c[3] - c[2] == c[2] - c[1],
                  "caps %#x (\"%s\"): poly1305 at %zu, %zu, %zu bytes ran %lu, %lu, %lu "
                  "instructions: %zu bytes did not run the two-chain body", masks[m],
                  body[b].name, B, B + S, B + 2 * S, c[1], c[2], c[3], B);
            CHECK(c[1] - c[0] != c[2] - c[1],
                  "caps %#x (\"%s\"): poly1305 at %zu bytes (%lu instructions) continues "
                  "the two-chain progression from %zu", masks[m], body[b].name, B - S, c[0], B);
            printf("two-chain %s: %zu..%zu bytes step %zu: %lu %lu %lu %lu instructions\n",
                   body[b].name, B - S, B + 2 * S, S, c[0], c[1], c[2], c[3]);
            break;
        }
    }
    asmcrypt_cpucap_restrict(~0u);
}

static void test_trace(void)
{
    struct sigaction sa;
    /* each traced instruction costs a signal: few sizes, one per path of
     * each function (x86_64-mont.pl: mulq, mulx, sqrx, mulx2/sqr8 at 8,
     * ifma at 17; the IFMA sweep below covers 16..64; x86_64-words: 1,
     * 2 and 3 limbs have straight-line entries of their own) */
    static const int nums[] = { 1, 2, 3, 8, 17 };
    size_t k;
    int m, p;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_trap;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGTRAP, &sa, NULL) != 0) {
        printf("trace: no SIGTRAP handler, skipped\n");
        return;
    }
    tr_mask = ~0u;
    tr_steps = 0;
    call_prim(P_ADD, 4);
    if (tr_steps == 0) {
        printf("trace: the trap flag does not single-step here (valgrind?), skipped\n");
        return;
    }
    tu_rand_bytes(msg, sizeof(msg));
    for (m = 0; m < nmasks; m++) {
        for (p = 0; p < P_COUNT; p++) {
            if (p == P_POLY) {
                /* the whole message, then each vector body's minimum
                 * length and one block less (docs/mutation.md, gap 3) */
                static const int lens[] = { 176, 192, 240, 256, 368, 384 };

                trace_one(masks[m], (enum prim)p, 0, 0);
                for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++)
                    trace_one(masks[m], (enum prim)p, lens[k], 0);
                continue;
            }
            if (p == P_EXP) {              /* slow: two sizes per mask */
                operands(16);
                E[0] = tu_rand_word();
                trace_one(masks[m], (enum prim)p, 16, 0);
                operands(8);
                trace_one(masks[m], (enum prim)p, 8, 0);
                continue;
            }
            for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
                operands(nums[k]);
                trace_one(masks[m], (enum prim)p, nums[k], 0);
            }
        }
        /* the IFMA path takes every num it claims (up to its first IFMA
         * instruction), and the word loops every length */
        if (m == 0 && (masks[m] & (K_F | K_IFMA)) == (K_F | K_IFMA)) {
            int num;

            for (num = 16; num <= 64; num++) {
                operands(num);
                trace_one(masks[m], P_MONT, num, K_IFMA);
            }
        }
    }
    test_poly_chains();
    asmcrypt_cpucap_restrict(~0u);
    printf("trace: %lu instructions single-stepped\n", tr_total);
}
#endif

int main(int argc, char **argv)
{
    int m;

    (void)argc;
    (void)argv;
    tu_seed(0x7061746873ull);
    make_masks();
    printf("caps %#x; masks:", asmcrypt_cpu_caps());
    for (m = 0; m < nmasks; m++)
        printf(" %#x", masks[m]);
    printf("\n");
#if defined(ASMCRYPT_BN_MONT_ASM)
    test_mont_accepts();
#endif
    test_poly1305_pairs();
#if defined(PATHS_MIPS_R2)
    test_mips_r2_gate();
#endif
#if defined(PATHS_MIPS_PROBE)
    test_mips_r2_probe();
#endif
#if defined(PATHS_MIPS_MSA)
    test_mips_msa_probe();
    test_mips_msa_gate();
#endif
#if defined(PATHS_ARM_NEON)
    test_arm_neon_mont();
# if defined(ASMCRYPT_BN_MODEXP_ASM)
    test_arm_neon_modexp();
# endif
#endif
#if defined(PATHS_A64_NEON)
    test_a64_neon_poly();
#endif
#if defined(PATHS_TRACE)
    test_trace();
#endif
    return tu_finish();
}
