/*
 * fuzz/check_mont.c - asmcrypt_bn_mont_mul (asm when built) against the C
 * reference bn_mul_mont_c and, with FUZZ_OPENSSL, OpenSSL's
 * BN_mod_mul_montgomery (same R = 2^(w num) because the top word of n is
 * non-zero; a == b goes through OpenSSL's squaring), in four forms:
 * rp separate, rp == ap, rp == bp, and squaring with everything aliased.
 * Input: byte 0 = shape (bit 0: n just under 2^(w num), all words above
 * the lowest all-ones; bit 1: all-ones words in a and b), byte 1 = num
 * (1..80, so the IFMA range 16..64 is covered on x86_64), then n, a, b.
 * n is made odd with a non-zero top word; a, b >= n get their top word
 * set to n's minus one.
 */
#include "fuzz_check.h"
#include "fuzz_openssl.h"

#define FZM_MAX 80

static void fzm_fill(BN_ULONG *x, int num, fz_in *in, int ones)
{
    int i;

    for (i = 0; i < num; i++) {
        BN_ULONG v = fz_word(in);

        x[i] = (ones && (v & 3)) ? ~(BN_ULONG)0 : v;
    }
}

/* mode 0: r = a b; 1: rp == ap; 2: rp == bp; 3: a = a a in place */
static int fzm_run(BN_ULONG *r, const BN_ULONG *a, const BN_ULONG *b, int mode,
                   const BN_ULONG *n, BN_ULONG n0, int num)
{
    memcpy(r, mode == 2 ? b : a, sizeof(BN_ULONG) * num);
    switch (mode) {
    case 1: return asmcrypt_bn_mont_mul(r, r, b, n, n0, num);
    case 2: return asmcrypt_bn_mont_mul(r, a, r, n, n0, num);
    case 3: return asmcrypt_bn_mont_mul(r, r, r, n, n0, num);
    default: return asmcrypt_bn_mont_mul(r, a, b, n, n0, num);
    }
}

#ifdef FUZZ_OPENSSL
/* OpenSSL's a b R^-1 mod n (a == b: BN_mod_mul_montgomery squares) */
static int fzm_openssl(BN_ULONG *r, const BN_ULONG *a, const BN_ULONG *b,
                       const BN_ULONG *n, int num, int sqr)
{
    BN_CTX *ctx = fzo_ctx();
    BN_MONT_CTX *mont = BN_MONT_CTX_new();
    BIGNUM *A = fzo_bn(a, num), *B = sqr ? A : fzo_bn(b, num), *N = fzo_bn(n, num);
    BIGNUM *R = BN_new();
    int ok = mont && R && BN_MONT_CTX_set(mont, N, ctx) &&
             BN_mod_mul_montgomery(R, A, B, mont, ctx) && fzo_words(r, R, num);

    BN_free(R);
    BN_free(N);
    if (!sqr)
        BN_free(B);
    BN_free(A);
    BN_MONT_CTX_free(mont);
    return ok;
}
#endif

int fz_check_mont(const uint8_t *data, size_t size, const unsigned int *levels, int nlevels)
{
    static const char *const what[4] = { "mont", "rp==ap", "rp==bp", "sqr" };
    BN_ULONG n[FZM_MAX], a[FZM_MAX], b[FZM_MAX], ref[2][FZM_MAX], r[FZM_MAX], n0, n0w[1];
    fz_in in = { data, size };
    unsigned int shape, caps;
    int num, i, li, mode, bad = 0;

    if (size < 2)
        return 0;
    shape = fz_byte(&in);
    num = 1 + (int)(fz_byte(&in) % FZM_MAX);
    fzm_fill(n, num, &in, 0);
    if (shape & 1)
        for (i = 1; i < num; i++)
            n[i] = ~(BN_ULONG)0;
    n[0] |= 1;
    if (n[num - 1] == 0)
        n[num - 1] = 1;
    fzm_fill(a, num, &in, shape & 2);
    fzm_fill(b, num, &in, shape & 2);
    if (!fz_lt(a, n, num))
        a[num - 1] = n[num - 1] - 1;
    if (!fz_lt(b, n, num))
        b[num - 1] = n[num - 1] - 1;
    n0 = n0w[0] = asmcrypt_bn_mont_n0(n);

    bn_mul_mont_c(ref[0], a, b, n, n0w, num);       /* modes 0-2 */
    bn_mul_mont_c(ref[1], a, a, n, n0w, num);       /* mode 3 */
#ifdef FUZZ_OPENSSL
# if BN_BITS2 == ASMCRYPT_WORD_BITS
    for (mode = 0; mode < 2; mode++)
        if (!fzm_openssl(r, a, b, n, num, mode) ||
            memcmp(r, ref[mode], sizeof(BN_ULONG) * num)) {
            fprintf(stderr, "MISMATCH %s openssl-vs-c num=%d\n", mode ? "sqr" : "mont", num);
            bad++;
        }
# endif
#endif
    for (li = 0; li < fz_nlevels(levels, nlevels); li++) {
        caps = fz_enter_level(levels, li);
        for (mode = 0; mode < 4; mode++)
            if (fzm_run(r, a, b, mode, n, n0, num) ||
                memcmp(r, ref[mode == 3], sizeof(BN_ULONG) * num)) {
                fprintf(stderr, "MISMATCH %s cap=%x num=%d\n", what[mode], caps, num);
                bad++;
            }
    }
    return bad;
}
