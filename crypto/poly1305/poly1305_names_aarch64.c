/*
 * crypto/poly1305/poly1305_names_aarch64.c - names of the block functions
 * poly1305_init of poly1305-armv8.pl hands out (asmcrypt_impl).
 * Compiled with that module on asm_arch aarch64 only (Configure's
 * registry).
 *
 * "armv8" is poly1305_blocks (base 2^64).  The module's one other entry,
 * local outside kernel builds, is the NEON code ("armv8-neon": base 2^26
 * from 256 bytes once the key's powers are cached, from 512 before, the
 * scalar code for shorter calls and the tails), which init hands out
 * when NEON is enabled.
 */
#include "internal.h"

const char *poly1305_asm_name(poly1305_blocks_f chosen)
{
    return chosen == poly1305_blocks ? "armv8" : "armv8-neon";
}
