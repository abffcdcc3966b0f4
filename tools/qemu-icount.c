/*
 * tools/qemu-icount.c - QEMU TCG plugin: instruction counts and execution
 * trace hashes for asmcrypt's measurement and constant-time tools.
 *
 * Written for qemu-user 7.2 (Debian 12), which accepts plugin API version
 * 1 and ships no <qemu-plugin.h>: the handful of API functions used here
 * are declared by hand below (their prototypes are those of QEMU's
 * documented plugin API).  Built with the host compiler:
 *     cc -O2 -shared -fPIC -o libicount.so tools/qemu-icount.c
 * One host .so serves every qemu-<arch> binary.
 *
 * Usage: qemu-<arch> -plugin ./libicount.so[,opt=val...] ./prog args
 *   (no opts)       count every guest instruction executed ("total")
 *   sym=NAME        region = every call of function NAME: from the
 *                   execution of its first instruction to the return to
 *                   the caller, callees included
 *   callees=off     with sym=: count only instructions whose symbol is
 *                   NAME (no call tracking, cheapest)
 *   lo=HEX,hi=HEX   like sym=, but the function is the address range
 *                   [lo, hi) (non-PIE binary; addresses from nm -S; on
 *                   ARM the Thumb bit 0 is cleared)
 *   percall=on      print one line per call of NAME (insns, mem accesses)
 *   trace=on        per call, also hash the sequence of executed
 *                   instruction addresses and the sequence of memory
 *                   accesses (address, size, load/store); implies percall
 *   out=FILE        write the report to FILE (default: stderr; qemu's own
 *                   qemu_plugin_outs() would need -d plugin).  "file=" is
 *                   reserved by qemu's option parser.
 *
 * Report lines (one per fact, easy to grep):
 *     icount total=N
 *     icount sym=NAME insns=N calls=K
 *     call K insns=N mem=M ihash=HEX mhash=HEX     (percall / trace)
 *
 * How calls are tracked: a callback runs at the start of every translated
 * block (TB).  A call of NAME starts when a TB whose first instruction
 * belongs to NAME runs while no call is active; the return address is the
 * end of the previously executed TB (the call instruction, or on MIPS the
 * delay slot after it, ends that block).  The call ends when a TB starting
 * at that return address runs.  Consequences: NAME must be reached by a
 * real call (not a tail jump), and it must not be re-entered recursively
 * (nested entries are counted inside the outer call).  Static, unstripped
 * binaries with .size on NAME are required for symbol lookup.
 *
 * Counting is per instruction (an inline add on each one), not per
 * block: qemu 7.2's x86 translator ends a block before an instruction
 * that crosses a page boundary, but the plugin API still lists that
 * instruction in the block it was taken out of, so a block's
 * qemu_plugin_tb_n_insns() can be one too many.  Per-block counting made
 * x86_64 counts depend on where the linker put the code (bn_mul_mont
 * 2048 bits: 18423 or 18647 instructions for the same object file, after
 * an unrelated change elsewhere in the library); per instruction the
 * removed one is never counted.  The block callback only attributes the
 * instructions executed since the previous block start to the region.
 *
 * Determinism: counts are a pure function of the guest's execution path.
 * Totals include libc start-up, which reads the environment and auxv:
 * run under `env -i` with a static binary for repeatable totals.  Region
 * counts do not depend on the environment.  Blocks are counted when they
 * start; a block left early by a guest fault would be over-counted, which
 * does not happen in the drivers.  The plugin assumes one guest thread.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- hand-written subset of QEMU's plugin API (version 1) -------------- */
typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
/* Only the first member is read (the rest differs between versions). */
typedef struct qemu_info_t {
    const char *target_name;
} qemu_info_t;

enum qemu_plugin_cb_flags {
    QEMU_PLUGIN_CB_NO_REGS,
    QEMU_PLUGIN_CB_R_REGS,
    QEMU_PLUGIN_CB_RW_REGS,
};
enum qemu_plugin_mem_rw {
    QEMU_PLUGIN_MEM_R = 1,
    QEMU_PLUGIN_MEM_W,
    QEMU_PLUGIN_MEM_RW,
};
enum qemu_plugin_op {
    QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
                                            void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
                                          qemu_plugin_meminfo_t info,
                                          uint64_t vaddr, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
                                          qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags,
                                          void *userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
                                              enum qemu_plugin_op op,
                                              void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
                                                enum qemu_plugin_op op,
                                                void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
                                      qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags,
                                      enum qemu_plugin_mem_rw rw,
                                      void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
                                                 size_t idx);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *insn);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                        int argc, char **argv);
