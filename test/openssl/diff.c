/*
 * test/openssl/diff.c - differential check of an OpenSSL build that has
 * asmcrypt's modules imported (tools/import-openssl.sh) against a stock
 * build of the same source.
 *
 * The program is built twice, once against each build's libcrypto.a.
 *   diff-openssl SEED > stock.out        (stock build: writes the cases)
 *   diff-openssl SEED stock.out          (imported build: compares)
 * Each case is one line "name digest", digest = 16 hex bytes of SHA-256
 * over the case's outputs; the inputs come from a fixed pseudo-random
 * generator (splitmix64) seeded with SEED, so both runs see the same
 * inputs.  In compare mode a case passes when its line equals the stock
 * one; self-checks (AEAD decryption of the record just made, the bytes
 * after the POLY1305 context left alone, tag rejection) count as cases
 * too.  Last line: "total: N passed, N failed".
 *
 * Cases:
 *   poly1305/evp      EVP_MAC POLY1305, lengths 0..300 and long, one-shot
 *                     and split updates, random and edge keys/messages
 *   poly1305/lowlevel Poly1305_Init/Update/Final on a context inside a
 *                     canary-filled buffer at 8 (mod 64) alignment
 *   aead/evp          EVP chacha20-poly1305, random AAD and lengths
 *   aead/tls          the TLS record path (EVP_CTRL_AEAD_TLS1_AAD), which
 *                     uses xor128_*_n_pad on x86_64 for records <= 192 B
 *   bn/mont           BN_mod_mul_montgomery, a*b and a*a, num 1..64 and
 *                     larger up to 512 words (OpenSSL's BN_SOFT_LIMIT)
 *   bn/expct          BN_mod_exp_mont_consttime, 512..16384-bit moduli
 *   bn/exp            BN_mod_exp_mont
 *   bn/mul, bn/sqr, bn/div, bn/word   BN_mul, BN_sqr, BN_div, *_word
 *
 * Written for asmcrypt from OpenSSL's public API and the layout facts of
 * its include/crypto/poly1305.h (included from the source tree).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "crypto/poly1305.h"

static uint64_t rng_state;

static uint64_t rng64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rng_bytes(unsigned char *p, size_t n)
{
    while (n--)
        *p++ = (unsigned char)rng64();
}

/* 0: random, 1: all 0xff, 2: all 0, 3: random with 0xff runs */
static void fill(unsigned char *p, size_t n, int kind)
{
    size_t i;

    switch (kind) {
    case 1: memset(p, 0xff, n); break;
    case 2: memset(p, 0, n); break;
    case 3:
        rng_bytes(p, n);
        for (i = 0; i < n; i++)
            if ((rng64() & 3) != 0)
                p[i] = 0xff;
        break;
    default: rng_bytes(p, n);
    }
}

/* ---- output: one line per case ---------------------------------------- */

static FILE *expect;            /* compare mode: the stock output */
static long npass, nfail;
static EVP_MD_CTX *case_md;
static char case_name[128];

static void case_begin(const char *fmt, int a, int b, int c)
{
    snprintf(case_name, sizeof(case_name), fmt, a, b, c);
    EVP_DigestInit_ex(case_md, EVP_sha256(), NULL);
}

static void case_data(const void *p, size_t n)
{
    EVP_DigestUpdate(case_md, p, n);
}

static void case_bn(const BIGNUM *x)
{
    unsigned char buf[8192];
    int n = BN_bn2bin(x, buf);

    case_data(&n, sizeof(n));
    case_data(buf, (size_t)n);
}

static void result(int ok, const char *line)
{
    if (ok)
        npass++;
    else {
        nfail++;
        if (nfail <= 20)
            printf("FAIL %s\n", line);
    }
}

static void case_end(void)
{
    unsigned char d[32];
    char line[256], want[256];
    unsigned int dl;
    int i, n;

    EVP_DigestFinal_ex(case_md, d, &dl);
    n = snprintf(line, sizeof(line), "%s ", case_name);
    for (i = 0; i < 16; i++)
        n += snprintf(line + n, sizeof(line) - (size_t)n, "%02x", d[i]);
    if (expect == NULL) {
        puts(line);
        return;
    }
    if (fgets(want, sizeof(want), expect) == NULL)
        want[0] = 0;
    want[strcspn(want, "\n")] = 0;
    result(strcmp(line, want) == 0, line);
}

