/*
 * crypto/poly1305/poly1305_api.c - the public Poly1305 API: one-shot and
 * incremental on asmcrypt_poly1305_ctx.  Partial blocks are buffered
 * here; the final partial block is padded with 0x01 and zeros and passed
 * alone with padbit 0.  The block function is the assembly module's (its
 * init may pick a better pair for this CPU) when Configure enabled it,
 * else the C reference: radix 2^64 where the compiler has __int128,
 * radix 2^26 otherwise.
 */
#include <string.h>
#include "internal.h"

#define POLY1305_MAGIC 0x31303550u   /* "P501" */

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

/* The one-shot's 192-byte state: 16-byte stores through a volatile pointer
 * (GCC turns a 192-byte memset into rep stosq, whose start-up alone is
 * ~30 cycles, as much as the whole MAC of a 16-byte message). */
typedef uint64_t wipe_pair __attribute__((vector_size(16), aligned(8)));

static inline void wipe_words(uint64_t *p, size_t n)
{
    volatile wipe_pair *v = (volatile wipe_pair *)p;
    const wipe_pair z = { 0, 0 };
    size_t i;

    for (i = 0; i < n / 2; i++)
        v[i] = z;
    if (n & 1)
        ((volatile uint64_t *)p)[n - 1] = 0;
}
#else
static void wipe(void *p, size_t len)
{
    static void *(*const volatile set)(void *, int, size_t) = memset;

    set(p, 0, len);
}

static void wipe_words(uint64_t *p, size_t n)
{
    wipe(p, n * sizeof(*p));
}
#endif

/* 0 for a length no buffer at in can have: above PTRDIFF_MAX (no object
 * is that large, C11 7.20.3) or wrapping around the address space. */
static int buffer_can_exist(const void *in, size_t len)
{
    return len <= (size_t)PTRDIFF_MAX && len <= SIZE_MAX - (uintptr_t)in;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* Set up the implementation state st (key r = key[0..15]) and pick the
 * block and emit functions: the assembly module's (its init may choose a
 * better pair for this CPU) when Configure enabled it, else the C
 * reference. */
static void state_init(uint64_t st[24], const unsigned char *key,
                       poly1305_blocks_f *blocks, poly1305_emit_f *emit)
{
#if defined(ASMCRYPT_POLY1305_ASM)
    void *func[2] = { NULL, NULL };

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

static void nonce_words(uint32_t nonce[4], const unsigned char key[32])
{
    int i;

    for (i = 0; i < 4; i++)
        nonce[i] = le32(key + 16 + 4 * i);
}

int asmcrypt_poly1305_init(asmcrypt_poly1305_ctx *ctx, const unsigned char key[32])
{
    if (ctx == NULL || key == NULL)
        return ASMCRYPT_ENULL;
    /* Fields only: every init writes all of the state it later reads
     * (a 256-byte memset here was a fifth of a 16-byte MAC). */
    memset(ctx->buf, 0, sizeof(ctx->buf));
    state_init(ctx->opaque, key, &ctx->blocks, &ctx->emit);
    nonce_words(ctx->nonce, key);
    ctx->num = 0;
    ctx->magic = POLY1305_MAGIC;
    return ASMCRYPT_OK;
}

int asmcrypt_poly1305_update(asmcrypt_poly1305_ctx *ctx, const void *in, size_t len)
{
    const unsigned char *p = (const unsigned char *)in;
    size_t n;

    if (ctx == NULL || (in == NULL && len > 0))
        return ASMCRYPT_ENULL;
    if (!buffer_can_exist(in, len))
        return ASMCRYPT_ESIZE;
    if (ctx->magic != POLY1305_MAGIC || ctx->num >= 16)
        return ASMCRYPT_ESTATE;
    if (len == 0)
        return ASMCRYPT_OK;

    if (ctx->num > 0) {
        n = 16 - ctx->num;
        if (n > len)
            n = len;
        memcpy(ctx->buf + ctx->num, p, n);
        ctx->num += n;
        p += n;
        len -= n;
        if (ctx->num < 16)
            return ASMCRYPT_OK;
        ctx->blocks(ctx->opaque, ctx->buf, 16, 1);
        ctx->num = 0;
    }
    n = len & ~(size_t)15;
    if (n > 0) {
        ctx->blocks(ctx->opaque, p, n, 1);
        p += n;
        len -= n;
    }
    if (len > 0) {
        memcpy(ctx->buf, p, len);
        ctx->num = len;
    }
    return ASMCRYPT_OK;
}

int asmcrypt_poly1305_final(asmcrypt_poly1305_ctx *ctx, unsigned char tag[16])
{
    if (ctx == NULL || tag == NULL)
        return ASMCRYPT_ENULL;
    if (ctx->magic != POLY1305_MAGIC || ctx->num >= 16)
        return ASMCRYPT_ESTATE;

    if (ctx->num > 0) {
        ctx->buf[ctx->num] = 1;
        memset(ctx->buf + ctx->num + 1, 0, 16 - ctx->num - 1);
        ctx->blocks(ctx->opaque, ctx->buf, 16, 0);
    }
    ctx->emit(ctx->opaque, tag, ctx->nonce);
    wipe_words(ctx->opaque, sizeof(ctx->opaque) / sizeof(ctx->opaque[0]));
    wipe(ctx->nonce, sizeof(ctx->nonce));
    wipe(ctx->buf, sizeof(ctx->buf));
    ctx->num = 0;
    ctx->blocks = NULL;
    ctx->emit = NULL;
    ctx->magic = 0;             /* consumed: update/final now refuse */
    return ASMCRYPT_OK;
}

/* One-shot: the same computation as init/update/final, without the
 * context's buffering: whole blocks go straight from in to the block
 * function, only the final partial block is copied (and padded), and
 * only the state, the nonce and that block are wiped. */
int asmcrypt_poly1305(unsigned char tag[16], const void *in, size_t len,
                      const unsigned char key[32])
{
    uint64_t st[24];
    uint32_t nonce[4];
    unsigned char last[16];
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
        memcpy(last, p + full, rest);
        last[rest] = 1;
        memset(last + rest + 1, 0, 16 - rest - 1);
        blocks(st, last, 16, 0);
        wipe(last, sizeof(last));
    }
    emit(st, tag, nonce);
    wipe_words(st, sizeof(st) / sizeof(st[0]));
    wipe(nonce, sizeof(nonce));
    return ASMCRYPT_OK;
}
