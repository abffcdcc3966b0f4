/*
 * test/kernel/kharness.c - user-space stand-in for the Linux Poly1305 glue
 * (issue 11, "Tests"), linked against a module's .S built the way a
 * kernel builds it (test/kernel/run.sh).
 *
 * Written from the kernel's public interface facts only: the descriptor
 * layout (struct poly1305_desc_ctx with the accumulator at offset 40,
 * hence only 8-byte aligned), CONFIG_CRYPTO_LIB_POLY1305_RSIZE per arch,
 * the asm prototypes of each glue generation (the table in issue 11) and
 * which entry the glue calls for which data.  No kernel code is used.
 *
 *   KGEN=1  glue A (v5.5-v6.14, arch/<arch>/crypto/poly1305-glue.c)
 *   KGEN=2  glue B (v6.15-v6.16, lib/crypto/<arch>/poly1305-glue.c)
 *   KGEN=3  glue C (v6.17+, lib/crypto/<arch>/poly1305.h)
 *   KNEON=1 (ARM) the kernel has CONFIG_KERNEL_MODE_NEON
 *
 *   kharness --modes                    the glue modes this CPU can run
 *   kharness VECTORS MODE GROUP         one group of tests in one mode
 * MODE: scalar | neon (ARM, arm64) | avx | avx2 | avx512 (x86_64);
 * GROUP: vectors (testmgr.h), lengths (0..300), long (to 33000),
 * dirty (u32 arguments with garbage in the upper register half).
 * Every message runs on a descriptor surrounded by canary bytes (two
 * complementary fills); the extent written from &h is checked against the
 * kernel's reservation and against asmcrypt's own budget (192, MIPS 72).
 * The vector entries have __weak empty stand-ins, as the kernel's glue
 * has for poly1305_blocks_neon: a stand-in that runs is a failure.
 * Prints "high-water:", "calls:" and then "N passed, N failed".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../canary.h"
#if defined(__arm__)
# include <sys/auxv.h>
#endif

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;

#ifndef KGEN
# define KGEN 3
#endif
#ifndef KNEON
# define KNEON 0
#endif

#if defined(__x86_64__)
# define KARCH "x86_64"
# define RSIZE 11
#elif defined(__aarch64__)
# define KARCH "arm64"
# define RSIZE 9
#elif defined(__arm__)
# define KARCH "arm"
# define RSIZE 9
#elif defined(__mips__)
# define KARCH "mips"
# define RSIZE 2
#else
# error "no kernel Poly1305 glue for this architecture"
#endif

#if defined(__mips__)
# define OUR_BUDGET 72
#else
# define OUR_BUDGET 192
#endif

/* ---- the kernel's layouts ------------------------------------------------ */
struct poly1305_state {                /* the accumulator h */
    union { u32 h[5]; u64 h64[3]; } u;
};
struct poly1305_key {
    union { u32 r[5]; u64 r64[3]; } u;
};
struct poly1305_core_key {
    struct poly1305_key key;
    struct poly1305_key precomputed_s;
};
struct poly1305_block_state {          /* glue B and C */
    struct poly1305_state h;
    union {
        struct poly1305_key opaque_r[RSIZE];
        struct poly1305_core_key core_r;
    } r;
};
#if KGEN == 1
struct poly1305_desc_ctx {
    u8 buf[16];
    unsigned int buflen;
    unsigned short rset;
    _Bool sset;
    u32 s[4];
    struct poly1305_state h;
    union {
        struct poly1305_key opaque_r[RSIZE];
        struct poly1305_core_key core_r;
    } r;
};
# define STATE(d) ((void *)&(d)->h)
# define STATE_OFFSET offsetof(struct poly1305_desc_ctx, h)
#else
struct poly1305_desc_ctx {
    u8 buf[16];
    unsigned int buflen;
    u32 s[4];
    struct poly1305_block_state state;
};
# define STATE(d) ((void *)&(d)->state)
# define STATE_OFFSET offsetof(struct poly1305_desc_ctx, state)
#endif
/* what the asm may use from &h: the accumulator and RSIZE keys */
#define KERNEL_BUDGET ((int)(sizeof(struct poly1305_state) + RSIZE * sizeof(struct poly1305_key)))
typedef char h_at_40[STATE_OFFSET == 40 ? 1 : -1];
typedef char budget_fits[sizeof(struct poly1305_desc_ctx) == 40 + (size_t)KERNEL_BUDGET ? 1 : -1];