/* A self-check case (compare mode only counts it; stock mode needs it
 * too, since a failing stock build makes the comparison meaningless). */
static void check(int ok, const char *fmt, int a, int b)
{
    char line[160];

    snprintf(line, sizeof(line), fmt, a, b);
    if (expect == NULL) {
        if (!ok) {
            fprintf(stderr, "stock build fails self-check %s\n", line);
            exit(1);
        }
        return;
    }
    result(ok, line);
}

/* ---- Poly1305 ----------------------------------------------------------- */

static const size_t long_lens[] = {
    511, 512, 513, 1023, 1024, 1025, 2047, 4096, 4097, 8191, 16384, 16399,
    33000, 65536 + 15
};
#define NLONG (sizeof(long_lens) / sizeof(long_lens[0]))
#define MSGMAX (65536 + 64)

static unsigned char msg[MSGMAX], out1[MSGMAX + 64], out2[MSGMAX + 64];

/* split len into pieces of a pattern: 0 one-shot, 1 bytewise (short
 * messages only), 2 uneven (1, 15, 16, 17, 63, 64, ...), 3 random */
static size_t piece(int split, size_t i, size_t left)
{
    static const size_t uneven[] = { 1, 15, 16, 17, 63, 64, 65, 3, 200, 31 };
    size_t n;

    switch (split) {
    case 0: n = left; break;
    case 1: n = 1; break;
    case 2: n = uneven[i % 10]; break;
    default: n = (size_t)(rng64() % 300) + 1;
    }
    return n < left ? n : left;
}

static void poly_evp(EVP_MAC *mac, size_t len, int kind, int split)
{
    unsigned char key[32], tag[16];
    size_t off = 0, i = 0, tl = 0, n;
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);

    fill(key, 32, kind);
    fill(msg, len, kind == 1 ? 1 : 0);
    case_begin("poly1305/evp/%d/k%d/s%d", (int)len, kind, split);
    EVP_MAC_init(c, key, 32, NULL);
    while (off < len) {
        n = piece(split, i++, len - off);
        EVP_MAC_update(c, msg + off, n);
        off += n;
    }
    EVP_MAC_final(c, tag, &tl, sizeof(tag));
    case_data(tag, tl);
    case_end();
    EVP_MAC_CTX_free(c);
}

#define CANARY 0xa5

static void poly_lowlevel(size_t len, int kind, int split)
{
    /* context at 8 (mod 64), canaries before and after it */
    static unsigned char area[4096] __attribute__((aligned(64)));
    size_t sz = Poly1305_ctx_size(), off = 0, i = 0, n, j;
    unsigned char key[32], tag[16];
    POLY1305 *ctx = (POLY1305 *)(area + 256 + 8);
    int clean = 1;

    memset(area, CANARY, sizeof(area));
    fill(key, 32, kind);
    fill(msg, len, kind == 1 ? 1 : 0);
    case_begin("poly1305/lowlevel/%d/k%d/s%d", (int)len, kind, split);
    Poly1305_Init(ctx, key);
    while (off < len) {
        n = piece(split, i++, len - off);
        Poly1305_Update(ctx, msg + off, n);
        off += n;
    }
    Poly1305_Final(ctx, tag);
    case_data(tag, 16);
    case_end();
    for (j = 0; j < 256 + 8; j++)
        clean &= area[j] == CANARY;
    for (j = 256 + 8 + sz; j < sizeof(area); j++)
        clean &= area[j] == CANARY;
    check(clean, "poly1305/lowlevel/%d/k%d: bytes around POLY1305 untouched",
          (int)len, kind);
}

