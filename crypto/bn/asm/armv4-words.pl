#!/usr/bin/env perl
#
# armv4-words.pl - bignum word primitives for 32-bit ARM (ARMv4 and later,
# ARM or Thumb-2 mode).
#
#   perl armv4-words.pl FLAVOUR OUT.S      (FLAVOUR: linux32, ios32, void)
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
# M-profile without DSP) and taken only
# when the UMAAL bit of asmcrypt_cpucap is set.
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

my $flavour = shift // 'void';
my $output  = shift;
if ($flavour =~ /\./ && !defined $output) {   # "X.pl OUT.S": default flavour
    ($output, $flavour) = ($flavour, 'void');
}
my $dir = $0; $dir =~ s{[^/]*$}{};
my $xlate = "${dir}../../../perlasm/arm-xlate.pl";
-f $xlate or die "armv4-words.pl: can't find $xlate\n";
open STDOUT, '|-', $^X, $xlate, $flavour, (defined $output ? $output : ())
    or die "armv4-words.pl: can't run $xlate: $!\n";

# Capability bit, as ASMCRYPT_CAP_ARM_UMAAL in include/asmcrypt/cpu.h.
use constant CAP_ARM_UMAAL => 1 << 0;

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

sub func_begin {
    my ($name) = @_;
    return "\n\t.asmcrypt_func\t$name\n";
}

# Prologue common to all: return 0 for num <= 0, save registers, compute
# the two loop ends from $num (register), relative to $ap.
sub prologue {
    my ($name, $num, $end1) = @_;
    return <<___;
	cmp	$num, #0
	bgt	.L${name}_go
	mov	r0, #0
	.asmcrypt_ret
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
	.asmcrypt_ret
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

# Branch to .L${lbl} when the UMAAL capability is set (ARMv6+ builds).
# The literal .L${lbl}_cap is emitted by cap_literal() after the function.
sub if_umaal {
    my ($lbl, $s) = @_;
    my $cap = CAP_ARM_UMAAL;
    return <<___;
	adr	$s, .L${lbl}_cap
	ldr	lr, [$s]
	ldr	lr, [$s, lr]
#ifdef __APPLE__
	ldr	lr, [lr]			\@ through the non-lazy pointer
#endif
	tst	lr, #$cap
	bne	.L$lbl
___
}

sub cap_literal {
    my ($lbl) = @_;
    return <<___;
	.align	2
.L${lbl}_cap:
	.word	asmcrypt_cpucap - .L${lbl}_cap
___
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
    my $body = func_begin($name) . prologue($name, 'r2', $end1);

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

    $body .= "#if ASMCRYPT_ARM_UMAAL\n" . if_umaal("${name}_v6", $T[0]) . "#endif\n";
    $body .= "\tmov\t$c, #0\n";
    # ARMv4 path: the single-word step, four times per loop turn.
    $body .= loops("${name}_v4", $end1, $one->(0), $one->(0) x 4, "${name}_v4");
    $body .= "\tmov\tr0, $c\n";
    $body .= epilogue();
    $body .= "#if ASMCRYPT_ARM_UMAAL\n.L${name}_v6:\n\tmov\t$c, #0\n";
    $body .= loops("${name}_v6", $end1, $one->(1), $four_v6, "${name}_umaal");
    $body .= "\tmov\tr0, $c\n" . epilogue();
    $body .= cap_literal("${name}_v6") . "#endif\n";
    $body .= "\t.asmcrypt_endfunc\t$name\n";
    return $body;
}

# ---- add / sub / cnd_add / cnd_sub ---------------------------------------------
# rp r0, ap r1, bp r2, num r3 -> end1; mask lr (cnd only).
sub addsub {
    my ($name, $op, $cnd) = @_;    # op: adcs / sbcs
    my ($bp, $end1, $mask) = ('r2', 'r3', 'lr');
    my $body = func_begin($name) . prologue($name, 'r3', $end1);
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
    $body .= epilogue() . "\t.asmcrypt_endfunc\t$name\n";
    return $body;
}

# ---- sqr -------------------------------------------------------------------------
sub sqr {
    my $name = 'bn_sqr_words';
    my $end1 = 'r3';
    my $body = func_begin($name) . prologue($name, 'r2', $end1);
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
    $body .= epilogue() . "\t.asmcrypt_endfunc\t$name\n";
    return $body;
}

# ---- code ------------------------------------------------------------------------

$code .= <<___;
\@ Generated by armv4-words.pl; see that file for the algorithms and the
\@ measured performance.  Self-contained: needs no header.
	.asmcrypt_arch
	.text
___
$code .= mulfamily('bn_mul_add_words', 'add');
$code .= mulfamily('bn_mul_words', 'mul');
$code .= mulfamily('bn_mul_sub_words', 'sub');
$code .= sqr();
$code .= addsub('bn_add_words', 'adcs', 0);
$code .= addsub('bn_sub_words', 'sbcs', 0);
$code .= addsub('bn_cnd_add_words', 'adcs', 1);
$code .= addsub('bn_cnd_sub_words', 'sbcs', 1);
$code .= <<___;

#if ASMCRYPT_ARM_UMAAL
	.asmcrypt_hidden	asmcrypt_cpucap
#endif
	.asmcrypt_end
___

print $code;
close STDOUT or die "armv4-words.pl: error closing output: $!\n";
