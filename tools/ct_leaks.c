/*
 * tools/ct_leaks.c - deliberately leaky functions, planted so that the
 * constant-time check proves it can see a leak.  Never used by the
 * library.  ct_main.c runs them like the real primitives and the checker
 * passes these cases only when the traces DIFFER.
 */
#include "drv.h"

/* Left-to-right square-and-multiply that multiplies only when the
 * exponent bit is set: a secret-dependent branch (the textbook leak). */
void ct_leak_branchy_exp(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep,
                         int ewords, const BN_ULONG *np, BN_ULONG n0, int num)
{
    static BN_ULONG acc[DRV_MAX_WORDS];
    int i, b;

    for (i = 0; i < num; i++)
        acc[i] = ap[i];
    for (i = ewords - 1; i >= 0; i--) {
        for (b = ASMCRYPT_WORD_BITS - 1; b >= 0; b--) {
            bn_mul_mont_c(acc, acc, acc, np, &n0, num);
            if ((ep[i] >> b) & 1)
                bn_mul_mont_c(acc, acc, ap, np, &n0, num);
        }
    }
    for (i = 0; i < num; i++)
        rp[i] = acc[i];
}

/* A table lookup indexed by a secret byte: same instructions, different
 * memory address (the cache-timing leak of table-driven code). */
const unsigned char ct_leak_sbox[256] = {
#define R4(x) (x), (x) + 1, (x) + 2, (x) + 3
#define R16(x) R4(x), R4((x) + 4), R4((x) + 8), R4((x) + 12)
#define R64(x) R16(x), R16((x) + 16), R16((x) + 32), R16((x) + 48)
    R64(0x00), R64(0x40), R64(0x80), R64(0xc0)
#undef R64
#undef R16
#undef R4
};

void ct_leak_table(unsigned char *out, const unsigned char *in, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        out[i] = ct_leak_sbox[in[i]];
}
