/*
 * apps/speed_peer_sodium.c - libsodium as a peer:
 * crypto_onetimeauth_poly1305 (one-shot, key per message).
 */
#include "speed_peers.h"

#ifdef HAVE_SODIUM
#include <sodium.h>

const char *sp_sodium_version(void)
{
    return sodium_version_string();
}

typedef sp_mac_job sodium_mac;

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
    sp_peer_mac_cell(r, table, "sodium", run_mac, m, m, key, msg, len, expect);
}

#endif
