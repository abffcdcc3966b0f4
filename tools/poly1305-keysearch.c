/*
 * tools/poly1305-keysearch.c - find a clamped Poly1305 r whose power r^k
 * mod p (p = 2^130-5, k = 2, 3 or 4) has its low 64-bit word in
 * [2^64-5, 2^64).  With such a power the AArch64 NEON key-power code
 * reaches the middle-word select of its final "h >= p" step with a carry
 * in it (docs/mutation.md, issue 14 gap 5); random keys get there with
 * probability about 2^-62.
 *
 *   cc -O2 -o keysearch tools/poly1305-keysearch.c
 *   ./keysearch K [SEED]        prints "k=K seed=S tries=N r=<32 hex digits>"
 *
 * Method: draw t < p with the wanted low word and random upper bits, take
 * its k-th roots mod p (p = 3 mod 4: a square root is t^((p+1)/4); 3 does
 * not divide p-1, so the cube root is t^d, 3d = 1 mod p-1; a fourth root
 * is a square root of the square root that is itself a square), and keep a
 * root that the clamp leaves unchanged (22 bits zero and r < 2^124:
 * about 2^-28 per root).  Deterministic for a given seed.  The result is
 * not trusted: test/gen_vectors.pl checks the power with Math::BigInt.
 * A host tool (unsigned __int128, GCC and clang); not part of the library.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef unsigned __int128 u128;

/* field element: three limbs of 44, 44, 42 bits, fully reduced on output
 * of fe_canon only */
typedef struct { uint64_t l[3]; } fe;

#define M44 ((((uint64_t)1) << 44) - 1)
#define M42 ((((uint64_t)1) << 42) - 1)

static fe fe_mul(fe a, fe b)
{
    u128 d0, d1, d2;
    uint64_t b1x = b.l[1] * 20, b2x = b.l[2] * 20, c;
    fe r;

    d0 = (u128)a.l[0] * b.l[0] + (u128)a.l[1] * b2x + (u128)a.l[2] * b1x;
    d1 = (u128)a.l[0] * b.l[1] + (u128)a.l[1] * b.l[0] + (u128)a.l[2] * b2x;
    d2 = (u128)a.l[0] * b.l[2] + (u128)a.l[1] * b.l[1] + (u128)a.l[2] * b.l[0];
    c = (uint64_t)(d0 >> 44); r.l[0] = (uint64_t)d0 & M44;
    d1 += c; c = (uint64_t)(d1 >> 44); r.l[1] = (uint64_t)d1 & M44;
    d2 += c; c = (uint64_t)(d2 >> 42); r.l[2] = (uint64_t)d2 & M42;
    r.l[0] += c * 5;
    c = r.l[0] >> 44; r.l[0] &= M44;
    r.l[1] += c;
    return r;
}

static fe fe_sqrn(fe a, int n)
{
    while (n-- > 0)
        a = fe_mul(a, a);
    return a;
}

/* the unique representative below p, in place (limbs < 2^44, 2^44, 2^42) */
static fe fe_reduce(fe a)
{
    uint64_t c, g0, g1, g2, mask;

    c = a.l[1] >> 44; a.l[1] &= M44; a.l[2] += c;
    c = a.l[2] >> 42; a.l[2] &= M42; a.l[0] += c * 5;
    c = a.l[0] >> 44; a.l[0] &= M44; a.l[1] += c;
    c = a.l[1] >> 44; a.l[1] &= M44; a.l[2] += c;
    /* a < 2^130 + small; subtract p when a >= p, i.e. a + 5 >= 2^130 */
    g0 = a.l[0] + 5; c = g0 >> 44; g0 &= M44;
    g1 = a.l[1] + c; c = g1 >> 44; g1 &= M44;
    g2 = a.l[2] + c - (((uint64_t)1) << 42);
    mask = (g2 >> 63) - 1;          /* all ones when a >= p */
    a.l[0] = (a.l[0] & ~mask) | (g0 & mask);
    a.l[1] = (a.l[1] & ~mask) | (g1 & mask);
    a.l[2] = (a.l[2] & ~mask) | (g2 & mask);
    return a;
}

/* bits 0..63, 64..127, 128..129 of the representative below p */
static void fe_words(fe a, uint64_t w[3])
{
    a = fe_reduce(a);
    w[0] = a.l[0] | a.l[1] << 44;
    w[1] = a.l[1] >> 20 | a.l[2] << 24;
    w[2] = a.l[2] >> 40;
}

static fe fe_from(uint64_t lo, uint64_t mid)      /* lo + mid 2^64 */
{
    fe a;

    a.l[0] = lo & M44;
    a.l[1] = (lo >> 44 | mid << 20) & M44;
    a.l[2] = mid >> 24;
    return a;
}