/* ---- the asm entry points each generation links against ------------------ */
#if defined(__mips__)
# if KGEN == 1
#  define K_INIT  poly1305_init_mips
#  define K_BLOCK poly1305_blocks_mips
#  define K_EMIT  poly1305_emit_mips
# elif KGEN == 2
#  define K_INIT  poly1305_block_init_arch
#  define K_BLOCK poly1305_blocks_arch
#  define K_EMIT  poly1305_emit_arch
# else
#  define K_INIT  poly1305_block_init
#  define K_BLOCK poly1305_blocks
#  define K_EMIT  poly1305_emit
# endif
#elif defined(__arm__)
# if KGEN == 1
#  define K_INIT  poly1305_init_arm
#  define K_EMIT  poly1305_emit_arm
# elif KGEN == 2
#  define K_INIT  poly1305_block_init_arch
#  define K_EMIT  poly1305_emit_arch
# else
#  define K_INIT  poly1305_block_init
#  define K_EMIT  poly1305_emit
# endif
# define K_BLOCK  poly1305_blocks_arm
# define K_VBLOCK poly1305_blocks_neon
#elif defined(__aarch64__)
# if KGEN == 1
#  define K_INIT  poly1305_init_arm64
#  define K_BLOCK poly1305_blocks
#  define K_EMIT  poly1305_emit
# elif KGEN == 2
#  define K_INIT  poly1305_block_init_arch
#  define K_BLOCK poly1305_blocks
#  define K_EMIT  poly1305_emit_arch
# else
#  define K_INIT  poly1305_block_init
#  define K_BLOCK poly1305_blocks_arm64
#  define K_EMIT  poly1305_emit
# endif
# define K_VBLOCK poly1305_blocks_neon
#elif defined(__x86_64__)
# define K_INIT  poly1305_init_x86_64
# define K_BLOCK poly1305_blocks_x86_64
# define K_EMIT  poly1305_emit_x86_64
#endif

#define STR_(x) #x
#define STR(x) STR_(x)

/* asmlinkage prototypes: u32 len/hibit, except x86_64's size_t len */
void K_INIT(void *state, const u8 key[16]);
void K_EMIT(void *state, u8 digest[16], const u32 nonce[4]);
#if defined(__x86_64__)
void K_BLOCK(void *state, const u8 *src, size_t len, u32 padbit);
void poly1305_blocks_avx(void *state, const u8 *src, size_t len, u32 padbit);
void poly1305_blocks_avx2(void *state, const u8 *src, size_t len, u32 padbit);
void poly1305_blocks_avx512(void *state, const u8 *src, size_t len, u32 padbit);
void poly1305_emit_avx(void *state, u8 digest[16], const u32 nonce[4]);
typedef void (*blocks_fn)(void *, const u8 *, size_t, u32);
#else
void K_BLOCK(void *state, const u8 *src, u32 len, u32 hibit);
# ifdef K_VBLOCK
void K_VBLOCK(void *state, const u8 *src, u32 len, u32 hibit);
# endif
typedef void (*blocks_fn)(void *, const u8 *, u32, u32);
#endif
typedef void (*emit_fn)(void *, u8 *, const u32 *);

/* ---- __weak empty stand-ins for the vector entries ----------------------- */
static unsigned stub_ran;              /* names of stand-ins that ran */
static const char *stub_name[4];

#if defined(__x86_64__) || defined(K_VBLOCK)
static void note_stub(int i, const char *name)
{
    stub_ran |= 1u << i;
    stub_name[i] = name;
}
#endif

