/*
 * apps/speed_peers.c - fan-out from the benchmark groups to the peer
 * libraries that were built in, and their versions for the header.
 */
#include <stdio.h>
#include <string.h>
#include "speed_peers.h"

/* What each peer library provides (NULL: no counterpart) */
static const struct sp_peer {
    const char *label;                  /* before its version string */
    const char *(*version)(void);
    sp_peer_mac_f *poly1305;
    sp_peer_bn_f *bn[SP_PEER_NBN];      /* by enum sp_peer_bn */
    sp_peer_words_f *words;
} peers[] = {
#ifdef HAVE_OPENSSL
    { "", sp_openssl_version, sp_openssl_poly1305,
      { sp_openssl_mont, sp_openssl_modexp }, NULL },
#endif
#ifdef HAVE_SODIUM
    { "libsodium ", sp_sodium_version, sp_sodium_poly1305, { NULL, NULL }, NULL },
#endif
#ifdef HAVE_GMP
    { "GMP ", sp_gmp_version, NULL, { NULL, sp_gmp_modexp }, sp_gmp_words },
#endif
    { NULL, NULL, NULL, { NULL, NULL }, NULL }
};

void sp_peer_versions(char *buf, size_t len)
{
    const struct sp_peer *p;
    size_t used = 0;

    buf[0] = '\0';
    for (p = peers; p->label != NULL && used < len; p++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s%s",
                                 p == peers ? "" : ", ", p->label, p->version());
    if (peers[0].label == NULL)
        snprintf(buf, len, "none built in");
}

void sp_peer_poly1305(sp_row *r, const char *table, const unsigned char key[32],
                      const unsigned char *msg, size_t len,
                      const unsigned char expect[16])
{
    const struct sp_peer *p;

    for (p = peers; p->label != NULL; p++)
        if (p->poly1305 != NULL)
            p->poly1305(r, table, key, msg, len, expect);
}

void sp_peer_bn(enum sp_peer_bn op, sp_row *r, const char *table,
                const asmcrypt_word *a, const asmcrypt_word *b,
                const asmcrypt_word *n, int num, const asmcrypt_word *expect)
{
    const struct sp_peer *p;

    for (p = peers; p->label != NULL; p++)
        if (p->bn[op] != NULL)
            p->bn[op](r, table, a, b, n, num, expect);
}

void sp_peer_words(sp_row *r, const char *prim, sp_words *st)
{
    const struct sp_peer *p;

    for (p = peers; p->label != NULL; p++)
        if (p->words != NULL)
            p->words(r, prim, st);
}
