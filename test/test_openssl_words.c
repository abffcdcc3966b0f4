/*
 * test/test_openssl_words.c - the functions x86_64-words provides only
 * for OpenSSL's crypto/bn (it replaces OpenSSL's x86_64-gcc.c there):
 * bn_mul_comba4/8, bn_sqr_comba4/8 and bn_div_words.  asmcrypt itself
 * never calls them, so nothing else runs them (the mutation run of
 * docs/mutation.md left dropped carries in them alive).  They are
 * checked against a schoolbook product and a 128-bit division in C on
 * random, all-ones and single-bit operands.  Other targets take these
 * functions from OpenSSL's own files: the program checks nothing there.
 */
#include <string.h>
#include "internal.h"
#include "util.h"

#if defined(__x86_64__) && defined(ASMCRYPT_BN_WORDS_ASM)
typedef unsigned long long u64;
typedef unsigned __int128 u128;

void bn_mul_comba4(u64 *r, const u64 *a, const u64 *b);
void bn_mul_comba8(u64 *r, const u64 *a, const u64 *b);
void bn_sqr_comba4(u64 *r, const u64 *a);
void bn_sqr_comba8(u64 *r, const u64 *a);
u64 bn_div_words(u64 h, u64 l, u64 d);

/* r[0..2n-1] = a * b, one row per a[i] */
static void schoolbook(u64 *r, const u64 *a, const u64 *b, int n)
{
    int i, j;

    memset(r, 0, 2 * (size_t)n * sizeof(*r));
    for (i = 0; i < n; i++) {
        u64 c = 0;
        for (j = 0; j < n; j++) {
            u128 t = (u128)a[i] * b[j] + r[i + j] + c;
            r[i + j] = (u64)t;
            c = (u64)(t >> 64);
        }
        r[i + n] = c;
    }
}

/* operand shapes: 0 random, 1 all ones, 2 one random word of all ones,
 * 3 a single set bit per word, 4 top word only */
static void shape_words(u64 *a, int n, int shape)
{
    int i;

    for (i = 0; i < n; i++) {
        switch (shape) {
        case 0:  a[i] = tu_rand64(); break;
        case 1:  a[i] = ~0ull; break;
        case 2:  a[i] = tu_rand64() | ((tu_rand64() & 1) ? ~0ull : 0); break;
        case 3:  a[i] = 1ull << (tu_rand64() & 63); break;
        default: a[i] = i == n - 1 ? tu_rand64() | (1ull << 63) : 0; break;
        }
    }
}

static void check_comba(int n, int shape_a, int shape_b)
{
    u64 a[8], b[8], want[16 + 2], got[16 + 2];
    const u64 guard = 0x5a5a5a5a5a5a5a5aull;

    shape_words(a, n, shape_a);
    shape_words(b, n, shape_b);
    got[2 * n] = got[2 * n + 1] = guard;
    schoolbook(want, a, b, n);
    (n == 4 ? bn_mul_comba4 : bn_mul_comba8)(got, a, b);
    CHECK(memcmp(got, want, 2 * (size_t)n * 8) == 0 && got[2 * n] == guard,
          "bn_mul_comba%d shapes %d/%d", n, shape_a, shape_b);
    schoolbook(want, a, a, n);
    (n == 4 ? bn_sqr_comba4 : bn_sqr_comba8)(got, a);
    CHECK(memcmp(got, want, 2 * (size_t)n * 8) == 0 && got[2 * n] == guard,
          "bn_sqr_comba%d shape %d", n, shape_a);
}

static void check_div(u64 h, u64 l, u64 d)
{
    u64 want;

    if (d == 0)
        want = ~0ull;                     /* the documented d == 0 answer */
    else
        want = (u64)((((u128)h << 64) | l) / d);   /* mod 2^64 when h >= d */
    CHECK(bn_div_words(h, l, d) == want, "bn_div_words(%llx, %llx, %llx)", h, l, d);
}

int main(void)
{
    int round, sa, sb;

    tu_seed(0x0c0ba4d1u);
    for (round = 0; round < 200; round++)
        for (sa = 0; sa < 5; sa++)
            for (sb = 0; sb < 5; sb++) {
                check_comba(4, sa, sb);
                check_comba(8, sa, sb);
            }
    for (round = 0; round < 2000; round++) {
        u64 d = tu_rand64() >> (tu_rand64() & 63), l = tu_rand64();
        u64 h = d ? tu_rand64() % d : tu_rand64();

        if (d == 0)
            d = 1;
        check_div(h, l, d);                   /* the contract: h < d */
        check_div(d - 1, ~0ull, d);           /* largest quotient below 2^64 */
        check_div(tu_rand64(), l, d);         /* h >= d: quotient mod 2^64 */
    }
    check_div(1, 2, 0);
    check_div(~0ull - 1, ~0ull, ~0ull);
    return tu_finish();
}
#else
int main(void)
{
    return tu_finish();
}
#endif
