/*
 * test/test_badinput.c - every documented error path of the public API
 * returns its ASMCRYPT_E* code and writes nothing: outputs are filled with
 * a canary before the call and compared after it.
 */
#include <string.h>
#include "internal.h"
#include "util.h"

#define MAXW ASMCRYPT_BN_MAX_WORDS
#define CANARY 0xc5

static asmcrypt_word rbuf[MAXW + 8], rcopy[MAXW + 8], carry, carry_copy;
static asmcrypt_word nbuf[MAXW + 8], abuf[MAXW + 8], bbuf[MAXW + 8], ebuf[MAXW + 8];

static void arm(void)
{
    memset(rbuf, CANARY, sizeof(rbuf));
    memset(rcopy, CANARY, sizeof(rcopy));
    memset(&carry, CANARY, sizeof(carry));
    memset(&carry_copy, CANARY, sizeof(carry_copy));
}

static void expect(int rc, int want, const char *what)
{
    CHECK(rc == want, "%s: rc %d, expected %d (%s)", what, rc, want, asmcrypt_strerror(want));
    CHECK(memcmp(rbuf, rcopy, sizeof(rbuf)) == 0 &&
          memcmp(&carry, &carry_copy, sizeof(carry)) == 0, "%s: output written", what);
}

/* n odd, a = b = 1 < n, e = 3: a valid baseline that each case breaks once */
static void valid_operands(void)
{
    memset(nbuf, 0xff, sizeof(nbuf));
    memset(abuf, 0, sizeof(abuf));
    memset(bbuf, 0, sizeof(bbuf));
    memset(ebuf, 0, sizeof(ebuf));
    abuf[0] = bbuf[0] = 1;
    ebuf[0] = 3;
}

