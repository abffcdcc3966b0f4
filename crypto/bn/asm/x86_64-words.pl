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
# Algorithm.  Every loop is unrolled four times and closed with lea +
# jrcxz, which leave every flag alone, so a carry can live in a flag across
# iterations: the index register %rcx runs up to 0 over pointers to the END
# of each array.  add/sub enter the loop Duff-style (the first pass enters
# the body at slot (-num)&3, so any num needs no remainder loop).
#
#   multiply-accumulate (mul_add, mul, mul_sub): calls of a few limbs are
#     the common case, so the low bits of num are done first by straight-
#     line pieces of 1, 2, 4, 8 (and on the mulx path 16) limbs, one per
#     set bit, each ending its carries in a carry word and followed by a
#     return when no higher bit is set; only a multiple of 16 (mulx path:
#     32) limbs reaches the loop, and on the mul_add and mul_sub mulx
#     paths a call of 32-63 limbs does its top 32 by one more piece, so
#     only 64 limbs and more reach their loop.  num == 1 is
#     tested before everything else and done inline (5-6 instructions,
#     the mulq code at every level);
#     2..4 limbs are straight-line code of their own (one product chain,
#     one rp chain, no bit tests).  A
#     piece of one or two limbs is a product chain then an rp chain, both
#     plain add/adc (RMW on rp);
#     bigger pieces are runs of two-limb ones on the mulx path (this beat
#     the loop's adcx/adox slots below 16 limbs, whose flag set-up and fold
#     cost more than their two chains save) and mulq slots on the mulq path.
#   the loop (BMI2+ADX, chosen at run time from asmcrypt_cpucap):
#     mulx gives lo_j:hi_j = a_j*w without touching flags; the product
#     row P = sum lo_j 2^64j + hi_j 2^64(j+1) is formed on the CF chain
#     (adcx hi_{j-1}, lo_j) and added to rp on the independent OF chain
#     (adox rp_j, lo_j): two 1-cycle carry chains, one mulx per limb.
#     mul_sub adds the one's complement of P to rp on the OF chain, started
#     with OF=1, i.e. rp + ~P + 1 = rp - P, so it costs one extra `not`.
#   the loop (mulq, every x86_64): one word-carry register.
#   add/sub: one adc/sbb chain.  cnd_*: the mask is applied with `and`, which
#     clobbers CF, so the carry is parked in a register between 4-word blocks
#     (a remainder of num%4 words is done first, one word at a time).
#
# Performance, apps/speed -s 1-10,16,32,100 mul_add mul_sub mul (7 rounds,
# interleaved, medians of per-round ratios; AMD EPYC family 26 model 2 =
# Zen 5 VM, "Oxide Virtual Turin-like Processor"; GMP 6.2.1 in the same
# run; docs/perf/x86_64-small.md has every size and the run before the
# pieces).  Time of the mulx path relative to GMP (mpn_addmul_1,
# mpn_submul_1, mpn_mul_1) and to our C reference:
#
#   limbs           1     2     3     4     5     8    10    16    32   100
#   mul_add/GMP   1.18  0.95  1.01  0.95  0.95  0.76  0.79  0.96  0.85  0.69
#   mul_sub/GMP   0.99  0.97  0.99  0.99  0.94  0.84  0.87  0.87  0.99  0.76
#   mul/GMP       0.92  1.09  0.92  0.76  0.80  0.78  0.83  0.85  0.77  0.64
#   mul_add/C     1.16  0.74  0.67  0.67  0.71  0.61  0.65  0.72  0.67  0.64
#   mul_sub/C     0.71  0.53  0.45  0.39  0.38  0.33  0.33  0.27  0.28  0.25
#   mul/C         1.30  1.27  1.00  0.90  0.95  0.79  0.83  0.77  0.49  0.55
#   (mulq path/C, 1..10, 16, 32, 100 limbs: mul_add 0.68-0.95 but
#   1.17 at 1 limb; mul_sub 0.33-0.71; mul 1.48, 1.33 at 1, 2
#   limbs, 1.07 at 4, else 0.66-1.00.)  Single calls of 1-3 limbs take
#   4-8 cycles, where one cycle is 15-25%, and the layout of the code alone
#   moved them by up to a third (hence the 64-byte entry alignment); the
#   1-limb figures moved by about 0.15 between runs of one binary.
#   With the inline one-limb entry and mul_add's 16-limb pieces (Zen 4 VM,
#   AMD EPYC family 25 model 17, two runs): mul/C 1.00 (mulx) and
#   1.00-1.05 (mulq) at 1 limb, 0.89 at 2; mul_add/GMP 0.66-0.60 at 1
#   limb, 0.88 at 16, 0.92 at 20, but 1.07-1.09 at 32; mul_sub/GMP 0.56-
#   0.60 at 1 limb, 1.2 at 32 (its mulx loop entered directly).
#   With the straight-line 2..4-limb entries (Zen 5 VM, est. core cycles
#   per call, old -> new, medians of three runs alternating the builds):
#   mul_add 7.99 -> 5.99, 7.99 -> 6.99, 8.99 -> 6.99 at 2, 3, 4 limbs
#   (GMP 6.99, 7.23, 8.25); mul_sub 7.99 -> 6.99, 7.99, 8.99 -> 7.99 (GMP
#   6.99, 7.22, 8.25); mul 7.00, 7.99 -> 6.99, 7.99 -> 6.99 (C 5.99, 6.99,
#   8.68); 1 and 5+ limbs unchanged; 3-limb instructions 76-78 -> 61-62.
#   mul at 2 limbs, the mulq code at every level (stop 26; time relative
#   to C, four runs alternating the builds): mulx level 1.093-1.167 ->
#   1.000 (GMP 1.006); 1, 3, 4 and 5 limbs unchanged (1.00, 1.00,
#   0.72-0.83, 0.97).
#   2026-12-07 (Zen 5 VM; apps/speed -q -r 7 -t 0.12 -s 1-50 and 51-100,
#   two runs, main c322328 -> this; time relative to GMP / to C):
#                          before          after
#   mul_sub/GMP  3        0.829-0.830     0.827-0.968
#                6        1.028-1.029     0.976
#               32        0.994-0.995     0.883
#               34        1.014           0.910-0.911
#   mul mulq/C   1        1.001-1.182     0.998-1.000
#   mul_add mulq/C 1      0.772-1.198     0.667-0.801
#   (mul_sub at 32-63 limbs: 16 pairs instead of one loop run; one limb:
#   the mulq code at every level, no capability test; apps/speed's
#   timing loops now start a 64-byte line, which moved the 1-3-limb
#   figures by up to 25% by themselves.)  In-process A/B of the two
#   objects (same binary, interleaved): mul_sub 0.89-0.91x the old time at
#   32-34 limbs, 0.93-0.98x at 35-40; mul at one limb 0.78-0.80x on the
#   mulq level (0.70x C); every other size within about 1% (2-3% at a
#   few sizes of unchanged code: placement).
#
# Estimated core cycles per limb at 100 limbs (same run; sqr..cnd_sub from
# the earlier run of the 4-slot loops, unchanged):
#
#               mulx   mulq   C ref   GMP
#   mul_add     1.52   2.22   2.37    2.20 (mpn_addmul_1)
#   mul_sub     1.74   2.23   7.23    2.20 (mpn_submul_1)
#   mul         1.31   2.10   2.39    2.07 (mpn_mul_1)
#   sqr         1.17   1.18   2.01     -
#   add            0.95       4.82    0.91 (mpn_add_n)
#   sub            0.91       3.74    0.90 (mpn_sub_n)
#   cnd_add        1.53       5.17    1.53 (mpn_cnd_add_n)
#   cnd_sub        1.37       3.82    1.40 (mpn_cnd_sub_n)
#
use strict;
use warnings;

