/*
 * fuzz/check_words.c - every bignum word primitive through the public API
 * (asmcrypt_bn_*_words: the asm when built, else C) against its C
 * reference (bn_*_words_c, crypto/bn/bn_words.c); the add/sub forms also
 * in place (rp == ap, rp == bp: the aliasing the API allows).
 * Input: byte 0 = shape, byte 1 = num (0..63), byte 2 = cond (bit 0 set:
 * bit 1 ? 1 : all-ones; else 0), then a[i], b[i] interleaved and w.  Shape
 * bits 0-1 (a), 2-3 (b), 4-5 (w) bias words: 1 mostly all-ones, 2 zero or
 * all-ones, 3 just under 2^w (the carry cases); 0 leaves them raw.
 */
#include "fuzz_check.h"

#define FZW_MAX 64

static BN_ULONG fzw_take(fz_in *in, unsigned int shape)
{
    BN_ULONG v = fz_word(in);

    switch (shape & 3) {
    case 1: if ((v & 7) != 0) v = ~(BN_ULONG)0; break;
    case 2: if ((v & 3) == 0) v = 0; else if ((v & 3) == 1) v = ~(BN_ULONG)0; break;
    case 3: v = ~(BN_ULONG)0 - (v & 0xff); break;
    default: break;
    }
    return v;
}

static int fzw_report(const char *what, unsigned int caps, int num)
{
    fprintf(stderr, "MISMATCH %s cap=%x num=%d\n", what, caps, num);
    return 1;
}

int fz_check_words(const uint8_t *data, size_t size, const unsigned int *levels, int nlevels)
{
    BN_ULONG a[FZW_MAX], b[FZW_MAX], r0[2 * FZW_MAX], r1[2 * FZW_MAX], w, c0, c1, cond;
    const size_t ws = sizeof(BN_ULONG);
    fz_in in = { data, size };
    unsigned int shape, caps, cb;
    int num, i, li, bad = 0;

    if (size < 3)
        return 0;
    shape = fz_byte(&in);
    num = (int)(fz_byte(&in) % FZW_MAX);
    cb = fz_byte(&in);
    cond = (cb & 1) ? (cb & 2 ? 1 : ~(BN_ULONG)0) : 0;
    for (i = 0; i < num; i++) {
        a[i] = fzw_take(&in, shape);
        b[i] = fzw_take(&in, shape >> 2);
    }
    w = fzw_take(&in, shape >> 4);
    if (num == 0)
        return 0;
    for (li = 0; li < fz_nlevels(levels, nlevels); li++) {
        caps = fz_enter_level(levels, li);
#define FZW_MUL(f) \
        memcpy(r0, b, ws * num); memcpy(r1, b, ws * num); \
        c0 = bn_##f##_c(r0, a, num, w); \
        if (asmcrypt_bn_##f(r1, a, num, w, &c1) || c0 != c1 || memcmp(r0, r1, ws * num)) \
            bad += fzw_report(#f, caps, num);
        FZW_MUL(mul_add_words)
        FZW_MUL(mul_words)
        FZW_MUL(mul_sub_words)
#define FZW_ADD(f, ...) \
        c0 = bn_##f##_c(r0, a, b, num __VA_ARGS__); \
        if (asmcrypt_bn_##f(r1, a, b, num __VA_ARGS__, &c1) || c0 != c1 || \
            memcmp(r0, r1, ws * num)) \
            bad += fzw_report(#f, caps, num); \
        memcpy(r1, a, ws * num); \
        if (asmcrypt_bn_##f(r1, r1, b, num __VA_ARGS__, &c1) || c0 != c1 || \
            memcmp(r0, r1, ws * num)) \
            bad += fzw_report(#f " rp==ap", caps, num); \
        memcpy(r1, b, ws * num); \
        if (asmcrypt_bn_##f(r1, a, r1, num __VA_ARGS__, &c1) || c0 != c1 || \
            memcmp(r0, r1, ws * num)) \
            bad += fzw_report(#f " rp==bp", caps, num);
        FZW_ADD(add_words)
        FZW_ADD(sub_words)
        FZW_ADD(cnd_add_words, , cond)
        FZW_ADD(cnd_sub_words, , cond)
        bn_sqr_words_c(r0, a, num);
        if (asmcrypt_bn_sqr_words(r1, a, num) || memcmp(r0, r1, 2 * ws * num))
            bad += fzw_report("sqr_words", caps, num);
#undef FZW_MUL
#undef FZW_ADD
    }
    return bad;
}
