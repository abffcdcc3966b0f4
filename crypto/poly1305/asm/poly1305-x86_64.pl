#!/usr/bin/env perl
#
# poly1305-x86_64.pl - Poly1305 for x86_64: scalar radix 2^64 (mulq),
# AVX2 radix 2^26 four (and two chains of four) blocks at a time, AVX-512F
# radix 2^26 eight (and two chains of eight), AVX512-IFMA radix 2^44.
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
# 5*(d2>>2), leaving h2 <= 4 (<= 6 inside the loop, where the next block
# is added before the fold to keep it off the fold's dependency chain):
# not fully reduced, accepted by the next multiplication; emit does the
# final constant-time conditional subtract (select h or h+5-2^130 by a
# mask).
#
# Vector, radix 2^26 (poly1305_blocks_avx2 / _avx512): h and the messages
# are split into five 26-bit limbs, one block per 64-bit lane, products
# with vpmuludq (32x32->64).  With L lanes (4 or 8), lane j accumulates
# the blocks j, j+L, j+2L, ... by Horner's rule with multiplier r^L; the
# last group is multiplied lane-wise by r^L, r^(L-1), ..., r^1 and the
# lanes are summed, which gives sum m_i r^(N-i) as the serial rule would.
# The caller's h enters lane 0.  Limb products that wrap past 2^130 use
# 5*r_j (s_j); carries are propagated lazily (two interleaved chains) once
# per group, so limbs stay below 2^27 and the 5-term sums below 2^59.
# For long inputs the AVX-512 entry runs two such 8-lane chains on
# alternate groups with multiplier r^16 (the second chain hides the
# multiply/carry latency of the first); the last pair of groups is
# multiplied by r^16..r^9 and r^8..r^1.  The AVX2 entry does the same
# with two 4-lane chains and r^8.
#
# Vector, radix 2^44 (poly1305_blocks_avx512ifma): three limbs (44, 44,
# 42 bits); vpmadd52luq/huq accumulate the low and high 52-bit halves of
# each product separately, the high halves are folded in shifted by 8
# bits (the top one times 20*2^8, since 2^132 == 20); otherwise the same
# lane/group/chain structure as above with 9 products per block instead of
# 25.  See the comment before sub load44.
#
# h is kept in radix 2^64 in the context between calls: every vector call
# converts at entry and back at exit, so any sequence of calls of any
# lengths through any of the block functions is consistent, and the
# remainder (len mod 16L) is finished by the scalar loop.  Short inputs
# (below $VEC4_MIN bytes) go straight to the scalar loop and never touch
# vector registers.  The powers r^1..r^n (n = 4, 8 or 16, radix 2^26 or
# 2^44) are computed with the scalar multiplication on the first long
# call after init and cached in the context; nothing depends on secret
# data for a branch or an address.
#
# Context (ctx, 64-byte aligned, 512 bytes):
#   0  h0, 8 h1, 16 h2 (u64)            24 r0, 32 r1, 40 s1 (u64)
#   48 npow (u32): radix-2^26 powers cached (0, 4, 8 or 16)
#   52 npow44 (u32): radix-2^44 powers cached (0, 8 or 16)
#   radix 2^26 tables:  64 P[5][16] u32 (limb l of r^(i+1) at 64+64l+4i),
#                       384 B[9] u32 (limbs of r^4, 5*limbs 1..4: AVX2),
#                       424 S16[4] u64 (5*limbs 1..4 of r^16)
#   radix 2^44 table:   64 Q[3][16] u64 (limb l of r^(i+1) at 64+128l+8i)
#   The two overlap; computing one zeroes the other's count.
#
# With -D__KERNEL__ the entry points get an _x86_64 suffix, init never
# reads asmcrypt_cpucap and returns 0 (so poly1305_blocks is used);
# poly1305_blocks_avx2_x86_64, _avx512_x86_64 and _avx512ifma_x86_64 are
# exported for glue code that wants them (between kernel_fpu_begin/end;
# they need AVX2, AVX2+AVX-512F, AVX2+AVX-512F+IFMA respectively).
#
# Performance, our measurements.
#   AMD EPYC Zen 5 VM ("Oxide Virtual Turin-like Processor", family 26
#   model 2), apps/speed (interleaved, medians of 7 rounds, estimated core
#   cycles), one-shot MAC with key set per message, cycles per byte:
#     size      scalar   AVX2   AVX-512F  IFMA   | OpenSSL 3.0 EVP_MAC  libsodium
#     16 B       1.93    1.94    1.96     1.96   |      11.41            12.43
#     64 B       1.04    1.01    1.02     1.02   |       3.81             2.83
#     256 B      0.85    0.77    0.78     0.63   |       1.31             1.49
#     1024 B     0.83    0.55    0.38     0.29   |       0.55             0.99
#     8192 B     0.82    0.43    0.23     0.15   |       0.31             0.86
#     16384 B    0.83    0.42    0.21     0.14   |       0.29             0.85
#   (columns = ASMCRYPT_CAP levels f, 1f, ff, 1ff; AVX-512F/IFMA below
#   192/256 B run the scalar or AVX2 code by design)
#   llvm-mca-19 cycles per loop iteration (cycles/byte), from `make mca`:
#     region            skylake        icelake-server   znver3
#     poly1305_scalar   17.0 (1.06)    17.0 (1.06)      24.0 (1.50)
#     poly1305_vec4     29.6 (0.46)    29.6 (0.46)      27.6 (0.43)
#     poly1305_vec4x2   60.1 (0.47)    60.1 (0.47)      55.1 (0.43)
#     poly1305_vec8       -            36.1 (0.28)        -
#     poly1305_vec16      -            68.0 (0.27)        -
#     poly1305_ifma8      -            25.1 (0.20)        -
#     poly1305_ifma16     -            42.3 (0.17)        -
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
my $CAP_IFMA    = 1 << 8;       # ASMCRYPT_CAP_X86_AVX512IFMA

# ---- tunables ---------------------------------------------------------------
my $VEC4_MIN = 192;     # bytes: below this the AVX2 entry runs scalar
my $VEC4D_MIN = 512;    # bytes: from here the AVX2 entry runs two chains
my $VEC8_MIN = 384;     # bytes: below this the AVX-512 entry runs AVX2
my $VEC16_MIN = 1024;   # bytes: from here the AVX-512 entry runs two chains
my $VEC44_MIN = 256;    # bytes: from here the IFMA entry runs radix 2^44
my $VEC44D_MIN = 768;   # bytes: ... with two chains

# ---- context layout --------------------------------------------------------
my %C = (H0 => 0, H1 => 8, H2 => 16, R0 => 24, R1 => 32, S1 => 40,
         NPOW => 48, NPOW44 => 52, P => 64, B => 384, S16 => 424, B8S => 456,
         Q => 64);
sub P { my ($l, $i) = @_; return $C{P} + 64 * $l + 4 * $i }   # limb l of r^(i+1), u32
sub B { my ($j) = @_; return $C{B} + 4 * $j }     # u32; j=0..4: r^4 limbs; 5..8: 5*limb 1..4
sub S16 { my ($l) = @_; return $C{S16} + 8 * ($l - 1) }   # u64: 5*limb l (1..4) of r^16
sub B8S { my ($l) = @_; return $C{B8S} + 4 * ($l - 1) }   # u32: 5*limb l (1..4) of r^8
sub Q { my ($l, $i) = @_; return $C{Q} + 128 * $l + 8 * $i }  # u64: 44-bit limb l of r^(i+1)

