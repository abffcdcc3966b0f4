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
#  * word-serial path (any num): one a/n word per inner iteration, each
#    product's high half carried in a register.
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
#    Cross-product rows go two at a time over a four-word window of S:
#    row i+1's multiplicand words lag one behind row i's (the previous
#    window's top word stays in a register), so S is loaded and stored
#    once per two rows.  Reduction rows go four at a time the same way
#    (row i+k's np words lag k behind, a ring of eight np registers),
#    each row with its own carry word; the first window computes the
#    four m's in turn and skips the products below np[0], the last one
#    adds only the lagging products, the carries and the running top bit.  The first row of the 4-way
#    multiplication starts from T = 0 (no loads, no zeroing pass).
#
# Constant time: the control flow depends on num and on ap == bp only
# (both public); the final selection uses csel.
#
# AArch64 hardening: "bti c" (hint #34) at the entry point, paciasp /
# autiasp (hint #25 / #29) around the frame, and the matching
# .note.gnu.property (BTI | PAC), so the object links into binaries built
# with -mbranch-protection=standard.  hint encodings assemble with any -march.
#
# Performance, measured (docs/perf/aarch64.md has the commands).
# Instructions executed per call under qemu-aarch64 (tools/qemu-icount.c),
# raw bn_mul_mont; C = bn_mul_mont_c at -O2; OpenSSL = Debian arm64
# libcrypto 3.0.22 bn_mul_mont:
#
#   bits  path             this     C        OpenSSL
#   2048  4-way mul        12085    29400    12297
#   2048  squaring          9167      -       8374   (two-row reduction: 9536)
#   4096  4-way mul        47157   111880    48714
#   4096  squaring         34143      -         -    (35784)
#
# Constant-time modexp through crypto/bn/bn_exp_aarch64.c (this module's
# bn_mul_mont plus the table gathers bn_gather5_armv8 (NEON) and
# bn_gather5_armv8_gpr (ldp/csel) below), instructions per
# asmcrypt_mod_exp vs OpenSSL BN_mod_exp_mont_consttime:
#
#   bits  this (NEON gather)  this (ASMCRYPT_CAP=0, gpr gather)  OpenSSL
#   1024     3.63M               3.74M                            4.13M
#   2048    24.73M              25.17M                           26.27M
#   gather per 2048-bit lookup (32 entries of 32 words): NEON 1076, gpr 2133
#
# llvm-mca-19 cycles per limb (one word of a*b[i] plus one of n*m):
#
#   region              A53    A55    A57/A72  Neoverse-N1  Apple(cyclone)
#   4-way mul          21.38  21.25    5.13     12.01        4.02
#   word-serial        31.00  28.00    8.05     12.06        5.43
#   sqr cross (2 rows) 19.75  19.75    4.52     12.01        4.04
#   sqr reduce (4 rows)14.94  14.88    4.00     12.00        4.01
#   C bn_mul_mont_c    34.02  33.02   12.09     13.10          -
#   gather5 (per word)  2.44   2.44    0.82      0.44         0.63
#   gather5_gpr (word)  2.25   2.38    1.00      0.50         0.51
#
use strict;
use warnings;

my $flavour = shift // 'linux64';
my $output  = shift;
if (defined $flavour && $flavour =~ /\.\w+$/ && !defined $output) {
    ($output, $flavour) = ($flavour, 'linux64');
}
$flavour = 'linux64' if $flavour eq 'void' || $flavour eq '';
die "armv8-mont.pl: unknown flavour '$flavour'\n"
    unless $flavour =~ /^(linux64|ios64)$/;

my $dir = $0; $dir =~ s{[^/]*$}{};
my $xlate = "${dir}../../../perlasm/arm-xlate.pl";
my $out;
if ($flavour eq 'ios64') {
    open $out, "| \"$^X\" \"$xlate\" $flavour \"$output\""
        or die "armv8-mont.pl: can't run $xlate: $!\n";
} elsif (defined $output) {
    open $out, '>', $output or die "armv8-mont.pl: can't write $output: $!\n";
} else {
    $out = \*STDOUT;
}

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