# Arguments: [FLAVOUR] [anything ...] [OUT.S], OpenSSL's perlasm command
# line included (docs/adding-a-module.md, "The script's command line").
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
    my ($pfx, $name, $body, $n) = @_;
    $n //= 4;
    my $s = "# LLVM-MCA-BEGIN $name\n";
    $s .= "# LLVM-MCA-UNITS $n limbs\n" if $n != 4;
    for my $k (0 .. $n - 1) {
        $s .= "${pfx}_$k:\n" . $body->($k);
    }
    $s .= <<___;
	leaq	$n(%rcx),%rcx
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
# Calls of a few limbs are common (and were where this lost to C and to
# GMP), so the low num%4 limbs are done first by straight-line pieces:
# one limb if num&1, then two if num&2, each leaving its carry in a
# register, and only the rest, a multiple of 4, goes through the 4x loop,
# entered at its top with that carry.  Calls of 1..4 limbs have entries of
# their own (one_limb, few_limbs below) and never reach the pieces; every
# branch is on num only.  The one-limb piece is always the first, so it has no carry in.  Pieces use
# plain add/adc chains (an RMW add/adc/sub/sbb on rp); the final borrow of
# mul_sub is the product's high word plus the borrow out of the
# subtraction, as in the C reference.
#
# mulq path registers: %r11 = w, %r8 = carry word, %r9/%r10 scratch.
# mulx path registers: %rdx = w, %r9 = carry word (the high word slot 0 of
# the loop adds), lo %r10/%r11, hi %r8/%r9 alternating in the loop.