static void poly1305_cases(void)
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    size_t len;
    unsigned i;
    int kind, split;

    if (mac == NULL) {
        fprintf(stderr, "no POLY1305 MAC\n");
        exit(1);
    }
    for (len = 0; len <= 300; len++)
        for (kind = 0; kind < 4; kind++) {
            poly_evp(mac, len, kind, len % 4);
            poly_lowlevel(len, kind, (len + 1) % 4);
        }
    for (i = 0; i < NLONG; i++)
        for (kind = 0; kind < 4; kind++)
            for (split = 0; split < 4; split++) {
                if (split == 1 && long_lens[i] > 4096)
                    continue;
                poly_evp(mac, long_lens[i], kind, split);
                poly_lowlevel(long_lens[i], kind, split);
            }
    EVP_MAC_free(mac);
}

/* ---- ChaCha20-Poly1305 --------------------------------------------------- */

static void aead_evp(size_t len, size_t aadlen)
{
    unsigned char key[32], iv[12], aad[64], tag[16];
    const EVP_CIPHER *ch = EVP_chacha20_poly1305();
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int ol = 0, fl = 0, ok;

    rng_bytes(key, 32);
    rng_bytes(iv, 12);
    rng_bytes(aad, aadlen);
    rng_bytes(msg, len);
    case_begin("aead/evp/%d/aad%d", (int)len, (int)aadlen, 0);
    EVP_EncryptInit_ex(c, ch, NULL, key, iv);
    EVP_EncryptUpdate(c, NULL, &ol, aad, (int)aadlen);
    EVP_EncryptUpdate(c, out1, &ol, msg, (int)len);
    EVP_EncryptFinal_ex(c, out1 + ol, &fl);
    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag);
    case_data(out1, len);
    case_data(tag, 16);
    case_end();

    EVP_DecryptInit_ex(c, ch, NULL, key, iv);
    EVP_DecryptUpdate(c, NULL, &ol, aad, (int)aadlen);
    EVP_DecryptUpdate(c, out2, &ol, out1, (int)len);
    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag);
    ok = EVP_DecryptFinal_ex(c, out2 + ol, &fl) == 1
         && memcmp(out2, msg, len) == 0;
    tag[len % 16] ^= 1;
    EVP_DecryptInit_ex(c, ch, NULL, key, iv);
    EVP_DecryptUpdate(c, NULL, &ol, aad, (int)aadlen);
    EVP_DecryptUpdate(c, out2, &ol, out1, (int)len);
    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag);
    ok &= EVP_DecryptFinal_ex(c, out2 + ol, &fl) != 1;
    check(ok, "aead/evp/%d/aad%d: decrypts, rejects a bad tag",
          (int)len, (int)aadlen);
    EVP_CIPHER_CTX_free(c);
}

/* One TLS record, in place, as libssl does it: 13-byte AAD via ctrl, then
 * EVP_Cipher over payload + 16 tag bytes. */
static int tls_record(EVP_CIPHER_CTX *c, int enc, const unsigned char *key,
                      const unsigned char *iv, const unsigned char seq[8],
                      unsigned char *buf, size_t plen)
{
    unsigned char aad[13];
    int pad;

    memcpy(aad, seq, 8);
    aad[8] = 23;
    aad[9] = 3;
    aad[10] = 3;
    /* length field: the plaintext length for encryption, the record
     * length (payload + tag) for decryption */
    aad[11] = (unsigned char)((plen + (enc ? 0 : 16)) >> 8);
    aad[12] = (unsigned char)(plen + (enc ? 0 : 16));
    if (EVP_CipherInit_ex(c, EVP_chacha20_poly1305(), NULL, key, iv, enc) != 1)
        return -1;
    pad = EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, aad);
    if (pad != 16)
        return -1;
    return EVP_Cipher(c, buf, buf, plen + 16);
}

static void aead_tls(size_t plen)
{
    unsigned char key[32], iv[12], seq[8];
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int r, ok;

    rng_bytes(key, 32);
    rng_bytes(iv, 12);
    rng_bytes(seq, 8);
    rng_bytes(msg, plen);
    memcpy(out1, msg, plen);
    memset(out1 + plen, 0, 16);
    case_begin("aead/tls/%d", (int)plen, 0, 0);
    r = tls_record(c, 1, key, iv, seq, out1, plen);
    case_data(&r, sizeof(r));
    case_data(out1, plen + 16);
    case_end();
    memcpy(out2, out1, plen + 16);
    ok = tls_record(c, 0, key, iv, seq, out2, plen) >= 0
         && memcmp(out2, msg, plen) == 0;
    out1[plen + (plen % 16)] ^= 0x80;          /* corrupt the tag */
    ok &= tls_record(c, 0, key, iv, seq, out1, plen) < 0;
    check(ok, "aead/tls/%d: decrypts, rejects a bad tag", (int)plen, 0);
    EVP_CIPHER_CTX_free(c);
}

