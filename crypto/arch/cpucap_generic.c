/*
 * crypto/arch/cpucap_generic.c - targets without assembly (asm_arch
 * none): no capabilities.
 */
#include "internal.h"

unsigned int cpucap_arch_detect(void)
{
    return 0;
}
