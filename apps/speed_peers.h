/*
 * apps/speed_peers.h - the peer libraries apps/speed compares with.  Each
 * speed_peer_<lib>.c compiles to stubs (adding no cell) unless Configure
 * found the library (HAVE_OPENSSL, HAVE_SODIUM, HAVE_GMP).
 */
#ifndef ASMCRYPT_APPS_SPEED_PEERS_H
#define ASMCRYPT_APPS_SPEED_PEERS_H

#include "speed.h"

const char *sp_openssl_version(void);     /* NULL when not built in */
void sp_openssl_poly1305(sp_row *r, const char *table, const unsigned char key[32],
                         const unsigned char *msg, size_t len,
                         const unsigned char expect[16]);
void sp_openssl_mont(sp_row *r, const char *table, const asmcrypt_word *a,
                     const asmcrypt_word *b, const asmcrypt_word *n, int num,
                     const asmcrypt_word *expect);
void sp_openssl_modexp(sp_row *r, const char *table, const asmcrypt_word *a,
                       const asmcrypt_word *e, const asmcrypt_word *n, int num,
                       const asmcrypt_word *expect);

const char *sp_sodium_version(void);
void sp_sodium_poly1305(sp_row *r, const char *table, const unsigned char key[32],
                        const unsigned char *msg, size_t len,
                        const unsigned char expect[16]);

const char *sp_gmp_version(void);
void sp_gmp_modexp(sp_row *r, const char *table, const asmcrypt_word *a,
                   const asmcrypt_word *e, const asmcrypt_word *n, int num,
                   const asmcrypt_word *expect);
void sp_gmp_words(sp_row *r, const char *prim, sp_words *st);

#endif
