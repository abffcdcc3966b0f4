/*
 * test/test_poly1305_state.c - the Poly1305 state budget (issue 11 item 1).
 *
 * Every Poly1305 block path may write at most BUDGET bytes from the start
 * of its state: 192 (OpenSSL's POLY1305 opaque, and inside every Linux
 * glue's reservation), 72 on MIPS (the MIPS kernel glue reserves 72).  The
 * state may be only 8-byte aligned.  This program places the state at two
 * positions, 8 and 40 (mod 64) (both 8 mod 16, 40 is where the kernel's
 * struct poly1305_desc_ctx puts h when the descriptor is 64-byte aligned),
 * with CANARY bytes of canary before it and after it, then runs init,
 * blocks and emit for lengths 0..300 and long lengths up to 33000 in
 * several split patterns, through:
 *   - the blocks/emit pair poly1305_init stored in func[] (when it did),
 *   - plain poly1305_blocks/poly1305_emit,
 *   - the C references poly1305_ref26 and poly1305_ref64 (when built).
 * Each message runs twice, once over a canary and once over its
 * complement, so a state byte that happens to equal the canary cannot hide
 * a write: the written extent is the maximum of the two runs.  The tag is
 * compared with poly1305_ref26 on a private state.  Checked: the tag, no
 * byte written at or beyond BUDGET, none before the state.
 *
 * The C references have the same contract here (their states are 60 and
 * 48 bytes, inside even the MIPS budget), so a build without the assembly
 * still tests the state its Poly1305 uses.
 *
 * The program runs at every ASMCRYPT_CAP level (test/run.sh); it prints
 * the largest extent written per path for the level it runs at.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util.h"
#include "poly1305_drive.h"
#include "canary.h"

#if defined(__mips) || defined(__mips__)
# define BUDGET 72
#else
# define BUDGET 192
#endif

#define CANARY   4096            /* canary bytes on each side */
#define SPAN     1024            /* bytes after the state start scanned too */
#define MAXLEN   33000

typedef int  (*init_f)(void *ctx, const unsigned char key[16], void *func[2]);

typedef struct {
    const char *name;
    init_f init;                 /* NULL: the pair below is fixed */
    int (*init_plain)(void *ctx, const unsigned char key[16]);
    poly1305_blocks_f blocks;
    poly1305_emit_f emit;
    int use_func;                /* use the func[] pair init returned */
    size_t extent;               /* largest extent written, all messages */
    unsigned long runs;
} path;

/* arena: CANARY | state (SPAN) | CANARY, 64-byte aligned */
static unsigned char arena[CANARY + SPAN + CANARY + 64] ASMCRYPT_ALIGN64;
static unsigned char msg[MAXLEN + 16];

static unsigned char canary[2][CANARY + SPAN + CANARY];

/* two complementary byte sequences that no Poly1305 state is likely to
 * contain */
static void make_canaries(void)
{
    size_t i;

    for (i = 0; i < sizeof(canary[0]); i++) {
        canary[0][i] = (unsigned char)(0xa5u ^ (unsigned)(i * 167u) ^ (unsigned)(i >> 7));
        canary[1][i] = (unsigned char)~canary[0][i];
    }
}

/* Highest offset from st written + 1 (0: nothing written); *before set
 * when a byte before st changed. */
static size_t extent_of(const unsigned char *base, const unsigned char *st,
                        size_t n, int inv, int *before)
{
    size_t off = (size_t)(st - base);

    return canary_extent(base, canary[inv], n, off, off, before);
}

/* split patterns: how the whole blocks are handed to blocks() */
enum { ONESHOT, BLOCK16, UNEVEN, GROWING, NPATTERNS };
static const char *const pattern_name[NPATTERNS] = {
    "one-shot", "16-byte blocks", "uneven 16k+r", "growing chunks"
};

/* Feed msg[0..len) in the given pattern, pad the last partial block with
 * 0x01 and zeros (padbit 0), emit. */
static void run_mac(void *st, poly1305_blocks_f blocks, poly1305_emit_f emit,
                    const unsigned char key[32], const unsigned char *m,
                    size_t len, int pattern, unsigned char tag[16])
{
    size_t full = len & ~(size_t)15, off = 0, step, k = 1;

    while (off < full) {
        size_t pass;

        switch (pattern) {
        case ONESHOT: step = full; break;
        case BLOCK16: step = 16; break;
        case UNEVEN:  step = 16 * (1 + (k * 5) % 23); break;    /* 1..23 blocks */
        default:      step = 16 * k; break;                     /* 1, 2, 3... */
        }
        if (step > full - off)
            step = full - off;
        pass = step;
        /* blocks() processes floor(len/16) blocks: hand it 1..15 bytes
         * more than it may consume when those bytes exist */
        if (pattern == UNEVEN && len - off - step >= 16)
            pass += 1 + k % 15;
        blocks(st, m + off, pass, 1);
        off += step;
        k++;
    }
    poly1305_drive_finish(st, blocks, emit, key, m, len, tag);
}

