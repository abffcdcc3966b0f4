/*
 * apps/speed_peers.h - the peer libraries apps/speed compares with.  Each
 * speed_peer_<lib>.c compiles to nothing unless Configure found the
 * library (HAVE_OPENSSL, HAVE_SODIUM, HAVE_GMP); speed_peers.c calls only
 * the peers built in.  The types are speed.h's sp_peer_*_f.
 */
#ifndef ASMCRYPT_APPS_SPEED_PEERS_H
#define ASMCRYPT_APPS_SPEED_PEERS_H

#include "speed.h"

/* A Poly1305 peer's work: the one-shot MAC of msg under key into tag. */
typedef struct sp_mac_job {
    const unsigned char *key, *msg;
    size_t len;
    unsigned char tag[16];
} sp_mac_job;

/* Its cell (speed_peer_mac.c): m, inside arg (what run gets), is given the
 * message; run once, checked against expect (sp_mismatch on a difference),
 * then added to r as column name. */
void sp_peer_mac_cell(sp_row *r, const char *table, const char *name,
                      sp_run_f run, void *arg, sp_mac_job *m,
                      const unsigned char key[32], const unsigned char *msg,
                      size_t len, const unsigned char expect[16]);

#ifdef HAVE_OPENSSL
const char *sp_openssl_version(void);
sp_peer_mac_f sp_openssl_poly1305;
sp_peer_bn_f sp_openssl_mont, sp_openssl_modexp;
#endif

#ifdef HAVE_SODIUM
const char *sp_sodium_version(void);
sp_peer_mac_f sp_sodium_poly1305;
#endif

#ifdef HAVE_GMP
const char *sp_gmp_version(void);
sp_peer_bn_f sp_gmp_modexp;
sp_peer_words_f sp_gmp_words;
#endif

#endif
