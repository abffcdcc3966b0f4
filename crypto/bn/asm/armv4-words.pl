#!/usr/bin/env perl
#
# armv4-words.pl - bignum word primitives for 32-bit ARM (ARMv4 and later,
# ARM or Thumb-2 mode).
#
#   perl armv4-words.pl [FLAVOUR] [OUT.S]  (FLAVOUR: linux32, void
#                                          (default), ios32; no OUT.S:
#                                          stdout)
# linux32 and void need no other file (a flat copy works); ios32 runs
# arm-xlate.pl, found beside this script or in ../../../perlasm/.
#
#   BN_ULONG bn_mul_add_words(rp, ap, num, w)   rp += ap*w, returns carry
#   BN_ULONG bn_mul_words(rp, ap, num, w)       rp  = ap*w, returns carry
#   BN_ULONG bn_mul_sub_words(rp, ap, num, w)   rp -= ap*w, returns borrow
#   void     bn_sqr_words(rp, ap, num)          rp[2i..2i+1] = ap[i]^2
#   BN_ULONG bn_add_words(rp, ap, bp, num)      rp = ap + bp, returns 0/1
#   BN_ULONG bn_sub_words(rp, ap, bp, num)      rp = ap - bp, returns 0/1
#   BN_ULONG bn_cnd_add_words(rp, ap, bp, num, cond)  rp = ap + (cond?bp:0)
#   BN_ULONG bn_cnd_sub_words(rp, ap, bp, num, cond)  rp = ap - (cond?bp:0)
# num <= 0 does nothing and returns 0.  rp may equal ap (and bp).
#
# Algorithms.  Every loop first runs num%4 single-word steps, then a
# 4-word step loading and storing with ldm/stm (the arrays are word
# aligned).  Carry chains of add/sub/cnd_* stay in the C flag: the loop
# control uses teq on pointers, which leaves C alone.
#   mul_add  (c:t) = t + a*w + c: one umaal on ARMv6+; on ARMv4/v5
#            mov/umlal/adds/adc.
#   mul      (c:t) = a*w + c: mov t,#0 + umaal; ARMv4/v5 umull/adds/adc.
#   mul_sub  uses ~(r - x) = ~r + x: with u = ~r, (c:u) = u + a*w + c is
#            a plain multiply-accumulate, and ~u is the difference while
#            c is exactly the borrow word for the next step.  So mul_sub
#            is mul_add plus two mvn per word, with no second carry
#            chain (GMP's submul_1 on Cortex-A9 costs ~5.5 c/limb vs
#            ~3.5 for addmul_1: the gap this avoids).
#   cnd_*    mask = 0 - (cond != 0) computed without a branch, b & mask is
#            added/subtracted: constant time in cond and the data.
# The umaal code is assembled only when ASMCRYPT_ARM_UMAAL (ARMv6+, not
# M-profile without DSP) and taken only when the UMAAL bit of the
# capability word is set, or always when that bit is -1.
#
# Importer defines (cpp; the .S is always compiled through it), so that a
# toolkit needs no glue C file:
#   ASMCRYPT_CAPWORD           capability word read (an array of 32-bit
#                              words, referenced PC-relative as a hidden
#                              symbol); default asmcrypt_cpucap
#   ASMCRYPT_CAPBIT_ARM_UMAAL  bit number of umaal in it (word n/32, bit
#                              n%32); default 0 (include/asmcrypt/cpu.h);
#                              -1: no run-time bit, umaal iff the build
#                              has it (then no symbol is referenced)
#   ASMCRYPT_OPENSSL           shorthand, each only if not defined already:
#                              OPENSSL_armcap_P, UMAAL -1 (OpenSSL has no
#                              umaal bit), NEON 0 (unused here)
#   ASMCRYPT_ARM_UMAAL         0 leaves the umaal code out
#
# Performance, our measurements: instructions per limb (make icount,
# armv7 row, C = bn_*_words_c -O2 same flags, GMP = Debian armhf libgmp
# mpn_addmul_1 / mul_1 / submul_1 / add_n / sub_n / cnd_add_n / cnd_sub_n):
#   primitive     limbs  C       umaal   armv4   GMP
#   mul_add       128    9.13    2.65    7.90    6.93
#   mul           128    7.13    3.40    5.90    3.67
#   mul_sub       128    13.13   4.65    9.90    6.93
#   sqr           128    7.07    2.75
#   add / sub     128    12.12   2.66            2.68
#   cnd_add/sub   128    13.19   3.73            3.70
#   mul_add       8      11.12   8.62    13.88   9.62   (call overhead: at 8
#   mul           8       9.12   9.38    11.88   6.25    limbs the umlal path
#   add           8      14.00   8.88            5.38    loses to C)
# armv5te row (armv4 path only): mul_add 128: 7.87 vs C 9.15; 8: 13.38 vs
# 11.38.
# llvm-mca-19 cycles per 4-limb step (the A9 model rejects ldm/stm, so it
# has no figure for the umaal loops; M4/M7 on the Thumb-2 build):
#   model        mul_add  mul_sub  ratio   armv4 mul_add / mul_sub
#   Cortex-A57   17.21    19.12    1.11    24.07 / 32.06
#   Swift        30.06    35.03    1.17    28.07 / 32.06
#   Cortex-M4    13.01    21.01    1.62    34.01 / 46.01
#   Cortex-M7    10.02    17.02    1.70    33.01 / 37.01
# The "mul_sub within 15% of mul_add" target holds on the A57 model only;
# on the in-order M cores each of the two mvn per limb costs a cycle.
# umaal is not faster than the umlal loop on Swift (mul_add 30.1 vs 28.1)
# and for bn_mul_words on A57/Swift, but has 2-3x fewer instructions and
# wins on M4/M7; it stays the default on ARMv6+ builds.
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