static void test_words(void)
{
    const int bad_num[] = { -1, -1000, MAXW + 1, 1 << 30 };
    size_t i;

    valid_operands();
    for (i = 0; i < sizeof(bad_num) / sizeof(bad_num[0]); i++) {
        int n = bad_num[i];
        arm(); expect(asmcrypt_bn_mul_add_words(rbuf, abuf, n, 3, &carry), ASMCRYPT_ESIZE, "mul_add num");
        arm(); expect(asmcrypt_bn_mul_words(rbuf, abuf, n, 3, &carry), ASMCRYPT_ESIZE, "mul num");
        arm(); expect(asmcrypt_bn_mul_sub_words(rbuf, abuf, n, 3, &carry), ASMCRYPT_ESIZE, "mul_sub num");
        arm(); expect(asmcrypt_bn_sqr_words(rbuf, abuf, n), ASMCRYPT_ESIZE, "sqr num");
        arm(); expect(asmcrypt_bn_add_words(rbuf, abuf, bbuf, n, &carry), ASMCRYPT_ESIZE, "add num");
        arm(); expect(asmcrypt_bn_sub_words(rbuf, abuf, bbuf, n, &carry), ASMCRYPT_ESIZE, "sub num");
        arm(); expect(asmcrypt_bn_cnd_add_words(rbuf, abuf, bbuf, n, 1, &carry), ASMCRYPT_ESIZE, "cnd_add num");
        arm(); expect(asmcrypt_bn_cnd_sub_words(rbuf, abuf, bbuf, n, 1, &carry), ASMCRYPT_ESIZE, "cnd_sub num");
    }
    /* NULL pointers with num > 0 */
    arm(); expect(asmcrypt_bn_mul_add_words(NULL, abuf, 4, 3, &carry), ASMCRYPT_ENULL, "mul_add rp");
    arm(); expect(asmcrypt_bn_mul_add_words(rbuf, NULL, 4, 3, &carry), ASMCRYPT_ENULL, "mul_add ap");
    arm(); expect(asmcrypt_bn_mul_words(NULL, abuf, 4, 3, &carry), ASMCRYPT_ENULL, "mul rp");
    arm(); expect(asmcrypt_bn_mul_words(rbuf, NULL, 4, 3, &carry), ASMCRYPT_ENULL, "mul ap");
    arm(); expect(asmcrypt_bn_mul_sub_words(NULL, abuf, 4, 3, &carry), ASMCRYPT_ENULL, "mul_sub rp");
    arm(); expect(asmcrypt_bn_mul_sub_words(rbuf, NULL, 4, 3, &carry), ASMCRYPT_ENULL, "mul_sub ap");
    arm(); expect(asmcrypt_bn_sqr_words(NULL, abuf, 4), ASMCRYPT_ENULL, "sqr rp");
    arm(); expect(asmcrypt_bn_sqr_words(rbuf, NULL, 4), ASMCRYPT_ENULL, "sqr ap");
    arm(); expect(asmcrypt_bn_add_words(NULL, abuf, bbuf, 4, &carry), ASMCRYPT_ENULL, "add rp");
    arm(); expect(asmcrypt_bn_add_words(rbuf, NULL, bbuf, 4, &carry), ASMCRYPT_ENULL, "add ap");
    arm(); expect(asmcrypt_bn_add_words(rbuf, abuf, NULL, 4, &carry), ASMCRYPT_ENULL, "add bp");
    arm(); expect(asmcrypt_bn_sub_words(NULL, abuf, bbuf, 4, &carry), ASMCRYPT_ENULL, "sub rp");
    arm(); expect(asmcrypt_bn_sub_words(rbuf, NULL, bbuf, 4, &carry), ASMCRYPT_ENULL, "sub ap");
    arm(); expect(asmcrypt_bn_sub_words(rbuf, abuf, NULL, 4, &carry), ASMCRYPT_ENULL, "sub bp");
    arm(); expect(asmcrypt_bn_cnd_add_words(NULL, abuf, bbuf, 4, 1, &carry), ASMCRYPT_ENULL, "cnd_add rp");
    arm(); expect(asmcrypt_bn_cnd_add_words(rbuf, NULL, bbuf, 4, 1, &carry), ASMCRYPT_ENULL, "cnd_add ap");
    arm(); expect(asmcrypt_bn_cnd_add_words(rbuf, abuf, NULL, 4, 1, &carry), ASMCRYPT_ENULL, "cnd_add bp");
    arm(); expect(asmcrypt_bn_cnd_sub_words(NULL, abuf, bbuf, 4, 1, &carry), ASMCRYPT_ENULL, "cnd_sub rp");
    arm(); expect(asmcrypt_bn_cnd_sub_words(rbuf, NULL, bbuf, 4, 1, &carry), ASMCRYPT_ENULL, "cnd_sub ap");
    arm(); expect(asmcrypt_bn_cnd_sub_words(rbuf, abuf, NULL, 4, 1, &carry), ASMCRYPT_ENULL, "cnd_sub bp");

    /* num == 0 is valid: nothing written except carry = 0 */
    arm();
    CHECK(asmcrypt_bn_add_words(rbuf, abuf, bbuf, 0, &carry) == 0 && carry == 0 &&
          memcmp(rbuf, rcopy, sizeof(rbuf)) == 0, "add num 0");
    CHECK(asmcrypt_bn_mul_add_words(NULL, NULL, 0, 5, NULL) == 0, "mul_add num 0, NULLs");
}

