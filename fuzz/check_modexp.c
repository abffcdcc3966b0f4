/*
 * fuzz/check_modexp.c - asmcrypt_mod_exp (IFMA, MULX, mulq, NEON, ...
 * paths by level) against an independent C reference: left-to-right
 * binary square-and-multiply over the C Montgomery reference
 * bn_mul_mont_c, with R^2 mod n from 2 w num doublings (bn_add_words_c /
 * bn_sub_words_c).  It shares no code with the library's windowed
 * exponentiation.  With FUZZ_OPENSSL also against OpenSSL's
 * BN_mod_exp_mont_consttime.  Forms: rp separate, rp == ap, rp == ep.
 *
 * Input: byte 0 = shape:
 *   bits 0-1 n: 0 from the input; 1 just under 2^(w num) (all words but
 *            the lowest all-ones); 2 just under 2^k, k = 1 + byte 3 mod
 *            (w num), n = 2^k - 1 - 2 (input word mod 2^(k-1) / 2)...
 *            i.e. the top k-1 bits set except a few; 3 all-ones words
 *   bits 2-3 e: 0 from the input; 1 e = 0; 2 e = 1; 3 e = n - 1
 *            (ewords = num)
 *   bit  4   a: all-ones words (then reduced); bit 5: a = n - 1
 *   bits 6-7 form: 0 separate, 1 rp == ap, 2 rp == ep, 3 separate
 * byte 1 = num: 1 + b mod 40; bit 7 of byte 2 set: 41 + b mod (max - 40)
 *          ("big": up to ASMCRYPT_BN_MAX_WORDS, then ewords <= 2)
 * byte 2 = ewords: 1 + (b & 127) mod min(num, 8)  (e = n - 1: num)
 * byte 3 = k for n mode 2
 * then n, e, a words.
 */
#include "fuzz_check.h"
#include "fuzz_openssl.h"

#define FZX_MAX ASMCRYPT_BN_MAX_WORDS

/* x = 2x mod n (x < n) */
static void fzx_double(BN_ULONG *x, const BN_ULONG *n, int num)
{
    BN_ULONG t[FZX_MAX], c, b;

    c = bn_add_words_c(x, x, x, num);
    b = bn_sub_words_c(t, x, n, num);
    if (c || !b)
        memcpy(x, t, sizeof(BN_ULONG) * num);
}

static void fzx_ref(BN_ULONG *r, const BN_ULONG *a, const BN_ULONG *e, int ewords,
                    const BN_ULONG *n, int num)
{
    BN_ULONG rr[FZX_MAX], am[FZX_MAX], acc[FZX_MAX], one[FZX_MAX], n0[1];
    int i, bit;

    n0[0] = asmcrypt_bn_mont_n0(n);
    memset(one, 0, sizeof(BN_ULONG) * num);
    one[0] = 1;
    memcpy(rr, one, sizeof(BN_ULONG) * num);
    if (!fz_lt(rr, n, num))
        rr[0] = 0;                                  /* n == 1 */
    for (i = 0; i < 2 * ASMCRYPT_WORD_BITS * num; i++)
        fzx_double(rr, n, num);                     /* R^2 mod n */
    bn_mul_mont_c(am, a, rr, n, n0, num);           /* a R */
    bn_mul_mont_c(acc, one, rr, n, n0, num);        /* R mod n: 1 */
    for (bit = ewords * ASMCRYPT_WORD_BITS - 1; bit >= 0; bit--) {
        bn_mul_mont_c(acc, acc, acc, n, n0, num);
        if (e[bit / ASMCRYPT_WORD_BITS] >> (bit % ASMCRYPT_WORD_BITS) & 1)
            bn_mul_mont_c(acc, acc, am, n, n0, num);
    }
    bn_mul_mont_c(r, acc, one, n, n0, num);
}

#ifdef FUZZ_OPENSSL
static int fzx_openssl(BN_ULONG *r, const BN_ULONG *a, const BN_ULONG *e, int ewords,
                       const BN_ULONG *n, int num)
{
    BIGNUM *A = fzo_bn(a, num), *E = fzo_bn(e, ewords), *N = fzo_bn(n, num), *R = BN_new();
    int ok = R && BN_mod_exp_mont_consttime(R, A, E, N, fzo_ctx(), NULL) &&
             fzo_words(r, R, num);

    BN_free(R);
    BN_free(N);
    BN_free(E);
    BN_free(A);
    return ok;
}
#endif

