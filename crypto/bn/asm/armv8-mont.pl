#!/usr/bin/env perl
#
# crypto/bn/asm/armv8-mont.pl - Montgomery multiplication for AArch64.
#
#   perl armv8-mont.pl FLAVOUR OUT.S        (FLAVOUR: linux64, ios64, void)
#
# int bn_mul_mont(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
#                 const BN_ULONG *np, const BN_ULONG *n0, int num);
#
# rp = ap*bp*2^(-64*num) mod np, for every num >= 1 (returns 1; 0 only for
# num < 1).  Only n0[0] = -np[0]^-1 mod 2^64 is read.
#
# Algorithm: operand scanning ("CIOS"), one word b = bp[i] per row:
#
#     T = (T + ap*b + np*m) / 2^64,   m = (T[0] + ap[0]*b) * n0 mod 2^64
#
# with T (num words plus a one-bit top) in a stack buffer, so rp may alias
# ap and/or bp: rp is written only by the final pass, which computes
# T - np into rp with a borrow chain and then selects T or T - np word by
# word with csel on the final borrow (no branch, no secret address), wiping
# the stack buffer as it goes.
#
#  * word-serial path (num <= 5): one a/n word per inner iteration, each
#    product's high half carried in a register.
#  * padded path (num % 4 != 0, num > 5): a and np copied to the stack
#    with zero words up to a multiple of 4, then the 4-way rows below
#    (num rows of w = num rounded up words); the final pass writes num
#    words.  31 words: 11937 instructions (word-serial: 18085; 32 words
#    4-way: 12085).
#  * 4-way path (num % 4 == 0): four words per inner iteration.  The four
#    low halves of a[j..j+3]*b go into T[j..j+3] as one adds/adcs chain,
#    the four high halves (shifted up one word) as a second chain; the
#    chains end in a carry word that starts the next group.  Same for n*m.
#    That is four instructions per 64x64 product (mul, umulh, 2 adcs)
#    instead of six.
#  * squaring path (ap == bp, num % 8 == 0): a^2 is computed once as a
#    2*num-word product (cross products a[i]*a[j], i<j, doubled by a
#    one-bit shift chain, plus the diagonal), then reduced by num
#    Montgomery rows of n*m only: 1.5*num^2 products instead of 2*num^2.
#    Cross-product rows and reduction rows both go eight at a time: each
#    step multiplies one multiplicand word by the eight row multipliers
#    and adds the 16 halves into a ring of eight registers holding the
#    S words it touches (one word stored, one loaded per step), so a
#    product costs 4.7 instructions.  Cross passes end in the triangle
#    of their own rows; a reduction pass starts with the m's computed
#    row by row on nine S words in registers.
#    The first row of the 4-way multiplication starts from T = 0 (no
#    loads, no zeroing pass).
#
# Constant time: the control flow depends on num and on ap == bp only
# (both public); the final selection uses csel.
#
# Importing.  The module reads no capability word: bn_mul_mont uses no
# NEON, and the choice between bn_gather5_armv8 (NEON) and
# bn_gather5_armv8_gpr is made by the caller (crypto/bn/bn_exp_aarch64.c),
# so ASMCRYPT_CAPWORD / ASMCRYPT_CAPBIT_* do not apply here.  It needs no
# file beside it for linux64/void.  For OpenSSL (-DASMCRYPT_OPENSSL is
# accepted and changes nothing) it stands in for OpenSSL's
# crypto/bn/asm/armv8-mont.pl, from which OpenSSL links bn_mul_mont only
# (aarch64: bn_asm.c + armv8-mont.S, OPENSSL_BN_ASM_MONT; bn_mont.c calls
# it for num > 1 and falls back to C when it returns 0): same prototype,
# returns 1.  The two gathers are extra global names that no OpenSSL
# file defines.  In kernel code only bn_gather5_armv8_gpr is NEON-free.
#
# AArch64 hardening: "bti c" (hint #34) at the entry point, paciasp /
# autiasp (hint #25 / #29) around the frame, and the matching
# .note.gnu.property (BTI | PAC), so the object links into binaries built
# with -mbranch-protection=standard.  hint encodings assemble with any -march.
#
# Performance.  Instructions per call (make icount) against C and
# OpenSSL, modexp, and how the figures came to be: docs/perf/aarch64.md
# ("armv8-mont figures").  Per CPU model:
#
# llvm-mca-19 cycles per limb (one word of a*b[i] plus one of n*m, i.e.
# two products; tools/mca.pl, 200 iterations; Apple: -mcpu=cyclone):
#
#   region              A53    A55    A57/A72  Neoverse-N1  Apple(cyclone)
#   4-way mul          21.38  21.25    5.13     12.01        4.02
#   word-serial        31.00  28.00    8.05     12.06        5.43
#   sqr cross (8 rows) 14.91  14.91    4.00     12.00        4.00
#   sqr reduce (8 rows)14.91  14.91    4.00     12.00        4.00
#   C bn_mul_mont_c    34.02  33.02   12.09     13.10          -
#   gather5 (per word)  2.44   2.44    0.82      0.44         0.63
#   gather5_gpr (word)  2.25   2.38    1.00      0.50         0.51
#   (the four-row squaring loops before: A53 15.00 / 14.94, A57 4.00,
#   N1 12.00, Apple 4.01: the squaring's gain is in instructions, the
#   cycle estimate per product is unchanged where the multiplier bounds it)
#   The squaring's final pass takes the top eight S words from the last
#   reduction pass's registers (no store and reload): llvm-mca-19 over
#   the straight-line last pass + final pass (100 iterations), cycles
#   before -> after, num = 8 / 32 / 64: A53 130 -> 90, 379 -> 342,
#   711 -> 674; A57 and A72 48 -> 28, 150 -> 130, 286 -> 266.
#
use strict;
use warnings;

# ---- AArch64 preamble (begin) --------------------------------------------
# The same lines in every AArch64 module (armv8-mont.pl, armv8-words.pl,
# poly1305-armv8.pl; perlasm/arm-preamble-check.pl keeps them so).
# Arguments: [FLAVOUR] [anything ...] [OUT.S], OpenSSL's perlasm command
# line included (docs/adding-a-module.md, "The script's command line").
my $me = $0; $me =~ s{.*/}{};
my @args = @ARGV;
my $output  = (@args && $args[-1] =~ /\.\w+$/ && $args[-1] !~ /^-/) ? pop @args : undef;
my $flavour = (@args && $args[0] !~ /^-|\./) ? shift @args : 'linux64';
$flavour = 'linux64' if $flavour eq 'void' || $flavour eq '';
die "$me: unknown flavour '$flavour'\n"
    unless $flavour =~ /^(linux64|ios64)$/;

