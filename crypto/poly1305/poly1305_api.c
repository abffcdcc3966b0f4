/*
 * crypto/poly1305/poly1305_api.c - the public Poly1305 API: one-shot and
 * incremental on asmcrypt_poly1305_ctx.  Partial blocks are buffered
 * here; the final partial block is padded with 0x01 and zeros and passed
 * alone with padbit 0.  The block function is the assembly module's (its
 * init may pick a better pair for this CPU) when Configure enabled it,
 * else the C reference: radix 2^64 where the compiler has __int128,
 * radix 2^26 otherwise.
 */
#include <stddef.h>
#include <string.h>
#include "internal.h"

/* ctx->magic: set by init; the low bit records that a block function got
 * STATE_SHORT_LEN bytes or more at once (so final wipes STATE_WIPE words,
 * not STATE_WIPE_SHORT) */
#define POLY1305_MAGIC      0x31303550u   /* "P501" */
#define POLY1305_MAGIC_WIDE (POLY1305_MAGIC | 1u)
#define MAGIC_OK(m)         (((m) | 1u) == POLY1305_MAGIC_WIDE)

#if defined(__GNUC__)
# define NOINLINE __attribute__((noinline))
# define LIKELY(x)   __builtin_expect(!!(x), 1)
# define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
# define NOINLINE
# define LIKELY(x)   (x)
# define UNLIKELY(x) (x)
#endif

/* Zero key material so the stores are never dropped: with GCC/clang a
 * plain memset (inlined for the constant sizes here) followed by a
 * barrier that tells the compiler the memory is read; elsewhere memset
 * through a volatile function pointer. */
