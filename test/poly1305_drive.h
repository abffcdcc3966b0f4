/*
 * test/poly1305_drive.h - the end of a MAC through an OpenSSL-style
 * Poly1305 blocks/emit pair, done the way the library does it; shared by
 * test_poly1305.c and test_poly1305_state.c, which hand the whole blocks
 * to blocks() in their own patterns first.
 */
#ifndef ASMCRYPT_TEST_POLY1305_DRIVE_H
#define ASMCRYPT_TEST_POLY1305_DRIVE_H

#include <string.h>
#include "internal.h"

static inline unsigned int poly1305_drive_le32(const unsigned char *p)
{
    return (unsigned int)p[0] | (unsigned int)p[1] << 8 |
           (unsigned int)p[2] << 16 | (unsigned int)p[3] << 24;
}

/* The last partial block of msg[0..len) (the bytes after its whole
 * blocks) padded with 0x01 and zeros (padbit 0), then the tag with the
 * nonce key[16..31] (four little-endian words). */
static inline void poly1305_drive_finish(void *st, poly1305_blocks_f blocks,
                                         poly1305_emit_f emit,
                                         const unsigned char key[32],
                                         const unsigned char *msg, size_t len,
                                         unsigned char tag[16])
{
    size_t full = len & ~(size_t)15;
    unsigned char last[16];
    unsigned int nonce[4];
    int i;

    for (i = 0; i < 4; i++)
        nonce[i] = poly1305_drive_le32(key + 16 + 4 * i);
    if (len > full) {
        memset(last, 0, sizeof(last));
        memcpy(last, msg + full, len - full);
        last[len - full] = 1;
        blocks(st, last, 16, 0);
    }
    emit(st, tag, nonce);
}

#endif
