/*
 * crypto/impl.c - asmcrypt_impl(): which implementation serves a
 * primitive.  A table of {primitive, name function}; each function
 * belongs to the area whose dispatch it names (internal.h).
 */
#include <string.h>
#include "internal.h"

/* one line an area: its name functions (bn_names.c, poly1305_api.c) */
impl_name_f bn_mont_impl_name, bn_mod_exp_impl_name, bn_words_impl_name;
impl_name_f poly1305_impl_name;

static const struct {
    const char *primitive;
    impl_name_f *name;
} impls[] = {
    { "poly1305",         poly1305_impl_name },
    { "bn_mont_mul",      bn_mont_impl_name },
    { "mod_exp",          bn_mod_exp_impl_name },
    { "bn_mul_add_words", bn_words_impl_name },
    { "bn_mul_words",     bn_words_impl_name },
    { "bn_mul_sub_words", bn_words_impl_name },
    { "bn_sqr_words",     bn_words_impl_name },
    { "bn_add_words",     bn_words_impl_name },
    { "bn_sub_words",     bn_words_impl_name },
    { "bn_cnd_add_words", bn_words_impl_name },
    { "bn_cnd_sub_words", bn_words_impl_name },
};

const char *asmcrypt_impl(const char *primitive)
{
    size_t i;

    if (primitive == NULL)
        return NULL;
    for (i = 0; i < sizeof(impls) / sizeof(impls[0]); i++)
        if (strcmp(primitive, impls[i].primitive) == 0)
            return impls[i].name(primitive);
    return NULL;
}