my %mulop = (
    bn_mul_add_words => 'add',
    bn_mul_words     => 'mul',
    bn_mul_sub_words => 'sub',
);

# Combine the low words of a piece (or of a few-limb call) with rp: the
# words of @$lo into rp[0], rp[1], ... at byte offset $o; the carry
# (borrow) out goes into $h (the piece's top word).
sub piece_rp {
    my ($op, $h, $lo, $o) = @_;
    $o //= 0;
    my ($i0, $i1) = $op eq 'add' ? ('addq', 'adcq') : ('subq', 'sbbq');
    my $s = '';
    for my $i (0 .. $#$lo) {
        my $m = $o + 8 * $i;
        my $r = $m ? "$m($rp)" : "($rp)";
        my $ins = $op eq 'mul' ? 'movq' : $i ? $i1 : $i0;
        $s .= "\t$ins\t$lo->[$i],$r\n";
    }
    $s .= "\tadcq\t\$0,$h\n" unless $op eq 'mul';
    return $s;
}

# One-limb piece (first, carry in 0) and two-limb piece (carry in/out in
# $c), for the mulx ('x') or the mulq ('q') path.
sub piece1 {
    my ($op, $v) = @_;
    my $s;
    if ($v eq 'x') {
        $s = "\tmulx\t($ap),%r10,%r9\n" . piece_rp($op, '%r9', ['%r10']);
    } else {
        $s = "\tmovq\t($ap),%rax\n\tmulq\t%r11\n" . piece_rp($op, '%rdx', ['%rax'])
           . "\tmovq\t%rdx,%r8\n";
    }
    return $s . "\tleaq\t8($ap),$ap\n\tleaq\t8($rp),$rp\n";
}

# Two limbs at byte offset $o of ap/rp, carry word in $cin, out in $cout
# (mulx path: %r9/%r8, alternating along a run of them, so a run needs no
# copies; mulq path: %r8 both).  No pointer update.
sub pair {
    my ($op, $v, $o, $cin, $cout) = @_;
    my $o8 = $o + 8;
    my ($a0, $a1) = ($o ? "$o($ap)" : "($ap)", "$o8($ap)");
    my $s;
    if ($v eq 'x') {
        $s = <<___;
	mulx	$a0,%r10,%r11
	mulx	$a1,%rax,$cout
	addq	$cin,%r10
	adcq	%r11,%rax
	adcq	\$0,$cout
___
        $s .= piece_rp($op, $cout, ['%r10', '%rax'], $o);
    } else {
        $s = <<___;
	movq	$a0,%rax
	mulq	%r11
	movq	%rax,%r9
	movq	%rdx,%r10
	movq	$a1,%rax
	mulq	%r11
	addq	%r8,%r9
	adcq	%r10,%rax
	adcq	\$0,%rdx
___
        $s .= piece_rp($op, '%rdx', ['%r9', '%rax'], $o) . "\tmovq\t%rdx,%r8\n";
    }
    return $s;
}

sub piece2 {
    my ($op, $v) = @_;
    my $s = $v eq 'x' ? pair($op, $v, 0, '%r9', '%r8') . "\tmovq\t%r8,%r9\n"
                      : pair($op, $v, 0, '%r8', '%r8');
    return $s . "\tleaq\t16($ap),$ap\n\tleaq\t16($rp),$rp\n";
}

# mulx path: a run of $k pairs (k even: the carry ends in %r9 again)
sub pairs_x {
    my ($op, $k) = @_;
    my $s = '';
    for my $i (0 .. $k - 1) {
        my ($cin, $cout) = $i % 2 ? ('%r8', '%r9') : ('%r9', '%r8');
        $s .= pair($op, 'x', 16 * $i, $cin, $cout);
    }
    my $n = 16 * $k;
    return $s . "\tleaq\t$n($ap),$ap\n\tleaq\t$n($rp),$rp\n";
}

