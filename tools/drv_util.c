/*
 * tools/drv_util.c - deterministic inputs and option parsing for the
 * drivers.
 */
#include <stdlib.h>
#include <string.h>
#include "drv.h"

uint64_t drv_rand(uint64_t *state)
{
    uint64_t x = *state;            /* xorshift64* (Vigna 2016) */

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dull;
}

void drv_rand_words(BN_ULONG *p, int n, uint64_t *state)
{
    int i;

    for (i = 0; i < n; i++)
        p[i] = (BN_ULONG)drv_rand(state);
}

void drv_rand_bytes(unsigned char *p, size_t n, uint64_t *state)
{
    size_t i;

    for (i = 0; i < n; i++)
        p[i] = (unsigned char)(drv_rand(state) >> 56);
}

void drv_rand_modulus(BN_ULONG *np, int num, uint64_t *state)
{
    drv_rand_words(np, num, state);
    np[0] |= 1;
    np[num - 1] |= (BN_ULONG)1 << (ASMCRYPT_WORD_BITS - 1);
}

void drv_rand_below(BN_ULONG *ap, const BN_ULONG *np, int num, uint64_t *state)
{
    drv_rand_words(ap, num, state);
    ap[num - 1] %= np[num - 1];
}

unsigned int drv_parse_cap(const char *s)
{
    return (unsigned int)strtoul(s, NULL, 16);
}
