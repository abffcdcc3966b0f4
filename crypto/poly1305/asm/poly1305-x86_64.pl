#!/usr/bin/env perl
#
# poly1305-x86_64.pl - Poly1305 for x86_64: scalar radix 2^64 (mulq),
# AVX2 radix 2^26 four blocks at a time, AVX-512F radix 2^26 eight blocks
# at a time.
#
#   perl poly1305-x86_64.pl FLAVOUR OUT.S   (FLAVOUR: elf, macosx, mingw64;
#                                            see perlasm/x86_64-xlate.pl)
#
# Algorithm.  h = (h + m + padbit*2^128) * r mod p, p = 2^130-5.
#
# Scalar (poly1305_blocks): h = h0 + h1*2^64 + h2*2^128 (h2 a few bits),
# r = r0 + r1*2^64.  Clamping makes r1 a multiple of 4 and r0, r1 < 2^60,
# so h1*r1*2^128 = h1*(r1/4)*2^130 == h1*s1 with s1 = r1 + (r1>>2):
#   d0 = h0 r0 + h1 s1
#   d1 = h0 r1 + h1 r0 + h2 s1
#   d2 = h2 r0
# (four mulq, two imulq).  The partial reduction folds d2>>2 back as
# 5*(d2>>2), leaving h2 <= 4: not fully reduced, accepted by the next
# multiplication; emit does the final constant-time conditional subtract
# (select h or h+5-2^130 by a mask).
#
# Vector (poly1305_blocks_avx2 / _avx512): h and the messages are split
# into five 26-bit limbs, one block per 64-bit lane, products with
# vpmuludq (32x32->64).  With L lanes (4 or 8), lane j accumulates the
# blocks j, j+L, j+2L, ... by Horner's rule with multiplier r^L; the last
# group is multiplied lane-wise by r^L, r^(L-1), ..., r^1 and the lanes
# are summed, which gives sum m_i r^(N-i) as the serial rule would.  The
# caller's h enters lane 0.  Limb products that wrap past 2^130 use 5*r_j
# (s_j); carries are propagated lazily (two interleaved chains) once per
# group, so limbs stay below 2^27 and the 5-term sums below 2^59.
# h is kept in radix 2^64 in the context between calls: every vector call
# converts at entry and back at exit, so any sequence of calls of any
# lengths through any of the three block functions is consistent, and
# the remainder (len mod 16L) is finished by the scalar loop.  Short
# inputs (below $VEC4_MIN / $VEC8_MIN bytes) go straight to the scalar
# loop and never touch vector registers.
# The powers r^1..r^L are computed (scalar) on the first long call after
# init and cached in the context; nothing depends on secret data for a
# branch or an address.
#
# Context (ctx, 64-byte aligned, 512 bytes):
#   0  h0, 8 h1, 16 h2 (u64)            24 r0, 32 r1, 40 s1 (u64)
#   48 npow (u32): powers cached (0, 4 or 8)
#   64  P[5][8] u32: limb l of r^(i+1) at 64 + 32*l + 4*i
#   224 B[9][8] u32: limbs of r^4 and 5*limbs 1..4, broadcast (AVX2)
#
# With -D__KERNEL__ the entry points get an _x86_64 suffix, init never
# reads asmcrypt_cpucap and returns 0 (so poly1305_blocks is used);
# poly1305_blocks_avx2_x86_64 / _avx512_x86_64 are exported for glue code
# that wants them (between kernel_fpu_begin/end).
#
# Performance (cycles per byte, 8 KiB message; figures measured on this
# project's machine, see the end of the file's header in docs/perf):
#   CPU                       scalar    AVX2    AVX-512F
#   (filled in when measured)
#
use strict;
use warnings;

my $flavour = shift @ARGV // 'elf';
my $output  = shift @ARGV;
if ($flavour =~ /\./ && !defined $output) {   # "X.pl OUT.S": default flavour
    ($output, $flavour) = ($flavour, 'elf');
}
my $dir = $0; $dir =~ s{[^/]*$}{};
$dir = './' if $dir eq '';
my $xlate;
for ("${dir}../../../perlasm/x86_64-xlate.pl", "${dir}x86_64-xlate.pl",
     "${dir}../../perlasm/x86_64-xlate.pl") {
    if (-f $_) { $xlate = $_; last }
}
die "poly1305-x86_64.pl: x86_64-xlate.pl not found\n" unless defined $xlate;
open(my $OUT, '|-', $^X, $xlate, $flavour, defined $output ? $output : ())
    or die "poly1305-x86_64.pl: cannot run $xlate: $!\n";

