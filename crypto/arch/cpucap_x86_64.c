/*
 * crypto/arch/cpucap_x86_64.c - x86_64 capability detection (cpuid,
 * xgetbv).  Compiled for asm_arch x86_64 only (Configure's registry).
 */
#include <cpuid.h>
#include "internal.h"

static unsigned long long xgetbv0(void)
{
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

unsigned int cpucap_arch_detect(void)
{
    unsigned int a, b, c, d, max, caps = 0;
    int ymm_ok = 0, zmm_ok = 0;

    max = __get_cpuid_max(0, NULL);
    if (max < 1)
        return 0;
    __cpuid(1, a, b, c, d);
    if (c & (1u << 27)) {                     /* OSXSAVE */
        unsigned long long x = xgetbv0();
        ymm_ok = (x & 0x6) == 0x6;            /* XMM, YMM state */
        zmm_ok = ymm_ok && (x & 0xe0) == 0xe0; /* opmask, ZMM hi256, hi16 */
    }
    if ((c & (1u << 28)) && ymm_ok)
        caps |= ASMCRYPT_CAP_X86_AVX;
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (b & (1u << 3))  caps |= ASMCRYPT_CAP_X86_BMI1;
        if (b & (1u << 8))  caps |= ASMCRYPT_CAP_X86_BMI2;
        if (b & (1u << 19)) caps |= ASMCRYPT_CAP_X86_ADX;
        if ((b & (1u << 5)) && ymm_ok)  caps |= ASMCRYPT_CAP_X86_AVX2;
        if (zmm_ok) {
            if (b & (1u << 16)) caps |= ASMCRYPT_CAP_X86_AVX512F;
            if (b & (1u << 31)) caps |= ASMCRYPT_CAP_X86_AVX512VL;
            if (b & (1u << 30)) caps |= ASMCRYPT_CAP_X86_AVX512BW;
            if (b & (1u << 21)) caps |= ASMCRYPT_CAP_X86_AVX512IFMA;
        }
    }
    return caps;
}
