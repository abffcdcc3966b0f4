/*
 * test/test_poly1305.c - every vector of test/vectors/poly1305.txt through
 * the one-shot API, the incremental API (several split patterns,
 * byte by byte for short messages), the C references directly and, when
 * Configure enabled them, the assembly entry points directly (through the
 * func[] pair init returns and through plain poly1305_blocks/emit), with
 * input and output buffers at every alignment 0..3 mod 8.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util.h"
#include "poly1305_drive.h"

#define MAXMSG 16384

typedef struct {
    uint64_t opaque[64] ASMCRYPT_ALIGN64;
} state512;

/* Drive a blocks/emit pair the way the API does, with the whole blocks in
 * calls of at most `chunk` blocks (0: all at once). */
static void mac_direct(void *st, poly1305_blocks_f blocks, poly1305_emit_f emit,
                       const unsigned char key[32], const unsigned char *msg,
                       size_t len, size_t chunk, unsigned char *tag)
{
    size_t full = len & ~(size_t)15, off = 0, step;

    while (off < full) {
        step = chunk ? chunk * 16 : full;
        if (step > full - off)
            step = full - off;
        blocks(st, msg + off, step, 1);
        off += step;
    }
    poly1305_drive_finish(st, blocks, emit, key, msg, len, tag);
}

static int n_tested;

static void check_tag(const unsigned char *got, const unsigned char *want,
                      const char *how, long line, size_t len)
{
    CHECK(memcmp(got, want, 16) == 0, "%s: vector at line %ld (len %zu)", how, line, len);
}

static void test_api(const unsigned char *key, const unsigned char *msg, size_t len,
                     const unsigned char *want, long line)
{
    static unsigned char inbuf[MAXMSG + 16];
    unsigned char outbuf[16 + 8];
    asmcrypt_poly1305_ctx ctx;
    size_t splits[8], i, off;
    int align, s, rc;

    /* one-shot, every input/output alignment */
    for (align = 0; align < 4; align++) {
        memcpy(inbuf + align, msg, len);
        rc = asmcrypt_poly1305(outbuf + 3 + align, inbuf + align, len, key);
        CHECK(rc == 0, "one-shot rc %d", rc);
        check_tag(outbuf + 3 + align, want, "one-shot", line, len);
    }

    /* incremental: one split point at a time */
    splits[0] = 0; splits[1] = 1; splits[2] = 15; splits[3] = 16;
    splits[4] = 17; splits[5] = len / 2; splits[6] = len > 0 ? len - 1 : 0;
    splits[7] = 33;
    for (s = 0; s < 8; s++) {
        size_t at = splits[s] > len ? len : splits[s];
        asmcrypt_poly1305_init(&ctx, key);
        asmcrypt_poly1305_update(&ctx, msg, at);
        asmcrypt_poly1305_update(&ctx, msg + at, 0);
        asmcrypt_poly1305_update(&ctx, msg + at, len - at);
        rc = asmcrypt_poly1305_final(&ctx, outbuf + 1);
        CHECK(rc == 0, "final rc %d", rc);
        check_tag(outbuf + 1, want, "incremental split", line, len);
    }

    /* byte by byte for short messages, else pseudo-random chunks */
    asmcrypt_poly1305_init(&ctx, key);
    if (len <= 300) {
        for (i = 0; i < len; i++)
            asmcrypt_poly1305_update(&ctx, msg + i, 1);
    } else {
        for (off = 0; off < len; off += i) {
            i = (size_t)(tu_rand64() % 200);
            if (i > len - off)
                i = len - off;
            asmcrypt_poly1305_update(&ctx, msg + off, i);
        }
    }
    asmcrypt_poly1305_final(&ctx, outbuf);
    check_tag(outbuf, want, len <= 300 ? "byte by byte" : "random chunks", line, len);
}

