/*
 * tools/ct_taint.c - secret-taint driver for valgrind memcheck: the
 * secrets (operands, exponent, condition, multiplier, Poly1305 key and
 * message) are marked undefined with VALGRIND_MAKE_MEM_UNDEFINED before
 * each call, so memcheck reports every conditional jump, every address
 * and every syscall argument that depends on them ("Conditional jump or
 * move depends on uninitialised value", "Use of uninitialised value of
 * size N" for an address).  After the call the outputs and the secrets
 * are marked defined again, so nothing is reported for the comparison
 * or printing that follows.  Public, left defined: num, lengths, the
 * modulus and n0 (docs/constant-time.md).
 *
 *   ct_taint CAPMASK              every constant-time primitive (and the
 *                                 incremental Poly1305 API in uneven pieces)
 *   ct_taint leak-exp | leak-table   one planted leak of ct_leaks.c
 *
 * Before each case it prints "case NAME" on stderr, the stream valgrind
 * writes its errors to, so test/ct-taint.sh can attribute each error to
 * a case.  Outside valgrind the client requests do nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "drv.h"
#include "bn/bn_exp_util.h"

static struct rt_job job;

#define WSZ(n) (sizeof(BN_ULONG) * (size_t)(n))
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static void run(const char *name, rt_op fn)
{
    fprintf(stderr, "case %s\n", name);
    if (fn == NULL) {
        fprintf(stderr, "ct_taint: no implementation for %s\n", name);
        exit(2);
    }
    fn(&job);
    /* results and secrets defined again: nothing below is a finding */
    PUBLIC(job.rp, WSZ(2 * job.num));
    PUBLIC(job.ap, WSZ(job.num));
    PUBLIC(job.bp, WSZ(job.num));
    PUBLIC(&job.w, sizeof(job.w));
    PUBLIC(&job.cond, sizeof(job.cond));
    if (job.ep)
        PUBLIC(job.ep, WSZ(job.ewords > 0 ? job.ewords : 1));
    PUBLIC(job.key, 32);
    PUBLIC(job.msg, job.len);
    PUBLIC(job.tag, 16);
    /* a refused call touches no secret, so it would pass unchecked */
    drv_require_ok("ct_taint", name);
}

static void modulus(int num, uint64_t seed)
{
    drv_job_modulus(&job, num, &seed);
    drv_rand_below(job.ap, job.np, num, &seed);
    drv_rand_below(job.bp, job.np, num, &seed);
}

/* modexp below the API's argument checks: asmcrypt_mod_exp first tests
 * a < n (constant-time compare) and returns ASMCRYPT_ERANGE otherwise, a
 * branch on that one validity bit, which is the caller's to know (as
 * with bn_mont_mul, whose RT_ANY entry skips the same check). */
static void modexp_core(void *arg)
{
    struct rt_job *j = arg;

#ifdef ASMCRYPT_BN_MODEXP_ASM
    if (bn_mod_exp_arch(j->rp, j->ap, j->ep, j->ewords, j->np, j->num))
        return;
#endif
    bn_exp_windows(j->rp, j->ap, j->ep, j->ewords, j->np, j->num, j->num, bn_exp_gather_c, NULL);
}

/* The first of two return codes that is an error, else 0. */
static int first_error(int rc, int next)
{
    return rc != 0 ? rc : next;
}

/* the incremental API, in uneven public pieces (1, 15, 17, 64, 3, rest) */
static void poly_incremental(void *arg)
{
    static const size_t piece[] = {1, 15, 17, 64, 3};
    struct rt_job *j = arg;
    asmcrypt_poly1305_ctx ctx;
    size_t off = 0, k = 0;
    int rc;

    rc = asmcrypt_poly1305_init(&ctx, j->key);
    while (off < j->len) {
        size_t n = k < sizeof(piece) / sizeof(piece[0]) ? piece[k++] : j->len - off;

        if (n > j->len - off)
            n = j->len - off;
        rc = first_error(rc, asmcrypt_poly1305_update(&ctx, j->msg + off, n));
        off += n;
    }
    rc = first_error(rc, asmcrypt_poly1305_final(&ctx, j->tag));
    PUBLIC(&ctx, sizeof(ctx));
    /* rc is left as computed: if it depended on a secret, memcheck would
     * report this branch */
    if (rc != 0)
        drv_fail("ct_taint", "poly1305 incremental", rc);
}