# T[0..3] += cin + high halves shifted up one word; cout = carry word.
sub add_hi_chain {
    my ($cin, $cout) = @_;
    return <<___;
	adds	$t[0], $t[0], $cin
	adcs	$t[1], $t[1], $a[0]
	adcs	$t[2], $t[2], $a[1]
	adcs	$t[3], $t[3], $a[2]
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
	tst	$num, #3
	b.ne	.Lmul1x
	cmp	$num, #4			// one group: no inner loop
	b.eq	.Lmul4x1
	tst	$num, #7
	b.ne	.Lmul4x
	cmp	$ap, $bp
	b.eq	.Lsqr8x
	b	.Lmul4x
___

# ---- word-serial path ------------------------------------------------------
my ($x, $lo, $hi) = ($t[0], $p[0], $p[1]);
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
	mul	$lo, $a[0], $b
	umulh	$hi, $a[0], $b
	adds	$x, $x, $lo
	adc	$hi, $hi, xzr
	adds	$x, $x, $ca
	adc	$ca, $hi, xzr
	mul	$lo, $a[1], $m
	umulh	$hi, $a[1], $m
	adds	$x, $x, $lo
	adc	$hi, $hi, xzr
	adds	$x, $x, $cn
	adc	$cn, $hi, xzr
	stur	$x, [$tpw, #-16]
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
.L${pfx}_sub:
	ldp	$t[0], $t[1], [$tpw], #32
	ldp	$n[0], $n[1], [$npw], #32
	ldp	$t[2], $t[3], [$tpw, #-16]
	ldp	$n[2], $n[3], [$npw, #-16]
	sub	$cnt, $cnt, #4
	sbcs	$t[0], $t[0], $n[0]
	sbcs	$t[1], $t[1], $n[1]
	sbcs	$t[2], $t[2], $n[2]
	sbcs	$t[3], $t[3], $n[3]
	stp	$t[0], $t[1], [$apw], #32
	stp	$t[2], $t[3], [$apw, #-16]
	cbnz	$cnt, .L${pfx}_sub
	sbcs	$top, $top, xzr		// C = 0: T < np, keep T
	mov	$tpw, $src
	mov	$apw, $rp
	mov	$cnt, $num
.L${pfx}_sel:
	ldp	$t[0], $t[1], [$tpw]
	ldp	$n[0], $n[1], [$apw]
	ldp	$t[2], $t[3], [$tpw, #16]
	ldp	$n[2], $n[3], [$apw, #16]
	sub	$cnt, $cnt, #4
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

# One row of the 4-way path.  $first: T = 0 (no loads, no T additions).
sub mul4x_row {
    my ($L, $first, $single) = @_;
    my $s = <<___;
	ldr	$b, [$bp], #8
	mov	$apw, $ap
	mov	$npw, $np
	mov	$tpw, sp
	ldp	$a[0], $a[1], [$apw], #32
	ldp	$a[2], $a[3], [$apw, #-16]
___
    $s .= $first ? "\tadd\t$tpw, $tpw, #32\n"
                 : "\tldp\t$t[0], $t[1], [$tpw], #32\n\tldp\t$t[2], $t[3], [$tpw, #-16]\n";
    $s .= mul4($b);
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
	ldp	$a[0], $a[1], [$apw], #32
	ldp	$a[2], $a[3], [$apw, #-16]
___
    $s .= $first ? "\tadd\t$tpw, $tpw, #32\n"
                 : "\tldp\t$t[0], $t[1], [$tpw], #32\n\tldp\t$t[2], $t[3], [$tpw, #-16]\n";
    $s .= mul4($b);
    if ($first) {
        $s .= <<___;
	adds	$t[0], $p[0], $ca
	adcs	$t[1], $p[1], $a[0]
	adcs	$t[2], $p[2], $a[1]
	adcs	$t[3], $p[3], $a[2]
	adc	$ca, $a[3], xzr
___
    } else {
        $s .= add_lo_chain() . add_hi_chain($ca, $ca);
    }
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
$code .= ".Lmul4x_done:\n";
$code .= final4('mul4x', 'sp');
$code .= <<___;
	mov	x0, #1
	b	.Lmont_ret
___

# ---- squaring path -------------------------------------------------------------
# S (2*num words) at sp: cross products, doubled plus diagonal, then
# reduced in place by num rows of S[i..i+num-1] += np*m (S[i] -> 0).
# Row pointers: x2 = &a[i+1] after loading a[i], x8 = &S[2i+1], x6 = row length.
my ($arow, $srow, $rlen, $ai, $c) = ('x2', 'x8', 'x6', $b, $ca);
my $rrow = 'x2';                # reduction row pointer (x8 is m then)

# One cross-product row: S[2i+1 ..] (+)= a[i] * a[i+1 .. num-1]; $first: store.
sub sqr_row {
    my ($L, $first) = @_;
    my $s = <<___;
	ldr	$ai, [$arow], #8
	mov	$apw, $arow
	mov	$tpw, $srow
	mov	$c, #0
	ands	$cnt, $rlen, #3
	b.eq	${L}_4
${L}_1:
	ldr	$a[0], [$apw], #8
___
    $s .= "\tldr\t$t[0], [$tpw]\n" unless $first;
    $s .= <<___;
	mul	$p[0], $a[0], $ai
	umulh	$a[0], $a[0], $ai
	sub	$cnt, $cnt, #1
___
    $s .= $first ? <<___ : <<___;
	adds	$t[0], $p[0], $c
	adc	$c, $a[0], xzr
___
	adds	$t[0], $t[0], $p[0]
	adc	$a[0], $a[0], xzr
	adds	$t[0], $t[0], $c
	adc	$c, $a[0], xzr
___
    $s .= <<___;
	str	$t[0], [$tpw], #8
	cbnz	$cnt, ${L}_1
${L}_4:
	lsr	$cnt, $rlen, #2
	cbz	$cnt, ${L}_end
${L}_4l:
	ldp	$a[0], $a[1], [$apw], #32
	ldp	$a[2], $a[3], [$apw, #-16]
___
    $s .= "\tldp\t$t[0], $t[1], [$tpw]\n\tldp\t$t[2], $t[3], [$tpw, #16]\n" unless $first;
    $s .= mul4($ai);
    if ($first) {
        $s .= <<___;
	adds	$t[0], $p[0], $c
	adcs	$t[1], $p[1], $a[0]
	adcs	$t[2], $p[2], $a[1]
	adcs	$t[3], $p[3], $a[2]
	adc	$c, $a[3], xzr
___
    } else {
        $s .= add_lo_chain() . add_hi_chain($c, $c);
    }
    $s .= <<___;
	sub	$cnt, $cnt, #1
	stp	$t[0], $t[1], [$tpw], #32
	stp	$t[2], $t[3], [$tpw, #-16]
	cbnz	$cnt, ${L}_4l
${L}_end:
	str	$c, [$tpw]			// S[i+num]
	add	$srow, $srow, #16
___
    return $s;
}

$code .= <<___;
.Lsqr8x:
	sub	sp, sp, $num, lsl #3		// 2*num words and more
	sub	sp, sp, #32			// spill slots above S (reduction)
	str	xzr, [sp]			// S[0]
	add	$cnt, sp, $num, lsl #4
	stur	xzr, [$cnt, #-8]		// S[2*num-1]
	mov	$arow, $ap
	add	$srow, sp, #8
	sub	$rlen, $num, #1
___
$code .= sqr_row('.Lsqr8x_r0', 1);
# Rows i, i+1 (i odd) per pass: row i's first two products alone, then a
# joint window where row i+1's a words lag one behind (x11), then the two
# fresh top words S[i+num], S[i+num+1].
my ($aj, $wprev, $xt) = ($top, $npw, 'x30');
my @w = @a;
$code .= <<___;
	sub	$rlen, $rlen, #1		// rows 1 .. num-2 left
.Lsqr8x_pair:
	ldp	$ai, $aj, [$arow], #16
	mov	$apw, $arow
	mov	$tpw, $srow
	ldr	$wprev, [$apw], #8		// a[i+2]
	ldp	$t[0], $t[1], [$tpw]
	mul	$p[0], $aj, $ai
	mul	$p[1], $wprev, $ai
	umulh	$p[2], $aj, $ai
	umulh	$p[3], $wprev, $ai
	adds	$t[0], $t[0], $p[0]
	adcs	$t[1], $t[1], $p[1]
	adc	$c, $p[3], xzr
	adds	$t[1], $t[1], $p[2]
	adc	$c, $c, xzr
	stp	$t[0], $t[1], [$tpw], #16
	mov	$cn, #0
	sub	$cnt, $rlen, #2			// joint length num-3-i
	ands	$cnt, $cnt, #3
	b.eq	.Lsqr8x_pair_4
.Lsqr8x_pair_1:
	ldr	$w[0], [$apw], #8
	ldr	$t[0], [$tpw]
	mul	$p[0], $w[0], $ai
	umulh	$p[1], $w[0], $ai
	mul	$p[2], $wprev, $aj
	umulh	$p[3], $wprev, $aj
	adds	$t[0], $t[0], $p[0]
	adc	$p[1], $p[1], xzr
	adds	$t[0], $t[0], $c
	adc	$c, $p[1], xzr
	adds	$t[0], $t[0], $p[2]
	adc	$p[3], $p[3], xzr
	adds	$t[0], $t[0], $cn
	adc	$cn, $p[3], xzr
	mov	$wprev, $w[0]
	sub	$cnt, $cnt, #1
	str	$t[0], [$tpw], #8
	cbnz	$cnt, .Lsqr8x_pair_1
.Lsqr8x_pair_4:
	sub	$cnt, $rlen, #2
	lsr	$cnt, $cnt, #2
	cbz	$cnt, .Lsqr8x_pair_end
# LLVM-MCA-BEGIN armv8_mont_sqr_cross
# LLVM-MCA-UNITS 4 limbs
.Lsqr8x_pair_4l:
	ldp	$w[0], $w[1], [$apw], #32
	ldp	$w[2], $w[3], [$apw, #-16]
	ldp	$t[0], $t[1], [$tpw], #32
	ldp	$t[2], $t[3], [$tpw, #-16]
___
$code .= red_row($ai, [@w], 0, $c, $c, 0, $xt);
$code .= red_row($aj, [$wprev, @w[0 .. 2]], 0, $cn, $cn, 0, $xt);
$code .= <<___;
	mov	$wprev, $w[3]
	sub	$cnt, $cnt, #1
	stp	$t[0], $t[1], [$tpw, #-32]
	stp	$t[2], $t[3], [$tpw, #-16]
	cbnz	$cnt, .Lsqr8x_pair_4l
# LLVM-MCA-END
.Lsqr8x_pair_end:
	mul	$p[0], $wprev, $aj		// a[i+1]*a[num-1] at S[i+num]
	umulh	$p[1], $wprev, $aj
	adds	$p[0], $p[0], $c
	adc	$p[1], $p[1], xzr
	adds	$p[0], $p[0], $cn
	adc	$p[1], $p[1], xzr
	stp	$p[0], $p[1], [$tpw]
	add	$srow, $srow, #32
	subs	$rlen, $rlen, #2
	b.ne	.Lsqr8x_pair

	// S = 2*S + sum a[k]^2 2^(128k): shift via extr, one adcs chain
	mov	$apw, $ap
	mov	$tpw, sp
	mov	$cnt, $num
	mov	$srow, xzr
	cmn	xzr, xzr			// C = 0
.Lsqr8x_dbl:
	ldr	$a[0], [$apw], #8
	ldp	$t[0], $t[1], [$tpw]
	mul	$p[0], $a[0], $a[0]
	umulh	$p[1], $a[0], $a[0]
	extr	$t[2], $t[1], $t[0], #63
	extr	$t[3], $t[0], $srow, #63
	mov	$srow, $t[1]
	sub	$cnt, $cnt, #1
	adcs	$t[3], $t[3], $p[0]
	adcs	$t[2], $t[2], $p[1]
	stp	$t[3], $t[2], [$tpw], #16
	cbnz	$cnt, .Lsqr8x_dbl
___
# reduction registers
my ($m0, $m1, $c0, $c1, $nprev, $tmp) = ($b, $m, $ca, $cn, 'x10', 'x1');   # red_row's tmp is x1
my @n = @a;

# One row's contribution to the window @t: words @w times $mm; lo halves
# at @t[lo positions], hi halves one up; carry in $cin (or none), out $cout.
# $skip0: the lowest lo half is known to cancel T word $t[$pos0] (cmp trick).
sub red_row {
    my ($mm, $w, $pos0, $cin, $cout, $skip0, $tmp) = @_;
    $tmp //= 'x1';
    my @w = @$w;                       # words multiplied, for positions pos0..
    my $k = scalar @w;                 # 3 or 4 products
    my $s = '';
    for my $i (0 .. $k - 1) {
        next if $i == 0 && $skip0;
        $s .= "\tmul\t$p[$i], $w[$i], $mm\n";
    }
    # lo chain over positions pos0..pos0+k-1 (must end at t[3])
    for my $i (0 .. $k - 1) {
        my $tp = $t[$pos0 + $i];
        if ($i == 0) {
            $s .= $skip0 ? "\tcmp\t$tp, #1\n" : "\tadds\t$tp, $tp, $p[0]\n";
        } else {
            $s .= "\tadcs\t$tp, $tp, $p[$i]\n";
        }
    }
    $s .= "\tadc\t$tmp, xzr, xzr\n";
    $s .= "\tumulh\t$p[$_], $w[$_], $mm\n" for 0 .. $k - 1;
    # hi chain: position pos0 gets cin, pos0+1.. get hi halves
    my $first = 1;
    if (defined $cin) {
        $s .= "\tadds\t$t[$pos0], $t[$pos0], $cin\n";
        $first = 0;
    }
    for my $i (0 .. $k - 2) {
        my $tp = $t[$pos0 + 1 + $i];
        $s .= ($first ? "\tadds" : "\tadcs") . "\t$tp, $tp, $p[$i]\n";
        $first = 0;
    }
    $s .= "\tadc\t$cout, $p[$k - 1], $tmp\n";
    return $s;
}

# Montgomery reduction, four rows (i .. i+3) per pass over S[i .. i+num+3]:
# row i+k adds np*m_k at S[i+k ..].  The window is four words of S; row k
# multiplies the np words that lag k behind the window (a ring of eight np
# registers, two groups per loop iteration, so no register moves).  Each
# row keeps its own carry word c_k into the next window.  The first window
# (head) computes m_0..m_3 one after the other and skips the products of
# np words below np[0]; the last window (tail, S[i+num .. i+num+3]) has no
# new np words, only the lagging ones, the four carries and the running
# top bit.  The carry out of the tail is at most 1 (sum_k m_k np 2^(64k)
# < 2^(64(num+4))), the new top.  rp, np and n0 are spilled to the 32
# bytes above S (allocated at .Lsqr8x): the pass needs 29 registers.
my @ringA = ('x0', 'x3', 'x4', 'x10');
my @ringB = ('x16', 'x17', 'x19', 'x20');
my @mk = ('x7', 'x8', 'x23', 'x24');
my @ck = ('x13', 'x14', 'x6', 'x30');
my @pq = ('x21', 'x22');
my $rtmp = 'x1';

# row: words @$w times $mm into @t[pos0 .. 3]; lo chain then hi chain,
# products interleaved with the additions (mul/umulh leave the flags);
# carry in $cin (or none), carry word out in $cout.
sub red_row2 {
    my ($mm, $w, $pos0, $cin, $cout) = @_;
    my @w = @$w;
    my $k = scalar @w;
    my $s = '';
    for my $j (0 .. $k - 1) {
        my $pj = $pq[$j % 2];
        $s .= "\tmul\t$pj, $w[$j], $mm\n";
        $s .= ($j == 0 ? "\tadds" : "\tadcs") . "\t$t[$pos0 + $j], $t[$pos0 + $j], $pj\n";
    }
    $s .= "\tadc\t$rtmp, xzr, xzr\n";
    my $flags = 0;
    if (defined $cin) {
        $s .= "\tadds\t$t[$pos0], $t[$pos0], $cin\n";
        $flags = 1;
    }
    for my $j (0 .. $k - 2) {
        my $pj = $pq[$j % 2];
        $s .= "\tumulh\t$pj, $w[$j], $mm\n";
        $s .= ($flags ? "\tadcs" : "\tadds") . "\t$t[$pos0 + 1 + $j], $t[$pos0 + 1 + $j], $pj\n";
        $flags = 1;
    }
    my $pl = $pq[($k - 1) % 2];
    $s .= "\tumulh\t$pl, $w[$k - 1], $mm\n";
    $s .= ($flags ? "\tadc" : "\tadd") . "\t$cout, $pl, $rtmp\n";
    return $s;
}

# chain: add the values (reg or undef per position 0..3) into @t, carry
# out added to $acc (which may be one of the values: it is read first)
sub red_chain {
    my ($v, $acc) = @_;
    my $s = '';
    my $started = 0;
    for my $j (0 .. 3) {
        my $x = $v->[$j];
        next if !$started && !defined $x;
        $x //= 'xzr';
        $s .= ($started ? "\tadcs" : "\tadds") . "\t$t[$j], $t[$j], $x\n";
        $started = 1;
    }
    $s .= "\tadc\t$acc, $acc, xzr\n";
    return $s;
}

# middle window: cur = the four np words just loaded, prev = the four before
sub red_group {
    my ($lab, $cur, $prev) = @_;
    my @seq = (@$prev, @$cur);
    my $s = <<___;
$lab:
	ldp	$t[0], $t[1], [$tpw], #32
	ldp	$t[2], $t[3], [$tpw, #-16]
	ldp	$cur->[0], $cur->[1], [$npw], #32
	ldp	$cur->[2], $cur->[3], [$npw, #-16]
___
    for my $k (0 .. 3) {
        $s .= red_row2($mk[$k], [ @seq[4 - $k .. 7 - $k] ], 0, $ck[$k], $ck[$k]);
    }
    $s .= <<___;
	stp	$t[0], $t[1], [$tpw, #-32]
	stp	$t[2], $t[3], [$tpw, #-16]
___
    return $s;
}

$code .= <<___;
	// Montgomery reduction, four rows per pass (see red_row2 above)
	add	$rtmp, sp, $num, lsl #4
	stp	$rp, $np, [$rtmp]
	str	$n0, [$rtmp, #16]
	mov	$rrow, sp
	mov	$top, #0
.Lsqr8x_red:
	add	$rtmp, sp, $num, lsl #4
	ldr	$npw, [$rtmp, #8]
	ldr	$mk[3], [$rtmp, #16]		// n0 until m3 replaces it
	mov	$tpw, $rrow
	ldp	$t[0], $t[1], [$tpw], #32
	ldp	$t[2], $t[3], [$tpw, #-16]
	ldp	$ringA[0], $ringA[1], [$npw], #32
	ldp	$ringA[2], $ringA[3], [$npw, #-16]
___
for my $k (0 .. 3) {
    $code .= "\tmul\t$mk[$k], $t[$k], $mk[3]\n";
    $code .= red_row2($mk[$k], [ @ringA[0 .. 3 - $k] ], $k, undef, $ck[$k]);
}
$code .= <<___;
	stp	$t[0], $t[1], [$tpw, #-32]	// zeros: S[i..i+3] wiped
	stp	$t[2], $t[3], [$tpw, #-16]
	mov	$cnt, $num
	b	.Lsqr8x_red_b
# LLVM-MCA-BEGIN armv8_mont_sqr_reduce
# LLVM-MCA-UNITS 16 limbs
___
$code .= red_group('.Lsqr8x_red_a', \@ringA, \@ringB);
$code .= red_group('.Lsqr8x_red_b', \@ringB, \@ringA);
$code .= <<___;
	sub	$cnt, $cnt, #8
	cbnz	$cnt, .Lsqr8x_red_a
# LLVM-MCA-END
	// tail: S[i+num .. i+num+3] += top + carries + lagging products
	ldp	$t[0], $t[1], [$tpw]
	ldp	$t[2], $t[3], [$tpw, #16]
___
# products of the tail into the free registers (ringA and the two p's)
{
    my @tmpr = (@ringA, @pq);
    # top and c0 first; the carry accumulator is top itself (read first)
    $code .= "\tadds\t$t[0], $t[0], $ck[0]\n\tadcs\t$t[1], $t[1], xzr\n"
           . "\tadcs\t$t[2], $t[2], xzr\n\tadcs\t$t[3], $t[3], xzr\n"
           . "\tadc\t$ck[0], xzr, xzr\n";           # c0 := carry count
    $code .= red_chain([ $top, undef, undef, undef ], $ck[0]);
    for my $k (1 .. 3) {
        my @w = @ringB[4 - $k .. 3];
        my (@lo, @hi);
        for my $j (0 .. $k - 1) {
            my ($l, $h) = ($tmpr[2 * $j], $tmpr[2 * $j + 1]);
            $code .= "\tmul\t$l, $w[$j], $mk[$k]\n\tumulh\t$h, $w[$j], $mk[$k]\n";
            $lo[$j] = $l;
            $hi[$j + 1] = $h;
        }
        $hi[0] = $ck[$k];
        $code .= red_chain([ @lo[0 .. 3] ], $ck[0]);
        $code .= red_chain([ @hi[0 .. 3] ], $ck[0]);
    }
}
$code .= <<___;
	mov	$top, $ck[0]			// 0 or 1
	stp	$t[0], $t[1], [$tpw]
	stp	$t[2], $t[3], [$tpw, #16]
	add	$rrow, $rrow, #32
	add	$rtmp, sp, $num, lsl #3
	cmp	$rrow, $rtmp
	b.ne	.Lsqr8x_red
	add	$rtmp, sp, $num, lsl #4
	ldp	$rp, $np, [$rtmp]
	stp	xzr, xzr, [$rtmp]
	str	xzr, [$rtmp, #16]
___
$code .= <<___;
	add	$rrow, sp, $num, lsl #3
___
$code .= final4('sqr8x', $rrow);
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
