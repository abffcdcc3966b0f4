/*
 * test/test_threads.c - every public function called from eight threads
 * at once, from a cold start (issue 14 item 4).
 *
 * main() calls nothing in the library before it starts the threads: the
 * first library call of the process happens in the threads, released
 * together by a barrier, so capability lookup and any first-use work race
 * (the library also detects capabilities in a constructor, which runs
 * before main; see docs/testing-sanitizers.md).  Each thread runs a fixed
 * program of calls on inputs from its own PRNG (threads t and t+4 use the
 * same seed, so identical work runs twice concurrently) and records a
 * 64-bit digest of every call's return code and outputs.  The message the
 * Poly1305 calls read is one shared read-only buffer.  After the join,
 * main reruns each seed's program single-threaded and checks every digest
 * of every thread against it: one check per (thread, call group).
 *
 * Functions: asmcrypt_cpu_caps, asmcrypt_impl (every name and "bogus"),
 * asmcrypt_strerror, asmcrypt_poly1305 (one-shot) and _init/_update/_final
 * (random splits), asmcrypt_bn_mont_n0, asmcrypt_bn_mont_mul (plain,
 * rp == ap, squaring), asmcrypt_mod_exp (plain and rp == ap), and the
 * eight word primitives.  Every input and output buffer is a heap block
 * of exactly its size (the Poly1305 context an aligned block of
 * sizeof(ctx)), so AddressSanitizer and valgrind memcheck see any access
 * past an end, including by the assembly under memcheck.
 *
 * Quick everywhere: a few milliseconds natively, well under a second per
 * capability level under qemu.  Needs POSIX threads (glibc 2.34+ has them
 * in libc, so no -pthread at link time is needed on Debian 12).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "asmcrypt/bn.h"
#include "asmcrypt/cpu.h"
#include "asmcrypt/err.h"
#include "asmcrypt/poly1305.h"
#include "util.h"

#define W        ASMCRYPT_WORD_BITS
#define NTHREADS 8
#define NSEEDS   4
#define ROUNDS   2
#define MAXOPS   512
#define MSGLEN   8192

typedef struct {
    int seed;
    int nops;
    int failed_setup;              /* an allocation failed */
    uint64_t digest[MAXOPS];
    const char *what[MAXOPS];      /* call group of each digest */
} job;

static unsigned char shared_msg[MSGLEN];   /* read by every thread */
static pthread_barrier_t start;

/* ---- per-thread PRNG (splitmix64; util.c's PRNG is not thread-safe) --- */
static uint64_t next64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static asmcrypt_word next_word(uint64_t *s)
{
    return (asmcrypt_word)next64(s);
}

static void fill_bytes(uint64_t *s, unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        p[i] = (unsigned char)next64(s);
}

/* ---- digests (FNV-1a, 64 bits) ------------------------------------------ */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t fnv_int(uint64_t h, long v)
{
    return fnv(h, &v, sizeof(v));
}

#define FNV0 0xcbf29ce484222325ull

static void record(job *j, const char *what, uint64_t h)
{
    if (j->nops < MAXOPS) {
        j->digest[j->nops] = h;
        j->what[j->nops] = what;
    }
    j->nops++;
}

/* exact-size heap blocks (a zero size gets one byte, never written) */
static void *xalloc(job *j, size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        j->failed_setup = 1;
    return p;
}

static asmcrypt_word *walloc(job *j, int num)
{
    return xalloc(j, (size_t)num * sizeof(asmcrypt_word));
}

/* free the n blocks given (each may be NULL) */
static void free_n(int n, ...)
{
    va_list ap;

    va_start(ap, n);
    while (n-- > 0)
        free(va_arg(ap, void *));
    va_end(ap);
}

/* digest of a result: return code, then the num words at r */
static uint64_t fnv_result(uint64_t h, int rc, const asmcrypt_word *r, int num)
{
    return fnv(fnv_int(h, rc), r, (size_t)num * sizeof(*r));
}