static int fzx_report(const char *what, unsigned int caps, int num, int ewords,
                      unsigned int shape)
{
    fprintf(stderr, "MISMATCH modexp %s cap=%x num=%d ewords=%d shape=%02x\n",
            what, caps, num, ewords, shape);
    return 1;
}

int fz_check_modexp(const uint8_t *data, size_t size, const unsigned int *levels, int nlevels)
{
    BN_ULONG n[FZX_MAX], e[FZX_MAX], a[FZX_MAX], want[FZX_MAX], r[FZX_MAX];
    const size_t ws = sizeof(BN_ULONG);
    fz_in in = { data, size };
    unsigned int shape, nb, eb, kb, caps, form;
    int num, ewords, i, k, li, big, rc, bad = 0;

    if (size < 4)
        return 0;
    shape = fz_byte(&in);
    nb = fz_byte(&in);
    eb = fz_byte(&in);
    kb = fz_byte(&in);
    big = (eb & 0x80) != 0 && FZX_MAX > 40;
    num = big ? 41 + (int)(nb % (FZX_MAX - 40)) : 1 + (int)(nb % 40);
    ewords = 1 + (int)((eb & 127) % (unsigned int)(big ? 2 : num < 8 ? num : 8));

    for (i = 0; i < num; i++)
        n[i] = fz_word(&in);
    switch (shape & 3) {
    case 1: for (i = 1; i < num; i++) n[i] = ~(BN_ULONG)0; break;
    case 3: for (i = 0; i < num; i++) n[i] = ~(BN_ULONG)0; break;
    case 2:
        k = 1 + (int)(kb % (unsigned int)(ASMCRYPT_WORD_BITS * num));
        for (i = 0; i < num; i++) {
            int lo = i * ASMCRYPT_WORD_BITS;
            n[i] = k >= lo + ASMCRYPT_WORD_BITS ? ~(BN_ULONG)0 :
                   k > lo ? ((BN_ULONG)1 << (k - lo)) - 1 : 0;
        }
        n[0] ^= (fz_word(&in) & 0xfe) & n[0];       /* 2^k - 1 - small even */
        break;
    default: break;
    }
    n[0] |= 1;
    while (num > 1 && n[num - 1] == 0)
        num--;                                      /* top word non-zero */
    if (ewords > num && !big)
        ewords = num;

    for (i = 0; i < ewords; i++)
        e[i] = fz_word(&in);
    switch ((shape >> 2) & 3) {
    case 1: memset(e, 0, ws * ewords); break;
    case 2: memset(e, 0, ws * ewords); e[0] = 1; break;
    case 3: ewords = num; memcpy(e, n, ws * num); e[0] -= 1; break;
    default: break;
    }

    for (i = 0; i < num; i++)
        a[i] = (shape & 16) ? ~(BN_ULONG)0 : fz_word(&in);
    if (shape & 32) {
        memcpy(a, n, ws * num);
        a[0] -= 1;
    }
    while (!fz_lt(a, n, num)) {
        for (i = num - 1; i > 0 && a[i] == 0; i--)
            ;
        a[i] >>= 1;                                 /* a < n eventually (n >= 1) */
    }

    fzx_ref(want, a, e, ewords, n, num);
#ifdef FUZZ_OPENSSL
# if BN_BITS2 == ASMCRYPT_WORD_BITS
    if (!fzx_openssl(r, a, e, ewords, n, num) || memcmp(r, want, ws * num))
        bad += fzx_report("openssl-vs-c", 0, num, ewords, shape);
# endif
#endif
    form = shape >> 6;
    for (li = 0; li < fz_nlevels(levels, nlevels); li++) {
        caps = fz_enter_level(levels, li);
        if (form == 1) {
            memcpy(r, a, ws * num);
            rc = asmcrypt_mod_exp(r, r, e, ewords, n, num);
        } else if (form == 2 && ewords == num) {
            memcpy(r, e, ws * num);
            rc = asmcrypt_mod_exp(r, a, r, ewords, n, num);
        } else {
            rc = asmcrypt_mod_exp(r, a, e, ewords, n, num);
        }
        if (rc || memcmp(r, want, ws * num))
            bad += fzx_report(form == 1 ? "rp==ap" : form == 2 && ewords == num ?
                              "rp==ep" : "mod_exp", caps, num, ewords, shape);
    }
    return bad;
}
