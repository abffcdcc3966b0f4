/*
 * test/test_poly1305_wipe.c - asmcrypt_poly1305_final leaves no key
 * material in the context: every byte of it that init, update or final
 * wrote is zero afterwards.
 *
 * poly1305_api.c wipes only the part of the implementation state the block
 * functions can have written for the lengths they were given (on x86_64
 * less below 192 bytes per call), so this checks that rule against what
 * the paths really write.  Each message runs twice, over a context filled
 * with a canary and over one filled with its complement; init writes only
 * what it later reads, so a byte it never touched keeps the canary.  After
 * final each byte must either be untouched in both runs (canary, then
 * complement) or zero in both.  Anything else is state left behind (the
 * two runs compute the same values, which cannot equal both canaries).
 *
 * Lengths 0..400 (every scalar/vector boundary of every module is below
 * 400), then 511..4099 in steps and 33000; each as one update, as 16-byte
 * pieces, and in pieces of pseudo-random sizes.  Runs at every
 * ASMCRYPT_CAP level (test/run.sh), so every block path is covered.
 */
#include <stdlib.h>
#include <string.h>
#include "asmcrypt/err.h"
#include "asmcrypt/poly1305.h"
#include "util.h"

#define MAXLEN 33000

static unsigned char msg[MAXLEN];

static void fill(asmcrypt_poly1305_ctx *ctx, int complement)
{
    unsigned char *b = (unsigned char *)ctx;
    size_t i;

    for (i = 0; i < sizeof(*ctx); i++)
        b[i] = (unsigned char)((0xa5 + 37 * i) ^ (complement ? 0xff : 0));
}

/* split: 0 = one update, 1 = 16-byte pieces, 2 = pseudo-random pieces */
static int mac(asmcrypt_poly1305_ctx *ctx, const unsigned char key[32], size_t len,
               int split, unsigned char tag[16])
{
    size_t off = 0, n;
    uint64_t s = len * 2654435761u + 1;

    if (asmcrypt_poly1305_init(ctx, key) != ASMCRYPT_OK)
        return 0;
    while (off < len) {
        if (split == 0) {
            n = len;
        } else if (split == 1) {
            n = 16;
        } else {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            n = (size_t)(s >> 33) % 300 + 1;
        }
        if (n > len - off)
            n = len - off;
        if (asmcrypt_poly1305_update(ctx, msg + off, n) != ASMCRYPT_OK)
            return 0;
        off += n;
    }
    return asmcrypt_poly1305_final(ctx, tag) == ASMCRYPT_OK;
}

static void check_len(const unsigned char key[32], size_t len, int split)
{
    static asmcrypt_poly1305_ctx a, b, ca, cb;
    unsigned char ta[16], tb[16], ref[16];
    const unsigned char *pa = (const unsigned char *)&a, *pb = (const unsigned char *)&b;
    const unsigned char *qa = (const unsigned char *)&ca, *qb = (const unsigned char *)&cb;
    size_t i, left = 0, first = 0;

    fill(&a, 0);
    fill(&ca, 0);
    fill(&b, 1);
    fill(&cb, 1);
    if (!CHECK(mac(&a, key, len, split, ta) && mac(&b, key, len, split, tb),
               "len %zu split %d: a call failed", len, split))
        return;
    asmcrypt_poly1305(ref, msg, len, key);
    CHECK(memcmp(ta, ref, 16) == 0 && memcmp(tb, ref, 16) == 0,
          "len %zu split %d: tag differs from the one-shot", len, split);
    for (i = 0; i < sizeof(a); i++) {
        int untouched = pa[i] == qa[i] && pb[i] == qb[i];
        int zero = pa[i] == 0 && pb[i] == 0;

        if (!untouched && !zero) {
            if (left++ == 0)
                first = i;
        }
    }
    CHECK(left == 0, "len %zu split %d: %zu context bytes left written after final "
          "(first at offset %zu)", len, split, left, first);
}

int main(void)
{
    unsigned char key[32];
    size_t len;
    int split;

    tu_seed(0x77697065);             /* "wipe" */
    tu_rand_bytes(key, sizeof(key));
    tu_rand_bytes(msg, sizeof(msg));
    for (split = 0; split < 3; split++) {
        for (len = 0; len <= 400; len++)
            check_len(key, len, split);
        for (len = 511; len <= 4099; len += 397)
            check_len(key, len, split);
        check_len(key, MAXLEN, split);
    }
    return tu_finish();
}
