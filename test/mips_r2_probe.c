/*
 * test/mips_r2_probe.c - the run-time R2 probe of an o32 MIPS32r1 build
 * (crypto/arch/cpucap_mips.c) on cores with and without R2.
 *
 * Debian's mips/mipsel libc is built for R2 and dies of SIGILL on qemu's
 * MIPS32r1 cores (4Kc, 4KEcR1), so the hosted tests can only see the
 * probe answer "R2" (24Kf).  This program is freestanding (no libc: a
 * __start, raw system calls, docs/shared toolchains recipe), and
 * crypto/arch/cpucap_mips.c is compiled into it unchanged: the few libc
 * functions the probe calls (sigaction, sigprocmask, sigemptyset,
 * sigaddset, raise, sched_yield, memset) are the thin system-call shims
 * below, with glibc's types from its headers.  test/mips-r2-probe.sh
 * builds nothing; test/test.mk builds this with the row's compiler and
 * runs it on each qemu core with the answer that core must give:
 *
 *   mips_r2_probe 0|1|-     (- = unknown: a native run)
 *
 * Checks (one line each, then "N passed, N failed"):
 *   1. cpucap_arch_detect() gives the expected R2 bit; the program's own
 *      SIGILL handler (SA_SIGINFO, a mask of its own) and its signal mask
 *      (SIGUSR2 blocked) are the same afterwards, and the handler saw
 *      nothing of the probe;
 *   2. a second cpucap_arch_detect() gives the same and does not probe
 *      again (the handler is installed once per process);
 *   3. afterwards SIGILL really goes to the program's handler: a reserved
 *      instruction (and on an R1 core an R2 one) reaches it;
 *   4. cpucap_mips_r2_probe() with SIGILL blocked and SIG_DFL (a probe
 *      that left SIGILL blocked would die here on an R1 core): the right
 *      answer, SIGILL still blocked, disposition still SIG_DFL;
 *   5. a foreign SIGILL while the probe's handler is installed (a reserved
 *      instruction executed, and a SIGILL sent with kill, right after the
 *      probe installs its handler; the shim does it, standing in for
 *      another thread): each reaches the program's handler, once, and the
 *      handler is in place afterwards.
 * A probe that crashes or hangs shows as a missing result line (the
 * runner counts a failure).
 */
#define _DEFAULT_SOURCE 1
#include <signal.h>
#include <sched.h>
#include <string.h>
#include <stddef.h>
#include <stdint.h>
#include <asm/unistd.h>
#include "internal.h"

#if !ASMCRYPT_MIPS_R2_PROBE
# error "mips_r2_probe.c: build it for o32 MIPS32r1 (-march=mips32) Linux only"
#endif

/* ---- system calls (o32: number in v0, arguments a0-a3, error flag a3) ---- */
static long sys4(long n, long a, long b, long c, long d)
{
    register long v0 __asm__("$2") = n;
    register long a0 __asm__("$4") = a;
    register long a1 __asm__("$5") = b;
    register long a2 __asm__("$6") = c;
    register long a3 __asm__("$7") = d;

    __asm__ volatile("syscall"
                     : "+r"(v0), "+r"(a3)
                     : "r"(a0), "r"(a1), "r"(a2)
                     : "$1", "$3", "$8", "$9", "$10", "$11", "$12", "$13", "$14", "$15",
                       "$24", "$25", "hi", "lo", "memory");
    return a3 ? -v0 : v0;
}

/* the kernel's struct sigaction on MIPS (flags first, a 128-bit mask) */
struct ksigaction {
    unsigned int flags;
    void *handler;
    unsigned int mask[4];
};
#define KSIGSET_BYTES 16

/* ---- the libc functions cpucap_mips.c calls ----------------------------- */
/* (volatile: the compiler must not turn these loops into calls of
 * themselves) */
void *memset(void *p, int c, size_t n)
{
    volatile unsigned char *q = p;

    while (n--)
        *q++ = (unsigned char)c;
    return p;
}

int sigemptyset(sigset_t *set)
{
    memset(set, 0, sizeof(*set));
    return 0;
}

int sigaddset(sigset_t *set, int sig)
{
    ((unsigned int *)(void *)set)[(sig - 1) / 32] |= 1u << ((sig - 1) % 32);
    return 0;
}

static int sigmember(const sigset_t *set, int sig)
{
    return (((const unsigned int *)(const void *)set)[(sig - 1) / 32] >> ((sig - 1) % 32)) & 1;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    return sys4(__NR_rt_sigprocmask, how, (long)set, (long)old, KSIGSET_BYTES) < 0 ? -1 : 0;
}