/* ---- Poly1305 -------------------------------------------------------------- */
static void do_poly1305(job *j, uint64_t *s, size_t len)
{
    unsigned char *key = xalloc(j, 32), *tag1 = xalloc(j, 16), *tag2 = xalloc(j, 16);
    unsigned char *priv = xalloc(j, len);
    asmcrypt_poly1305_ctx *ctx = NULL;
    size_t off = (size_t)(next64(s) % 61), done;
    const unsigned char *in;
    uint64_t h = FNV0;
    int rc;

    if (posix_memalign((void **)&ctx, 64, sizeof(*ctx)) != 0)
        ctx = NULL;
    if (key == NULL || tag1 == NULL || tag2 == NULL || priv == NULL || ctx == NULL) {
        j->failed_setup = 1;
        goto out;
    }
    if (off + len > MSGLEN)
        off = 0;
    fill_bytes(s, key, 32);
    memcpy(priv, shared_msg + off, len);
    /* one-shot, half from the shared buffer (misaligned), half private */
    in = (next64(s) & 1) ? shared_msg + off : priv;
    rc = asmcrypt_poly1305(tag1, in, len, key);
    h = fnv_int(h, rc);
    h = fnv(h, tag1, 16);
    /* incremental with random splits (including empty updates) */
    rc = asmcrypt_poly1305_init(ctx, key);
    h = fnv_int(h, rc);
    for (done = 0; done < len;) {
        size_t part = (size_t)(next64(s) % 300);
        if (part > len - done)
            part = len - done;
        rc = asmcrypt_poly1305_update(ctx, priv + done, part);
        h = fnv_int(h, rc);
        done += part;
    }
    rc = asmcrypt_poly1305_final(ctx, tag2);
    h = fnv_int(h, rc);
    h = fnv(h, tag2, 16);
    h = fnv_int(h, memcmp(tag1, tag2, 16) == 0);
    record(j, "poly1305", h);
out:
    free_n(5, key, tag1, tag2, priv, ctx);
}

/* ---- Montgomery and modexp ----------------------------------------------- */
/* np: odd, top word nonzero (shape varies); x < np by a smaller top word */
static void rand_modulus(uint64_t *s, asmcrypt_word *np, int num, int shape)
{
    int i;
    for (i = 0; i < num; i++)
        np[i] = next_word(s);
    if (shape == 1)                       /* all-ones limbs: 2^k - 1 */
        for (i = 0; i < num; i++)
            np[i] = ~(asmcrypt_word)0;
    if (shape == 2)                       /* just above a power of two */
        for (i = 0; i < num - 1; i++)
            np[i] = 0;
    np[0] |= 1;
    np[num - 1] |= (asmcrypt_word)1 << (W - 1);
}

static void rand_below(uint64_t *s, asmcrypt_word *x, const asmcrypt_word *np, int num)
{
    int i;
    for (i = 0; i < num; i++)
        x[i] = next_word(s);
    x[num - 1] = np[num - 1] >> 1;
}

static void do_mont(job *j, uint64_t *s, int bits, int shape)
{
    int num = bits / W, rc;
    asmcrypt_word *np = walloc(j, num), *a = walloc(j, num), *b = walloc(j, num);
    asmcrypt_word *r = walloc(j, num), *n0 = walloc(j, 1);
    uint64_t h = FNV0;

    if (np == NULL || a == NULL || b == NULL || r == NULL || n0 == NULL)
        goto out;
    rand_modulus(s, np, num, shape);
    rand_below(s, a, np, num);
    rand_below(s, b, np, num);
    *n0 = asmcrypt_bn_mont_n0(np);
    record(j, "bn_mont_n0", fnv(FNV0, n0, sizeof(*n0)));
    rc = asmcrypt_bn_mont_mul(r, a, b, np, *n0, num);            /* plain */
    h = fnv_result(h, rc, r, num);
    rc = asmcrypt_bn_mont_mul(r, r, b, np, *n0, num);            /* rp == ap */
    h = fnv_result(h, rc, r, num);
    rc = asmcrypt_bn_mont_mul(r, a, a, np, *n0, num);            /* square */
    h = fnv_result(h, rc, r, num);
    rc = asmcrypt_bn_mont_mul(r, r, r, np, *n0, num);            /* all alias */
    h = fnv_result(h, rc, r, num);
    record(j, "bn_mont_mul", h);
out:
    free_n(5, np, a, b, r, n0);
}

