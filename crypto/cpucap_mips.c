/*
 * crypto/cpucap_mips.c - MIPS "capabilities" come from the build's ISA
 * macros (Linux offers no reliable run-time probe); implementation names.
 */
#if defined(__mips__)
#include <string.h>
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

unsigned int asmcrypt_arch_detect(void)
{
    unsigned int caps = 0;
#if MIPS_ISA_REV >= 2
    caps |= ASMCRYPT_CAP_MIPS_R2;
#endif
    return caps;
}

#if defined(ASMCRYPT_POLY1305_ASM) || defined(ASMCRYPT_BN_MONT_ASM) || \
    defined(ASMCRYPT_BN_WORDS_ASM)
/*
 * The path the MIPS modules take:
 *  - 64-bit code (n32/n64): chosen at build time: "mips64r6" (dmulu/dmuhu),
 *    "mips64r2" (R2..R5; R2 only changes the big-endian byte swap), or
 *    "mips64" (MIPS III/IV, MIPS64r1).
 *  - 32-bit code (o32): "mips32r6" (mulu/muhu), "mips32r2" (maddu
 *    chains), "mips32" (MIPS32r1 build: maddu, no wsbh/rotr), "mips1"
 *    (multu/mflo/mfhi + sltu, MIPS I/II).  An R2..R5 build also carries
 *    the MIPS I code of poly1305 and takes it when ASMCRYPT_CAP_MIPS_R2 is
 *    clear (poly1305_init reads asmcrypt_cpucap).
 */
static const char *mips_path(int r2_runtime, unsigned int caps)
{
#if MIPS_PATH64
    (void)r2_runtime;
    (void)caps;
# if MIPS_ISA_REV >= 6
    return "mips64r6";
# elif MIPS_ISA_REV >= 2
    return "mips64r2";
# else
    return "mips64";
# endif
#else
# if MIPS_ISA_REV >= 6
    (void)r2_runtime;
    (void)caps;
    return "mips32r6";
# elif MIPS_ISA_REV >= 2
    if (r2_runtime && !(caps & ASMCRYPT_CAP_MIPS_R2))
        return "mips1";
    return "mips32r2";
# elif MIPS_ISA_REV >= 1
    (void)r2_runtime;
    (void)caps;
    return "mips32";
# else
    (void)r2_runtime;
    (void)caps;
    return "mips1";
# endif
#endif
}
#endif

const char *asmcrypt_arch_impl(const char *primitive, unsigned int caps)
{
#if defined(ASMCRYPT_POLY1305_ASM)
    if (strcmp(primitive, "poly1305") == 0)
        return mips_path(1, caps);
#endif
#if defined(ASMCRYPT_BN_MONT_ASM)
    if (strcmp(primitive, "bn_mont_mul") == 0)
        return mips_path(0, caps);
#endif
#if defined(ASMCRYPT_BN_WORDS_ASM)
    if (strncmp(primitive, "bn_", 3) == 0 && strcmp(primitive, "bn_mont_mul") != 0)
        return mips_path(0, caps);
#endif
    (void)primitive;
    (void)caps;
    return NULL;
}
#else
typedef int asmcrypt_cpucap_unused;  /* ISO C forbids an empty unit */
#endif
