/*
 * crypto/arch/cpucap_mips.c - MIPS capabilities.  Compiled for asm_arch
 * mips only (Configure's registry).
 *
 * ASMCRYPT_CAP_MIPS_R2 ("the MIPS32R2 instructions run"):
 *  - R2 and later builds: set from the build's ISA macros (their own
 *    code, and the libc, need an R2 core anyway);
 *  - o32 MIPS32r1 builds on Linux (ASMCRYPT_MIPS_R2_PROBE, internal.h):
 *    a run-time probe, below.  Such a build may run on an R1 core or on a
 *    later one; poly1305-mips.pl carries its R2 block function too and
 *    hands it out when the bit is set;
 *  - MIPS I/II, 64-bit and other builds: never (nothing there reads it
 *    at run time; the 64-bit R2 code is chosen at build time).
 * Linux has no HWCAP bit for R2 and /proc/cpuinfo is no answer either
 * (under qemu-user it shows the host's CPU; it may not be mounted), so
 * the probe executes one R2 instruction and sees whether it traps.
 *
 * ASMCRYPT_CAP_MIPS_MSA ("the MSA instructions run"): MIPS64 R6
 * little-endian n64 builds on Linux (ASMCRYPT_MIPS_MSA_PROBE) run the
 * same probe with one MSA instruction; poly1305-mips.pl's poly1305_blocks
 * then runs its MSA body from 512 bytes.  Not HWCAP_MIPS_MSA: qemu-user
 * (7.2) leaves it clear on a CPU that has MSA, and the probe's answer is
 * the one that matters (the kernel enables MSA for the thread at its
 * first use, and an instruction it cannot enable traps).  The two probes
 * never meet in one build (R2 only in o32 MIPS32r1 builds, MSA only in
 * n64 R6 ones).
 */
#define _DEFAULT_SOURCE 1          /* sigaction, ucontext's uc_mcontext.pc */
#include "internal.h"

#if defined(__mips_isa_rev)
# define MIPS_ISA_REV __mips_isa_rev
#else
# define MIPS_ISA_REV 0
#endif

#if defined(__mips64) && defined(_MIPS_SIM) && defined(_ABIO32) && _MIPS_SIM != _ABIO32
# define MIPS_PATH64 1      /* n32/n64: the 64-bit (base 2^64) code */
#else
# define MIPS_PATH64 0
#endif

#if ASMCRYPT_MIPS_R2_PROBE || ASMCRYPT_MIPS_MSA_PROBE
# include <sched.h>
# include <signal.h>
# include <stdint.h>

/*
 * The probe: cpucap_mips_probe_try() returns 1 when its instruction (the
 * R2 `ext`, or the MSA `copy_s.w` of a word an FPU move put there) ran and
 * 0 when a SIGILL handler stepped over it: only the instruction itself
 * can make the answer 1, whichever handler skips it.  It is a function of
 * its own, in top-level assembly, so that the instruction has one fixed
 * address (cpucap_mips_probe_insn) the handler can recognise, is not in a
 * branch delay slot (the handler resumes at pc + 4, which for an
 * instruction in a delay slot would be wrong: the kernel reports the
 * branch's address) and is assembled as MIPS32r2 in a MIPS32r1 build
 * (with .set msa in an n64 R6 one).  Both symbols are hidden (not
 * exported from the shared library).
 *
 * Why the handler advances the PC instead of siglongjmp: nothing is
 * unwound, no jmp_buf is shared with the handler and the signal mask is
 * left to the kernel's sigreturn (siglongjmp would have to restore it,
 * and a jump out of a handler that another thread's SIGILL entered would
 * land in the wrong thread).  The handler edits the interrupted context
 * or calls sigaction and raise, both async-signal-safe.
 */
/* The probe's instruction, what comes before it and the .set that
 * assembles them: v0 = 0, v1 = 1 before it, and it makes v0 = 1 when it
 * runs. */
# if ASMCRYPT_MIPS_R2_PROBE
#  define PROBE_ISA  "\t.set\tmips32r2\n"
#  define PROBE_PRE  ""
#  define PROBE_INSN "\text\t$2,$3,0,1\n"          /* R2 only: v0 = bit 0 of v1 */
#  define PROBE_CAP  ASMCRYPT_CAP_MIPS_R2
# else
#  define PROBE_ISA  "\t.set\tmsa\n\t.set\tfp=64\n"
#  define PROBE_PRE  "\tmtc1\t$3,$f0\n"          /* word 0 of $w0 = 1 ($f0: caller-saved) */
#  define PROBE_INSN "\tcopy_s.w\t$2,$w0[0]\n"   /* MSA only: v0 = that word */
#  define PROBE_CAP  ASMCRYPT_CAP_MIPS_MSA
# endif
__asm__(
    "\t.text\n"
    "\t.set\tpush\n"
    "\t.set\tnomips16\n"
    "\t.set\tnomicromips\n"
    "\t.set\tnoreorder\n"
    PROBE_ISA
    "\t.align\t2\n"
    "\t.globl\tcpucap_mips_probe_try\n"
    "\t.hidden\tcpucap_mips_probe_try\n"
    "\t.globl\tcpucap_mips_probe_insn\n"
    "\t.hidden\tcpucap_mips_probe_insn\n"
    "\t.ent\tcpucap_mips_probe_try\n"
    "\t.type\tcpucap_mips_probe_try,@function\n"
    "cpucap_mips_probe_try:\n"
    "\tli\t$3,1\n"
    PROBE_PRE
    "\tmove\t$2,$0\n"               /* v0 = 0: the answer if the insn is skipped */
    "cpucap_mips_probe_insn:\n"
    PROBE_INSN
    "\tjr\t$31\n"
    "\tnop\n"
    "\t.end\tcpucap_mips_probe_try\n"
    "\t.size\tcpucap_mips_probe_try,.-cpucap_mips_probe_try\n"
    "\t.set\tpop\n");

