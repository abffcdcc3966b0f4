#!/usr/bin/env perl
#
# armv4-mont.pl - bn_mul_mont for 32-bit ARM (ARMv4 and later, ARM or
# Thumb-2 mode).
#
#   perl armv4-mont.pl [FLAVOUR] [OUT.S]   (FLAVOUR: linux32, void
#                                          (default), ios32; no OUT.S:
#                                          stdout)
# linux32 and void need no other file (a flat copy works); ios32 runs
# arm-xlate.pl, found beside this script or in ../../../perlasm/.
#
# int bn_mul_mont(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
#                 const BN_ULONG *np, const BN_ULONG *n0, int num);
# rp = ap*bp*2^(-32*num) mod np.  Returns 1, or 0 (declined, the caller
# uses the C reference) for num < 2.  Only n0[0] is read.
#
# void bn_gather5_armv7_neon(BN_ULONG *out, const BN_ULONG *tab,
#                            unsigned int idx, int S);     (NEON builds)
# void bn_gather5_armv4(BN_ULONG *out, const BN_ULONG *tab,
#                       unsigned int idx, int S);
# The window's table read of a constant-time modexp (crypto/bn/bn_exp_arm.c
# picks one): out = entry idx of 32 entries of S words, every entry read
# (see "constant-time table gathers" below).  Extra global names that no
# OpenSSL file defines; they read no capability word.
#
# Algorithm: Montgomery's word-serial CIOS method with the two inner
# products fused into one pass over j.  For each word b[i]:
#   t0 = tp[0] + a[0]*b[i];  m = lo(t0)*n0;  (t0 + m*n[0] is 0 mod 2^32)
#   for j = 1..num-1:
#     (c1, u) = tp[j] + a[j]*b[i] + c1
#     (c2, tp[j-1]) = u + m*n[j] + c2
#   (tp[num], tp[num-1]) = tp[num] + c1 + c2
# tp (num+1 words) lives on the stack, so rp may alias ap or bp: rp is
# written only by the final pass, which subtracts np, picks tp or tp-np
# with a mask computed from the borrow (no branch), and wipes tp.
#
# Two instruction paths, same structure:
#   armv4        umull/umlal only: each "t + a*b + c" is mov/umlal/adds/adc
#   armv6-umaal  umaal does "t + a*b + c" in one instruction.  Assembled
#                only when ASMCRYPT_ARM_UMAAL (ARMv6+, not M-profile without
#                DSP; see arch_block), and taken only when the UMAAL bit
#                of the capability word is set (ASMCRYPT_CAP=0 runs the
#                ARMv4 path on an ARMv6+ build), or always when that bit
#                is -1.  For even num >= 4 two rounds share each pass (see
#                "umaal, two rounds a pass" below); odd num and 2 run one
#                round a pass.
#   armv7-neon   b[i] and m in 16-bit halves, 64-bit lanes accumulated
#                with vmlal.u32 (see "NEON path" below).  Assembled only
#                when __ARM_MAX_ARCH__ >= 7, taken when the NEON bit of
#                the capability word is set (or that bit is -1) and
#                num % 8 == 0, 16 <= num <= 1024; other sizes run the
#                integer paths.
#
# Importer defines (cpp; the .S is always compiled through it), so that a
# toolkit needs no glue C file:
#   ASMCRYPT_CAPWORD           capability word read (an array of 32-bit
#                              words, referenced PC-relative as a hidden
#                              symbol); default asmcrypt_cpucap
#   ASMCRYPT_CAPBIT_ARM_UMAAL  bit numbers in it (word n/32, bit n%32);
#   ASMCRYPT_CAPBIT_ARM_NEON   defaults 0 and 1 (include/asmcrypt/cpu.h);
#                              -1: no run-time bit, the path runs iff the
#                              build has it
#   ASMCRYPT_OPENSSL           shorthand, each only if not defined already:
#                              OPENSSL_armcap_P, NEON bit 0 (ARMV7_NEON),
#                              UMAAL -1 (OpenSSL has no umaal bit)
#   __ARM_MAX_ARCH__           6 leaves the NEON path out (default: 7 when
#                              the compiler targets NEON)
#   ASMCRYPT_ARM_UMAAL         0 leaves the umaal path out
# With both bits -1 (or no umaal/NEON code) the .S references no symbol.
#
# Every branch depends on num, loop counters and (NEON path) ap == bp
# only; addresses depend on rp/ap/bp/np/num only.
#
# Performance.  Instructions per call (make icount) against C and
# OpenSSL, modexp, and how the figures came to be: docs/perf/arm.md
# ("armv4-mont figures").  Per CPU model:
#
# llvm-mca-19 cycles per word of the inner loop (two 32x32 products, or
# four 32x16 for NEON), regions mont_inner_v4 (one word) / mont_inner_v6
# (two words) / mont_inner_x2 (two words, two rounds: per word-round) /
# mont_inner_neon (eight words, two rounds: per word-round):
#   model         armv4 (umlal)  umaal, 1 round  umaal, 2 rounds  armv7-neon  C
#   Cortex-A9     12.05 (T2 7.1) 12.03 (T2 7.0)  10.51 (T2 6.03)  4.32 (T2)   20.03
#   Cortex-A15    12.05          12.03           10.51            4.32        -
#   Cortex-A57     7.10           7.54            4.04            2.01        14.07
#   Swift         10.57           7.72            6.02            2.07        13.07
#   Cortex-M4     16.01           9.01 (Thumb-2)  7.50 (Thumb-2)  -
#   Cortex-M7     14.01           7.51 (Thumb-2)  4.26 (Thumb-2)  -
# Instructions per call, umaal path (armv7 row, make icount): 1024 bits
# 8506 -> 5659, 2048 bits 31258 -> 19899 with two rounds a pass; modexp
# 1024 11.54M -> 7.94M.  The two-round path no longer zeroes tp at entry
# (it never reads it; only the one-round entries do, zero_tp): 1024 bits
# 5659 -> 5554, 2048 bits 19899 -> 19698, modexp 1024 7941111 -> 7808601
# (the "api:armv6-umaal" lines, the ASMCRYPT_CAP=1 level, of
# `make icount ICOUNT_FLAGS="--gate --raw F"` in the armv7 row's build
# folder; the umlal and NEON figures are unchanged).
# (C: bn_mul_mont_c's two inner loops, one limb each, gcc -O2, from
# `make mca` in the armv7 build folder, which also gives the asm rows.)
# (T2: the same loop assembled as Thumb-2.  LLVM has no Cortex-A15
# scheduling model of its own: -mcpu=cortex-a15 gives the A9 figures.)
# The NEON loop is bound by vmlal throughput on these models (A9: 2
# cycles per vmlal.u32, 64 of its 69 cycles per pass).  The squaring's
# steps below the diagonal (region mont_sqr_nstep_neon, the m*n half
# only) take 37.1 / 16.1 / 26.0 cycles per eight-word step on A9 / A57 /
# Swift against 69.1 / 32.2 / 33.1 for a whole step.  One whole pair
# of NEON rounds (scalar part + one 8-word pass, region from .Lneon_outer
# with the inner branch and the exit test removed) is 134 / 48 / 86
# cycles on A9 / A57 / Swift, i.e. 67 / 24 / 43 per round (124 / 38 / 79
# since the vsra carry below, with the first step's carry chain and the
# tail's branch removed); the same for
# the umaal path at num = 8 is
# ~101 / 56 / 69 cycles.  So NEON wins per round from num = 8 on every
# model, but below num = 16 its fixed per-call work (lane zeroing, fold,
# wipe: ~20 instructions per word) eats the gain: the NEON path is taken
# for num % 8 == 0 and 16 <= num <= 1024 (512 to 32768 bits; the upper
# bound keeps the lanes (32*num bytes of stack) small and far from the
# 2^14-round overflow limit).  Other sizes keep the integer paths.
# NEON is the default on NEON builds with the NEON bit; ASMCRYPT_CAP=1
# selects umaal, 0 the umlal loop.
# NEON a*b, per pair of rounds outside the eight-word steps (issue 13):
# the carries out of P[w], P[w+1] left the scalar part (two 128-bit
# additions, 20 instructions, and C in two registers) for four vsra.u64
# in the pass's first step; a[0], a[1], n[0], n[1] are copied to the
# frame once, b[i], b[i+1] come in one ldrd, and the exit test moved to
# the loop's bottom against r9: 60 -> 38 instructions per pair (the
# steps, 45 per eight words, are unchanged).  Instructions per call (the
# api:armv7-neon column of `make icount` in the armv7 row's build
# folder): 512 bits 1586 -> 1402, 1024 4486 -> 4110, 2048 14606 ->
# 13846, 4096 52126 -> 50598 (OpenSSL 1269 / 3847 / 13395 / 50059); a
# least-squares a*num^2 + b*num + c over the four: a 2.8125 (unchanged),
# b 46.25 -> 34.25, c 126 -> 134.  llvm-mca-19 for one pair at num = 16
# (scalar part, both steps and the tail, branches removed; the "pair"
# region of docs/perf/arm.md): A9 203 -> 193, A57 73 -> 64, Swift 119
# -> 107 cycles.  The squaring does the same (its first step is the n*m
# one for g > 0, else the diagonal one): sqr 1024 4227 -> 3893, 2048
# 13051 -> 12365; modexp 1024 5.558M -> 5.127M, 2048 33.83M -> 32.09M;
# its pair for g > 0 (scalar part, first step, tail) A57 42 -> 32,
# Swift 64 -> 64 cycles (A9: llvm-mca-19 crashes on the old sequence;
# the new one is 84).  Tried and left out: the fold in NEON (the same
# vsra chain, vsli, vst4.32 lanes) is 4.1 instead of 11.5 instructions
# per word but 12.6 / 8.3 / 8.0 cycles per word on A9 / A57 / Swift
# against 7.0 / 7.0 / 6.0 (the chain is two dependent vsra a word); the
# pass storing through wp itself (one instruction a pair) makes the A57
# model wait for the stores, 64 -> 94 cycles a pair.
# The umaal loop issues the next word's a*b step before this word's m*n
# step so the two carry chains overlap; it has half the instructions of
# the umlal loop and is as fast or faster on every model except A57 (6%
# slower).
#
# Table gathers (modexp), llvm-mca-19 cycles per word of one entry
# (regions gather_neon: two entries of a 16-word column, gather_gpr: one
# entry of a 4-word column; C: bn_exp_gather_c's inner loop, gcc -O2):
#   model          NEON    integer   C
#   Cortex-A9      0.50    -         6.05   (A9's model cannot take ldm)
#   Cortex-A57     0.25    1.52      6.06
#   Swift          0.41    1.95      5.05
# Instructions per gather (32 entries of 32 words, 1024 bits): NEON 620,
# integer 3716, C 7665.  A 1024-bit modexp (make icount, armv7 row):
# 7.27M -> 5.83M instructions with NEON (OpenSSL 7.00M), umaal 12.34M ->
# 11.54M, umlal 21.19M -> 20.38M; 2048 bits 42.62M -> 37.03M (OpenSSL
# 41.53M).  With the NEON squaring (see the NEON path) 5.56M / 33.83M,
# 0.79x / 0.81x OpenSSL's.  docs/perf/arm.md has the commands.
#
use strict;
use warnings;

