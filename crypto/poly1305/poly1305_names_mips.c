/*
 * crypto/poly1305/poly1305_names_mips.c - names of the block functions
 * poly1305_init of poly1305-mips.pl hands out (asmcrypt_impl).  Compiled
 * with that module on asm_arch mips only (Configure's registry).
 *
 * poly1305_blocks is the code for the build's ISA
 * (cpucap_mips_build_name).  An o32 R2..R5 build also carries the
 * MIPS32r1 block function (the code of a MIPS32r1 build, named as there),
 * local to the module, and its init hands that one out when
 * ASMCRYPT_CAP_MIPS_R2 is clear: the one pointer that is not
 * poly1305_blocks.
 */
#include "internal.h"

const char *poly1305_asm_name(poly1305_blocks_f chosen)
{
    return chosen == poly1305_blocks ? cpucap_mips_build_name() : "mips32";
}
