#!/usr/bin/env perl
#
# crypto/bn/asm/armv8-words.pl - bignum word primitives for AArch64.
#
#   perl armv8-words.pl FLAVOUR OUT.S        (FLAVOUR: linux64, ios64, void)
#
# BN_ULONG bn_mul_add_words(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w);
# BN_ULONG bn_mul_words    (BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w);
# BN_ULONG bn_mul_sub_words(BN_ULONG *rp, const BN_ULONG *ap, int num, BN_ULONG w);
# void     bn_sqr_words    (BN_ULONG *rp, const BN_ULONG *ap, int num);
# BN_ULONG bn_add_words    (BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num);
# BN_ULONG bn_sub_words    (BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, int num);
# BN_ULONG bn_cnd_add_words(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
#                           int num, BN_ULONG cond);
# BN_ULONG bn_cnd_sub_words(same);
#
# num <= 0 does nothing and returns 0.
#
# Algorithm: the multiply-accumulate primitives take four words per
# iteration.  The low halves of a[j..j+3]*w are added to r[j..j+3] as one
# adds/adcs chain and the high halves, shifted up one word, as a second
# chain that starts with the running carry word; the top high half absorbs
# both chains' carries and becomes the next carry word (it cannot
# overflow: the four-word partial result is below 2^320).  That is four
# instructions per product instead of six.  num % 4 leading words go
# through a one-word loop first.  bn_mul_sub_words forms the four-word
# a*w + borrow first and subtracts it with one sbcs chain; the final
# borrow is folded into the next borrow word with cinc.
# add/sub/cnd_* run one carry chain across the whole array: the loops use
# sub/cbnz (which leave the flags alone), never subs.  cnd_* turn cond
# into an all-ones/zero mask with csetm and AND it into bp: no branch or
# address depends on cond.
#
# Importing.  The module reads no capability word (no NEON) and needs no
# file beside it for linux64/void.  It is not an OpenSSL replacement: on
# aarch64 OpenSSL takes bn_mul_add_words, bn_mul_words, bn_sqr_words,
# bn_add_words and bn_sub_words from crypto/bn/bn_asm.c, which also
# provides bn_div_words and the comba multiplications and therefore
# stays; this module beside it would define those five names twice.  So
# with -DASMCRYPT_OPENSSL the .S stops with #error instead of colliding.
#
# "bti c" (hint #34) at every entry point (these are leaf functions: lr is
# never spilled, so no PAC signing is needed) and a .note.gnu.property
# declaring BTI and PAC compatibility.
#
# Performance, measured (docs/perf/aarch64.md has the commands):
#   instructions per limb at 128 limbs under qemu (C ref -O2 / this):
#     mul_add 12.13/6.82  mul 9.14/5.07  mul_sub 16.13/6.82  sqr 7.09/4.74
#     add, sub 13.14/3.34  cnd_add, cnd_sub 14.18/4.36
#   llvm-mca-19 cycles per limb, 4-limb loops (A53 / A57 / N1 / Apple):
#     mul_add 11.75/3.26/6.01/2.54  mul 8.00/2.51/6.01/2.04
#     mul_sub 11.75/3.26/6.01/2.05  add, sub 6.50/2.26/1.51/1.03
#     cnd_add, cnd_sub 7.50/2.51/1.51/1.17
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
# x0 rp, x1 ap, then (mul*) x2 num, x3 w  or  (add/sub) x2 bp, x3 num, x4 cond
my ($rp, $ap) = ('x0', 'x1');

