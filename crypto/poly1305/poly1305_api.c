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

/* memset through a volatile function pointer, so it is never dropped */
static void wipe(void *p, size_t len)
{
    static void *(*const volatile set)(void *, int, size_t) = memset;

    set(p, 0, len);
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

int asmcrypt_poly1305_init(asmcrypt_poly1305_ctx *ctx, const unsigned char key[32])
{
    int i;

    if (ctx == NULL || key == NULL)
        return ASMCRYPT_ENULL;
    memset(ctx, 0, sizeof(*ctx));
#if defined(ASMCRYPT_POLY1305_ASM)
    {
        void *func[2] = { NULL, NULL };

        if (poly1305_init(ctx->opaque, key, func)) {
            ctx->blocks = (poly1305_blocks_f)func[0];
            ctx->emit = (poly1305_emit_f)func[1];
        } else {
            ctx->blocks = poly1305_blocks;
            ctx->emit = poly1305_emit;
        }
    }
#elif defined(ASMCRYPT_HAVE_INT128)
    poly1305_ref64_init(ctx->opaque, key);
    ctx->blocks = poly1305_ref64_blocks;
    ctx->emit = poly1305_ref64_emit;
#else
    poly1305_ref26_init(ctx->opaque, key);
    ctx->blocks = poly1305_ref26_blocks;
    ctx->emit = poly1305_ref26_emit;
#endif
    for (i = 0; i < 4; i++)
        ctx->nonce[i] = le32(key + 16 + 4 * i);
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
    wipe(ctx, sizeof(*ctx));
    return ASMCRYPT_OK;
}

int asmcrypt_poly1305(unsigned char tag[16], const void *in, size_t len,
                      const unsigned char key[32])
{
    asmcrypt_poly1305_ctx ctx;
    int rc;

    if (tag == NULL || key == NULL || (in == NULL && len > 0))
        return ASMCRYPT_ENULL;
    rc = asmcrypt_poly1305_init(&ctx, key);
    if (rc == ASMCRYPT_OK)
        rc = asmcrypt_poly1305_update(&ctx, in, len);
    if (rc == ASMCRYPT_OK)
        rc = asmcrypt_poly1305_final(&ctx, tag);     /* wipes ctx */
    else
        wipe(&ctx, sizeof(ctx));
    return rc;
}