#if defined(__GNUC__)
static inline void wipe(void *p, size_t len)
{
    memset(p, 0, len);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* n 64-bit words at p (the implementation state, and final's fields after
 * it): 16-byte stores through a volatile pointer (GCC turns a 192-byte
 * memset into rep stosq, whose start-up alone is ~30 cycles, as much as
 * the whole MAC of a 16-byte message); may_alias, as the fields are not
 * all uint64_t. */
typedef uint64_t wipe_pair __attribute__((vector_size(16), aligned(8), may_alias));
typedef uint64_t wipe_word __attribute__((may_alias));

static inline void wipe_words(void *p, size_t n)
{
    volatile wipe_pair *v = (volatile wipe_pair *)p;
    const wipe_pair z = { 0, 0 };
    size_t i;

#if defined(__GNUC__) && !defined(__clang__)
# pragma GCC unroll 16
#endif
    /* clang unrolls these short constant-count loops by itself; its
     * "#pragma unroll" warned (-Wpass-failed) in the sanitizer builds,
     * where the count is not always a constant */
    for (i = 0; i < n / 2; i++)
        v[i] = z;
    if (n & 1)
        ((volatile wipe_word *)p)[n - 1] = 0;
}
#else
static void wipe(void *p, size_t len)
{
    static void *(*const volatile set)(void *, int, size_t) = memset;

    set(p, 0, len);
}

static void wipe_words(void *p, size_t n)
{
    wipe(p, n * sizeof(uint64_t));
}
#endif

/* 0 for a length no buffer at in can have: above PTRDIFF_MAX (no object
 * is that large, C11 7.20.3) or wrapping around the address space. */
static int buffer_can_exist(const void *in, size_t len)
{
    return len <= (size_t)PTRDIFF_MAX && len <= SIZE_MAX - (uintptr_t)in;
}

/* Bytes of the implementation state the block functions can have written,
 * all that the one-shot and final wipe: STATE_WIPE words at most, and
 * STATE_WIPE_SHORT for a one-shot message below STATE_SHORT_LEN bytes.
 * x86_64 assembly: below 192 bytes of input only the scalar code runs,
 * which writes h, r, s1 and the power-cache word (52 bytes); longer calls
 * may use the whole 192-byte budget (the AVX-512 paths write past 128
 * bytes on long calls: test_poly1305_wipe found up to 18 bytes beyond
 * 128 left unwiped when this was 16 words).  C references: ref64 48 bytes, ref26 60.
 * Other assembly: the whole 192-byte budget.  test_poly1305_wipe checks
 * that nothing written is left after final, at every level. */
#if defined(ASMCRYPT_POLY1305_ASM) && (defined(__x86_64__) || defined(_M_X64))
# define STATE_WIPE        24
# define STATE_WIPE_SHORT  7
# define STATE_SHORT_LEN   192
#elif defined(ASMCRYPT_POLY1305_ASM)
# define STATE_WIPE        24
# define STATE_WIPE_SHORT  24
# define STATE_SHORT_LEN   0
#else
# define STATE_WIPE        8
# define STATE_WIPE_SHORT  8
# define STATE_SHORT_LEN   0
#endif

/* Record in ctx that the block functions are about to get len bytes. */
#if STATE_SHORT_LEN > 0
# define NOTE_LEN(ctx, len) \
    do { if (UNLIKELY((len) >= STATE_SHORT_LEN)) (ctx)->magic = POLY1305_MAGIC_WIDE; } while (0)
#else
# define NOTE_LEN(ctx, len) do { } while (0)
#endif

/* Set up the implementation state st (key r = key[0..15]) and pick the
 * block and emit functions: the assembly module's (its init may choose a
 * better pair for this CPU) when Configure enabled it, else the C
 * reference.  func[] is the pair {blocks, emit} as init stores it. */
static inline void state_init(uint64_t st[24], const unsigned char *key,
                              poly1305_blocks_f *blocks, poly1305_emit_f *emit)
{
#if defined(ASMCRYPT_POLY1305_ASM)
    void *func[2];

    if (poly1305_init(st, key, func)) {
        *blocks = (poly1305_blocks_f)func[0];
        *emit = (poly1305_emit_f)func[1];
    } else {
        *blocks = poly1305_blocks;
        *emit = poly1305_emit;
    }
#elif defined(ASMCRYPT_HAVE_INT128)
    poly1305_ref64_init(st, key);
    *blocks = poly1305_ref64_blocks;
    *emit = poly1305_ref64_emit;
#else
    poly1305_ref26_init(st, key);
    *blocks = poly1305_ref26_blocks;
    *emit = poly1305_ref26_emit;
#endif
}

impl_name_f poly1305_impl_name;

/* asmcrypt_impl("poly1305"): the name of the block function state_init
 * picks now (a throw-away init; the key is public zeros), from the
 * module's table (poly1305_names_<arch>.c), or "c". */
const char *poly1305_impl_name(const char *primitive)
{
#if defined(ASMCRYPT_POLY1305_ASM)
    static const unsigned char zero_key[16];
    uint64_t st[24];
    poly1305_blocks_f blocks;
    poly1305_emit_f emit;

    (void)primitive;
    state_init(st, zero_key, &blocks, &emit);
    return poly1305_asm_name(blocks);
#else
    (void)primitive;
    return "c";
#endif
}

/* s = key[16..31] as four little-endian words: one 16-byte copy where the
 * target is little-endian and loads at any alignment (x86_64, AArch64);
 * elsewhere through le32, whose byte pattern gcc merges into one load
 * where the ISA allows it (MIPS R6: 4 loads instead of a call to memcpy,
 * 32 instructions less per init). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    (defined(__x86_64__) || defined(__aarch64__))
# define NONCE_BY_COPY 1
#else
# define NONCE_BY_COPY 0
static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}
#endif

static inline void nonce_words(uint32_t nonce[4], const unsigned char key[32])
{
#if NONCE_BY_COPY
    memcpy(nonce, key + 16, 16);
#else
    int i;

    for (i = 0; i < 4; i++)
        nonce[i] = le32(key + 16 + 4 * i);
#endif
}

/* init: store the plain pair before poly1305_init (1) or only when it
 * returns 0 (0).  The pair's two addresses cost 4 instructions on ARM and
 * AArch64 (literal or page loads through the GOT), more than the test and
 * the register kept across the call that storing first saves, when init
 * picks NEON (the icount gate's armv7/thumb2 armv7-neon counts rose 3-4
 * with 1 there); on x86_64 and MIPS storing first is as short or shorter
 * and saves the test (x86_64: 16 B incremental about 2% faster). */
#if defined(__arm__) || defined(__aarch64__)
# define INIT_PAIR_FIRST 0
#else
# define INIT_PAIR_FIRST 1
#endif

/* ctx->blocks, ctx->emit form the func[2] pair poly1305_init writes */
typedef char blocks_emit_adjacent[
    offsetof(asmcrypt_poly1305_ctx, emit) ==
    offsetof(asmcrypt_poly1305_ctx, blocks) + sizeof(void *) &&
    sizeof(poly1305_blocks_f) == sizeof(void *) &&
    sizeof(poly1305_emit_f) == sizeof(void *) ? 1 : -1];

int asmcrypt_poly1305_init(asmcrypt_poly1305_ctx *ctx, const unsigned char key[32])
{
    if (ctx == NULL || key == NULL)
        return ASMCRYPT_ENULL;
    /* Fields only: every init writes all of the state it later reads, and
     * buf is read only below num (a 256-byte memset here was a fifth of a
     * 16-byte MAC).  The fields first, so that at most ctx lives across
     * the call. */
    nonce_words(ctx->nonce, key);
    ctx->num = 0;
    ctx->magic = POLY1305_MAGIC;
#if defined(ASMCRYPT_POLY1305_ASM)
    /* init stores its pair straight into ctx (blocks and emit are
     * adjacent pointers; checked at compile time above): a copy through a
     * local func[2] made GCC reload both with one 16-byte load of two
     * 8-byte stores, which the store buffer cannot forward. */
# if INIT_PAIR_FIRST
    /* The plain pair first; init overwrites it when it picks one (it
     * returns 1 then; every module returns 0 without writing func, the
     * OpenSSL convention: the MIPS64, R6 and pre-R2 builds run that
     * outcome).
     * So nothing is left to do after the call: no register kept across
     * it, no test of its result. */
    ctx->blocks = poly1305_blocks;
    ctx->emit = poly1305_emit;
    (void)poly1305_init(ctx->opaque, key, (void **)(void *)((unsigned char *)ctx +
                        offsetof(asmcrypt_poly1305_ctx, blocks)));
# else
    if (!poly1305_init(ctx->opaque, key, (void **)(void *)((unsigned char *)ctx +
                       offsetof(asmcrypt_poly1305_ctx, blocks)))) {
        ctx->blocks = poly1305_blocks;
        ctx->emit = poly1305_emit;
    }
# endif
#else
    state_init(ctx->opaque, key, &ctx->blocks, &ctx->emit);
#endif
    return ASMCRYPT_OK;
}

/* Copy or clear n < 16 bytes by constant-size pieces, which the compiler
 * inlines: a memcpy or memset of a variable length is a library call,
 * about as long as the block function on one block (the partial-block
 * paths of update and final).  n is a length, public. */
static inline void copy_short(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n & 8) {
        memcpy(d, s, 8);
        d += 8;
        s += 8;
    }
    if (n & 4) {
        memcpy(d, s, 4);
        d += 4;
        s += 4;
    }
    if (n & 2) {
        memcpy(d, s, 2);
        d += 2;
        s += 2;
    }
    if (n & 1)
        *d = *s;
}

