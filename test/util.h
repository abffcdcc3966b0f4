/*
 * test/util.h - small helpers shared by the test programs: pass/fail
 * counting, the vector-file record reader, hex parsing and a fixed-seed
 * PRNG.  Every test program ends with tu_finish(), which prints
 * "N passed, N failed" as the last line and returns the exit status.
 */
#ifndef ASMCRYPT_TEST_UTIL_H
#define ASMCRYPT_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "asmcrypt/bn.h"

/* ---- counting ---------------------------------------------------------- */
/* CHECK(cond, fmt, ...): counts a pass or prints the message and counts a
 * failure (only the first 50 failures are printed).  Evaluates to cond. */
#define CHECK(cond, ...) tu_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
int tu_check(int ok, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
unsigned long tu_failures(void);
/* Prints "N passed, N failed"; returns 0 when nothing failed, else 1. */
int tu_finish(void);

/* ---- vector files -------------------------------------------------------- */
#define TU_MAX_FIELDS 16
typedef struct {
    int nfields;
    char *key[TU_MAX_FIELDS];
    char *val[TU_MAX_FIELDS];
    char *buf;          /* owns the strings */
    size_t cap, len;
    long line;          /* line number of the record's first field */
    long lines_read;    /* lines of the file read so far */
} tu_record;            /* zero-initialise before the first read */

/* Opens dir/name; prints an error and returns NULL when that fails. */
FILE *tu_open(const char *dir, const char *name);
/* Reads the next record ('#' comments and blank lines separate records).
 * Returns 1 with a record, 0 at end of file. */
int tu_read_record(FILE *f, tu_record *r);
void tu_record_free(tu_record *r);
/* Value of key, or NULL. */
const char *tu_get(const tu_record *r, const char *key);

/* ---- hex ---------------------------------------------------------------- */
/* Big-endian hex string into num little-endian words of the build's size.
 * Returns 0 on success, -1 if the value does not fit or is not hex. */
int tu_hex_words(const char *hex, asmcrypt_word *out, int num);
/* Number of words needed for a hex string of this length. */
int tu_hex_nwords(const char *hex);
/* Hex byte string (memory order) into out; returns the length or -1. */
long tu_hex_bytes(const char *hex, unsigned char *out, size_t max);
/* Prints label and words as big-endian hex (for failure messages). */
void tu_print_words(const char *label, const asmcrypt_word *w, int num);

/* ---- deterministic random numbers --------------------------------------- */
void tu_seed(uint64_t seed);
uint64_t tu_rand64(void);
asmcrypt_word tu_rand_word(void);
void tu_rand_bytes(unsigned char *p, size_t n);
void tu_rand_words(asmcrypt_word *p, int n);
/* random odd modulus of num words with the top bit set */
void tu_rand_modulus(asmcrypt_word *n, int num);

#endif