# ---- register map ------------------------------------------------------------
# Arguments arrive in r0..r3 (5th on the stack).  In every function:
my $rp   = 'r0';
my $ap   = 'r1';
my @A    = ('r4', 'r5', 'r6', 'r7');      # four words of ap
my @T    = ('r8', 'r9', 'r10', 'r11');    # four words of rp or bp
my $end  = 'r12';                         # ap + num words
# per function: $end1 (ap + num%4 words), carry/w/mask registers.

my $code = '';

# ---- helpers -----------------------------------------------------------------

# Prologue common to all: return 0 for num <= 0, save registers, compute
# the two loop ends from $num (register), relative to $ap.
sub prologue {
    my ($name, $num, $end1) = @_;
    return <<___;
	cmp	$num, #0
	bgt	.L${name}_go
	mov	r0, #0
$RET
.L${name}_go:
	stmdb	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
	add	$end, $ap, $num, lsl #2
	and	$end1, $num, #3
	add	$end1, $ap, $end1, lsl #2
___
}

sub epilogue {
    return <<___;
	ldmia	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
$RET
___
}

# Loop skeleton: $one handles one word, $four four words; both advance
# $ap.  Only teq/b touch the flags, so a C-flag chain survives.
sub loops {
    my ($lbl, $end1, $one, $four, $mca) = @_;
    return <<___;
	teq	$ap, $end1
	beq	.L${lbl}_4chk
.L${lbl}_1:
$one	teq	$ap, $end1
	bne	.L${lbl}_1
.L${lbl}_4chk:
	teq	$ap, $end
	beq	.L${lbl}_done
.L${lbl}_4:
# LLVM-MCA-BEGIN $mca
$four	teq	$ap, $end
	bne	.L${lbl}_4
# LLVM-MCA-END
.L${lbl}_done:
___
}

# Branch to .L${lbl} when the umaal path is to run: by the UMAAL bit of
# the capability word, or always when that bit is -1 (umaal builds).  The
# literal .L${lbl}_cap follows the function (umaal_literal).
sub if_umaal {
    my ($lbl, $s) = @_;
    return "#if ASMCRYPT_ARM_UMAAL_RT\n"
         . cap_test(".L${lbl}_cap", 'ASMCRYPT_CAPBIT_ARM_UMAAL', $s, 'lr')
         . "\tbne\t.L$lbl\n#elif ASMCRYPT_ARM_UMAAL\n\tb\t.L$lbl\n#endif\n";
}