static int inject;                  /* check 5: 1 fault, 2 kill, once after the probe installs */
static int probe_installs;          /* sigaction calls that installed a handler not ours */
static void app_sigill(int sig, siginfo_t *info, void *ctx);
static void foreign_sigill(int how);

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    struct ksigaction k, ko;
    long rc;

    if (act != NULL) {
        memset(&k, 0, sizeof(k));
        k.flags = (unsigned int)act->sa_flags;
        k.handler = (void *)act->sa_handler;
        memcpy(k.mask, &act->sa_mask, KSIGSET_BYTES);
    }
    rc = sys4(__NR_rt_sigaction, sig, act != NULL ? (long)&k : 0, old != NULL ? (long)&ko : 0,
              KSIGSET_BYTES);
    if (rc < 0)
        return -1;
    if (old != NULL) {
        memset(old, 0, sizeof(*old));
        old->sa_flags = (int)ko.flags;
        old->sa_handler = (__sighandler_t)ko.handler;
        memcpy(&old->sa_mask, ko.mask, KSIGSET_BYTES);
    }
    if (act != NULL && sig == SIGILL && (act->sa_flags & SA_SIGINFO) &&
        act->sa_sigaction != app_sigill) {
        probe_installs++;
        if (inject) {
            int how = inject;

            inject = 0;
            foreign_sigill(how);
        }
    }
    return 0;
}

int raise(int sig)       /* to this thread, as glibc's */
{
    return sys4(__NR_tkill, sys4(__NR_gettid, 0, 0, 0, 0), sig, 0, 0) < 0 ? -1 : 0;
}

int sched_yield(void)
{
    return (int)sys4(__NR_sched_yield, 0, 0, 0, 0);
}

/* memcpy: the shim's own (the compiler may call it for struct copies) */
void *memcpy(void *d, const void *s, size_t n)
{
    volatile unsigned char *p = d;
    const unsigned char *q = s;

    while (n--)
        *p++ = *q++;
    return d;
}

/* ---- output ---------------------------------------------------------------- */
static void out(const char *s)
{
    sys4(__NR_write, 1, (long)s, (long)strlen(s), 0);
}

size_t strlen(const char *s)
{
    size_t n = 0;

    while (s[n])
        n++;
    return n;
}

