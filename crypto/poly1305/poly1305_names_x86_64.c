/*
 * crypto/poly1305/poly1305_names_x86_64.c - names of the block functions
 * poly1305_init of poly1305-x86_64.pl hands out (asmcrypt_impl).
 * Compiled with that module on asm_arch x86_64 only (Configure's registry).
 *
 * The scalar entry poly1305_blocks is always global and named by its
 * address.  The vector entries (AVX2, AVX-512F, AVX512-IFMA; they run the
 * scalar loop for short inputs) are global only in kernel builds, so they
 * are weak references here: a vector pointer that matches none is named
 * from the capability bits init tested (IFMA needs AVX2 + AVX-512F + IFMA,
 * AVX-512 needs AVX2 + AVX-512F).  Follow-up: with the module exporting
 * its entries outside the kernel too, the table names every pointer and
 * that fallback goes.
 */
#include "internal.h"

void poly1305_blocks_avx2(void *ctx, const unsigned char *inp, size_t len,
                          unsigned int padbit) __attribute__((weak));
void poly1305_blocks_avx512(void *ctx, const unsigned char *inp, size_t len,
                            unsigned int padbit) __attribute__((weak));

static const char *vector_name(unsigned int caps)
{
    const unsigned int v512 = ASMCRYPT_CAP_X86_AVX2 | ASMCRYPT_CAP_X86_AVX512F;
    const unsigned int ifma = v512 | ASMCRYPT_CAP_X86_AVX512IFMA;

    if ((caps & ifma) == ifma)
        return "x86_64-avx512ifma";
    return (caps & v512) == v512 ? "x86_64-avx512" : "x86_64-avx2";
}

const char *poly1305_asm_name(poly1305_blocks_f chosen)
{
    if (chosen == poly1305_blocks)
        return "x86_64";
    if (poly1305_blocks_avx2 != NULL && chosen == poly1305_blocks_avx2)
        return "x86_64-avx2";
    if (poly1305_blocks_avx512 != NULL && chosen == poly1305_blocks_avx512)
        return "x86_64-avx512";
    return vector_name(asmcrypt_cpu_caps());
}