# ---- capability bits (include/asmcrypt/cpu.h) ----------------------------
my $CAP_AVX2    = 1 << 4;       # ASMCRYPT_CAP_X86_AVX2
my $CAP_AVX512F = 1 << 5;       # ASMCRYPT_CAP_X86_AVX512F

# ---- tunables ---------------------------------------------------------------
my $VEC4_MIN = 256;     # bytes: below this the AVX2 entry runs scalar
my $VEC8_MIN = 512;     # bytes: below this the AVX-512 entry runs AVX2

# ---- context layout --------------------------------------------------------
my %C = (H0 => 0, H1 => 8, H2 => 16, R0 => 24, R1 => 32, S1 => 40,
         NPOW => 48, P => 64, B => 224);
sub P { my ($l, $i) = @_; return $C{P} + 32 * $l + 4 * $i }   # limb l of r^(i+1)
sub B { my ($j) = @_; return $C{B} + 32 * $j }   # j=0..4: r^4 limbs; 5..8: 5*limb 1..4

my $code = '';

# ---- scalar helpers ---------------------------------------------------------

# h = h * r mod p (partially reduced), radix 2^64.  Uses rax, rdx and the
# three temporaries; r0, r1, s1 are registers.
sub mul_reduce {
    my ($h0, $h1, $h2, $r0, $r1, $s1, $t0, $t1, $t2) = @_;
    return <<___;
	movq	$r0,%rax
	mulq	$h0			# h0*r0
	movq	%rax,$t0
	movq	%rdx,$t1
	movq	$r1,%rax
	mulq	$h0			# h0*r1
	movq	%rax,$h0
	movq	%rdx,$t2
	movq	$s1,%rax
	mulq	$h1			# h1*s1
	addq	%rax,$t0
	adcq	%rdx,$t1
	movq	$r0,%rax
	mulq	$h1			# h1*r0
	addq	%rax,$h0
	adcq	%rdx,$t2
	movq	$s1,$h1
	imulq	$h2,$h1			# h2*s1
	addq	$h1,$h0
	adcq	\$0,$t2
	imulq	$r0,$h2			# h2*r0
	addq	$t1,$h0
	adcq	$t2,$h2			# limbs: t0, h0, h2
	movq	$h2,%rax		# fold 5*(h2>>2) into the low limbs
	andq	\$-4,%rax
	andq	\$3,$h2
	movq	%rax,%rdx
	shrq	\$2,%rdx
	addq	%rdx,%rax
	addq	%rax,$t0
	adcq	\$0,$h0
	adcq	\$0,$h2
	movq	$h0,$h1
	movq	$t0,$h0
___
}

# Store h (radix 2^64, h2 <= 4) as five 26-bit limbs into P[.][idx]
# (u32 at P(l,0) + 4*idx).  Clobbers rax, rdx.
sub store26 {
    my ($h0, $h1, $h2, $idx) = @_;
    my $m = '0x3ffffff';
    my @a = map { P($_, 0) . "(%rdi,$idx,4)" } 0 .. 4;
    return <<___;
	movl	${\ lo32($h0)},%eax
	andl	\$$m,%eax
	movl	%eax,$a[0]
	movq	$h0,%rax
	shrq	\$26,%rax
	andl	\$$m,%eax
	movl	%eax,$a[1]
	movq	$h0,%rax
	shrq	\$52,%rax
	movq	$h1,%rdx
	shlq	\$12,%rdx
	orq	%rdx,%rax
	andl	\$$m,%eax
	movl	%eax,$a[2]
	movq	$h1,%rax
	shrq	\$14,%rax
	andl	\$$m,%eax
	movl	%eax,$a[3]
	movq	$h1,%rax
	shrq	\$40,%rax
	movq	$h2,%rdx
	shlq	\$24,%rdx
	orq	%rdx,%rax
	movl	%eax,$a[4]
___
}

sub lo32 {
    my ($r) = @_;
    return "${r}d" if $r =~ /^%r\d+$/;
    (my $e = $r) =~ s/^%r/%e/;
    return $e;
}