#if defined(__x86_64__)
__attribute__((weak)) void poly1305_blocks_avx(void *s, const u8 *p, size_t n, u32 b)
{ (void)s; (void)p; (void)n; (void)b; note_stub(0, "poly1305_blocks_avx"); }
__attribute__((weak)) void poly1305_blocks_avx2(void *s, const u8 *p, size_t n, u32 b)
{ (void)s; (void)p; (void)n; (void)b; note_stub(1, "poly1305_blocks_avx2"); }
__attribute__((weak)) void poly1305_blocks_avx512(void *s, const u8 *p, size_t n, u32 b)
{ (void)s; (void)p; (void)n; (void)b; note_stub(2, "poly1305_blocks_avx512"); }
__attribute__((weak)) void poly1305_emit_avx(void *s, u8 d[16], const u32 n[4])
{ (void)s; (void)d; (void)n; note_stub(3, "poly1305_emit_avx"); }
#elif defined(K_VBLOCK)
__attribute__((weak)) void K_VBLOCK(void *s, const u8 *p, u32 n, u32 b)
{ (void)s; (void)p; (void)n; (void)b; note_stub(0, STR(K_VBLOCK)); }
#endif

/* ---- counting ------------------------------------------------------------- */
static unsigned long n_pass, n_fail;

static int check(int ok, const char *what, const char *mode, size_t len, const char *how)
{
    if (ok) {
        n_pass++;
        return 1;
    }
    if (++n_fail <= 40)
        printf("FAIL %s: %s mode, len %zu, %s\n", what, mode, len, how);
    else if (n_fail == 41)
        printf("(further failures not printed)\n");
    return 0;
}

