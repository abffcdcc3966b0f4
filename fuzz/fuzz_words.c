/*
 * fuzz/fuzz_words.c - differential fuzz target (issue 14 item 1): every
 * bignum word primitive, the dispatched (asm when built) path against its
 * C reference, at every capability level in-process
 * (asmcrypt_cpucap_restrict; the asm modules read asmcrypt_cpucap per call).
 * Input: byte 0 = shape, byte 1 = num (0..63), byte 2 = cond, the rest fills
 * a, b, w; shapes bias limbs toward all-ones and 0 (the carry cases).
 * Build: clang -fsanitize=fuzzer,address,undefined (libFuzzer), or plain cc
 * with -DFUZZ_MAIN (reads files named on the command line: AFL++, replay).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define MAXW 64

static const unsigned int levels[] = { 0xffffffffu, 0xffu, 0x1fu, 0xfu, 0x9u, 0x0u };

static BN_ULONG take(const uint8_t **p, size_t *n, unsigned shape)
{
    BN_ULONG v = 0;
    size_t i;

    for (i = 0; i < sizeof(v); i++) {
        v = v << 8 | (*n ? (*p)[0] : 0);
        if (*n) { (*p)++; (*n)--; }
    }
    switch (shape & 3) {
    case 1: if ((v & 7) != 0) v = ~(BN_ULONG)0; break;      /* mostly all-ones */
    case 2: if ((v & 3) == 0) v = 0; else if ((v & 3) == 1) v = ~(BN_ULONG)0; break;
    case 3: v = ~(BN_ULONG)0 - (v & 0xff); break;            /* just under 2^w */
    default: break;
    }
    return v;
}

static void fail(const char *what, unsigned int lvl, int num)
{
    fprintf(stderr, "MISMATCH %s cap=%x num=%d\n", what, lvl, num);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    BN_ULONG a[MAXW], b[MAXW], r0[2 * MAXW], r1[2 * MAXW], w, c0, c1, cond;
    unsigned shape;
    int num, i;
    size_t li;

    if (size < 3)
        return 0;
    shape = data[0];
    num = data[1] % MAXW;
    cond = (data[2] & 1) ? (data[2] & 2 ? 1 : ~(BN_ULONG)0) : 0;
    data += 3; size -= 3;
    for (i = 0; i < num; i++) {
        a[i] = take(&data, &size, shape);
        b[i] = take(&data, &size, shape >> 2);
    }
    w = take(&data, &size, shape >> 4);
    if (num == 0)
        return 0;
    for (li = 0; li < sizeof(levels) / sizeof(levels[0]); li++) {
        asmcrypt_cpucap_restrict(levels[li]);
#define MUL(f) \
        memcpy(r0, b, sizeof(BN_ULONG) * num); memcpy(r1, b, sizeof(BN_ULONG) * num); \
        c0 = f##_c(r0, a, num, w); c1 = f(r1, a, num, w); \
        if (c0 != c1 || memcmp(r0, r1, sizeof(BN_ULONG) * num)) fail(#f, levels[li], num);
        MUL(bn_mul_add_words)
        MUL(bn_mul_words)
        MUL(bn_mul_sub_words)
#define ADD(f, ...) \
        c0 = f##_c(r0, a, b, num __VA_ARGS__); c1 = f(r1, a, b, num __VA_ARGS__); \
        if (c0 != c1 || memcmp(r0, r1, sizeof(BN_ULONG) * num)) fail(#f, levels[li], num);
        ADD(bn_add_words)
        ADD(bn_sub_words)
        ADD(bn_cnd_add_words, , cond)
        ADD(bn_cnd_sub_words, , cond)
        bn_sqr_words_c(r0, a, num);
        bn_sqr_words(r1, a, num);
        if (memcmp(r0, r1, 2 * sizeof(BN_ULONG) * num)) fail("bn_sqr_words", levels[li], num);
    }
    asmcrypt_cpucap_restrict(~0u);
    return 0;
}

#ifdef FUZZ_MAIN
int main(int argc, char **argv)
{
    static uint8_t buf[1 << 16];
    int i;

    for (i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        size_t n;
        if (!f) { perror(argv[i]); return 1; }
        n = fread(buf, 1, sizeof(buf), f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("%d passed, 0 failed\n", argc - 1);
    return 0;
}
#endif