__attribute__((visibility("default")))
int qemu_plugin_version = 1;

/* ---- state --------------------------------------------------------------- */

/* Per translated block, kept for the life of the process. */
struct tb_info {
    uint64_t start;          /* vaddr of the first instruction */
    uint64_t end;            /* vaddr just past the last instruction */
    uint64_t n;              /* instructions in the block */
    int in_sym;              /* first instruction belongs to NAME */
    uint64_t ihash;          /* hash of the block's instruction addresses */
};

struct call_rec {
    uint64_t insns, mem, ihash, mhash;
};

static FILE *out;
static const char *sym_name;
static int callees = 1, percall, trace;
static uint64_t range_lo, range_hi;
static int have_range;

static uint64_t total;         /* inline counter: every instruction */
static uint64_t seen;          /* total at the previous block start */
static uint64_t excl;          /* inline counter: NAME / range only */

static int active;             /* inside a call of NAME */
static uint64_t ret_addr;      /* where the active call returns */
static uint64_t prev_end;      /* end of the previously executed block */
static uint64_t calls;
static struct call_rec cur;    /* the active call */
static struct call_rec *recs;  /* finished calls (percall) */
static size_t nrecs, caprecs;

/* ---- hashing: a 64-bit multiply-xorshift mix, order sensitive ---------- */
static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
    return h;
}

/* ---- callbacks ------------------------------------------------------------ */

static void end_call(void)
{
    if (percall) {
        if (nrecs == caprecs) {
            size_t n = caprecs ? 2 * caprecs : 1024;
            struct call_rec *p = realloc(recs, n * sizeof(*p));
            if (p == NULL) {
                fprintf(stderr, "qemu-icount: out of memory\n");
                exit(1);
            }
            recs = p;
            caprecs = n;
        }
        recs[nrecs++] = cur;
    }
    active = 0;
}

static void tb_exec(unsigned int vcpu, void *udata)
{
    const struct tb_info *t = udata;

    uint64_t d = total - seen;     /* what the previous block executed */

    (void)vcpu;
    seen = total;
    if (active) {                  /* the previous block ran inside the call */
        cur.insns += d;
        excl += d;
    }
    if (active && t->start == ret_addr)
        end_call();
    if (!active && t->in_sym) {
        active = 1;
        ret_addr = prev_end;
        calls++;
        memset(&cur, 0, sizeof(cur));
    }
    if (active && trace)
        cur.ihash = mix(cur.ihash, t->ihash);
    prev_end = t->end;
}

static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
                       uint64_t vaddr, void *udata)
{
    uint64_t kind;

    (void)vcpu;
    (void)udata;
    if (!active)
        return;
    kind = ((uint64_t)qemu_plugin_mem_size_shift(info) << 1)
           | (qemu_plugin_mem_is_store(info) ? 1 : 0);
    cur.mem++;
    cur.mhash = mix(cur.mhash, vaddr);
    cur.mhash = mix(cur.mhash, kind);
}

