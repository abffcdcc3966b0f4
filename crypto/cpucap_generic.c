/*
 * crypto/cpucap_generic.c - targets without assembly: no capabilities,
 * every primitive is the C reference.
 */
#if !defined(__x86_64__) && !defined(__arm__) && !defined(__aarch64__) && !defined(__mips__)
#include "internal.h"

unsigned int asmcrypt_arch_detect(void)
{
    return 0;
}

const char *asmcrypt_arch_impl(const char *primitive, unsigned int caps)
{
    (void)primitive;
    (void)caps;
    return NULL;
}
#else
typedef int asmcrypt_cpucap_generic_unused;  /* ISO C forbids an empty unit */
#endif
