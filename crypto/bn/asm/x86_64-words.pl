#!/usr/bin/env perl
# crypto/bn/asm/x86_64-words.pl - bignum word primitives for x86_64.
#
# Usage: perl crypto/bn/asm/x86_64-words.pl [FLAVOUR] [OUT.S]
#        FLAVOUR: elf | macosx | mingw64 (see perlasm/x86_64-xlate.pl)
#
# Entry points (OpenSSL ABI, BN_ULONG = 64-bit word, num is an int; num <= 0
# does nothing and returns 0):
#   bn_mul_add_words  rp[] += ap[]*w            returns the carry word
#   bn_mul_words      rp[]  = ap[]*w            returns the carry word
#   bn_mul_sub_words  rp[] -= ap[]*w            returns the borrow word
#   bn_sqr_words      rp[2i..2i+1] = ap[i]^2
#   bn_add_words      rp[] = ap[] + bp[]        returns 0/1
#   bn_sub_words      rp[] = ap[] - bp[]        returns 0/1
#   bn_cnd_add_words  rp[] = ap[] + (cond ? bp[] : 0)   constant time
#   bn_cnd_sub_words  rp[] = ap[] - (cond ? bp[] : 0)   constant time
#   bn_div_words      (h:l) / d, for OpenSSL (see its code below)
#   bn_mul_comba4/8, bn_sqr_comba4/8   4x4 / 8x8 word products, for OpenSSL
#
# Usage also: OpenSSL's perlasm command line (FLAVOUR first, OUT.S last,
# options between).  The .S must be run through the C preprocessor.
# Defines (cpp, each only if not set already):
#   ASMCRYPT_CAPWORD            capability word array read at run time
#                               (default asmcrypt_cpucap, hidden)
#   ASMCRYPT_CAPBIT_X86_BMI2, _ADX   bit numbers in it (defaults: the bits
#                               of include/asmcrypt/cpu.h; -1 = take the
#                               compiler's __BMI2__ / __ADX__ instead)
#   ASMCRYPT_OPENSSL            OpenSSL build: OPENSSL_ia32cap_P, bits 72
#                               and 83.  Replaces OpenSSL's
#                               crypto/bn/asm/x86_64-gcc.c: every symbol of
#                               that file is here (the four extra ones do
#                               not clash with OpenSSL).
#
# Algorithm.  Every loop is unrolled four times and entered Duff-style: the
# index register %rcx runs from -(num rounded up to a multiple of 4) to 0
# over pointers to the END of each array, and the first pass enters the
# body at slot (-num)&3 so that any num needs no remainder loop.  The loop
# is closed with lea + jrcxz, which leave every flag alone, so a carry can
# live in a flag across iterations.
#
#   multiply-accumulate (BMI2+ADX, chosen at run time from asmcrypt_cpucap):
#     mulx gives lo_j:hi_j = a_j*w without touching flags; the product
#     row P = sum lo_j 2^64j + hi_j 2^64(j+1) is formed on the CF chain
#     (adcx hi_{j-1}, lo_j) and added to rp on the independent OF chain
#     (adox rp_j, lo_j): two 1-cycle carry chains, one mulx per limb.
#     mul_sub adds the one's complement of P to rp on the OF chain, started
#     with OF=1, i.e. rp + ~P + 1 = rp - P, so it costs one extra `not`.
#   multiply-accumulate (mulq, every x86_64): one word-carry register.
#   add/sub: one adc/sbb chain.  cnd_*: the mask is applied with `and`, which
#     clobbers CF, so the carry is parked in a register between 4-word blocks
#     (a remainder of num%4 words is done first, one word at a time).
#
# Performance, estimated core cycles per limb at 100 limbs, apps/speed -r 9
# words (AMD EPYC family 26 model 2 = Zen 5 VM, "Oxide Virtual Turin-like
# Processor"; GMP 6.2.1 in the same run; docs/perf/x86_64-bn.md):
#
#               mulx   mulq   C ref   GMP
#   mul_add     1.72   2.33   3.10    2.46 (mpn_addmul_1)
#   mul_sub     1.74   2.23   7.21    2.22 (mpn_submul_1)
#   mul         1.32   2.10   2.15    2.08 (mpn_mul_1)
#   sqr         1.17   1.18   2.01     -
#   add            0.95       4.82    0.91 (mpn_add_n)
#   sub            0.91       3.74    0.90 (mpn_sub_n)
#   cnd_add        1.53       5.17    1.53 (mpn_cnd_add_n)
#   cnd_sub        1.37       3.82    1.40 (mpn_cnd_sub_n)
#
use strict;
use warnings;

