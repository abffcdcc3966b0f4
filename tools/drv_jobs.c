/*
 * tools/drv_jobs.c - the drivers' jobs: fixed buffers with room for the
 * largest job, the derived values of a Montgomery job, and the check
 * that the library did not refuse a measured call.  The operations on a
 * job are the routine table's (routines.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "drv.h"

/* ---- buffers ------------------------------------------------------------ */
static BN_ULONG buf_r[2 * DRV_MAX_WORDS], buf_a[DRV_MAX_WORDS],
    buf_b[DRV_MAX_WORDS], buf_n[DRV_MAX_WORDS], buf_e[DRV_MAX_WORDS];
static unsigned char buf_msg[DRV_MAX_BYTES], buf_key[32], buf_tag[16];

void drv_job_buffers(struct rt_job *j)
{
    memset(j, 0, sizeof(*j));
    j->rp = buf_r;
    j->ap = buf_a;
    j->bp = buf_b;
    j->np = buf_n;
    j->ep = buf_e;
    j->msg = buf_msg;
    j->key = buf_key;
    j->tag = buf_tag;
}

void drv_job_prepare(struct rt_job *j)
{
    if (j->num > 0 && (j->np[0] & 1))
        j->n0 = asmcrypt_bn_mont_n0(j->np);
}

void drv_job_modulus(struct rt_job *j, int num, uint64_t *state)
{
    drv_job_buffers(j);
    j->num = num;
    drv_rand_modulus(j->np, num, state);
    drv_job_prepare(j);
}

void drv_fail(const char *driver, const char *what, int rc)
{
    fflush(stdout);
    fprintf(stderr, "%s: %s: error %d (%s), a refused call measures nothing\n",
            driver, what, rc, asmcrypt_strerror(rc));
    _Exit(3);   /* as icount_main.c: no atexit cleanup of a static libcrypto */
}

void drv_require_ok(const char *driver, const char *what)
{
    int rc = rt_status();

    if (rc != 0)
        drv_fail(driver, what, rc);
}