static void out_num(unsigned long v)
{
    char b[24];
    int i = (int)sizeof(b) - 1;

    b[i] = '\0';
    do {
        b[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    out(b + i);
}

static int passed, failed;

static void check(int ok, const char *what)
{
    out(ok ? "ok   " : "FAIL ");
    out(what);
    out("\n");
    if (ok)
        passed++;
    else
        failed++;
}

/* ---- the program's own SIGILL handler -------------------------------------- */
static volatile int app_faults, app_sent;

static void app_sigill(int sig, siginfo_t *info, void *ctx)
{
    ucontext_t *uc = ctx;

    (void)sig;
    if (info->si_code > 0) {           /* raised by an instruction: step over it */
        app_faults++;
        uc->uc_mcontext.pc += 4;
    } else {
        app_sent++;
    }
}

static void reserved_insn(void)
{
    /* SPECIAL function 0x3f (dsra32 on MIPS64): reserved on every MIPS32 core */
    __asm__ volatile(".word 0x0000003f" ::: "memory");
}

static void r2_insn(void)
{
    __asm__ volatile(".word 0x7c620000" ::: "$2", "memory");   /* ext $2,$3,0,1 */
}

static void foreign_sigill(int how)
{
    if (how == 1)
        reserved_insn();
    else
        raise(SIGILL);
}

static void set_app_handler(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = app_sigill;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR1);
    sigaction(SIGILL, &sa, NULL);
}

/* the SIGILL disposition is the program's handler, flags and mask */
static int app_handler_in_place(void)
{
    struct sigaction sa;

    if (sigaction(SIGILL, NULL, &sa) != 0)
        return 0;
    return sa.sa_sigaction == app_sigill && (sa.sa_flags & (SA_SIGINFO | SA_RESTART)) ==
           (SA_SIGINFO | SA_RESTART) && sigmember(&sa.sa_mask, SIGUSR1) &&
           !sigmember(&sa.sa_mask, SIGUSR2);
}

static int blocked(int sig)
{
    sigset_t m;

    memset(&m, 0, sizeof(m));
    return sigprocmask(SIG_BLOCK, NULL, &m) == 0 && sigmember(&m, sig);
}

int start_c(long *sp);

int start_c(long *sp)
{
    long argc = sp[0];
    char **argv = (char **)(sp + 1);
    int expect = -1, r2, r;
    sigset_t m;
    struct sigaction sa;

    if (argc > 1 && (argv[1][0] == '0' || argv[1][0] == '1') && argv[1][1] == '\0')
        expect = argv[1][0] - '0';

    /* 1. detection with the program's handler and SIGUSR2 blocked */
    set_app_handler();
    sigemptyset(&m);
    sigaddset(&m, SIGUSR2);
    sigprocmask(SIG_BLOCK, &m, NULL);
    r2 = (cpucap_arch_detect() & ASMCRYPT_CAP_MIPS_R2) != 0;
    out(r2 ? "probe: R2\n" : "probe: no R2\n");
    check(expect < 0 || r2 == expect, "1 detect: the R2 bit is the core's");
    check(app_handler_in_place(), "1 detect: the program's SIGILL handler is back");
    check(blocked(SIGUSR2) && !blocked(SIGILL), "1 detect: the signal mask is back");
    check(app_faults == 0 && app_sent == 0, "1 detect: the program's handler saw no SIGILL");
    check(probe_installs == 1, "1 detect: the probe installed its handler once");

    /* 2. detection again: the same answer, no second probe */
    check(((cpucap_arch_detect() & ASMCRYPT_CAP_MIPS_R2) != 0) == r2 && probe_installs == 1,
          "2 detect again: same answer, not probed again");

    /* 3. SIGILL goes to the program's handler */
    reserved_insn();
    check(app_faults == 1, "3 after: a reserved instruction reaches the program's handler");
    if (!r2) {
        r2_insn();
        check(app_faults == 2, "3 after: an R2 instruction reaches the program's handler (R1 core)");
    }

    /* 4. SIGILL blocked and SIG_DFL */
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigaction(SIGILL, &sa, NULL);
    sigemptyset(&m);
    sigaddset(&m, SIGILL);
    sigprocmask(SIG_BLOCK, &m, NULL);
    check(cpucap_mips_r2_probe() == r2, "4 blocked: survived, same answer");
    check(blocked(SIGILL) && blocked(SIGUSR2), "4 blocked: SIGILL still blocked");
    check(sigaction(SIGILL, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL,
          "4 blocked: the disposition is still SIG_DFL");
    sigprocmask(SIG_UNBLOCK, &m, NULL);

    /* 5. a foreign SIGILL while the probe's handler is in place: a fault,
     * then a kill.  (On an R1 core the probe's own ext then meets the
     * program's handler, which the probe's handler put back: the probe
     * still answers "no R2" and the program's handler counts one fault
     * more.) */
    set_app_handler();
    app_faults = app_sent = 0;
    inject = 1;
    r = cpucap_mips_r2_probe();
    check(inject == 0 && r == r2, "5 foreign fault: injected, same answer");
    check(app_faults == 1 + !r2 && app_sent == 0,
          "5 foreign fault: the instruction faulted again, in the program's handler");
    check(app_handler_in_place(), "5 foreign fault: the program's handler is in place");
    app_faults = app_sent = 0;
    inject = 2;
    r = cpucap_mips_r2_probe();
    check(inject == 0 && r == r2, "5 foreign kill: injected, same answer");
    check(app_sent == 1 && app_faults == !r2,
          "5 foreign kill: the signal reached the program's handler once");
    check(app_handler_in_place(), "5 foreign kill: the program's handler is in place");

    out_num((unsigned long)passed);
    out(" passed, ");
    out_num((unsigned long)failed);
    out(" failed\n");
    return failed != 0;
}

#define STR(x) STR_(x)
#define STR_(x) #x
/* entry: sp points at argc; $gp for the small-data area; exit(start_c(sp)) */
__asm__(
    "\t.text\n"
    "\t.set\tpush\n"
    "\t.set\tnoreorder\n"
    "\t.globl\t__start\n"
    "\t.ent\t__start\n"
    "\t.type\t__start,@function\n"
    "__start:\n"
    "\tlui\t$28,%hi(_gp)\n"
    "\taddiu\t$28,$28,%lo(_gp)\n"
    "\tmove\t$4,$29\n"
    "\tli\t$8,-8\n"
    "\tand\t$29,$29,$8\n"
    "\taddiu\t$29,$29,-32\n"
    "\tjal\tstart_c\n"
    "\tnop\n"
    "\tmove\t$4,$2\n"
    "\tli\t$2," STR(__NR_exit) "\n"
    "\tsyscall\n"
    "\t.end\t__start\n"
    "\t.set\tpop\n");
