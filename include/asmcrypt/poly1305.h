/*
 * asmcrypt/poly1305.h - Poly1305 one-time authenticator (RFC 8439).
 *
 * key[0..15] is r (clamped inside), key[16..31] is s.  The tag is
 * ((message polynomial evaluated at r) mod 2^130-5 + s) mod 2^128.
 *
 * All functions return 0 on success or a negative ASMCRYPT_E* code
 * (asmcrypt/err.h); on error nothing is written (not the tag, not the
 * context), checked in this order:
 *   ASMCRYPT_ENULL   ctx, key or tag is NULL, or in is NULL with len > 0
 *                    (in may be NULL when len is 0)
 *   ASMCRYPT_ESIZE   len above PTRDIFF_MAX, or in + len wraps around the
 *                    address space (no such buffer can exist)
 *   ASMCRYPT_ESTATE  update/final on a context that init did not set up
 *                    (or that final already consumed, or whose buffer
 *                    count is corrupted)
 * An error leaves a live context usable.  len is any size_t, but in must
 * point to len readable bytes.
 * A context holds no pointers to caller memory and may be copied.
 * final wipes the context.
 *
 * Aliasing: the one-shot reads all of in and key before it writes tag, so
 * tag may overlap in and key in any way, and in and key may overlap.
 * final writes the tag last of what it reads from the caller, so it may
 * overlap an earlier message.  key, in and tag must not lie inside the
 * context itself (not checked: init reads key after it clears the buffer,
 * final wipes the context after it writes the tag).
 */
#ifndef ASMCRYPT_POLY1305_H
#define ASMCRYPT_POLY1305_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
# define ASMCRYPT_ALIGN64 __attribute__((aligned(64)))
#else
# define ASMCRYPT_ALIGN64
#endif

typedef struct asmcrypt_poly1305_ctx {
    /* Implementation state: accumulator h, key r and, for vector paths,
     * a few cached powers of r.  Layout belongs to the active
     * implementation; every implementation writes at most these 192
     * bytes (the importers' budget, DESIGN.md) and needs only 8-byte
     * alignment. */
    uint64_t opaque[24];                           /* 192 bytes */
    uint32_t nonce[4];                             /* s as four LE words */
    unsigned char buf[16];                         /* partial block */
    size_t num;                                    /* bytes in buf */
    void (*blocks)(void *, const unsigned char *, size_t, unsigned int);
    void (*emit)(void *, unsigned char *, const unsigned int *);
    uint32_t magic;                                /* set by init */
} asmcrypt_poly1305_ctx;

int asmcrypt_poly1305_init(asmcrypt_poly1305_ctx *ctx, const unsigned char key[32]);
int asmcrypt_poly1305_update(asmcrypt_poly1305_ctx *ctx, const void *in, size_t len);
int asmcrypt_poly1305_final(asmcrypt_poly1305_ctx *ctx, unsigned char tag[16]);
int asmcrypt_poly1305(unsigned char tag[16], const void *in, size_t len,
                      const unsigned char key[32]);

#ifdef __cplusplus
}
#endif

#endif