static void do_modexp(job *j, uint64_t *s, int bits)
{
    int num = bits / W, ewords = 1 + (int)(next64(s) % 2), rc, i;
    asmcrypt_word *np = walloc(j, num), *a = walloc(j, num), *r = walloc(j, num);
    asmcrypt_word *e = walloc(j, ewords);
    uint64_t h = FNV0;

    if (np == NULL || a == NULL || r == NULL || e == NULL)
        goto out;
    rand_modulus(s, np, num, 0);
    rand_below(s, a, np, num);
    for (i = 0; i < ewords; i++)
        e[i] = next_word(s);
    rc = asmcrypt_mod_exp(r, a, e, ewords, np, num);
    h = fnv_result(h, rc, r, num);
    memcpy(r, a, (size_t)num * sizeof(*r));
    rc = asmcrypt_mod_exp(r, r, e, ewords, np, num);             /* rp == ap */
    h = fnv_result(h, rc, r, num);
    record(j, "mod_exp", h);
out:
    free_n(4, np, a, r, e);
}

/* ---- word primitives ------------------------------------------------------ */
static void do_words(job *j, uint64_t *s, int num)
{
    asmcrypt_word *a = walloc(j, num), *b = walloc(j, num);
    asmcrypt_word *r = walloc(j, num), *r2 = walloc(j, 2 * num);
    asmcrypt_word w = next_word(s), c, cond;
    uint64_t h;
    int rc, i;

    if (a == NULL || b == NULL || r == NULL || r2 == NULL)
        goto out;
    for (i = 0; i < num; i++) {
        a[i] = next_word(s);
        b[i] = (next64(s) & 3) == 0 ? ~(asmcrypt_word)0 : next_word(s);
    }
#define WORDS_DIGEST(name, call, out, outn)                                   \
    do {                                                                      \
        c = 0;                                                                \
        rc = (call);                                                          \
        h = fnv_int(FNV0, rc);                                                \
        h = fnv(h, &c, sizeof(c));                                            \
        h = fnv(h, (out), (size_t)(outn) * sizeof(asmcrypt_word));            \
        record(j, name, h);                                                   \
    } while (0)
    memcpy(r, b, (size_t)num * sizeof(*r));
    WORDS_DIGEST("bn_mul_add_words", asmcrypt_bn_mul_add_words(r, a, num, w, &c), r, num);
    WORDS_DIGEST("bn_mul_words", asmcrypt_bn_mul_words(r, a, num, w, &c), r, num);
    memcpy(r, b, (size_t)num * sizeof(*r));
    WORDS_DIGEST("bn_mul_sub_words", asmcrypt_bn_mul_sub_words(r, a, num, w, &c), r, num);
    WORDS_DIGEST("bn_sqr_words", asmcrypt_bn_sqr_words(r2, a, num), r2, 2 * num);
    WORDS_DIGEST("bn_add_words", asmcrypt_bn_add_words(r, a, b, num, &c), r, num);
    WORDS_DIGEST("bn_sub_words", asmcrypt_bn_sub_words(r, a, b, num, &c), r, num);
    cond = (next64(s) & 1) ? next_word(s) | 1 : 0;
    WORDS_DIGEST("bn_cnd_add_words", asmcrypt_bn_cnd_add_words(r, a, b, num, cond, &c), r, num);
    WORDS_DIGEST("bn_cnd_sub_words", asmcrypt_bn_cnd_sub_words(r, r, b, num, cond, &c), r, num);
#undef WORDS_DIGEST
out:
    free_n(4, a, b, r, r2);
}

/* ---- the program every thread runs ---------------------------------------- */
static const char *const prims[] = {
    "poly1305", "bn_mont_mul", "mod_exp",
    "bn_mul_add_words", "bn_mul_words", "bn_mul_sub_words", "bn_sqr_words",
    "bn_add_words", "bn_sub_words", "bn_cnd_add_words", "bn_cnd_sub_words",
    "bogus",
};

