/*
 * test/armeb/rt.c - the freestanding runtime of the big-endian ARM test:
 * _start, write and exit through Linux EABI system calls (svc 0, number
 * in r7), and the few string functions the compiler and the C references
 * call.  No libc: Debian has no big-endian ARM one.
 */
#include <stddef.h>
#include "rt.h"

int main(void);

static long sys3(long nr, long a, long b, long c)
{
    register long r0 __asm__("r0") = a;
    register long r1 __asm__("r1") = b;
    register long r2 __asm__("r2") = c;
    register long r7 __asm__("r7") = nr;

    __asm__ __volatile__("svc 0" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r7) : "memory");
    return r0;
}

void rt_exit(int code)
{
    for (;;)
        sys3(248, code, 0, 0);       /* exit_group */
}

void rt_write(const char *s, size_t n)
{
    while (n > 0) {
        long w = sys3(4, 1, (long)s, (long)n);

        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

void rt_puts(const char *s)
{
    size_t n = 0;

    while (s[n] != '\0')
        n++;
    rt_write(s, n);
}

void rt_putu(unsigned long v)
{
    char buf[24];
    int i = sizeof(buf);

    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    rt_write(buf + i, sizeof(buf) - (size_t)i);
}

void rt_puthex(unsigned long v)
{
    static const char hex[] = "0123456789abcdef";
    char buf[8];
    int i;

    for (i = 7; i >= 0; i--, v >>= 4)
        buf[i] = hex[v & 15];
    rt_write(buf, 8);
}

void *memset(void *p, int c, size_t n)
{
    unsigned char *d = p;

    while (n--)
        *d++ = (unsigned char)c;
    return p;
}

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if (d < s)
        return memcpy(dst, src, n);
    while (n--)
        d[n] = s[n];
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    for (; n--; p++, q++)
        if (*p != *q)
            return *p - *q;
    return 0;
}

/* the kernel enters with sp at argc; keep it 8-byte aligned (AAPCS) */
__asm__(".text\n"
        ".global _start\n"
        ".type _start, %function\n"
        "_start:\n"
        "\tmov fp, #0\n"
        "\tbic sp, sp, #7\n"
        "\tbl rt_start\n"
        "\tb .\n");

void rt_start(void)
{
    rt_exit(main());
}