# Arguments: [FLAVOUR] [anything ...] [OUT.S].  This also takes OpenSSL's
# perlasm command line, `perl X.pl FLAVOUR -I... CFLAGS -D... OUT.S`: the
# output is the last argument when it has an extension, the flavour the
# first one when it is neither an option nor a file name.
my @args = @ARGV;
my $output  = (@args && $args[-1] =~ /\.\w+$/) ? pop @args : undef;
my $flavour = (@args && $args[0] !~ /^-|\./) ? shift @args : 'elf';
# The translator: beside this file first (an importer's flat copy), then
# this tree's perlasm/.  Nothing else, so that a copy inside another
# project's tree never picks up that project's own x86_64-xlate.pl.
my $dir = ($0 =~ m{(.*)/}) ? $1 : '.';
my $xlate;
for ("$dir/x86_64-xlate.pl", "$dir/../../../perlasm/x86_64-xlate.pl") {
    if (-f $_) { $xlate = $_; last }
}
die "x86_64-xlate.pl not found\n" unless defined $xlate;
open(my $OUT, '|-', $^X, $xlate, $flavour, defined $output ? $output : ())
    or die "cannot run $xlate: $!\n";

# ---------------------------------------------------------------------------
# Capability word (the .S is always run through the C preprocessor).
#
#   ASMCRYPT_CAPWORD            symbol of the array of 32-bit words read at
#                               run time (default asmcrypt_cpucap, hidden)
#   ASMCRYPT_CAPBIT_X86_<F>     bit number of feature F in that array (word
#                               n>>5, bit n&31); -1: no run-time bit, F is
#                               present iff the compiler targets it (__F__)
#   ASMCRYPT_OPENSSL            shorthand: OPENSSL_ia32cap_P with OpenSSL's
#                               bit numbers (BMI2 72, ADX 83;
#                               [2] = CPUID.7.0:EBX)
# Each is set only where not defined already (a -D on the command line wins).
my %CAPBIT_DEFAULT = (          # include/asmcrypt/cpu.h, ASMCRYPT_CAP_X86_*
    BMI2 => 1, ADX => 2,
);
my %CAPBIT_OPENSSL = (BMI2 => 72, ADX => 83);
my %CAPBIT_ISA = (BMI2 => '__BMI2__', ADX => '__ADX__');

sub capword_cpp {
    my @f = sort keys %CAPBIT_DEFAULT;
    my $s = "#ifdef ASMCRYPT_OPENSSL\n# ifndef ASMCRYPT_CAPWORD\n"
          . "#  define ASMCRYPT_CAPWORD OPENSSL_ia32cap_P\n# endif\n";
    $s .= "# ifndef ASMCRYPT_CAPBIT_X86_$_\n#  define ASMCRYPT_CAPBIT_X86_$_ "
        . "$CAPBIT_OPENSSL{$_}\n# endif\n" for @f;
    $s .= "#endif\n#ifndef ASMCRYPT_CAPWORD\n"
        . "# define ASMCRYPT_CAPWORD asmcrypt_cpucap\n#endif\n";
    $s .= "#ifndef ASMCRYPT_CAPBIT_X86_$_\n# define ASMCRYPT_CAPBIT_X86_$_ "
        . "$CAPBIT_DEFAULT{$_}\n#endif\n" for @f;
    # Mach-O: the translator writes _ASMCRYPT_CAPWORD
    $s .= "#define ASMCRYPT_CAT_(a, b) a##b\n#define ASMCRYPT_XCAT_(a, b) ASMCRYPT_CAT_(a, b)\n"
        . "#define _ASMCRYPT_CAPWORD ASMCRYPT_XCAT_(_, ASMCRYPT_CAPWORD)\n";
    return $s;
}