# One limb of the 4x body, operands $a (ap[j]) and $r (rp[j]).
# mulq: carry word %r8 in and out; it is added last, so only add/adc
# (2 cycles) sit on the carried chain; rp[j] is combined before it.
sub mulq_slot {
    my ($op, $a, $r) = @_;
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
}

# mulx: slot k adds the previous slot's high word on the CF chain and rp[j]
# on the OF chain; lo %r10/%r11, hi %r8/%r9 alternate, so slot 0 takes the
# carry word from %r9 and slot 3 leaves its high word there.
my @MX_LO = ('%r10', '%r11');
my @MX_HI = ('%r8', '%r9');
sub mulx_slot {
    my ($op, $k, $a, $r) = @_;
    my ($l, $h, $ph) = ($MX_LO[$k % 2], $MX_HI[$k % 2], $MX_HI[($k + 1) % 2]);
    my $s = <<___;
	mulx	$a,$l,$h
	adcx	$ph,$l
___
    $s .= "\tadox\t$r,$l\n" if $op eq 'add';
    $s .= "\tnotq\t$l\n\tadox\t$r,$l\n" if $op eq 'sub';
    return $s . "\tmovq\t$l,$r\n";
}

# Flags (and %rax = 0) for a run of mulx slots: CF = OF = 0; mul_sub:
# CF = 0 (product chain), OF = 1 (the +1 of the two's complement).
sub mulx_clear {
    my ($op) = @_;
    return "\txorl\t%eax,%eax\n" unless $op eq 'sub';
    return <<___;
	movl	\$0x7fffffff,%eax
	addl	\$1,%eax
	movl	\$0,%eax
___
}

# After a run of mulx slots: the carry word (in %r9) gets the flags back;
# mul_sub's borrow is hi + CF + (1 - OF).  %rax = 0 in.
sub mulx_tail {
    my ($op) = @_;
    return "\tadcx\t%rax,%r9\n\tadox\t%rax,%r9\n" if $op eq 'add';
    return "\tadcx\t%rax,%r9\n" if $op eq 'mul';
    return <<___;
	adcx	%rax,%r9
	adox	%rax,%rax
	subq	%rax,%r9
	leaq	1(%r9),%r9
___
}

# Four- and eight-limb pieces: two-limb pieces in a row on the mulx path
# (each ends its add/adc chains, so the next one's product chain can start
# while this one's rp chain runs; below 16 limbs this beat the loop's
# adcx/adox slots, whose flag set-up and fold cost more than their chains
# save), four-limb bodies on the mulq path.
sub piece4 {
    my ($op, $v) = @_;
    return pairs_x($op, 2) if $v eq 'x';
    my $s = '';
    $s .= mulq_slot($op, 8 * $_ . "($ap)", 8 * $_ . "($rp)") for 0 .. 3;
    return $s . "\tleaq\t32($ap),$ap\n\tleaq\t32($rp),$rp\n";
}

sub piece8 {
    my ($op, $v) = @_;
    return pairs_x($op, 4) if $v eq 'x';
    return piece4($op, $v) . piece4($op, $v);
}

sub piece32 {
    my ($op, $v) = @_;
    return pairs_x($op, 16) if $v eq 'x';
    return piece16($op, $v) . piece16($op, $v);
}

sub piece16 {
    my ($op, $v) = @_;
    return pairs_x($op, 8) if $v eq 'x';
    return piece8($op, $v) . piece8($op, $v);
}