static void test_refs(const unsigned char *key, const unsigned char *msg, size_t len,
                      const unsigned char *want, long line)
{
    state512 st;
    unsigned char tag[16];
    size_t chunk;

    for (chunk = 0; chunk <= 3; chunk += 3) {
        memset(&st, 0xa5, sizeof(st));
        poly1305_ref26_init(st.opaque, key);
        mac_direct(st.opaque, poly1305_ref26_blocks, poly1305_ref26_emit, key,
                   msg, len, chunk, tag);
        check_tag(tag, want, "poly1305_ref26", line, len);
#if defined(ASMCRYPT_HAVE_INT128)
        memset(&st, 0xa5, sizeof(st));
        poly1305_ref64_init(st.opaque, key);
        mac_direct(st.opaque, poly1305_ref64_blocks, poly1305_ref64_emit, key,
                   msg, len, chunk, tag);
        check_tag(tag, want, "poly1305_ref64", line, len);
#endif
    }
}

#if defined(ASMCRYPT_POLY1305_ASM)
static void test_asm(const unsigned char *key32, const unsigned char *msg, size_t len,
                     const unsigned char *want, long line)
{
    static unsigned char inbuf[MAXMSG + 16];
    /* message and tag at offsets 0..8, the key at 0..7 independently:
     * the MIPS64 init and emit take ldl/ldr, sdl/sdr or (R6) ld/sd when
     * the pointer is 8-byte aligned, bytes otherwise */
    union { uint64_t w[3]; unsigned char b[16 + 8]; } out8;
    union { uint64_t w[5]; unsigned char b[32 + 8]; } key8;
    unsigned char *outbuf = out8.b, *keybuf = key8.b;
    state512 st;
    void *func[2];
    size_t chunk;
    int align = (int)(line % 9);
    unsigned char *key = keybuf + (line / 9) % 8;

    memcpy(key, key32, 32);
    memcpy(inbuf + align, msg, len);
    for (chunk = 0; chunk <= 1; chunk++) {
        memset(&st, 0xa5, sizeof(st));
        func[0] = func[1] = NULL;
        if (poly1305_init(st.opaque, key, func)) {
            CHECK(func[0] != NULL && func[1] != NULL, "poly1305_init returned 1 without func");
            if (func[0] == NULL || func[1] == NULL)
                return;
            mac_direct(st.opaque, (poly1305_blocks_f)func[0], (poly1305_emit_f)func[1],
                       key, inbuf + align, len, chunk, outbuf + align);
            check_tag(outbuf + align, want, "asm func[] pair", line, len);
            memset(&st, 0xa5, sizeof(st));
            poly1305_init(st.opaque, key, func);
        }
        mac_direct(st.opaque, poly1305_blocks, poly1305_emit, key, inbuf + align, len,
                   chunk, outbuf + align);
        check_tag(outbuf + align, want, "asm poly1305_blocks/emit", line, len);
    }
}
#endif

int main(int argc, char **argv)
{
    static unsigned char key[32], msg[MAXMSG], want[16];
    tu_record rec = { 0 };
    FILE *f;

    if (argc < 2) {
        printf("usage: %s <vectors-dir>\n", argv[0]);
        return 2;
    }
    f = tu_open(argv[1], "poly1305.txt");
    CHECK(f != NULL, "vector file");
    if (f == NULL)
        return tu_finish();
    tu_seed(1305);
    while (tu_read_record(f, &rec)) {
        const char *k = tu_get(&rec, "key"), *m = tu_get(&rec, "msg"),
                   *t = tu_get(&rec, "tag");
        long len = -1;

        if (!CHECK(k && m && t && tu_hex_bytes(k, key, 32) == 32 &&
                   tu_hex_bytes(t, want, 16) == 16 &&
                   (len = tu_hex_bytes(m, msg, MAXMSG)) >= 0,
                   "malformed record at line %ld", rec.line))
            continue;
        n_tested++;
        test_api(key, msg, (size_t)len, want, rec.line);
        test_refs(key, msg, (size_t)len, want, rec.line);
#if defined(ASMCRYPT_POLY1305_ASM)
        test_asm(key, msg, (size_t)len, want, rec.line);
#endif
    }
    fclose(f);
    tu_record_free(&rec);
    CHECK(n_tested > 400, "only %d vectors read", n_tested);
    printf("poly1305: %d vectors, implementation %s\n", n_tested, asmcrypt_impl("poly1305"));
    return tu_finish();
}