# Jump to $absent unless every feature in @f is present (flags only).
sub cap_require {
    my ($absent, @f) = @_;
    my $s = '';
    for my $f (@f) {
        my $b = "ASMCRYPT_CAPBIT_X86_$f";
        $s .= <<___;
#if $b >= 0
	testl	\$(1 << ($b & 31)),ASMCRYPT_CAPWORD+4*($b >> 5)(%rip)
	jz	$absent
#elif !defined($CAPBIT_ISA{$f})
	jmp	$absent
#endif
___
    }
    return $s;
}
# The MULX paths need BMI2 and ADX.
my @CAP_MULX = qw(BMI2 ADX);

my $code = '';

# SysV argument registers.
my ($rp, $ap, $bp) = ('%rdi', '%rsi', '%rdx');
my $idx = '%rcx';                   # negative index, closed by jrcxz

# ---------------------------------------------------------------------------
# Helpers

# Common prologue: return 0 for num <= 0, else %r9 = num (64-bit).
# $numreg is the 32-bit register holding num.
sub entry_num {
    my ($pfx, $numreg) = @_;
    return <<___;
	xorl	%eax,%eax
	testl	$numreg,$numreg
	jle	${pfx}_ret
	movslq	$numreg,%r9
___
}

# Duff-style entry into a 4-slot loop labelled ${pfx}_0.._3.  In: %r9 = num
# (> 0).  Out: %rcx = -(num + s), s = (-num)&3; runs $clear (which must
# leave the flags the loop wants) and enters slot s.  Uses %eax.
sub duff_entry {
    my ($pfx, $clear) = @_;
    return <<___;
	movq	%r9,%rcx
	negq	%rcx
	movl	%ecx,%eax
	andl	\$3,%eax
	subq	%rax,%rcx
	cmpl	\$2,%eax
	jb	${pfx}_e01
	je	${pfx}_e2
$clear
	jmp	${pfx}_3
${pfx}_e2:
$clear
	jmp	${pfx}_2
${pfx}_e01:
	testl	%eax,%eax
	jz	${pfx}_e0
$clear
	jmp	${pfx}_1
${pfx}_e0:
$clear
___
}

# The 4-slot loop itself: $body->($k) gives the code of slot $k, whose
# operands are k*8(base,%rcx,8).
sub duff_loop {
    my ($pfx, $name, $body) = @_;
    my $s = "# LLVM-MCA-BEGIN $name\n";
    for my $k (0 .. 3) {
        $s .= "${pfx}_$k:\n" . $body->($k);
    }
    $s .= <<___;
	leaq	4(%rcx),%rcx
	jrcxz	${pfx}_done
	jmp	${pfx}_0
# LLVM-MCA-END
${pfx}_done:
___
    return $s;
}

# Branch to $label when the capability word has BMI2 and ADX (flags only).
my $nskip = 0;
sub if_mulx {
    my ($label) = @_;
    my $skip = '.Lno_mulx_' . $nskip++;
    return cap_require($skip, @CAP_MULX) . "\tjmp\t$label\n$skip:\n";
}

$code .= capword_cpp();
$code .= <<___;
.asm_extern	ASMCRYPT_CAPWORD
.asm_text
___

# ---------------------------------------------------------------------------
# bn_mul_add_words / bn_mul_words / bn_mul_sub_words
#
# mulq path registers: %r11 = w, %r8 = carry word, %r10 scratch (sub).
# mulx path registers: %rdx = w, lo %r10/%r11, hi %r8/%r9 alternating,
# %rax = 0 at the end.

my %mulop = (
    bn_mul_add_words => 'add',
    bn_mul_words     => 'mul',
    bn_mul_sub_words => 'sub',
);