static inline void clear_short(unsigned char *d, size_t n)
{
    if (n & 8) {
        memset(d, 0, 8);
        d += 8;
    }
    if (n & 4) {
        memset(d, 0, 4);
        d += 4;
    }
    if (n & 2) {
        memset(d, 0, 2);
        d += 2;
    }
    if (n & 1)
        *d = 0;
}

/* update past the NULL, size and magic checks, when num is not 0 or
 * len not a positive multiple of 16: the rest of the checks, then the
 * partial block to fill or to keep */
static NOINLINE int update_partial(asmcrypt_poly1305_ctx *ctx, const unsigned char *p,
                          size_t len, size_t num)
{
    size_t n;

    if (num >= 16)
        return ASMCRYPT_ESTATE;
    if (len == 0)
        return ASMCRYPT_OK;
    if (num > 0) {
        n = 16 - num;
        if (n > len)
            n = len;
        copy_short(ctx->buf + num, p, n);
        num += n;
        p += n;
        len -= n;
        if (num < 16) {
            ctx->num = num;
            return ASMCRYPT_OK;
        }
        ctx->blocks(ctx->opaque, ctx->buf, 16, 1);
        ctx->num = 0;
    }
    n = len & ~(size_t)15;
    if (n > 0) {
        NOTE_LEN(ctx, n);
        ctx->blocks(ctx->opaque, p, n, 1);
        p += n;
        len -= n;
    }
    if (len > 0) {
        copy_short(ctx->buf, p, len);
        ctx->num = len;
    }
    return ASMCRYPT_OK;
}

/* The checks keep their order (test_badinput); the usual outcome of each
 * is marked LIKELY, so that a call of whole blocks onto an empty buffer
 * falls through all of them to the block function with no branch taken. */
int asmcrypt_poly1305_update(asmcrypt_poly1305_ctx *ctx, const void *in, size_t len)
{
    size_t num;

    if (UNLIKELY(ctx == NULL) || (UNLIKELY(in == NULL) && len > 0))
        return ASMCRYPT_ENULL;
    if (UNLIKELY(!buffer_can_exist(in, len)))
        return ASMCRYPT_ESIZE;
    if (UNLIKELY(!MAGIC_OK(ctx->magic)))
        return ASMCRYPT_ESTATE;
    /* whole blocks onto an empty buffer (the usual case): straight on;
     * the rest (num >= 16 is ESTATE, len 0 a no-op) apart */
    num = ctx->num;
    if (UNLIKELY((num | (len & 15)) != 0 || len == 0))
        return update_partial(ctx, (const unsigned char *)in, len, num);
    NOTE_LEN(ctx, len);
    ctx->blocks(ctx->opaque, (const unsigned char *)in, len, 1);
    return ASMCRYPT_OK;
}

