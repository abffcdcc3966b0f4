/*
 * fuzz/fuzz_driver.h - the entry points of a fuzz target, after
 * "#define FZ_CHECK fz_check_<target>" and the check file:
 *  - LLVMFuzzerTestOneInput (libFuzzer; AFL++ links the same symbol with
 *    its libAFLDriver): runs the check at every level of fz_levels and
 *    aborts on a mismatch, so the fuzzer keeps the input as a crash.
 *  - with -DFUZZ_STANDALONE (or the older -DFUZZ_MAIN): a main() that
 *    replays the files named on the command line (directories: every file
 *    in them) and prints "N passed, N failed"; exit 1 on any mismatch.
 */
#ifndef ASMCRYPT_FUZZ_DRIVER_H
#define ASMCRYPT_FUZZ_DRIVER_H

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int bad = FZ_CHECK(data, size, fz_levels, FZ_NLEVELS);

    asmcrypt_cpucap_restrict(~0u);
    if (bad)
        abort();
    return 0;
}

#if defined(FUZZ_STANDALONE) || defined(FUZZ_MAIN)
#include "fuzz_files.h"

static unsigned long fzd_passed, fzd_failed;

static void fzd_one(const char *path, const uint8_t *data, size_t size)
{
    if (FZ_CHECK(data, size, fz_levels, FZ_NLEVELS)) {
        fprintf(stderr, "  in %s\n", path);
        fzd_failed++;
    } else {
        fzd_passed++;
    }
    asmcrypt_cpucap_restrict(~0u);
}

int main(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc; i++)
        if (fz_replay_path(argv[i], fzd_one) < 0) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            fzd_failed++;
        }
    printf("%lu passed, %lu failed\n", fzd_passed, fzd_failed);
    return fzd_failed != 0;
}
#endif

#endif