sub umaal_literal {
    my ($lbl) = @_;
    return "#if ASMCRYPT_ARM_UMAAL_RT\n"
         . cap_literal(".L${lbl}_cap", 'ASMCRYPT_CAPBIT_ARM_UMAAL') . "#endif\n";
}

# (c:t) = t + a*w + c.  ARMv4 form needs the scratch $hi.
sub mac {
    my ($umaal, $t, $c, $a, $w, $hi) = @_;
    return "\tumaal\t$t, $c, $a, $w\n" if $umaal;
    return <<___;
	mov	$hi, #0
	umlal	$c, $hi, $a, $w
	adds	$t, $t, $c
	adc	$c, $hi, #0
___
}

# ---- multiply-accumulate family ---------------------------------------------
# rp r0, ap r1, num r2 -> end1, w r3, carry lr... except that the cap
# check needs lr before the carry is live, so the carry is set after.
# ARMv4 path: single-word steps unrolled four times (a 4-word ldm form
# would need a 15th register for the scratch high word); v6 path: 4-word
# ldm/umaal/stm steps.
sub mulfamily {
    my ($name, $kind) = @_;     # kind: add, mul, sub
    my ($end1, $w, $c) = ('r2', 'r3', 'lr');
    my $hi = $T[3];
    my $body = "\n" . func_begin($name) . prologue($name, 'r2', $end1);

    my $step = sub {            # one word, $umaal, using $a/$t
        my ($umaal, $a, $t, $scr) = @_;
        my $s = '';
        if ($kind eq 'add') {
            $s .= mac($umaal, $t, $c, $a, $w, $scr);
        } elsif ($kind eq 'sub') {
            $s .= "\tmvn\t$t, $t\n" . mac($umaal, $t, $c, $a, $w, $scr)
                . "\tmvn\t$t, $t\n";
        } else {                # mul
            $s .= $umaal ? "\tmov\t$t, #0\n\tumaal\t$t, $c, $a, $w\n"
                         : "\tumull\t$t, $scr, $a, $w\n\tadds\t$t, $t, $c\n"
                         . "\tadc\t$c, $scr, #0\n";
        }
        return $s;
    };
    my $one = sub {
        my ($umaal) = @_;
        my $ld = $kind eq 'mul' ? '' : "\tldr\t$T[0], [$rp]\n";
        return "\tldr\t$A[0], [$ap], #4\n$ld"
             . $step->($umaal, $A[0], $T[0], $hi)
             . "\tstr\t$T[0], [$rp], #4\n";
    };
    my $four_v6 = "\tldmia\t$ap!, {" . join(', ', @A) . "}\n";
    $four_v6 .= "\tldmia\t$rp, {" . join(', ', @T) . "}\n" unless $kind eq 'mul';
    $four_v6 .= $step->(1, $A[$_], $T[$_], undef) for 0 .. 3;
    $four_v6 .= "\tstmia\t$rp!, {" . join(', ', @T) . "}\n";

    $body .= if_umaal("${name}_v6", $T[0]);
    $body .= "\tmov\t$c, #0\n";
    # ARMv4 path: the single-word step, four times per loop turn.
    $body .= loops("${name}_v4", $end1, $one->(0), $one->(0) x 4, "${name}_v4");
    $body .= "\tmov\tr0, $c\n";
    $body .= epilogue();
    $body .= "#if ASMCRYPT_ARM_UMAAL\n.L${name}_v6:\n\tmov\t$c, #0\n";
    $body .= loops("${name}_v6", $end1, $one->(1), $four_v6, "${name}_umaal");
    $body .= "\tmov\tr0, $c\n" . epilogue();
    $body .= umaal_literal("${name}_v6") . "#endif\n";
    $body .= func_end($name);
    return $body;
}