for my $fn (qw(bn_mul_add_words bn_mul_words bn_mul_sub_words)) {
    my $op = $mulop{$fn};
    my $p = ".L${fn}";
    my ($w) = ('%rcx');

    $code .= ".asm_func $fn, nargs=4\n";
    $code .= entry_num($p, '%edx');
    $code .= <<___;
	leaq	($ap,%r9,8),$ap
	leaq	($rp,%r9,8),$rp
___
    $code .= if_mulx("${p}_x");

    # ---- mulq path ----
    $code .= "\tmovq\t$w,%r11\n";
    $code .= duff_entry("${p}_q", "\txorl\t%r8d,%r8d");
    $code .= duff_loop("${p}_q", "${fn}_mulq", sub {
        my $k = shift;
        my ($a, $r) = ($k * 8 . "($ap,%rcx,8)", $k * 8 . "($rp,%rcx,8)");
        # the carry word %r8 is added last, so only add/adc (2 cycles)
        # sit on the loop-carried chain; rp[j] is combined before it
        my $s = "\tmovq\t$a,%rax\n\tmulq\t%r11\n";
        if ($op eq 'add') {
            $s .= <<___;
	addq	$r,%rax
	adcq	\$0,%rdx
	addq	%r8,%rax
	adcq	\$0,%rdx
	movq	%rax,$r
___
        } elsif ($op eq 'mul') {
            $s .= <<___;
	addq	%r8,%rax
	adcq	\$0,%rdx
	movq	%rax,$r
___
        } else {
            $s .= <<___;
	movq	$r,%r10
	subq	%rax,%r10
	adcq	\$0,%rdx
	subq	%r8,%r10
	adcq	\$0,%rdx
	movq	%r10,$r
___
        }
        return $s . "\tmovq\t%rdx,%r8\n";
    });
    $code .= <<___;
	movq	%r8,%rax
${p}_ret:
.asm_ret
___

    # ---- mulx path ----
    my @lo = ('%r10', '%r11');
    my @hi = ('%r8', '%r9');
    my $clear;
    if ($op eq 'sub') {
        # CF = 0 (product chain), OF = 1 (the +1 of the two's complement)
        $clear = <<___;
	xorl	%r8d,%r8d
	xorl	%r9d,%r9d
	movl	\$0x7fffffff,%eax
	addl	\$1,%eax
	movl	\$0,%eax
___
    } else {
        $clear = <<___;
	xorl	%r8d,%r8d
	xorl	%r9d,%r9d
	xorl	%eax,%eax
___
    }
    chomp $clear;
    $code .= "${p}_x:\n\tmovq\t$w,%rdx\n";
    $code .= duff_entry("${p}_x", $clear);
    $code .= duff_loop("${p}_x", "${fn}_mulx", sub {
        my $k = shift;
        my ($a, $r) = ($k * 8 . "($ap,%rcx,8)", $k * 8 . "($rp,%rcx,8)");
        my ($l, $h, $ph) = ($lo[$k % 2], $hi[$k % 2], $hi[($k + 1) % 2]);
        my $s = <<___;
	mulx	$a,$l,$h
	adcx	$ph,$l
___
        $s .= "\tadox\t$r,$l\n" if $op eq 'add';
        $s .= "\tnotq\t$l\n\tadox\t$r,$l\n" if $op eq 'sub';
        return $s . "\tmovq\t$l,$r\n";
    });
    # the last slot's high word is in $hi[1]; %rax = 0
    if ($op eq 'add') {
        $code .= <<___;
	adcx	%rax,$hi[1]
	adox	%rax,$hi[1]
	movq	$hi[1],%rax
___
    } elsif ($op eq 'mul') {
        $code .= <<___;
	adcx	%rax,$hi[1]
	movq	$hi[1],%rax
___
    } else {
        # borrow = hi + CF + (1 - OF)
        $code .= <<___;
	adcx	%rax,$hi[1]
	adox	%rax,%rax
	subq	%rax,$hi[1]
	leaq	1($hi[1]),%rax
___
    }
    $code .= ".asm_ret\n.asm_endfunc\n\n";
}

# ---------------------------------------------------------------------------
# bn_sqr_words(rp, ap, num): no carries; 4x unrolled, pointer walking.
{
    my $p = ".Lbn_sqr_words";
    $code .= ".asm_func bn_sqr_words, nargs=3\n";
    $code .= entry_num($p, '%edx');
    $code .= if_mulx("${p}_x");
    for my $v ('q', 'x') {
        my $one = $v eq 'q' ? sub {
            my $k = shift;
            return <<___;
	movq	8*$k($ap),%rax
	mulq	%rax
	movq	%rax,16*$k($rp)
	movq	%rdx,16*$k+8($rp)
___
        } : sub {
            my $k = shift;
            return <<___;
	movq	8*$k($ap),%rdx
	mulx	%rdx,%r10,%r11
	movq	%r10,16*$k($rp)
	movq	%r11,16*$k+8($rp)
___
        };
        $code .= "${p}_$v:\n" if $v eq 'x';
        $code .= <<___;
	testl	\$3,%r9d
	jz	${p}_${v}4
${p}_${v}1:
___
        $code .= $one->(0);
        $code .= <<___;
	leaq	8($ap),$ap
	leaq	16($rp),$rp
	decq	%r9
	testl	\$3,%r9d
	jnz	${p}_${v}1
	testq	%r9,%r9
	jz	${p}_${v}done
${p}_${v}4:
# LLVM-MCA-BEGIN bn_sqr_words_$v
___
        $code .= $one->($_) for 0 .. 3;
        $code .= <<___;
	leaq	32($ap),$ap
	leaq	64($rp),$rp
	subq	\$4,%r9
	jnz	${p}_${v}4
# LLVM-MCA-END
${p}_${v}done:
	xorl	%eax,%eax
___
        $code .= ".asm_ret\n" if $v eq 'q';
    }
    $code .= "${p}_ret:\n.asm_ret\n.asm_endfunc\n\n";
}