int cpucap_mips_probe_try(void);
extern const unsigned char cpucap_mips_probe_insn[];

/* The SIGILL disposition the probe replaced (its handler puts it back). */
static struct sigaction probe_prev;

/*
 * The temporary SIGILL handler.  At the probe's instruction: skip it.
 * Any other SIGILL arrives here only while the probe runs, from another
 * thread (or sent with kill): the application's own disposition is put
 * back, so that a faulting instruction faults again under it when this
 * returns, and a sent SIGILL is sent again.  (The probe then finds the
 * application's disposition in place; on an R1 core its ext goes there.
 * Detection normally runs in the library's constructor, before threads.)
 */
static void probe_sigill(int sig, siginfo_t *info, void *ctx)
{
    ucontext_t *uc = ctx;

    if ((uintptr_t)uc->uc_mcontext.pc == (uintptr_t)cpucap_mips_probe_insn) {
        uc->uc_mcontext.pc += 4;
        return;
    }
    sigaction(SIGILL, &probe_prev, NULL);
    if (info->si_code <= 0)
        raise(sig);
}

/*
 * One probe: 1 when the instruction ran.  SIGILL is unblocked for the
 * call (a synchronous SIGILL while it is blocked kills the process) before
 * the handler is installed, so that a SIGILL already pending goes to the
 * application's disposition.  The previous disposition is read before
 * ours is installed (not by the installing call, whose copy-out would
 * come after the handler is live), so the handler always finds it
 * complete.  Afterwards the previous disposition and then the previous
 * mask are restored.  sigprocmask is per thread on Linux (glibc's is
 * pthread_sigmask), so no -pthread is needed.  On any error the answer is
 * "no" (the code without the feature runs everywhere).
 */
static int probe_run(void)
{
    struct sigaction sa = { 0 };
    sigset_t ill, saved_mask;
    int ran;

    sigemptyset(&ill);
    sigaddset(&ill, SIGILL);
    sa.sa_sigaction = probe_sigill;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigprocmask(SIG_UNBLOCK, &ill, &saved_mask) != 0)
        return 0;
    if (sigaction(SIGILL, NULL, &probe_prev) != 0 || sigaction(SIGILL, &sa, NULL) != 0) {
        sigprocmask(SIG_SETMASK, &saved_mask, NULL);
        return 0;
    }
    ran = cpucap_mips_probe_try();
    sigaction(SIGILL, &probe_prev, NULL);
    sigprocmask(SIG_SETMASK, &saved_mask, NULL);
    return ran;
}

# if ASMCRYPT_MIPS_R2_PROBE
int cpucap_mips_r2_probe(void)
{
    return probe_run();
}
# else
int cpucap_mips_msa_probe(void)
{
    return probe_run();
}
# endif

/*
 * The probe runs once per process.  crypto/cpucap.c lets several threads
 * detect at once (detecting twice is harmless there), but two probes at
 * once are not: each would save the other's temporary handler as "the
 * previous one".  So the first caller probes and the others wait for its
 * answer (a few system calls; they yield meanwhile).
 * probe_state: 0 not probed, 1 probing, 2 trapped, 3 ran.
 */
static int probe_state;

static unsigned int probe_detect(void)
{
    int s = __atomic_load_n(&probe_state, __ATOMIC_ACQUIRE);
    int expected = 0;

    if (s == 0 && __atomic_compare_exchange_n(&probe_state, &expected, 1, 0,
                                              __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
        s = 2 + (probe_run() != 0);
        __atomic_store_n(&probe_state, s, __ATOMIC_RELEASE);
    }
    while (s < 2) {
        sched_yield();
        s = __atomic_load_n(&probe_state, __ATOMIC_ACQUIRE);
    }
    return s == 3 ? PROBE_CAP : 0;
}
#endif

unsigned int cpucap_arch_detect(void)
{
    unsigned int caps = 0;
#if MIPS_ISA_REV >= 2
    caps |= ASMCRYPT_CAP_MIPS_R2;
#elif ASMCRYPT_MIPS_R2_PROBE
    caps |= probe_detect();
#endif
#if ASMCRYPT_MIPS_MSA_PROBE
    caps |= probe_detect();
#endif
    return caps;
}

/*
 * The code the MIPS modules assemble for this build (they choose at build
 * time from the same macros):
 *  - 64-bit code (n32/n64): "mips64r6" (dmulu/dmuhu), "mips64r2" (R2..R5;
 *    R2 only changes the big-endian byte swap), or "mips64" (MIPS III/IV,
 *    MIPS64r1).
 *  - 32-bit code (o32): "mips32r6" (mulu/muhu), "mips32r2" (maddu
 *    chains), "mips32" (MIPS32r1 build: maddu, no wsbh/rotr), "mips1"
 *    (multu/mflo/mfhi + sltu, MIPS I/II).
 * Run-time choices on top of it (poly1305's other o32 block function:
 * the MIPS32r1 one in R2..R5 builds, the R2 one in MIPS32r1 builds) are
 * named by the module's area.
 */
const char *cpucap_mips_build_name(void)
{
#if MIPS_PATH64
# if MIPS_ISA_REV >= 6
    return "mips64r6";
# elif MIPS_ISA_REV >= 2
    return "mips64r2";
# else
    return "mips64";
# endif
#elif MIPS_ISA_REV >= 6
    return "mips32r6";
#elif MIPS_ISA_REV >= 2
    return "mips32r2";
#elif MIPS_ISA_REV >= 1
    return "mips32";
#else
    return "mips1";
#endif
}