static void reference_tag(const unsigned char key[32], const unsigned char *m,
                          size_t len, unsigned char tag[16])
{
    uint64_t st[64];

    poly1305_ref26_init(st, key);
    run_mac(st, poly1305_ref26_blocks, poly1305_ref26_emit, key, m, len, ONESHOT, tag);
}

static unsigned long n_messages;

/* One message through one path at one position, both canaries. */
static void test_path(path *p, size_t pos, const unsigned char key[32],
                      const unsigned char *m, size_t len, int pattern,
                      const unsigned char want[16])
{
    const size_t n = CANARY + SPAN + CANARY;
    unsigned char *base = arena, *st = arena + CANARY + pos;
    unsigned char tag[16];
    size_t ext = 0, e;
    int inv, before, bad_before = 0, tag_ok = 1;

    for (inv = 0; inv < 2; inv++) {
        poly1305_blocks_f blocks = p->blocks;
        poly1305_emit_f emit = p->emit;

        memcpy(base, canary[inv], n);
        if (p->init != NULL) {
            void *func[2] = { NULL, NULL };

            if (p->init(st, key, func) && p->use_func) {
                if (func[0] == NULL || func[1] == NULL) {
                    CHECK(0, "%s: init returned 1 without func[]", p->name);
                    return;
                }
                blocks = (poly1305_blocks_f)func[0];
                emit = (poly1305_emit_f)func[1];
            }
        } else {
            p->init_plain(st, key);
        }
        run_mac(st, blocks, emit, key, m, len, pattern, tag);
        tag_ok &= memcmp(tag, want, 16) == 0;
        e = extent_of(base, st, n, inv, &before);
        bad_before |= before;
        if (e > ext)
            ext = e;
    }
    CHECK(tag_ok, "%s: wrong tag, len %zu, %s, state at %zu mod 64",
          p->name, len, pattern_name[pattern], (size_t)(st - arena) % 64);
    CHECK(ext <= BUDGET, "%s: wrote %zu bytes from the state (budget %d), len %zu, %s, "
          "state at %zu mod 64", p->name, ext, BUDGET, len, pattern_name[pattern],
          (size_t)(st - arena) % 64);
    CHECK(!bad_before, "%s: wrote before the state, len %zu, %s", p->name, len,
          pattern_name[pattern]);
    if (ext > p->extent)
        p->extent = ext;
    p->runs++;
    n_messages++;
}

static const size_t long_lens[] = {
    301, 383, 384, 511, 512, 513, 1000, 1024, 2047, 4096, 4111, 4176,
    8191, 8192, 16384, 16399, 32768, 32999, 33000
};

int main(void)
{
    static const size_t positions[] = { 8, 40 };
    path paths[4];
    int np = 0, i, pat;
    size_t len, li, pi;
    unsigned char key[32], want[16];

    asmcrypt_cpucap_init();
    make_canaries();
    memset(paths, 0, sizeof(paths));
#if defined(ASMCRYPT_POLY1305_ASM)
    paths[np].name = "asm func[] pair";
    paths[np].init = poly1305_init;
    paths[np].blocks = poly1305_blocks;
    paths[np].emit = poly1305_emit;
    paths[np++].use_func = 1;
    paths[np].name = "asm poly1305_blocks/emit";
    paths[np].init = poly1305_init;
    paths[np].blocks = poly1305_blocks;
    paths[np++].emit = poly1305_emit;
#endif
    paths[np].name = "poly1305_ref26";
    paths[np].init_plain = poly1305_ref26_init;
    paths[np].blocks = poly1305_ref26_blocks;
    paths[np++].emit = poly1305_ref26_emit;
#if defined(ASMCRYPT_HAVE_INT128)
    paths[np].name = "poly1305_ref64";
    paths[np].init_plain = poly1305_ref64_init;
    paths[np].blocks = poly1305_ref64_blocks;
    paths[np++].emit = poly1305_ref64_emit;
#endif

    tu_seed(0x192);
    for (li = 0; li <= 300 + sizeof(long_lens) / sizeof(long_lens[0]); li++) {
        len = li <= 300 ? li : long_lens[li - 301];
        tu_rand_bytes(key, sizeof(key));
        if (li % 7 == 3)
            memset(key, 0xff, 16);         /* largest r the clamp allows */
        if (li % 5 == 4)
            memset(msg, 0xff, len);        /* largest blocks */
        else
            tu_rand_bytes(msg, len);
        reference_tag(key, msg, len, want);
        for (pat = 0; pat < NPATTERNS; pat++) {
            for (i = 0; i < np; i++)
                for (pi = 0; pi < sizeof(positions) / sizeof(positions[0]); pi++)
                    test_path(&paths[i], positions[pi], key, msg, len, pat, want);
        }
    }

    printf("poly1305 state budget %d bytes, ASMCRYPT_CAP level %x, implementation %s, "
           "%lu messages\n", BUDGET, asmcrypt_cpu_caps(), asmcrypt_impl("poly1305"),
           n_messages);
    for (i = 0; i < np; i++)
        printf("  %-26s largest extent written %3zu bytes (offsets 0..%zu)\n",
               paths[i].name, paths[i].extent,
               paths[i].extent ? paths[i].extent - 1 : 0);
    return tu_finish();
}