# After the num % 4 single limbs (loop ${L}_1x, counted by $cnt): the
# four-limb loop ${L}_loop over num / 4 steps, none when that is 0.
sub four_limb_head {
    my ($L, $name, $cnt, $num) = @_;
    return <<___;
	cbnz	$cnt, ${L}_1x
${L}_4x:
	lsr	$cnt, $num, #2
	cbz	$cnt, ${L}_done
# LLVM-MCA-BEGIN $name
# LLVM-MCA-UNITS 4 limbs
${L}_loop:
___
}
# ... and its end: store the four result words w (stp, two pairs), loop
# while $cnt, close the llvm-mca region, label _done.
sub four_limb_tail {
    my ($L, $cnt, @w) = @_;
    return <<___;
	stp	$w[0], $w[1], [$rp], #32
	stp	$w[2], $w[3], [$rp, #-16]
	cbnz	$cnt, ${L}_loop
# LLVM-MCA-END
${L}_done:
___
}
my $c = 'x5';                                   # carry / borrow word
my @a = map { "x$_" } (6, 7, 8, 9);             # a words, then high halves
my @p = map { "x$_" } (10, 11, 12, 13);         # low halves
my @r = map { "x$_" } (14, 15, 16, 17);         # r words

my $code = <<___;
// Generated by crypto/bn/asm/armv8-words.pl ($flavour).  Do not edit.
#ifdef ASMCRYPT_OPENSSL
# error "armv8-words: OpenSSL's bn_asm.c already defines these word functions on aarch64 (see the module header)"
#endif
	.text
___

sub func_begin {
    my ($name) = @_;
    return <<___;

	.globl	$name
	.type	$name, %function
	.align	5
$name:
	hint	#34			// bti c
___
}
sub func_end {
    my ($name) = @_;
    return "\t.size\t$name, .-$name\n";
}

# One four-word carry chain: d[k] = x[k] OP y[k], k = 0..3, the first with
# $first (adds, subs), the others with $next (adcs, sbcs).
sub carry_chain4 {
    my ($first, $next, $d, $x, $y) = @_;
    return join '', map { "\t" . ($_ ? $next : $first) . "\t$d->[$_], $x->[$_], $y->[$_]\n" } 0 .. 3;
}

sub mul4 {
    my ($w) = @_;
    my $s = '';
    $s .= "\tmul\t$p[$_], $a[$_], $w\n\tumulh\t$a[$_], $a[$_], $w\n" for 0 .. 3;
    return $s;
}

# ---- bn_mul_add_words / bn_mul_words / bn_mul_sub_words ----------------------
# $kind: 'add' (r += a*w), 'mul' (r = a*w), 'sub' (r -= a*w)
sub mulw {
    my ($name, $kind) = @_;
    my ($num, $w, $cnt) = ('x2', 'x3', 'x4');
    my $s = func_begin($name);
    my $L = ".L$name";
    $s .= <<___;
	sxtw	$num, w2
	mov	$c, #0
	cmp	$num, #1
	b.lt	${L}_done
	ands	$cnt, $num, #3
	b.eq	${L}_4x
${L}_1x:
	ldr	$a[0], [$ap], #8
___
    $s .= "\tldr\t$r[0], [$rp]\n" unless $kind eq 'mul';
    $s .= <<___;
	mul	$p[0], $a[0], $w
	umulh	$a[0], $a[0], $w
	sub	$cnt, $cnt, #1
___
    if ($kind eq 'add') {
        $s .= <<___;
	adds	$r[0], $r[0], $p[0]
	adc	$a[0], $a[0], xzr
	adds	$r[0], $r[0], $c
	adc	$c, $a[0], xzr
___
    } elsif ($kind eq 'mul') {
        $s .= <<___;
	adds	$r[0], $p[0], $c
	adc	$c, $a[0], xzr
___
    } else {
        $s .= <<___;
	adds	$p[0], $p[0], $c
	adc	$c, $a[0], xzr
	subs	$r[0], $r[0], $p[0]
	cinc	$c, $c, cc
___
    }
    $s .= <<___;
	str	$r[0], [$rp], #8
@{[ four_limb_head($L, $name, $cnt, $num) ]}	ldp	$a[0], $a[1], [$ap], #32
	ldp	$a[2], $a[3], [$ap, #-16]
___
    $s .= "\tldp\t$r[0], $r[1], [$rp]\n\tldp\t$r[2], $r[3], [$rp, #16]\n"
        unless $kind eq 'mul';
    $s .= mul4($w);
    $s .= "\tsub\t$cnt, $cnt, #1\n";
    my @cw = ($c, @a[0 .. 2]);          # the carry word and a*w's high words
    if ($kind eq 'add') {
        $s .= carry_chain4('adds', 'adcs', \@r, \@r, \@p)
            . "\tadc\t$a[3], $a[3], xzr\n"
            . carry_chain4('adds', 'adcs', \@r, \@r, \@cw);
    } elsif ($kind eq 'mul') {
        $s .= carry_chain4('adds', 'adcs', \@r, \@p, \@cw);
    } else {
        $s .= carry_chain4('adds', 'adcs', \@p, \@p, \@cw);
    }
    $s .= "\tadc\t$c, $a[3], xzr\n";
    $s .= carry_chain4('subs', 'sbcs', \@r, \@r, \@p) . "\tcinc\t$c, $c, cc\n"
        if $kind eq 'sub';
    $s .= four_limb_tail($L, $cnt, @r) . <<___;
	mov	x0, $c
	ret
___
    $s .= func_end($name);
    return $s;
}

$code .= mulw('bn_mul_add_words', 'add');
$code .= mulw('bn_mul_words', 'mul');
$code .= mulw('bn_mul_sub_words', 'sub');

# ---- bn_sqr_words -----------------------------------------------------------
{
    my ($num, $cnt) = ('x2', 'x4');
    my $L = '.Lbn_sqr_words';
    $code .= func_begin('bn_sqr_words');
    $code .= <<___;
	sxtw	$num, w2
	cmp	$num, #1
	b.lt	${L}_done
	tbz	$num, #0, ${L}_2x
	ldr	$a[0], [$ap], #8
	mul	$p[0], $a[0], $a[0]
	umulh	$a[0], $a[0], $a[0]
	stp	$p[0], $a[0], [$rp], #16
${L}_2x:
	lsr	$cnt, $num, #1
	cbz	$cnt, ${L}_done
${L}_loop:
	ldp	$a[0], $a[1], [$ap], #16
	sub	$cnt, $cnt, #1
	mul	$p[0], $a[0], $a[0]
	umulh	$a[0], $a[0], $a[0]
	mul	$p[1], $a[1], $a[1]
	umulh	$a[1], $a[1], $a[1]
	stp	$p[0], $a[0], [$rp], #32
	stp	$p[1], $a[1], [$rp, #-16]
	cbnz	$cnt, ${L}_loop
${L}_done:
	ret
___
    $code .= func_end('bn_sqr_words');
}

# ---- bn_add_words / bn_sub_words / bn_cnd_add_words / bn_cnd_sub_words --------
# $op 'add' or 'sub'; $cnd: bp words are ANDed with a mask made from x4.
sub addsub {
    my ($name, $op, $cnd) = @_;
    my ($bp, $num, $mask, $cnt) = ('x2', 'x3', 'x4', 'x5');
    my @b = @p;
    my $L = ".L$name";
    my ($first, $chain) = $op eq 'add' ? ('adcs', 'adcs') : ('sbcs', 'sbcs');
    my $s = func_begin($name);
    $s .= <<___;
	sxtw	$num, w3
	cmp	$num, #1
	b.lt	${L}_zero
___
    $s .= "\tcmp\t$mask, #0\n\tcsetm\t$mask, ne\n" if $cnd;
    # C = 0 before the first adcs (no carry), C = 1 before the first sbcs
    $s .= $op eq 'add' ? "\tcmn\txzr, xzr\n" : "\tcmp\txzr, xzr\n";
    $s .= <<___;
	and	$cnt, $num, #3
	cbz	$cnt, ${L}_4x
${L}_1x:
	ldr	$a[0], [$ap], #8
	ldr	$b[0], [$bp], #8
	sub	$cnt, $cnt, #1
___
    $s .= "\tand\t$b[0], $b[0], $mask\n" if $cnd;
    $s .= <<___;
	$chain	$a[0], $a[0], $b[0]
	str	$a[0], [$rp], #8
@{[ four_limb_head($L, $name, $cnt, $num) ]}	ldp	$a[0], $a[1], [$ap], #32
	ldp	$b[0], $b[1], [$bp], #32
	ldp	$a[2], $a[3], [$ap, #-16]
	ldp	$b[2], $b[3], [$bp, #-16]
	sub	$cnt, $cnt, #1
___
    $s .= join '', map { "\tand\t$b[$_], $b[$_], $mask\n" } 0 .. 3 if $cnd;
    $s .= join '', map { "\t$chain\t$a[$_], $a[$_], $b[$_]\n" } 0 .. 3;
    $s .= four_limb_tail($L, $cnt, @a);
    $s .= $op eq 'add' ? "\tcset\tx0, cs\n" : "\tcset\tx0, cc\n";
    $s .= <<___;
	ret
${L}_zero:
	mov	x0, #0
	ret
___
    $s .= func_end($name);
    return $s;
}

$code .= addsub('bn_add_words', 'add', 0);
$code .= addsub('bn_sub_words', 'sub', 0);
$code .= addsub('bn_cnd_add_words', 'add', 1);
$code .= addsub('bn_cnd_sub_words', 'sub', 1);

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
close $out or die "armv8-words.pl: error writing output: $!\n";