static int insn_selected(struct qemu_plugin_insn *insn)
{
    if (have_range) {
        uint64_t a = qemu_plugin_insn_vaddr(insn);
        return a >= range_lo && a < range_hi;
    }
    if (sym_name != NULL) {
        const char *s = qemu_plugin_insn_symbol(insn);
        return s != NULL && strcmp(s, sym_name) == 0;
    }
    return 0;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t i, n = qemu_plugin_tb_n_insns(tb);
    struct qemu_plugin_insn *first, *last;
    struct tb_info *t;

    (void)id;
    if (n == 0)
        return;
    for (i = 0; i < n; i++)
        qemu_plugin_register_vcpu_insn_exec_inline(qemu_plugin_tb_get_insn(tb, i),
                                                   QEMU_PLUGIN_INLINE_ADD_U64, &total, 1);
    if (sym_name == NULL && !have_range)
        return;

    if (!callees) {
        for (i = 0; i < n; i++) {
            struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
            if (insn_selected(insn))
                qemu_plugin_register_vcpu_insn_exec_inline(
                    insn, QEMU_PLUGIN_INLINE_ADD_U64, &excl, 1);
        }
        return;
    }

    t = calloc(1, sizeof(*t));
    if (t == NULL) {
        fprintf(stderr, "qemu-icount: out of memory\n");
        exit(1);
    }
    first = qemu_plugin_tb_get_insn(tb, 0);
    last = qemu_plugin_tb_get_insn(tb, n - 1);
    t->start = qemu_plugin_insn_vaddr(first);
    t->end = qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last);
    t->n = n;
    t->in_sym = insn_selected(first);
    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        t->ihash = mix(t->ihash, qemu_plugin_insn_vaddr(insn));
        if (trace)
            qemu_plugin_register_vcpu_mem_cb(insn, mem_access,
                                             QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_RW, NULL);
    }
    qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, t);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
    size_t i;

    (void)id;
    (void)udata;
    if (active) {     /* exit() inside NAME, or NAME was tail-jumped to */
        cur.insns += total - seen;
        excl += total - seen;
        fprintf(out, "icount warning: call %" PRIu64 " of %s never returned "
                "(entered by a tail jump?)\n", calls - 1,
                sym_name != NULL ? sym_name : "range");
        end_call();
    }
    fprintf(out, "icount total=%" PRIu64 "\n", total);
    if (sym_name != NULL || have_range)
        fprintf(out, "icount sym=%s insns=%" PRIu64 " calls=%" PRIu64 "\n",
                sym_name != NULL ? sym_name : "range", excl,
                callees ? calls : 0);
    for (i = 0; i < nrecs; i++) {
        fprintf(out, "call %zu insns=%" PRIu64 " mem=%" PRIu64, i,
                recs[i].insns, recs[i].mem);
        if (trace)
            fprintf(out, " ihash=%016" PRIx64 " mhash=%016" PRIx64,
                    recs[i].ihash, recs[i].mhash);
        fputc('\n', out);
    }
    fflush(out);
    if (out != stderr)
        fclose(out);
}

/* ---- options --------------------------------------------------------------- */

static int bool_opt(const char *v, int *dst)
{
    if (!strcmp(v, "on") || !strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes"))
        *dst = 1;
    else if (!strcmp(v, "off") || !strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no"))
        *dst = 0;
    else
        return -1;
    return 0;
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                        int argc, char **argv)
{
    const char *outname = NULL;
    int i, have_lo = 0, have_hi = 0;

    for (i = 0; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        const char *k = argv[i], *v;
        size_t klen;
        int bad = 0;

        if (eq == NULL) {
            fprintf(stderr, "qemu-icount: option '%s' needs =value\n", k);
            return -1;
        }
        v = eq + 1;
        klen = (size_t)(eq - k);
#define KEY(s) (klen == sizeof(s) - 1 && strncmp(k, s, klen) == 0)
        if (KEY("sym"))
            sym_name = v;
        else if (KEY("callees"))
            bad = bool_opt(v, &callees);
        else if (KEY("percall"))
            bad = bool_opt(v, &percall);
        else if (KEY("trace"))
            bad = bool_opt(v, &trace);
        else if (KEY("out"))
            outname = v;
        else if (KEY("lo")) {
            range_lo = strtoull(v, NULL, 16);
            have_lo = 1;
        } else if (KEY("hi")) {
            range_hi = strtoull(v, NULL, 16);
            have_hi = 1;
        } else
            bad = 1;
#undef KEY
        if (bad) {
            fprintf(stderr, "qemu-icount: bad option '%s'\n", argv[i]);
            return -1;
        }
    }
    if (have_lo != have_hi || (have_lo && range_hi <= range_lo)) {
        fprintf(stderr, "qemu-icount: lo= and hi= go together, lo < hi\n");
        return -1;
    }
    have_range = have_lo;
    /* nm gives Thumb functions with bit 0 set; instructions never are. */
    if (have_range && info != NULL && info->target_name != NULL
        && strncmp(info->target_name, "arm", 3) == 0) {
        range_lo &= ~(uint64_t)1;
        range_hi &= ~(uint64_t)1;
    }
    if (trace)
        percall = 1;
    if ((percall || trace) && !(sym_name != NULL || have_range)) {
        fprintf(stderr, "qemu-icount: percall/trace need sym=NAME\n");
        return -1;
    }
    if ((percall || trace) && !callees) {
        fprintf(stderr, "qemu-icount: percall/trace need callees=on\n");
        return -1;
    }
    if (outname != NULL) {
        out = fopen(outname, "w");
        if (out == NULL) {
            perror(outname);
            return -1;
        }
    } else {
        int fd = dup(2);        /* the guest may close its stderr */
        out = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (out == NULL)
            out = stderr;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
