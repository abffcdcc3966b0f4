/*
 * fuzz/fuzz_check.h - what the differential checks share: the input
 * reader, the capability levels and the check signature.
 *
 * Each fuzz/check_<target>.c defines
 *     int fz_check_<target>(const uint8_t *data, size_t size,
 *                           const unsigned int *levels, int nlevels);
 * It decodes one input, computes the references once (C references,
 * OpenSSL when FUZZ_OPENSSL is defined), then at each level
 * (asmcrypt_cpucap_restrict) runs the library and compares.  levels ==
 * NULL means "only the current capabilities, no restrict" (the replay test,
 * which test/run.sh runs at every ASMCRYPT_CAP level).  It returns the
 * number of mismatches (0: all agree) after printing each one to stderr as
 * "MISMATCH <what> cap=<caps> ...".
 *
 * The check files are included, not linked, by the fuzz targets
 * (fuzz/fuzz_<target>.c) and by test/test_fuzz_replay.c, so each check is
 * written once; their helpers are static with a per-file prefix.
 */
#ifndef ASMCRYPT_FUZZ_CHECK_H
#define ASMCRYPT_FUZZ_CHECK_H

/* Before any system header (this file is the first one every fuzz and
 * replay source includes): readdir on 32-bit targets fails with EOVERFLOW
 * on file systems with 64-bit inode numbers unless off_t/ino_t are 64-bit. */
#ifndef _FILE_OFFSET_BITS
# define _FILE_OFFSET_BITS 64
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* The library's capability levels, richest first: fuzz/fuzz.mk passes the
 * build's CAP_LEVELS (Configure's cap_levels of the target) as
 * -DFUZZ_CAP_LEVELS=0xffffffff,0xff,...  Without it: everything and the
 * baseline only. */
#ifdef FUZZ_CAP_LEVELS
static const unsigned int fz_levels[] = { FUZZ_CAP_LEVELS };
#else
static const unsigned int fz_levels[] = { 0xffffffffu, 0x0u };
#endif
#define FZ_NLEVELS ((int)(sizeof(fz_levels) / sizeof(fz_levels[0])))

/* Input reader: past the end every byte reads as 0. */
typedef struct {
    const uint8_t *p;
    size_t n;
} fz_in;

static inline unsigned int fz_byte(fz_in *in)
{
    unsigned int b = 0;

    if (in->n) {
        b = in->p[0];
        in->p++;
        in->n--;
    }
    return b;
}

/* One word, most significant byte first. */
static inline BN_ULONG fz_word(fz_in *in)
{
    BN_ULONG v = 0;
    size_t k;

    for (k = 0; k < sizeof(v); k++)
        v = v << 8 | fz_byte(in);
    return v;
}

/* Level i of the list, or the current caps when levels == NULL; sets it. */
static inline unsigned int fz_enter_level(const unsigned int *levels, int i)
{
    if (levels == NULL)
        return asmcrypt_cpu_caps();
    asmcrypt_cpucap_restrict(levels[i]);
    return asmcrypt_cpu_caps();
}

static inline int fz_nlevels(const unsigned int *levels, int nlevels)
{
    return levels == NULL ? 1 : nlevels;
}

/* a < b (num words), not constant time: harness only */
static inline int fz_lt(const BN_ULONG *a, const BN_ULONG *b, int num)
{
    while (num-- > 0)
        if (a[num] != b[num])
            return a[num] < b[num];
    return 0;
}

int fz_check_words(const uint8_t *data, size_t size, const unsigned int *levels, int nlevels);
int fz_check_mont(const uint8_t *data, size_t size, const unsigned int *levels, int nlevels);
int fz_check_poly1305(const uint8_t *data, size_t size, const unsigned int *levels, int nlevels);
int fz_check_modexp(const uint8_t *data, size_t size, const unsigned int *levels, int nlevels);

#endif