static void bignum_cases(void)
{
    static const int bits[] = {64, 256, 512, 1024, 2048};
    static const int wnum[] = {1, 7, 16};
    static const char *const wp[] = {
        "bn_mul_add_words", "bn_mul_words", "bn_mul_sub_words",
        "bn_sqr_words", "bn_add_words", "bn_sub_words",
    };
    char name[96];
    size_t i, k;
    uint64_t st = 0x7a17;

    for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
        int num = bits[i] / ASMCRYPT_WORD_BITS > 0 ? bits[i] / ASMCRYPT_WORD_BITS : 1;

        modulus(num, 0x3a3a + i);
        SECRET(job.ap, WSZ(num));
        SECRET(job.bp, WSZ(num));
        snprintf(name, sizeof(name), "bn_mont_mul/%d:%s", num, asmcrypt_impl("bn_mont_mul"));
        run(name, rt_one("bn_mont_mul", RT_ANY));
        job.bp = job.ap;                        /* squaring */
        SECRET(job.ap, WSZ(num));
        snprintf(name, sizeof(name), "bn_mont_sqr/%d:%s", num, asmcrypt_impl("bn_mont_mul"));
        run(name, rt_one("bn_mont_mul", RT_ANY));
    }

    modulus(256 / ASMCRYPT_WORD_BITS, 0x77);
    job.ewords = job.num;
    drv_rand_words(job.ep, job.ewords, &st);
    SECRET(job.ap, WSZ(job.num));
    SECRET(job.ep, WSZ(job.ewords));
    snprintf(name, sizeof(name), "mod_exp/%d:%s", job.num, asmcrypt_impl("mod_exp"));
    run(name, modexp_core);

    for (i = 0; i < sizeof(wnum) / sizeof(wnum[0]); i++) {
        static const char *const cnd[] = {"bn_cnd_add_words", "bn_cnd_sub_words"};

        for (k = 0; k < 2; k++) {
            drv_job_buffers(&job);
            job.num = wnum[i];
            drv_rand_words(job.ap, job.num, &st);
            drv_rand_words(job.bp, job.num, &st);
            job.cond = (BN_ULONG)(k + 1);
            SECRET(job.ap, WSZ(job.num));
            SECRET(job.bp, WSZ(job.num));
            SECRET(&job.cond, sizeof(job.cond));
            snprintf(name, sizeof(name), "%s/%d:%s", cnd[k], job.num, asmcrypt_impl(cnd[k]));
            run(name, rt_one(cnd[k], RT_API));
        }
        for (k = 0; k < sizeof(wp) / sizeof(wp[0]); k++) {
            drv_job_buffers(&job);
            job.num = wnum[i];
            drv_rand_words(job.rp, 2 * job.num, &st);
            drv_rand_words(job.ap, job.num, &st);
            drv_rand_words(job.bp, job.num, &st);
            job.w = (BN_ULONG)drv_rand(&st);
            SECRET(job.rp, WSZ(2 * job.num));
            SECRET(job.ap, WSZ(job.num));
            SECRET(job.bp, WSZ(job.num));
            SECRET(&job.w, sizeof(job.w));
            snprintf(name, sizeof(name), "%s/%d:%s", wp[k], job.num, asmcrypt_impl(wp[k]));
            run(name, rt_one(wp[k], RT_API));
        }
    }
}

static void poly_cases(void)
{
    static const size_t lens[] = {16, 100, 512, 1024, 4096};
    char name[96];
    size_t i;
    uint64_t st = 0x1305;

    for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        static const enum rt_impl kinds[] = {RT_API, RT_ANY, RT_API_INC};
        size_t k;

        for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
            const struct routine *rt = rt_get("poly1305", kinds[k]);   /* named as its column */

            drv_job_buffers(&job);
            job.len = lens[i];
            drv_rand_bytes(job.key, 32, &st);
            drv_rand_bytes(job.msg, job.len, &st);
            SECRET(job.key, 32);
            SECRET(job.msg, job.len);
            if (rt == NULL)
                continue;
            snprintf(name, sizeof(name), "poly1305/%zu/%s:%s", job.len, rt->name,
                     asmcrypt_impl("poly1305"));
            run(name, rt->one);
        }
        drv_rand_bytes(job.key, 32, &st);
        drv_rand_bytes(job.msg, job.len, &st);
        SECRET(job.key, 32);
        SECRET(job.msg, job.len);
        snprintf(name, sizeof(name), "poly1305/%zu/incremental:%s", job.len, asmcrypt_impl("poly1305"));
        run(name, poly_incremental);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ct_taint CAPMASK | leak-exp | leak-table\n");
        return 2;
    }
    if (!strcmp(argv[1], "leak-exp")) {
        uint64_t st = 9;
        modulus(128 / ASMCRYPT_WORD_BITS, 0x1ea4);
        job.ewords = 1;
        drv_rand_words(job.ep, 1, &st);
        SECRET(job.ep, WSZ(1));
        SECRET(job.ap, WSZ(job.num));
        run("leak-branchy-exp", ct_leak_exp_op);
    } else if (!strcmp(argv[1], "leak-table")) {
        uint64_t st = 10;
        drv_job_buffers(&job);
        job.len = 16;
        drv_rand_bytes(job.msg, 16, &st);
        SECRET(job.msg, 16);
        run("leak-table", ct_leak_table_op);
    } else {
        asmcrypt_cpucap_restrict(drv_parse_cap(argv[1]));
        bignum_cases();
        poly_cases();
    }
    fprintf(stderr, "case done\n");
    return 0;
}