# ---------------------------------------------------------------------------
# bn_add_words / bn_sub_words: one adc/sbb chain, carry in CF throughout.
for my $fn (qw(bn_add_words bn_sub_words)) {
    my $ins = $fn eq 'bn_add_words' ? 'adcq' : 'sbbq';
    my $p = ".L$fn";
    $code .= ".asm_func $fn, nargs=4\n";
    $code .= entry_num($p, '%ecx');
    $code .= <<___;
	leaq	($ap,%r9,8),$ap
	leaq	($bp,%r9,8),%r10
	leaq	($rp,%r9,8),$rp
___
    $code .= duff_entry($p, "\tclc");
    $code .= duff_loop($p, $fn, sub {
        my $k = shift;
        my $o = $k * 8;
        return <<___;
	movq	$o($ap,%rcx,8),%r8
	$ins	$o(%r10,%rcx,8),%r8
	movq	%r8,$o($rp,%rcx,8)
___
    });
    $code .= <<___;
	setc	%al
	movzbl	%al,%eax
${p}_ret:
.asm_ret
.asm_endfunc

___
}

# ---------------------------------------------------------------------------
# bn_cnd_add_words / bn_cnd_sub_words(rp, ap, bp, num, cond)
# mask = cond ? ~0 : 0 without a branch (neg sets CF = cond != 0, sbb
# spreads it).  `and` clears CF, so the carry lives in %rax (0 or -1)
# between 4-word blocks: addq %rax,%rax recreates CF from it.
for my $fn (qw(bn_cnd_add_words bn_cnd_sub_words)) {
    my $ins = $fn eq 'bn_cnd_add_words' ? 'adcq' : 'sbbq';
    my $p = ".L$fn";
    my $mask = '%r8';
    $code .= ".asm_func $fn, nargs=5, push=rbx\n";
    $code .= entry_num($p, '%ecx');
    $code .= <<___;
	negq	$mask
	sbbq	$mask,$mask
	movq	$bp,%r10
	xorl	%eax,%eax
	testl	\$3,%r9d
	jz	${p}_4
${p}_1:
	movq	(%r10),%rcx
	andq	$mask,%rcx
	movq	($ap),%r11
	addq	%rax,%rax
	$ins	%rcx,%r11
	sbbq	%rax,%rax
	movq	%r11,($rp)
	leaq	8($ap),$ap
	leaq	8(%r10),%r10
	leaq	8($rp),$rp
	decq	%r9
	testl	\$3,%r9d
	jnz	${p}_1
	testq	%r9,%r9
	jz	${p}_done
${p}_4:
# LLVM-MCA-BEGIN $fn
	movq	(%r10),%rcx
	movq	8(%r10),%rdx
	movq	16(%r10),%rbx
	movq	24(%r10),%r11
	andq	$mask,%rcx
	andq	$mask,%rdx
	andq	$mask,%rbx
	andq	$mask,%r11
	addq	%rax,%rax
	movq	($ap),%rax
	$ins	%rcx,%rax
	movq	%rax,($rp)
	movq	8($ap),%rax
	$ins	%rdx,%rax
	movq	%rax,8($rp)
	movq	16($ap),%rax
	$ins	%rbx,%rax
	movq	%rax,16($rp)
	movq	24($ap),%rax
	$ins	%r11,%rax
	movq	%rax,24($rp)
	sbbq	%rax,%rax
	leaq	32($ap),$ap
	leaq	32(%r10),%r10
	leaq	32($rp),$rp
	subq	\$4,%r9
	jnz	${p}_4
# LLVM-MCA-END
${p}_done:
	negq	%rax
${p}_ret:
.asm_ret
.asm_endfunc

___
}