# ---- add / sub / cnd_add / cnd_sub ---------------------------------------------
# rp r0, ap r1, bp r2, num r3 -> end1; mask lr (cnd only).
sub addsub {
    my ($name, $op, $cnd) = @_;    # op: adcs / sbcs
    my ($bp, $end1, $mask) = ('r2', 'r3', 'lr');
    my $body = "\n" . func_begin($name) . prologue($name, 'r3', $end1);
    if ($cnd) {
        # mask = 0 - (cond != 0): (cond | -cond) has bit 31 set iff cond != 0
        $body .= <<___;
	ldr	$mask, [sp, #36]		@ cond
	rsb	$T[0], $mask, #0
	orr	$mask, $mask, $T[0]
	mov	$mask, $mask, asr #31
___
    }
    my $and1 = $cnd ? "\tand\t$T[0], $T[0], $mask\n" : '';
    my $one = "\tldr\t$A[0], [$ap], #4\n\tldr\t$T[0], [$bp], #4\n$and1"
            . "\t$op\t$A[0], $A[0], $T[0]\n\tstr\t$A[0], [$rp], #4\n";
    my $four = "\tldmia\t$ap!, {" . join(', ', @A) . "}\n"
             . "\tldmia\t$bp!, {" . join(', ', @T) . "}\n";
    if ($cnd) { $four .= "\tand\t$T[$_], $T[$_], $mask\n" for 0 .. 3; }
    $four .= "\t$op\t$A[$_], $A[$_], $T[$_]\n" for 0 .. 3;
    $four .= "\tstmia\t$rp!, {" . join(', ', @A) . "}\n";
    # initial flag: add: C = 0 (x + 0 never carries); sub: C = 1 (no borrow)
    $body .= $op eq 'adcs' ? "\tadds\t$A[0], $A[0], #0\n" : "\tcmp\t$A[0], $A[0]\n";
    $body .= loops($name, $end1, $one, $four, $name);
    if ($op eq 'adcs') {
        $body .= "\tmov\tr0, #0\n\tadc\tr0, r0, #0\n";
    } else {
        $body .= "\tsbc\tr0, r0, r0\n\tand\tr0, r0, #1\n";   # borrow = !C
    }
    $body .= epilogue() . func_end($name);
    return $body;
}

# ---- sqr -------------------------------------------------------------------------
sub sqr {
    my $name = 'bn_sqr_words';
    my $end1 = 'r3';
    my $body = "\n" . func_begin($name) . prologue($name, 'r2', $end1);
    my $one = "\tldr\t$A[0], [$ap], #4\n\tumull\t$T[0], $T[1], $A[0], $A[0]\n"
            . "\tstmia\t$rp!, {$T[0], $T[1]}\n";
    my $four = '';
    for my $half (0, 1) {
        $four .= "\tldmia\t$ap!, {$A[0], $A[1]}\n"
               . "\tumull\t$T[0], $T[1], $A[0], $A[0]\n"
               . "\tumull\t$T[2], $T[3], $A[1], $A[1]\n"
               . "\tstmia\t$rp!, {" . join(', ', @T) . "}\n";
    }
    $body .= loops($name, $end1, $one, $four, $name);
    $body .= epilogue() . func_end($name);
    return $body;
}

# ---- code ------------------------------------------------------------------------

$code .= <<___ . arch_block() . "\t.text\n";
\@ Generated by armv4-words.pl; see that file for the algorithms, the
\@ defines and the measured performance.  Self-contained: needs no header.
___
$code .= mulfamily('bn_mul_add_words', 'add');
$code .= mulfamily('bn_mul_words', 'mul');
$code .= mulfamily('bn_mul_sub_words', 'sub');
$code .= sqr();
$code .= addsub('bn_add_words', 'adcs', 0);
$code .= addsub('bn_sub_words', 'sbcs', 0);
$code .= addsub('bn_cnd_add_words', 'adcs', 1);
$code .= addsub('bn_cnd_sub_words', 'sbcs', 1);
$code .= <<___ . $GNU_STACK;

#if ASMCRYPT_ARM_UMAAL_RT
	.hidden	ASMCRYPT_CAPWORD
#endif
___

print $code;
close STDOUT or die "armv4-words.pl: error closing output: $!\n";
