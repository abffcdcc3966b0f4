/*
 * crypto/impl.c - asmcrypt_impl(): which implementation serves a primitive.
 */
#include <string.h>
#include "internal.h"

static const char *const known[] = {
    "poly1305", "bn_mont_mul", "mod_exp",
    "bn_mul_add_words", "bn_mul_words", "bn_mul_sub_words", "bn_sqr_words",
    "bn_add_words", "bn_sub_words", "bn_cnd_add_words", "bn_cnd_sub_words",
};

const char *asmcrypt_impl(const char *primitive)
{
    size_t i;
    const char *name;

    if (primitive == NULL)
        return NULL;
    for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (strcmp(primitive, known[i]) == 0)
            break;
    if (i == sizeof(known) / sizeof(known[0]))
        return NULL;
    name = asmcrypt_arch_impl(primitive, asmcrypt_cpu_caps());
    /* A modexp without a path of its own runs on Montgomery multiplication. */
    if (name == NULL && strcmp(primitive, "mod_exp") == 0)
        name = asmcrypt_arch_impl("bn_mont_mul", asmcrypt_cpu_caps());
    return name != NULL ? name : "c";
}