/* The fields after opaque (nonce, buf, num, blocks, emit, magic and the
 * padding) are contiguous whole words: final clears them with wipe_words,
 * 16-byte stores (4 on LP64 instead of 6 of mixed sizes; setting num,
 * blocks, emit and magic to 0 and NULL as before, all-bits-zero). */
#define TAIL_OFF    offsetof(asmcrypt_poly1305_ctx, nonce)
#define TAIL_WORDS  ((sizeof(asmcrypt_poly1305_ctx) - TAIL_OFF) / sizeof(uint64_t))
typedef char tail_is_whole_words[
    TAIL_OFF % sizeof(uint64_t) == 0 &&
    (sizeof(asmcrypt_poly1305_ctx) - TAIL_OFF) % sizeof(uint64_t) == 0 &&
    offsetof(asmcrypt_poly1305_ctx, magic) > TAIL_OFF ? 1 : -1];

/* final past the checks: the tag, then the wipe of the part of the state
 * the block functions can have written, and of the fields: s, the buffer,
 * the count, the function pair and magic (consumed: update and final now
 * refuse the context). */
static inline void final_emit(asmcrypt_poly1305_ctx *ctx, unsigned char tag[16])
{
    ctx->emit(ctx->opaque, tag, ctx->nonce);
    if (UNLIKELY(ctx->magic == POLY1305_MAGIC_WIDE))
        wipe_words(ctx->opaque, STATE_WIPE);
    else
        wipe_words(ctx->opaque, STATE_WIPE_SHORT);
    wipe_words((unsigned char *)ctx + TAIL_OFF, TAIL_WORDS);
}

/* final with num > 0: ESTATE for a corrupted count, else the partial
 * block (num bytes in buf) padded, then final_emit (apart, so that the
 * usual path keeps only ctx across its call) */
static NOINLINE int final_partial(asmcrypt_poly1305_ctx *ctx, unsigned char tag[16],
                                  size_t num)
{
    if (num >= 16)
        return ASMCRYPT_ESTATE;
    ctx->buf[num] = 1;
    clear_short(ctx->buf + num + 1, 16 - num - 1);
    ctx->blocks(ctx->opaque, ctx->buf, 16, 0);
    final_emit(ctx, tag);
    return ASMCRYPT_OK;
}

int asmcrypt_poly1305_final(asmcrypt_poly1305_ctx *ctx, unsigned char tag[16])
{
    size_t num;

    if (UNLIKELY(ctx == NULL || tag == NULL))
        return ASMCRYPT_ENULL;
    if (UNLIKELY(!MAGIC_OK(ctx->magic)))
        return ASMCRYPT_ESTATE;
    num = ctx->num;
    if (UNLIKELY(num != 0))
        return final_partial(ctx, tag, num);
    final_emit(ctx, tag);
    return ASMCRYPT_OK;
}

/* One-shot: the same computation as init/update/final, without the
 * context's buffering: whole blocks go straight from in to the block
 * function, only the final partial block is copied (and padded), and
 * only what holds key material is wiped: the state the block functions
 * can have written for this length, the nonce and that block. */
int asmcrypt_poly1305(unsigned char tag[16], const void *in, size_t len,
                      const unsigned char key[32])
{
    uint64_t st[24];
    uint32_t nonce[4];
    poly1305_blocks_f blocks;
    poly1305_emit_f emit;
    const unsigned char *p = (const unsigned char *)in;
    size_t full = len & ~(size_t)15, rest = len & 15;

    if (tag == NULL || key == NULL || (in == NULL && len > 0))
        return ASMCRYPT_ENULL;
    if (!buffer_can_exist(in, len))
        return ASMCRYPT_ESIZE;
    /* No memset first: every init writes all it later reads (the state
     * test runs init over a canary-filled state on every matrix row). */
    state_init(st, key, &blocks, &emit);
    nonce_words(nonce, key);
    if (full > 0)
        blocks(st, p, full, 1);
    if (rest > 0) {
        unsigned char last[16];

        memcpy(last, p + full, rest);
        last[rest] = 1;
        memset(last + rest + 1, 0, 16 - rest - 1);
        blocks(st, last, 16, 0);
        wipe(last, sizeof(last));
    }
    emit(st, tag, nonce);
#if STATE_SHORT_LEN > 0
    if (len < STATE_SHORT_LEN)
        wipe_words(st, STATE_WIPE_SHORT);
    else
#endif
        wipe_words(st, STATE_WIPE);
    wipe(nonce, sizeof(nonce));
    return ASMCRYPT_OK;
}
