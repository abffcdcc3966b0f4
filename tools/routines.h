/*
 * tools/routines.h - the routine table: every implementation of every
 * primitive, ours and the peers', as data, in the spirit of GMP's
 * tune/speed.c routine[].  apps/speed (timing), the counting and
 * constant-time drivers (tools/icount_main.c, tools/ct_main.c,
 * tools/ct_taint.c, tools/dudect.c) and test/test_diff.c take their calls
 * from it; none of them holds a list of implementations of its own.
 *
 * A primitive (rt_prims[]) is a name, the key asmcrypt_impl() names its
 * dispatch by, a size unit and an operand shape.  A routine (rt_table[])
 * is one implementation of one primitive: the C reference(s), the bare
 * assembly, the library API, the internal dispatch, or a peer library's
 * counterpart.  Each is one operation on a job (struct rt_job: fixed
 * buffers and sizes, filled by the caller) as `one` (what the drivers
 * probe) and as `loop` (n operations, what apps/speed times); both are
 * written from the same statement, so they cannot drift.
 *
 * The peers (OpenSSL, GMP, libsodium) are entries like the others.  They
 * are compiled in where the object is built with Configure's PEER_CFLAGS
 * (tools/tools.mk: routines_peers.o for apps/speed and the counting
 * driver; routines.o, without peers, for the others).
 */
#ifndef ASMCRYPT_TOOLS_ROUTINES_H
#define ASMCRYPT_TOOLS_ROUTINES_H

#include <stddef.h>
#include "internal.h"

/* One operation on a job, and n of them. */
typedef void (*rt_op)(void *job);
typedef void (*rt_loop)(void *job, unsigned long n);

/* Inputs and outputs of one operation; which fields a primitive reads is
 * its shape (enum rt_shape). */
struct rt_job {
    rt_op op;               /* free for the caller (not used by the table) */
    int num;                /* words (bn) */
    size_t len;             /* bytes (poly1305) */
    int ewords;             /* exponent words (modexp) */
    BN_ULONG w, cond, n0;
    BN_ULONG *rp, *ap, *bp, *np, *ep;
    unsigned char *msg, *key, *tag;
    void *peer;             /* free for the caller (peers keep their own state) */
};

enum rt_shape {
    RT_POLY1305,    /* tag = MAC(key[32], msg[len]) */
    RT_MONT,        /* rp = ap bp / R mod np (num words, n0) */
    RT_MONT_SQR,    /* rp = ap ap / R mod np: bp is not read */
    RT_MODEXP,      /* rp = ap^ep mod np (ep of ewords words) */
    RT_WORDS,       /* rp, ap, bp (num words), w, cond -> rp, carry */
};

enum rt_impl {
    RT_C,           /* the C reference, called directly */
    RT_C64,         /* a second C reference where there is one */
    RT_ASM,         /* the assembly entry itself (present in asm builds) */
    RT_API,         /* the public API, dispatched at the current caps */
    RT_ANY,         /* the internal dispatch, no argument checks or wipes */
    RT_PEER,        /* another library's counterpart */
    RT_API_INC,     /* the public incremental API (poly1305: init, one
                     * update of the whole message, final) */
};

/* What rt_result() holds after a routine's operation. */
enum rt_result {
    RT_R_NONE,      /* nothing (void functions) */
    RT_R_CARRY,     /* the carry or borrow out */
    RT_R_ACCEPT,    /* nonzero: computed; 0: declined (bn_mul_mont) */
    RT_R_RC,        /* nothing but the API's return code (rt_status()) */
};

struct rt_prim {
    const char *prim;       /* "bn_mont_sqr": drivers' and tests' name */
    const char *impl;       /* the asmcrypt_impl() key of its dispatch */
    const char *table;      /* apps/speed table name */
    const char *title;      /* apps/speed table title */
    const char *size_unit;  /* "B", "bit", "limb" */
    enum rt_shape shape;
};

struct routine {
    const char *prim;
    enum rt_impl impl;
    const char *name;       /* column; NULL for RT_ASM, named by its level */
    const char *lib;        /* peers: "openssl", "gmp", "sodium"; else NULL */
    enum rt_result result;
    rt_op one;
    rt_loop loop;
    /* peers: take the job's inputs into the peer's own state (0: not
     * available for this job), and put the last result into rp (bn) */
    int (*prepare)(struct rt_job *j);
    void (*fetch)(struct rt_job *j);
};

extern const struct rt_prim rt_prims[];
extern const size_t rt_nprims;
extern const struct routine rt_table[];
extern const size_t rt_ntable;

/* The primitive called prim, or NULL. */
const struct rt_prim *rt_prim(const char *prim);
/* The first routine of prim of kind impl, or NULL. */
const struct routine *rt_get(const char *prim, enum rt_impl impl);
/* Its operation, or NULL. */
rt_op rt_one(const char *prim, enum rt_impl impl);
/* The name of what prim's dispatch selects at the current caps. */
const char *rt_impl_name(const char *prim);
/* The scalar result of the last operation (enum rt_result says what). */
BN_ULONG rt_result(void);
/* The return code of the last library call that has one: every RT_API
 * operation, and poly1305's RT_ANY (its init); 0 on success and before
 * any such call.  Other operations leave it as it was.  A caller that
 * measures or times a call must check it (outside the measured region):
 * a refused call computed nothing, its cost is the argument check's. */
int rt_status(void);
/* "OpenSSL 3.0.x, libsodium 1.0.y, GMP 6.z" for the peers built in. */
void rt_peer_versions(char *buf, size_t len);

#endif