# ---------------------------------------------------------------------------
# bn_div_words(h, l, d): the quotient of the 128-bit h:l by d, for OpenSSL's
# crypto/bn (its callers keep h < d, where this is one divq).  Outside that
# contract it does not fault: d == 0 returns all ones (as OpenSSL's
# bn_asm.c does), h >= d returns the quotient mod 2^64 (h is reduced mod d
# by a first divq).  Both branches test only the contract, not the data's
# value inside it; divq itself takes a data-dependent time on most cores,
# as in every x86_64 bn_div_words.
$code .= <<___;
.asm_func bn_div_words, nargs=3
	movq	%rdx,%rcx
	movq	\$-1,%rax
	testq	%rcx,%rcx
	jz	.Lbn_div_words_ret
	movq	%rdi,%rdx
	cmpq	%rcx,%rdi
	jb	.Lbn_div_words_lo
	movq	%rdi,%rax
	xorl	%edx,%edx
	divq	%rcx
.Lbn_div_words_lo:
	movq	%rsi,%rax
	divq	%rcx
.Lbn_div_words_ret:
.asm_ret
.asm_endfunc

___

# ---------------------------------------------------------------------------
# Fixed-size products for OpenSSL's crypto/bn (bn_mul.c, bn_sqr.c), which
# x86_64 gets from the same file as the word functions above:
#   bn_mul_comba4(r[8], a[4], b[4])    bn_mul_comba8(r[16], a[8], b[8])
#   bn_sqr_comba4(r[8], a[4])          bn_sqr_comba8(r[16], a[8])
# r must not overlap a or b.  Column by column (product scanning): column k
# adds every a[i]*b[k-i] into a three-word accumulator, stores its low word
# as r[k] and shifts the accumulator down one word.  For squares, a[i]*a[j]
# with i < j is added twice and a[i]^2 once.  Fully unrolled by the
# generator below, straight-line code (no branch, no data-dependent
# address).  Registers: b in %rcx (mulq takes %rdx), accumulator words
# rotate through %r8, %r9, %r10.
sub comba {
    my ($name, $n, $sqr) = @_;
    my @acc = ('%r8', '%r9', '%r10');
    my $bsrc = $sqr ? '%rsi' : '%rcx';
    my $s = ".asm_func $name, nargs=" . ($sqr ? 2 : 3) . "\n";
    $s .= "\tmovq\t%rdx,%rcx\n" unless $sqr;
    $s .= "\txorl\t%r8d,%r8d\n\txorl\t%r9d,%r9d\n";
    my $add = sub {
        my ($c0, $c1, $c2) = @acc;
        return "\taddq\t%rax,$c0\n\tadcq\t%rdx,$c1\n\tadcq\t\$0,$c2\n";
    };
    for my $k (0 .. 2 * $n - 2) {
        my ($c0, $c1, $c2) = @acc;
        $s .= "\txorl\t${c2}d,${c2}d\n";
        my $lo = $k < $n ? 0 : $k - $n + 1;
        my $hi = $k < $n ? $k : $n - 1;
        for my $i ($lo .. $hi) {
            my $j = $k - $i;
            next if $sqr && $i > $j;
            $s .= "\tmovq\t" . 8 * $i . "(%rsi),%rax\n";
            $s .= "\tmulq\t" . 8 * $j . "($bsrc)\n";
            $s .= $add->();
            $s .= $add->() if $sqr && $i < $j;
        }
        $s .= "\tmovq\t$c0," . 8 * $k . "(%rdi)\n";
        @acc = ($c1, $c2, $c0);
    }
    $s .= "\tmovq\t$acc[0]," . 8 * (2 * $n - 1) . "(%rdi)\n";
    $s .= ".asm_ret\n.asm_endfunc\n\n";
    return $s;
}
$code .= comba('bn_mul_comba4', 4, 0) . comba('bn_mul_comba8', 8, 0)
       . comba('bn_sqr_comba4', 4, 1) . comba('bn_sqr_comba8', 8, 1);

$code .= ".asm_note\n";

print $OUT $code;
close($OUT) or die "x86_64-xlate.pl failed\n";
