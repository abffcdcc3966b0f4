/*
 * crypto/poly1305/poly1305_ref26.c - Poly1305 C reference in radix 2^26.
 *
 * h and r are five 26-bit limbs in 32-bit words; each block is
 * h = (h + m) * r mod 2^130-5 with 25 32x32->64 products.  The product
 * limbs above 2^130 fold back multiplied by 5 (2^130 = 5 mod p), which is
 * why 5*r1..5*r4 are kept.  Carries are propagated once per block (h stays
 * partially reduced, below 2^130 + 2^27); emit reduces fully.  No branch
 * or address depends on the key, the message or h.  Works on any target.
 */
#include <string.h>
#include "internal.h"

#define M26 0x3ffffffu

typedef struct {
    uint32_t h[5];
    uint32_t r[5];
    uint32_t r5[5];     /* 5 * r[i]; r5[0] unused */
} ref26_state;

typedef char ref26_state_fits[sizeof(ref26_state) <= 192 ? 1 : -1];

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

int poly1305_ref26_init(void *ctx, const unsigned char key[16])
{
    ref26_state *st = (ref26_state *)ctx;
    uint32_t k0, k1, k2, k3;
    int i;

    for (i = 0; i < 5; i++)
        st->h[i] = 0;
    if (key == NULL)
        return 0;

    /* clamp: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff */
    k0 = le32(key) & 0x0fffffffu;
    k1 = le32(key + 4) & 0x0ffffffcu;
    k2 = le32(key + 8) & 0x0ffffffcu;
    k3 = le32(key + 12) & 0x0ffffffcu;

    st->r[0] = k0 & M26;
    st->r[1] = ((k0 >> 26) | (k1 << 6)) & M26;
    st->r[2] = ((k1 >> 20) | (k2 << 12)) & M26;
    st->r[3] = ((k2 >> 14) | (k3 << 18)) & M26;
    st->r[4] = k3 >> 8;
    for (i = 0; i < 5; i++)
        st->r5[i] = st->r[i] * 5;
    return 0;
}

void poly1305_ref26_blocks(void *ctx, const unsigned char *inp, size_t len,
                           unsigned int padbit)
{
    ref26_state *st = (ref26_state *)ctx;
    const uint32_t *r = st->r, *s = st->r5;
    uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];
    uint32_t hibit = (uint32_t)(padbit != 0) << 24;
    uint64_t d0, d1, d2, d3, d4, c;

    while (len >= 16) {
        uint32_t m0 = le32(inp), m1 = le32(inp + 4), m2 = le32(inp + 8),
                 m3 = le32(inp + 12);

        /* h += m (plus 2^128 when padbit) */
        h0 += m0 & M26;
        h1 += ((m0 >> 26) | (m1 << 6)) & M26;
        h2 += ((m1 >> 20) | (m2 << 12)) & M26;
        h3 += ((m2 >> 14) | (m3 << 18)) & M26;
        h4 += (m3 >> 8) | hibit;

        /* d = h * r, limbs above 2^130 folded back times 5 */
        d0 = (uint64_t)h0 * r[0] + (uint64_t)h1 * s[4] + (uint64_t)h2 * s[3] +
             (uint64_t)h3 * s[2] + (uint64_t)h4 * s[1];
        d1 = (uint64_t)h0 * r[1] + (uint64_t)h1 * r[0] + (uint64_t)h2 * s[4] +
             (uint64_t)h3 * s[3] + (uint64_t)h4 * s[2];
        d2 = (uint64_t)h0 * r[2] + (uint64_t)h1 * r[1] + (uint64_t)h2 * r[0] +
             (uint64_t)h3 * s[4] + (uint64_t)h4 * s[3];
        d3 = (uint64_t)h0 * r[3] + (uint64_t)h1 * r[2] + (uint64_t)h2 * r[1] +
             (uint64_t)h3 * r[0] + (uint64_t)h4 * s[4];
        d4 = (uint64_t)h0 * r[4] + (uint64_t)h1 * r[3] + (uint64_t)h2 * r[2] +
             (uint64_t)h3 * r[1] + (uint64_t)h4 * r[0];

        /* one carry pass, the top carry wraps around times 5 */
        c = d0 >> 26; h0 = (uint32_t)d0 & M26; d1 += c;
        c = d1 >> 26; h1 = (uint32_t)d1 & M26; d2 += c;
        c = d2 >> 26; h2 = (uint32_t)d2 & M26; d3 += c;
        c = d3 >> 26; h3 = (uint32_t)d3 & M26; d4 += c;
        c = d4 >> 26; h4 = (uint32_t)d4 & M26;
        c = h0 + c * 5;
        h0 = (uint32_t)c & M26;
        h1 += (uint32_t)(c >> 26);

        inp += 16;
        len -= 16;
    }
    st->h[0] = h0; st->h[1] = h1; st->h[2] = h2; st->h[3] = h3; st->h[4] = h4;
}

void poly1305_ref26_emit(void *ctx, unsigned char mac[16], const unsigned int nonce[4])
{
    ref26_state *st = (ref26_state *)ctx;
    uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];
    uint32_t g0, g1, g2, g3, g4, c, mask, w[4];
    uint64_t f;
    int i;

    /* full carry: afterwards h < 2^130 + 5*small, limbs below 2^26
     * except h1 which may reach 2^26 */
    c = h1 >> 26; h1 &= M26; h2 += c;
    c = h2 >> 26; h2 &= M26; h3 += c;
    c = h3 >> 26; h3 &= M26; h4 += c;
    c = h4 >> 26; h4 &= M26; h0 += c * 5;
    c = h0 >> 26; h0 &= M26; h1 += c;

    /* g = h + 5 - 2^130; if it did not go negative, h >= p: use g */
    g0 = h0 + 5;  c = g0 >> 26; g0 &= M26;
    g1 = h1 + c;  c = g1 >> 26; g1 &= M26;
    g2 = h2 + c;  c = g2 >> 26; g2 &= M26;
    g3 = h3 + c;  c = g3 >> 26; g3 &= M26;
    g4 = h4 + c - (1u << 26);
    mask = (g4 >> 31) - 1;              /* ones when g4 >= 0 */
    h0 = (h0 & ~mask) | (g0 & mask);
    h1 = (h1 & ~mask) | (g1 & mask);
    h2 = (h2 & ~mask) | (g2 & mask);
    h3 = (h3 & ~mask) | (g3 & mask);
    h4 = (h4 & ~mask) | (g4 & mask);

    /* normalise (h < p < 2^130, no wrap needed), then pack into 32-bit words */
    c = h1 >> 26; h1 &= M26; h2 += c;
    c = h2 >> 26; h2 &= M26; h3 += c;
    c = h3 >> 26; h3 &= M26; h4 += c;
    w[0] = h0 | (h1 << 26);
    w[1] = (h1 >> 6) | (h2 << 20);
    w[2] = (h2 >> 12) | (h3 << 14);
    w[3] = (h3 >> 18) | (h4 << 8);

    /* tag = h + s mod 2^128, stored byte by byte */
    f = 0;
    for (i = 0; i < 4; i++) {
        f += (uint64_t)w[i] + nonce[i];
        w[i] = (uint32_t)f;
        f >>= 32;
    }
    for (i = 0; i < 16; i++)
        mac[i] = (unsigned char)(w[i / 4] >> (8 * (i % 4)));
}
