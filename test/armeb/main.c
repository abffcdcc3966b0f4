/*
 * test/armeb/main.c - the 32-bit ARM modules (armv4-mont, armv4-words,
 * poly1305-armv4) assembled big-endian and run freestanding under
 * qemu-armeb (test/armeb.sh builds it; issue 14 "big-endian ARM code is
 * never run").  At every capability level the build can take (the
 * assembly reads asmcrypt_cpucap, set here directly):
 *   - Poly1305: the RFC 8439 and oracle vectors of test/vectors, one-shot
 *     and in block-multiple pieces (so the NEON and scalar code both run
 *     and hand the state to each other), against the vector tag and the
 *     C reference poly1305_ref26;
 *   - bn_mul_mont: the vectors of mont.txt, then random operands for every
 *     num 2..256 (a != b and a == b) against bn_mul_mont_c;
 *   - the word primitives: words32.txt, then random operands for num
 *     0..80 against the C references.
 * The last line is "total: N passed, N failed".
 */
#include <stdint.h>
#include "rt.h"
#include "internal.h"

struct pvec { unsigned len, key, msg, tag; };
struct mvec { unsigned num, n, a, b, m; };
struct wvec { unsigned op, num, r, a, b, out; uint32_t w, cond, c; unsigned has_c; };
#include "vectors.h"

#define NELEM(x) (sizeof(x) / sizeof((x)[0]))
#define MAXW 256
#ifndef FAIL_PRINT_MAX
# define FAIL_PRINT_MAX 40
#endif

unsigned int asmcrypt_cpucap __attribute__((visibility("hidden")));

static unsigned long passed, failed;


static int check(int ok, const char *what, unsigned long a, unsigned long b)
{
    if (ok) {
        passed++;
        return 1;
    }
    if (++failed <= FAIL_PRINT_MAX) {
        rt_puts("FAIL caps ");
        rt_puthex(asmcrypt_cpucap);
        rt_puts(": ");
        rt_puts(what);
        rt_puts(" ");
        rt_putu(a);
        rt_puts(" ");
        rt_putu(b);
        rt_puts("\n");
    }
    return 0;
}

/* xorshift64 */
static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs >> 32);
}

/* ---- Poly1305 ---------------------------------------------------------------- */
static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The library's sequence over a blocks/emit pair: the whole blocks in
 * calls of piece*16 bytes (piece 0: one call), the last partial block
 * padded with 0x01 and zeros (padbit 0), the tag with the nonce of key. */
static void mac_drive(void *st, poly1305_blocks_f blocks, poly1305_emit_f emit,
                      unsigned char tag[16], const unsigned char *m, size_t len,
                      const unsigned char key[32], size_t piece)
{
    unsigned int nonce[4];
    unsigned char last[16];
    size_t full = len & ~(size_t)15, done = 0, i;

    while (done < full) {
        size_t n = piece ? piece * 16 : full;

        if (n > full - done)
            n = full - done;
        blocks(st, m + done, n, 1);
        done += n;
    }
    if (len & 15) {
        memset(last, 0, 16);
        memcpy(last, m + full, len & 15);
        last[len & 15] = 1;
        blocks(st, last, 16, 0);
    }
    for (i = 0; i < 4; i++)
        nonce[i] = le32(key + 16 + 4 * i);
    emit(st, tag, nonce);
}

/* through the module, the pair its init hands out (or the plain one) */
static void mac_asm(unsigned char tag[16], const unsigned char *m, size_t len,
                    const unsigned char key[32], size_t piece)
{
    uint64_t st[24];
    void *func[2] = { 0, 0 };
    poly1305_blocks_f blocks = poly1305_blocks;
    poly1305_emit_f emit = poly1305_emit;

    memset(st, 0xa5, sizeof(st));
    if (poly1305_init(st, key, func)) {
        blocks = (poly1305_blocks_f)func[0];
        emit = (poly1305_emit_f)func[1];
    }
    mac_drive(st, blocks, emit, tag, m, len, key, piece);
}