/* ---- reference Poly1305 (radix 2^26, 32x32->64 products) ---------------- */
static u32 le32(const u8 *p)
{
    return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void ref_mac(u8 tag[16], const u8 *m, size_t len, const u8 key[32])
{
    const u32 M = 0x3ffffff;
    u32 k[4], r[5], s5[5], h[5] = { 0, 0, 0, 0, 0 }, g[5], c, mask;
    u64 d[5], f;
    size_t off;
    int i, j;

    k[0] = le32(key) & 0x0fffffff;
    for (i = 1; i < 4; i++)
        k[i] = le32(key + 4 * i) & 0x0ffffffc;
    r[0] = k[0] & M;
    r[1] = (k[0] >> 26 | k[1] << 6) & M;
    r[2] = (k[1] >> 20 | k[2] << 12) & M;
    r[3] = (k[2] >> 14 | k[3] << 18) & M;
    r[4] = k[3] >> 8;
    for (i = 0; i < 5; i++)
        s5[i] = 5 * r[i];
    for (off = 0; off < len; off += 16) {
        u8 b[17];
        size_t n = len - off < 16 ? len - off : 16;

        memset(b, 0, sizeof(b));
        memcpy(b, m + off, n);
        b[n] = 1;                                   /* 2^(8n) */
        h[0] += le32(b) & M;
        h[1] += (le32(b + 3) >> 2) & M;
        h[2] += (le32(b + 6) >> 4) & M;
        h[3] += (le32(b + 9) >> 6) & M;
        h[4] += le32(b + 12) >> 8 | (u32)b[16] << 24;
        for (i = 0; i < 5; i++) {
            d[i] = 0;
            for (j = 0; j < 5; j++)
                d[i] += (u64)h[j] * (j <= i ? r[i - j] : s5[i - j + 5]);
        }
        c = 0;
        for (i = 0; i < 5; i++) {
            d[i] += c;
            h[i] = (u32)d[i] & M;
            c = (u32)(d[i] >> 26);
        }
        h[0] += c * 5;
        h[1] += h[0] >> 26;
        h[0] &= M;
    }
    /* full carry, then h - p if h >= p, without branches */
    for (i = 0; i < 4; i++) {
        h[i + 1] += h[i] >> 26;
        h[i] &= M;
    }
    c = h[4] >> 26;
    h[4] &= M;
    h[0] += 5 * c;
    h[1] += h[0] >> 26;
    h[0] &= M;
    c = 5;
    for (i = 0; i < 5; i++) {
        g[i] = h[i] + c;
        c = g[i] >> 26;
        g[i] &= M;
    }
    mask = 0u - c;                                   /* c: h + 5 >= 2^130 */
    for (i = 0; i < 5; i++)
        h[i] = (h[i] & ~mask) | (g[i] & mask);
    f = (u64)(h[0] | h[1] << 26) + le32(key + 16);
    k[0] = (u32)f;
    f = (f >> 32) + (u64)(h[1] >> 6 | h[2] << 20) + le32(key + 20);
    k[1] = (u32)f;
    f = (f >> 32) + (u64)(h[2] >> 12 | h[3] << 14) + le32(key + 24);
    k[2] = (u32)f;
    f = (f >> 32) + (u64)(h[3] >> 18 | h[4] << 8) + le32(key + 28);
    k[3] = (u32)f;
    for (i = 0; i < 16; i++)
        tag[i] = (u8)(k[i / 4] >> (8 * (i % 4)));
}

/* ---- the glue ------------------------------------------------------------- */
enum { M_SCALAR, M_NEON, M_AVX, M_AVX2, M_AVX512 };
static int mode;
static const char *mode_name;
static unsigned long calls_init, calls_scalar, calls_vector, calls_emit, calls_vemit;
static unsigned long emit_wrote;       /* emits that changed the (const) state */
static u64 dirty_hi;                   /* garbage for the upper halves */

#define CHUNK 4096                     /* vector calls at most 4 KiB, as the glue */

#if defined(__x86_64__)
static blocks_fn x86_vector_entry(void)
{
    return mode == M_AVX512 ? poly1305_blocks_avx512 :
           mode == M_AVX2 ? poly1305_blocks_avx2 : poly1305_blocks_avx;
}

/* The x86 glue reads is_base2_26 (u32 at byte 20) and, when it is set,
 * turns h from five 26-bit limbs back into radix 2^64 before calling the
 * scalar entry. */
static void x86_to_base2_64(void *state)
{
    u32 *w = (u32 *)state, h[5], c;
    u64 *q = (u64 *)state;
    int i;

    if (w[5] == 0)
        return;
    memcpy(h, w, sizeof(h));
    for (i = 0; i < 4; i++) {
        h[i + 1] += h[i] >> 26;
        h[i] &= 0x3ffffff;
    }
    c = h[4] >> 26;
    h[4] &= 0x3ffffff;
    h[0] += 5 * c;
    for (i = 0; i < 4; i++) {
        h[i + 1] += h[i] >> 26;
        h[i] &= 0x3ffffff;
    }
    q[0] = (u64)h[0] | (u64)h[1] << 26 | (u64)h[2] << 52;
    q[1] = (u64)h[2] >> 12 | (u64)h[3] << 14 | (u64)h[4] << 40;
    q[2] = (u64)h[4] >> 24;                         /* clears is_base2_26 */
}
#endif

/* Call a blocks entry; in the dirty group the u32 arguments (x86_64: the
 * padbit only, len is size_t) go through 64-bit parameters with garbage
 * in the upper half, which the ABI allows. */
static void call_blocks(blocks_fn f, void *st, const u8 *p, size_t len, u32 pad)
{
#if defined(__aarch64__)
    if (dirty_hi) {
        ((void (*)(void *, const u8 *, u64, u64))(void (*)(void))f)(st, p, dirty_hi | len,
                                                                    dirty_hi | pad);
        return;
    }
#elif defined(__x86_64__)
    if (dirty_hi) {
        ((void (*)(void *, const u8 *, size_t, u64))(void (*)(void))f)(st, p, len,
                                                                       dirty_hi | pad);
        return;
    }
#else
    (void)dirty_hi;                    /* u32 fills the register here */
#endif
    f(st, p, (u32)len, pad);
}

#if defined(__x86_64__) || defined(K_VBLOCK)
/* vector calls of at most CHUNK bytes, as the glue does */
static void vector_blocks(blocks_fn f, void *st, const u8 *p, size_t len, u32 pad)
{
    while (len > 0) {
        size_t n = len < CHUNK ? len : CHUNK;

        calls_vector++;
        call_blocks(f, st, p, n, pad);
        p += n;
        len -= n;
    }
}
#endif

/* The glue's block step.  bulk = 0 for the buffered partial block: glue A
 * on ARM/arm64 hands that to the scalar entry; B and C use one function
 * for all data; x86 picks the scalar entry below 288 bytes while h is in
 * radix 2^64. */
static void glue_blocks(struct poly1305_desc_ctx *d, const u8 *p, size_t len, u32 pad, int bulk)
{
    void *st = STATE(d);

#if defined(__x86_64__)
    (void)bulk;
    if (mode == M_SCALAR || (len < 288 && ((u32 *)st)[5] == 0)) {
        x86_to_base2_64(st);
        calls_scalar++;
        call_blocks(K_BLOCK, st, p, len, pad);
        return;
    }
    vector_blocks(x86_vector_entry(), st, p, len, pad);
#elif defined(K_VBLOCK)
    if (mode == M_SCALAR || (KGEN == 1 && !bulk)) {
        calls_scalar++;
        call_blocks(K_BLOCK, st, p, len, pad);
        return;
    }
    vector_blocks(K_VBLOCK, st, p, len, pad);
#else
    (void)bulk;
    calls_scalar++;
    call_blocks(K_BLOCK, st, p, len, pad);
#endif
}

static void glue_init(struct poly1305_desc_ctx *d, const u8 key[32])
{
    int i;

    calls_init++;
    K_INIT(STATE(d), key);
    for (i = 0; i < 4; i++)
        d->s[i] = le32(key + 16 + 4 * i);
    d->buflen = 0;
}

static void glue_update(struct poly1305_desc_ctx *d, const u8 *src, size_t n)
{
    if (d->buflen > 0) {
        size_t take = 16 - d->buflen < n ? 16 - d->buflen : n;

        memcpy(d->buf + d->buflen, src, take);
        d->buflen += (unsigned)take;
        src += take;
        n -= take;
        if (d->buflen == 16) {
            glue_blocks(d, d->buf, 16, 1, 0);
            d->buflen = 0;
        }
    }
    if (n >= 16) {
        size_t full = n & ~(size_t)15;

        glue_blocks(d, src, full, 1, 1);
        src += full;
        n -= full;
    }
    if (n > 0) {
        memcpy(d->buf, src, n);
        d->buflen = (unsigned)n;
    }
}

/* (The kernel then wipes the descriptor; not done here so that the
 * canary check sees what the asm wrote.) */
static void glue_final(struct poly1305_desc_ctx *d, u8 out[16])
{
    if (d->buflen > 0) {
        d->buf[d->buflen] = 1;
        memset(d->buf + d->buflen + 1, 0, 15 - d->buflen);
        glue_blocks(d, d->buf, 16, 0, 0);
    }
    {
        /* B and C declare emit's state const: count emits that write it
         * (information only: the memory is the caller's and writable) */
        u8 before[KERNEL_BUDGET];

        memcpy(before, STATE(d), sizeof(before));
#if defined(__x86_64__)
        if (mode != M_SCALAR) {
            calls_vemit++;
            poly1305_emit_avx(STATE(d), out, d->s);
        } else
#endif
        {
            calls_emit++;
            K_EMIT(STATE(d), out, d->s);
        }
        emit_wrote += memcmp(before, STATE(d), sizeof(before)) != 0;
    }
}

/* ---- canaries ------------------------------------------------------------- */
#define GUARD 4096
static unsigned char arena[GUARD + 64 + sizeof(struct poly1305_desc_ctx) + GUARD]
    __attribute__((aligned(64)));
static unsigned char canary[2][sizeof(arena)];
static size_t max_extent;
static size_t desc_pos;                /* 0: &h = 40 mod 64; 32: &h = 8 mod 64 */

static void make_canaries(void)
{
    size_t i;

    for (i = 0; i < sizeof(arena); i++) {
        canary[0][i] = (unsigned char)(0x5au ^ (unsigned)(i * 151u) ^ (unsigned)(i >> 8));
        canary[1][i] = (unsigned char)~canary[0][i];
    }
}

/* extent written from &h (0: none); *before when a byte before the
 * descriptor changed */
static size_t extent_of(const unsigned char *h, int inv, int *before)
{
    return canary_extent(arena, canary[inv], sizeof(arena), (size_t)(h - arena),
                         GUARD + desc_pos, before);
}

/* split patterns */
enum { P_ONESHOT, P_BYTES, P_UNEVEN, P_SPLITS };
static const char *const pname[P_SPLITS] = { "one-shot", "byte by byte", "uneven splits" };

static const size_t uneven[] = { 1, 15, 16, 17, 31, 3, 64, 100, 2, 288, 47, 512, 5, 4096, 33, 1000 };

static void mac_glue(u8 tag[16], const u8 *m, size_t len, const u8 key[32], int pat,
                     struct poly1305_desc_ctx *d)
{
    size_t off = 0, k = 0, n;

    glue_init(d, key);
    while (off < len) {
        n = pat == P_ONESHOT ? len : pat == P_BYTES ? 1 : uneven[k++ % 16];
        if (n > len - off)
            n = len - off;
        glue_update(d, m + off, n);
        off += n;
    }
    glue_final(d, tag);
}

/* One message, both canaries: tag and extent checks. */
#define MAXLEN 33000

static void test_msg(const u8 *m, size_t len, const u8 key[32], const u8 *want, int pat,
                     const char *what)
{
    struct poly1305_desc_ctx *d = (struct poly1305_desc_ctx *)(arena + GUARD + desc_pos);
    u8 tag[16], ref[16];
    size_t ext = 0, e;
    int inv, before, bad_before = 0, ok = 1;
    unsigned stubs0 = stub_ran;

    static u8 srcbuf[MAXLEN + 32];
    static unsigned shift;
    const u8 *src = srcbuf + (shift++ % 16);   /* the glue gets any alignment */

    memcpy((u8 *)src, m, len);
    if (want == NULL) {
        ref_mac(ref, m, len, key);
        want = ref;
    }
    for (inv = 0; inv < 2; inv++) {
        memcpy(arena, canary[inv], sizeof(arena));
        mac_glue(tag, src, len, key, pat, d);
        ok &= memcmp(tag, want, 16) == 0;
        e = extent_of((const unsigned char *)STATE(d), inv, &before);
        bad_before |= before;
        if (e > ext)
            ext = e;
    }
    if (ext > max_extent)
        max_extent = ext;
    check(ok, what, mode_name, len, pname[pat]);
    if (!check((int)ext <= KERNEL_BUDGET, "state written beyond the kernel's reservation",
               mode_name, len, pname[pat]))
        printf("     extent %zu bytes from &h, kernel reserves %d\n", ext, KERNEL_BUDGET);
    if (!check(ext <= OUR_BUDGET, "state written beyond asmcrypt's budget",
               mode_name, len, pname[pat]))
        printf("     extent %zu bytes from &h, budget %d\n", ext, OUR_BUDGET);
    check(!bad_before, "bytes before the descriptor written", mode_name, len, pname[pat]);
    check(stub_ran == stubs0, "a __weak empty stand-in ran", mode_name, len, pname[pat]);
}

/* ---- test data ------------------------------------------------------------ */
static u64 rng = 0x1305;

static u64 rand64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void rand_bytes(u8 *p, size_t n)
{
    while (n--)
        *p++ = (u8)(rand64() >> 24);
}

static u8 msgbuf[MAXLEN + 16];

static int hexbytes(const char *s, u8 *out, size_t max)
{
    size_t n = 0;
    unsigned v;

    while (s[0] && s[1] && s[0] != '\n') {
        if (n >= max || sscanf(s, "%2x", &v) != 1)
            return -1;
        out[n++] = (u8)v;
        s += 2;
    }
    return (int)n;
}

/* test/kernel/testmgr-poly1305.txt: key/msg/tag records */
static void group_vectors(const char *file)
{
    static char line[2 * MAXLEN + 64];
    FILE *f = fopen(file, "r");
    u8 key[32], tag[16];
    int len = -1, nvec = 0, havekey = 0, p;
    size_t at;

    if (f == NULL) {
        check(0, "cannot open the vector file", mode_name, 0, file);
        return;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "key = ", 6) == 0)
            havekey = hexbytes(line + 6, key, 32) == 32;
        else if (strncmp(line, "msg = ", 6) == 0)
            len = hexbytes(line + 6, msgbuf, MAXLEN);
        else if (strncmp(line, "tag = ", 6) == 0 && havekey && len >= 0 &&
                 hexbytes(line + 6, tag, 16) == 16) {
            nvec++;
            for (p = 0; p < P_SPLITS; p++)
                test_msg(msgbuf, (size_t)len, key, tag, p, "testmgr.h vector");
            for (at = 1; at < (size_t)len; at += 37) {   /* one split point */
                struct poly1305_desc_ctx *d = (struct poly1305_desc_ctx *)(arena + GUARD + desc_pos);
                u8 got[16];

                glue_init(d, key);
                glue_update(d, msgbuf, at);
                glue_update(d, msgbuf + at, (size_t)len - at);
                glue_final(d, got);
                check(memcmp(got, tag, 16) == 0, "testmgr.h vector, split", mode_name,
                      (size_t)len, "two updates");
            }
            len = -1;
            havekey = 0;
        }
    }
    fclose(f);
    check(nvec == 12, "expected the 12 testmgr.h vectors", mode_name, (size_t)nvec, file);
    printf("testmgr.h vectors: %d\n", nvec);
}

