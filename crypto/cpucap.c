/*
 * crypto/cpucap.c - capability mask shared by the C layer and the
 * assembly modules: detected once, restricted by ASMCRYPT_CAP.
 */
#include <stdlib.h>
#include "internal.h"

unsigned int asmcrypt_cpucap;
static unsigned int cap_detected;
static volatile int cap_ready;

static unsigned int env_mask(void)
{
    const char *s = getenv("ASMCRYPT_CAP");
    char *end;
    unsigned long v;

    if (s == NULL || *s == '\0')
        return ~0u;
    v = strtoul(s, &end, 16);
    if (*end != '\0')
        return ~0u;                 /* unparsable: ignore, never add */
    return (unsigned int)v;
}

void asmcrypt_cpucap_init(void)
{
    if (cap_ready)
        return;
    cap_detected = asmcrypt_arch_detect();
    asmcrypt_cpucap = cap_detected & env_mask();
    cap_ready = 1;
}

#if defined(__GNUC__)
__attribute__((constructor))
#endif
static void cpucap_ctor(void)
{
    asmcrypt_cpucap_init();
}

unsigned int asmcrypt_cpucap_detected(void)
{
    asmcrypt_cpucap_init();
    return cap_detected;
}

void asmcrypt_cpucap_restrict(unsigned int mask)
{
    asmcrypt_cpucap_init();
    asmcrypt_cpucap = cap_detected & env_mask() & mask;
}

unsigned int asmcrypt_cpu_caps(void)
{
    asmcrypt_cpucap_init();
    return asmcrypt_cpucap;
}
