/*
 * crypto/poly1305/poly1305_names_mips.c - names of the block functions
 * poly1305_init of poly1305-mips.pl hands out (asmcrypt_impl).  Compiled
 * with that module on asm_arch mips only (Configure's registry).
 *
 * poly1305_blocks is the code for the build's ISA
 * (cpucap_mips_build_name).  A big-endian o32 build of MIPS32r1..R5 also
 * carries a second block function, local to the module, and its init
 * hands that one out by ASMCRYPT_CAP_MIPS_R2: the one pointer that is not
 * poly1305_blocks.  It is the R2 code ("mips32r2", handed out when the
 * bit is set) in a MIPS32r1 build and the MIPS32r1 code ("mips32", when
 * the bit is clear) in an R2..R5 build.  (Little-endian builds have one:
 * there the two would be the same instructions.)  A little-endian n64 R6
 * build's poly1305_blocks goes to its MSA body from 512 bytes when
 * ASMCRYPT_CAP_MIPS_MSA is set (cpucap_mips.c probes for it): named
 * "mips64r6-msa" then, as the NEON block functions are named for their
 * vector body though short input runs their scalar code.
 */
#include "internal.h"

#if defined(__mips_isa_rev) && __mips_isa_rev == 1
# define OTHER_NAME "mips32r2"
#else
# define OTHER_NAME "mips32"
#endif

const char *poly1305_asm_name(poly1305_blocks_f chosen)
{
#if ASMCRYPT_MIPS_MSA_PROBE
    if (chosen == poly1305_blocks && (asmcrypt_cpu_caps() & ASMCRYPT_CAP_MIPS_MSA))
        return "mips64r6-msa";
#endif
    return chosen == poly1305_blocks ? cpucap_mips_build_name() : OTHER_NAME;
}
