/*
 * fuzz/check_poly1305.c - Poly1305: the one-shot asmcrypt_poly1305 and
 * init/update/final with arbitrary splits (and a context copied to another
 * address midway) against both C references (poly1305_ref26, and
 * poly1305_ref64 where the compiler has a 128-bit type) and, with
 * FUZZ_OPENSSL, OpenSSL's EVP_MAC "POLY1305".  The message and the tag
 * sit at odd offsets.
 *
 * Input: byte 0 = shape:
 *   bits 0-1 r: 0 from the input; 1 all 0xff (clamped: the largest r);
 *            2 r = 1 (h is then the plain sum of the blocks); 3 from the
 *            input with each byte's high nibble set
 *   bit  2   s all 0xff (the final addition wraps mod 2^128)
 *   bits 3-4 message: 0 the rest of the input; 1 L bytes of 0xff;
 *            2 "near p": r is forced to 1 and the message is two 0xff
 *            blocks, the second lowered by d = 0..8 at byte 0, so h at
 *            the emit is 2^130-2-d = p+3-d (p = 2^130-5: the final
 *            conditional subtraction's edge), followed by L-32 bytes of
 *            the input; 3 L zero bytes
 *   bits 5-7 d for mode 2, with bit 0 of byte 2 as its bit 3 (d > 8
 *            counts as 8)
 * byte 1 = message offset (bits 0-5) and tag offset (bits 6-7)
 * bytes 2-3 = L (little-endian, mod 4096) for modes 1-3
 * byte 4 = number k of split bytes (mod 32), then k bytes of chunk
 *   lengths, used in turn (b < 0xc0: b bytes, 0 meaning an empty update
 *   and then 1 byte; else 16 (b - 0xbf) + b % 3);
 *   the context is copied to another address, and the old one
 *   overwritten, after the chunk whose index is the first split byte mod k
 * then the 32-byte key (r, s), then the message (mode 0, and after the
 * two blocks of mode 2), at most FZP_MAXMSG bytes.
 */
#include "fuzz_check.h"

#define FZP_MAXMSG 4096
#define FZP_MAXSPLIT 32

#ifdef FUZZ_OPENSSL
#include <openssl/evp.h>

static int fzp_openssl(unsigned char tag[16], const unsigned char *m, size_t len,
                       const unsigned char key[32])
{
    static EVP_MAC *mac;
    EVP_MAC_CTX *c;
    size_t outl = 0;
    int ok;

    if (mac == NULL && (mac = EVP_MAC_fetch(NULL, "POLY1305", NULL)) == NULL)
        return 0;
    c = EVP_MAC_CTX_new(mac);
    ok = c && EVP_MAC_init(c, key, 32, NULL) && EVP_MAC_update(c, m, len) &&
         EVP_MAC_final(c, tag, &outl, 16) && outl == 16;
    EVP_MAC_CTX_free(c);
    return ok;
}
#endif

typedef int (*fzp_init_f)(void *, const unsigned char *);

/* a C reference over the same padding rules as the library */
static void fzp_ref(unsigned char tag[16], const unsigned char *m, size_t len,
                    const unsigned char key[32], fzp_init_f init, poly1305_blocks_f blocks,
                    poly1305_emit_f emit)
{
    uint64_t st[24];
    unsigned char last[16];
    unsigned int nonce[4];
    size_t full = len & ~(size_t)15;
    int i;

    init(st, key);
    if (full)
        blocks(st, m, full, 1);
    if (len > full) {
        memset(last, 0, sizeof(last));
        memcpy(last, m + full, len - full);
        last[len - full] = 1;
        blocks(st, last, 16, 0);
    }
    for (i = 0; i < 4; i++)
        nonce[i] = (unsigned int)key[16 + 4 * i] | (unsigned int)key[17 + 4 * i] << 8 |
                   (unsigned int)key[18 + 4 * i] << 16 | (unsigned int)key[19 + 4 * i] << 24;
    emit(st, tag, nonce);
}

static size_t fzp_chunk(unsigned int b)
{
    return b < 0xc0 ? b : 16 * (size_t)(b - 0xbf) + b % 3;
}

/* init/update(chunks)/final, copying the context after chunk copy_at */
static int fzp_incremental(unsigned char tag[16], const unsigned char *m, size_t len,
                           const unsigned char key[32], const unsigned char *split,
                           unsigned int nsplit, unsigned int copy_at)
{
    asmcrypt_poly1305_ctx c1, c2, *c = &c1;
    size_t pos = 0, n;
    unsigned int i = 0;

    if (asmcrypt_poly1305_init(c, key))
        return -1;
    while (pos < len) {
        n = nsplit ? fzp_chunk(split[i % nsplit]) : len;
        if (n == 0) {                   /* an empty update, then 1 byte */
            if (asmcrypt_poly1305_update(c, m + pos, 0))
                return -1;
            n = 1;
        }
        if (n > len - pos)
            n = len - pos;
        if (asmcrypt_poly1305_update(c, m + pos, n))
            return -1;
        pos += n;
        if (nsplit && i == copy_at) {
            memcpy(&c2, &c1, sizeof(c1));
            memset(&c1, 0xa5, sizeof(c1));
            c = &c2;
        }
        i++;
    }
    return asmcrypt_poly1305_final(c, tag);
}

