/*
 * crypto/poly1305/poly1305_ref64.c - Poly1305 C reference in radix 2^64.
 *
 * h = h0 + h1 2^64 + h2 2^128 (h2 a few bits), r = r0 + r1 2^64.  The
 * clamp makes r1 a multiple of 4, so the product terms at 2^128 * 2^64
 * fold back as 2^130 = 5 mod p with s1 = r1 + r1/4 = 5 r1 / 4 exactly:
 *   d0 = h0 r0 + h1 s1
 *   d1 = h0 r1 + h1 r0 + h2 s1
 *   d2 = h2 r0
 * then the bits of d2 above 2^130 - 2^128 fold back times 5.  Needs
 * unsigned __int128 (built only where the compiler has it).  Constant time.
 */
#include "internal.h"

#if defined(ASMCRYPT_HAVE_INT128)

typedef unsigned __int128 u128;

typedef struct {
    uint64_t h[3];
    uint64_t r[2];
    uint64_t s1;
} ref64_state;

typedef char ref64_state_fits[sizeof(ref64_state) <= 192 ? 1 : -1];

/* spelled out byte by byte so compilers merge it into one load where the
 * target allows unaligned little-endian loads */
static inline uint64_t le64(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
           (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

int poly1305_ref64_init(void *ctx, const unsigned char key[16])
{
    ref64_state *st = (ref64_state *)ctx;

    st->h[0] = st->h[1] = st->h[2] = 0;
    if (key == NULL)
        return 0;
    st->r[0] = le64(key) & 0x0ffffffc0fffffffull;
    st->r[1] = le64(key + 8) & 0x0ffffffc0ffffffcull;
    st->s1 = st->r[1] + (st->r[1] >> 2);
    return 0;
}

void poly1305_ref64_blocks(void *ctx, const unsigned char *inp, size_t len,
                           unsigned int padbit)
{
    ref64_state *st = (ref64_state *)ctx;
    uint64_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
    const uint64_t r0 = st->r[0], r1 = st->r[1], s1 = st->s1;
    uint64_t pb = padbit != 0, c, m0, m1;
    u128 d0, d1;

    while (len >= 16) {
        /* h += m + padbit 2^128 (carries as compares: setb/sltu, no branch) */
        m0 = le64(inp);
        m1 = le64(inp + 8);
        h0 += m0;
        c = h0 < m0;
        h1 += c;
        c = h1 < c;
        h1 += m1;
        c += h1 < m1;
        h2 += c + pb;

        /* h *= r (h2 <= 7, r0,r1 < 2^60: no overflow) */
        d0 = (u128)h0 * r0 + (u128)h1 * s1;
        d1 = (u128)h0 * r1 + (u128)h1 * r0 + (u128)h2 * s1 + (uint64_t)(d0 >> 64);
        h0 = (uint64_t)d0;
        h1 = (uint64_t)d1;
        h2 = h2 * r0 + (uint64_t)(d1 >> 64);

        /* fold bits above 2^130: c = 5 * (h2 >> 2) */
        c = (h2 & ~(uint64_t)3) + (h2 >> 2);
        h2 &= 3;
        h0 += c;
        c = h0 < c;
        h1 += c;
        c = h1 < c;
        h2 += c;

        inp += 16;
        len -= 16;
    }
    st->h[0] = h0; st->h[1] = h1; st->h[2] = h2;
}

void poly1305_ref64_emit(void *ctx, unsigned char mac[16], const unsigned int nonce[4])
{
    ref64_state *st = (ref64_state *)ctx;
    uint64_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
    uint64_t g0, g1, g2, mask;
    u128 t;
    int i;

    /* g = h + 5; h < 2p, so g >= 2^130 exactly when h >= p */
    t = (u128)h0 + 5;
    g0 = (uint64_t)t;
    t = (u128)h1 + (uint64_t)(t >> 64);
    g1 = (uint64_t)t;
    g2 = h2 + (uint64_t)(t >> 64);
    mask = (uint64_t)0 - (g2 >> 2);
    h0 = (h0 & ~mask) | (g0 & mask);
    h1 = (h1 & ~mask) | (g1 & mask);

    /* + s mod 2^128 */
    t = (u128)h0 + ((uint64_t)nonce[0] | (uint64_t)nonce[1] << 32);
    h0 = (uint64_t)t;
    h1 += ((uint64_t)nonce[2] | (uint64_t)nonce[3] << 32) + (uint64_t)(t >> 64);

    for (i = 0; i < 8; i++) {
        mac[i] = (unsigned char)(h0 >> (8 * i));
        mac[8 + i] = (unsigned char)(h1 >> (8 * i));
    }
}

#else
typedef int poly1305_ref64_unused;  /* ISO C forbids an empty unit */
#endif