# ---- entry points -------------------------------------------------------------

$code .= <<___;
# Generated by crypto/poly1305/asm/poly1305-x86_64.pl - do not edit.
#ifdef __KERNEL__
#define poly1305_init poly1305_init_x86_64
#define poly1305_blocks poly1305_blocks_x86_64
#define poly1305_emit poly1305_emit_x86_64
#define poly1305_blocks_avx2 poly1305_blocks_avx2_x86_64
#define poly1305_blocks_avx512 poly1305_blocks_avx512_x86_64
.globl poly1305_blocks_avx2
.globl poly1305_blocks_avx512
#else
.asm_extern asmcrypt_cpucap
#endif

# int poly1305_init(void *ctx, const unsigned char key[16], void *func[2])
.asm_func poly1305_init, nargs=3
	xorl	%eax,%eax
	movq	%rax,$C{H0}(%rdi)
	movq	%rax,$C{H1}(%rdi)
	movq	%rax,$C{H2}(%rdi)
	testq	%rsi,%rsi
	jz	.Linit_ret
	movl	%eax,$C{NPOW}(%rdi)
	movq	0(%rsi),%r8
	movq	8(%rsi),%r9
	movabsq	\$0x0ffffffc0fffffff,%rax
	andq	%rax,%r8
	movabsq	\$0x0ffffffc0ffffffc,%rax
	andq	%rax,%r9
	movq	%r8,$C{R0}(%rdi)
	movq	%r9,$C{R1}(%rdi)
	movq	%r9,%rax
	shrq	\$2,%rax
	addq	%r9,%rax
	movq	%rax,$C{S1}(%rdi)
#ifdef __KERNEL__
	xorl	%eax,%eax
#else
	leaq	poly1305_blocks(%rip),%r10
	leaq	poly1305_emit(%rip),%r11
	movl	asmcrypt_cpucap(%rip),%ecx
	leaq	poly1305_blocks_avx2(%rip),%rax
	testl	\$$CAP_AVX2,%ecx
	cmovnzq	%rax,%r10
	andl	\$${\ ($CAP_AVX2 | $CAP_AVX512F)},%ecx
	leaq	poly1305_blocks_avx512(%rip),%rax
	cmpl	\$${\ ($CAP_AVX2 | $CAP_AVX512F)},%ecx
	cmoveq	%rax,%r10
	movq	%r10,0(%rdx)
	movq	%r11,8(%rdx)
	movl	\$1,%eax
#endif
.Linit_ret:
	.asm_ret
.asm_endfunc

# void poly1305_blocks(void *ctx, const unsigned char *inp, size_t len,
#                      unsigned int padbit)
.asm_func poly1305_blocks, nargs=4, push=rbx:rbp:r12:r13:r14:r15
	call	.Lblocks_scalar
	.asm_ret
.asm_endfunc

# void poly1305_emit(void *ctx, unsigned char mac[16], const unsigned int nonce[4])
.asm_func poly1305_emit, nargs=3
	movq	$C{H0}(%rdi),%r8
	movq	$C{H1}(%rdi),%r9
	movq	$C{H2}(%rdi),%r10
	movq	%r8,%rax		# g = h + 5
	addq	\$5,%rax
	movq	%r9,%rcx
	adcq	\$0,%rcx
	adcq	\$0,%r10
	shrq	\$2,%r10		# 1 iff h >= p (h < 2^131)
	negq	%r10			# mask
	xorq	%r8,%rax
	xorq	%r9,%rcx
	andq	%r10,%rax
	andq	%r10,%rcx
	xorq	%rax,%r8		# h = mask ? g : h
	xorq	%rcx,%r9
	addq	0(%rdx),%r8		# + s mod 2^128
	adcq	8(%rdx),%r9
	movq	%r8,0(%rsi)
	movq	%r9,8(%rsi)
	.asm_ret
.asm_endfunc
___