# linux64 output is plain GNU as and needs no translator (the module runs
# alone from a flat copy, as in a kernel tree).  ios64 goes through
# arm-xlate.pl, looked for beside this script first, then in the tree's
# perlasm/.
sub find_xlate {
    my $dir = $0; $dir =~ s{[^/]*$}{};
    for my $cand ("${dir}arm-xlate.pl", "${dir}../../../perlasm/arm-xlate.pl") {
        return $cand if -f $cand;
    }
    die "$me: $flavour needs arm-xlate.pl beside this script or in ../../../perlasm/\n";
}
my $out;
if ($flavour eq 'ios64') {
    my $xlate = find_xlate();
    open $out, "| \"$^X\" \"$xlate\" $flavour \"$output\""
        or die "$me: can't run $xlate: $!\n";
} elsif (defined $output) {
    open $out, '>', $output or die "$me: can't write $output: $!\n";
} else {
    $out = \*STDOUT;
}
# ---- AArch64 preamble (end) ----------------------------------------------

# ---- register map ----------------------------------------------------------
my ($rp, $ap, $bp, $np, $n0, $num) = map { "x$_" } (0 .. 5);
my ($bend, $b, $m, $cnt, $apw, $npw, $tpw, $ca, $cn, $top) =
    map { "x$_" } (6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
my @a = map { "x$_" } (16, 17, 19, 20);       # a (then n) words, then high halves
my @p = map { "x$_" } (21, 22, 23, 24);       # low halves of products
my @t = map { "x$_" } (25, 26, 27, 28);       # T words

my $code = '';

# ---- helpers ---------------------------------------------------------------

# Four products w*v[k]: low halves into @p, high halves over @a (= v).
sub mul4 {
    my ($v) = @_;
    my $s = '';
    for my $k (0 .. 3) {
        $s .= "\tmul\t$p[$k], $a[$k], $v\n\tumulh\t$a[$k], $a[$k], $v\n";
    }
    return $s;
}

# T[0..3] += P (low halves); high half of the top product absorbs the carry.
sub add_lo_chain {
    return <<___;
	adds	$t[0], $t[0], $p[0]
	adcs	$t[1], $t[1], $p[1]
	adcs	$t[2], $t[2], $p[2]
	adcs	$t[3], $t[3], $p[3]
	adc	$a[3], $a[3], xzr
___
}

# T[0..3] = X[0..3] (default T itself) + cin + high halves shifted up
# one word; cout = carry word.
sub add_hi_chain {
    my ($cin, $cout, $x) = @_;
    $x = \@t unless defined $x;
    return <<___;
	adds	$t[0], $x->[0], $cin
	adcs	$t[1], $x->[1], $a[0]
	adcs	$t[2], $x->[2], $a[1]
	adcs	$t[3], $x->[3], $a[2]
	adc	$cout, $a[3], xzr
___
}

# Row end: T[num-1] = ca + cn + top (low word), top = carry (0 or 1).
sub row_end {
    my ($tmp) = @_;
    return <<___;
	adds	$ca, $ca, $cn
	adc	$tmp, xzr, xzr
	adds	$ca, $ca, $top
	adc	$top, $tmp, xzr
	stur	$ca, [$tpw, #-8]
___
}

sub func_begin {
    my ($name) = @_;
    return <<___;
	.globl	$name
	.type	$name, %function
	.align	5
$name:
	hint	#34			// bti c
	hint	#25			// paciasp
	stp	x29, x30, [sp, #-96]!
	add	x29, sp, #0
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
___
}

sub func_return {
    return <<___;
	mov	sp, x29
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #96
	hint	#29			// autiasp
	ret
___
}

# ---- entry and dispatch -----------------------------------------------------
$code .= <<___;
// Generated by crypto/bn/asm/armv8-mont.pl ($flavour).  Do not edit.
	.text
___
$code .= func_begin('bn_mul_mont');
$code .= <<___;
	sxtw	$num, w5
	cmp	$num, #1
	b.lt	.Lmont_decline
	ldr	$n0, [x4]
	// T buffer: num+1 words rounded up to 16 bytes, below the frame
	add	$cnt, $num, #2
	and	$cnt, $cnt, #-2
	sub	$cnt, sp, $cnt, lsl #3
	mov	sp, $cnt
	add	$bend, $bp, $num, lsl #3
	mov	$top, #0
	tst	$num, #7
	b.ne	.Lmont_not8
	cmp	$ap, $bp
	b.eq	.Lsqr8x
	b	.Lmul4x
.Lmont_not8:
	tst	$num, #3
	b.ne	.Lmulpad
	cmp	$num, #4			// one group: no inner loop
	b.eq	.Lmul4x1
	b	.Lmul4x
___

# ---- word-serial path ------------------------------------------------------
my ($x, $lo, $hi) = ($t[0], $p[0], $p[1]);

# x += u*v + c (mod 2^64), c = the high word of the sum; lo, hi scratch.
sub mac1 {
    my ($u, $v, $c) = @_;
    return <<___;
	mul	$lo, $u, $v
	umulh	$hi, $u, $v
	adds	$x, $x, $lo
	adc	$hi, $hi, xzr
	adds	$x, $x, $c
	adc	$c, $hi, xzr
___
}

$code .= <<___;
.Lmul1x:
	mov	$tpw, sp
	mov	$cnt, $num
.Lmul1x_zero:
	str	xzr, [$tpw], #8
	subs	$cnt, $cnt, #1
	b.ne	.Lmul1x_zero
.Lmul1x_outer:
	ldr	$b, [$bp], #8
	ldr	$a[0], [$ap]
	ldr	$x, [sp]
	mov	$apw, $ap
	mov	$npw, $np
	mov	$tpw, sp
	mul	$lo, $a[0], $b
	umulh	$hi, $a[0], $b
	adds	$x, $x, $lo
	adc	$ca, $hi, xzr
	mul	$m, $x, $n0
	ldr	$a[1], [$npw], #8
	add	$apw, $apw, #8
	add	$tpw, $tpw, #8
	umulh	$hi, $a[1], $m
	cmp	$x, #1			// T[0] + lo(n[0]*m) == 0 mod 2^64; carry = T[0] != 0
	adc	$cn, $hi, xzr
	subs	$cnt, $num, #1
	b.eq	.Lmul1x_rowend
# LLVM-MCA-BEGIN armv8_mont_1x
# LLVM-MCA-UNITS 1 limbs
.Lmul1x_inner:
	ldr	$a[0], [$apw], #8
	ldr	$a[1], [$npw], #8
	ldr	$x, [$tpw], #8
@{[ mac1($a[0], $b, $ca) . mac1($a[1], $m, $cn) ]}	stur	$x, [$tpw, #-16]
	subs	$cnt, $cnt, #1
	b.ne	.Lmul1x_inner
# LLVM-MCA-END
.Lmul1x_rowend:
___
$code .= row_end($lo);
$code .= <<___;
	cmp	$bp, $bend
	b.ne	.Lmul1x_outer

	// rp = T - np (borrow chain), then keep T where it borrowed
	mov	$tpw, sp
	mov	$npw, $np
	mov	$apw, $rp
	mov	$cnt, $num
	cmp	xzr, xzr		// C = 1: no borrow in
.Lmul1x_sub:
	ldr	$x, [$tpw], #8
	ldr	$a[1], [$npw], #8
	sub	$cnt, $cnt, #1
	sbcs	$x, $x, $a[1]
	str	$x, [$apw], #8
	cbnz	$cnt, .Lmul1x_sub
	sbcs	$top, $top, xzr		// C = 0: T < np, keep T
	mov	$tpw, sp
	mov	$apw, $rp
	mov	$cnt, $num
.Lmul1x_sel:
	ldr	$x, [$tpw]
	ldr	$a[1], [$apw]
	sub	$cnt, $cnt, #1
	str	xzr, [$tpw], #8
	csel	$a[1], $a[1], $x, hs
	str	$a[1], [$apw], #8
	cbnz	$cnt, .Lmul1x_sel
	mov	x0, #1
	b	.Lmont_ret
___

# ---- 4-way path ------------------------------------------------------------
# The subtraction pass of a final reduction, four words a step: at
# $label, rp-side words from $apw = T ($tpw) - the four registers @x load
# from $npw, the borrow chained in C (set before the label), $top takes the
# last borrow.  Shared by the 4-way/squaring final pass and the padded
# path's.
sub sub4_loop {
    my ($label, @x) = @_;
    return <<___;
$label:
	ldp	$t[0], $t[1], [$tpw], #32
	ldp	$x[0], $x[1], [$npw], #32
	ldp	$t[2], $t[3], [$tpw, #-16]
	ldp	$x[2], $x[3], [$npw, #-16]
	sub	$cnt, $cnt, #4
	sbcs	$t[0], $t[0], $x[0]
	sbcs	$t[1], $t[1], $x[1]
	sbcs	$t[2], $t[2], $x[2]
	sbcs	$t[3], $t[3], $x[3]
	stp	$t[0], $t[1], [$apw], #32
	stp	$t[2], $t[3], [$apw, #-16]
	cbnz	$cnt, $label
	sbcs	$top, $top, xzr		// C = 0: T < np, keep T
___
}

# The loads of a select pass, four words a step: T into @t from $tpw and
# the rp-side words into the four registers @x from $apw (the pointers
# are advanced by the stores that follow).  Shared by the 4-way/squaring
# final pass and the padded path's.
sub sel4_loads {
    my (@x) = @_;
    return <<___;
	ldp	$t[0], $t[1], [$tpw]
	ldp	$x[0], $x[1], [$apw]
	ldp	$t[2], $t[3], [$tpw, #16]
	ldp	$x[2], $x[3], [$apw, #16]
___
}

# Final pass shared by the 4-way and squaring paths: T is at $src
# (num words, top bit in $top).
sub final4 {
    my ($pfx, $src) = @_;
    my @n = @p;
    return <<___;
	mov	$tpw, $src
	mov	$npw, $np
	mov	$apw, $rp
	mov	$cnt, $num
	cmp	xzr, xzr		// C = 1: no borrow in
@{[ sub4_loop(".L${pfx}_sub", @n) ]}	mov	$tpw, $src
	mov	$apw, $rp
	mov	$cnt, $num
.L${pfx}_sel:
@{[ sel4_loads(@n) ]}	sub	$cnt, $cnt, #4
	stp	xzr, xzr, [$tpw], #32
	csel	$n[0], $n[0], $t[0], hs
	csel	$n[1], $n[1], $t[1], hs
	stp	xzr, xzr, [$tpw, #-16]
	csel	$n[2], $n[2], $t[2], hs
	csel	$n[3], $n[3], $t[3], hs
	stp	$n[0], $n[1], [$apw], #32
	stp	$n[2], $n[3], [$apw, #-16]
	cbnz	$cnt, .L${pfx}_sel
___
}

# Inner loop: two groups of four words per iteration, entered at the
# second group when the group count num/4 - 1 is odd; $loopw holds the
# word count for the loop (num or num - 4, a multiple of 8).
my $loopw = 'x30';

# Four words of a (and of T, but for the first row) loaded and their
# products with b (mul4).
sub a_times_b {
    my ($first) = @_;
    my $s = "\tldp\t$a[0], $a[1], [$apw], #32\n\tldp\t$a[2], $a[3], [$apw, #-16]\n";
    $s .= $first ? "\tadd\t$tpw, $tpw, #32\n"
                 : "\tldp\t$t[0], $t[1], [$tpw], #32\n\tldp\t$t[2], $t[3], [$tpw, #-16]\n";
    return $s . mul4($b);
}

# One row of the 4-way path.  $first: T = 0 (no loads, no T additions).
sub mul4x_row {
    my ($L, $first, $single) = @_;
    my $s = <<___;
	ldr	$b, [$bp], #8
	mov	$apw, $ap
	mov	$npw, $np
	mov	$tpw, sp
___
    $s .= a_times_b($first);
    if ($first) {
        $s .= "\tmov\t$t[0], $p[0]\n";
        $s .= "\tadds\t$t[1], $p[1], $a[0]\n\tadcs\t$t[2], $p[2], $a[1]\n";
        $s .= "\tadcs\t$t[3], $p[3], $a[2]\n\tadc\t$ca, $a[3], xzr\n";
        $s .= "\tmul\t$m, $t[0], $n0\n";
    } else {
        $s .= add_lo_chain();
        $s .= <<___;
	mul	$m, $t[0], $n0
	adds	$t[1], $t[1], $a[0]
	adcs	$t[2], $t[2], $a[1]
	adcs	$t[3], $t[3], $a[2]
	adc	$ca, $a[3], xzr
___
    }
    $s .= <<___;
	ldp	$a[0], $a[1], [$npw], #32
	ldp	$a[2], $a[3], [$npw, #-16]
	mul	$p[1], $a[1], $m
	umulh	$a[0], $a[0], $m
	mul	$p[2], $a[2], $m
	umulh	$a[1], $a[1], $m
	mul	$p[3], $a[3], $m
	umulh	$a[2], $a[2], $m
	umulh	$a[3], $a[3], $m
	cmp	$t[0], #1		// T[0] + lo(n[0]*m) == 0; carry = T[0] != 0
	adcs	$t[1], $t[1], $p[1]
	adcs	$t[2], $t[2], $p[2]
	adcs	$t[3], $t[3], $p[3]
	adc	$a[3], $a[3], xzr
	adds	$t[1], $t[1], $a[0]
	adcs	$t[2], $t[2], $a[1]
	adcs	$t[3], $t[3], $a[2]
	adc	$cn, $a[3], xzr
	stp	$t[1], $t[2], [$tpw, #-32]
	str	$t[3], [$tpw, #-16]
___
    return $s . "${L}_rowend:\n" . row_end($p[0]) if $single;
    $s .= <<___;
	mov	$cnt, $loopw
	tbz	$num, #2, ${L}_inner_b		// num % 8 == 0: odd group count
___
    $s .= "# LLVM-MCA-BEGIN armv8_mont_4x\n# LLVM-MCA-UNITS 8 limbs\n" unless $first;
    for my $half ('', '_b') {
    $s .= <<___;
${L}_inner$half:
___
    $s .= a_times_b($first);
    $s .= $first ? add_hi_chain($ca, $ca, \@p)
                 : add_lo_chain() . add_hi_chain($ca, $ca);
    $s .= <<___;
	ldp	$a[0], $a[1], [$npw], #32
	ldp	$a[2], $a[3], [$npw, #-16]
___
    $s .= mul4($m) . add_lo_chain() . add_hi_chain($cn, $cn);
    $s .= <<___;
	stp	$t[0], $t[1], [$tpw, #-40]
	stp	$t[2], $t[3], [$tpw, #-24]
___
    }
    $s .= <<___;
	sub	$cnt, $cnt, #8
	cbnz	$cnt, ${L}_inner
___
    $s .= "# LLVM-MCA-END\n" unless $first;
    $s .= "${L}_rowend:\n" . row_end($p[0]);
    return $s;
}

# num == 4 gets its own copy of the rows (no inner loop).
for my $single (0, 1) {
    my $P = $single ? '.Lmul4x1' : '.Lmul4x';
    $code .= "$P:\n";
    $code .= <<___ unless $single;
	sub	$loopw, $num, #4
	tst	$num, #4
	csel	$loopw, $num, $loopw, eq
___
    $code .= mul4x_row("${P}_r0", 1, $single);
    $code .= "\tcmp\t$bp, $bend\n\tb.eq\t.Lmul4x_done\n";
    $code .= "${P}_outer:\n";
    $code .= mul4x_row($P, 0, $single);
    $code .= <<___;
	cmp	$bp, $bend
	b.ne	${P}_outer
___
    $code .= "\tb\t.Lmul4x_done\n" unless $single;
}
$code .= <<___;
.Lmul4x_done:
	// frame of the padded path: 3 num + 2 words, else num + 2
	add	$apw, $num, #2
	sub	$apw, x29, $apw, lsl #3
	cmp	sp, $apw
	b.ne	.Lmulpad_final
___
$code .= final4('mul4x', 'sp');
$code .= <<___;
	mov	x0, #1
	b	.Lmont_ret
___

# ---- padded path (num % 4 != 0) ---------------------------------------------
# a and np are copied to the stack with zero words up to w = num rounded
# up to a multiple of 4, and the 4-way rows run over w words: num rows
# (b is not padded), so T = a*b*2^(-64 num) mod np as for the word-serial
# path, and T < 2^(64 num + 1) stays inside the w words (top stays 0).
# Frame: T (w words) at sp, the copy of a at sp + 8w (it takes T - np in
# the final pass, then zeros), the copy of np at sp + 16w, num at
# sp + 24w = x29 - 16.
# The final pass writes num words of rp only.  num <= 5 keeps the
# word-serial path (there the padding costs more than it saves: 5 words
# 613 instructions word-serial, 651 padded).
my @pw = @p;
$code .= <<___;
.Lmulpad:
	cmp	$num, #5
	b.ls	.Lmul1x
	add	$cnt, $num, #3
	and	$cnt, $cnt, #-4			// w
	add	$apw, $cnt, $cnt, lsl #1
	sub	$apw, x29, $apw, lsl #3
	sub	sp, $apw, #16
	add	$apw, sp, $cnt, lsl #3		// copy of a
	add	$npw, $apw, $cnt, lsl #3	// copy of np
	stur	$num, [x29, #-16]		// num, in the slot above the copies
	stp	xzr, xzr, [x29, #-48]		// last group of each copy: zeros
	stp	xzr, xzr, [x29, #-32]
	stp	xzr, xzr, [$npw, #-32]
	stp	xzr, xzr, [$npw, #-16]
	mov	$top, $num
.Lmulpad_copy:
	ldr	$a[0], [$ap], #8
	ldr	$a[1], [$np], #8
	subs	$top, $top, #1
	str	$a[0], [$apw], #8
	str	$a[1], [$npw], #8
	b.ne	.Lmulpad_copy
	mov	$num, $cnt
	add	$ap, sp, $num, lsl #3
	add	$np, $ap, $num, lsl #3
	cmp	$num, #4
	b.eq	.Lmul4x1
	b	.Lmul4x

.Lmulpad_final:
	mov	$tpw, sp
	mov	$npw, $np
	add	$apw, sp, $num, lsl #3
	mov	$cnt, $num
	cmp	xzr, xzr		// C = 1: no borrow in
@{[ sub4_loop(".Lmulpad_sub", @pw) ]}	ldur	$b, [x29, #-16]			// num
	mov	$tpw, sp
	add	$apw, sp, $num, lsl #3
	lsr	$cnt, $b, #2			// whole groups of rp
	cbz	$cnt, .Lmulpad_part
.Lmulpad_sel:
@{[ sel4_loads(@pw) ]}	sub	$cnt, $cnt, #1
	stp	xzr, xzr, [$tpw], #32
	stp	xzr, xzr, [$tpw, #-16]
	stp	xzr, xzr, [$apw], #32
	stp	xzr, xzr, [$apw, #-16]
	csel	$pw[0], $pw[0], $t[0], hs
	csel	$pw[1], $pw[1], $t[1], hs
	csel	$pw[2], $pw[2], $t[2], hs
	csel	$pw[3], $pw[3], $t[3], hs
	stp	$pw[0], $pw[1], [$rp], #32
	stp	$pw[2], $pw[3], [$rp, #-16]
	cbnz	$cnt, .Lmulpad_sel
.Lmulpad_part:
	// the last group: 1 to 3 words of rp
	ldp	$t[0], $t[1], [$tpw]
	ldp	$pw[0], $pw[1], [$apw]
	ldp	$t[2], $t[3], [$tpw, #16]
	ldp	$pw[2], $pw[3], [$apw, #16]
	stp	xzr, xzr, [$tpw]
	stp	xzr, xzr, [$tpw, #16]
	stp	xzr, xzr, [$apw]
	stp	xzr, xzr, [$apw, #16]
	csel	$pw[0], $pw[0], $t[0], hs
	csel	$pw[1], $pw[1], $t[1], hs
	csel	$pw[2], $pw[2], $t[2], hs
	tbnz	$b, #1, .Lmulpad_part2
	str	$pw[0], [$rp]
	b	.Lmulpad_done
.Lmulpad_part2:
	stp	$pw[0], $pw[1], [$rp]
	tbz	$b, #0, .Lmulpad_done
	str	$pw[2], [$rp, #16]
.Lmulpad_done:
	mov	x0, #1
	b	.Lmont_ret

___

# ---- squaring path -------------------------------------------------------------
# S (2*num words) at sp, zeroed; the cross products a[i]*a[j] (i < j) go
# in eight rows per pass, S is doubled and the diagonal added, then num
# Montgomery rows of n*m reduce S in place, eight per pass.  Both kinds
# of pass walk the multiplicand one word x per step: in a step every row
# k of the pass (multiplier M[k] = a[i+k], or m_k) adds x*M[k] at S
# position P+k (low half) and P+k+1 (high half), so the step touches the
# nine positions P..P+8.  Positions P..P+7 live in a ring of eight
# registers; position P is final after the step's first addition: it is
# stored and its register reloaded with S[P+8].  Each step is two carry
# chains (low halves plus the top high half; the other high halves plus
# the carry word c pending at P+8) whose two carries out make the next
# c: 19 additions, 16 multiplies and 2.5 loads/stores per 8 products.
# Cross pass over rows i..i+7: steps x = a[0..i+6], every row until
# a[i-1], then rows k > x - i (x = a[i+t] = M[t]); the products of rows
# i..i+7 end at position 2i+15, above which S is still zero.  Reduction
# pass: a head computes m_0..m_7 row by row on S[i..i+8] in registers
# (with n[0..7], the products below position i+8), then steps x =
# n[1..7] for rows k >= 8 - j and x = n[8..num-1] for every row; the
# carry out of the pass (position i+num+8) is added in the next pass's
# last window, and the last one is the top bit of the result.
# rp, np, n0 and ap are spilled to the 32 bytes above S.
my @A  = map { "x$_" } (19 .. 26);
my @M  = ('x0', 'x1', 'x2', 'x3', 'x4', 'x6', 'x7', 'x30');
my ($xe, $xo) = ('x8', 'x9');
my @T  = ('x10', 'x11');
my ($cA, $cw) = ('x12', 'x13');
my ($stp_, $sxp, $scnt, $spass) = ('x14', 'x15', 'x16', 'x17');
my ($sn0, $stop) = ('x27', 'x28');       # reduction: n0, carry out of a pass
my ($sab, $saend) = ($sn0, $stop);       # cross products: &a[0], &a[num]

# One step: x times rows k0..7; $r = ring index of position P; $pre runs
# before the chains, $mid after the first addition (k0 == 0: the store of
# P and reload of P+8); $fresh: position P+8 is zero in memory (not
# loaded, the high half is moved in).
sub sqr_step {
    my ($r, $x, $k0, $pre, $mid, $fresh) = @_;
    my $top8 = $A[$r];
    # chain 1: low halves at r+k, the top high half at r+8
    my @c1 = map { [ "mul\t%s, $M[$_], $x", $A[($r + $_) % 8] ] } $k0 .. 7;
    push @c1, [ "umulh\t%s, $M[7], $x", $top8, $fresh ? 'xzr' : $top8 ];
    # chain 2: the other high halves at r+k+1
    my @c2 = map { [ "umulh\t%s, $M[$_], $x", $A[($r + $_ + 1) % 8] ] } $k0 .. 6;
    # each product is issued one addition ahead of its use (two temps)
    my $s = $pre // '';
    my $emit = sub {
        my ($c, $last) = @_;
        my $out = '';
        for my $i (0 .. $#$c) {
            my ($p, $acc, $src) = @{ $c->[$i] };
            my $t = $T[$i % 2];
            $out .= "\t" . sprintf($c->[$i + 1][0], $T[($i + 1) % 2]) . "\n" if $i < $#$c;
            $out .= ($i == 0 ? "\tadds" : "\tadcs") . "\t$acc, " . ($src // $acc) . ", $t\n";
            $out .= $mid if $i == 0 && $c == \@c1 && $k0 == 0 && defined $mid;
            $out .= $last if $i == $#$c && defined $last;
        }
        return $out;
    };
    $s .= "\t" . sprintf($c1[0][0], $T[0]) . "\n";
    $s .= $emit->(\@c1, (@c2 ? "\t" . sprintf($c2[0][0], $T[0]) . "\n" : '') . "\tadc\t$cA, xzr, xzr\n");
    $s .= $emit->(\@c2) if @c2;
    $s .= (@c2 ? "\tadcs" : "\tadds") . "\t$top8, $top8, $cw\n";
    $s .= "\tadc\t$cw, $cA, xzr\n";
    return $s;
}

# Eight full steps (ring index 0..7), the multiplicand read in pairs.
sub sqr_full8 {
    my $s = '';
    for my $r (0 .. 7) {
        my $x = $r % 2 ? $xo : $xe;
        my $pre = $r % 2 ? '' : "\tldp\t$xe, $xo, [$sxp], #16\n";
        my $mid = "\tstr\t$A[$r], [$stp_], #8\n\tldr\t$A[$r], [$stp_, #56]\n";
        $s .= sqr_step($r, $x, 0, $pre, $mid, 0);
    }
    return $s;
}

# The loop $label of eight full steps, llvm-mca region $mca; $tail ends
# an iteration (its count or test and the branch back to $label).
sub sqr_full8_loop {
    my ($label, $mca, $tail) = @_;
    return "# LLVM-MCA-BEGIN $mca\n# LLVM-MCA-UNITS 32 limbs\n$label:\n"
         . sqr_full8() . $tail . "# LLVM-MCA-END\n";
}

$code .= <<___;
.Lsqr8x:
	sub	sp, sp, $num, lsl #3		// 2*num words and more
	sub	sp, sp, #32			// spill slots above S
	add	$scnt, sp, $num, lsl #4
	stp	$rp, $np, [$scnt]
	stp	$n0, $ap, [$scnt, #16]
	mov	$sab, $ap
	add	$saend, $ap, $num, lsl #3
	mov	$spass, $ap
	// first pass (rows 0..7): no full steps, S[0..7] starts as zeros
	ldp	$M[0], $M[1], [$spass]
	ldp	$M[2], $M[3], [$spass, #16]
	ldp	$M[4], $M[5], [$spass, #32]
	ldp	$M[6], $M[7], [$spass, #48]
	mov	$stp_, sp
	mov	$cw, xzr
___
$code .= "\tmov\t$_, xzr\n" for @A;
$code .= <<___;
	b	.Lsqr8x_cross_tri
.Lsqr8x_cross:
	ldp	$M[0], $M[1], [$spass]
	ldp	$M[2], $M[3], [$spass, #16]
	ldp	$M[4], $M[5], [$spass, #32]
	ldp	$M[6], $M[7], [$spass, #48]
	sub	$T[0], $spass, $sab
	add	$stp_, sp, $T[0]			// &S[i]
	add	$T[0], $stp_, $T[0]		// &S[2i]: first written by this pass
	stp	xzr, xzr, [$T[0]]		// S[2i..2i+7] = 0 (read before written)
	stp	xzr, xzr, [$T[0], #16]
	stp	xzr, xzr, [$T[0], #32]
	stp	xzr, xzr, [$T[0], #48]
	ldp	$A[0], $A[1], [$stp_]
	ldp	$A[2], $A[3], [$stp_, #16]
	ldp	$A[4], $A[5], [$stp_, #32]
	ldp	$A[6], $A[7], [$stp_, #48]
	mov	$cw, xzr
	mov	$sxp, $sab
___
$code .= sqr_full8_loop('.Lsqr8x_cross_full', 'armv8_mont_sqr_cross', <<___);
	cmp	$sxp, $spass
	b.ne	.Lsqr8x_cross_full
___
$code .= <<___;
.Lsqr8x_cross_tri:
___
for my $t (0 .. 6) {
    $code .= sqr_step($t, $M[$t], $t + 1, "\tstr\t$A[$t], [$stp_], #8\n", undef, 1);
}
$code .= <<___;
	str	$A[7], [$stp_]
	stp	$A[0], $A[1], [$stp_, #8]
	stp	$A[2], $A[3], [$stp_, #24]
	stp	$A[4], $A[5], [$stp_, #40]
	stp	$A[6], $cw, [$stp_, #56]
	add	$spass, $spass, #64
	cmp	$spass, $saend
	b.ne	.Lsqr8x_cross

	// S = 2*S + sum a[k]^2 2^(128k): shift via extr, one adcs chain,
	// four words of a (eight of S) per iteration
	add	$T[0], sp, $num, lsl #4
	ldr	$sxp, [$T[0], #24]		// ap
	mov	$stp_, sp
	mov	$scnt, $num
	mov	$T[1], xzr			// the S word below the group
	cmn	xzr, xzr			// C = 0
.Lsqr8x_dbl:
	ldp	$M[0], $M[1], [$sxp], #32
	ldp	$M[2], $M[3], [$sxp, #-16]
	ldp	$A[0], $A[1], [$stp_]
	ldp	$A[2], $A[3], [$stp_, #16]
	ldp	$A[4], $A[5], [$stp_, #32]
	ldp	$A[6], $A[7], [$stp_, #48]
___
{
    # S words 2k, 2k+1 of the group get lo, hi of a[k]^2; the doubled
    # word 2k+1 = A[2k+1]:A[2k] >> 63 etc.
    my @d = (@M[4 .. 7], $xe, $xo, $cA, $cw);
    for my $q (reverse 1 .. 7) {
        $code .= "\textr\t$d[$q], $A[$q], $A[$q - 1], #63\n";
    }
    $code .= "\textr\t$d[0], $A[0], $T[1], #63\n";
    $code .= "\tmov\t$T[1], $A[7]\n";
    $code .= "\tsub\t$scnt, $scnt, #4\n";
    for my $k (0 .. 3) {
        $code .= "\tmul\t$A[2 * $k], $M[$k], $M[$k]\n\tumulh\t$A[2 * $k + 1], $M[$k], $M[$k]\n";
    }
    for my $q (0 .. 7) {
        $code .= "\tadcs\t$d[$q], $d[$q], $A[$q]\n";
    }
    $code .= "\tstp\t$d[0], $d[1], [$stp_], #64\n\tstp\t$d[2], $d[3], [$stp_, #-48]\n";
    $code .= "\tstp\t$d[4], $d[5], [$stp_, #-32]\n\tstp\t$d[6], $d[7], [$stp_, #-16]\n";
}
$code .= <<___;
	cbnz	$scnt, .Lsqr8x_dbl

	// Montgomery reduction, eight rows per pass
	add	$T[0], sp, $num, lsl #4
	ldr	$sn0, [$T[0], #16]
	mov	$stop, #0
	mov	$spass, sp
.Lsqr8x_red:
	add	$T[0], sp, $num, lsl #4
	ldr	$sxp, [$T[0], #8]		// np
	mov	$stp_, $spass
	ldp	$xe, $M[7], [$sxp]		// n[j] in M[8-j] until m_(8-j) replaces it
	ldp	$M[6], $M[5], [$sxp, #16]
	ldp	$M[4], $M[3], [$sxp, #32]
	ldp	$M[2], $M[1], [$sxp, #48]
	add	$sxp, $sxp, #8
	ldp	$xo, $A[1], [$stp_]
	ldp	$A[2], $A[3], [$stp_, #16]
	ldp	$A[4], $A[5], [$stp_, #32]
	ldp	$A[6], $A[7], [$stp_, #48]
	ldr	$A[0], [$stp_, #64]
	mov	$cw, xzr			// carries into position i+9
	mov	$cA, xzr			// carries into position i+8
___
{
    my @nreg = ($xe, map { $M[8 - $_] } 1 .. 7);
    my @pos = ($xo, @A[1 .. 7]);
    for my $k (0 .. 7) {
        my $mk = $M[$k];
        $code .= "\tmul\t$mk, $pos[$k], $sn0\n";
        $code .= "\tcmp\t$pos[$k], #1\t\t\t// S[i+k] + lo(n[0]*m_k) = 0; carry = S[i+k] != 0\n";
        for my $j (1 .. 7 - $k) {
            my $t = $T[$j % 2];
            $code .= "\tmul\t$t, $nreg[$j], $mk\n\tadcs\t$pos[$k + $j], $pos[$k + $j], $t\n";
        }
        $code .= "\tumulh\t$T[0], $nreg[7 - $k], $mk\n\tadcs\t$A[0], $A[0], $T[0]\n";
        $code .= "\tadc\t$cw, $cw, xzr\n";
        next if $k == 7;
        for my $j (0 .. 6 - $k) {
            my $t = $T[$j % 2];
            $code .= "\tumulh\t$t, $nreg[$j], $mk\n";
            $code .= ($j == 0 ? "\tadds" : "\tadcs") . "\t$pos[$k + $j + 1], $pos[$k + $j + 1], $t\n";
        }
        $code .= "\tadc\t$cA, $cA, xzr\n";         # carries into position i+8
    }
    $code .= "\tadds\t$A[0], $A[0], $cA\n\tadc\t$cw, $cw, xzr\n";
}
$code .= <<___;
	stp	xzr, xzr, [$stp_]		// S[i..i+7] reduced: wiped
	stp	xzr, xzr, [$stp_, #16]
	stp	xzr, xzr, [$stp_, #32]
	stp	xzr, xzr, [$stp_, #48]
___
# Steps x = n[1..7]: step j touches positions i+8 .. i+j+8 only, so the
# registers of the zeros i+j+1 .. i+7 can take S[i+9 .. i+15] at once.
$code .= <<___;
	ldp	$A[1], $A[2], [$stp_, #72]
	ldp	$A[3], $A[4], [$stp_, #88]
	ldp	$A[5], $A[6], [$stp_, #104]
	ldr	$A[7], [$stp_, #120]
___
for my $j (1 .. 7) {
    my $x = $j % 2 ? $xe : $xo;
    my $pre = $j == 7 ? "\tldr\t$xe, [$sxp], #8\n"
            : $j % 2 ? "\tldp\t$xe, $xo, [$sxp], #16\n" : '';
    $code .= sqr_step($j, $x, 8 - $j, $pre, undef, 0);
}
$code .= <<___;
	add	$stp_, $stp_, #64
	sub	$scnt, $num, #8
	cbz	$scnt, .Lsqr8x_red_tail
___
$code .= sqr_full8_loop('.Lsqr8x_red_full', 'armv8_mont_sqr_reduce', <<___);
	sub	$scnt, $scnt, #8
	cbnz	$scnt, .Lsqr8x_red_full
___
$code .= <<___;
.Lsqr8x_red_tail:
	// S[i+num .. i+num+7] += the previous pass's carry; c and the carry
	// out go to position i+num+8
	adds	$A[0], $A[0], $stop
	adcs	$A[1], $A[1], xzr
	adcs	$A[2], $A[2], xzr
	adcs	$A[3], $A[3], xzr
	adcs	$A[4], $A[4], xzr
	adcs	$A[5], $A[5], xzr
	adcs	$A[6], $A[6], xzr
	adcs	$A[7], $A[7], xzr
	adc	$stop, $cw, xzr
	add	$spass, $spass, #64
	add	$T[0], sp, $num, lsl #3
	cmp	$spass, $T[0]
	b.eq	.Lsqr8x_last
	stp	$A[0], $A[1], [$stp_]
	stp	$A[2], $A[3], [$stp_, #16]
	stp	$A[4], $A[5], [$stp_, #32]
	stp	$A[6], $A[7], [$stp_, #48]
	b	.Lsqr8x_red
.Lsqr8x_last:
	// the last pass: S[2num-8 .. 2num-1] stay in A for the final pass;
	// their memory words are wiped instead
	stp	xzr, xzr, [$stp_]
	stp	xzr, xzr, [$stp_, #16]
	stp	xzr, xzr, [$stp_, #32]
	stp	xzr, xzr, [$stp_, #48]
___
# Final pass: rp = S[num..2num-1] - np, then keep S where that borrowed
# (top = 0), wiping S.  The low num - 8 words go through memory, eight a
# step (none for num = 8); the top eight are still in A from the last
# reduction pass, so their difference is taken, selected and stored
# from registers between the two loops (the selection flags survive the
# second loop: it only loads, stores, csel's and counts with sub/cbnz).
{
    my @N = map { "x$_" } (6 .. 13);
    # S words in the loops; num (x5) is one of them, kept meanwhile in
    # the free slot above the spills (x29 - 16: S and the spills end at
    # x29 - 48 and x29 - 16, see .Lsqr8x)
    my @F = map { "x$_" } (0, 1, 3, 4, 5, 15, 27, 30);
    my ($fs, $fn, $fr, $fc) = ('x2', 'x14', 'x16', 'x17');
    my $ld = sub {
        my ($R, $p) = @_;
        return "\tldp\t$R->[0], $R->[1], [$p]\n\tldp\t$R->[2], $R->[3], [$p, #16]\n"
             . "\tldp\t$R->[4], $R->[5], [$p, #32]\n\tldp\t$R->[6], $R->[7], [$p, #48]\n";
    };
    my $ldi = sub {
        my ($R, $p) = @_;
        return "\tldp\t$R->[0], $R->[1], [$p], #64\n\tldp\t$R->[2], $R->[3], [$p, #-48]\n"
             . "\tldp\t$R->[4], $R->[5], [$p, #-32]\n\tldp\t$R->[6], $R->[7], [$p, #-16]\n";
    };
    my $st = sub {
        my ($R, $p) = @_;
        return "\tstp\t$R->[0], $R->[1], [$p], #64\n\tstp\t$R->[2], $R->[3], [$p, #-48]\n"
             . "\tstp\t$R->[4], $R->[5], [$p, #-32]\n\tstp\t$R->[6], $R->[7], [$p, #-16]\n";
    };
    my @Z = ('xzr') x 8;
    $code .= <<___;
	ldp	$fr, $fn, [x29, #-48]		// rp, np
	stp	xzr, xzr, [x29, #-48]
	stp	xzr, xzr, [x29, #-32]
	add	$fs, sp, $num, lsl #3
	subs	$fc, $num, #8			// C = 1: no borrow in
	b.eq	.Lsqr8x_sub_top
	stur	$num, [x29, #-16]
.Lsqr8x_sub:
___
    $code .= $ldi->(\@F, $fs) . $ldi->(\@N, $fn);
    $code .= "\tsub\t$fc, $fc, #8\n";
    $code .= "\tsbcs\t$F[$_], $F[$_], $N[$_]\n" for 0 .. 7;
    $code .= $st->(\@F, $fr);
    $code .= "\tcbnz\t$fc, .Lsqr8x_sub\n\tldur\t$num, [x29, #-16]\n.Lsqr8x_sub_top:\n";
    $code .= $ld->(\@N, $fn);
    $code .= "\tsbcs\t$N[$_], $A[$_], $N[$_]\n" for 0 .. 7;
    $code .= "\tsbcs\t$stop, $stop, xzr\t\t// C = 0: S < np, keep S\n";
    $code .= "\tcsel\t$N[$_], $N[$_], $A[$_], hs\n" for 0 .. 7;
    $code .= $st->(\@N, $fr);
    $code .= <<___;
	sub	$fr, $fr, $num, lsl #3
	add	$fs, sp, $num, lsl #3
	sub	$fc, $num, #8
	cbz	$fc, .Lsqr8x_done
.Lsqr8x_sel:
___
    $code .= $ld->(\@F, $fs) . $ld->(\@N, $fr);
    $code .= "\tsub\t$fc, $fc, #8\n";
    $code .= $st->(\@Z, $fs);
    $code .= "\tcsel\t$N[$_], $N[$_], $F[$_], hs\n" for 0 .. 7;
    $code .= $st->(\@N, $fr);
    $code .= "\tcbnz\t$fc, .Lsqr8x_sel\n.Lsqr8x_done:\n";
}
$code .= <<___;
	mov	x0, #1
	b	.Lmont_ret
___

$code .= <<___;
.Lmont_decline:
	mov	x0, #0
.Lmont_ret:
___
$code .= func_return();
$code .= <<___;
	.size	bn_mul_mont, .-bn_mul_mont
___

# ---- constant-time table gather (NEON) ---------------------------------------
# void bn_gather5_armv8(BN_ULONG *out, const BN_ULONG *tab, unsigned int idx,
#                       int S);
# out[0..S-1] = tab[idx*S .. idx*S+S-1] for a table of 32 entries of S words
# (S % 8 == 0, S >= 8), reading every entry: for each 8-word column the 32
# entries are loaded and merged into four accumulators with "bit" under a
# mask from cmeq(lane counter, idx).  Addresses and branches depend on S
# only; idx only reaches vector compares.  Used by crypto/bn/bn_exp_aarch64.c
# when the NEON capability bit is set.
my ($gout, $gtab, $gidx, $gS) = map { "x$_" } (0 .. 3);
my ($gstride, $gcol, $gptr, $gcnt, $gone) = map { "x$_" } (4 .. 8);
my @gacc = map { "v$_" } (0 .. 3);
my @gld  = map { "v$_" } (4 .. 7);
my @gld2 = map { "v$_" } (20 .. 23);
my ($gvidx, $gctr, $ginc, $gmask, $gmask2) = map { "v$_" } (16 .. 19, 24);

# One entry: mask from the counter, four "bit" merges of the loaded column.
sub gather_entry {
    my ($ld, $mask) = @_;
    my $s = <<___;
	cmeq	$mask.2d, $gctr.2d, $gvidx.2d
	ld1	{$ld->[0].2d, $ld->[1].2d, $ld->[2].2d, $ld->[3].2d}, [$gptr], $gstride
	add	$gctr.2d, $gctr.2d, $ginc.2d
___
    $s .= "\tbit\t$gacc[$_].16b, $ld->[$_].16b, $mask.16b\n" for 0 .. 3;
    return $s;
}

$code .= <<___;

	// NEON is chosen at run time (the caller tests the capability), so
	// the code assembles even where the build targets +nosimd
	.arch_extension	simd
	.globl	bn_gather5_armv8
	.type	bn_gather5_armv8, %function
	.align	5
bn_gather5_armv8:
	hint	#34			// bti c (leaf: no frame, no LR save)
	mov	w2, w2			// idx: zero-extended
	sxtw	$gS, w3
	dup	$gvidx.2d, $gidx
	mov	$gone, #1
	dup	$ginc.2d, $gone
	lsl	$gstride, $gS, #3		// bytes per entry
	lsr	$gcol, $gS, #3			// 8-word columns
.Lgather_col:
	movi	$gacc[0].16b, #0
	movi	$gacc[1].16b, #0
	movi	$gacc[2].16b, #0
	movi	$gacc[3].16b, #0
	movi	$gctr.16b, #0
	mov	$gptr, $gtab
	mov	$gcnt, #16
# LLVM-MCA-BEGIN armv8_gather5
# LLVM-MCA-UNITS 16 words
.Lgather_entry:
___
$code .= gather_entry(\@gld, $gmask);
$code .= gather_entry(\@gld2, $gmask2);
$code .= <<___;
	subs	$gcnt, $gcnt, #1
	b.ne	.Lgather_entry
# LLVM-MCA-END
	st1	{$gacc[0].2d, $gacc[1].2d, $gacc[2].2d, $gacc[3].2d}, [$gout], #64
	add	$gtab, $gtab, #64
	subs	$gcol, $gcol, #1
	b.ne	.Lgather_col
	movi	$gmask.16b, #0			// no idx-derived data left behind
	movi	$gmask2.16b, #0
	ret
	.size	bn_gather5_armv8, .-bn_gather5_armv8
___

# void bn_gather5_armv8_gpr(BN_ULONG *out, const BN_ULONG *tab,
#                           unsigned int idx, int S);
# The same gather without NEON (ASMCRYPT_CAP=0, kernel code): per 8-word
# column, each of the 32 entries is loaded with ldp and merged into eight
# accumulators by csel on flags from cmp(entry number, idx) -- csel's
# timing does not depend on its operands.  Addresses and branches depend
# on S only.
my ($hcol, $hptr, $he) = map { "x$_" } (5, 6, 17);   # x4 is $gstride
my @hacc = map { "x$_" } (7 .. 14);
my @hld  = ((map { "x$_" } (15, 16)), (map { "x$_" } (19 .. 24)));
$code .= <<___;

	.globl	bn_gather5_armv8_gpr
	.type	bn_gather5_armv8_gpr, %function
	.align	5
bn_gather5_armv8_gpr:
	hint	#34			// bti c (leaf: no LR save)
	stp	x19, x20, [sp, #-48]!
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	mov	w2, w2			// idx: zero-extended
	sxtw	$gS, w3
	lsl	$gstride, $gS, #3		// bytes per entry
	lsr	$hcol, $gS, #3			// 8-word columns
.Lgather_gpr_col:
___
$code .= "\tmov\t$_, #0\n" for @hacc;
$code .= <<___;
	mov	$hptr, $gtab
	mov	$he, #0
# LLVM-MCA-BEGIN armv8_gather5_gpr
# LLVM-MCA-UNITS 8 words
.Lgather_gpr_entry:
	ldp	$hld[0], $hld[1], [$hptr]
	ldp	$hld[2], $hld[3], [$hptr, #16]
	ldp	$hld[4], $hld[5], [$hptr, #32]
	ldp	$hld[6], $hld[7], [$hptr, #48]
	add	$hptr, $hptr, $gstride
	cmp	$he, $gidx
___
$code .= "\tcsel\t$hacc[$_], $hld[$_], $hacc[$_], eq\n" for 0 .. 7;
$code .= <<___;
	add	$he, $he, #1
	tbz	$he, #5, .Lgather_gpr_entry
# LLVM-MCA-END
	stp	$hacc[0], $hacc[1], [$gout], #64
	stp	$hacc[2], $hacc[3], [$gout, #-48]
	stp	$hacc[4], $hacc[5], [$gout, #-32]
	stp	$hacc[6], $hacc[7], [$gout, #-16]
	add	$gtab, $gtab, #64
	subs	$hcol, $hcol, #1
	b.ne	.Lgather_gpr_col
___
$code .= "\tmov\t$_, #0\n" for @hacc;      # no table words left in registers
$code .= "\tmov\t$_, #0\n" for @hld[0 .. 1];
$code .= <<___;
	ldp	x23, x24, [sp, #32]
	ldp	x21, x22, [sp, #16]
	ldp	x19, x20, [sp], #48
	ret
	.size	bn_gather5_armv8_gpr, .-bn_gather5_armv8_gpr
___

$code .= <<___;

#if defined(__ELF__)
	// GNU_PROPERTY_AARCH64_FEATURE_1_AND: BTI (1) | PAC (2)
	.pushsection .note.gnu.property, "a"
	.balign	8
	.long	4
	.long	16
	.long	5
	.asciz	"GNU"
	.long	0xc0000000
	.long	4
	.long	3
	.long	0
	.popsection
#endif
	.section .note.GNU-stack,"",%progbits
___

print $out $code;
close $out or die "armv8-mont.pl: error writing output: $!\n";