static void random_msg(size_t len, u8 key[32], unsigned i)
{
    rand_bytes(key, 32);
    if (i % 7 == 3)
        memset(key, 0xff, 16);           /* largest clamped r */
    if (i % 5 == 4)
        memset(msgbuf, 0xff, len);       /* largest blocks */
    else
        rand_bytes(msgbuf, len);
}

static void group_lengths(void)
{
    u8 key[32];
    size_t len;
    int p;

    for (len = 0; len <= 300; len++) {
        random_msg(len, key, (unsigned)len);
        for (p = 0; p < P_SPLITS; p++)
            test_msg(msgbuf, len, key, NULL, p, "length 0..300");
    }
}

static const size_t long_lens[] = {
    320, 383, 384, 511, 512, 513, 1000, 1024, 2047, 4096, 4097, 4111, 4176,
    8191, 8192, 12345, 16384, 16399, 32768, 32999, 33000
};

static void group_long(void)
{
    u8 key[32];
    size_t i;
    int p;

    for (i = 0; i < sizeof(long_lens) / sizeof(long_lens[0]); i++) {
        random_msg(long_lens[i], key, (unsigned)i);
        for (p = 0; p < P_SPLITS; p++)
            test_msg(msgbuf, long_lens[i], key, NULL, p, "long message");
    }
}