static void program(job *j)
{
    static const size_t plen[] = { 0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1000, 4099 };
    static const int mbits[] = { 64, 128, 256, 512, 1024, 2048 };
    uint64_t s = 0x7468726561647300ull + (uint64_t)j->seed;   /* "threads" */
    uint64_t h;
    size_t i;
    int round, code;

    j->nops = 0;
    for (round = 0; round < ROUNDS; round++) {
        record(j, "asmcrypt_cpu_caps", fnv_int(FNV0, (long)asmcrypt_cpu_caps()));
        h = FNV0;
        for (i = 0; i < sizeof(prims) / sizeof(prims[0]); i++) {
            const char *name = asmcrypt_impl(prims[i]);
            h = name ? fnv(h, name, strlen(name) + 1) : fnv_int(h, -1);
        }
        record(j, "asmcrypt_impl", h);
        h = FNV0;
        for (code = 1; code >= -6; code--) {
            const char *msg = asmcrypt_strerror(code);
            h = fnv(h, msg, strlen(msg) + 1);
        }
        record(j, "asmcrypt_strerror", h);
        for (i = 0; i < sizeof(plen) / sizeof(plen[0]); i++)
            do_poly1305(j, &s, plen[i]);
        do_poly1305(j, &s, (size_t)(next64(&s) % 2048));
        for (i = 0; i < sizeof(mbits) / sizeof(mbits[0]); i++) {
            do_mont(j, &s, mbits[i], (int)(i % 3));
            if (mbits[i] <= 1024)
                do_modexp(j, &s, mbits[i]);
        }
        do_words(j, &s, 0);
        do_words(j, &s, 1);
        do_words(j, &s, 1 + (int)(next64(&s) % 40));
    }
}

static void *thread_main(void *arg)
{
    job *j = arg;
    int rc = pthread_barrier_wait(&start);

    if (rc != 0 && rc != PTHREAD_BARRIER_SERIAL_THREAD)
        j->failed_setup = 1;
    program(j);
    return NULL;
}

int main(int argc, char **argv)
{
    static job jobs[NTHREADS], ref[NSEEDS];
    pthread_t tid[NTHREADS];
    int started[NTHREADS] = { 0 };
    uint64_t s = 0x6d7367ull;
    int t, k, nstarted = 0;

    (void)argc;
    (void)argv;
    fill_bytes(&s, shared_msg, sizeof(shared_msg));
    if (pthread_barrier_init(&start, NULL, NTHREADS) != 0) {
        CHECK(0, "pthread_barrier_init failed");
        return tu_finish();
    }
    /* cold start: no library call before this point */
    for (t = 0; t < NTHREADS; t++) {
        jobs[t].seed = t % NSEEDS;
        started[t] = pthread_create(&tid[t], NULL, thread_main, &jobs[t]) == 0;
        nstarted += started[t];
    }
    CHECK(nstarted == NTHREADS, "only %d of %d threads started", nstarted, NTHREADS);
    if (nstarted != NTHREADS) {
        /* the barrier would never open; nothing more can be tested */
        printf("threads: cannot start %d threads\n", NTHREADS);
        return tu_finish();
    }
    for (t = 0; t < NTHREADS; t++)
        pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&start);

    /* single-threaded reference runs, then the comparison */
    for (k = 0; k < NSEEDS; k++) {
        ref[k].seed = k;
        program(&ref[k]);
        CHECK(!ref[k].failed_setup && ref[k].nops <= MAXOPS,
              "reference run %d: setup failed or %d > %d calls", k, ref[k].nops, MAXOPS);
    }
    for (t = 0; t < NTHREADS; t++) {
        const job *j = &jobs[t], *r = &ref[j->seed];
        int n = r->nops < MAXOPS ? r->nops : MAXOPS;

        CHECK(!j->failed_setup, "thread %d: setup failed", t);
        CHECK(j->nops == r->nops, "thread %d: %d call groups, single-threaded %d",
              t, j->nops, r->nops);
        for (k = 0; k < n && k < j->nops; k++)
            CHECK(j->digest[k] == r->digest[k],
                  "thread %d (seed %d): call group %d (%s) differs from the single-threaded run",
                  t, j->seed, k, r->what[k]);
    }
    printf("threads: %d threads x %d call groups, caps %#x, poly1305=%s bn_mont_mul=%s\n",
           NTHREADS, ref[0].nops, asmcrypt_cpu_caps(), asmcrypt_impl("poly1305"),
           asmcrypt_impl("bn_mont_mul"));
    return tu_finish();
}