my $code = '';

# ---- scalar helpers ---------------------------------------------------------

# Limbs of h * r, radix 2^64, before the reduction: t0, h0 (limb 1), h2
# (limb 2, < 2^64).  Uses rax, rdx and the three temporaries; r0, r1, s1
# are registers; h1 is clobbered.
sub mul_limbs {
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
___
}

# rax = 5*(h2>>2), h2 &= 3: the part of limb 2 at 2^130 and above.
sub top_fold {
    my ($h2) = @_;
    return <<___;
	movq	$h2,%rax
	shrq	\$2,%rax
	andq	\$3,$h2
	leaq	(%rax,%rax,4),%rax
___
}

# h = h * r mod p (partially reduced, h2 <= 4).
sub mul_reduce {
    my ($h0, $h1, $h2, $r0, $r1, $s1, $t0, $t1, $t2) = @_;
    return mul_limbs(@_) . top_fold($h2) . <<___;
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

# Store h (radix 2^64, h2 <= 4) as three 44-bit limbs (the top one 42
# bits plus h2's excess) into Q(.)[idx] (u64).  Clobbers rax, rdx.
sub store44 {
    my ($h0, $h1, $h2, $idx) = @_;
    my @a = map { Q($_, 0) . "(%rdi,$idx,8)" } 0 .. 2;
    return <<___;
	movabsq	\$0xfffffffffff,%rdx
	andq	$h0,%rdx
	movq	%rdx,$a[0]
	movq	$h0,%rax
	shrq	\$44,%rax
	movq	$h1,%rdx
	shlq	\$20,%rdx
	orq	%rdx,%rax
	movabsq	\$0xfffffffffff,%rdx
	andq	%rdx,%rax
	movq	%rax,$a[1]
	movq	$h1,%rax
	shrq	\$24,%rax
	movq	$h2,%rdx
	shlq	\$40,%rdx
	orq	%rdx,%rax
	movq	%rax,$a[2]
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
#define poly1305_blocks_avx512ifma poly1305_blocks_avx512ifma_x86_64
.globl poly1305_blocks_avx2
.globl poly1305_blocks_avx512
.globl poly1305_blocks_avx512ifma
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
	movq	%rax,$C{NPOW}(%rdi)	# NPOW and NPOW44
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
	movl	%ecx,%esi
	andl	\$${\ ($CAP_AVX2 | $CAP_AVX512F)},%ecx
	leaq	poly1305_blocks_avx512(%rip),%rax
	cmpl	\$${\ ($CAP_AVX2 | $CAP_AVX512F)},%ecx
	cmoveq	%rax,%r10
	andl	\$${\ ($CAP_AVX2 | $CAP_AVX512F | $CAP_IFMA)},%esi
	leaq	poly1305_blocks_avx512ifma(%rip),%rax
	cmpl	\$${\ ($CAP_AVX2 | $CAP_AVX512F | $CAP_IFMA)},%esi
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
	negl	%ecx			# padbit = (padbit != 0), zero-extended
	sbbl	%ecx,%ecx
	negl	%ecx
	shrq	\$4,%rdx
	jz	.Lscalar_done
	movq	%rdx,$cnt
	movq	$C{R0}(%rdi),$r0
	movq	$C{R1}(%rdi),$r1
	movq	$C{S1}(%rdi),$s1
	movq	$C{H0}(%rdi),$h0
	movq	$C{H1}(%rdi),$h1
	movq	$C{H2}(%rdi),$h2
	addq	0(%rsi),$h0
	adcq	8(%rsi),$h1
	adcq	%rcx,$h2
	leaq	16(%rsi),%rsi
	jmp	.Lscalar_loop
.balign 32
.Lscalar_loop:
# LLVM-MCA-BEGIN poly1305_scalar
${\ mul_limbs($h0, $h1, $h2, $r0, $r1, $s1, $t0, $t1, $t2)}
${\ top_fold($h2)}
	decq	$cnt
	jz	.Lscalar_last
	addq	0(%rsi),$t0		# next block first: off the fold's path
	adcq	8(%rsi),$h0
	adcq	%rcx,$h2
	leaq	16(%rsi),%rsi
	addq	%rax,$t0
	adcq	\$0,$h0
	adcq	\$0,$h2
	movq	$h0,$h1
	movq	$t0,$h0
	jmp	.Lscalar_loop
# LLVM-MCA-END
.Lscalar_last:
	addq	%rax,$t0
	adcq	\$0,$h0
	adcq	\$0,$h2
	movq	$t0,$C{H0}(%rdi)
	movq	$h0,$C{H1}(%rdi)
	movq	$h2,$C{H2}(%rdi)
.Lscalar_done:
	.asm_ret
.asm_endfunc
___
}

# ---- powers of r (SysV internal): rdi ctx, esi = how many ---------------
# power_chain: r^1..r^n by the scalar multiplication, each stored by
# $store (radix 2^26 or 2^44 table), n kept in the flag $set, the other
# table's flag $clear zeroed (the two tables share ctx space).  Clobbers
# rax, rcx, rdx, rsi, r8-r11, rbx, rbp, r15; keeps rdi, r12 (saved), r13,
# r14.
sub power_chain {
    my ($name, $set, $clear, $store) = @_;
    my ($r0, $r1, $s1, $h0, $h1, $h2) = ('%r11', '%r10', '%r9', '%r8', '%rbx', '%rbp');
    my ($t0, $t1, $t2, $i) = ('%rcx', '%rsi', '%r15', '%r12');
    return <<___;

.asm_func $name, local, push=r12
	movl	%esi,$set(%rdi)
	movl	\$0,$clear(%rdi)
	movq	$C{R0}(%rdi),$r0
	movq	$C{R1}(%rdi),$r1
	movq	$C{S1}(%rdi),$s1
	movq	$r0,$h0
	movq	$r1,$h1
	xorl	%ebp,%ebp
	xorl	%r12d,%r12d
${name}_loop:
${\ $store->($h0, $h1, $h2, $i)}
	incl	%r12d
	cmpl	$set(%rdi),%r12d
	jae	${name}_done
${\ mul_reduce($h0, $h1, $h2, $r0, $r1, $s1, $t0, $t1, $t2)}
	jmp	${name}_loop
${name}_done:
___
}

# Radix 2^26: fills P(., 0..n-1), the AVX2 table B (limbs of r^4 and their
# 5*) and, for n = 16, S16 (5 * limbs 1..4 of r^16).
# The scalar chain gives r^1..r^8; r^9..r^16 = (r^1..r^8) * r^8 is one
# 8-lane vector multiplication (lanes in natural order), which is shorter
# than eight more serial steps (measured: IFMA 2048 B one-shot 280 -> 245
# TSC ticks; the same trick for r^5..r^8 was slower than the chain).  The
# vector step runs only for n = 16, i.e. from the AVX-512 entries.
$code .= power_chain('.Lpower_chain26', $C{NPOW}, $C{NPOW44}, \&store26);
$code .= "\t.asm_ret\n.asm_endfunc\n";
$code .= power_chain('.Lpower_chain44', $C{NPOW44}, $C{NPOW}, \&store44);
$code .= "\t.asm_ret\n.asm_endfunc\n";

# Radix 2^26 step: P(., k..2k-1) = P(., 0..k-1) * r^k (k = 8).
sub pow_step26 {
    my ($k) = @_;
    my @A = map { "%zmm$_" } 0 .. 4;
    my @D = map { "%zmm$_" } 5 .. 9;
    my @T = map { "%zmm$_" } 10 .. 13;
    my @M = map { "%zmm$_" } 16 .. 24;
    my $c = vcfg(8, '%zmm15', undef);
    my $s = "\tvpbroadcastq\t.Lmask26(%rip),$c->{MASK}\n";
    for my $l (0 .. 4) {
        $s .= "\tvpmovzxdq\t" . P($l, 0) . "(%rdi),$A[$l]\n";
        $s .= "\tvpbroadcastd\t" . P($l, $k - 1) . "(%rdi),$M[$l]\n";
        $s .= "\tvpslld\t\$2,$M[$l],$M[4 + $l]\n\tvpaddd\t$M[$l],$M[4 + $l],$M[4 + $l]\n" if $l;
    }
    $s .= vmul(\@A, \@D, [@T[0, 1]], sub { ('', $M[$_[0]]) });
    $s .= vcarry($c, \@D, \@A, @T[0, 1]);
    $s .= "\tvpmovqd\t$A[$_]," . P($_, $k) . "(%rdi)\n" for 0 .. 4;  # 8 u32 each
    return $s;
}

# Radix 2^44 step: Q(., k..2k-1) = Q(., 0..k-1) * r^k (k = 8).
sub pow_step44 {
    my ($k) = @_;
    my @A = map { "%zmm$_" } 0 .. 2;
    my @L = map { "%zmm$_" } 3 .. 5;
    my @H = map { "%zmm$_" } 6 .. 8;
    my @R = map { "%zmm$_" } 9 .. 11;
    my @S = map { "%zmm$_" } 12 .. 13;
    my ($t0, $t1) = ('%zmm14', '%zmm15');
    my $s = '';
    for my $l (0 .. 2) {
        $s .= "\tvmovdqu64\t" . Q($l, 0) . "(%rdi),$A[$l]\n";
        $s .= "\tvpbroadcastq\t" . Q($l, $k - 1) . "(%rdi),$R[$l]\n";
        $s .= "\tvpxorq\t$L[$l],$L[$l],$L[$l]\n\tvpxorq\t$H[$l],$H[$l],$H[$l]\n";
    }
    for my $l (1 .. 2) {
        $s .= "\tvpsllq\t\$2,$R[$l],$S[$l-1]\n\tvpsllq\t\$4,$R[$l],$t0\n\tvpaddq\t$t0,$S[$l-1],$S[$l-1]\n";
    }
    $s .= mul44(\@A, \@L, \@H, sub { $_[0] <= 2 ? ('', $R[$_[0]]) : ('', $S[$_[0] - 3]) });
    $s .= fold44(\@L, \@H, $t0, $t1);
    my $c = { MASK => $R[0], MASK42 => $R[1] };      # multipliers are dead now
    $s .= "\tmovabsq\t\$0xfffffffffff,%rax\n\tvpbroadcastq\t%rax,$R[0]\n";
    $s .= "\tshrq\t\$2,%rax\n\tvpbroadcastq\t%rax,$R[1]\n";
    $s .= carry44($c, \@L, \@A, $R[2], $S[0], $S[1]);
    for my $l (0 .. 2) {
        $s .= "\tvmovdqu64\t$A[$l]," . Q($l, $k) . "(%rdi)\n";
    }
    return $s;
}

# .Lcompute_powers / .Lcompute_powers44: rdi ctx, esi = n (4, 8 or 16;
# 8 or 16 for radix 2^44).  Clobber as power_chain plus zmm0-24; keep rdi,
# r12, r13, r14.
for my $rad (26, 44) {
    my ($name, $chain, $cnt, $step) = $rad == 26
        ? ('.Lcompute_powers', '.Lpower_chain26', $C{NPOW}, \&pow_step26)
        : ('.Lcompute_powers44', '.Lpower_chain44', $C{NPOW44}, \&pow_step44);
    $code .= <<___;

.asm_func $name, local, push=r13
	movl	%esi,%r13d
	cmpl	\$8,%esi
	jbe	${name}_chain
	movl	\$8,%esi
${name}_chain:
	call	$chain
	cmpl	\$16,%r13d
	jb	${name}_tables
${\ $step->(8)}
	vzeroupper
${name}_tables:
	movl	%r13d,$cnt(%rdi)
___
    if ($rad == 26) {
        # AVX2 table B (from r^4) and, for n = 16, S16 (from r^16)
        for my $l (0 .. 4) {
            $code .= "\tmovl\t" . P($l, 3) . "(%rdi),%eax\n\tmovl\t%eax," . B($l) . "(%rdi)\n";
            next unless $l;
            $code .= "\tleal\t(%rax,%rax,4),%eax\n\tmovl\t%eax," . B(4 + $l) . "(%rdi)\n";
        }
        $code .= "\tcmpl\t\$8,%r13d\n\tjb\t${name}_ret\n";
        for my $l (1 .. 4) {
            $code .= "\tmovl\t" . P($l, 7) . "(%rdi),%eax\n\tleal\t(%rax,%rax,4),%eax\n";
            $code .= "\tmovl\t%eax," . B8S($l) . "(%rdi)\n";
        }
        $code .= "\tcmpl\t\$16,%r13d\n\tjb\t${name}_ret\n";
        for my $l (1 .. 4) {
            $code .= "\tmovl\t" . P($l, 15) . "(%rdi),%eax\n\tleaq\t(%rax,%rax,4),%rax\n";
            $code .= "\tmovq\t%rax," . S16($l) . "(%rdi)\n";
        }
    }
    $code .= "${name}_ret:\n\t.asm_ret\n.asm_endfunc\n";
}

# ---- vector helpers ---------------------------------------------------------
# A vector configuration: register width, lanes, mnemonics, MASK and PAD.
sub vcfg {
    my ($L, $mask, $pad) = @_;
    my %c = $L == 4
        ? (v => 'ymm', L => 4, and => 'vpand', or => 'vpor', movu => 'vmovdqu',
           xor => 'vpxor', mova => 'vmovdqa')
        : (v => 'zmm', L => 8, and => 'vpandq', or => 'vporq', movu => 'vmovdqu64',
           xor => 'vpxorq', mova => 'vmovdqa64');
    @c{qw(MASK PAD)} = ($mask, $pad);
    return \%c;
}

sub xreg { my ($r) = @_; (my $x = $r) =~ s/[yz]mm/xmm/; return $x }
sub yreg { my ($r) = @_; (my $y = $r) =~ s/zmm/ymm/; return $y }

# One group of L blocks at (%r12) split into 26-bit limbs and added into
# @$X (64-bit lanes); advances r12.  Lane k holds block (k/2 + (k&1)*L/2)
# for the two-register unpack: (0,2,1,3) for L=4, (0,4,1,5,2,6,3,7) for 8.
sub vload_add {
    my ($c, $t, $X) = @_;
    my ($t0, $t1, $t2) = @$t;
    my ($and, $or, $movu, $L) = @$c{qw(and or movu L)};
    my ($M, $P) = @$c{qw(MASK PAD)};
    return <<___;
	$movu	0(%r12),$t0
	$movu	${\ (8 * $L)}(%r12),$t1
	leaq	${\ (16 * $L)}(%r12),%r12
	vpunpckhqdq	$t1,$t0,$t2	# high words of the blocks
	vpunpcklqdq	$t1,$t0,$t0	# low words
	$and	$M,$t0,$t1
	vpaddq	$t1,$X->[0],$X->[0]
	vpsrlq	\$26,$t0,$t1
	$and	$M,$t1,$t1
	vpaddq	$t1,$X->[1],$X->[1]
	vpsrlq	\$52,$t0,$t0
	vpsllq	\$12,$t2,$t1
	$or	$t1,$t0,$t0
	$and	$M,$t0,$t0
	vpaddq	$t0,$X->[2],$X->[2]
	vpsrlq	\$14,$t2,$t1
	$and	$M,$t1,$t1
	vpaddq	$t1,$X->[3],$X->[3]
	vpsrlq	\$40,$t2,$t2
	$or	$P,$t2,$t2
	vpaddq	$t2,$X->[4],$X->[4]
___
}

# D (+)= A * b, column by column.  $mult->(j) returns (code, operand) for
# limb j of b (j = 0..4) and for 5*limb (j-4) (j = 5..8); the code (loads)
# is emitted before the column.  $pt: two product temporaries.
sub vmul {
    my ($A, $D, $pt, $mult, $acc) = @_;
    my $s = '';
    for my $j (0 .. 4) {
        my ($cb, $ob) = $mult->($j);
        my ($cs, $os) = $j ? $mult->(4 + $j) : ('', undef);
        $s .= $cb . $cs;
        for my $i (0 .. 4) {
            my $k = $i + $j;
            my $o = $k < 5 ? $ob : $os;
            my $d = $D->[$k % 5];
            if ($j == 0 && !$acc) {
                $s .= "\tvpmuludq\t$o,$A->[$i],$d\n";
            } else {
                my $t = $pt->[$i & 1];
                $s .= "\tvpmuludq\t$o,$A->[$i],$t\n\tvpaddq\t$t,$d,$d\n";
            }
        }
    }
    return $s;
}

# A = D with carries propagated lazily (two interleaved chains); limbs end
# below 2^26 except A1, A4 (< 2^26 + 2^10).
sub vcarry {
    my ($c, $D, $A, $t0, $t1) = @_;
    my ($and, $M) = @$c{qw(and MASK)};
    return <<___;
	vpsrlq	\$26,$D->[0],$t0
	$and	$M,$D->[0],$A->[0]
	vpaddq	$t0,$D->[1],$D->[1]
	vpsrlq	\$26,$D->[3],$t1
	$and	$M,$D->[3],$A->[3]
	vpaddq	$t1,$D->[4],$D->[4]
	vpsrlq	\$26,$D->[1],$t0
	$and	$M,$D->[1],$A->[1]
	vpaddq	$t0,$D->[2],$D->[2]
	vpsrlq	\$26,$D->[4],$t1
	$and	$M,$D->[4],$A->[4]
	vpaddq	$t1,$A->[0],$A->[0]
	vpsllq	\$2,$t1,$t1
	vpaddq	$t1,$A->[0],$A->[0]
	vpsrlq	\$26,$D->[2],$t0
	$and	$M,$D->[2],$A->[2]
	vpaddq	$t0,$A->[3],$A->[3]
	vpsrlq	\$26,$A->[0],$t1
	$and	$M,$A->[0],$A->[0]
	vpaddq	$t1,$A->[1],$A->[1]
	vpsrlq	\$26,$A->[3],$t0
	$and	$M,$A->[3],$A->[3]
	vpaddq	$t0,$A->[4],$A->[4]
___
}

# Multiplier for the last group: lane k gets r^(base + L - block(k)),
# limbs from P(j, base..base+L-1) reordered (vpermq), 5* computed.
sub lane_powers {
    my ($c, $base, $tb, $ts, $idx) = @_;
    return sub {
        my ($j) = @_;
        if ($j <= 4) {
            my $s = "\tvpmovzxdq\t" . P($j, $base) . "(%rdi),$tb\n";
            $s .= $c->{L} == 8 ? "\tvpermq\t$tb,$idx,$tb\n" : "\tvpermq\t\$0x27,$tb,$tb\n";
            return ($s, $tb);
        }
        return ("\tvpsllq\t\$2,$tb,$ts\n\tvpaddq\t$tb,$ts,$ts\n", $ts);
    };
}

# h (radix 2^64, ctx) -> five 26-bit limbs in lane 0 of @$A (other lanes 0).
sub h_to_lanes {
    my ($A) = @_;
    my @x = map { xreg($_) } @$A;
    return <<___;
	movq	$C{H0}(%rdi),%r8
	movq	$C{H1}(%rdi),%r9
	movq	$C{H2}(%rdi),%r10
	movl	%r8d,%eax
	andl	\$0x3ffffff,%eax
	vmovd	%eax,$x[0]
	movq	%r8,%rax
	shrq	\$26,%rax
	andl	\$0x3ffffff,%eax
	vmovd	%eax,$x[1]
	movq	%r8,%rax
	shrq	\$52,%rax
	movq	%r9,%rdx
	shlq	\$12,%rdx
	orq	%rdx,%rax
	andl	\$0x3ffffff,%eax
	vmovd	%eax,$x[2]
	movq	%r9,%rax
	shrq	\$14,%rax
	andl	\$0x3ffffff,%eax
	vmovd	%eax,$x[3]
	movq	%r9,%rax
	shrq	\$40,%rax
	shlq	\$24,%r10
	orq	%r10,%rax
	vmovd	%eax,$x[4]
___
}

# Sum the lanes of @$D into r8, r9, r10, r11, rbx ($t: a register below 16).
sub vhsum {
    my ($c, $D, $t) = @_;
    my @g = ('%r8', '%r9', '%r10', '%r11', '%rbx');
    my $s = '';
    for my $k (0 .. 4) {
        my ($d, $dy, $dx, $ty, $tx) = ($D->[$k], yreg($D->[$k]), xreg($D->[$k]), yreg($t), xreg($t));
        $s .= "\tvextracti64x4\t\$1,$d,$ty\n\tvpaddq\t$ty,$dy,$dy\n" if $c->{L} == 8;
        $s .= <<___;
	vextracti128	\$1,$dy,$tx
	vpaddq	$tx,$dx,$dx
	vpsrldq	\$8,$dx,$tx
	vpaddq	$tx,$dx,$dx
	vmovq	$dx,$g[$k]
___
    }
    return $s;
}

# r8, r9, r10, r11, rbx (26-bit columns, each < 2^62) -> h in ctx, radix
# 2^64 with h2 <= 4.
sub sums_to_h {
    my @g = ('%r8', '%r9', '%r10', '%r11', '%rbx');
    my $s = "\tmovl\t\$0x3ffffff,%ecx\n";
    for my $k (0 .. 3) {
        $s .= "\tmovq\t$g[$k],%rax\n\tshrq\t\$26,%rax\n\tandq\t%rcx,$g[$k]\n\taddq\t%rax,$g[$k+1]\n";
    }
    $s .= <<___;
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
___
    return $s;
}

# Common entry of a vector body: save args, make sure n powers are cached.
sub vec_entry {
    my ($p, $n) = @_;
    return <<___;
	movq	%rsi,%r12
	movq	%rdx,%r13
	negl	%ecx			# padbit = (padbit != 0)
	sbbl	%ecx,%ecx
	negl	%ecx
	movl	%ecx,%r14d
	cmpl	\$$n,$C{NPOW}(%rdi)
	jae	${p}_have_powers
	movl	\$$n,%esi
	call	.Lcompute_powers
${p}_have_powers:
___
}

# Common exit: leftover blocks (len mod $unit) through the scalar loop.
sub vec_exit {
    my ($p, $unit) = @_;
    return <<___;
	vzeroupper
	andq	\$${\ ($unit - 1)},%r13	# leftover blocks: scalar
	cmpq	\$16,%r13
	jb	${p}_done
	movq	%r12,%rsi
	movq	%r13,%rdx
	movl	%r14d,%ecx
	call	.Lblocks_scalar
${p}_done:
	.asm_ret
.asm_endfunc
___
}

# ---- single-chain vector body: L = 4 (AVX2) or 8 (AVX-512F) ---------------
# rdi ctx, rsi inp, rdx len (>= 16*L), ecx padbit.  SysV internal; clobbers
# every GPR but rdi (the entry points saved the callee-saved ones) and
# every vector register (on Win64 the body's own frame keeps xmm6-15, so
# short inputs that never get here do not pay for it).  Multiplier r^L:
# AVX2 broadcasts it from the B table, AVX-512 keeps it in zmm16-24.
sub vec_single {
    my ($L) = @_;
    my $v = $L == 4 ? 'ymm' : 'zmm';
    my @A = map { "%$v$_" } 0 .. 4;
    my @D = map { "%$v$_" } 5 .. 9;
    my @T = map { "%$v$_" } 10 .. 13;
    my $c = vcfg($L, "%${v}15", "%${v}14");
    my $IDX = '%zmm25';
    my @MUL = map { "%zmm$_" } 16 .. 24;
    my $p = ".Lv$L";
    my $mult = $L == 8
        ? sub { ('', $MUL[$_[0]]) }
        : sub { my $t = $_[0] <= 4 ? $T[2] : $T[3];
                ("\tvpbroadcastd\t" . B($_[0]) . "(%rdi),$t\n", $t) };
    my $s = "\n.asm_func ${p}_body, local, xmm\n" . vec_entry($p, $L) . h_to_lanes(\@A);
    $s .= "\tvpbroadcastq\t.Lmask26(%rip),$c->{MASK}\n";
    $s .= "\tmovl\t%r14d,%eax\n\tshll\t\$24,%eax\n\tvmovd\t%eax," . xreg($c->{PAD}) . "\n";
    $s .= "\tvpbroadcastq\t" . xreg($c->{PAD}) . ",$c->{PAD}\n";
    if ($L == 8) {
        $s .= "\tvpbroadcastd\t" . P($_, 7) . "(%rdi),$MUL[$_]\n" for 0 .. 4;
        $s .= "\tvpslld\t\$2,$MUL[$_],$MUL[4 + $_]\n\tvpaddd\t$MUL[$_],$MUL[4 + $_],$MUL[4 + $_]\n"
            for 1 .. 4;
        $s .= "\tvmovdqu64\t.Lperm8(%rip),$IDX\n";
    }
    my $lg = $L == 8 ? 7 : 6;
    $s .= <<___;
	movq	%r13,%r15
	shrq	\$$lg,%r15		# groups of $L blocks (>= 1)
${\ vload_add($c, [@T[0..2]], \@A)}
	decq	%r15
	jz	${p}_final
	jmp	${p}_loop
.balign 32
${p}_loop:
# LLVM-MCA-BEGIN poly1305_vec$L
${\ vmul(\@A, \@D, [@T[0,1]], $mult)}
${\ vload_add($c, [@T[0..2]], \@D)}
${\ vcarry($c, \@D, \@A, @T[0,1])}
	decq	%r15
	jnz	${p}_loop
# LLVM-MCA-END
${p}_final:
${\ vmul(\@A, \@D, [@T[0,1]], lane_powers($c, 0, @T[2,3], $IDX))}
${\ vhsum($c, \@D, $T[0])}
${\ sums_to_h()}
___
    $s .= vec_exit($p, 16 * $L);
    return $s;
}

# ---- two-chain AVX-512F body: 16 blocks per iteration ----------------------
# Chains X and Y (eight lanes each) take alternate groups of 8 blocks, both
# multiplied by r^16; at the end X is multiplied lane-wise by r^16..r^9 and
# Y by r^8..r^1.  An odd number of groups starts Y with the first group
# (and h), X at zero.  Two independent chains hide the multiply/carry
# latency of one.  Registers: X zmm0-4, Y zmm5-9, DX zmm10-14, DY zmm15-19,
# T zmm20-23, MASK zmm24, PAD zmm25, r^16 limbs zmm26-30, perm zmm31;
# 5*limbs of r^16 are broadcast from S16 in ctx.
sub vec_dual {
    my @X  = map { "%zmm$_" } 0 .. 4;
    my @Y  = map { "%zmm$_" } 5 .. 9;
    my @DX = map { "%zmm$_" } 10 .. 14;
    my @DY = map { "%zmm$_" } 15 .. 19;
    my @T  = map { "%zmm$_" } 20 .. 23;
    my $c = vcfg(8, '%zmm24', '%zmm25');
    my @R = map { "%zmm$_" } 26 .. 30;
    my $IDX = '%zmm31';
    my $p = '.Lv16';
    my $mult = sub { $_[0] <= 4 ? ('', $R[$_[0]]) : ('', S16($_[0] - 4) . '(%rdi){1to8}') };
    my $s = "\n.asm_func ${p}_body, local, xmm\n" . vec_entry($p, 16) . h_to_lanes(\@X);
    $s .= "\tvpbroadcastq\t.Lmask26(%rip),$c->{MASK}\n";
    $s .= "\tmovl\t%r14d,%eax\n\tshll\t\$24,%eax\n\tvpbroadcastq\t%rax,$c->{PAD}\n";
    $s .= "\tvpbroadcastd\t" . P($_, 15) . "(%rdi),$R[$_]\n" for 0 .. 4;
    $s .= "\tvmovdqu64\t.Lperm8(%rip),$IDX\n";
    $s .= <<___;
	movq	%r13,%r15
	shrq	\$7,%r15		# groups of 8 blocks (>= 2)
	testq	\$1,%r15
	jz	${p}_even
___
    $s .= "\tvmovdqa64\t$X[$_],$Y[$_]\n\tvpxorq\t$X[$_],$X[$_],$X[$_]\n" for 0 .. 4;
    $s .= <<___;
${\ vload_add($c, [@T[0..2]], \@Y)}
	shrq	\$1,%r15		# pairs left (>= 1)
	jmp	${p}_loop
${p}_even:
___
    $s .= "\tvpxorq\t$Y[$_],$Y[$_],$Y[$_]\n" for 0 .. 4;
    $s .= <<___;
${\ vload_add($c, [@T[0..2]], \@X)}
${\ vload_add($c, [@T[0..2]], \@Y)}
	shrq	\$1,%r15
	decq	%r15
	jz	${p}_final
.balign 32
${p}_loop:
# LLVM-MCA-BEGIN poly1305_vec16
${\ vmul(\@X, \@DX, [@T[0,1]], $mult)}
${\ vmul(\@Y, \@DY, [@T[2,3]], $mult)}
${\ vload_add($c, [@T[0..2]], \@DX)}
${\ vload_add($c, [@T[0..2]], \@DY)}
${\ vcarry($c, \@DX, \@X, @T[0,1])}
${\ vcarry($c, \@DY, \@Y, @T[2,3])}
	decq	%r15
	jnz	${p}_loop
# LLVM-MCA-END
${p}_final:
${\ vmul(\@X, \@DX, [@T[0,1]], lane_powers($c, 8, @T[2,3], $IDX))}
${\ vmul(\@Y, \@DX, [@T[0,1]], lane_powers($c, 0, @T[2,3], $IDX), 1)}
${\ vhsum($c, \@DX, $Y[0])}
${\ sums_to_h()}
___
    $s .= vec_exit($p, 128);
    return $s;
}

$code .= vec_single(4);
$code .= vec_single(8);
$code .= vec_dual();

# ---- two-chain AVX2 body: 8 blocks per iteration ---------------------------
# As vec_dual but with 4-lane chains X and Y and multiplier r^8: sixteen
# ymm registers hold one chain's working set, so the two accumulators live
# in the frame and are reloaded in turn (store-to-load forwarding, no
# stall); the second chain hides the first one's multiply/carry latency.
# Multiplier limbs are broadcast from P(., 7) and B8S.
sub vec_dual4 {
    my @A = map { "%ymm$_" } 0 .. 4;
    my @D = map { "%ymm$_" } 5 .. 9;
    my @T = map { "%ymm$_" } 10 .. 13;
    my $c = vcfg(4, '%ymm15', '%ymm14');
    my $p = '.Lv4d';
    my $slot = sub { my ($ch, $l) = @_; return (160 * $ch + 32 * $l) . '(%rsp)' };
    my $mult = sub {
        my ($j) = @_;
        my ($t, $src) = $j <= 4 ? ($T[2], P($j, 7)) : ($T[3], B8S($j - 4));
        return ("\tvpbroadcastd\t$src(%rdi),$t\n", $t);
    };
    my $ld = sub { join '', map { "\tvmovdqu\t" . $slot->($_[0], $_) . ",$A[$_]\n" } 0 .. 4 };
    my $st = sub { join '', map { "\tvmovdqu\t$A[$_]," . $slot->($_[0], $_) . "\n" } 0 .. 4 };
    my $zero = join '', map { "\tvpxor\t$_,$_,$_\n" } @A;
    my $step = sub {       # chain ch: A = A*r^8 + next group
        my ($ch) = @_;
        return $ld->($ch) . vmul(\@A, \@D, [@T[0, 1]], $mult)
             . vload_add($c, [@T[0 .. 2]], \@D) . vcarry($c, \@D, \@A, @T[0, 1]) . $st->($ch);
    };
    my $s = "\n.asm_func ${p}_body, local, xmm, frame=320\n" . vec_entry($p, 8) . h_to_lanes(\@A);
    $s .= "\tvpbroadcastq\t.Lmask26(%rip),$c->{MASK}\n";
    $s .= "\tmovl\t%r14d,%eax\n\tshll\t\$24,%eax\n\tvmovd\t%eax," . xreg($c->{PAD}) . "\n";
    $s .= "\tvpbroadcastq\t" . xreg($c->{PAD}) . ",$c->{PAD}\n";
    $s .= <<___;
	movq	%r13,%r15
	shrq	\$6,%r15		# groups of 4 blocks (>= 2)
	testq	\$1,%r15
	jz	${p}_even
${\ vload_add($c, [@T[0..2]], \@A)}
${\ $st->(1)}
$zero
${\ $st->(0)}
	shrq	\$1,%r15		# pairs left (>= 1)
	jmp	${p}_loop
${p}_even:
${\ vload_add($c, [@T[0..2]], \@A)}
${\ $st->(0)}
$zero
${\ vload_add($c, [@T[0..2]], \@A)}
${\ $st->(1)}
	shrq	\$1,%r15
	decq	%r15
	jz	${p}_final
.balign 32
${p}_loop:
# LLVM-MCA-BEGIN poly1305_vec4x2
${\ $step->(0)}
${\ $step->(1)}
	decq	%r15
	jnz	${p}_loop
# LLVM-MCA-END
${p}_final:
${\ $ld->(0)}
${\ vmul(\@A, \@D, [@T[0,1]], lane_powers($c, 4, @T[2,3], undef))}
${\ $ld->(1)}
${\ vmul(\@A, \@D, [@T[0,1]], lane_powers($c, 0, @T[2,3], undef), 1)}
${\ vhsum($c, \@D, $T[0])}
${\ sums_to_h()}
___
    $s .= vec_exit($p, 64);          # groups of 64 bytes, odd counts included
    return $s;
}
$code .= vec_dual4();

# ---- AVX512-IFMA, radix 2^44 ---------------------------------------------
# h = h0 + h1*2^44 + h2*2^88 (h0, h1 44 bits, h2 42 bits plus lazy excess),
# same for r.  2^132 == 20 mod p, so with s_j = 20*r_j:
#   d0 = h0 r0 + h1 s2 + h2 s1
#   d1 = h0 r1 + h1 r0 + h2 s2
#   d2 = h0 r2 + h1 r1 + h2 r0
# vpmadd52luq/huq add the low/high 52 bits of each 52x52 product into
# separate accumulators L_k (started at the next message's limbs) and H_k;
# H_k sits 2^8 above limb k+1, and H_2 (2^140 == 20*2^8) folds into L_0 as
# H_2*5120.  Lanes, groups, chains and the final lane-wise powers are as
# in the radix-2^26 code (Q holds r^1..r^16 as 44-bit limbs).

# One group of 8 blocks at (%r12) as 44-bit limbs: into @$X (set) or added.
sub load44 {
    my ($c, $t, $X, $add) = @_;
    my ($t0, $t1, $t2, $t3) = @$t;
    my ($M, $P) = @$c{qw(MASK PAD)};
    my @o = $add ? ($t3, $t3, $t3) : @$X;
    my $s = <<___;
	vmovdqu64	0(%r12),$t0
	vmovdqu64	64(%r12),$t1
	leaq	128(%r12),%r12
	vpunpckhqdq	$t1,$t0,$t2
	vpunpcklqdq	$t1,$t0,$t0
	vpandq	$M,$t0,$o[0]
___
    $s .= "\tvpaddq\t$t3,$X->[0],$X->[0]\n" if $add;
    $s .= <<___;
	vpsrlq	\$44,$t0,$t0
	vpsllq	\$20,$t2,$t1
	vporq	$t1,$t0,$t0
	vpandq	$M,$t0,$o[1]
___
    $s .= "\tvpaddq\t$t3,$X->[1],$X->[1]\n" if $add;
    $s .= "\tvpsrlq\t\$24,$t2,$t2\n\tvporq\t$P,$t2,$o[2]\n";
    $s .= "\tvpaddq\t$t3,$X->[2],$X->[2]\n" if $add;
    return $s;
}

# L, H (+)= A * b; $mult->(j): (code, operand) for limb j (0..2) and for
# 20*limb (j-2) (j = 3, 4).
sub mul44 {
    my ($A, $L, $H, $mult) = @_;
    my $s = '';
    for my $j (0 .. 2) {
        my ($cb, $ob) = $mult->($j);
        my ($cs, $os) = $j ? $mult->(2 + $j) : ('', undef);
        $s .= $cb . $cs;
        for my $i (0 .. 2) {
            my $k = $i + $j;
            my $o = $k < 3 ? $ob : $os;
            $s .= "\tvpmadd52luq\t$o,$A->[$i],$L->[$k % 3]\n";
            $s .= "\tvpmadd52huq\t$o,$A->[$i],$H->[$k % 3]\n";
        }
    }
    return $s;
}

# Fold the high halves into L: L1 += H0<<8, L2 += H1<<8, L0 += H2*5120.
sub fold44 {
    my ($L, $H, $t0, $t1) = @_;
    return <<___;
	vpsllq	\$8,$H->[0],$t0
	vpaddq	$t0,$L->[1],$L->[1]
	vpsllq	\$8,$H->[1],$t1
	vpaddq	$t1,$L->[2],$L->[2]
	vpsllq	\$10,$H->[2],$t0
	vpsllq	\$12,$H->[2],$t1
	vpaddq	$t0,$L->[0],$L->[0]
	vpaddq	$t1,$L->[0],$L->[0]
___
}

# A = L with carries: limbs end below 2^44, 2^44 + 2^13, 2^42 + 2^11.
sub carry44 {
    my ($c, $L, $A, $t0, $t1, $t2) = @_;
    my ($M, $M42) = @$c{qw(MASK MASK42)};
    return <<___;
	vpsrlq	\$44,$L->[0],$t0
	vpsrlq	\$42,$L->[2],$t1
	vpandq	$M,$L->[0],$A->[0]
	vpandq	$M42,$L->[2],$A->[2]
	vpaddq	$t0,$L->[1],$L->[1]
	vpsllq	\$2,$t1,$t2
	vpaddq	$t1,$A->[0],$A->[0]
	vpaddq	$t2,$A->[0],$A->[0]
	vpsrlq	\$44,$L->[1],$t0
	vpandq	$M,$L->[1],$A->[1]
	vpaddq	$t0,$A->[2],$A->[2]
	vpsrlq	\$44,$A->[0],$t1
	vpandq	$M,$A->[0],$A->[0]
	vpaddq	$t1,$A->[1],$A->[1]
___
}

# Lane-wise powers r^(base+8-block(k)) from Q, and 20* of them.
sub lane_powers44 {
    my ($base, $tb, $ts, $tt, $idx) = @_;
    my %b;
    return sub {
        my ($j) = @_;
        if ($j <= 2) {
            my $t = $tb->[$j];
            return ("\tvmovdqu64\t" . Q($j, $base) . "(%rdi),$t\n\tvpermq\t$t,$idx,$t\n", $t);
        }
        my ($t, $u) = ($tb->[$j - 2], $ts->[$j - 3]);
        return ("\tvpsllq\t\$2,$t,$u\n\tvpsllq\t\$4,$t,$tt\n\tvpaddq\t$tt,$u,$u\n", $u);
    };
}

# Radix 2^44 body, one chain (8 lanes, r^8) or two (16 blocks, r^16).
# rdi ctx, rsi inp, rdx len (>= 128 or >= 256), ecx padbit; SysV
# internal, clobbers everything but rdi (and xmm6-15 on Win64), as above.
# Sum the lanes of @$LX (radix-2^44 columns, below zmm16) into h in ctx,
# radix 2^64 ($tmp: a register below zmm16).
sub sums44_to_h {
    my ($LX, $tmp) = @_;
    my $s = '';
    # lane sums -> r8, r9, r10 (temporaries below zmm16 for the VEX forms)
    my @g = ('%r8', '%r9', '%r10');
    for my $k (0 .. 2) {
        my ($d, $dy, $dx) = ($LX->[$k], yreg($LX->[$k]), xreg($LX->[$k]));
        my ($ty, $tx) = (yreg($tmp), xreg($tmp));
        $s .= <<___;
	vextracti64x4	\$1,$d,$ty
	vpaddq	$ty,$dy,$dy
	vextracti128	\$1,$dy,$tx
	vpaddq	$tx,$dx,$dx
	vpsrldq	\$8,$dx,$tx
	vpaddq	$tx,$dx,$dx
	vmovq	$dx,$g[$k]
___
    }
    $s .= <<___;
	vzeroupper
	movabsq	\$0xfffffffffff,%rcx	# carry, then radix 2^44 -> 2^64
	movq	%r8,%rax
	shrq	\$44,%rax
	andq	%rcx,%r8
	addq	%rax,%r9
	movq	%r9,%rax
	shrq	\$44,%rax
	andq	%rcx,%r9
	addq	%rax,%r10
	movq	%r10,%rax
	shrq	\$42,%rax
	shrq	\$2,%rcx
	andq	%rcx,%r10
	leaq	(%rax,%rax,4),%rax
	addq	%rax,%r8
	movq	%r8,%rax
	shrq	\$44,%rax
	shlq	\$2,%rcx
	orq	\$3,%rcx
	andq	%rcx,%r8
	addq	%rax,%r9		# g0 < 2^44, g1 < 2^44 + 2^21, g2 < 2^42
	movq	%r9,%rsi		# h1 = g1>>20 + g2<<24
	shrq	\$20,%rsi
	movq	%r10,%rdx		# h2 = g2>>40
	shrq	\$40,%rdx
	shlq	\$24,%r10
	addq	%r10,%rsi
	adcq	\$0,%rdx
	shlq	\$44,%r9		# h0 = g0 + g1<<44
	addq	%r9,%r8
	adcq	\$0,%rsi
	adcq	\$0,%rdx
	movq	%r8,$C{H0}(%rdi)
	movq	%rsi,$C{H1}(%rdi)
	movq	%rdx,$C{H2}(%rdi)
___
    return $s;
}

sub vec44 {
    my ($dual) = @_;
    my $n = $dual ? 16 : 8;
    my @X  = map { "%zmm$_" } 0 .. 2;
    my @Y  = map { "%zmm$_" } 3 .. 5;
    my @LX = map { "%zmm$_" } 6 .. 8;
    my @HX = map { "%zmm$_" } 9 .. 11;
    my @LY = map { "%zmm$_" } 12 .. 14;
    my @HY = map { "%zmm$_" } 15 .. 17;
    my @T  = map { "%zmm$_" } 18 .. 21;
    my $c = { MASK => '%zmm22', MASK42 => '%zmm23', PAD => '%zmm24' };
    my @R = map { "%zmm$_" } 25 .. 27;     # r^n limbs
    my @S = map { "%zmm$_" } 28 .. 29;     # 20 * limbs 1, 2
    my $IDX = '%zmm30';
    my $p = $dual ? '.Lq16' : '.Lq8';
    my $mult = sub { $_[0] <= 2 ? ('', $R[$_[0]]) : ('', $S[$_[0] - 3]) };
    my @xx = map { xreg($_) } @X;
    my $s = <<___;

.asm_func ${p}_body, local, xmm
	movq	%rsi,%r12
	movq	%rdx,%r13
	negl	%ecx			# padbit = (padbit != 0)
	sbbl	%ecx,%ecx
	negl	%ecx
	movl	%ecx,%r14d
	cmpl	\$$n,$C{NPOW44}(%rdi)
	jae	${p}_have_powers
	movl	\$$n,%esi
	call	.Lcompute_powers44
${p}_have_powers:
	movq	$C{H0}(%rdi),%r8	# h: radix 2^64 -> 2^44, into lane 0
	movq	$C{H1}(%rdi),%r9
	movq	$C{H2}(%rdi),%r10
	movabsq	\$0xfffffffffff,%rcx
	movq	%r8,%rax
	andq	%rcx,%rax
	vmovq	%rax,$xx[0]
	shrq	\$44,%r8
	movq	%r9,%rax
	shlq	\$20,%rax
	orq	%r8,%rax
	andq	%rcx,%rax
	vmovq	%rax,$xx[1]
	shrq	\$24,%r9
	shlq	\$40,%r10
	orq	%r10,%r9
	vmovq	%r9,$xx[2]
	vpbroadcastq	%rcx,$c->{MASK}
	shrq	\$2,%rcx
	vpbroadcastq	%rcx,$c->{MASK42}
	movl	%r14d,%eax
	shlq	\$40,%rax
	vpbroadcastq	%rax,$c->{PAD}
	vmovdqu64	.Lperm8(%rip),$IDX
___
    for my $l (0 .. 2) {
        $s .= "\tvpbroadcastq\t" . Q($l, $n - 1) . "(%rdi),$R[$l]\n";
    }
    for my $l (1 .. 2) {
        $s .= "\tvpsllq\t\$2,$R[$l],$S[$l-1]\n\tvpsllq\t\$4,$R[$l],$T[0]\n\tvpaddq\t$T[0],$S[$l-1],$S[$l-1]\n";
    }
    my $zero = sub { join '', map { "\tvpxorq\t$_,$_,$_\n" } @_ };
    my $step = sub {       # A = A*r^n + next group
        my ($A, $L, $H) = @_;
        return load44($c, \@T, $L) . $zero->(@$H) . mul44($A, $L, $H, $mult)
             . fold44($L, $H, @T[0, 1]) . carry44($c, $L, $A, @T[0 .. 2]);
    };
    $s .= "\tmovq\t%r13,%r15\n\tshrq\t\$7,%r15\t\t# groups of 8 blocks\n";
    if ($dual) {
        $s .= "\ttestq\t\$1,%r15\n\tjz\t${p}_even\n";
        $s .= "\tvmovdqa64\t$X[$_],$Y[$_]\n\tvpxorq\t$X[$_],$X[$_],$X[$_]\n" for 0 .. 2;
        $s .= load44($c, \@T, \@Y, 1);
        $s .= "\tshrq\t\$1,%r15\n\tjmp\t${p}_loop\n${p}_even:\n";
        $s .= $zero->(@Y) . load44($c, \@T, \@X, 1) . load44($c, \@T, \@Y, 1);
        $s .= "\tshrq\t\$1,%r15\n";
    } else {
        $s .= load44($c, \@T, \@X, 1);
    }
    $s .= <<___;
	decq	%r15
	jz	${p}_final
.balign 32
${p}_loop:
# LLVM-MCA-BEGIN poly1305_ifma$n
___
    $s .= $step->(\@X, \@LX, \@HX);
    $s .= $step->(\@Y, \@LY, \@HY) if $dual;
    $s .= <<___;
	decq	%r15
	jnz	${p}_loop
# LLVM-MCA-END
${p}_final:
___
    # last group(s): lane-wise powers, all products into LX/HX
    $s .= $zero->(@LX, @HX);
    my @tb = ($T[0], $T[1], $T[2]);
    my @ts = ($T[3], $LY[0]);
    $s .= mul44(\@X, \@LX, \@HX, lane_powers44($dual ? 8 : 0, \@tb, \@ts, $LY[1], $IDX));
    $s .= mul44(\@Y, \@LX, \@HX, lane_powers44(0, \@tb, \@ts, $LY[1], $IDX)) if $dual;
    $s .= fold44(\@LX, \@HX, @T[0, 1]);
    $s .= sums44_to_h(\@LX, $X[0]);
    $s .= vec_exit($p, 128);
    return $s;
}

$code .= vec44(0);
$code .= vec44(1);

# A blocks entry for one capability level: the widest body whose minimum
# length len reaches, else the scalar loop.  @paths are [min, label, body]
# from the widest down; len is public, so these branches leak nothing.
sub blocks_entry {
    my ($name, @paths) = @_;
    my $s = <<___;

# void $name(ctx, inp, len, padbit)
.asm_func $name, indirect, nargs=4, push=rbx:rbp:r12:r13:r14:r15
___
    $s .= "\tcmpq\t\$$_->[0],%rdx\n\tjae\t$_->[1]\n" for @paths;
    $s .= "\tcall\t.Lblocks_scalar\n\t.asm_ret\n";
    $s .= "$_->[1]:\n\tcall\t$_->[2]\n\t.asm_ret\n" for reverse @paths;
    return $s . ".asm_endfunc\n";
}

$code .= blocks_entry('poly1305_blocks_avx2',
    [$VEC4D_MIN, '.Lavx2_vec4d', '.Lv4d_body'],
    [$VEC4_MIN,  '.Lavx2_vec',   '.Lv4_body']);
$code .= blocks_entry('poly1305_blocks_avx512',
    [$VEC16_MIN, '.Lavx512_vec16', '.Lv16_body'],
    [$VEC8_MIN,  '.Lavx512_vec8',  '.Lv8_body'],
    [$VEC4_MIN,  '.Lavx512_vec4',  '.Lv4_body']);
$code .= blocks_entry('poly1305_blocks_avx512ifma',
    [$VEC44D_MIN, '.Lifma_q16',  '.Lq16_body'],
    [$VEC44_MIN,  '.Lifma_q8',   '.Lq8_body'],
    [$VEC4_MIN,   '.Lifma_vec4', '.Lv4_body']);

$code .= <<___;

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
