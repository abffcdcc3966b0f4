/*
 * crypto/arch/cpucap_mips.c - MIPS "capabilities" come from the build's
 * ISA macros (Linux offers no reliable run-time probe).  Compiled for
 * asm_arch mips only (Configure's registry).
 */
#include "internal.h"

#if defined(__mips_isa_rev)
# define MIPS_ISA_REV __mips_isa_rev
#else
# define MIPS_ISA_REV 0
#endif

#if defined(__mips64) && defined(_MIPS_SIM) && defined(_ABIO32) && _MIPS_SIM != _ABIO32
# define MIPS_PATH64 1      /* n32/n64: the 64-bit (base 2^64) code */
#else
# define MIPS_PATH64 0
#endif

unsigned int cpucap_arch_detect(void)
{
    unsigned int caps = 0;
#if MIPS_ISA_REV >= 2
    caps |= ASMCRYPT_CAP_MIPS_R2;
#endif
    return caps;
}

/*
 * The code the MIPS modules assemble for this build (they choose at build
 * time from the same macros):
 *  - 64-bit code (n32/n64): "mips64r6" (dmulu/dmuhu), "mips64r2" (R2..R5;
 *    R2 only changes the big-endian byte swap), or "mips64" (MIPS III/IV,
 *    MIPS64r1).
 *  - 32-bit code (o32): "mips32r6" (mulu/muhu), "mips32r2" (maddu
 *    chains), "mips32" (MIPS32r1 build: maddu, no wsbh/rotr), "mips1"
 *    (multu/mflo/mfhi + sltu, MIPS I/II).
 * Run-time choices on top of it (poly1305's pre-R2 code in o32 R2 builds)
 * are named by the module's area.
 */
const char *cpucap_mips_build_name(void)
{
#if MIPS_PATH64
# if MIPS_ISA_REV >= 6
    return "mips64r6";
# elif MIPS_ISA_REV >= 2
    return "mips64r2";
# else
    return "mips64";
# endif
#elif MIPS_ISA_REV >= 6
    return "mips32r6";
#elif MIPS_ISA_REV >= 2
    return "mips32r2";
#elif MIPS_ISA_REV >= 1
    return "mips32";
#else
    return "mips1";
#endif
}