static int fe_eq(fe a, fe b)
{
    a = fe_reduce(a);
    b = fe_reduce(b);
    return a.l[0] == b.l[0] && a.l[1] == b.l[1] && a.l[2] == b.l[2];
}

static fe fe_neg(fe a)            /* p - a, limb by limb with borrows */
{
    fe r;
    uint64_t b;

    a = fe_reduce(a);
    r.l[0] = (M44 - 4) - a.l[0];               /* p = (2^44-5) + (2^44-1) 2^44 + (2^42-1) 2^88 */
    b = r.l[0] >> 63;
    r.l[0] += b << 44;
    r.l[1] = M44 - a.l[1] - b;
    b = r.l[1] >> 63;
    r.l[1] += b << 44;
    r.l[2] = M42 - a.l[2] - b;
    return r;
}

/* a^(2^128-1) = a^((p+1)/4) */
static fe fe_pow_sqrt(fe a)
{
    fe t = a;
    int n;

    for (n = 1; n < 128; n *= 2)
        t = fe_mul(fe_sqrn(t, n), t);   /* a^(2^(2n)-1) */
    return t;
}

/* a^d with d = (2^131 - 11) / 3 (3d = 1 mod p-1), 4-bit windows */
static fe fe_pow_cbrt(fe a)
{
    /* d in hex, big-endian nibbles: computed below from 2^131-11 */
    static unsigned char nib[33];
    static int ready;
    fe tab[16], r;
    int i;

    if (!ready) {
        /* (2^131 - 11) / 3 by long division on nibbles of 2^131 - 11 */
        unsigned char x[33];
        unsigned rem = 0;

        x[0] = 7;                       /* 2^131 - 11 = 0x7ff...ff5 (33 nibbles) */
        for (i = 1; i < 32; i++)
            x[i] = 15;
        x[32] = 5;
        for (i = 0; i < 33; i++) {
            unsigned cur = rem * 16 + x[i];
            nib[i] = (unsigned char)(cur / 3);
            rem = cur % 3;
        }
        if (rem != 0) {
            fprintf(stderr, "keysearch: 3 does not divide 2^131-11\n");
            exit(2);
        }
        ready = 1;
    }
    tab[0] = fe_from(1, 0);
    for (i = 1; i < 16; i++)
        tab[i] = fe_mul(tab[i - 1], a);
    r = tab[nib[0]];
    for (i = 1; i < 33; i++)
        r = fe_mul(fe_sqrn(r, 4), tab[nib[i]]);
    return r;
}

static uint64_t rng_state;
static uint64_t rnd(void)             /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* the clamp: r & 0x0ffffffc0ffffffc0ffffffc0fffffff == r */
static int clamp_ok(fe r, uint64_t w[3])
{
    fe_words(r, w);
    return (w[0] & ~0x0ffffffc0fffffffULL) == 0 && (w[1] & ~0x0ffffffc0ffffffcULL) == 0 &&
           w[2] == 0;
}

static int found(int k, unsigned long long seed, unsigned long long tries, fe r, fe t)
{
    uint64_t w[3];
    fe p = r;
    int i;

    if (!clamp_ok(r, w))
        return 0;
    for (i = 1; i < k; i++)
        p = fe_mul(p, r);
    if (!fe_eq(p, t))
        return 0;
    printf("k=%d seed=%llu tries=%llu r=%016llx%016llx\n", k, seed, tries,
           (unsigned long long)w[1], (unsigned long long)w[0]);
    return 1;
}

int main(int argc, char **argv)
{
    int k = argc > 1 ? atoi(argv[1]) : 0;
    unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1, tries;

    if (k < 2 || k > 4) {
        fprintf(stderr, "usage: %s K [SEED]   (K = 2, 3 or 4)\n", argv[0]);
        return 2;
    }
    rng_state = seed;
    for (tries = 1;; tries++) {
        /* t = lo + mid 2^64 < 2^128 < p, lo in [2^64-5, 2^64) */
        uint64_t lo = (uint64_t)0 - 1 - rnd() % 5, mid = rnd();
        fe t = fe_from(lo, mid), y, z;

        if (k == 3) {
            if (found(k, seed, tries, fe_pow_cbrt(t), t))
                return 0;
            continue;
        }
        y = fe_pow_sqrt(t);
        if (!fe_eq(fe_mul(y, y), t))
            continue;                                    /* t not a square */
        if (k == 2) {
            if (found(k, seed, tries, y, t) || found(k, seed, tries, fe_neg(y), t))
                return 0;
            continue;
        }
        /* k = 4: of the roots +-y of t exactly one is a square (p = 3 mod 4) */
        z = fe_pow_sqrt(y);
        if (!fe_eq(fe_mul(z, z), y)) {
            y = fe_neg(y);
            z = fe_pow_sqrt(y);
        }
        if (found(k, seed, tries, z, t) || found(k, seed, tries, fe_neg(z), t))
            return 0;
    }
}