static void test_mont(void)
{
    asmcrypt_word n0;
    const int num = 4;

    valid_operands();
    n0 = asmcrypt_bn_mont_n0(nbuf);
    CHECK(asmcrypt_bn_mont_mul(rbuf, abuf, bbuf, nbuf, n0, num) == 0, "mont baseline valid");

    arm(); expect(asmcrypt_bn_mont_mul(NULL, abuf, bbuf, nbuf, n0, num), ASMCRYPT_ENULL, "mont rp");
    arm(); expect(asmcrypt_bn_mont_mul(rbuf, NULL, bbuf, nbuf, n0, num), ASMCRYPT_ENULL, "mont ap");
    arm(); expect(asmcrypt_bn_mont_mul(rbuf, abuf, NULL, nbuf, n0, num), ASMCRYPT_ENULL, "mont bp");
    arm(); expect(asmcrypt_bn_mont_mul(rbuf, abuf, bbuf, NULL, n0, num), ASMCRYPT_ENULL, "mont np");
    arm(); expect(asmcrypt_bn_mont_mul(rbuf, abuf, bbuf, nbuf, n0, 0), ASMCRYPT_ESIZE, "mont num 0");
    arm(); expect(asmcrypt_bn_mont_mul(rbuf, abuf, bbuf, nbuf, n0, -3), ASMCRYPT_ESIZE, "mont num < 0");
    arm(); expect(asmcrypt_bn_mont_mul(rbuf, abuf, bbuf, nbuf, n0, MAXW + 1), ASMCRYPT_ESIZE, "mont num > max");
    nbuf[0] = 0xfe;
    arm(); expect(asmcrypt_bn_mont_mul(rbuf, abuf, bbuf, nbuf, n0, num), ASMCRYPT_EEVEN, "mont even n");
    CHECK(asmcrypt_bn_mont_n0(nbuf) == 0, "n0 of an even modulus is 0");
    CHECK(asmcrypt_bn_mont_n0(NULL) == 0, "n0 of NULL is 0");
    valid_operands();
    memcpy(abuf, nbuf, sizeof(asmcrypt_word) * num);                       /* a == n */
    arm(); expect(asmcrypt_bn_mont_mul(rbuf, abuf, bbuf, nbuf, n0, num), ASMCRYPT_ERANGE, "mont a == n");
    abuf[num - 1] = 0; abuf[0] = 1;
    memset(bbuf, 0xff, sizeof(asmcrypt_word) * num);                       /* b == n */
    arm(); expect(asmcrypt_bn_mont_mul(rbuf, abuf, bbuf, nbuf, n0, num), ASMCRYPT_ERANGE, "mont b == n");
    nbuf[num - 1] = 5;                                                      /* b > n */
    arm(); expect(asmcrypt_bn_mont_mul(rbuf, abuf, bbuf, nbuf, n0, num), ASMCRYPT_ERANGE, "mont b > n");
    valid_operands();
    CHECK(asmcrypt_bn_mont_mul(rbuf, abuf, bbuf, nbuf, n0, num) == 0, "mont valid again");
}

static void test_modexp(void)
{
    const int num = 3;

    valid_operands();
    arm(); expect(asmcrypt_mod_exp(NULL, abuf, ebuf, 1, nbuf, num), ASMCRYPT_ENULL, "exp rp");
    arm(); expect(asmcrypt_mod_exp(rbuf, NULL, ebuf, 1, nbuf, num), ASMCRYPT_ENULL, "exp ap");
    arm(); expect(asmcrypt_mod_exp(rbuf, abuf, NULL, 1, nbuf, num), ASMCRYPT_ENULL, "exp ep");
    arm(); expect(asmcrypt_mod_exp(rbuf, abuf, ebuf, 1, NULL, num), ASMCRYPT_ENULL, "exp np");
    arm(); expect(asmcrypt_mod_exp(rbuf, abuf, ebuf, 1, nbuf, 0), ASMCRYPT_ESIZE, "exp num 0");
    arm(); expect(asmcrypt_mod_exp(rbuf, abuf, ebuf, 1, nbuf, -1), ASMCRYPT_ESIZE, "exp num < 0");
    arm(); expect(asmcrypt_mod_exp(rbuf, abuf, ebuf, 1, nbuf, MAXW + 1), ASMCRYPT_ESIZE, "exp num > max");
    arm(); expect(asmcrypt_mod_exp(rbuf, abuf, ebuf, 0, nbuf, num), ASMCRYPT_ESIZE, "exp ewords 0");
    arm(); expect(asmcrypt_mod_exp(rbuf, abuf, ebuf, -2, nbuf, num), ASMCRYPT_ESIZE, "exp ewords < 0");
    arm(); expect(asmcrypt_mod_exp(rbuf, abuf, ebuf, MAXW + 1, nbuf, num), ASMCRYPT_ESIZE, "exp ewords > max");
    nbuf[0] = 4;
    arm(); expect(asmcrypt_mod_exp(rbuf, abuf, ebuf, 1, nbuf, num), ASMCRYPT_EEVEN, "exp even n");
    valid_operands();
    memset(abuf, 0xff, sizeof(asmcrypt_word) * num);
    arm(); expect(asmcrypt_mod_exp(rbuf, abuf, ebuf, 1, nbuf, num), ASMCRYPT_ERANGE, "exp a == n");
    valid_operands();
    arm();
    CHECK(asmcrypt_mod_exp(rbuf, abuf, ebuf, 1, nbuf, num) == 0 && rbuf[0] == 1 &&
          rbuf[1] == 0 && rbuf[2] == 0 && rbuf[3] == rcopy[3], "exp valid (1^3 = 1), rp[num] untouched");
}

