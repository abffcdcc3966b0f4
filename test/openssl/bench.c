/*
 * test/openssl/bench.c - Poly1305 throughput of an OpenSSL build, for
 * docs/perf/openssl-import.md (OpenSSL 3.0's `openssl speed` has no
 * Poly1305 MAC).  Built against one build's libcrypto.a:
 *
 *   bench-openssl [SECONDS]     (default 1 second per size)
 *
 * Prints "poly1305-evp SIZE MB/s" for EVP_MAC POLY1305 (init, one update,
 * final per message: what a protocol pays per record) and
 * "poly1305-lowlevel SIZE MB/s" for Poly1305_Init/Update/Final (the path
 * the ChaCha20-Poly1305 cipher uses), sizes 16 .. 16384 as speed uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include "crypto/poly1305.h"

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned char buf[16384 + 64];
static volatile unsigned char sink;

int main(int argc, char **argv)
{
    static const size_t sizes[] = { 16, 64, 256, 1024, 8192, 16384 };
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    unsigned char key[32], tag[16];
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    POLY1305 *p = malloc(Poly1305_ctx_size());
    unsigned i;
    int pass;

    if (mac == NULL || c == NULL || p == NULL)
        return 1;
    for (i = 0; i < sizeof(buf); i++)
        buf[i] = (unsigned char)(i * 131 + 7);
    for (i = 0; i < 32; i++)
        key[i] = (unsigned char)(i * 17 + 1);
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
            size_t len = sizes[i], n = 0, tl;
            double t0 = now(), t;

            do {
                unsigned k;

                for (k = 0; k < 64; k++) {
                    if (pass == 0) {
                        EVP_MAC_init(c, key, 32, NULL);
                        EVP_MAC_update(c, buf, len);
                        EVP_MAC_final(c, tag, &tl, sizeof(tag));
                    } else {
                        Poly1305_Init(p, key);
                        Poly1305_Update(p, buf, len);
                        Poly1305_Final(p, tag);
                    }
                    sink ^= tag[0];
                    key[0] ^= tag[1];
                }
                n += 64;
                t = now() - t0;
            } while (t < secs);
            printf("%s %zu %.1f\n", pass ? "poly1305-lowlevel" : "poly1305-evp",
                   len, (double)(n * len) / t / 1e6);
        }
    free(p);
    EVP_MAC_CTX_free(c);
    EVP_MAC_free(mac);
    return 0;
}