# ---- ARM32 preamble (begin) ---------------------------------------------
# The same lines in every 32-bit ARM module (armv4-mont.pl, armv4-words.pl,
# poly1305-armv4.pl); see the numbered rules at the top of arm-xlate.pl.
# linux32 and void are written directly: the .S needs nothing else.
# ios32 (Mach-O) goes through arm-xlate.pl, looked for beside this script
# first, then in the tree's perlasm/.
# Arguments: [FLAVOUR] [anything ...] [OUT.S], OpenSSL's perlasm command
# line included (docs/adding-a-module.md, "The script's command line").
my @args = @ARGV;
my $output  = (@args && $args[-1] =~ /\.\w+$/ && $args[-1] !~ /^-/) ? pop @args : undef;
my $flavour = (@args && $args[0] !~ /^-|\./) ? shift @args : 'void';
$flavour = 'void' if $flavour eq '';
my $me = $0; $me =~ s{.*/}{};
die "$me: unknown flavour '$flavour' (linux32, ios32, void)\n"
    unless $flavour =~ /^(?:linux32|ios32|void)$/;
if ($flavour eq 'ios32') {
    my $dir = $0; $dir =~ s{[^/]*$}{};
    my ($xlate) = grep { -f $_ }
        ("${dir}arm-xlate.pl", "${dir}../../../perlasm/arm-xlate.pl");
    defined $xlate
        or die "$me: ios32 needs arm-xlate.pl beside $me or in ../../../perlasm/\n";
    open STDOUT, '|-', $^X, $xlate, $flavour, (defined $output ? $output : ())
        or die "$me: can't run $xlate: $!\n";
} elsif (defined $output) {
    open STDOUT, '>', $output or die "$me: can't write $output: $!\n";
}

# C-preprocessor block at the top of every .S:
# - __ARM_ARCH__: the architecture level, one number (from __ARM_ARCH or
#   the legacy __ARM_ARCH_nX__ macros; under __KERNEL__ from the kernel's
#   __LINUX_ARM_ARCH__, which the kernel Makefile may -U/-D re-define).
# - __ARM_MAX_ARCH__: NEON ceiling (7: NEON code is assembled).  Default:
#   __ARM_ARCH__ when the compiler targets NEON, else 6; under __KERNEL__
#   __LINUX_ARM_ARCH__ (the NEON code carries its own .fpu neon).  An
#   importer may pre-define it lower, e.g. 6 for "no NEON".
# - ASMCRYPT_ARM_UMAAL: 1 when umaal exists (ARMv6+, except M-profile
#   without the DSP extension).
# - the capability word and bits (see cap_macros), and ARM or Thumb-2
#   mode.

# OpenSSL mode (-DASMCRYPT_OPENSSL on the perl command line, where OpenSSL's
# build puts the DEFINEs of crypto/{bn,poly1305}/build.info): like
# OpenSSL's own ARM modules, an ARMv7 build assembles the NEON code even
# when the compiler does not target NEON (Debian armhf: -march=armv7-a+fp);
# it carries its own .fpu neon and OPENSSL_armcap_P picks it at run time.
# Without that define the .S is unchanged.
my $openssl_neon = (grep { $_ eq "-DASMCRYPT_OPENSSL" } @ARGV)
    ? "# elif defined(ASMCRYPT_OPENSSL) && __ARM_ARCH__ >= 7\n#  define __ARM_MAX_ARCH__ __ARM_ARCH__\n"
    : "";

sub arch_block {
    my $s = <<'___' . cap_macros() . <<'___';
#if defined(__KERNEL__) && !defined(__ARM_ARCH__)
# ifndef __LINUX_ARM_ARCH__
#  error "__KERNEL__ without __LINUX_ARM_ARCH__"
# endif
# define __ARM_ARCH__ __LINUX_ARM_ARCH__
# ifndef __ARM_MAX_ARCH__
#  define __ARM_MAX_ARCH__ __LINUX_ARM_ARCH__
# endif
#endif
#ifndef __ARM_ARCH__
# if defined(__ARM_ARCH)
#  define __ARM_ARCH__ __ARM_ARCH
# elif defined(__ARM_ARCH_8A__)
#  define __ARM_ARCH__ 8
# elif defined(__ARM_ARCH_7__) || defined(__ARM_ARCH_7A__) || \
       defined(__ARM_ARCH_7R__) || defined(__ARM_ARCH_7M__) || \
       defined(__ARM_ARCH_7EM__)
#  define __ARM_ARCH__ 7
# elif defined(__ARM_ARCH_6__) || defined(__ARM_ARCH_6J__) || \
       defined(__ARM_ARCH_6K__) || defined(__ARM_ARCH_6Z__) || \
       defined(__ARM_ARCH_6ZK__) || defined(__ARM_ARCH_6T2__)
#  define __ARM_ARCH__ 6
# elif defined(__ARM_ARCH_5__) || defined(__ARM_ARCH_5T__) || \
       defined(__ARM_ARCH_5E__) || defined(__ARM_ARCH_5TE__) || \
       defined(__ARM_ARCH_5TEJ__)
#  define __ARM_ARCH__ 5
# elif defined(__ARM_ARCH_4__) || defined(__ARM_ARCH_4T__)
#  define __ARM_ARCH__ 4
# else
#  error "cannot tell the ARM architecture level; define __ARM_ARCH__"
# endif
#endif
#ifndef __ARM_MAX_ARCH__
# if defined(__ARM_NEON__) || defined(__ARM_NEON)
#  define __ARM_MAX_ARCH__ __ARM_ARCH__
# else
#  define __ARM_MAX_ARCH__ 6
# endif
#endif
#if __ARM_MAX_ARCH__ > __ARM_ARCH__ && __ARM_ARCH__ < 7
# undef __ARM_MAX_ARCH__
# define __ARM_MAX_ARCH__ __ARM_ARCH__
#endif
#ifndef ASMCRYPT_ARM_UMAAL
# if __ARM_ARCH__ >= 6 && !(defined(__ARM_ARCH_PROFILE) && \
       __ARM_ARCH_PROFILE == 'M' && !defined(__ARM_FEATURE_DSP))
#  define ASMCRYPT_ARM_UMAAL 1
# else
#  define ASMCRYPT_ARM_UMAAL 0
# endif
#endif
___
#if defined(__thumb2__)
	.syntax	unified
	.thumb
#else
	.syntax	unified
	.arm
#endif
___
    $s =~ s/^(#  define __ARM_MAX_ARCH__ __ARM_ARCH__\n)(# else\n#  define __ARM_MAX_ARCH__ 6\n)/$1$openssl_neon$2/m
        or die "arch_block: no __ARM_MAX_ARCH__ default";
    return $s;
}

