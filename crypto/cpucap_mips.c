/*
 * crypto/cpucap_mips.c - MIPS "capabilities" come from the build's ISA
 * macros (Linux offers no reliable run-time probe); implementation names.
 */
#if defined(__mips__)
#include <string.h>
#include "internal.h"

unsigned int asmcrypt_arch_detect(void)
{
    unsigned int caps = 0;
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
    caps |= ASMCRYPT_CAP_MIPS_R2;
#endif
    return caps;
}

const char *asmcrypt_arch_impl(const char *primitive, unsigned int caps)
{
    (void)primitive;
    (void)caps;
    return NULL;    /* no MIPS assembly wired in yet */
}
#else
typedef int asmcrypt_cpucap_unused;  /* ISO C forbids an empty unit */
#endif
