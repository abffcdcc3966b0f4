/*
 * crypto/bn/bn_local.h - helpers shared by the C bignum files: a
 * double-width product, constant-time masks and a wipe that the compiler
 * cannot drop.  Not installed; the C references only.
 */
#ifndef ASMCRYPT_BN_LOCAL_H
#define ASMCRYPT_BN_LOCAL_H

#include <stddef.h>
#include <string.h>
#include "internal.h"

#define BN_BITS ASMCRYPT_WORD_BITS

#if ASMCRYPT_WORD_BITS == 32
typedef uint64_t bn_dword;
# define BN_HAVE_DWORD 1
#elif defined(__SIZEOF_INT128__)
typedef unsigned __int128 bn_dword;
# define BN_HAVE_DWORD 1
#endif

/* (*hi, *lo) = a * b + c + d; never overflows: (2^w-1)^2 + 2(2^w-1) < 2^2w */
static inline void bn_mac2(BN_ULONG *hi, BN_ULONG *lo, BN_ULONG a, BN_ULONG b,
                           BN_ULONG c, BN_ULONG d)
{
#ifdef BN_HAVE_DWORD
    bn_dword t = (bn_dword)a * b + c + d;
    *lo = (BN_ULONG)t;
    *hi = (BN_ULONG)(t >> BN_BITS);
#else
    /* Four half-word products; each partial sum fits in a word. */
    const int hb = BN_BITS / 2;
    const BN_ULONG hm = ((BN_ULONG)1 << hb) - 1;
    BN_ULONG al = a & hm, ah = a >> hb, bl = b & hm, bh = b >> hb;
    BN_ULONG ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    BN_ULONG mid = (ll >> hb) + (lh & hm) + (hl & hm);
    BN_ULONG l = (ll & hm) | (mid << hb);
    BN_ULONG h = hh + (lh >> hb) + (hl >> hb) + (mid >> hb);
    l += c;
    h += (l < c);
    l += d;
    h += (l < d);
    *lo = l;
    *hi = h;
#endif
}

/* all ones when x != 0, else 0, without a branch */
static inline BN_ULONG bn_mask_nz(BN_ULONG x)
{
    return (BN_ULONG)0 - ((x | ((BN_ULONG)0 - x)) >> (BN_BITS - 1));
}

/* all ones when x == y, else 0 */
static inline BN_ULONG bn_mask_eq(BN_ULONG x, BN_ULONG y)
{
    return ~bn_mask_nz(x ^ y);
}

/* borrow out of x - y - bin (bin 0/1) from the top bits, branch-free */
static inline BN_ULONG bn_sub_borrow(BN_ULONG x, BN_ULONG y, BN_ULONG bin,
                                     BN_ULONG *diff)
{
    BN_ULONG d = x - y - bin;
    *diff = d;
    return ((~x & y) | (~(x ^ y) & d)) >> (BN_BITS - 1);
}

/* 1 when a < b (num words each), constant time; 0 for num <= 0 */
static inline BN_ULONG bn_lt_ct(const BN_ULONG *a, const BN_ULONG *b, int num)
{
    BN_ULONG borrow = 0, d;
    int i;

    for (i = 0; i < num; i++)
        borrow = bn_sub_borrow(a[i], b[i], borrow, &d);
    return borrow;
}

/* 1 when a < n and b < n (num words each), constant time: one pass over
 * the three arrays with two borrow chains (the public range check of
 * asmcrypt_bn_mont_mul; half the loads of two bn_lt_ct calls on n).  The
 * borrows come from __builtin_sub_overflow where the compiler has it (sub
 * + setc, no branch), else from bn_sub_borrow.  0 for num <= 0. */
static inline BN_ULONG bn_lt2_ct(const BN_ULONG *a, const BN_ULONG *b,
                                 const BN_ULONG *n, int num)
{
    BN_ULONG ba = 0, bb = 0;
    int i;

    for (i = 0; i < num; i++) {
#if defined(__GNUC__) && (__GNUC__ >= 5 || defined(__clang__))
        BN_ULONG d, e;
        BN_ULONG c1 = __builtin_sub_overflow(a[i], n[i], &d);
        BN_ULONG c2 = __builtin_sub_overflow(d, ba, &d);
        BN_ULONG c3 = __builtin_sub_overflow(b[i], n[i], &e);
        BN_ULONG c4 = __builtin_sub_overflow(e, bb, &e);

        ba = c1 | c2;
        bb = c3 | c4;
#else
        BN_ULONG d;

        ba = bn_sub_borrow(a[i], n[i], ba, &d);
        bb = bn_sub_borrow(b[i], n[i], bb, &d);
#endif
    }
    return ba & bb;
}

/* memset through a volatile function pointer: the compiler cannot prove
 * what is called, so it cannot drop the store as dead (and it stays a
 * fast library memset rather than a byte loop) */
static inline void bn_wipe(void *p, size_t len)
{
    static void *(*const volatile set)(void *, int, size_t) = memset;

    set(p, 0, len);
}

#endif
