/*
 * fuzz/fuzz_mont.c - differential fuzz target (issue 14 item 1):
 * asmcrypt_bn_mont_mul (dispatched asm) against bn_mul_mont_c at every
 * x86_64 capability level in-process, with rp==ap, rp==bp and a==b
 * squaring.  Byte 0 = shape (bit0: modulus just under 2^(w*num); bit1:
 * all-ones limbs in a, b), byte 1 = num (1..80).  a, b are reduced below n
 * by clearing their top word's high bit when needed.  -DFUZZ_MAIN: plain C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bn/bn_local.h"

#define MAXW 80
static const unsigned int levels[] = { 0xffffffffu, 0xffu, 0x1fu, 0xfu, 0x9u, 0x0u };

static void fill(BN_ULONG *x, int num, const uint8_t **p, size_t *n, int ones)
{
    int i; size_t k;
    for (i = 0; i < num; i++) {
        BN_ULONG v = 0;
        for (k = 0; k < sizeof(v); k++) { v = v << 8 | (*n ? **p : 0); if (*n) { (*p)++; (*n)--; } }
        if (ones && (v & 3)) v = ~(BN_ULONG)0;
        x[i] = v;
    }
}

static void check(const char *what, const BN_ULONG *a, const BN_ULONG *b, int mode,
                  const BN_ULONG *n, BN_ULONG n0, int num, unsigned lvl)
{
    BN_ULONG r0[MAXW], r1[MAXW], t[MAXW], n0w[1] = { n0 };
    bn_mul_mont_c(r0, a, mode == 3 ? a : b, n, n0w, num);
    memcpy(t, mode == 2 ? b : a, sizeof(BN_ULONG) * num);
    if (mode == 1) { if (asmcrypt_bn_mont_mul(t, t, b, n, n0, num)) abort(); memcpy(r1, t, sizeof(t[0]) * num); }
    else if (mode == 2) { if (asmcrypt_bn_mont_mul(t, a, t, n, n0, num)) abort(); memcpy(r1, t, sizeof(t[0]) * num); }
    else if (mode == 3) { if (asmcrypt_bn_mont_mul(t, t, t, n, n0, num)) abort(); memcpy(r1, t, sizeof(t[0]) * num); }
    else if (asmcrypt_bn_mont_mul(r1, a, b, n, n0, num)) abort();
    if (memcmp(r0, r1, sizeof(BN_ULONG) * num)) {
        fprintf(stderr, "MISMATCH %s cap=%x num=%d\n", what, lvl, num);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    BN_ULONG n[MAXW], a[MAXW], b[MAXW], n0;
    int num, i; unsigned shape; size_t li;
    if (size < 2) return 0;
    shape = data[0]; num = 1 + data[1] % MAXW; data += 2; size -= 2;
    fill(n, num, &data, &size, 0);
    if (shape & 1) for (i = 1; i < num; i++) n[i] = ~(BN_ULONG)0;   /* just under 2^(w*num) */
    n[0] |= 1;
    if (n[num - 1] == 0) n[num - 1] = 1;
    fill(a, num, &data, &size, shape & 2);
    fill(b, num, &data, &size, shape & 2);
    if (bn_lt_ct(a, n, num) == 0) { a[num - 1] = n[num - 1] - 1; }
    if (bn_lt_ct(b, n, num) == 0) { b[num - 1] = n[num - 1] - 1; }
    n0 = asmcrypt_bn_mont_n0(n);
    for (li = 0; li < sizeof(levels) / sizeof(levels[0]); li++) {
        asmcrypt_cpucap_restrict(levels[li]);
        check("mont", a, b, 0, n, n0, num, levels[li]);
        check("rp==ap", a, b, 1, n, n0, num, levels[li]);
        check("rp==bp", a, b, 2, n, n0, num, levels[li]);
        check("sqr", a, b, 3, n, n0, num, levels[li]);
    }
    asmcrypt_cpucap_restrict(~0u);
    return 0;
}

#ifdef FUZZ_MAIN
int main(int argc, char **argv)
{
    static uint8_t buf[1 << 16]; int i;
    for (i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb"); size_t k;
        if (!f) { perror(argv[i]); return 1; }
        k = fread(buf, 1, sizeof(buf), f); fclose(f);
        LLVMFuzzerTestOneInput(buf, k);
    }
    printf("%d passed, 0 failed\n", argc - 1);
    return 0;
}
#endif
