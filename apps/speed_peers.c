/*
 * apps/speed_peers.c - fan-out from the benchmark groups to the peer
 * libraries that were built in, and their versions for the header.
 */
#include <stdio.h>
#include "speed_peers.h"

void sp_peer_versions(char *buf, size_t len)
{
    const char *v[3];
    const char *label[3] = { "", "libsodium ", "GMP " };
    size_t used = 0;
    int i, any = 0;

    v[0] = sp_openssl_version();
    v[1] = sp_sodium_version();
    v[2] = sp_gmp_version();
    buf[0] = '\0';
    for (i = 0; i < 3; i++)
        if (v[i] != NULL && used < len) {
            used += (size_t)snprintf(buf + used, len - used, "%s%s%s",
                                     any ? ", " : "", label[i], v[i]);
            any = 1;
        }
    if (!any)
        snprintf(buf, len, "none built in");
}

void sp_peer_poly1305(sp_row *r, const char *table, const unsigned char key[32],
                      const unsigned char *msg, size_t len,
                      const unsigned char expect[16])
{
    sp_openssl_poly1305(r, table, key, msg, len, expect);
    sp_sodium_poly1305(r, table, key, msg, len, expect);
}

void sp_peer_mont(sp_row *r, const char *table, const asmcrypt_word *a,
                  const asmcrypt_word *b, const asmcrypt_word *n, int num,
                  const asmcrypt_word *expect)
{
    sp_openssl_mont(r, table, a, b, n, num, expect);
}

void sp_peer_modexp(sp_row *r, const char *table, const asmcrypt_word *a,
                    const asmcrypt_word *e, const asmcrypt_word *n, int num,
                    const asmcrypt_word *expect)
{
    sp_openssl_modexp(r, table, a, e, n, num, expect);
    sp_gmp_modexp(r, table, a, e, n, num, expect);
}

void sp_peer_words(sp_row *r, const char *prim, sp_words *st)
{
    sp_gmp_words(r, prim, st);
}