# ---- scalar block loop (SysV internal; clobbers callee-saved GPRs) ---------
{
my ($r0, $r1, $s1, $h0, $h1, $h2) = ('%r11', '%r12', '%r13', '%r14', '%rbx', '%rbp');
my ($t0, $t1, $t2, $cnt) = ('%r8', '%r9', '%r10', '%r15');
$code .= <<___;

# .Lblocks_scalar: rdi ctx, rsi inp, rdx len, ecx padbit.  Callers have
# saved rbx, rbp, r12-r15; this routine pushes nothing.
.asm_func .Lblocks_scalar, local
	movl	%ecx,%ecx
	shrq	\$4,%rdx
	jz	.Lscalar_done
	movq	%rdx,$cnt
	movq	$C{R0}(%rdi),$r0
	movq	$C{R1}(%rdi),$r1
	movq	$C{S1}(%rdi),$s1
	movq	$C{H0}(%rdi),$h0
	movq	$C{H1}(%rdi),$h1
	movq	$C{H2}(%rdi),$h2
	jmp	.Lscalar_loop
.balign 32
.Lscalar_loop:
# LLVM-MCA-BEGIN poly1305_scalar
	addq	0(%rsi),$h0
	adcq	8(%rsi),$h1
	adcq	%rcx,$h2
	leaq	16(%rsi),%rsi
${\ mul_reduce($h0, $h1, $h2, $r0, $r1, $s1, $t0, $t1, $t2)}
	decq	$cnt
	jnz	.Lscalar_loop
# LLVM-MCA-END
	movq	$h0,$C{H0}(%rdi)
	movq	$h1,$C{H1}(%rdi)
	movq	$h2,$C{H2}(%rdi)
.Lscalar_done:
	.asm_ret
.asm_endfunc
___
}

# ---- powers of r (SysV internal): rdi ctx, esi = how many (4 or 8) ---------
# Clobbers rax, rcx, rdx, rsi, r8-r11, rbx, rbp, r15, ymm10, ymm11; keeps
# rdi, r12 (saved), r13, r14.
{
my ($r0, $r1, $s1, $h0, $h1, $h2) = ('%r11', '%r10', '%r9', '%r8', '%rbx', '%rbp');
my ($t0, $t1, $t2, $i) = ('%rcx', '%rsi', '%r15', '%r12');
$code .= <<___;

.asm_func .Lcompute_powers, local, push=r12
	movl	%esi,$C{NPOW}(%rdi)
	movq	$C{R0}(%rdi),$r0
	movq	$C{R1}(%rdi),$r1
	movq	$C{S1}(%rdi),$s1
	movq	$r0,$h0
	movq	$r1,$h1
	xorl	%ebp,%ebp
	xorl	%r12d,%r12d
.Lpow_loop:
${\ store26($h0, $h1, $h2, $i)}
	incl	%r12d
	cmpl	$C{NPOW}(%rdi),%r12d
	jae	.Lpow_done
${\ mul_reduce($h0, $h1, $h2, $r0, $r1, $s1, $t0, $t1, $t2)}
	jmp	.Lpow_loop
.Lpow_done:
___
for my $l (0 .. 4) {
    $code .= "\tvpbroadcastd\t" . P($l, 3) . "(%rdi),%ymm10\n";
    $code .= "\tvmovdqu\t%ymm10," . B($l) . "(%rdi)\n";
    next if $l == 0;
    $code .= "\tvpslld\t\$2,%ymm10,%ymm11\n\tvpaddd\t%ymm10,%ymm11,%ymm11\n";
    $code .= "\tvmovdqu\t%ymm11," . B(4 + $l) . "(%rdi)\n";
}
$code .= <<___;
	.asm_ret
.asm_endfunc
___
}