static void mac_ref(unsigned char tag[16], const unsigned char *m, size_t len,
                    const unsigned char key[32])
{
    uint64_t st[24];

    poly1305_ref26_init(st, key);
    mac_drive(st, poly1305_ref26_blocks, poly1305_ref26_emit, tag, m, len, key, 0);
}

static void test_poly1305(void)
{
    static const size_t pieces[] = { 0, 1, 3, 4, 5 };
    unsigned char tag[16], want[16];
    size_t i, k;

    for (i = 0; i < NELEM(pvecs); i++) {
        const struct pvec *v = &pvecs[i];

        mac_ref(want, vb + v->msg, v->len, vb + v->key);
        check(memcmp(want, vb + v->tag, 16) == 0, "poly1305 C reference vs vector, record/len", i, v->len);
        for (k = 0; k < NELEM(pieces); k++) {
            memset(tag, 0x5a, 16);
            mac_asm(tag, vb + v->msg, v->len, vb + v->key, pieces[k]);
            check(memcmp(tag, vb + v->tag, 16) == 0, "poly1305 asm vs vector, record/piece", i, pieces[k]);
        }
    }
}

/* ---- Montgomery ---------------------------------------------------------------- */
static BN_ULONG n0_of(const BN_ULONG *n)
{
    BN_ULONG x = n[0];
    int i;

    for (i = 0; i < 5; i++)
        x *= 2 - n[0] * x;          /* Newton: x = n^-1 mod 2^32 */
    return (BN_ULONG)0 - x;
}

static BN_ULONG A[MAXW], B[MAXW], N[MAXW], R1[MAXW + 8], R2[MAXW + 8];

static void test_mont(void)
{
    size_t i;
    int num, sq;

    for (i = 0; i < NELEM(mvecs); i++) {
        const struct mvec *v = &mvecs[i];
        BN_ULONG n0[1];
        int rc = 0;

        n0[0] = n0_of(vw + v->n);
        memset(R1, 0xa5, sizeof(R1));
        if (v->num >= 2)
            rc = bn_mul_mont(R1, vw + v->a, vw + v->b, vw + v->n, n0, (int)v->num);
        else
            rc = bn_mul_mont_c(R1, vw + v->a, vw + v->b, vw + v->n, n0, (int)v->num);
        check(rc == 1 && memcmp(R1, vw + v->m, 4 * v->num) == 0, "mont vector, record/num", i, v->num);
    }
    for (num = 2; num <= MAXW; num++)
        for (sq = 0; sq < 2; sq++) {
            BN_ULONG n0[1];
            int j, rc;

            for (j = 0; j < num; j++) {
                N[j] = rnd();
                A[j] = rnd();
                B[j] = rnd();
            }
            N[0] |= 1;
            N[num - 1] |= 0x80000000u;
            A[num - 1] = N[num - 1] >> 1;
            B[num - 1] = N[num - 1] >> 2;
            if (num % 3 == 0) {           /* all-ones shapes: longest carries */
                for (j = 0; j < num; j++)
                    N[j] = 0xffffffffu, A[j] = 0xfffffffeu;
                B[0] = 0xfffffffeu;
            }
            n0[0] = n0_of(N);
            bn_mul_mont_c(R2, A, sq ? A : B, N, n0, num);
            R1[num] = 0x13579bdf;
            rc = bn_mul_mont(R1, A, sq ? A : B, N, n0, num);
            check(rc == 1 && memcmp(R1, R2, 4 * (size_t)num) == 0 && R1[num] == 0x13579bdf,
                  sq ? "mont random a == b vs C, num/rc" : "mont random vs C, num/rc",
                  (unsigned long)num, (unsigned long)rc);
        }
}