static void test_poly1305(void)
{
    static const unsigned char key[32] = { 1, 2, 3 };
    unsigned char tag[16], tag_copy[16], msg[40] = { 0 };
    asmcrypt_poly1305_ctx ctx, ctx_copy;
    int rc;

#define TAGCHECK(call, want, what) do { \
        memset(tag, CANARY, 16); memcpy(tag_copy, tag, 16); \
        rc = (call); \
        CHECK(rc == (want), "%s: rc %d, expected %d", what, rc, want); \
        CHECK(memcmp(tag, tag_copy, 16) == 0, "%s: tag written", what); \
    } while (0)

    TAGCHECK(asmcrypt_poly1305(NULL, msg, 10, key), ASMCRYPT_ENULL, "one-shot tag NULL");
    TAGCHECK(asmcrypt_poly1305(tag, NULL, 10, key), ASMCRYPT_ENULL, "one-shot in NULL");
    TAGCHECK(asmcrypt_poly1305(tag, msg, 10, NULL), ASMCRYPT_ENULL, "one-shot key NULL");
    rc = asmcrypt_poly1305(tag, NULL, 0, key);
    CHECK(rc == 0, "one-shot in NULL with len 0 is valid (rc %d)", rc);

    CHECK(asmcrypt_poly1305_init(NULL, key) == ASMCRYPT_ENULL, "init ctx NULL");
    memset(&ctx, CANARY, sizeof(ctx));
    memcpy(&ctx_copy, &ctx, sizeof(ctx));
    CHECK(asmcrypt_poly1305_init(&ctx, NULL) == ASMCRYPT_ENULL &&
          memcmp(&ctx, &ctx_copy, sizeof(ctx)) == 0, "init key NULL leaves ctx");

    /* uninitialised context (zeroed and canary-filled) */
    memset(&ctx, 0, sizeof(ctx));
    memcpy(&ctx_copy, &ctx, sizeof(ctx));
    CHECK(asmcrypt_poly1305_update(&ctx, msg, 5) == ASMCRYPT_ESTATE &&
          memcmp(&ctx, &ctx_copy, sizeof(ctx)) == 0, "update on zeroed ctx");
    TAGCHECK(asmcrypt_poly1305_final(&ctx, tag), ASMCRYPT_ESTATE, "final on zeroed ctx");
    memset(&ctx, CANARY, sizeof(ctx));
    CHECK(asmcrypt_poly1305_update(&ctx, msg, 5) == ASMCRYPT_ESTATE, "update on canary ctx");
    TAGCHECK(asmcrypt_poly1305_final(&ctx, tag), ASMCRYPT_ESTATE, "final on canary ctx");

    /* NULL arguments on a live context leave it usable */
    CHECK(asmcrypt_poly1305_init(&ctx, key) == 0, "init");
    CHECK(asmcrypt_poly1305_update(NULL, msg, 5) == ASMCRYPT_ENULL, "update ctx NULL");
    memcpy(&ctx_copy, &ctx, sizeof(ctx));
    CHECK(asmcrypt_poly1305_update(&ctx, NULL, 5) == ASMCRYPT_ENULL &&
          memcmp(&ctx, &ctx_copy, sizeof(ctx)) == 0, "update in NULL leaves ctx");
    CHECK(asmcrypt_poly1305_update(&ctx, NULL, 0) == 0, "update in NULL, len 0 is valid");
    CHECK(asmcrypt_poly1305_final(&ctx, NULL) == ASMCRYPT_ENULL &&
          memcmp(&ctx, &ctx_copy, sizeof(ctx)) == 0, "final tag NULL leaves ctx");
    TAGCHECK(asmcrypt_poly1305_final(NULL, tag), ASMCRYPT_ENULL, "final ctx NULL");
    CHECK(asmcrypt_poly1305_update(&ctx, msg, 7) == 0, "update after errors");
    CHECK(asmcrypt_poly1305_final(&ctx, tag) == 0, "final after errors");

    /* finalised context */
    CHECK(asmcrypt_poly1305_update(&ctx, msg, 5) == ASMCRYPT_ESTATE, "update after final");
    TAGCHECK(asmcrypt_poly1305_final(&ctx, tag), ASMCRYPT_ESTATE, "final after final");
#undef TAGCHECK
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    test_words();
    test_mont();
    test_modexp();
    test_poly1305();
    CHECK(asmcrypt_strerror(ASMCRYPT_ESTATE) != NULL, "strerror");
    return tu_finish();
}
