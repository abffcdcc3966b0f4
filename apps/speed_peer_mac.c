/*
 * apps/speed_peer_mac.c - the cell of a Poly1305 peer (OpenSSL's EVP_MAC,
 * libsodium's crypto_onetimeauth): checked once against the C reference's
 * tag, then added to the row.  Apart from speed_peers.c so that the peer
 * files, which call it, and the fan-out, which calls them, form no cycle.
 */
#include <string.h>
#include "speed_peers.h"

void sp_peer_mac_cell(sp_row *r, const char *table, const char *name,
                      sp_run_f run, void *arg, sp_mac_job *m,
                      const unsigned char key[32], const unsigned char *msg,
                      size_t len, const unsigned char expect[16])
{
    m->key = key;
    m->msg = msg;
    m->len = len;
    run(arg, 1);
    if (memcmp(m->tag, expect, 16) != 0)
        sp_mismatch(table, (long)len, "B", name, "c");
    sp_row_add(r, name, SP_PEER, SP_ALLCAPS, run, arg);
}
