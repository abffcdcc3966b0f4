/*
 * apps/speed_peer_sodium.c - libsodium as a peer:
 * crypto_onetimeauth_poly1305 (one-shot, key per message).
 */
#include <string.h>
#include "speed_peers.h"

#ifdef HAVE_SODIUM
#include <sodium.h>

const char *sp_sodium_version(void)
{
    return sodium_version_string();
}

typedef struct sodium_mac {
    const unsigned char *key, *msg;
    size_t len;
    unsigned char tag[16];
} sodium_mac;

static void run_mac(void *arg, unsigned long n)
{
    sodium_mac *m = arg;

    while (n--)
        crypto_onetimeauth_poly1305(m->tag, m->msg, (unsigned long long)m->len, m->key);
}

void sp_sodium_poly1305(sp_row *r, const char *table, const unsigned char key[32],
                        const unsigned char *msg, size_t len,
                        const unsigned char expect[16])
{
    sodium_mac *m;

    if (sodium_init() < 0)
        return;
    m = sp_row_alloc(r, sizeof(*m));
    m->key = key;
    m->msg = msg;
    m->len = len;
    run_mac(m, 1);
    if (memcmp(m->tag, expect, 16) != 0)
        sp_mismatch(table, (long)len, "B", "sodium", "c");
    sp_row_add(r, "sodium", SP_PEER, SP_ALLCAPS, run_mac, m);
}

#else /* !HAVE_SODIUM */

const char *sp_sodium_version(void)
{
    return NULL;
}

void sp_sodium_poly1305(sp_row *r, const char *table, const unsigned char key[32],
                        const unsigned char *msg, size_t len,
                        const unsigned char expect[16])
{
    (void)r; (void)table; (void)key; (void)msg; (void)len; (void)expect;
}

#endif
