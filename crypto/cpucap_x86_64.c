/*
 * crypto/cpucap_x86_64.c - x86_64 capability detection (cpuid, xgetbv)
 * and implementation names.
 */
#if defined(__x86_64__)
#include <string.h>
#include <cpuid.h>
#include "internal.h"

static unsigned long long xgetbv0(void)
{
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

unsigned int asmcrypt_arch_detect(void)
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

const char *asmcrypt_arch_impl(const char *primitive, unsigned int caps)
{
    (void)primitive;
    (void)caps;
#if defined(ASMCRYPT_POLY1305_ASM)
    /* poly1305: mirrors poly1305_init's choice in poly1305-x86_64.pl
     * (the AVX entries run the scalar loop for short inputs). */
    if (strcmp(primitive, "poly1305") == 0) {
        const unsigned int v512 = ASMCRYPT_CAP_X86_AVX2 | ASMCRYPT_CAP_X86_AVX512F;
        const unsigned int ifma = v512 | ASMCRYPT_CAP_X86_AVX512IFMA;

        if ((caps & ifma) == ifma)
            return "x86_64-avx512ifma";
        if ((caps & v512) == v512)
            return "x86_64-avx512";
        if (caps & ASMCRYPT_CAP_X86_AVX2)
            return "x86_64-avx2";
        return "x86_64";
    }
#endif
#if defined(ASMCRYPT_BN_MONT_ASM) || defined(ASMCRYPT_BN_WORDS_ASM)
    /* bignum: x86_64-mont.pl / x86_64-words.pl take their MULX/ADCX/ADOX
     * paths when both BMI2 and ADX are present, mulq otherwise.  The add,
     * sub and cnd_* loops have a single path. */
    {
        const unsigned int mulx = ASMCRYPT_CAP_X86_BMI2 | ASMCRYPT_CAP_X86_ADX;
        const int adx = (caps & mulx) == mulx;
        const int mont = strcmp(primitive, "bn_mont_mul") == 0;

# if defined(ASMCRYPT_BN_MONT_ASM)
        /* num 16..64 (1024..4096 bits) and asmcrypt_mod_exp from 1024 bits
         * run on AVX512-IFMA in radix 2^52; other sizes on mulx/mulq */
        const unsigned int ifma = ASMCRYPT_CAP_X86_AVX512F | ASMCRYPT_CAP_X86_AVX512IFMA;

        if (mont)
            return (caps & ifma) == ifma ? "x86_64-ifma" : adx ? "x86_64-adx" : "x86_64";
        /* asmcrypt_mod_exp (bn_exp_x86_64.c): radix 2^52 on IFMA at every
         * size it takes, else radix 2^64 over bn_mul_mont (MULX or mulq) */
        if (strcmp(primitive, "mod_exp") == 0)
            return (caps & ifma) == ifma ? "x86_64-ifma" : adx ? "x86_64-adx" : "x86_64";
# endif
# if defined(ASMCRYPT_BN_WORDS_ASM)
        if (!mont && strncmp(primitive, "bn_", 3) == 0) {
            if (strcmp(primitive, "bn_mul_add_words") == 0
                || strcmp(primitive, "bn_mul_words") == 0
                || strcmp(primitive, "bn_mul_sub_words") == 0
                || strcmp(primitive, "bn_sqr_words") == 0)
                return adx ? "x86_64-adx" : "x86_64";
            return "x86_64";
        }
# endif
        (void)adx;
        (void)mont;
    }
#endif
    return NULL;
}
#else
typedef int asmcrypt_cpucap_unused;  /* ISO C forbids an empty unit */
#endif