static void aead_cases(void)
{
    size_t len;
    unsigned i;

    for (len = 0; len <= 200; len++)
        aead_evp(len, len % 33);
    for (i = 0; i < NLONG; i++)
        aead_evp(long_lens[i], 13);
    for (len = 0; len <= 400; len++)
        aead_tls(len);
    for (i = 0; i < NLONG; i++)
        if (long_lens[i] <= 16384)          /* TLS's largest record */
            aead_tls(long_lens[i]);
}

/* ---- bignums ------------------------------------------------------------ */

static BN_CTX *bnctx;

/* kind 0 random, 1 all ones, 2 top word all ones, 3 sparse */
static BIGNUM *bn_words(int words, int kind, int odd)
{
    unsigned char buf[8 * 600];
    size_t n, i;
    BIGNUM *x;

    if (words < 1)
        words = 1;
    n = (size_t)words * 8;

    switch (kind) {
    case 1: memset(buf, 0xff, n); break;
    case 2: rng_bytes(buf, n); memset(buf, 0xff, 8); break;
    case 3:
        memset(buf, 0, n);
        for (i = 0; i < n; i += 1 + rng64() % 40)
            buf[i] = (unsigned char)rng64();
        break;
    default: rng_bytes(buf, n);
    }
    buf[0] |= 0x80;                 /* full top word */
    if (odd)
        buf[n - 1] |= 1;
    x = BN_bin2bn(buf, (int)n, NULL);
    return x;
}

static BIGNUM *below(const BIGNUM *m, int kind)
{
    BIGNUM *x = bn_words(BN_num_bytes(m) / 8 + 1, kind == 1 ? 1 : 0, 0);

    if (kind == 2) {                /* m - 1 */
        BN_copy(x, m);
        BN_sub_word(x, 1);
    } else
        BN_nnmod(x, x, m, bnctx);
    return x;
}

static void mont_case(int words, int kind)
{
    BIGNUM *n = bn_words(words, kind, 1);
    BIGNUM *a = below(n, kind), *b = below(n, 0), *r = BN_new();
    BN_MONT_CTX *mont = BN_MONT_CTX_new();

    case_begin("bn/mont/%d/k%d", words, kind, 0);
    BN_MONT_CTX_set(mont, n, bnctx);
    BN_mod_mul_montgomery(r, a, b, mont, bnctx);
    case_bn(r);
    BN_mod_mul_montgomery(r, a, a, mont, bnctx);
    case_bn(r);
    BN_mod_mul_montgomery(r, b, b, mont, bnctx);
    case_bn(r);
    BN_to_montgomery(r, a, mont, bnctx);
    case_bn(r);
    BN_from_montgomery(r, r, mont, bnctx);
    case_bn(r);
    case_end();
    BN_MONT_CTX_free(mont);
    BN_free(n);
    BN_free(a);
    BN_free(b);
    BN_free(r);
}

static void exp_case(int bits, int ebits, int kind, int consttime)
{
    int words = bits / 64;
    BIGNUM *n = bn_words(words, kind, 1);
    BIGNUM *a = below(n, kind), *e = bn_words((ebits + 63) / 64, 0, 1);
    BIGNUM *r = BN_new();

    case_begin(consttime ? "bn/expct/%d/e%d/k%d" : "bn/exp/%d/e%d/k%d",
               bits, ebits, kind);
    if (consttime) {
        BN_set_flags(e, BN_FLG_CONSTTIME);
        BN_mod_exp_mont_consttime(r, a, e, n, bnctx, NULL);
    } else {
        BN_mod_exp_mont(r, a, e, n, bnctx, NULL);
    }
    case_bn(r);
    case_end();
    BN_free(n);
    BN_free(a);
    BN_free(e);
    BN_free(r);
}

