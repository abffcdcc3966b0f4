/* test/armeb/rt.h - the freestanding runtime (rt.c). */
#ifndef ASMCRYPT_ARMEB_RT_H
#define ASMCRYPT_ARMEB_RT_H
#include <stddef.h>
void rt_exit(int code);
void rt_write(const char *s, size_t n);
void rt_puts(const char *s);
void rt_putu(unsigned long v);
void rt_puthex(unsigned long v);
void rt_start(void);
void *memset(void *p, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
#endif