# ---- vector body generator --------------------------------------------------
# Registers: A0-4 accumulator limbs, D0-4 products, T0-3 temporaries,
# PAD (padbit<<24 per lane), MASK (2^26-1 per lane).  For L = 8 the
# multiplier r^8 (and 5*) lives in zmm16-24, the lane permutation in zmm25;
# for L = 4 the multiplier is read from the broadcast table B in ctx.
sub vec_body {
    my ($L) = @_;
    my $v = $L == 8 ? 'zmm' : 'ymm';
    my @A = map { "%$v$_" } 0 .. 4;
    my @D = map { "%$v$_" } 5 .. 9;
    my @T = map { "%$v$_" } 10 .. 13;
    my ($PAD, $MASK) = ("%${v}14", "%${v}15");
    my ($and, $or, $movu) = $L == 8 ? ('vpandq', 'vporq', 'vmovdqu64')
                                    : ('vpand', 'vpor', 'vmovdqu');
    my @MUL = $L == 8 ? (map { "%zmm$_" } 16 .. 24)
                      : (map { B($_) . '(%rdi)' } 0 .. 8);
    my $IDX = '%zmm25';
    my $lg = $L == 8 ? 7 : 6;          # log2(16*L)
    my $p = ".Lv$L";
    my $inp = '%r12';
    my $c = '';

    # message group -> limbs, added into X0..X4
    my $load_add = sub {
        my (@X) = @_;
        return <<___;
	$movu	0($inp),$T[0]
	$movu	${\ (8 * $L)}($inp),$T[1]
	leaq	${\ (16 * $L)}($inp),$inp
	vpunpckhqdq	$T[1],$T[0],$T[2]	# high words of the L blocks
	vpunpcklqdq	$T[1],$T[0],$T[0]	# low words
	$and	$MASK,$T[0],$T[1]
	vpaddq	$T[1],$X[0],$X[0]
	vpsrlq	\$26,$T[0],$T[1]
	$and	$MASK,$T[1],$T[1]
	vpaddq	$T[1],$X[1],$X[1]
	vpsrlq	\$52,$T[0],$T[0]
	vpsllq	\$12,$T[2],$T[1]
	$or	$T[1],$T[0],$T[0]
	$and	$MASK,$T[0],$T[0]
	vpaddq	$T[0],$X[2],$X[2]
	vpsrlq	\$14,$T[2],$T[1]
	$and	$MASK,$T[1],$T[1]
	vpaddq	$T[1],$X[3],$X[3]
	vpsrlq	\$40,$T[2],$T[2]
	$or	$PAD,$T[2],$T[2]
	vpaddq	$T[2],$X[4],$X[4]
___
    };

    # D = A * (B, S) where mul(j) returns the operand for multiplier
    # limb j (0..4) and mul(5+j) for 5*limb j (1..4).
    my $mul = sub {
        my ($op) = @_;
        my $s = '';
        for my $k (0 .. 4) {
            $s .= "\tvpmuludq\t" . $op->($k) . ",$A[0],$D[$k]\n";
        }
        for my $i (1 .. 4) {
            for my $k (0 .. 4) {
                my $j = $k - $i;
                my $o = $j >= 0 ? $op->($j) : $op->(5 + $j + 4);
                my $t = $T[$k & 1];
                $s .= "\tvpmuludq\t$o,$A[$i],$t\n\tvpaddq\t$t,$D[$k],$D[$k]\n";
            }
        }
        return $s;
    };

    # A = D with carries propagated (two interleaved chains)
    my $carry = <<___;
	vpsrlq	\$26,$D[0],$T[0]
	$and	$MASK,$D[0],$A[0]
	vpaddq	$T[0],$D[1],$D[1]
	vpsrlq	\$26,$D[3],$T[1]
	$and	$MASK,$D[3],$A[3]
	vpaddq	$T[1],$D[4],$D[4]
	vpsrlq	\$26,$D[1],$T[0]
	$and	$MASK,$D[1],$A[1]
	vpaddq	$T[0],$D[2],$D[2]
	vpsrlq	\$26,$D[4],$T[1]
	$and	$MASK,$D[4],$A[4]
	vpaddq	$T[1],$A[0],$A[0]
	vpsllq	\$2,$T[1],$T[1]
	vpaddq	$T[1],$A[0],$A[0]
	vpsrlq	\$26,$D[2],$T[0]
	$and	$MASK,$D[2],$A[2]
	vpaddq	$T[0],$A[3],$A[3]
	vpsrlq	\$26,$A[0],$T[1]
	$and	$MASK,$A[0],$A[0]
	vpaddq	$T[1],$A[1],$A[1]
	vpsrlq	\$26,$A[3],$T[0]
	$and	$MASK,$A[3],$A[3]
	vpaddq	$T[0],$A[4],$A[4]
___

    my $x = sub { my ($r) = @_; (my $y = $r) =~ s/[yz]mm/xmm/; $y };
    my $y = sub { my ($r) = @_; (my $z = $r) =~ s/zmm/ymm/; $z };

    $c .= <<___;

# $p: rdi ctx, rsi inp, rdx len (>= 16*$L), ecx padbit.  SysV internal,
# clobbers every GPR but rdi and every vector register; callers saved
# what their ABI needs.
.asm_func ${p}_body, local
	movq	%rsi,$inp
	movq	%rdx,%r13
	movl	%ecx,%r14d
	cmpl	\$$L,$C{NPOW}(%rdi)
	jae	${p}_have_powers
	movl	\$$L,%esi
	call	.Lcompute_powers
${p}_have_powers:
	movq	$C{H0}(%rdi),%r8	# h: radix 2^64 -> 2^26, into lane 0
	movq	$C{H1}(%rdi),%r9
	movq	$C{H2}(%rdi),%r10
	movl	%r8d,%eax
	andl	\$0x3ffffff,%eax
	vmovd	%eax,${\ $x->($A[0])}
	movq	%r8,%rax
	shrq	\$26,%rax
	andl	\$0x3ffffff,%eax
	vmovd	%eax,${\ $x->($A[1])}
	movq	%r8,%rax
	shrq	\$52,%rax
	movq	%r9,%rdx
	shlq	\$12,%rdx
	orq	%rdx,%rax
	andl	\$0x3ffffff,%eax
	vmovd	%eax,${\ $x->($A[2])}
	movq	%r9,%rax
	shrq	\$14,%rax
	andl	\$0x3ffffff,%eax
	vmovd	%eax,${\ $x->($A[3])}
	movq	%r9,%rax
	shrq	\$40,%rax
	shlq	\$24,%r10
	orq	%r10,%rax
	vmovd	%eax,${\ $x->($A[4])}
	vpbroadcastq	.Lmask26(%rip),$MASK
	movl	%r14d,%eax
	shll	\$24,%eax
	vmovd	%eax,${\ $x->($PAD)}
	vpbroadcastq	${\ $x->($PAD)},$PAD
___
    if ($L == 8) {
        for my $l (0 .. 4) {
            $c .= "\tvpbroadcastd\t" . P($l, 7) . "(%rdi),$MUL[$l]\n";
        }
        for my $l (1 .. 4) {
            $c .= "\tvpslld\t\$2,$MUL[$l],$MUL[4 + $l]\n";
            $c .= "\tvpaddd\t$MUL[$l],$MUL[4 + $l],$MUL[4 + $l]\n";
        }
        $c .= "\tvmovdqu64\t.Lperm8(%rip),$IDX\n";
    }
    $c .= <<___;
	movq	%r13,%r15
	shrq	\$$lg,%r15		# groups of $L blocks (>= 1)
${\ $load_add->(@A)}
	decq	%r15
	jz	${p}_final
	jmp	${p}_loop
.balign 32
${p}_loop:
# LLVM-MCA-BEGIN poly1305_vec$L
${\ $mul->(sub { $MUL[$_[0]] })}
${\ $load_add->(@D)}
$carry
	decq	%r15
	jnz	${p}_loop
# LLVM-MCA-END
${p}_final:
___
    # last group: lane k times r^(L - block(k)), multiplier limb by limb
    for my $j (0 .. 4) {
        if ($L == 8) {
            $c .= "\tvpmovzxdq\t" . P($j, 0) . "(%rdi),$T[2]\n";
            $c .= "\tvpermq\t$T[2],$IDX,$T[2]\n";
        } else {
            $c .= "\tvpmovzxdq\t" . P($j, 0) . "(%rdi),$T[2]\n";
            $c .= "\tvpermq\t\$0x27,$T[2],$T[2]\n";
        }
        if ($j) {
            $c .= "\tvpsllq\t\$2,$T[2],$T[3]\n\tvpaddq\t$T[2],$T[3],$T[3]\n";
        }
        for my $i (0 .. 4) {
            my $k = $i + $j;
            my $o = $k < 5 ? $T[2] : $T[3];
            my $d = $D[$k % 5];
            if ($j == 0) {
                $c .= "\tvpmuludq\t$o,$A[$i],$d\n";
            } else {
                $c .= "\tvpmuludq\t$o,$A[$i],$T[$i & 1]\n";
                $c .= "\tvpaddq\t$T[$i & 1],$d,$d\n";
            }
        }
    }
    # horizontal sums -> r8, r9, r10, r11, rbx
    my @g = ('%r8', '%r9', '%r10', '%r11', '%rbx');
    for my $k (0 .. 4) {
        my $d = $D[$k];
        if ($L == 8) {
            $c .= "\tvextracti64x4\t\$1,$d,${\ $y->($T[0])}\n";
            $c .= "\tvpaddq\t${\ $y->($T[0])},${\ $y->($d)},${\ $y->($d)}\n";
        }
        my ($dy, $dx, $tx) = ($y->($d), $x->($d), $x->($T[0]));
        $c .= <<___;
	vextracti128	\$1,$dy,$tx
	vpaddq	$tx,$dx,$dx
	vpsrldq	\$8,$dx,$tx
	vpaddq	$tx,$dx,$dx
	vmovq	$dx,$g[$k]
___
    }
    $c .= <<___;
	vzeroupper
	movl	\$0x3ffffff,%ecx	# carry the sums, then radix 2^26 -> 2^64
	movq	$g[0],%rax
	shrq	\$26,%rax
	andq	%rcx,$g[0]
	addq	%rax,$g[1]
	movq	$g[1],%rax
	shrq	\$26,%rax
	andq	%rcx,$g[1]
	addq	%rax,$g[2]
	movq	$g[2],%rax
	shrq	\$26,%rax
	andq	%rcx,$g[2]
	addq	%rax,$g[3]
	movq	$g[3],%rax
	shrq	\$26,%rax
	andq	%rcx,$g[3]
	addq	%rax,$g[4]
	movq	$g[4],%rax
	shrq	\$26,%rax
	andq	%rcx,$g[4]
	leaq	(%rax,%rax,4),%rax
	addq	%rax,$g[0]
	movq	$g[0],%rax
	shrq	\$26,%rax
	andq	%rcx,$g[0]
	addq	%rax,$g[1]
	movq	$g[2],%rsi		# h1 = g2>>12 + g3<<14 + g4<<40
	shrq	\$12,%rsi
	shlq	\$14,$g[3]
	addq	$g[3],%rsi
	movq	$g[4],%rdx		# h2 = g4>>24 + carries
	shrq	\$24,%rdx
	shlq	\$40,$g[4]
	addq	$g[4],%rsi
	adcq	\$0,%rdx
	shlq	\$26,$g[1]		# h0 = g0 + g1<<26 + g2<<52
	addq	$g[1],$g[0]
	shlq	\$52,$g[2]
	addq	$g[2],$g[0]
	adcq	\$0,%rsi
	adcq	\$0,%rdx
	movq	$g[0],$C{H0}(%rdi)
	movq	%rsi,$C{H1}(%rdi)
	movq	%rdx,$C{H2}(%rdi)
	andq	\$${\ (16 * $L - 1)},%r13	# leftover blocks: scalar
	cmpq	\$16,%r13
	jb	${p}_done
	movq	$inp,%rsi
	movq	%r13,%rdx
	movl	%r14d,%ecx
	jmp	.Lblocks_scalar
${p}_done:
	.asm_ret
.asm_endfunc
___
    return $c;
}

