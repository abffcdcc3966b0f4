/*
 * test/test_fuzz_replay.c - replays the committed fuzz corpus
 * (fuzz/corpus/<target>/) through the same differential checks as the
 * fuzz targets (fuzz/check_*.c, included here, not copied): asm against
 * the C references, at the capability level test/run.sh set with
 * ASMCRYPT_CAP (no in-process restriction), so every row, qemu rows
 * included, sees every input the fuzzer kept.  No OpenSSL here.
 * argv[1] is test/vectors; the corpus is argv[1]/../../fuzz/corpus.
 * One check per corpus file; a target directory that cannot be read, or
 * holds no file, is a failure.
 */
#include "../fuzz/check_words.c"
#include "../fuzz/check_mont.c"
#include "../fuzz/check_poly1305.c"
#include "../fuzz/check_modexp.c"
#include "../fuzz/fuzz_files.h"
#include "util.h"

typedef int (*check_f)(const uint8_t *, size_t, const unsigned int *, int);

static check_f current;

static void one(const char *name, const uint8_t *data, size_t size)
{
    CHECK(current(data, size, NULL, 0) == 0, "%s: mismatch (see above)", name);
}

int main(int argc, char **argv)
{
    static const struct { const char *dir; check_f fn; } t[] = {
        { "words", fz_check_words },
        { "mont", fz_check_mont },
        { "poly1305", fz_check_poly1305 },
        { "modexp", fz_check_modexp },
    };
    const char *vectors = argc > 1 ? argv[1] : "test/vectors";
    char path[4096];
    size_t i;
    int n;

    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        snprintf(path, sizeof(path), "%s/../../fuzz/corpus/%s", vectors, t[i].dir);
        current = t[i].fn;
        n = fz_replay_path(path, one);
        CHECK(n > 0, "%s: no corpus file read", path);
    }
    return tu_finish();
}
