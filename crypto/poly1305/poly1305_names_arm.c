/*
 * crypto/poly1305/poly1305_names_arm.c - names of the block functions
 * poly1305_init of poly1305-armv4.pl hands out (asmcrypt_impl).
 * Compiled with that module on asm_arch arm only (Configure's registry).
 *
 * "armv7-neon": radix 2^26, two blocks per step for calls of 64 bytes and
 * more (the scalar code does shorter calls and odd blocks), in NEON builds
 * with the NEON bit; else the scalar radix-2^32 code, "armv4".  The NEON
 * entry exists only in NEON builds, hence the weak reference.
 */
#include "internal.h"

void poly1305_blocks_neon(void *ctx, const unsigned char *inp, size_t len,
                          unsigned int padbit) __attribute__((weak));

const char *poly1305_asm_name(poly1305_blocks_f chosen)
{
    if (poly1305_blocks_neon != NULL && chosen == poly1305_blocks_neon)
        return "armv7-neon";
    return "armv4";
}