#if defined(__x86_64__)
# define DIRTY_ARGS "padbit (%rcx; len is size_t)"
#elif defined(__aarch64__)
# define DIRTY_ARGS "len and hibit (x2, x3)"
#elif defined(__mips__) && _MIPS_SIM == _ABI64
# define DIRTY_ARGS "MIPS n64 passes u32 sign-extended, garbage is not allowed"
#else
# define DIRTY_ARGS "32-bit registers"
#endif

static void group_dirty(void)
{
#if defined(__aarch64__) || defined(__x86_64__)
    static const u64 garbage[] = { 0xdeadbeef00000000ull, 0xffffffff00000000ull,
                                   0x8000000100000000ull };
    u8 key[32];
    size_t len, g;
    int p;

    for (g = 0; g < 3; g++) {
        dirty_hi = garbage[g];
        for (len = 0; len <= 1100; len += 53) {
            random_msg(len, key, (unsigned)len);
            for (p = 0; p < P_SPLITS; p += 2)
                test_msg(msgbuf, len, key, NULL, p, "dirty upper halves");
        }
        random_msg(8192 + 48, key, 1);
        test_msg(msgbuf, 8192 + 48, key, NULL, P_UNEVEN, "dirty upper halves");
    }
    dirty_hi = 0;
    printf("dirty upper halves: %s with garbage above bit 31\n", DIRTY_ARGS);
#else
    printf("dirty upper halves: not applicable (%s)\n", DIRTY_ARGS);
#endif
}