$code .= vec_body(4);
$code .= vec_body(8);

$code .= <<___;

# void poly1305_blocks_avx2(ctx, inp, len, padbit)
.asm_func poly1305_blocks_avx2, indirect, nargs=4, push=rbx:rbp:r12:r13:r14:r15, xmm
	cmpq	\$$VEC4_MIN,%rdx
	jae	.Lavx2_vec
	call	.Lblocks_scalar
	.asm_ret
.Lavx2_vec:
	call	.Lv4_body
	.asm_ret
.asm_endfunc

# void poly1305_blocks_avx512(ctx, inp, len, padbit)
.asm_func poly1305_blocks_avx512, indirect, nargs=4, push=rbx:rbp:r12:r13:r14:r15, xmm
	cmpq	\$$VEC8_MIN,%rdx
	jae	.Lavx512_vec8
	cmpq	\$$VEC4_MIN,%rdx
	jae	.Lavx512_vec4
	call	.Lblocks_scalar
	.asm_ret
.Lavx512_vec4:
	call	.Lv4_body
	.asm_ret
.Lavx512_vec8:
	call	.Lv8_body
	.asm_ret
.asm_endfunc

.asm_rodata
.balign 64
.Lperm8:	# lane k of the last group holds block (0,4,1,5,2,6,3,7)[k]: use r^(8-block)
	.quad	7,3,6,2,5,1,4,0
.Lmask26:
	.quad	0x3ffffff
.asm_text
.asm_note
___

print $OUT $code;
close($OUT) or die "poly1305-x86_64.pl: translator failed\n";
