/*
 * test/util.c - helpers for the test programs (see util.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

static unsigned long n_pass, n_fail;

int tu_check(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    if (ok) {
        n_pass++;
        return 1;
    }
    n_fail++;
    if (n_fail <= 50) {
        printf("FAIL %s:%d: ", file, line);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    } else if (n_fail == 51) {
        printf("(further failures not printed)\n");
    }
    fflush(stdout);
    return 0;
}

unsigned long tu_failures(void)
{
    return n_fail;
}

int tu_finish(void)
{
    printf("%lu passed, %lu failed\n", n_pass, n_fail);
    fflush(stdout);
    return n_fail != 0;
}

FILE *tu_open(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    FILE *f;

    if (path == NULL)
        return NULL;
    snprintf(path, len, "%s/%s", dir, name);
    f = fopen(path, "r");
    if (f == NULL)
        printf("cannot open %s\n", path);
    free(path);
    return f;
}

/* Reads one line of any length into r->buf at r->len; returns the start
 * offset, or -1 at end of file. */
static long read_line(FILE *f, tu_record *r)
{
    size_t start = r->len;
    int c;

    for (;;) {
        c = fgetc(f);
        if (c == EOF && r->len == start)
            return -1;
        if (r->len + 2 > r->cap) {
            size_t cap = r->cap ? 2 * r->cap : 4096;
            char *nb = realloc(r->buf, cap);
            if (nb == NULL) {
                printf("out of memory\n");
                exit(2);
            }
            r->buf = nb;
            r->cap = cap;
        }
        if (c == EOF || c == '\n')
            break;
        r->buf[r->len++] = (char)c;
    }
    if (r->len > start && r->buf[r->len - 1] == '\r')
        r->len--;
    r->buf[r->len++] = '\0';
    return (long)start;
}

int tu_read_record(FILE *f, tu_record *r)
{
    size_t offk[TU_MAX_FIELDS], offv[TU_MAX_FIELDS];
    long off;
    int i;

    r->nfields = 0;
    r->len = 0;
    r->line = 0;
    while ((off = read_line(f, r)) >= 0) {
        char *s = r->buf + off, *eq;

        r->lines_read++;
        if (s[0] == '#' || s[0] == '\0') {
            r->len = (size_t)off;          /* drop the line */
            if (s[0] == '\0' && r->nfields > 0)
                break;
            continue;
        }
        eq = strstr(s, " =");              /* "key = value" or "key =" */
        if (eq == NULL || r->nfields == TU_MAX_FIELDS) {
            printf("bad vector line %ld: %.60s\n", r->lines_read, s);
            exit(2);
        }
        if (r->nfields == 0)
            r->line = r->lines_read;
        *eq = '\0';
        offk[r->nfields] = (size_t)off;
        offv[r->nfields] = (size_t)(eq - r->buf) + 2 + (eq[2] == ' ');
        r->nfields++;
    }
    /* pointers only now: realloc may have moved buf */
    for (i = 0; i < r->nfields; i++) {
        r->key[i] = r->buf + offk[i];
        r->val[i] = r->buf + offv[i];
    }
    return r->nfields > 0;
}

void tu_record_free(tu_record *r)
{
    free(r->buf);
    memset(r, 0, sizeof(*r));
}

const char *tu_get(const tu_record *r, const char *key)
{
    int i;

    for (i = 0; i < r->nfields; i++)
        if (strcmp(r->key[i], key) == 0)
            return r->val[i];
    return NULL;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int tu_hex_nwords(const char *hex)
{
    size_t digits = strlen(hex), per = ASMCRYPT_WORD_BITS / 4;

    return (int)((digits + per - 1) / per);
}

int tu_hex_words(const char *hex, asmcrypt_word *out, int num)
{
    size_t len = strlen(hex), i;
    int w;

    for (w = 0; w < num; w++)
        out[w] = 0;
    for (i = 0; i < len; i++) {
        /* digit i counted from the right */
        int v = hexval((unsigned char)hex[len - 1 - i]);
        size_t bit = 4 * i;
        if (v < 0)
            return -1;
        if (bit / ASMCRYPT_WORD_BITS >= (size_t)num) {
            if (v != 0)
                return -1;
            continue;
        }
        out[bit / ASMCRYPT_WORD_BITS] |= (asmcrypt_word)v << (bit % ASMCRYPT_WORD_BITS);
    }
    return 0;
}

long tu_hex_bytes(const char *hex, unsigned char *out, size_t max)
{
    size_t len = strlen(hex), i;

    if (len % 2 != 0 || len / 2 > max)
        return -1;
    for (i = 0; i < len / 2; i++) {
        int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return (long)(len / 2);
}

void tu_print_words(const char *label, const asmcrypt_word *w, int num)
{
    int i;

    printf("  %s = ", label);
    for (i = num - 1; i >= 0; i--)
#if ASMCRYPT_WORD_BITS == 64
        printf("%016llx", (unsigned long long)w[i]);
#else
        printf("%08lx", (unsigned long)w[i]);
#endif
    printf("\n");
}

/* splitmix64: tiny, fixed-seed, good enough to spread test inputs */
static uint64_t rng_state = 0x2545f4914f6cdd1dull;

void tu_seed(uint64_t seed)
{
    rng_state = seed;
}

uint64_t tu_rand64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

asmcrypt_word tu_rand_word(void)
{
    return (asmcrypt_word)tu_rand64();
}

void tu_rand_bytes(unsigned char *p, size_t n)
{
    size_t i;
    uint64_t v = 0;

    for (i = 0; i < n; i++) {
        if (i % 8 == 0)
            v = tu_rand64();
        p[i] = (unsigned char)v;
        v >>= 8;
    }
}

void tu_rand_words(asmcrypt_word *p, int n)
{
    int i;

    for (i = 0; i < n; i++)
        p[i] = tu_rand_word();
}

void tu_rand_modulus(asmcrypt_word *n, int num)
{
    tu_rand_words(n, num);
    n[0] |= 1;
    n[num - 1] |= (asmcrypt_word)1 << (ASMCRYPT_WORD_BITS - 1);
}