/* ---- modes ---------------------------------------------------------------- */
static int mode_available(int m, const char **why)
{
    *why = NULL;
    switch (m) {
    case M_SCALAR:
        return 1;
#if defined(__aarch64__)
    case M_NEON:
        return 1;
#elif defined(__arm__)
    case M_NEON:
        if (!KNEON) {
            *why = "the kernel is built without KERNEL_MODE_NEON";
            return 0;
        }
        if (!(getauxval(AT_HWCAP) & (1ul << 12))) {
            *why = "the CPU has no NEON";
            return 0;
        }
        return 1;
#elif defined(__x86_64__)
    case M_AVX:
        if (!__builtin_cpu_supports("avx")) { *why = "the CPU has no AVX"; return 0; }
        return 1;
    case M_AVX2:
        if (!__builtin_cpu_supports("avx2")) { *why = "the CPU has no AVX2"; return 0; }
        return 1;
    case M_AVX512:
        if (!__builtin_cpu_supports("avx512f")) { *why = "the CPU has no AVX512F"; return 0; }
        return 1;
#endif
    default:
        return 0;
    }
}

static const char *const mode_names[] = { "scalar", "neon", "avx", "avx2", "avx512" };

int main(int argc, char **argv)
{
    const char *why = NULL;
    int m;

    if (argc == 2 && strcmp(argv[1], "--modes") == 0) {
        for (m = M_SCALAR; m <= M_AVX512; m++) {
            if (mode_available(m, &why))
                printf("%s\n", mode_names[m]);
            else if (why != NULL)
                fprintf(stderr, "skip %s: %s\n", mode_names[m], why);
        }
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: %s --modes | VECTORS MODE vectors|lengths|long|dirty\n", argv[0]);
        return 2;
    }
    for (m = M_SCALAR; m <= M_AVX512; m++)
        if (strcmp(argv[2], mode_names[m]) == 0)
            break;
    if (m > M_AVX512 || !mode_available(m, &why)) {
        printf("mode %s not available here%s%s\n", argv[2], why ? ": " : "", why ? why : "");
        return 2;
    }
    mode = m;
    mode_name = mode_names[m];
    make_canaries();
    printf("kernel glue %c (KGEN=%d), %s, mode %s: init %s, blocks %s, emit %s, "
           "reservation %d bytes from &h (RSIZE %d), asmcrypt budget %d\n",
           'A' + KGEN - 1, KGEN, KARCH, mode_name, STR(K_INIT), STR(K_BLOCK), STR(K_EMIT),
           KERNEL_BUDGET, RSIZE, OUR_BUDGET);
    for (desc_pos = 0; desc_pos <= 32; desc_pos += 32) {
        if (strcmp(argv[3], "vectors") == 0)
            group_vectors(argv[1]);
        else if (strcmp(argv[3], "lengths") == 0)
            group_lengths();
        else if (strcmp(argv[3], "long") == 0)
            group_long();
        else if (strcmp(argv[3], "dirty") == 0)
            group_dirty();
        else {
            printf("unknown group %s\n", argv[3]);
            return 2;
        }
    }
    printf("high-water: %zu bytes from &h (kernel reserves %d, asmcrypt budget %d)\n",
           max_extent, KERNEL_BUDGET, OUR_BUDGET);
    printf("calls: init %lu, scalar blocks %lu, vector blocks %lu, emit %lu, vector emit %lu"
           " (%lu emits wrote the state)\n",
           calls_init, calls_scalar, calls_vector, calls_emit, calls_vemit, emit_wrote);
    if (mode != M_SCALAR && (strcmp(argv[3], "vectors") == 0 || strcmp(argv[3], "long") == 0))
        check(calls_vector > 0, "the vector entry was never called", mode_name, 0, argv[3]);
    for (m = 0; m < 4; m++)
        if (stub_ran & (1u << m))
            printf("FAIL the __weak empty stand-in %s ran: the .S does not provide it\n",
                   stub_name[m]);
    printf("%lu passed, %lu failed\n", n_pass, n_fail);
    return n_fail != 0;
}
