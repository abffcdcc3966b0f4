/*
 * fuzz/fuzz_openssl.h - OpenSSL as an independent oracle (only with
 * -DFUZZ_OPENSSL, link -lcrypto; fuzz/fuzz.mk sets both when Configure
 * found OpenSSL).  Conversions between our word arrays and BIGNUMs go
 * through little-endian byte strings, so they hold for any word size.
 */
#ifndef ASMCRYPT_FUZZ_OPENSSL_H
#define ASMCRYPT_FUZZ_OPENSSL_H

#ifdef FUZZ_OPENSSL
#include <openssl/bn.h>

#define FZO_MAXB (ASMCRYPT_BN_MAX_WORDS * sizeof(BN_ULONG))

static BN_CTX *fzo_ctx(void)
{
    static BN_CTX *ctx;

    if (ctx == NULL && (ctx = BN_CTX_new()) == NULL)
        abort();
    return ctx;
}

/* a new BIGNUM holding x[0..num-1] */
static BIGNUM *fzo_bn(const BN_ULONG *x, int num)
{
    unsigned char b[FZO_MAXB];
    BIGNUM *r;
    size_t i, k;

    for (i = 0; i < (size_t)num; i++)
        for (k = 0; k < sizeof(BN_ULONG); k++)
            b[i * sizeof(BN_ULONG) + k] = (unsigned char)(x[i] >> (8 * k));
    r = BN_lebin2bn(b, (int)(num * sizeof(BN_ULONG)), NULL);
    if (r == NULL)
        abort();
    return r;
}

/* x[0..num-1] = v; 0 when v does not fit */
static int fzo_words(BN_ULONG *x, const BIGNUM *v, int num)
{
    unsigned char b[FZO_MAXB];
    size_t i, k;

    if (BN_bn2lebinpad(v, b, (int)(num * sizeof(BN_ULONG))) < 0)
        return 0;
    for (i = 0; i < (size_t)num; i++) {
        x[i] = 0;
        for (k = 0; k < sizeof(BN_ULONG); k++)
            x[i] |= (BN_ULONG)b[i * sizeof(BN_ULONG) + k] << (8 * k);
    }
    return 1;
}
#endif

#endif