# The capability word an importer names (one block, the same in every
# ARM module):
#   ASMCRYPT_CAPWORD           symbol read, an array of 32-bit words,
#                              referenced PC-relative as a hidden symbol
#                              (default asmcrypt_cpucap)
#   ASMCRYPT_CAPBIT_ARM_UMAAL  bit number of umaal in it (word n/32, bit
#   ASMCRYPT_CAPBIT_ARM_NEON   n%32); defaults 0 and 1 as in
#                              include/asmcrypt/cpu.h; -1: no run-time
#                              bit, the path runs iff the build has it
#   ASMCRYPT_OPENSSL           shorthand (each only if not defined yet):
#                              OPENSSL_armcap_P, NEON 0 (ARMV7_NEON),
#                              UMAAL -1
# ASMCRYPT_ARM_UMAAL_RT / ASMCRYPT_ARM_NEON_RT are 1 when the path is
# built and chosen by its bit at run time.
sub cap_macros {
    return <<'___';
#ifndef ASMCRYPT_CAPWORD
# ifdef ASMCRYPT_OPENSSL
#  define ASMCRYPT_CAPWORD OPENSSL_armcap_P
# else
#  define ASMCRYPT_CAPWORD asmcrypt_cpucap
# endif
#endif
#ifndef ASMCRYPT_CAPBIT_ARM_UMAAL
# ifdef ASMCRYPT_OPENSSL
#  define ASMCRYPT_CAPBIT_ARM_UMAAL -1
# else
#  define ASMCRYPT_CAPBIT_ARM_UMAAL 0
# endif
#endif
#ifndef ASMCRYPT_CAPBIT_ARM_NEON
# ifdef ASMCRYPT_OPENSSL
#  define ASMCRYPT_CAPBIT_ARM_NEON 0
# else
#  define ASMCRYPT_CAPBIT_ARM_NEON 1
# endif
#endif
#define ASMCRYPT_CAP_OFF(b)  (4 * ((b) / 32))
#define ASMCRYPT_CAP_MASK(b) (1 << ((b) % 32))
#ifdef __APPLE__
# define ASMCRYPT_CAP_LIT(b) 0
#else
# define ASMCRYPT_CAP_LIT(b) ASMCRYPT_CAP_OFF(b)
#endif
#if ASMCRYPT_ARM_UMAAL && ASMCRYPT_CAPBIT_ARM_UMAAL >= 0
# define ASMCRYPT_ARM_UMAAL_RT 1
#else
# define ASMCRYPT_ARM_UMAAL_RT 0
#endif
#if __ARM_MAX_ARCH__ >= 7 && ASMCRYPT_CAPBIT_ARM_NEON >= 0
# define ASMCRYPT_ARM_NEON_RT 1
#else
# define ASMCRYPT_ARM_NEON_RT 0
#endif
___
}

# Literal $lit for capability bit $bit (a macro name): the word's offset
# from $lit (ELF), or that of its non-lazy pointer (Mach-O, arm-xlate.pl).
sub cap_literal {
    my ($lit, $bit) = @_;
    return "\t.align\t2\n$lit:\n"
         . "\t.word\tASMCRYPT_CAPWORD - $lit + ASMCRYPT_CAP_LIT($bit)\n";
}

