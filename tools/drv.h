/*
 * tools/drv.h - shared pieces of the counting (icount_main.c) and
 * constant-time (ct_main.c) drivers.
 *
 * A driver is a static guest program run under qemu with the plugin
 * tools/qemu-icount.c watching calls of asmcrypt_probe().  Each probe call
 * is one measured region; the driver prints one label line per probe call
 * on stdout, in the same order, so a host script can pair the plugin's
 * per-call lines with what was measured.  What they run, per primitive
 * and implementation, comes from the routine table (routines.h).
 */
#ifndef ASMCRYPT_TOOLS_DRV_H
#define ASMCRYPT_TOOLS_DRV_H

#include <stddef.h>
#include <stdint.h>
#include "internal.h"
#include "routines.h"

/* Largest sizes the drivers use: the API's limit, so that every size the
 * API accepts fits (the result buffer holds 2 * DRV_MAX_WORDS words, for
 * bn_sqr_words).  4096 / ASMCRYPT_WORD_BITS here made the 128-limb word
 * jobs of 64-bit targets run past their buffers into each other, and the
 * API refuse them as overlapping. */
#define DRV_MAX_WORDS ASMCRYPT_BN_MAX_WORDS
#define DRV_MAX_BYTES 16384

/* The measured region: calls fn(arg) reps times (tools/drv_probe.c, kept
 * in its own file so that it is never inlined). */
void asmcrypt_probe(rt_op fn, void *arg, long reps);

/* Deterministic generator (xorshift64*), so every run sees the same data. */
uint64_t drv_rand(uint64_t *state);
void drv_rand_words(BN_ULONG *p, int n, uint64_t *state);
void drv_rand_bytes(unsigned char *p, size_t n, uint64_t *state);
/* Odd modulus with its top bit set. */
void drv_rand_modulus(BN_ULONG *np, int num, uint64_t *state);
/* A value below np (top word reduced modulo np's top word). */
void drv_rand_below(BN_ULONG *ap, const BN_ULONG *np, int num, uint64_t *state);

/* ---- jobs: struct rt_job and the operations on it are the routine
 * table's (tools/routines.h); the drivers give them fixed buffers ---------- */
/* Buffers with room for the largest job (static, so addresses are stable). */
void drv_job_buffers(struct rt_job *j);
/* Recompute derived values (n0) after the inputs changed. */
void drv_job_prepare(struct rt_job *j);
/* Fresh buffers, num words and a random modulus (odd, top bit set) drawn
 * from *state, with its n0: the public part of a Montgomery job. */
void drv_job_modulus(struct rt_job *j, int num, uint64_t *state);

/* Capability levels from a list like "ffffffff 1 0" (argv). */
unsigned int drv_parse_cap(const char *s);

/* After a measured call, outside the measured region: when the last
 * library call of a routine returned an error (rt_status()), that call
 * computed nothing, so print "DRIVER: WHAT: error N (...)" on stderr and
 * exit with status 3 rather than let it be reported as a figure or pass
 * a check.  drv_fail() is that exit for a return code rc of the driver's
 * own calls. */
void drv_require_ok(const char *driver, const char *what);
void drv_fail(const char *driver, const char *what, int rc);

/* ---- planted leaks (tools/ct_leaks.c), which the checks must flag -------- */
void ct_leak_branchy_exp(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *ep,
                         int ewords, const BN_ULONG *np, BN_ULONG n0, int num);
void ct_leak_table(unsigned char *out, const unsigned char *in, size_t len);

/* Their job operations for ct_main.c, ct_taint.c and dudect.c: modexp
 * inputs (rp, ap, ep, ewords, np, n0, num), and a table lookup of len
 * message bytes into tag.  Static inline here rather than exported from
 * ct_leaks.c: test/ct-static.sh checks every exported entry of that file
 * as a planted leak. */
static inline void ct_leak_exp_op(void *a)
{
    struct rt_job *j = a;
    ct_leak_branchy_exp(j->rp, j->ap, j->ep, j->ewords, j->np, j->n0, j->num);
}

static inline void ct_leak_table_op(void *a)
{
    struct rt_job *j = a;
    ct_leak_table(j->tag, j->msg, j->len);
}

#endif