static void arith_case(int wa, int wb, int kind)
{
    BIGNUM *a = bn_words(wa, kind, 0), *b = bn_words(wb, kind == 1 ? 0 : kind, 0);
    BIGNUM *r = BN_new(), *q = BN_new();
    BN_ULONG w = (BN_ULONG)rng64() | 1, rem;

    case_begin("bn/arith/%d/%d/k%d", wa, wb, kind);
    BN_mul(r, a, b, bnctx);
    case_bn(r);
    BN_sqr(r, a, bnctx);
    case_bn(r);
    BN_div(q, r, a, b, bnctx);
    case_bn(q);
    case_bn(r);
    BN_copy(r, a);
    BN_mul_word(r, w);
    case_bn(r);
    rem = BN_div_word(r, w);
    case_data(&rem, sizeof(rem));
    case_bn(r);
    rem = BN_mod_word(a, w >> 1 | 1);
    case_data(&rem, sizeof(rem));
    BN_add(r, a, b);
    case_bn(r);
    BN_sub(r, a, b);
    case_bn(r);
    case_end();
    BN_free(a);
    BN_free(b);
    BN_free(r);
    BN_free(q);
}

static void bn_cases(void)
{
    static const int big[] = { 65, 72, 96, 127, 128, 129, 192, 255, 256,
                               257, 384, 511, 512 };
    static const int ebits[] = { 512, 1024, 1536, 2048, 3072, 4096 };
    int w, k, i;

    for (w = 1; w <= 64; w++)
        for (k = 0; k < 4; k++)
            mont_case(w, k);
    for (i = 0; i < (int)(sizeof(big) / sizeof(big[0])); i++)
        for (k = 0; k < 4; k++)
            mont_case(big[i], k);
    for (i = 0; i < (int)(sizeof(ebits) / sizeof(ebits[0])); i++)
        for (k = 0; k < 3; k++) {
            exp_case(ebits[i], ebits[i], k, 1);
            exp_case(ebits[i], ebits[i] / 2, k, 0);
        }
    for (k = 0; k < 2; k++) {
        exp_case(8192, 512, k, 1);
        exp_case(16384, 256, k, 1);
        exp_case(32768, 64, k, 1);
        exp_case(8192, 512, k, 0);
    }
    for (w = 1; w <= 40; w++)
        for (k = 0; k < 4; k++) {
            arith_case(w, w, k);
            arith_case(2 * w + 3, w, k);
        }
    for (k = 0; k < 4; k++) {
        arith_case(64, 64, k);
        arith_case(128, 128, k);
        arith_case(300, 129, k);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s SEED [STOCK.out]\n", argv[0]);
        return 2;
    }
    rng_state = strtoull(argv[1], NULL, 0);
    if (argc == 3 && (expect = fopen(argv[2], "r")) == NULL) {
        perror(argv[2]);
        return 2;
    }
    case_md = EVP_MD_CTX_new();
    bnctx = BN_CTX_new();
    poly1305_cases();
    aead_cases();
    bn_cases();
#if defined(__x86_64__)
    if (expect != NULL) {
        /* OpenSSL's capability vector as the modules see it (after the
         * OPENSSL_ia32cap environment mask) */
        extern unsigned int OPENSSL_ia32cap_P[4];

        printf("OPENSSL_ia32cap_P: %08x %08x %08x %08x\n",
               OPENSSL_ia32cap_P[0], OPENSSL_ia32cap_P[1],
               OPENSSL_ia32cap_P[2], OPENSSL_ia32cap_P[3]);
    }
#elif defined(__aarch64__) || defined(__arm__)
    if (expect != NULL) {
        /* the same for ARM (after the OPENSSL_armcap environment value) */
        extern unsigned int OPENSSL_armcap_P;

        printf("OPENSSL_armcap_P: %08x\n", OPENSSL_armcap_P);
    }
#endif
    if (expect != NULL) {
        char extra[256];

        if (fgets(extra, sizeof(extra), expect) != NULL)
            result(0, "stock output has more cases");
        printf("total: %ld passed, %ld failed\n", npass, nfail);
        return nfail != 0;
    }
    return 0;
}
