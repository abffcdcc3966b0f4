/*
 * test/test_poly1305_emit26.c - the AArch64 poly1305_emit on base-2^26
 * states, the form poly1305_blocks_neon leaves in ctx when no scalar block
 * follows it (is_base2_26 at ctx+24 set, h as five u32 limbs at ctx+0..16).
 *
 * The NEON lane sum stores h0, h2, h3 below 2^26, h4 at most 2^26 and h1
 * at most 2^26 + 2^14 (its last carry lands on a masked limb).  With
 * h1 = 2^26 and h2 = h3 = 2^26-1 the conversion to base 2^64 carries out
 * of word 0 and, with the low 24 bits of h4 all ones, out of word 1 into
 * word 2; only when h >= p does that last carry change the tag (h and
 * h - 2^128 agree mod 2^128 below p).  No message found so far drives the
 * lanes to exactly these limbs, so they are written into the state here
 * (docs/mutation.md, issue 14 gap 4).
 *
 * Oracle: h = sum of limb_i 2^(26 i) in a 128-bit word and a top word, p subtracted
 * while h >= p, tag = h + s mod 2^128; plain C, none of the library's
 * code.  On other targets there is nothing to check (0 passed).
 */
#include <string.h>
#include "internal.h"
#include "util.h"

#if defined(__aarch64__) && defined(ASMCRYPT_POLY1305_ASM)

#define L26 (1u << 26)

typedef unsigned __int128 u128;

/* h = lo + top 2^128; p = (2^128 - 5) + 3 2^128 */
#define P_LO (~(u128)0 - 4)

static void want_tag(const uint32_t limb[5], const unsigned char s[16], unsigned char tag[16])
{
    u128 lo = 0, add;
    uint64_t top = 0;
    int i;

    for (i = 0; i < 5; i++) {            /* h += limb_i 2^(26 i) */
        if (i < 4) {
            add = (u128)limb[i] << (26 * i);
        } else {
            add = (u128)(limb[i] & 0xffffff) << 104;
            top += limb[i] >> 24;
        }
        lo += add;
        top += lo < add;
    }
    while (top > 3 || (top == 3 && lo >= P_LO)) {    /* h -= p */
        top -= 3 + (lo < P_LO);
        lo -= P_LO;
    }
    for (i = 0; i < 16; i++) {           /* + s mod 2^128 */
        add = (u128)s[i] << (8 * i);
        lo += add;
    }
    for (i = 0; i < 16; i++)
        tag[i] = (unsigned char)(lo >> (8 * i));
}

static int n_states;

static void check_state(const uint32_t limb[5], const char *what)
{
    uint64_t ctx[18];
    unsigned char s[16], tag[16], want[16];
    unsigned int nonce[4];
    int i, round;

    for (round = 0; round < 2; round++) {
        if (round)
            memset(s, 0xff, 16);
        else
            tu_rand_bytes(s, 16);
        for (i = 0; i < 4; i++)
            nonce[i] = (unsigned)s[4 * i] | (unsigned)s[4 * i + 1] << 8 |
                       (unsigned)s[4 * i + 2] << 16 | (unsigned)s[4 * i + 3] << 24;
        memset(ctx, 0, sizeof(ctx));
        memcpy(ctx, limb, 5 * sizeof(uint32_t));
        ((uint32_t *)ctx)[6] = 1;        /* is_base2_26 */
        poly1305_emit(ctx, tag, nonce);
        want_tag(limb, s, want);
        CHECK(memcmp(tag, want, 16) == 0, "emit of base-2^26 h (%s) = %08x %08x %08x %08x %08x",
              what, (unsigned)limb[0], (unsigned)limb[1], (unsigned)limb[2],
              (unsigned)limb[3], (unsigned)limb[4]);
    }
    n_states++;
}

int main(void)
{
    uint32_t l[5];
    int i, k;

    tu_seed(0x2626);
    /* h1 = 2^26, h2 = h3 = 2^26 - 1, h4 = k 2^24 - 1: h = h0 + k 2^128
     * (k = 4: h = h0 + 2^130 >= p) */
    for (k = 1; k <= 4; k++)
        for (i = 0; i < 4; i++) {
            l[0] = i == 0 ? 0 : i == 1 ? L26 - 1 : (uint32_t)(tu_rand64() % L26);
            l[1] = L26; l[2] = L26 - 1; l[3] = L26 - 1;
            l[4] = ((uint32_t)k << 24) - 1;
            check_state(l, "h0 + k 2^128 through every carry");
        }
    /* h1 above 2^26 by up to 2^14, h4 at 2^26, limbs of p and p + 1 */
    for (i = 0; i < 200; i++) {
        l[0] = (uint32_t)(tu_rand64() % L26);
        l[1] = L26 + (uint32_t)(tu_rand64() % (1u << 14));
        l[2] = i & 1 ? L26 - 1 : (uint32_t)(tu_rand64() % L26);
        l[3] = i & 2 ? L26 - 1 : (uint32_t)(tu_rand64() % L26);
        l[4] = i & 4 ? L26 : i & 8 ? L26 - 1 : (uint32_t)(tu_rand64() % (L26 + 1));
        check_state(l, "h1 above 2^26");
    }
    for (i = 0; i < 3; i++) {
        l[0] = L26 - 5 + (uint32_t)i; l[1] = L26 - 1; l[2] = L26 - 1;
        l[3] = L26 - 1; l[4] = L26 - 1;
        check_state(l, "p, p + 1, p + 2");
    }
    printf("poly1305 base-2^26 emit: %d states\n", n_states);
    return tu_finish();
}
#else
int main(void)
{
    return tu_finish();
}
#endif