# The pieces, then the loop.  In: %rcx = num (> 0), carry word 0.  The low
# num % 2^$nb limbs are done by the pieces of 1, 2, 4, ... 2^($nb-1) limbs
# (num&1, num&2, ..., in that order), each followed by a return ($out) when
# no higher bit of num is set, so that a call below 2^$nb limbs never enters
# the loop and falls through to its return after its last piece.  The rest
# (a multiple of 2^$nb) runs through the 4x loop: %rcx becomes the index
# -(num & -2^$nb) over pointers to the ends.  $nb is 4 on the mulq path
# and 5 on the mulx path: there the loop's slots lost to GMP from 16 to 31
# limbs while the two-limb pieces did not (mul_sub on the Zen 5 VM; mul on
# the Zen 3 VM, AMD EPYC family 25 model 1, 2026-12-07: with $nb 4 the
# mulx mul took 0.84-1.05x the time of GMP's mpn_mul_1 at 16-24 limbs and
# 0.89x at 48, with 5 0.74-0.79x and 0.76x; apps/speed --ref mpn_mul_1,
# three runs alternating the builds, docs/perf/x86_64-small.md).
#
# $top (the mul_add and mul_sub mulx paths): a call of 2^$nb .. 2^($nb+1)-1
# limbs does its 2^$nb high limbs by one more piece (sixteen two-limb
# pieces, 4 instructions a limb against the loop's 5.75) instead of one
# loop run, and only calls of 2^($nb+1) limbs and more reach the loop.
# mul_sub: on the Zen 5 VM, quiet, mul_sub at 32-34 limbs took 0.90x the
# time of the loop version (which was 1.00-1.02x GMP's submul_1) and 35-40
# limbs 0.93-0.98x; with the other vCPU busy the two were within 2% at
# 32-34 and the pieces 2-7% slower at 36-40, still at or below GMP
# (in-process A/B, docs/perf/x86_64-small.md, 2026-12-07).  mul_add: on
# the Zen 3 VM the loop took 1.00-1.05x GMP's addmul_1 at 32-40 limbs and
# 1.03x at 48, the piece 0.88-0.97x and 1.00x (three runs alternating the
# builds, 2026-12-07).  Not for mul: there the piece won at 32-40 limbs
# (0.74-0.81x GMP against the loop's 0.90-0.95x) but lost at 48-63 (0.82-
# 0.84x against 0.76-0.80x), same runs.  Not for 64 limbs and more: there
# the loop after a 32-limb piece ran 1.06-1.10x slower than the loop alone
# (mul_sub, 96-100 limbs, Zen 5), so the loop takes every multiple of
# 2^$nb as before.  (Also tried: after each piece, a test that jumps
# straight to the loop when no smaller piece is left, two taken branches
# fewer at 33-35 limbs: 1-2% slower at 5-31 limbs, no gain at 32-40.)
sub mul_head {
    my ($p, $op, $v, $out, $clear, $nb, $top) = @_;
    my $lim = 1 << $nb;
    my $big = $top ? "${p}_top" : "${p}_loop";
    my $s = <<___;
	testb	\$@{[$lim - 1]},%cl
	jz	$big
___
    my @piece = (\&piece1, \&piece2, \&piece4, \&piece8, \&piece16, \&piece32);
    for my $i (0 .. $nb - 1) {
        my $bit = 1 << $i;
        my $next = $i < $nb - 1 ? "${p}_p" . (2 * $bit) : $big;
        $s .= "${p}_p$bit:\n" if $i > 0;
        $s .= "\ttestb\t\$$bit,%cl\n\tjz\t$next\n";
        $s .= $piece[$i]->($op, $v);
        $s .= "\ttestq\t\$-" . (2 * $bit) . ",%rcx\n\tjnz\t$next\n$out\n";
    }
    if ($top) {
        $s .= "${p}_top:\n\tcmpq\t\$@{[2 * $lim]},%rcx\n\tjae\t${p}_loop\n";
        $s .= $piece[$nb]->($op, $v) . "$out\n";
    }
    return $s . <<___;
${p}_loop:
	andq	\$-$lim,%rcx
	leaq	($ap,%rcx,8),$ap
	leaq	($rp,%rcx,8),$rp
	negq	%rcx
$clear
___
}