# Z clear iff capability $bit is set; $base = address of $lit, $t = word.
sub cap_test {
    my ($lit, $bit, $base, $t) = @_;
    return <<___;
	adr	$base, $lit
	ldr	$t, [$base]
	ldr	$t, [$base, $t]
#ifdef __APPLE__
	ldr	$t, [$t, #ASMCRYPT_CAP_OFF($bit)]	\@ through the non-lazy pointer
#endif
	tst	$t, #ASMCRYPT_CAP_MASK($bit)
___
}

# Return to lr: bx lr on ARMv5+ and Thumb-2; on ARMv4/v4T bit 0 of lr
# decides, and bx (e12fff1e) is a .word so -march=armv4 accepts the file.
# No final newline: written as a line of its own in the code.
my $RET = <<'___';
#if __ARM_ARCH__ >= 5 || defined(__thumb2__)
	bx	lr
#else
	tst	lr, #1
	moveq	pc, lr
	.word	0xe12fff1e
#endif
___
chomp $RET;

sub func_begin {
    my ($name) = @_;
    return "\t.globl\t$name\n\t.type\t$name, %function\n\t.align\t5\n$name:\n";
}
sub func_end { my ($name) = @_; return "\t.size\t$name, .-$name\n"; }
my $GNU_STACK = "\t.section\t.note.GNU-stack,\"\",%progbits\n";
# ---- ARM32 preamble (end) -----------------------------------------------

# NEON path: num % 8 == 0 and NEON_MIN <= num <= NEON_MAX (lane bound and
# stack use: 32*num bytes of lanes).
use constant NEON_MIN => 16;
use constant NEON_MAX => 1024;

# ---- register map (inside the multiplication loops) ----------------------
my $tend = 'r0';    # &tp[num-1]: inner loop end
my $bp   = 'r2';    # walks bp
my $hi   = 'r3';    # ARMv4 path: high-word scratch
my $ap   = 'r4';    # walks ap
my $np   = 'r5';    # walks np
my $tp   = 'r6';    # walks tp
my $bi   = 'r7';    # b[i]
my $m    = 'r8';    # Montgomery factor of this round
my $c1   = 'r9';    # carry word of a*b[i]
my $c2   = 'r10';   # carry word of m*n
my $aj   = 'r11';
my $nj   = 'r12';
my $tj   = 'lr';

# Stack frame (below the nine saved registers).
my %L = (RP => 0, AP => 4, NP => 8, N0 => 12, BEND => 16, NUM => 20,
         FRAMESZ => 24, BP => 28, QB => 32, QEND => 36, TP => 40);
my $SAVED = 36;     # r4-r11, lr

# ---- helpers ---------------------------------------------------------------

# (c:t) = t + a*b + c, for any 32-bit t, a, b, c (never overflows).
# The header of the frame both paths build: rp (r0), ap (r1), np (r3),
# n0 (in $n0), the end of bp (r2 + 4 num, through $t), num (r12) and the
# frame size (in $size).
sub save_args {
    my ($n0, $t, $size) = @_;
    return <<___;
	str	r0, [sp, #$L{RP}]
	str	r1, [sp, #$L{AP}]
	str	r3, [sp, #$L{NP}]
	str	$n0, [sp, #$L{N0}]
	add	$t, r2, r12, lsl #2
	str	$t, [sp, #$L{BEND}]
	str	r12, [sp, #$L{NUM}]
	str	$size, [sp, #$L{FRAMESZ}]
___
}

# tp[0..num] = 0, then $tend = &tp[num-1]; needs num in r12, uses r11.
# Only the one-round loops read tp before writing it (t0 = tp[0] + ...,
# tp[j] and tp[num] in the first round); mont_x2 keeps its t in the
# triples and writes all of tp[0..num] before the final pass reads it.
sub zero_tp {
    my ($sfx) = @_;
    return <<___;
	add	$tp, sp, #$L{TP}		\@ tp[0..num] = 0
	mov	r11, #0
	add	$tend, $tp, r12, lsl #2
.Lzero_$sfx:
	str	r11, [$tp], #4
	cmp	$tp, $tend
	bls	.Lzero_$sfx
	add	$tend, sp, #$L{TP}-4
	add	$tend, $tend, r12, lsl #2	\@ &tp[num-1]
___
}

sub mac {
    my ($umaal, $t, $c, $a, $b) = @_;
    return "\tumaal\t$t, $c, $a, $b\n" if $umaal;
    # (hi:c) = a*b + c; t += c; c = hi + carry.  RdLo/RdHi/Rm distinct,
    # as ARMv4/v5 require.
    return <<___;
	mov	$hi, #0
	umlal	$c, $hi, $a, $b
	adds	$t, $t, $c
	adc	$c, $hi, #0
___
}

# One inner step j: tp[j-1] = lo(tp[j] + a[j]*bi + c1 + m*n[j] + c2).
sub inner_step {
    my ($umaal) = @_;
    return "\tldr\t$aj, [$ap], #4\n"
         . "\tldr\t$tj, [$tp, #4]\n"
         . "\tldr\t$nj, [$np], #4\n"
         . mac($umaal, $tj, $c1, $aj, $bi)
         . mac($umaal, $tj, $c2, $nj, $m)
         . "\tstr\t$tj, [$tp], #4\n";
}

# umaal inner loop, software pipelined: the a[j+1]*b[i] step of the next
# word is issued before the m*n[j] step of this one, so the two carry
# chains (c1 through the a*b steps, c2 through the m*n steps) overlap
# instead of alternating.  Two words per turn with the partial word in
# $t0 / $t1 alternately; an odd count enters at the second half.  Entry:
# a[0], n[0] done, $ap/$np at word 1, $tp at tp[0].  Exit as the plain
# loop: tp[0..num-2] written, $tp at tp[num-1].  $tend is &tp[num-2] here.
sub umaal_inner {
    my ($sfx) = @_;
    my ($t0, $t1, $cnt) = ($tj, 'r1', 'r3');
    my $half = sub {
        my ($tin, $tout) = @_;      # $tin: word j (a*b done), $tout: j+1
        return <<___;
	ldr	$aj, [$ap], #4
	ldr	$tout, [$tp, #8]
	ldr	$nj, [$np], #4
	umaal	$tout, $c1, $aj, $bi
	umaal	$tin, $c2, $nj, $m
	str	$tin, [$tp], #4
___
    };
    return <<___ . $half->($t0, $t1) . ".Lhalf2_$sfx:\n" . $half->($t1, $t0) . <<___;
	ldr	$aj, [$ap], #4
	ldr	$t0, [$tp, #4]
	umaal	$t0, $c1, $aj, $bi		\@ a[1]*b[i] step
	ldr	$cnt, [sp, #$L{NUM}]
	subs	$cnt, $cnt, #2			\@ pipelined steps
	beq	.Llast_$sfx
	tst	$cnt, #1
	beq	.Lhalf1_$sfx
	mov	$t1, $t0
	b	.Lhalf2_$sfx
.Lhalf1_$sfx:
# LLVM-MCA-BEGIN mont_inner_$sfx
# LLVM-MCA-UNITS 2 limbs
___
	cmp	$tp, $tend
	bne	.Lhalf1_$sfx
# LLVM-MCA-END
.Llast_$sfx:
	ldr	$nj, [$np], #4
	umaal	$t0, $c2, $nj, $m
	str	$t0, [$tp], #4
___
}

# The whole multiplication for one instruction path ($sfx names labels).
sub mont_path {
    my ($umaal, $sfx) = @_;
    my $code = <<___;
.Louter_$sfx:
	ldr	$bi, [$bp], #4
	ldr	$ap, [sp, #$L{AP}]
	ldr	$np, [sp, #$L{NP}]
	add	$tp, sp, #$L{TP}
	ldr	$tj, [$tp]
	ldr	$aj, [$ap], #4
	ldr	$nj, [$np], #4
	ldr	$m, [sp, #$L{N0}]
	mov	$c1, #0
___
    $code .= mac($umaal, $tj, $c1, $aj, $bi);
    $code .= "\tmul\t$m, $tj, $m\n";          # m = lo(t0)*n0 (Rd != Rm)
    $code .= "\tmov\t$c2, #0\n";
    $code .= mac($umaal, $tj, $c2, $nj, $m);  # low word is 0
    if ($umaal) {
        $code .= umaal_inner($sfx);
    } else {
        $code .= ".Linner_$sfx:\n# LLVM-MCA-BEGIN mont_inner_$sfx\n";
        $code .= inner_step($umaal);
        $code .= <<___;
	cmp	$tp, $tend
	bne	.Linner_$sfx
# LLVM-MCA-END
___
    }
    $code .= <<___;
	ldr	$tj, [$tp, #4]			@ tp[num]: 0 or 1
	adds	$c1, $c1, $c2
	mov	$c2, #0
	adc	$c2, $c2, #0
	adds	$c1, $c1, $tj
	adc	$c2, $c2, #0
	str	$c1, [$tp]
	str	$c2, [$tp, #4]
	ldr	$tj, [sp, #$L{BEND}]
	cmp	$bp, $tj
	bne	.Louter_$sfx
	b	.Lfinal
___
    return $code;
}


# ---- umaal, two rounds a pass (even num >= 4) ------------------------------
#
# Rounds i and i+1 (b0 = b[i], b1 = b[i+1], their m0, m1) share one pass
# over the words: position p of the running sum t takes a[p]*b0 +
# n[p]*m0 + a[p-1]*b1 + n[p-1]*m1, four umaal on one word with four carry
# words (one per product chain, each umaal's result fits 64 bits), and
# goes to t[p-2] (two rounds shift by two words).  a, n and t live in the
# frame as (a[j], n[j], t[j]) triples, so one pointer walks all three:
# b0, b1, m0, m1, the four carries, two (a, n) pairs (this position's and
# the previous one's, alternating between r8/r9 and r10/r11) and t take
# all fourteen registers but the pointer (r12); the loop end is reloaded
# from the frame.  Per position and two rounds: ldrd, ldr, 4 umaal, str
# and 1.5 for the loop (the one-round loop: 3 loads, 2 umaal, 1 store and
# 0.5 per position and round).  One ldm of the triple would be one
# instruction less, but llvm-mca's Swift model gives it a long latency
# that the four umaal on t then wait for (9.0 cycles per word and round
# against 6.0 with ldrd + ldr; A9's model cannot take ldm).
# Positions 0 and 1 of each pair give m0 and m1 (their words become 0);
# position num takes the a[num-1]*b1, n[num-1]*m1 terms and folds c2 into
# c1, position num+1 the rest; t[num] <= 1 as in the one-round loop
# (t < a + n after every pair).  The triples are built at entry (t = 0)
# and wiped at the end, after t is copied to tp for the final subtraction.
# tp is not zeroed at entry on this path (the one-round loops' entries do
# that, zero_tp): nothing here reads tp, .Lx2_done writes all of
# tp[0..num] before .Lfinal reads it, and .Lfinal wipes tp[0..num] as on
# every path, so the wipe does not rely on the zeroing either.
# Branches depend on num only.
sub mont_x2 {
    my ($b0, $b1, $m0, $m1) = map { "r$_" } 0 .. 3;
    my @c = map { "r$_" } 4 .. 7;
    my @A = ('r8', 'r9');           # (a, n) of even positions
    my @B = ('r10', 'r11');         # (a, n) of odd positions
    my ($q, $t) = ('r12', 'lr');
    # position p: (a, n) of p in @$cur, of p-1 in @$prev
    my $pos = sub {
        my ($cur, $prev) = @_;
        return <<___;
	ldrd	$cur->[0], $cur->[1], [$q], #12	\@ a[p], n[p]
	ldr	$t, [$q, #-4]			\@ t[p]
	umaal	$t, $c[0], $cur->[0], $b0
	umaal	$t, $c[1], $cur->[1], $m0
	umaal	$t, $c[2], $prev->[0], $b1
	umaal	$t, $c[3], $prev->[1], $m1
	str	$t, [$q, #-28]			\@ t[p-2]
___
    };
    my $code = <<___;
.Lmont_x2:
	\@ triples (a[j], n[j], 0) for j < num, then (0, 0, 0)
	ldr	r4, [sp, #$L{AP}]
	ldr	r5, [sp, #$L{NP}]
	add	r9, r12, r12, lsl #1		\@ 3 num
	add	r10, r12, #2
	bic	r10, r10, #1
	add	$q, sp, #$L{TP}
	add	$q, $q, r10, lsl #2		\@ the triples, after tp
	str	$q, [sp, #$L{QB}]
	add	r9, $q, r9, lsl #2		\@ triple num
	str	r9, [sp, #$L{QEND}]
	str	r2, [sp, #$L{BP}]
	mov	r8, #0
.Lx2_copy:
	ldr	r6, [r4], #4
	ldr	r7, [r5], #4
	stmia	$q!, {r6, r7, r8}
	cmp	$q, r9
	bne	.Lx2_copy
	str	r8, [$q]
	str	r8, [$q, #4]
	str	r8, [$q, #8]

.Lx2_outer:
	ldr	$q, [sp, #$L{BP}]
	ldr	r4, [sp, #$L{BEND}]
	cmp	$q, r4
	beq	.Lx2_done
	ldr	$b0, [$q], #4
	ldr	$b1, [$q], #4
	str	$q, [sp, #$L{BP}]
	ldr	$q, [sp, #$L{QB}]
	\@ position 0: m0, the word becomes 0
	ldmia	$q!, {$A[0], $A[1], $t}
	mov	$c[0], #0
	umaal	$t, $c[0], $A[0], $b0
	ldr	$m0, [sp, #$L{N0}]
	mul	$m0, $t, $m0			\@ m0 = lo(t[0] + a0*b0)*n0
	mov	$c[1], #0
	umaal	$t, $c[1], $A[1], $m0
	\@ position 1: round i's terms, then m1, the word becomes 0
	ldmia	$q!, {$B[0], $B[1], $t}
	umaal	$t, $c[0], $B[0], $b0
	umaal	$t, $c[1], $B[1], $m0
	mov	$c[2], #0
	umaal	$t, $c[2], $A[0], $b1
	ldr	$m1, [sp, #$L{N0}]
	mul	$m1, $t, $m1			\@ m1
	mov	$c[3], #0
	umaal	$t, $c[3], $A[1], $m1
.Lx2_inner:
# LLVM-MCA-BEGIN mont_inner_x2
# LLVM-MCA-UNITS 4 limbs
___
    $code .= $pos->(\@A, \@B) . $pos->(\@B, \@A);
    $code .= <<___;
	ldr	$A[0], [sp, #$L{QEND}]
	cmp	$q, $A[0]
	bne	.Lx2_inner
# LLVM-MCA-END
	\@ position num: t[num] (0 or 1) + a[num-1]*b1 + n[num-1]*m1, c1 + c2
	ldr	$t, [$q, #8]
	umaal	$t, $c[2], $B[0], $b1
	umaal	$t, $c[3], $B[1], $m1
	mov	$A[0], #1
	umaal	$t, $c[0], $c[1], $A[0]		\@ + c2*1 + c1, carry in c1
	str	$t, [$q, #-16]			\@ t[num-2]
	\@ position num+1: c1 + c3 + c4; the carry is t[num]
	mov	$t, $c[0]
	umaal	$t, $c[3], $c[2], $A[0]
	str	$t, [$q, #-4]			\@ t[num-1]
	str	$c[3], [$q, #8]			\@ t[num]
	b	.Lx2_outer

.Lx2_done:
	\@ t to tp[0..num], the triples wiped
	ldr	$q, [sp, #$L{QB}]
	ldr	r9, [sp, #$L{QEND}]
	add	r4, sp, #$L{TP}
	mov	r5, #0
	mov	r6, #0
	mov	r7, #0
.Lx2_out:
	ldr	$t, [$q, #8]
	str	$t, [r4], #4
	stmia	$q!, {r5, r6, r7}
	cmp	$q, r9
	bls	.Lx2_out
	b	.Lfinal
___
    return $code;
}

# ---- NEON path (ARMv7, __ARM_MAX_ARCH__ >= 7) -------------------------------
#
# Montgomery multiplication with b[i] and m split into 16-bit halves, so
# each product is < 2^48 and 64-bit lanes accumulate without overflow.
# Position p of the running sum is one 16-byte slot of an array on the
# stack, P[p] = (E, O): two 64-bit lanes worth E + O*2^16, at weight
# 2^(32p), with a window that slides by one slot per round (no slot is
# ever moved).  The NEON step multiplies the vector (lo16, hi16) of b[i]
# (or of m) by the scalar a[j] (or n[j]), one vmlal.u32 per product pair,
# so one q register is one position.
# Two rounds (b[i], b[i+1]) share each pass over a and n: round i adds to
# P[i+j], round i+1 to P[i+1+j], so eight words of a and n meet nine
# positions; the ninth is the first one of the next step and stays in a
# q register.  A pass is 32 vmlal.u32 and 13 other instructions per
# eight words (loads of a, n and eight positions, their stores, a vmov,
# the loop).
# Scalar part of a pair of rounds, with C = the carry out of all lower
# (consumed) positions:
#   1. C = ((P[i-2] + C') >> 32 + P[i-1]) >> 32 went into E[i] in the
#      first step of the pair before (the vsra chain of neon_macs_carry),
#      so the scalar part reads P[i] complete and C = 0 below;
#   2. m_i = lo(P[i] + C + a0*b[i])*n0; the low 64 bits of
#      P[i] + C + a0*b[i] + n0*m_i give lo(carry into P[i+1]) = c;
#   3. m_{i+1} = lo(P[i+1] + c + a1*b[i] + n1*m_i + a0*b[i+1])*n0.
# Each round adds < 2^49 to a lane, so num <= 2^14 cannot overflow.  At
# the end P[num..2num-1] and C are folded into 32-bit words in tp, and
# the integer path's final subtraction runs.  The array and the NEON
# registers are wiped before returning; d8-d15 are saved in the frame.
# Squaring (ap == bp) uses that a[i]*a[j] and a[j]*a[i] land on the same
# position: the rounds fall into groups of eight (g = i/8, the eight
# words of one step), and the pass of a pair in group g does the g steps
# below the diagonal with the m*n products only (16 vmlal instead of
# 32: those a-products were added, doubled, by the rounds of the lower
# groups), the diagonal step as a product (both orders of a pair in the
# group, each once), and the steps above it with the b vectors doubled
# ((2bl, 2bh) < 2^17, products < 2^49: the lane bound above still holds
# with room).  The scalar part of a pair past group 0 leaves out
# a0*b[i], a1*b[i] and a0*b[i+1]: nothing of this pair's own a-products
# lands on P[w], P[w+1].  Of the num^2 a-products 8*num + (num^2 - 8*num)/2
# are computed; instructions per 1024 / 2048-bit squaring 4486 -> 4227 /
# 14606 -> 13051, modexp 5.83M -> 5.56M / 37.03M -> 33.85M.

my ($nap, $nnp, $pin, $pout, $cnt, $n0r, $wp, $cl, $ch) =
   ('r4', 'r5', 'r6', 'r7', 'r8', 'r3', 'r10', 'r11', 'r12');

# Frame slots of the NEON path only (the integer paths' BP, QB, QEND
# words and 16 bytes more; the NEON path's tp starts at $NTP): CNT =
# num - 8 and BEND = the end of bp, loaded by one ldrd into the pass's
# counter and r9 (which the pass leaves alone, so the exit test needs no
# load); A01 = a[0], a[1] and N01 = n[0], n[1], one ldrd each per pair
# of rounds.  A01 and N01 are wiped before returning.
my %NL = (CNT => 28, BEND => 32, A01 => 36, N01 => 44);
my $NTP = $L{TP} + 16;

# Registers of the NEON pass: d0 = (bl, bh) of b[i], d1 the same for
# b[i+1], d2 = (ml, mh) of m_i, d3 of m_{i+1} (so that one vmovl.u16
# splits both b words, one both m words); a[j..j+7] in d4-d7, n[j..j+7]
# in d8-d11; positions P[w+j..w+j+8] in q6-q14.
my @Acc = map { "q$_" } 6..14;
sub a_s { my $k = shift; return "d" . (4 + ($k >> 1)) . "[" . ($k & 1) . "]"; }
sub n_s { my $k = shift; return "d" . (8 + ($k >> 1)) . "[" . ($k & 1) . "]"; }

# The 32 products of one step as [position index, vector, scalar], in
# the order of the loop: grouped by multiplier so that no accumulator is
# used by two neighbouring instructions; with $n_only the 16 of the m*n
# half alone (the squaring's steps below the diagonal).
sub neon_mac_list {
    my ($n_only) = @_;
    my @l;
    if (!$n_only) {
        push @l, [$_, 'd0', a_s($_)] for 0..7;
        push @l, [$_ + 1, 'd1', a_s($_)] for 0..7;
    }
    push @l, [$_, 'd2', n_s($_)] for 0..7;
    push @l, [$_ + 1, 'd3', n_s($_)] for 0..7;
    return @l;
}
sub mac_line { my ($k, $v, $s) = @{$_[0]}; return "\tvmlal.u32\t$Acc[$k], $v, $s\n"; }
sub neon_macs { return join '', map { mac_line($_) } neon_mac_list(@_); }

# The first step of a pass (a product's, or the squaring's diagonal or
# n*m-only step): the same products, those that complete P[w], P[w+1],
# P[w+2] (q6-q8) first, then the others with the carry chain spread
# between them.  P[w] and P[w+1] are final after
# this step (multiples of 2^32 once the carry from below is in, by the
# choice of m_i and m_{i+1}); their carries go up exactly:
#   P = E + 2^16 O = 2^16 (O + E>>16) (the low 16 bits of E are 0),
#   so the carry P >> 32 is (O + E>>16) >> 16;
# two vsra.u64 per position (O += E>>16, then E of the next += O>>16)
# move the carry of P[w] into E[w+1] and that of P[w+1] into E[w+2].
# So the scalar part of the next pair finds P[w+2] complete in memory
# and needs no carry of its own.  A lane gains one carry < 2^50 besides
# its products: the bound below (num <= 2^14) keeps its room.
sub neon_macs_carry {
    my ($n_only) = @_;
    my @first = ([0, 'd0', a_s(0)], [1, 'd0', a_s(1)], [2, 'd0', a_s(2)],
                 [1, 'd1', a_s(0)], [2, 'd1', a_s(1)], [0, 'd2', n_s(0)],
                 [1, 'd2', n_s(1)], [2, 'd2', n_s(2)], [1, 'd3', n_s(0)],
                 [2, 'd3', n_s(1)]);
    @first = grep { $_->[1] eq 'd2' || $_->[1] eq 'd3' } @first if $n_only;
    my @rest = grep { $_->[0] > 2 } neon_mac_list($n_only);
    die "neon_macs_carry: product count"
        unless @first + @rest == ($n_only ? 16 : 32);
    my @vsra = ("\tvsra.u64\td13, d12, #16\t\t\@ O[w] += E[w] >> 16\n",
                "\tvsra.u64\td14, d13, #16\t\t\@ E[w+1] += P[w] >> 32\n",
                "\tvsra.u64\td15, d14, #16\n",
                "\tvsra.u64\td16, d15, #16\t\t\@ E[w+2] += P[w+1] >> 32\n");
    my $code = join '', map { mac_line($_) } @first;
    for my $i (0 .. $#rest) {
        $code .= mac_line($rest[$i]);
        $code .= $vsra[int($i / 4)] if $i % 4 == 2 && int($i / 4) < @vsra;
    }
    $code .= $vsra[$_] for int((@rest + 1) / 4) .. $#vsra;   # n_only: the last
    return $code;
}

# One eight-word step of a pass: load a[j..j+7] (unless $n_only), n and
# the positions P[w+j+1..w+j+8] (P[w+j] is in q6), the products (with
# $carry: the first step of a product pass, see neon_macs_carry), store
# P[w+j..w+j+7], and P[w+j+8] becomes the next step's q6.
sub neon_step {
    my ($n_only, $carry, $po) = @_;
    $po //= $pout;
    my $code = $n_only ? '' : "\tvld1.32\t{d4-d7}, [$nap]!\n";
    $code .= <<___;
	vld1.32	{d8-d11}, [$nnp]!
	vld1.64	{d14-d17}, [$pin]!
	vld1.64	{d18-d21}, [$pin]!
	vld1.64	{d22-d25}, [$pin]!
	vld1.64	{d26-d29}, [$pin]!
___
    $code .= $carry ? neon_macs_carry($n_only) : neon_macs($n_only);
    $code .= <<___;
	vst1.64	{d12-d15}, [$po]!
	vst1.64	{d16-d19}, [$po]!
	vst1.64	{d20-d23}, [$po]!
	vst1.64	{d24-d27}, [$po]!
	vmov	q6, q14
___
    return $code;
}

# ldrd of a 64-bit lane: (low word, high word) of the pair ($r0, $r1)
# as loaded (big-endian lanes keep the high word first in memory).
sub lane_regs { my ($be, $r0, $r1) = @_; return $be ? ($r1, $r0) : ($r0, $r1); }

# Zero q8-q15 (= d16-d31) and store d16-d31 over the positions from r6:
# 32 bytes, then r8 blocks of 128 bytes ($L: the loop label).
sub neon_clear {
    my ($L) = @_;
    my $s = join '', map { "\tvmov.i32\tq$_, #0\n" } 8 .. 15;
    return $s . <<___;
	vst1.64	{d16-d19}, [r6]!
$L:
	vstmia	r6!, {d16-d31}
	subs	r8, r8, #1
	bne	$L
___
}

# (hi:lo) = (P + (hi:lo)) >> 32 for the position at [$base, #$off], with
# E already in the pair ($e0, $e1) and O in ($o0, $o1) (ldrd order);
# P + carry < 2^82.  The low word of P + carry goes to $dst (default: E's
# low register).  Clobbers the two pairs.
sub neon_carry {
    my ($be, $lo, $hi, $e0, $e1, $o0, $o1, $dst) = @_;
    my ($el, $eh) = lane_regs($be, $e0, $e1);
    my ($ol, $oh) = lane_regs($be, $o0, $o1);
    $dst //= $el;
    return <<___;
	adds	$el, $el, $lo			\@ E + carry
	adc	$eh, $eh, $hi
	adds	$dst, $el, $ol, lsl #16		\@ + O*2^16
	lsr	$ol, $ol, #16
	orr	$ol, $ol, $oh, lsl #16
	adcs	$lo, $eh, $ol
	lsr	$oh, $oh, #16
	adc	$hi, $oh, #0
___
}

# m_i, m_{i+1}; d0-d3 set; $nap, $nnp, $pin, $pout, $cnt, q6 = P[w]
# ready for the pass.  With $ab the products a0*b[i], a1*b[i] and
# a0*b[i+1] (this pair's own contributions to P[w], P[w+1]) enter m; the
# squaring's pairs past the first eight rounds have none there (their
# step 0 is n*m only, a0*a[i] was added doubled by round 0).  P[w]
# already holds the carry from below (the first step of the pass before
# put it there, see neon_macs_carry).  The pass stores through a copy of
# $wp ($pout: with $wp itself, llvm-mca's A57 model makes the next
# pair's loads wait for this pass's stores, 64 -> 94 cycles a pair at
# num = 16, as its vst1 writeback waits for the data).  With $sq (the
# squaring) the pass counts num; without (the product) num - 8 after its
# first step, and r9 gets the end of bp for the exit test.
sub neon_m {
    my ($be, $ab, $sq) = @_;
    my ($xl, $xh) = lane_regs($be, 'r0', 'r1');
    my ($ol, $oh) = lane_regs($be, 'r4', 'r5');
    my $code = <<___;
	ldrd	r0, r1, [$wp]			\@ X = P[w] mod 2^64
	ldrd	r4, r5, [$wp, #8]
	adds	$xl, $xl, $ol, lsl #16
	lsr	$ol, $ol, #16
	orr	$ol, $ol, $oh, lsl #16
	adc	$xh, $xh, $ol
	ldrd	r4, r5, [r2], #8		\@ b[i], b[i+1]
	ldrd	r8, r9, [sp, #$NL{N01}]		\@ n0, n1 (words)
___
    if ($ab) {
        $code .= <<___;
	ldrd	r6, r7, [sp, #$NL{A01}]		\@ a0, a1
	mla	lr, r6, r4, $xl			\@ lo(X + a0*b[i])
	mul	lr, lr, $n0r			\@ m_i
	umlal	$xl, $xh, r6, r4
	umlal	$xl, $xh, r8, lr			\@ $xh = lo(carry into P[w+1])
	ldr	r8, [$wp, #16+ASMCRYPT_LANE_LO]	\@ lo(E[w+1])
	ldr	$xl, [$wp, #24+ASMCRYPT_LANE_LO]	\@ lo(O[w+1])
	add	r8, r8, $xh
	add	r8, r8, $xl, lsl #16
	mla	r8, r7, r4, r8			\@ + a1*b[i]
	mla	r8, r9, lr, r8			\@ + n1*m_i
	mla	r8, r6, r5, r8			\@ + a0*b[i+1]
	mul	r8, r8, $n0r			\@ m_{i+1}
___
    } else {
        $code .= <<___;
	mul	lr, $xl, $n0r			\@ m_i = lo(X)*n0
	umlal	$xl, $xh, r8, lr			\@ $xh = lo(carry into P[w+1])
	ldr	r8, [$wp, #16+ASMCRYPT_LANE_LO]	\@ lo(E[w+1])
	ldr	$xl, [$wp, #24+ASMCRYPT_LANE_LO]	\@ lo(O[w+1])
	add	r8, r8, $xh
	add	r8, r8, $xl, lsl #16
	mla	r8, r9, lr, r8			\@ + n1*m_i
	mul	r8, r8, $n0r			\@ m_{i+1}
___
    }
    my $count = $sq ? "\tldr\t$cnt, [sp, #$L{NUM}]\n"
                    : "\tldrd\t$cnt, r9, [sp, #$NL{CNT}]\t\t\@ num - 8, end of bp\n";
    $code .= <<___;
	vmov	d30, r4, r5			\@ (b[i], b[i+1])
	vmov	d31, lr, r8			\@ (m_i, m_{i+1})
	vmovl.u16	q0, d30			\@ d0, d1 = (bl, bh) of b[i], b[i+1]
	vmovl.u16	q1, d31			\@ d2, d3 = (ml, mh) of m_i, m_{i+1}
	ldrd	$nap, $nnp, [sp, #$L{AP}]
${count}	mov	$pout, $wp
	add	$pin, $wp, #16
	vld1.64	{d12-d13}, [$pout]		\@ P[w]
___
    return $code;
}

# The squaring's scalar part: m without or with this pair's own
# products by the group g = i/8 of its rounds (g > 0: none).
sub neon_sq_scalar {
    my ($be) = @_;
    return <<___ . neon_m($be, 1, 1)
	ldr	r0, [sp, #$L{AP}]
	sub	r0, r2, r0
	cmp	r0, #32				\@ i >= 8: group g > 0
	bhs	.Lneon_sq_g
___
         . "\tb\t.Lneon_sq_pass\n.Lneon_sq_g:\n" . neon_m($be, 0, 1);
}

# Fold loop body, two positions: tp word = lo(P + C), C = the rest.
sub neon_fold2 {
    my ($be) = @_;
    my ($el, $eh) = lane_regs($be, 'r0', 'r1');
    my ($ol, $oh) = lane_regs($be, 'r4', 'r5');
    # the second word goes to E's high register (free by then): r1 on
    # little-endian, so that strd stores the pair
    my $w1 = $eh;
    my $code = <<___;
	ldrd	r0, r1, [$wp], #8		\@ E
	ldrd	r4, r5, [$wp], #8		\@ O
	ldrd	r6, r7, [$wp], #8
	ldrd	r8, r9, [$wp], #8
___
    $code .= neon_carry($be, $cl, $ch, 'r0', 'r1', 'r4', 'r5');
    $code .= neon_carry($be, $cl, $ch, 'r6', 'r7', 'r8', 'r9', $w1);
    $code .= $be ? "\tstr\t$el, [r2], #4\n\tstr\t$w1, [r2], #4\n"
                 : "\tstrd\t$el, $w1, [r2], #8\n";
    return $code;
}

sub neon_path {
    my $code = <<___;
#ifdef __ARMEB__
# define ASMCRYPT_LANE_LO 4
# define ASMCRYPT_LANE_HI 0
#else
# define ASMCRYPT_LANE_LO 0
# define ASMCRYPT_LANE_HI 4
#endif
.Lmont_neon:
	ldr	r11, [sp, #$SAVED]		\@ n0
	ldr	r9, [r11]
	add	r10, r12, #2
	bic	r10, r10, #1
	lsl	r10, r10, #2
	add	r10, r10, #$NTP		\@ offset of P[-2]: header + tp
	lsl	r11, r12, #5
	add	r11, r11, #32			\@ bytes of P[-2..2num-1]: 32*(num+1)
	add	lr, r10, r11			\@ end of P: d8-d15 saved there
	add	lr, lr, #64			\@ frame size
	sub	sp, sp, lr
	add	r6, sp, lr
	sub	r6, r6, #64
	vstmia	r6, {d8-d15}
@{[ save_args('r9', 'r0', 'lr') ]}	sub	r4, r12, #8
	str	r4, [sp, #$NL{CNT}]		\@ num - 8
	str	r0, [sp, #$NL{BEND}]		\@ end of bp (save_args' r0)
	ldrd	r4, r5, [r1]			\@ a[0], a[1]
	strd	r4, r5, [sp, #$NL{A01}]
	ldrd	r4, r5, [r3]			\@ n[0], n[1]
	strd	r4, r5, [sp, #$NL{N01}]
	add	$wp, sp, r10			\@ P[-2]
	mov	r6, $wp
	lsr	r8, r12, #2			\@ 32 + 128*(num/4) bytes
___
    $code .= neon_clear('.Lneon_zero');
    $code .= <<___;
	add	$wp, $wp, #32			\@ &P[w], w = 0
	ldr	$n0r, [sp, #$L{N0}]
	cmp	r1, r2				\@ ap == bp: the squaring
	beq	.Lneon_sq_outer

	\@ The product: per pair of rounds m_i, m_{i+1}, then the pass,
	\@ whose first step also carries P[w], P[w+1] up into E[w+2].
.Lneon_outer:
#ifdef __ARMEB__
___
    $code .= neon_m(1, 1, 0) . "#else\n" . neon_m(0, 1, 0) . "#endif\n";
    $code .= neon_step(0, 1) . <<___ . neon_step(0, 0) . <<___;
.Lneon_inner:
\@ LLVM-MCA-BEGIN mont_inner_neon
\@ LLVM-MCA-UNITS 16 limbs
___
	subs	$cnt, $cnt, #8
	bne	.Lneon_inner
\@ LLVM-MCA-END
	vst1.64	{d12-d13}, [$pout]		\@ P[w+num]
	add	$wp, $wp, #32
	cmp	r2, r9				\@ r9: end of bp
	bne	.Lneon_outer

.Lneon_done:
	\@ Fold P[num..2num-1] into tp[0..num-1], tp[num], with the carry
	\@ C: 0 at P[num] (the last pass's first step put it into E[num]).
	mov	$cl, #0
	mov	$ch, #0
	add	r2, sp, #$NTP
	ldr	r3, [sp, #$L{NUM}]
.Lneon_fold:
#ifdef __ARMEB__
___
    $code .= neon_fold2(1) . "#else\n" . neon_fold2(0) . "#endif\n";
    $code .= <<___;
	subs	r3, r3, #2
	bne	.Lneon_fold
	str	$cl, [r2]			\@ tp[num]

	\@ Wipe the position array.
	ldr	r12, [sp, #$L{NUM}]
	add	r10, r12, #2
	bic	r10, r10, #1
	lsl	r10, r10, #2
	add	r10, r10, #$NTP
	add	r6, sp, r10			\@ P[-2]
	lsr	r8, r12, #2
___
    $code .= neon_clear('.Lneon_wipe');
    $code .= <<___;
	vldmia	r6, {d8-d15}			\@ r6: end of P

	\@ rp = tp - np (four words per step), then rp = tp where that
	\@ borrowed (mask, vbit), eight words per step; tp is wiped.
	ldr	r0, [sp, #$L{RP}]
	add	r4, sp, #$NTP
	ldr	r5, [sp, #$L{NP}]
	add	r3, r4, r12, lsl #2		\@ &tp[num]
	cmp	r0, r0				\@ C = 1: no borrow
.Lneon_sub:
	ldmia	r4!, {r6, r7, r8, r9}
	ldmia	r5!, {r10, r11, r12, lr}
	sbcs	r6, r6, r10
	sbcs	r7, r7, r11
	sbcs	r8, r8, r12
	sbcs	r9, r9, lr
	stmia	r0!, {r6, r7, r8, r9}
	teq	r4, r3				\@ keeps C
	bne	.Lneon_sub
	ldr	r7, [r4]
	sbcs	r7, r7, #0
	sbc	r9, r9, r9			\@ all ones: tp < np, keep tp
	vdup.32	q10, r9
	ldr	r0, [sp, #$L{RP}]
	add	r4, sp, #$NTP
	mov	r10, #0
.Lneon_copy:
	vld1.32	{d0-d3}, [r0]			\@ tp - np
	vld1.32	{d4-d7}, [r4]			\@ tp
	vbit	q0, q2, q10
	vbit	q1, q3, q10
	vst1.32	{d16-d19}, [r4]!		\@ wipe tp
	vst1.32	{d0-d3}, [r0]!
	teq	r4, r3
	bne	.Lneon_copy
	str	r10, [r4]			\@ wipe tp[num]
	add	r4, sp, #$NL{A01}
	vst1.32	{d16-d17}, [r4]			\@ wipe the a[0], a[1], n[0], n[1] copies
	vmov.i32	q0, #0			\@ wipe the NEON registers
	vmov.i32	q1, #0			\@ (q8-q15 are zero since the
	vmov.i32	q2, #0			\@ wipe of P; q4-q7 restored)
	vmov.i32	q3, #0
	vmov.i32	q10, #0
	b	.Lmont_ret

	\@ Squaring (ap == bp): the pass of the pair in group g = i/8 runs
	\@ g steps of n*m only (a[i]*a[j] for j < 8g was added doubled by
	\@ round j), the diagonal step (j in 8g..8g+7) as in a product, and
	\@ the steps above it with the b vectors doubled (2*a[i]*a[j] for
	\@ both orders; halves below 2^17, products below 2^49).  The first
	\@ step (the n*m-only one for g > 0, else the diagonal one) carries
	\@ P[w], P[w+1] up as in the product.
.Lneon_sq_outer:
#ifdef __ARMEB__
___
    $code .= neon_sq_scalar(1) . "#else\n" . neon_sq_scalar(0) . "#endif\n";
    $code .= <<___ . neon_step(1, 1) . <<___ . neon_step(1, 0) . <<___ . neon_step(0, 0) . <<___ . neon_step(0, 0) . <<___ . neon_step(0, 1) . <<___;
.Lneon_sq_pass:
	ldr	r9, [sp, #$L{AP}]
	sub	r9, r2, r9
	sub	r9, r9, #8
	lsrs	r9, r9, #5			\@ g: the steps below the diagonal
	beq	.Lneon_sq_diag0
	add	$nap, $nap, r9, lsl #5		\@ a[8g]: the diagonal step's
___
	sub	$cnt, $cnt, #8
	subs	r9, r9, #1
	beq	.Lneon_sq_diag
.Lneon_sq_nstep:
\@ LLVM-MCA-BEGIN mont_sqr_nstep_neon
\@ LLVM-MCA-UNITS 16 limbs
___
	sub	$cnt, $cnt, #8
	subs	r9, r9, #1
	bne	.Lneon_sq_nstep
\@ LLVM-MCA-END
.Lneon_sq_diag:
___
	subs	$cnt, $cnt, #8
	beq	.Lneon_sq_end
	vshl.i32	q0, q0, #1			\@ (2bl, 2bh) of a[i], a[i+1]
.Lneon_sq_fstep:
___
	subs	$cnt, $cnt, #8
	bne	.Lneon_sq_fstep
.Lneon_sq_end:
	vst1.64	{d12-d13}, [$pout]		\@ P[w+num]
	add	$wp, $wp, #32
	ldr	r0, [sp, #$L{BEND}]
	cmp	r2, r0
	bne	.Lneon_sq_outer
	b	.Lneon_done
.Lneon_sq_diag0:				\@ g = 0: the diagonal step first
___
	subs	$cnt, $cnt, #8
	beq	.Lneon_sq_end
	vshl.i32	q0, q0, #1
	b	.Lneon_sq_fstep
___
    return $code;
}

# ---- constant-time table gathers (modexp, crypto/bn/bn_exp_arm.c) ----------
#
# void bn_gather5_armv7_neon(BN_ULONG *out, const BN_ULONG *tab,
#                            unsigned int idx, int S);
# void bn_gather5_armv4(BN_ULONG *out, const BN_ULONG *tab,
#                       unsigned int idx, int S);
# out[0..S-1] = tab[idx*S .. idx*S+S-1] for a table of 32 entries of S
# words (S a positive multiple of 16 for the NEON gather, of 4 for the
# other), reading every entry: the window's table read of a constant-time
# modexp.  The caller picks the gather (bn_exp_arm.c: NEON when the build
# has it and the NEON bit is set); neither reads the capability word.
# Addresses and branches depend on S only; idx reaches only a vector
# compare (NEON) or a subtract and its carry (integer).  Before return
# the registers that held idx, a mask or table words are cleared (the
# integer gather's callee-saved ones are restored).

my @Gacc = map { "q$_" } 0 .. 3;    # the 16-word column being selected
my @Gld  = map { "q$_" } 8 .. 11;   # one entry's column
my ($Gmask, $Gidx, $Gctr, $Ginc) = map { "q$_" } 12 .. 15;

# One entry of a 16-word column: mask = (counter == idx) in every lane,
# load the column and advance to the next entry, merge under the mask.
sub gather_neon_entry {
    my $s = <<___;
	vceq.i32	$Gmask, $Gctr, $Gidx
	vld1.32	{d16-d19}, [r2]!
	vld1.32	{d20-d23}, [r2], r3
	vadd.i32	$Gctr, $Gctr, $Ginc
___
    $s .= "\tvbit\t$Gacc[$_], $Gld[$_], $Gmask\n" for 0 .. 3;
    return $s;
}

# NEON: per 16-word column the 32 entries (two per loop turn) are merged
# into q0-q3 with vbit under the mask; d8-d15 are not touched.  r2 walks
# the entries (post-increment by the stride minus 32), r12 counts the
# columns, r3 is the stride minus 32 (the first vld1 has moved 32).
sub gather_neon {
    my $code = "#if __ARM_MAX_ARCH__ >= 7\n" . func_begin('bn_gather5_armv7_neon') . <<___;
	vdup.32	$Gidx, r2			\@ idx in every lane
	vmov.i32	$Ginc, #1
	lsl	r3, r3, #2			\@ bytes per entry
	lsr	r12, r3, #6			\@ 16-word columns: S/16
	sub	r3, r3, #32			\@ post-increment of the second load
.Lgather_neon_col:
___
    $code .= "\tvmov.i32\t$_, #0\n" for @Gacc, $Gctr;
    $code .= <<___;
	mov	r2, r1
	push	{r12}
	mov	r12, #16			\@ 32 entries, two per turn
\@ LLVM-MCA-BEGIN gather_neon
\@ LLVM-MCA-UNITS 32 limbs
.Lgather_neon_entry:
___
    $code .= gather_neon_entry() . gather_neon_entry();
    $code .= <<___;
	subs	r12, r12, #1
	bne	.Lgather_neon_entry
\@ LLVM-MCA-END
	pop	{r12}
	vst1.32	{d0-d3}, [r0]!
	vst1.32	{d4-d7}, [r0]!
	add	r1, r1, #64			\@ next column of entry 0
	subs	r12, r12, #1
	bne	.Lgather_neon_col
___
    $code .= "\tvmov.i32\t$_, #0\n" for @Gacc, @Gld, $Gmask, $Gidx;
    return $code . "\tbx\tlr\n" . func_end('bn_gather5_armv7_neon') . "#endif\n";
}

# Integer (ARMv4 and later, no NEON): per 4-word column, each entry is
# loaded with ldm, masked with and and merged with orr.  The mask of
# entry e is -1 when d = idx - e is 0: "subs d, d, #1" clears C only for
# d == 0 (and counts d down for the next entry), "sbc m, m, m" is -!C.
# Registers in the entry loop: r4-r7 the column, r8-r11 the entry's
# words, r12 the entry pointer, r0 its end, lr = d, r2 the mask, r1 the
# column in entry 0, r3 the stride; out, idx and the column count stay
# in the frame.
my %G = (OUT => 0, IDX => 4, COLS => 8, SIZE => 16);
sub gather_gpr {
    my $code = func_begin('bn_gather5_armv4') . <<___;
	stmdb	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
	sub	sp, sp, #$G{SIZE}
	mov	r3, r3, lsl #2			\@ bytes per entry
	str	r0, [sp, #$G{OUT}]
	str	r2, [sp, #$G{IDX}]
	mov	r12, r3, lsr #4			\@ 4-word columns: S/4
	str	r12, [sp, #$G{COLS}]
.Lgather_gpr_col:
	ldr	lr, [sp, #$G{IDX}]		\@ d = idx - e, e = 0
	mov	r12, r1
	add	r0, r1, r3, lsl #5		\@ end: entry 32
	mov	r4, #0
	mov	r5, #0
	mov	r6, #0
	mov	r7, #0
\@ LLVM-MCA-BEGIN gather_gpr
\@ LLVM-MCA-UNITS 4 limbs
.Lgather_gpr_entry:
	ldm	r12, {r8, r9, r10, r11}
	add	r12, r12, r3
	subs	lr, lr, #1			\@ C = 0 only for d == 0
	sbc	r2, r2, r2			\@ mask: -1 for entry idx, else 0
___
    $code .= "\tand\tr$_, r$_, r2\n" for 8 .. 11;
    $code .= "\torr\tr" . ($_ - 4) . ", r" . ($_ - 4) . ", r$_\n" for 8 .. 11;
    $code .= <<___;
	cmp	r12, r0
	bne	.Lgather_gpr_entry
\@ LLVM-MCA-END
	ldr	r0, [sp, #$G{OUT}]
	stmia	r0!, {r4, r5, r6, r7}
	str	r0, [sp, #$G{OUT}]
	add	r1, r1, #16			\@ next column of entry 0
	ldr	r12, [sp, #$G{COLS}]
	subs	r12, r12, #1
	str	r12, [sp, #$G{COLS}]
	bne	.Lgather_gpr_col
	mov	r2, #0				\@ the last mask
	str	r2, [sp, #$G{IDX}]		\@ idx, from the frame
	add	sp, sp, #$G{SIZE}
	ldmia	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
$RET
___
    return $code . func_end('bn_gather5_armv4');
}

# ---- code ------------------------------------------------------------------

my ($nmin, $nmax) = (NEON_MIN, NEON_MAX);
my $code = <<___ . arch_block() . <<___;
\@ Generated by armv4-mont.pl; see that file for the algorithm, the
\@ defines and the measured performance.  Self-contained: needs no header.
___
#if __ARM_MAX_ARCH__ >= 7
	.fpu	neon
#endif
	.text

\@ The literals sit before the code: adr reaches them in ARM and Thumb-2 mode.
#if ASMCRYPT_ARM_NEON_RT
___
$code .= cap_literal('.Lcap_neon', 'ASMCRYPT_CAPBIT_ARM_NEON');
$code .= "#endif\n#if ASMCRYPT_ARM_UMAAL_RT\n";
$code .= cap_literal('.Lcap_umaal', 'ASMCRYPT_CAPBIT_ARM_UMAAL');
$code .= "#endif\n" . func_begin('bn_mul_mont') . <<___;
	ldr	r12, [sp, #4]			@ num
	cmp	r12, #2
	bge	.Lmont_go
	mov	r0, #0				@ declined: num < 2
$RET
.Lmont_go:
	stmdb	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
#if __ARM_MAX_ARCH__ >= 7
	tst	r12, #7				\@ NEON: num % 8 == 0,
	bne	.Lmont_int
	cmp	r12, #$nmin			\@ $nmin <= num <= $nmax,
	blt	.Lmont_int
	cmp	r12, #$nmax
	bgt	.Lmont_int
# if ASMCRYPT_ARM_NEON_RT
___
$code .= cap_test('.Lcap_neon', 'ASMCRYPT_CAPBIT_ARM_NEON', 'r11', 'r10');
$code .= <<___;
	bne	.Lmont_neon			\@ and the NEON bit
# else
	b	.Lmont_neon
# endif
.Lmont_int:
#endif
	ldr	r11, [sp, #$SAVED]		@ n0
	ldr	r11, [r11]
	add	r10, r12, #2
	bic	r10, r10, #1			@ tp: num+1 words, rounded even
#if ASMCRYPT_ARM_UMAAL
	mov	r10, r10, lsl #4		@ and as many (a, n, t) triples
#else
	mov	r10, r10, lsl #2
#endif
	add	r10, r10, #$L{TP}
	sub	sp, sp, r10
@{[ save_args('r11', 'r11', 'r10') ]}
#if ASMCRYPT_ARM_UMAAL
# if ASMCRYPT_ARM_UMAAL_RT
___
# r10, r11 are free once saved; r12 (num) survives the test.
$code .= cap_test('.Lcap_umaal', 'ASMCRYPT_CAPBIT_ARM_UMAAL', 'r11', 'r10');
$code .= <<___;
	beq	.Lmont_v4
# endif
	tst	r12, #1				\@ even num >= 4: two rounds a pass
	bne	.Lmont_v6_one
	cmp	r12, #4
	bge	.Lmont_x2			\@ (tp not zeroed: see mont_x2)
.Lmont_v6_one:
@{[ zero_tp('v6') ]}
	sub	$tend, $tend, #4		\@ umaal loop: ends at &tp[num-2]
	b	.Louter_v6
.Lmont_v4:
#endif
@{[ zero_tp('v4') ]}
___
$code .= mont_path(0, 'v4');
$code .= "#if ASMCRYPT_ARM_UMAAL\n" . mont_path(1, 'v6') . mont_x2() . "#endif\n";
$code .= <<___;

.Lfinal:
	ldr	r0, [sp, #$L{RP}]
	ldr	r12, [sp, #$L{NUM}]
	add	r4, sp, #$L{TP}
	ldr	r5, [sp, #$L{NP}]
	add	r12, r4, r12, lsl #2		@ &tp[num]
	cmp	r0, r0				@ C = 1: no borrow
.Lsub:
	ldr	r7, [r4], #4
	ldr	r8, [r5], #4
	sbcs	r7, r7, r8
	str	r7, [r0], #4
	teq	r4, r12				@ keeps C
	bne	.Lsub
	ldr	r7, [r4]
	sbcs	r7, r7, #0
	sbc	r9, r9, r9			@ all ones: tp < np, keep tp
	ldr	r0, [sp, #$L{RP}]
	add	r4, sp, #$L{TP}
	mov	r10, #0
.Lcopy:
	ldr	r7, [r4]
	ldr	r8, [r0]
	and	r7, r7, r9
	bic	r8, r8, r9
	orr	r7, r7, r8
	str	r10, [r4], #4			@ wipe tp
	str	r7, [r0], #4
	teq	r4, r12
	bne	.Lcopy
	str	r10, [r4]			@ wipe tp[num]
.Lmont_ret:
	ldr	r1, [sp, #$L{FRAMESZ}]
	mov	r0, #1
	add	sp, sp, r1
	ldmia	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
$RET

#if __ARM_MAX_ARCH__ >= 7
___
$code .= neon_path();
$code .= "#endif\n" . func_end('bn_mul_mont');
$code .= gather_neon() . gather_gpr();
$code .= <<___ . $GNU_STACK;
#if ASMCRYPT_ARM_UMAAL_RT || ASMCRYPT_ARM_NEON_RT
	.hidden	ASMCRYPT_CAPWORD
#endif

___

print $code;
close STDOUT or die "armv4-mont.pl: error closing output: $!\n";