/* ---- word primitives -------------------------------------------------------------- */
static BN_ULONG run_word(int asmv, unsigned op, BN_ULONG *r, const BN_ULONG *a,
                         const BN_ULONG *b, int num, BN_ULONG w)
{
    switch (op) {
    case 0: return asmv ? bn_mul_add_words(r, a, num, w) : bn_mul_add_words_c(r, a, num, w);
    case 1: return asmv ? bn_mul_words(r, a, num, w) : bn_mul_words_c(r, a, num, w);
    case 2: return asmv ? bn_mul_sub_words(r, a, num, w) : bn_mul_sub_words_c(r, a, num, w);
    case 3: if (asmv) bn_sqr_words(r, a, num); else bn_sqr_words_c(r, a, num); return 0;
    case 4: return asmv ? bn_add_words(r, a, b, num) : bn_add_words_c(r, a, b, num);
    case 5: return asmv ? bn_sub_words(r, a, b, num) : bn_sub_words_c(r, a, b, num);
    case 6: return asmv ? bn_cnd_add_words(r, a, b, num, w) : bn_cnd_add_words_c(r, a, b, num, w);
    default: return asmv ? bn_cnd_sub_words(r, a, b, num, w) : bn_cnd_sub_words_c(r, a, b, num, w);
    }
}

static void test_words(void)
{
    static BN_ULONG r[2 * MAXW + 2], r2[2 * MAXW + 2];
    size_t i;
    unsigned op;
    int num;

    for (i = 0; i < NELEM(wvecs); i++) {
        const struct wvec *v = &wvecs[i];
        unsigned rl = v->op == 3 ? 2 * v->num : v->num;
        BN_ULONG c;

        memset(r, 0, sizeof(r));
        if (v->op == 0 || v->op == 2)
            memcpy(r, vw + v->r, 4 * v->num);
        c = run_word(1, v->op, r, vw + v->a, vw + v->b, (int)v->num, v->op >= 6 ? v->cond : v->w);
        check(memcmp(r, vw + v->out, 4 * rl) == 0 && (!v->has_c || c == v->c),
              "words vector, record/op", i, v->op);
    }
    for (op = 0; op < 8; op++)
        for (num = 0; num <= 80; num++) {
            BN_ULONG w = rnd(), c1, c2;
            int j;

            for (j = 0; j < num; j++) {
                A[j] = rnd();
                B[j] = (num & 1) ? 0xffffffffu : rnd();
            }
            for (j = 0; j <= 2 * num; j++)
                r[j] = r2[j] = rnd();
            if (op >= 6)
                w = (BN_ULONG)(num % 3);
            c1 = run_word(1, op, r, A, B, num, w);
            c2 = run_word(0, op, r2, A, B, num, w);
            check(memcmp(r, r2, 4 * (size_t)(2 * num + 1)) == 0 && c1 == c2,
                  "words random vs C, op/num", op, (unsigned long)num);
        }
}

int main(void)
{
    static const unsigned int levels[] = {
#if defined(__ARM_NEON) || defined(__ARM_NEON__)
        ASMCRYPT_CAP_ARM_UMAAL | ASMCRYPT_CAP_ARM_NEON, ASMCRYPT_CAP_ARM_NEON,
#endif
        ASMCRYPT_CAP_ARM_UMAAL, 0 };
    size_t l;
    uint32_t probe = 0x01020304;

    check(*(const unsigned char *)&probe == 1, "running big-endian (first byte)",
          *(const unsigned char *)&probe, 1);
    for (l = 0; l < NELEM(levels); l++) {
        unsigned long p0 = passed, f0 = failed;

        asmcrypt_cpucap = levels[l];
        test_poly1305();
        test_mont();
        test_words();
        rt_puts("caps ");
        rt_puthex(levels[l]);
        rt_puts(": ");
        rt_putu(passed - p0);
        rt_puts(" passed, ");
        rt_putu(failed - f0);
        rt_puts(" failed\n");
    }
    rt_puts("total: ");
    rt_putu(passed);
    rt_puts(" passed, ");
    rt_putu(failed);
    rt_puts(" failed\n");
    return failed != 0;
}