# num <= 4, tested first (`cmpl $4 / jg`: five limbs and more take one
# taken branch to the general entry, as before).  num == 1 is the most
# frequent call of all (OpenSSL's BN_mul_word and BN_add_word paths, the
# tail of many reductions), and the general entry's piece set-up cost
# 1.15-1.5x the C reference there (docs/perf/x86_64-small.md).  Here it is
# 5-6 instructions and no taken branch: an out-of-line variant (`jle` to
# it) measured 1.22x C on the mulq path, the inline one 0.88x.  2..4 limbs
# take one taken branch (`jg`) to few_limbs below, and 3 and 4 a second.
#
# The one limb is the mulq code at every level, with no capability test
# (2026-12-07, as mul at 2 limbs below): its two loads and two branches
# were a fifth of the call, and bn_mul_words at the mulq level
# (ASMCRYPT_CAP=3: the BMI2 test passes, the ADX one branches) ran 1.2x
# the C reference in apps/speed; without them mul takes 0.78-0.80x the
# old code's time on the mulq level (0.80x and 1.00x in two runs on the
# mulx level; in-process A/B, docs/perf/x86_64-small.md, 2026-12-07),
# mul_add and mul_sub the same time as before
# (their RMW on rp bounds the call; mulx would save nothing, the product
# is off that chain).  test_paths knows this size (no BMI2 instruction at
# num 1).  The code is padded with int3, after its ret, to the bytes the
# tested mulx/mulq pair took, so the 2..4-limb code keeps its placement:
# unpadded, the mulq level's 2-limb mul_add and mul_sub took 1.19x the
# time (layout only, the same instructions).
my %ONE_SPAN = (add => 57, sub => 57, mul => 49);
sub one_limb {
    my ($p, $op) = @_;
    my $s = "\tcmpl\t\$4,%edx\n\tjg\t${p}_many\n"
          . "\tcmpl\t\$1,%edx\n\tjg\t${p}_few\n\tjl\t${p}_ret\n";
    $s .= "${p}_one:\n\tmovq\t($ap),%rax\n\tmulq\t%rcx\n"
        . piece_rp($op, '%rdx', ['%rax']) . "\tmovq\t%rdx,%rax\n.asm_ret\n";
    return $s . "\t.skip\t$ONE_SPAN{$op} - (. - ${p}_one), 0xcc\n";
}

# Two to four limbs, straight-line (issue 13: on the Zen 5 VM the pieces'
# bit tests made mul 1.14-1.17x the C reference at 2-3 limbs and
# mul_add/mul_sub about a cycle slower than GMP's at 2-4).  In: num (2..4)
# in %edx, w in %rcx.  The product row P = sum lo_i 2^64i +
# hi_i 2^64(i+1) is chained with one add/adc run whose last carry goes
# into the top word (P < 2^(64(n+1)) - 2^64: no wrap), then one add/adc
# (sub/sbb) run combines it with rp, its carry (borrow) also into the top
# word, which is returned.
#   mulx: mulx leaves the flags alone, so the chain runs between the
#     products; lo_i in %r8, %r10, %r9, %r11 and hi_i in %r9, %r11, %rcx,
#     each free again when it is written; the last hi is %rax.
#   mulq: mul clobbers the flags, so products wait in registers (lo:hi in
#     %r8:%r9, %r10:%r11) and the chain runs after the last; at four
#     limbs the first three are chained before the fourth product, whose
#     carry in then waits in %r9.
my @FEW_XLO = ('%r8', '%r10', '%r9', '%r11');
my @FEW_XHI = ('%r9', '%r11', '%rcx');
sub few_limbs {
    my ($op, $v, $n) = @_;
    my (@lo, $top);
    my $s = '';
    my $ai = sub { $_[0] ? 8 * $_[0] . "($ap)" : "($ap)" };
    if ($v eq 'x') {
        $s .= "\tmovq\t%rcx,%rdx\n";
        my $ph;
        for my $i (0 .. $n - 1) {
            my ($l, $h) = ($FEW_XLO[$i], $i == $n - 1 ? '%rax' : $FEW_XHI[$i]);
            $s .= "\tmulx\t" . $ai->($i) . ",$l,$h\n";
            $s .= "\t" . ($i == 1 ? 'addq' : 'adcq') . "\t$ph,$l\n" if $i;
            $ph = $h;
            push @lo, $l;
        }
        $s .= "\tadcq\t\$0,%rax\n";
        $top = '%rax';
    } else {
        my @wait = (['%r8', '%r9'], ['%r10', '%r11']);
        for my $i (0 .. $n - 1) {
            $s .= "\tmovq\t" . $ai->($i) . ",%rax\n\tmulq\t%rcx\n";
            if ($i < $n - 1 && $i < 2) {            # wait in a register pair
                $s .= "\tmovq\t%rax,$wait[$i][0]\n\tmovq\t%rdx,$wait[$i][1]\n";
                push @lo, $wait[$i][0];
            } elsif ($i == 2) {                      # chain limbs 0..2
                $s .= "\taddq\t%r9,%r10\n\tadcq\t%r11,%rax\n\tadcq\t\$0,%rdx\n";
                $s .= "\tmovq\t%rax,%r11\n\tmovq\t%rdx,%r9\n" if $n == 4;
                push @lo, $n == 4 ? '%r11' : '%rax';
            } else {                                 # last of 2 or 4: carry in %r9
                $s .= "\taddq\t%r9,%rax\n\tadcq\t\$0,%rdx\n";
                push @lo, '%rax';
            }
        }
        $top = '%rdx';
    }
    $s .= piece_rp($op, $top, \@lo);
    $s .= "\tmovq\t$top,%rax\n" if $top ne '%rax';
    return $s . ".asm_ret\n";
}

