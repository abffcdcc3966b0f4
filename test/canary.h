/*
 * test/canary.h - how far a routine wrote into a canary-filled buffer.
 *
 * The state-size tests (test_poly1305_state.c, and the kernel-shaped
 * harness test/kernel/kharness.c, which is built on its own with the
 * kernel's flags) fill a buffer with a known byte sequence, let the
 * routine run on a state inside it, and compare the buffer with the
 * sequence again.  canary_extent() gives the highest offset from the
 * state's start that no longer matches, plus one (0: nothing written at
 * or after the state), and sets *before when one of the first before_len
 * bytes of the buffer changed.  Header-only, C99, no library calls but
 * memcmp, so that both builds can include it.
 */
#ifndef ASMCRYPT_TEST_CANARY_H
#define ASMCRYPT_TEST_CANARY_H

#include <stddef.h>
#include <string.h>

static inline size_t canary_extent(const unsigned char *buf,
                                   const unsigned char *canary, size_t n,
                                   size_t off, size_t before_len, int *before)
{
    size_t i = n, step;

    *before = memcmp(buf, canary, before_len) != 0;
    while (i > off) {                  /* 64-byte chunks from the end */
        step = i - off < 64 ? i - off : 64;
        if (memcmp(buf + i - step, canary + i - step, step) != 0)
            break;
        i -= step;
    }
    while (i > off && buf[i - 1] == canary[i - 1])
        i--;
    return i - off;
}

#endif