static void fzp_hex(const char *what, const unsigned char t[16])
{
    int i;

    fprintf(stderr, " %s=", what);
    for (i = 0; i < 16; i++)
        fprintf(stderr, "%02x", t[i]);
}

int fz_check_poly1305(const uint8_t *data, size_t size, const unsigned int *levels, int nlevels)
{
    static unsigned char mbuf[FZP_MAXMSG + 64];
    unsigned char key[32], split[FZP_MAXSPLIT], want[16], tbuf[16 + 4];
#if defined(ASMCRYPT_HAVE_INT128) || defined(FUZZ_OPENSSL)
    unsigned char alt[16];
#endif
    unsigned char *m, *tag;
    fz_in in = { data, size };
    unsigned int shape, offs, nsplit, i, d, caps, mmode, copy_at = 0;
    size_t len, lparam, k;
    int li, bad = 0;

    if (size < 5)
        return 0;
    shape = fz_byte(&in);
    offs = fz_byte(&in);
    lparam = fz_byte(&in);
    d = (shape >> 5) | (lparam & 1) << 3;
    lparam |= (size_t)fz_byte(&in) << 8;
    lparam %= FZP_MAXMSG;
    nsplit = fz_byte(&in) % FZP_MAXSPLIT;
    for (i = 0; i < nsplit; i++)
        split[i] = (unsigned char)fz_byte(&in);
    if (nsplit)
        copy_at = split[0] % nsplit;
    for (i = 0; i < 32; i++)
        key[i] = (unsigned char)fz_byte(&in);
    mmode = (shape >> 3) & 3;
    switch (mmode == 2 ? 2 : shape & 3) {
    case 1: memset(key, 0xff, 16); break;
    case 2: memset(key, 0, 16); key[0] = 1; break;
    case 3: for (i = 0; i < 16; i++) key[i] |= 0xf0; break;
    default: break;
    }
    if (shape & 4)
        memset(key + 16, 0xff, 16);

    m = mbuf + (offs & 63);
    tag = tbuf + (offs >> 6);
    switch (mmode) {
    case 1: memset(m, 0xff, len = lparam); break;
    case 3: memset(m, 0x00, len = lparam); break;
    case 2:
        memset(m, 0xff, 32);
        m[16] = (unsigned char)(0xff - (d > 8 ? 8 : d));
        len = 32;
        for (k = 32; k < lparam && in.n; k++)
            m[len++] = (unsigned char)fz_byte(&in);
        break;
    default:
        len = in.n < FZP_MAXMSG ? in.n : FZP_MAXMSG;
        memcpy(m, in.p, len);
        break;
    }

    fzp_ref(want, m, len, key, poly1305_ref26_init, poly1305_ref26_blocks, poly1305_ref26_emit);
#ifdef ASMCRYPT_HAVE_INT128
    fzp_ref(alt, m, len, key, poly1305_ref64_init, poly1305_ref64_blocks, poly1305_ref64_emit);
    if (memcmp(alt, want, 16)) {
        fprintf(stderr, "MISMATCH poly1305 ref64-vs-ref26 len=%zu", len);
        fzp_hex("ref26", want);
        fzp_hex("ref64", alt);
        fprintf(stderr, "\n");
        bad++;
    }
#endif
#ifdef FUZZ_OPENSSL
    if (!fzp_openssl(alt, m, len, key) || memcmp(alt, want, 16)) {
        fprintf(stderr, "MISMATCH poly1305 openssl-vs-ref26 len=%zu", len);
        fzp_hex("ref26", want);
        fzp_hex("openssl", alt);
        fprintf(stderr, "\n");
        bad++;
    }
#endif
    for (li = 0; li < fz_nlevels(levels, nlevels); li++) {
        caps = fz_enter_level(levels, li);
        if (asmcrypt_poly1305(tag, m, len, key) || memcmp(tag, want, 16)) {
            fprintf(stderr, "MISMATCH poly1305 one-shot cap=%x len=%zu off=%u", caps, len,
                    offs & 63);
            fzp_hex("want", want);
            fzp_hex("got", tag);
            fprintf(stderr, "\n");
            bad++;
        }
        if (fzp_incremental(tag, m, len, key, split, nsplit, copy_at) ||
            memcmp(tag, want, 16)) {
            fprintf(stderr, "MISMATCH poly1305 incremental cap=%x len=%zu off=%u splits=%u",
                    caps, len, offs & 63, nsplit);
            fzp_hex("want", want);
            fzp_hex("got", tag);
            fprintf(stderr, "\n");
            bad++;
        }
    }
    return bad;
}