# Straight-line code for $n limbs, mulx or mulq by the capability test
# of the general entry (so asmcrypt_impl() still names what runs).
#
# Except bn_mul_words at 2 limbs: the mulq code at every level, without
# the test.  There the call is one latency chain (second product, one
# add, one adc) and mulx lost to the C reference (1.167x C on the Zen 5
# VM, in all of four runs; the mulq code 1.000x).  test_paths knows this
# size (mul, num 2: no BMI2 instruction at any level).  The code is then
# padded with int3 to the $MUL2_SPAN bytes the tested mulx/mulq pair took,
# so the 3- and 4-limb code keeps the placement it was measured at: 53
# bytes earlier, mul at 4 limbs went from 0.72-0.83x C to 0.89-0.95x
# (the few-limb paths are that sensitive to layout here, see the 64-byte
# entry alignment below).  The padding follows a ret and never runs.
my $MUL2_SPAN = 90;
sub few_code {
    my ($p, $op, $n) = @_;
    if ($op eq 'mul' && $n == 2) {
        my $s = "${p}_mul2:\n" . few_limbs($op, 'q', $n);
        return $s . "\t.skip\t$MUL2_SPAN - (. - ${p}_mul2), 0xcc\n";
    }
    return ($n > 2 ? "${p}_$n:\n" : '') . cap_require("${p}_q$n", @CAP_MULX) . few_limbs($op, 'x', $n)
         . "${p}_q$n:\n" . few_limbs($op, 'q', $n);
}

for my $fn (qw(bn_mul_add_words bn_mul_words bn_mul_sub_words)) {
    my $op = $mulop{$fn};
    my $p = ".L${fn}";
    my ($w) = ('%rcx');

    # 64-byte entry: with the default 32 the time of the few-limb paths
    # moved by up to a third from one build to the next (layout only)
    $code .= ".text\n.balign 64\n.asm_func $fn, nargs=4\n";
    $code .= one_limb($p, $op);
    $code .= "${p}_few:\n\tcmpl\t\$3,%edx\n\tjg\t${p}_4\n\tje\t${p}_3\n"
           . few_code($p, $op, 2) . few_code($p, $op, 3) . few_code($p, $op, 4);
    $code .= "${p}_many:\n";
    $code .= <<___;
	xorl	%eax,%eax
	movslq	%edx,%r8
___
    # ---- mulx path (BMI2 + ADX) ----
    my $clear = mulx_clear($op);
    chomp $clear;
    $code .= cap_require("${p}_q", @CAP_MULX);
    $code .= "\tmovq\t$w,%rdx\n\tmovq\t%r8,%rcx\n\txorl\t%r9d,%r9d\n";
    $code .= mul_head("${p}_x", $op, 'x', "\tmovq\t%r9,%rax\n.asm_ret", $clear,
                      5, $op ne 'mul');
    $code .= duff_loop("${p}_x", "${fn}_mulx", sub {
        my $k = shift;
        return mulx_slot($op, $k, $k * 8 . "($ap,%rcx,8)", $k * 8 . "($rp,%rcx,8)");
    });
    $code .= mulx_tail($op) . "\tmovq\t%r9,%rax\n.asm_ret\n";

    # ---- mulq path ----
    $code .= <<___;
${p}_q:
	movq	$w,%r11
	movq	%r8,%rcx
	xorl	%r8d,%r8d
___
    $code .= mul_head("${p}_q", $op, 'q', "\tmovq\t%r8,%rax\n.asm_ret", '', 4);
    $code .= duff_loop("${p}_q", "${fn}_mulq", sub {
        my $k = shift;
        return mulq_slot($op, $k * 8 . "($ap,%rcx,8)", $k * 8 . "($rp,%rcx,8)");
    });
    $code .= "\tmovq\t%r8,%rax\n.asm_ret\n";
    $code .= "${p}_ret:\n\txorl\t%eax,%eax\n.asm_ret\n.asm_endfunc\n\n";
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
