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
# 25.  In the loop (and the per-call power products) two of the folds and
# the times-5 of the top carry are vpmadd52luq by a constant, and the
# carries are taken in parallel, leaving limbs a little above 44/44/42
# bits, which the multiplications accept.  See the comment before sub
# load44.
#
# AVX1 (poly1305_blocks_avx, for CPUs with AVX but not AVX2): the same
# radix-2^26 code with 128-bit xmm registers, two lanes per chain and two
# chains (multiplier r^4), VEX-encoded with no AVX2 instruction.
#
# h is kept in radix 2^64 in the context between calls: every vector call
# converts at entry and back at exit, so any sequence of calls of any
# lengths through any of the block functions is consistent, and the
# remainder (len mod 16L) is finished by the scalar loop.  Short inputs
# (below $VEC4_MIN bytes) go straight to the scalar loop and never touch
# vector registers.  Nothing depends on secret data for a branch or an
# address.
#
# State budget.  Every path, at every length, writes at most 128 bytes
# from ctx (the importers' budget is 192: OpenSSL's POLY1305 opaque, and
# every Linux glue), and ctx needs only 8-byte alignment (no aligned
# vector access to it):
#   0  h0, 8 h1, 16 h2 (u64; h2 < 2^32, so the u32 at 20, the kernel
#      glue's is_base2_26, is always 0)    24 r0, 32 r1, 40 s1 (u64)
#   48 u32: r^2..r^4 cached (zeroed by init)
#   56, 80, 104: r^2, r^3, r^4 (radix 2^64 triples, partially reduced)
# r^2..r^4 come from three scalar multiplications on the first vector call
# after init.  Every vector call then builds r^1..r^n (n = 4, 8 or 16) in
# its own stack frame (64-byte aligned, through rbp): r^1..r^4 are moved
# into 64-bit lanes and split into limbs in registers, r^5..r^8 = (r^1..
# r^4) * r^4 is one 4-lane vector multiplication and r^9..r^16 = (r^1..
# r^8) * r^8 one 8-lane multiplication, all in registers (a vector load
# of entries just written by narrower stores would wait for them to
# retire); the frame copy is wiped before the call returns.
#
# Kernel mode (-D__KERNEL__; `perl poly1305-x86_64-cryptogams.pl > X.S`
# from a flat copy, no translator needed for the elf output): exports
# poly1305_init_x86_64(ctx, key) (returns 0, reads no capability word),
# poly1305_blocks_x86_64(ctx, inp, size_t len, u32 padbit),
# poly1305_emit_x86_64(ctx, mac, nonce), poly1305_emit_avx (same code,
# its own symbol), poly1305_blocks_avx (AVX1), poly1305_blocks_avx2,
# poly1305_blocks_avx512 (AVX2 + AVX-512F); glue generations A, B and C
# (ASMCRYPT_KERNEL_GLUE 1, 2, 3; default 3) link the same names, and a
# -Dpoly1305_init=... on the command line wins over the in-file rename.
# Only %ecx of padbit is read.  objtool: every ret is followed by int3,
# every call targets a local function symbol (.type/.size), no radix-2^44
# code (the glue has no IFMA entry).  The script looks for
# x86_64-xlate.pl beside itself, then in ../../../perlasm/; without it only
# the elf flavour is available (done by an equivalent built-in pass).
#
# Capability word (user-space builds; cpp, the .S goes through the C
# compiler):
#   ASMCRYPT_CAPWORD               u32 array read (default asmcrypt_cpucap,
#                                  hidden)
#   ASMCRYPT_CAPBIT_X86_AVX2       bit numbers (word n/32, bit n%32);
#   ASMCRYPT_CAPBIT_X86_AVX512F    defaults 4, 5, 8 (include/asmcrypt/cpu.h);
#   ASMCRYPT_CAPBIT_X86_AVX512IFMA -1: "present iff the build's ISA has it"
#   (ASMCRYPT_CAPBIT_X86_AVX, 3, is defined for the importers' sake; init
#   does not pick the AVX1 entry, as asmcrypt_impl() does not name it)
#   -DASMCRYPT_OPENSSL             word OPENSSL_ia32cap_P, OpenSSL's bits
#                                  (AVX 60, AVX2 69, AVX512F 80, IFMA 85),
#                                  each only if not defined already; also
#                                  provides xor128_encrypt_n_pad and
#                                  xor128_decrypt_n_pad for OpenSSL's
#                                  ChaCha20-Poly1305.
# init returns 1 and stores the blocks/emit pair in func[2] (0 for a NULL
# key, which only zeroes h), as OpenSSL's C expects.
#
# Performance, our measurements.
#   AMD EPYC Zen 5 VM ("Oxide Virtual Turin-like Processor", family 26
#   model 2), apps/speed (medians of 5 interleaved runs of -r 11,
#   estimated core cycles), one-shot MAC with key set per message, cycles
#   per byte, before -> after the 192-byte state (powers per call):
#     size      scalar   AVX2          AVX-512F      IFMA
#     16 B       2.03    2.10 -> 2.14  2.13 -> 2.12  2.09 -> 2.12
#     64 B       1.00    1.01 -> 1.03  1.02 -> 1.05  1.02 -> 1.05
#     256 B      0.86    0.78 -> 0.78  0.78 -> 0.78  0.63 -> 0.50
#     1024 B     0.83    0.55 -> 0.52  0.38 -> 0.36  0.285 -> 0.264
#     8192 B     0.82    0.43 -> 0.42  0.23 -> 0.22  0.149 -> 0.146
#     16384 B    0.82    0.42 -> 0.42  0.21 -> 0.21  0.140 -> 0.138
#   (columns = ASMCRYPT_CAP levels f, 1f, ff, 1ff; AVX-512F/IFMA below
#   192/256 B run the scalar or AVX2 code by design.  OpenSSL 3.0 EVP_MAC
#   in the earlier runs: 11.4, 3.81, 1.31, 0.55, 0.31, 0.29.)
#   Streaming, key kept, 64 KiB in calls of 1 / 4 / 16 KiB (TSC ticks per
#   byte, best of 300; the per-call power steps cost about 45 ticks):
#     AVX2 0.31/0.29/0.28 -> 0.31/0.29/0.28, AVX-512F 0.156/0.143/0.139 ->
#     0.200/0.154/0.141, IFMA 0.110/0.095/0.090 -> 0.136/0.100/0.091.
#   AVX1 (2 x 2 lanes) on this core: 0.58 ticks/byte at 1 KiB, 0.56 at
#   16 KiB, about the scalar loop; it is meant for AVX-only cores.
#   IFMA loop and per-call powers (issue 13; the loop forms of fold44 and
#   carry44, mul44_rows), same machine, `ASMCRYPT_CAP=ffffffff
#   apps/speed -q -r 11 poly1305`, 5 runs alternating with the build
#   before, medians, est. core cycles per byte, before -> after:
#     256 B 0.618 -> 0.561, 1024 B 0.276 -> 0.239, 8192 B 0.148 -> 0.115,
#     16384 B 0.139 -> 0.109 (16 and 64 B: scalar loop, unchanged).
#   Streaming, key kept, 64 KiB in calls of 1 / 4 / 16 KiB (TSC ticks per
#   byte, both objects in one binary, median of 9 interleaved rounds):
#     0.112/0.083/0.075 -> 0.094/0.064/0.057.
#   The loop is bound by the vector pipes, not by IFMA latency: on this
#   core vpmadd52luq/huq zmm issue 2 per cycle (latency 4), shifts 2 per
#   cycle on other pipes, vpaddq/vpandq 4 per cycle; the two-chain loop
#   ran 33 cycles per 16 blocks for 36 IFMA + 62 other vector ops and
#   now runs about 25 for 42 IFMA + 38 other (plus 6 zeroing idioms and
#   4 loads either way).
#   llvm-mca-19 cycles per loop iteration (cycles/byte), from `make mca`
#   (ifma rows: after issue 13, were 25.1 and 42.3):
#     region            skylake        icelake-server   znver3
#     poly1305_scalar   17.0 (1.06)    17.0 (1.06)      24.0 (1.50)
#     poly1305_vec4     29.6 (0.46)    29.6 (0.46)      27.6 (0.43)
#     poly1305_vec4x2   60.1 (0.47)    60.1 (0.47)      55.1 (0.43)
#     poly1305_vec2x2   60.1 (0.94)    60.1 (0.94)      55.1 (0.86)
#     poly1305_vec8       -            36.1 (0.28)        -
#     poly1305_vec16      -            68.0 (0.27)        -
#     poly1305_ifma8      -            24.1 (0.19)        -
#     poly1305_ifma16     -            37.1 (0.14)        -
#
use strict;
use warnings;

# ---- arguments and output ----------------------------------------------------
# "X.pl [FLAVOUR [OUT]]", "X.pl OUT.S" or no argument at all (elf, stdout:
# the kernel's `perl poly1305-x86_64-cryptogams.pl > X.S`).
# Arguments: [FLAVOUR] [anything ...] [OUT.S], OpenSSL's perlasm command
# line included (docs/adding-a-module.md, "The script's command line").
my @args = @ARGV;
my $output  = (@args && $args[-1] =~ /\.\w+$/ && $args[-1] !~ /^-/) ? pop @args : undef;
my $flavour = (@args && $args[0] !~ /^-|\./) ? shift @args : 'elf';
$flavour = 'elf' if $flavour =~ /^(linux|elf64|elf|void)$/;
my $dir = $0; $dir =~ s{[^/]*$}{};
$dir = './' if $dir eq '';
my $xlate;
for ("${dir}x86_64-xlate.pl", "${dir}../../../perlasm/x86_64-xlate.pl") {
    if (-f $_) { $xlate = $_; last }
}
die "poly1305-x86_64.pl: x86_64-xlate.pl not found (needed for '$flavour')\n"
    if !defined $xlate && $flavour ne 'elf';

# ---- tunables ---------------------------------------------------------------
my $VEC2D_MIN = 256;    # bytes: from here the AVX entry runs two 2-lane chains
my $VEC4_MIN = 192;     # bytes: below this the AVX2 entry runs scalar
my $VEC4D_MIN = 512;    # bytes: from here the AVX2 entry runs two chains
my $VEC8_MIN = 384;     # bytes: below this the AVX-512 entry runs AVX2
my $VEC16_MIN = 1024;   # bytes: from here the AVX-512 entry runs two chains
my $VEC44_MIN = 256;    # bytes: from here the IFMA entry runs radix 2^44
my $VEC44D_MIN = 768;   # bytes: ... with two chains

# ---- context layout (at most 192 bytes, 8-byte aligned) --------------------
#   0 h0, 8 h1, 16 h2 (u64; h2 < 2^32, so the u32 at 20 is 0)
#   24 r0, 32 r1, 40 s1 = r1 + r1/4 (u64)
#   48 u32 flags (zeroed by init; in the first 64 bytes, so a one-shot MAC
#      of a short message touches one line): 1 r^2..r^4, 2 R16A, 4 R16Q valid
#   56, 80, 104: r^2, r^3, r^4 (u64 triples, radix 2^64, top word <= 4)
#   128 R16A: r^16 as five 26-bit limbs (u32), the AVX-512F loop multiplier
#   152 R16Q: r^16 as three 44-bit limbs (u64), the IFMA loop multiplier
my %C = (H0 => 0, H1 => 8, H2 => 16, R0 => 24, R1 => 32, S1 => 40,
         RP => 56, PFLAG => 48, R16A => 128, R16Q => 152);
sub RP { my ($k, $w) = @_; return $C{RP} + 24 * ($k - 2) + 8 * ($w // 0) }

# ---- frame layout of a vector body (base %rbp, 64-byte aligned) -----------
#   P(l,i): u64, limb l (0..4, radix 2^26) of r^(i+1), i = 0..15, at 128l+8i
#   Q(l,i): u64, limb l (0..2, radix 2^44) of r^(i+1): the same place
#   SM(l):  u64, 5 * limb l (1..4) of the loop multiplier r^n, at 640
#   ACC:    the two chains of the AVX/AVX2 two-chain bodies, at 704
my $TB = '%rbp';
my %F = (SM => 640, ACC => 704, SIZE => 1024);
my $FRAME = $F{SIZE} + 64;              # slack for the 64-byte alignment
sub P { my ($l, $i) = @_; return (128 * $l + 8 * $i) . "($TB)" }
sub Q { my ($l, $i) = @_; return (128 * $l + 8 * $i) . "($TB)" }
sub SM { my ($l) = @_; return ($F{SM} + 8 * ($l - 1)) . "($TB)" }

my $code = '';

# Every return is followed by int3 (straight-line speculation; objtool).
sub RET { return "\t.asm_ret\n\tint3\n" }

# Local functions get real (non-.L) symbols with a function type, so that
# every call targets a function symbol (objtool).
my %FN = (scalar => 'poly1305_x86_64_scalar', powers => 'poly1305_x86_64_powers');

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

# h0 + h1 2^64 split into five 26-bit limbs, $top (code) OR-ing the bits
# from 128 on into limb 4; limb k is left in %rax (%eax) and stored by
# the code $put->(k).  Clobbers rax, rdx.
sub split26 {
    my ($h0, $h1, $top, $put) = @_;
    my $m = '0x3ffffff';
    my @h = ($h0, $h1);
    my $s = '';
    for my $k (0 .. 4) {
        my ($w, $sh) = (int(26 * $k / 64), 26 * $k % 64);
        $s .= $sh ? "\tmovq\t$h[$w],%rax\n\tshrq\t\$$sh,%rax\n" : "\tmovl\t" . lo32($h0) . ",%eax\n";
        if ($sh > 64 - 26) {        # the limb's high bits are in the next word
            $s .= $w ? $top : "\tmovq\t$h1,%rdx\n\tshlq\t\$" . (64 - $sh) . ",%rdx\n\torq\t%rdx,%rax\n";
        }
        $s .= "\tandl\t\$$m,%eax\n" if $k < 4;
        $s .= $put->($k);
    }
    return $s;
}

# h (radix 2^64, h2 <= 4 or undef for 0) as five 26-bit limbs into the
# frame table P(., i), u64 each.  Clobbers rax, rdx.
sub conv26 {
    my ($h0, $h1, $h2, $i) = @_;
    my @a = map { P($_, $i) } 0 .. 4;
    my $top = defined $h2 ? "\tmovq\t$h2,%rdx\n\tshlq\t\$24,%rdx\n\torq\t%rdx,%rax\n" : '';
    return split26($h0, $h1, $top, sub { "\tmovq\t%rax,$a[$_[0]]\n" });
}

sub lo32 {
    my ($r) = @_;
    return "${r}d" if $r =~ /^%r\d+$/;
    (my $e = $r) =~ s/^%r/%e/;
    return $e;
}

# ---- capability word (user-space builds only) -------------------------------
# One cpp block: the word and the bit numbers an importer may override.
my $pfx = $flavour eq 'macosx' ? '_' : '';
$code .= <<___;
# Generated by crypto/poly1305/asm/poly1305-x86_64.pl - do not edit.
#ifndef __KERNEL__
# ifdef ASMCRYPT_OPENSSL
#  ifndef ASMCRYPT_CAPWORD
#   define ASMCRYPT_CAPWORD ${pfx}OPENSSL_ia32cap_P
#  endif
#  ifndef ASMCRYPT_CAPBIT_X86_AVX
#   define ASMCRYPT_CAPBIT_X86_AVX 60
#  endif
#  ifndef ASMCRYPT_CAPBIT_X86_AVX2
#   define ASMCRYPT_CAPBIT_X86_AVX2 69
#  endif
#  ifndef ASMCRYPT_CAPBIT_X86_AVX512F
#   define ASMCRYPT_CAPBIT_X86_AVX512F 80
#  endif
#  ifndef ASMCRYPT_CAPBIT_X86_AVX512IFMA
#   define ASMCRYPT_CAPBIT_X86_AVX512IFMA 85
#  endif
# endif
# ifndef ASMCRYPT_CAPWORD
#  define ASMCRYPT_CAPWORD ${pfx}asmcrypt_cpucap
# endif
# ifndef ASMCRYPT_CAPBIT_X86_AVX
#  define ASMCRYPT_CAPBIT_X86_AVX 3
# endif
# ifndef ASMCRYPT_CAPBIT_X86_AVX2
#  define ASMCRYPT_CAPBIT_X86_AVX2 4
# endif
# ifndef ASMCRYPT_CAPBIT_X86_AVX512F
#  define ASMCRYPT_CAPBIT_X86_AVX512F 5
# endif
# ifndef ASMCRYPT_CAPBIT_X86_AVX512IFMA
#  define ASMCRYPT_CAPBIT_X86_AVX512IFMA 8
# endif
	.hidden	ASMCRYPT_CAPWORD
#endif
___

# $reg (32-bit) = 1 if the feature's bit is set in the capability word (or,
# for bit number -1, if the build's ISA level has it), else 0.
sub capbit {
    my ($feat, $reg) = @_;
    my $b = "ASMCRYPT_CAPBIT_X86_$feat";
    return <<___;
#if $b >= 0
	movl	ASMCRYPT_CAPWORD+(($b>>5)<<2)(%rip),$reg
	shrl	\$($b&31),$reg
	andl	\$1,$reg
#elif defined(__${feat}__)
	movl	\$1,$reg
#else
	xorl	$reg,$reg
#endif
___
}

# ---- kernel names -----------------------------------------------------------
# ASMCRYPT_KERNEL_GLUE 1 (A), 2 (B), 3 (C, the default): all three link the
# same x86_64 names.  A -D on the kernel's command line wins.
$code .= <<___;
#ifdef __KERNEL__
# ifndef ASMCRYPT_KERNEL_GLUE
#  define ASMCRYPT_KERNEL_GLUE 3
# endif
# if ASMCRYPT_KERNEL_GLUE >= 1 && ASMCRYPT_KERNEL_GLUE <= 3
#  ifndef poly1305_init
#   define poly1305_init poly1305_init_x86_64
#  endif
#  ifndef poly1305_blocks
#   define poly1305_blocks poly1305_blocks_x86_64
#  endif
#  ifndef poly1305_emit
#   define poly1305_emit poly1305_emit_x86_64
#  endif
# else
#  error "ASMCRYPT_KERNEL_GLUE: 1, 2 or 3"
# endif
.globl poly1305_emit_avx
.globl poly1305_blocks_avx
.globl poly1305_blocks_avx2
.globl poly1305_blocks_avx512
#endif
___

# ---- entry points -------------------------------------------------------------

$code .= <<___;

# int poly1305_init(void *ctx, const unsigned char key[16], void *func[2])
# (kernel: void poly1305_init_x86_64(void *ctx, const u8 key[16]))
.asm_func poly1305_init, nargs=3
	xorl	%eax,%eax
	movq	%rax,$C{H0}(%rdi)
	movq	%rax,$C{H1}(%rdi)
	movq	%rax,$C{H2}(%rdi)
	testq	%rsi,%rsi
	jz	.Linit_ret
	movl	%eax,$C{PFLAG}(%rdi)	# no cached powers
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
#if ASMCRYPT_CAPBIT_X86_AVX2 >= 0 && ASMCRYPT_CAPBIT_X86_AVX512F >= 0 && ASMCRYPT_CAPBIT_X86_AVX512IFMA >= 0 && (ASMCRYPT_CAPBIT_X86_AVX2 >> 5) == (ASMCRYPT_CAPBIT_X86_AVX512F >> 5) && (ASMCRYPT_CAPBIT_X86_AVX2 >> 5) == (ASMCRYPT_CAPBIT_X86_AVX512IFMA >> 5)
	movl	ASMCRYPT_CAPWORD+((ASMCRYPT_CAPBIT_X86_AVX2>>5)<<2)(%rip),%ecx	# one word
	xorl	%eax,%eax
	xorl	%esi,%esi
	btl	\$(ASMCRYPT_CAPBIT_X86_AVX2&31),%ecx
	adcl	\$0,%eax
	btl	\$(ASMCRYPT_CAPBIT_X86_AVX512IFMA&31),%ecx
	adcl	\$0,%esi
	shrl	\$(ASMCRYPT_CAPBIT_X86_AVX512F&31),%ecx
	andl	\$1,%ecx
#else
${\ capbit('AVX2', '%eax')}${\ capbit('AVX512F', '%ecx')}${\ capbit('AVX512IFMA', '%esi')}#endif
	andl	%eax,%ecx		# AVX2 and AVX-512F
	andl	%ecx,%esi		# ... and IFMA
	leaq	poly1305_blocks_avx2(%rip),%r8
	testl	%eax,%eax
	cmovnzq	%r8,%r10
	leaq	poly1305_blocks_avx512(%rip),%r8
	testl	%ecx,%ecx
	cmovnzq	%r8,%r10
	leaq	poly1305_blocks_avx512ifma(%rip),%r8
	testl	%esi,%esi
	cmovnzq	%r8,%r10
	movq	%r10,0(%rdx)
	movq	%r11,8(%rdx)
	movl	\$1,%eax
#endif
.Linit_ret:
${\ RET}.asm_endfunc

# void poly1305_blocks(void *ctx, const unsigned char *inp, size_t len,
#                      unsigned int padbit)
.asm_func poly1305_blocks, nargs=4, push=rbx:rbp:r12:r13:r14:r15
	call	$FN{scalar}
${\ RET}.asm_endfunc
___

# void NAME(void *ctx, unsigned char mac[16], const unsigned int nonce[4]):
# h is always radix 2^64 between calls, so every emit is this code.
sub emit_func {
    my ($name, $opt) = @_;
    return <<___;

.asm_func $name, ${opt}nargs=3
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
${\ RET}.asm_endfunc
___
}
$code .= emit_func('poly1305_emit', '');
$code .= emit_func('poly1305_emit_avx', 'indirect, ');

# ---- scalar block loop (SysV internal; clobbers callee-saved GPRs) ---------
{
my ($r0, $r1, $s1, $h0, $h1, $h2) = ('%r11', '%r12', '%r13', '%r14', '%rbx', '%rbp');
my ($t0, $t1, $t2, $cnt) = ('%r8', '%r9', '%r10', '%r15');
$code .= <<___;

# $FN{scalar}: rdi ctx, rsi inp, rdx len, ecx padbit (only ecx is read).
# Callers have saved rbx, rbp, r12-r15; this routine pushes nothing.
.asm_func $FN{scalar}, local
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
${\ RET}.asm_endfunc
___
}

# ---- r^2, r^3, r^4 into the context (once per key) ---------------------------
# $FN{powers}: rdi ctx.  Three serial scalar multiplications by r (the
# s1 trick needs the clamped r as the multiplier).  Clobbers rax, rcx,
# rdx, rsi, r8-r11, rbx, rbp, r15; keeps rdi, r12-r14.
{
my ($r0, $r1, $s1, $h0, $h1, $h2) = ('%r11', '%r10', '%r9', '%r8', '%rbx', '%rbp');
my ($t0, $t1, $t2) = ('%rcx', '%rsi', '%r15');
$code .= <<___;

.asm_func $FN{powers}, local
	movq	$C{R0}(%rdi),$r0
	movq	$C{R1}(%rdi),$r1
	movq	$C{S1}(%rdi),$s1
	movq	$r0,$h0
	movq	$r1,$h1
	xorl	%ebp,%ebp
___
for my $k (2 .. 4) {
    $code .= mul_reduce($h0, $h1, $h2, $r0, $r1, $s1, $t0, $t1, $t2);
    $code .= "\tmovq\t$h0," . RP($k, 0) . "(%rdi)\n\tmovq\t$h1," . RP($k, 1) . "(%rdi)\n";
    $code .= "\tmovq\t$h2," . RP($k, 2) . "(%rdi)\n";
}
$code .= "\torl\t\$1,$C{PFLAG}(%rdi)\n" . RET() . ".asm_endfunc\n";
}

# ---- vector helpers ---------------------------------------------------------
# Register groups: vregs(KIND, FIRST, \@a => n, \@b => m, ...) fills @a
# with %KIND<FIRST> .. %KIND<FIRST+n-1>, @b with the next m, and so on.
sub vregs {
    my ($kind, $i, @groups) = @_;
    while (@groups) {
        my ($ref, $n) = splice @groups, 0, 2;
        @$ref = map { "%$kind$_" } $i .. $i + $n - 1;
        $i += $n;
    }
    return;
}

# A vector configuration: register width, lanes, mnemonics, MASK and PAD.
# L = 2: xmm, AVX1 only (VEX, no AVX2 instruction); 4: ymm, AVX2; 8: zmm.
sub vcfg {
    my ($L, $mask, $pad) = @_;
    my %c = $L == 8
        ? (v => 'zmm', L => 8, and => 'vpandq', or => 'vporq', movu => 'vmovdqu64',
           xor => 'vpxorq', mova => 'vmovdqa64')
        : (v => $L == 4 ? 'ymm' : 'xmm', L => $L, and => 'vpand', or => 'vpor',
           movu => 'vmovdqu', xor => 'vpxor', mova => 'vmovdqa');
    @c{qw(MASK PAD)} = ($mask, $pad);
    return \%c;
}

sub xreg { my ($r) = @_; (my $x = $r) =~ s/[yz]mm/xmm/; return $x }
sub yreg { my ($r) = @_; (my $y = $r) =~ s/zmm/ymm/; return $y }

# MASK = 2^26-1 in every lane; PAD = padbit (r14d) << 24 in every lane.
sub mask_pad {
    my ($c) = @_;
    my ($M, $P) = @$c{qw(MASK PAD)};
    my $s = $c->{L} == 2 ? "\tvmovddup\t.Lmask26(%rip),$M\n"
                         : "\tvpbroadcastq\t.Lmask26(%rip),$M\n";
    return $s unless defined $P;
    $s .= "\tmovl\t%r14d,%eax\n\tshll\t\$24,%eax\n\tvmovd\t%eax," . xreg($P) . "\n";
    $s .= $c->{L} == 2 ? "\tvpunpcklqdq\t$P,$P,$P\n" : "\tvpbroadcastq\t" . xreg($P) . ",$P\n";
    return $s;
}

# One group of L blocks at (%r12) split into 26-bit limbs and added into
# @$X (64-bit lanes); advances r12.  Lane k holds block (k/2 + (k&1)*L/2)
# for the two-register unpack: (0,1) for L=2, (0,2,1,3) for 4,
# (0,4,1,5,2,6,3,7) for 8.
sub vload_add {
    my ($c, $t, $X) = @_;
    my ($t0, $t1, $t2) = @$t;
    my ($and, $or, $movu, $L) = @$c{qw(and or movu L)};
    my ($M, $P) = @$c{qw(MASK PAD)};
    # limb k in t1, but for limb 2 (in t0, done with) and limb 4 (in t2)
    return <<___ . vsplit(26, 5, [$and, $or, $M, $P], $t, [$t1, $t1, $t0, $t1, $t2], $X);
	$movu	0(%r12),$t0
	$movu	${\ (8 * $L)}(%r12),$t1
	leaq	${\ (16 * $L)}(%r12),%r12
	vpunpckhqdq	$t1,$t0,$t2	# high words of the blocks
	vpunpcklqdq	$t1,$t0,$t0	# low words
___
}

# Lanes of 128-bit blocks, low words in $t0 and high words in $t2, split
# into $n limbs of $bits bits, limb k into $D->[k] (with $X: then added
# into $X->[k]); the top limb takes the pad bit $P (bit 128).  $ops: the
# lane-wise and, or, the limb mask $M, $P.  Clobbers $t0, $t1, $t2.
# Shared by vload_add (26-bit limbs) and load44 (44-bit).
sub vsplit {
    my ($bits, $n, $ops, $t, $D, $X) = @_;
    my ($and, $or, $M, $P) = @$ops;
    my ($t0, $t1, $t2) = @$t;
    my $s = '';
    for my $k (0 .. $n - 1) {
        my ($w, $sh) = (int($bits * $k / 64), $bits * $k % 64);
        if ($k == $n - 1) {             # the rest of the high words, the pad bit
            $s .= "\tvpsrlq\t\$$sh,$t2,$t2\n\t$or\t$P,$t2,$D->[$k]\n";
        } else {
            my $x = $w ? $t2 : $t0;
            if ($sh > 64 - $bits) {     # the limb's high bits are in the high words
                $s .= "\tvpsrlq\t\$$sh,$t0,$t0\n\tvpsllq\t\$" . (64 - $sh) . ",$t2,$t1\n\t$or\t$t1,$t0,$t0\n";
            } elsif ($sh) {
                $s .= "\tvpsrlq\t\$$sh,$x,$t1\n";
                $x = $t1;
            }
            $s .= "\t$and\t$M,$x,$D->[$k]\n";
        }
        $s .= "\tvpaddq\t$D->[$k],$X->[$k],$X->[$k]\n" if $X;
    }
    return $s;
}

# The schoolbook product of two n-limb numbers by columns of b: for
# j = 0..n-1 the code of $mult->(j) (limb j of b) and, but for j = 0, of
# $mult->(n - 1 + j) (its multiple for the products that wrap past limb
# n-1), then for i = 0..n-1 the code $emit->(i, k, operand, j) of the
# product of limb i of a into column k = (i + j) mod n, with the wrapped
# operand where i + j >= n.  Shared by vmul (n = 5) and mul44 (n = 3).
sub by_columns {
    my ($n, $mult, $emit) = @_;
    my $s = '';
    for my $j (0 .. $n - 1) {
        my ($cb, $ob) = $mult->($j);
        my ($cs, $os) = $j ? $mult->($n - 1 + $j) : ('', undef);
        $s .= $cb . $cs;
        for my $i (0 .. $n - 1) {
            my $k = $i + $j;
            $s .= $emit->($i, $k % $n, $k < $n ? $ob : $os, $j);
        }
    }
    return $s;
}

# D (+)= A * b, column by column.  $mult->(j) returns (code, operand) for
# limb j of b (j = 0..4) and for 5*limb (j-4) (j = 5..8); the code (loads)
# is emitted before the column.  $pt: two product temporaries.
sub vmul {
    my ($A, $D, $pt, $mult, $acc) = @_;
    return by_columns(5, $mult, sub {
        my ($i, $k, $o, $j) = @_;
        return "\tvpmuludq\t$o,$A->[$i],$D->[$k]\n" if $j == 0 && !$acc;
        my $t = $pt->[$i & 1];
        return "\tvpmuludq\t$o,$A->[$i],$t\n\tvpaddq\t$t,$D->[$k],$D->[$k]\n";
    });
}

# A = D with carries propagated lazily (two interleaved chains); limbs end
# below 2^26 except A1, A4 (< 2^26 + 2^10).
sub vcarry {
    my ($c, $D, $A, $t0, $t1) = @_;
    my ($and, $M) = @$c{qw(and MASK)};
    # $keep = $from mod 2^26, the rest ($t) added into $into
    my $step = sub {
        my ($from, $keep, $into, $t) = @_;
        return "\tvpsrlq\t\$26,$from,$t\n\t$and\t$M,$from,$keep\n\tvpaddq\t$t,$into,$into\n";
    };
    return $step->($D->[0], $A->[0], $D->[1], $t0)
         . $step->($D->[3], $A->[3], $D->[4], $t1)
         . $step->($D->[1], $A->[1], $D->[2], $t0)
         . $step->($D->[4], $A->[4], $A->[0], $t1)
         . "\tvpsllq\t\$2,$t1,$t1\n\tvpaddq\t$t1,$A->[0],$A->[0]\n"  # 4 more: 2^130 = 5
         . $step->($D->[2], $A->[2], $A->[3], $t0)
         . $step->($A->[0], $A->[0], $A->[1], $t1)
         . $step->($A->[3], $A->[3], $A->[4], $t0);
}

# Multiplier for the last group: lane k gets r^(base + L - block(k)),
# limbs from P(j, base..base+L-1) reordered, 5* computed.
sub lane_powers {
    my ($c, $base, $tb, $ts, $idx) = @_;
    return sub {
        my ($j) = @_;
        if ($j <= 4) {
            my $s = "\t$c->{movu}\t" . P($j, $base) . ",$tb\n";
            $s .= $c->{L} == 8 ? "\tvpermq\t$tb,$idx,$tb\n"
                : $c->{L} == 4 ? "\tvpermq\t\$0x27,$tb,$tb\n"
                :                "\tvpshufd\t\$0x4e,$tb,$tb\n";
            return ($s, $tb);
        }
        return ("\tvpsllq\t\$2,$tb,$ts\n\tvpaddq\t$tb,$ts,$ts\n", $ts);
    };
}

# h (radix 2^64, ctx) -> five 26-bit limbs in lane 0 of @$A (other lanes 0).
sub h_to_lanes {
    my ($A) = @_;
    my @x = map { xreg($_) } @$A;
    my $top = "\tshlq\t\$24,%r10\n\torq\t%r10,%rax\n";
    return <<___ . split26('%r8', '%r9', $top, sub { "\tvmovd\t%eax,$x[$_[0]]\n" });
	movq	$C{H0}(%rdi),%r8
	movq	$C{H1}(%rdi),%r9
	movq	$C{H2}(%rdi),%r10
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
        $s .= "\tvextracti128\t\$1,$dy,$tx\n\tvpaddq\t$tx,$dx,$dx\n" if $c->{L} >= 4;
        $s .= <<___;
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

# ---- powers of r in the frame (per call) ------------------------------------
# r^1 (ctx) and r^2..r^4 (cached in ctx) are converted by scalar code into
# P(., 0..3) or Q(., 0..3); higher powers come from lane-parallel vector
# multiplications: (r^1..r^4) * r^4 -> r^5..r^8 in one 4-lane product,
# then (r^1..r^8) * r^8 -> r^9..r^16 in one 8-lane product.

# $dst (64-bit lanes) = r^1..r^4 from ctx: lane k word $w of r^(k+1)
# ($w = 0, 1, 2).  $tmp: an xmm register; all below xmm16 (VEX).
sub powers_w {
    my ($w, $dst, $tmp) = @_;
    my $x = xreg($dst);
    my $s = $w < 2 ? "\tvmovq\t" . ($w ? $C{R1} : $C{R0}) . "(%rdi),$x\n" : "\tvpxor\t$x,$x,$x\n";
    $s .= "\tvpinsrq\t\$1," . RP(2, $w) . "(%rdi),$x,$x\n";
    $s .= "\tvmovq\t" . RP(3, $w) . "(%rdi),$tmp\n";
    $s .= "\tvpinsrq\t\$1," . RP(4, $w) . "(%rdi),$tmp,$tmp\n";
    return $s . "\tvinserti128\t\$1,$tmp,$dst,$dst\n";
}

# SM(l) = 5 * lane $k (3 or 7) of $V->[l], l = 1..4 ($t, $u: ymm temps).
sub sm_from {
    my ($V, $k, $t, $u) = @_;
    my $s = '';
    for my $l (1 .. 4) {
        $s .= $k > 3 ? "\tvextracti64x4\t\$1,$V->[$l],$t\n\tvpermq\t\$0xff,$t,$t\n"
                     : "\tvpermq\t\$0xff,$V->[$l],$t\n";
        $s .= "\tvpsllq\t\$2,$t,$u\n\tvpaddq\t$t,$u,$u\n\tvmovq\t" . xreg($u) . "," . SM($l) . "\n";
    }
    return $s;
}

# Radix 2^26, in registers (see powers44 below for why): r^1..r^4 split
# into five 26-bit limbs A (ymm lanes), stored to P(., 0..3); for n >= 8
# A*r^4 -> r^5..r^8 (ymm, AVX2); for n = 16 (r^1..r^8)*r^8 -> r^9..r^16
# (zmm, AVX-512F).  SM = 5 * limbs 1..4 of r^n.
sub powers26 {
    my ($n) = @_;
    my (@A, @D, @T, @W);
    vregs('ymm', 0, \@A => 5, \@D => 5, \@T => 4);
    vregs('ymm', 10, \@W => 3);        # on ymm10-12, as T
    my $c = vcfg(4, '%ymm15', undef);
    my $M = $c->{MASK};
    my $s = "\tvpbroadcastq\t.Lmask26(%rip),$M\n";
    $s .= powers_w($_, $W[$_], '%xmm13') for 0 .. 2;
    $s .= <<___;
	vpand	$M,$W[0],$A[0]		# radix 2^64 -> 2^26, lanes r^1..r^4
	vpsrlq	\$26,$W[0],$A[1]
	vpand	$M,$A[1],$A[1]
	vpsrlq	\$52,$W[0],$A[2]
	vpsllq	\$12,$W[1],%ymm13
	vpor	%ymm13,$A[2],$A[2]
	vpand	$M,$A[2],$A[2]
	vpsrlq	\$14,$W[1],$A[3]
	vpand	$M,$A[3],$A[3]
	vpsrlq	\$40,$W[1],$A[4]
	vpsllq	\$24,$W[2],%ymm13
	vpor	%ymm13,$A[4],$A[4]
___
    $s .= "\tvmovdqu\t$A[$_]," . P($_, 0) . "\n" for 0 .. 4;
    return $s . sm_from(\@A, 3, @T[0, 1]) if $n == 4;
    my $mult = sub {
        my ($j) = @_;
        return ("\tvpermq\t\$0xff,$A[$j],$T[2]\n", $T[2]) if $j <= 4;
        return ("\tvpsllq\t\$2,$T[2],$T[3]\n\tvpaddq\t$T[2],$T[3],$T[3]\n", $T[3]);
    };
    $s .= vmul(\@A, \@D, [@T[0, 1]], $mult) . vcarry($c, \@D, \@A, @T[0, 1]);
    $s .= "\tvmovdqu\t$A[$_]," . P($_, 4) . "\n" for 0 .. 4;
    return $s . sm_from(\@A, 3, @T[0, 1]) if $n == 8;
    # n = 16: zmm A = (r^1..r^4 reloaded | r^5..r^8), multiplier r^8 = lane 7
    my (@Z, @DZ, @TZ, @MZ);
    vregs('zmm', 0, \@Z => 5, \@DZ => 5, \@TZ => 4);
    vregs('zmm', 16, \@MZ => 9);
    my $cz = vcfg(8, '%zmm15', undef);
    $s .= "\tvmovdqu\t" . P($_, 0) . ",$D[$_]\n\tvinserti64x4\t\$1,$A[$_],$DZ[$_],$Z[$_]\n" for 0 .. 4;
    for my $l (0 .. 4) {
        $s .= "\tvpermq\t\$0xff,$Z[$l],$MZ[$l]\n\tvshufi64x2\t\$0xff,$MZ[$l],$MZ[$l],$MZ[$l]\n";
    }
    $s .= "\tvpsllq\t\$2,$MZ[$_],$MZ[4 + $_]\n\tvpaddq\t$MZ[$_],$MZ[4 + $_],$MZ[4 + $_]\n" for 1 .. 4;
    $s .= "\tvpbroadcastq\t.Lmask26(%rip),%zmm15\n";
    $s .= vmul(\@Z, \@DZ, [@TZ[0, 1]], sub { ('', $MZ[$_[0]]) }) . vcarry($cz, \@DZ, \@Z, @TZ[0, 1]);
    $s .= "\tvmovdqu64\t$Z[$_]," . P($_, 8) . "\n" for 0 .. 4;
    return $s;          # SM: see vec_dual
}

# The constants of the loop forms of fold44 and carry44 (256, 5120, 5 in
# every lane), set once per call by powers44 (C5 is set again for the
# loop, in a register the loads before it use).
my %K44 = (C256 => '%zmm31', C5120 => '%zmm30');
sub consts44 {
    my ($K) = @_;
    my %v = (C256 => 256, C5120 => 5120, C5 => 5);
    return join '', map { "\tmovl\t\$$v{$_},%eax\n\tvpbroadcastq\t%rax,$K->{$_}\n" }
        grep { $K->{$_} } qw(C256 C5120 C5);
}

# Radix 2^44, all in registers (a vector load of data just written by
# narrower stores would wait for those stores to retire): r^1..r^4 from
# ctx into 64-bit lanes (W0, W1, W2), split into 44-bit limbs A (ymm),
# B = A * r^4 (r^5..r^8), for n = 16 C = (A|B) * r^8 (r^9..r^16).  Q(.,
# 0..n-1) gets the limbs; @$Rout (zmm) gets r^n broadcast for the loop.
# The products fold and carry as the loop does (the loop forms of fold44
# and carry44), so r^5..r^16 end below 2^44 + 2^15, 2^44 + 2^10,
# 2^42 + 2^10 like the loop's limbs; the loop's bounds allow that for the
# multiplier too (20 * limb < 2^49).
# Only zmm0-15 appear in VEX instructions.
sub powers44 {
    my ($n, $Rout) = @_;
    my (@A, @L, @H, @R, @S, @W, @t, @B, @Cc);
    vregs('zmm', 0, \@A => 3, \@L => 3, \@H => 3, \@R => 3, \@S => 2);
    vregs('ymm', 10, \@W => 3);        # on zmm10-12, as R[1], R[2], S[0]
    my ($M42, $M) = ('%zmm14', '%zmm15');
    vregs('zmm', 16, \@t => 3, \@B => 3, \@Cc => 3);
    my $c = { MASK => $M, MASK42 => $M42 };
    # the loop's fold and carry constants (they stay for the loop in
    # zmm30, zmm31), 5 in zmm28 for the products here
    my $K = { %K44, C5 => '%zmm28' };
    my $s = consts44($K);
    $s .= "\tmovabsq\t\$0xfffffffffff,%rax\n\tvpbroadcastq\t%rax,$M\n";
    $s .= "\tshrq\t\$2,%rax\n\tvpbroadcastq\t%rax,$M42\n";
    $s .= powers_w($_, $W[$_], '%xmm13') for 0 .. 2;
    my @a = map { yreg($_) } @A;
    my $ym = yreg($M);
    $s .= <<___;
	vpand	$ym,$W[0],$a[0]		# radix 2^64 -> 2^44, lanes r^1..r^4
	vpsrlq	\$44,$W[0],$W[0]
	vpsllq	\$20,$W[1],%ymm13
	vpor	%ymm13,$W[0],$W[0]
	vpand	$ym,$W[0],$a[1]
	vpsrlq	\$24,$W[1],$W[1]
	vpsllq	\$40,$W[2],$W[2]
	vpor	$W[2],$W[1],$a[2]
___
    $s .= "\tvmovdqu\t$a[$_]," . Q($_, 0) . "\n" for 0 .. 2;
    my $mult = sub { $_[0] <= 2 ? ('', $R[$_[0]]) : ('', $S[$_[0] - 3]) };
    my $sfive = sub {      # S = 20 * R (limbs 1, 2)
        join '', map { "\tvpsllq\t\$2,$R[$_],$S[$_-1]\n\tvpsllq\t\$4,$R[$_],$t[0]\n\tvpaddq\t$t[0],$S[$_-1],$S[$_-1]\n" } 1 .. 2;
    };
    my $zero = join '', map { "\tvpxorq\t$_,$_,$_\n" } @L, @H;
    my $prod = sub {       # @$out = A * R
        my ($out) = @_;
        return $sfive->() . $zero . mul44(\@A, \@L, \@H, $mult) . fold44(\@L, \@H, @t[0, 1], $K)
             . carry44($c, \@L, $out, @t, $K);
    };
    # broadcast lane $k (3 or 7) of $src to all lanes of $dst
    my $bcast = sub {
        my ($src, $k, $dst) = @_;
        my $half = $k > 3 ? '0xff' : '0x00';
        return "\tvpermq\t\$0xff,$src,$dst\n\tvshufi64x2\t\$$half,$dst,$dst,$dst\n";
    };
    $s .= "\tvpermq\t\$0xff," . yreg($A[$_]) . "," . yreg($R[$_]) . "\n" for 0 .. 2;
    $s .= $prod->(\@B);
    $s .= "\tvmovdqu64\t$B[$_]," . Q($_, 4) . "\n" for 0 .. 2;  # upper half 0
    if ($n == 8) {
        $s .= $bcast->($B[$_], 3, $Rout->[$_]) for 0 .. 2;
        return $s;
    }
    $s .= $bcast->($B[$_], 3, $R[$_]) for 0 .. 2;
    $s .= "\tvinserti64x4\t\$1," . yreg($B[$_]) . ",$A[$_],$A[$_]\n" for 0 .. 2;
    $s .= $prod->(\@Cc);
    $s .= "\tvmovdqu64\t$Cc[$_]," . Q($_, 8) . "\n" for 0 .. 2;
    $s .= $bcast->($Cc[$_], 7, $Rout->[$_]) for 0 .. 2;
    return $s;
}

# Common entry of a vector body: save the arguments, make sure r^2..r^4
# are cached in ctx, point rbp at the 64-byte aligned table in the frame
# and fill it with r^1..r^n (radix $rad), plus SM (5 * limbs of r^n) for
# radix 2^26.
sub vec_entry {
    my ($p, $rad, $n, $Rout, $avx1) = @_;
    my $conv = \&conv26;
    my $s = <<___;
	movq	%rsi,%r12
	movq	%rdx,%r13
	negl	%ecx			# padbit = (padbit != 0)
	sbbl	%ecx,%ecx
	negl	%ecx
	movl	%ecx,%r14d
	testl	\$1,$C{PFLAG}(%rdi)
	jnz	${p}_cached
	call	$FN{powers}
${p}_cached:
	leaq	63(%rsp),$TB		# table: 64-byte aligned, in the frame
	andq	\$-64,$TB
___
    return $s . powers44($n, $Rout) if $rad == 44;
    return $s . powers26($n) unless $avx1;
    $s .= "\tmovq\t$C{R0}(%rdi),%r8\n\tmovq\t$C{R1}(%rdi),%r9\n";
    $s .= $conv->('%r8', '%r9', undef, 0);
    for my $k (2 .. 4) {
        $s .= "\tmovq\t" . RP($k, $_) . "(%rdi),%r" . (8 + $_) . "\n" for 0 .. 2;
        $s .= $conv->('%r8', '%r9', '%r10', $k - 1);
    }
    if ($rad == 26) {
        for my $l (1 .. 4) {
            $s .= "\tmovq\t" . P($l, $n - 1) . ",%rax\n\tleaq\t(%rax,%rax,4),%rax\n";
            $s .= "\tmovq\t%rax," . SM($l) . "\n";
        }
    }
    return $s;
}

# Zero what a body wrote into its frame (powers of r are key material,
# the chains' accumulators depend on h): P/Q rows 0..$rows-1 entries
# 0..n-1, SM (radix 2^26) and $acc bytes of ACC, with $W-byte stores.
sub wipe {
    my ($W, $rows, $n, $acc) = @_;
    my ($z, $st) = $W == 64 ? ('%zmm0', 'vmovdqu64') : $W == 32 ? ('%ymm0', 'vmovdqu') : ('%xmm0', 'vmovdqu');
    my @reg = map { [128 * $_, 8 * $n] } 0 .. $rows - 1;
    push @reg, [$F{SM}, 32] if $rows == 5;
    push @reg, [$F{ACC}, $acc] if $acc;
    my $s = "\tvpxor\t%xmm0,%xmm0,%xmm0\t# wipe the frame\n";
    for (@reg) {
        my ($o, $len) = @$_;
        for (my $x = 0; $x < $len; $x += $W) { $s .= "\t$st\t$z," . ($o + $x) . "($TB)\n" }
    }
    return $s;
}

# Common exit: wipe, leftover blocks (len mod $unit) through the scalar loop.
sub vec_exit {
    my ($p, $unit, $wipe) = @_;
    return $wipe . <<___;
	vzeroupper
	andq	\$${\ ($unit - 1)},%r13	# leftover blocks: scalar
	cmpq	\$16,%r13
	jb	${p}_done
	movq	%r12,%rsi
	movq	%r13,%rdx
	movl	%r14d,%ecx
	call	$FN{scalar}
${p}_done:
${\ RET}.asm_endfunc
___
}

# ---- single-chain vector body: L = 4 (AVX2) or 8 (AVX-512F) ---------------
# rdi ctx, rsi inp, rdx len (>= 16*L), ecx padbit.  SysV internal; clobbers
# every GPR but rdi (the entry points saved the callee-saved ones) and
# every vector register (on Win64 the body's own frame keeps xmm6-15, so
# short inputs that never get here do not pay for it).  Multiplier r^L:
# AVX2 broadcasts it from the table, AVX-512 keeps it in zmm16-24.
sub vec_single {
    my ($L) = @_;
    my $v = $L == 4 ? 'ymm' : 'zmm';
    my (@A, @D, @T, @MUL);
    vregs($v, 0, \@A => 5, \@D => 5, \@T => 4);
    my $c = vcfg($L, "%${v}15", "%${v}14");
    vregs('zmm', 16, \@MUL => 9);
    my $IDX = '%zmm25';
    my $p = ".Lv$L";
    my $mult = $L == 8
        ? sub { ('', $MUL[$_[0]]) }
        : sub { my ($j) = @_;
                return ("\tvpbroadcastq\t" . P($j, 3) . ",$T[2]\n", $T[2]) if $j <= 4;
                return ("\tvpbroadcastq\t" . SM($j - 4) . ",$T[3]\n", $T[3]) };
    my $s = "\n.asm_func poly1305_x86_64_v$L, local, xmm, frame=$FRAME\n"
          . vec_entry($p, 26, $L) . h_to_lanes(\@A) . mask_pad($c);
    if ($L == 8) {
        $s .= "\tvpbroadcastd\t" . P($_, 7) . ",$MUL[$_]\n" for 0 .. 4;
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
    $s .= vec_exit($p, 16 * $L, wipe($L == 4 ? 32 : 64, 5, $L, 0));
    return $s;
}

# ---- two-chain AVX-512F body: 16 blocks per iteration ----------------------
# Chains X and Y (eight lanes each) take alternate groups of 8 blocks, both
# multiplied by r^16; at the end X is multiplied lane-wise by r^16..r^9 and
# Y by r^8..r^1.  An odd number of groups starts Y with the first group
# (and h), X at zero.  Two independent chains hide the multiply/carry
# latency of one.  Registers: X zmm0-4, Y zmm5-9, DX zmm10-14, DY zmm15-19,
# T zmm20-23, MASK zmm24, PAD zmm25, r^16 limbs zmm26-30, perm zmm31;
# 5*limbs of r^16 are broadcast from SM in the frame.
sub vec_dual {
    my (@X, @Y, @DX, @DY, @T, @R);
    vregs('zmm', 0, \@X => 5, \@Y => 5, \@DX => 5, \@DY => 5, \@T => 4);
    my $c = vcfg(8, '%zmm24', '%zmm25');
    vregs('zmm', 26, \@R => 5);
    my $IDX = '%zmm31';
    my $p = '.Lv16';
    my $mult = sub { $_[0] <= 4 ? ('', $R[$_[0]]) : ('', SM($_[0] - 4) . '{1to8}') };
    my $s = "\n.asm_func poly1305_x86_64_v16, local, xmm, frame=$FRAME\n"
          . vec_entry($p, 26, 16) . h_to_lanes(\@X) . mask_pad($c);
    # the loop multiplier r^16: cached in ctx (R16A) after the first call,
    # so that the loop need not wait for the power steps above
    $s .= "\ttestl\t\$2,$C{PFLAG}(%rdi)\n\tjz\t${p}_r16_new\n";
    for my $l (0 .. 4) {
        my $a = ($C{R16A} + 4 * $l) . '(%rdi)';
        $s .= "\tvpbroadcastd\t$a,$R[$l]\n";
        $s .= "\tmovl\t$a,%eax\n\tleal\t(%rax,%rax,4),%eax\n\tmovq\t%rax," . SM($l) . "\n" if $l;
    }
    $s .= "\tjmp\t${p}_r16_ok\n${p}_r16_new:\n";
    for my $l (0 .. 4) {
        $s .= "\tvpbroadcastq\t" . P($l, 15) . ",$R[$l]\n\tmovq\t" . P($l, 15) . ",%rax\n";
        $s .= "\tmovl\t%eax," . ($C{R16A} + 4 * $l) . "(%rdi)\n";
        $s .= "\tleal\t(%rax,%rax,4),%eax\n\tmovq\t%rax," . SM($l) . "\n" if $l;
    }
    $s .= "\torl\t\$2,$C{PFLAG}(%rdi)\n${p}_r16_ok:\n";
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
    $s .= vec_exit($p, 128, wipe(64, 5, 16, 0));
    return $s;
}

$code .= vec_single(4);
$code .= vec_single(8);
$code .= vec_dual();

# ---- two-chain AVX2 / AVX bodies: 2L blocks per iteration ------------------
# As vec_dual but with L-lane chains X and Y and multiplier r^(2L): L = 4
# (ymm, AVX2, r^8) or L = 2 (xmm, AVX1 only: VEX-encoded 128-bit
# instructions, no AVX2 one, r^4).  Sixteen registers hold one chain's
# working set, so the two accumulators live in the frame (ACC) and are
# reloaded in turn (store-to-load forwarding, no stall); the second chain
# hides the first one's multiply/carry latency.  Multiplier limbs are
# broadcast from P(., 2L-1) and SM.
sub vec_dual_mem {
    my ($L) = @_;
    my $v = $L == 4 ? 'ymm' : 'xmm';
    my $n = 2 * $L;
    my @A = map { "%$v$_" } 0 .. 4;
    my @D = map { "%$v$_" } 5 .. 9;
    my @T = map { "%$v$_" } 10 .. 13;
    my $c = vcfg($L, "%${v}15", "%${v}14");
    my $p = ".Lv${L}d";
    my $bc = $L == 2 ? 'vmovddup' : 'vpbroadcastq';
    my $slot = sub { my ($ch, $l) = @_; return ($F{ACC} + 8 * $L * (5 * $ch + $l)) . "($TB)" };
    my $mult = sub {
        my ($j) = @_;
        my ($t, $src) = $j <= 4 ? ($T[2], P($j, $n - 1)) : ($T[3], SM($j - 4));
        return ("\t$bc\t$src,$t\n", $t);
    };
    my $ld = sub { join '', map { "\tvmovdqu\t" . $slot->($_[0], $_) . ",$A[$_]\n" } 0 .. 4 };
    my $st = sub { join '', map { "\tvmovdqu\t$A[$_]," . $slot->($_[0], $_) . "\n" } 0 .. 4 };
    my $zero = join '', map { "\tvpxor\t$_,$_,$_\n" } @A;
    my $step = sub {       # chain ch: A = A*r^n + next group
        my ($ch) = @_;
        return $ld->($ch) . vmul(\@A, \@D, [@T[0, 1]], $mult)
             . vload_add($c, [@T[0 .. 2]], \@D) . vcarry($c, \@D, \@A, @T[0, 1]) . $st->($ch);
    };
    my $lg = $L == 4 ? 6 : 5;
    my $s = "\n.asm_func poly1305_x86_64_v${L}d, local, xmm, frame=$FRAME\n"
          . vec_entry($p, 26, $n, undef, $L == 2) . h_to_lanes(\@A) . mask_pad($c);
    $s .= <<___;
	movq	%r13,%r15
	shrq	\$$lg,%r15		# groups of $L blocks (>= 2)
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
# LLVM-MCA-BEGIN poly1305_vec${L}x2
${\ $step->(0)}
${\ $step->(1)}
	decq	%r15
	jnz	${p}_loop
# LLVM-MCA-END
${p}_final:
${\ $ld->(0)}
${\ vmul(\@A, \@D, [@T[0,1]], lane_powers($c, $L, @T[2,3], undef))}
${\ $ld->(1)}
${\ vmul(\@A, \@D, [@T[0,1]], lane_powers($c, 0, @T[2,3], undef), 1)}
${\ vhsum($c, \@D, $T[0])}
${\ sums_to_h()}
___
    $s .= vec_exit($p, 16 * $L, wipe($L == 4 ? 32 : 16, 5, $n, 10 * 8 * $L));
    return $s;
}
$code .= vec_dual_mem(4);
$code .= vec_dual_mem(2);

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
    my ($D, $sum) = $add ? ([$t3, $t3, $t3], $X) : ($X, undef);
    return <<___ . vsplit(44, 3, ['vpandq', 'vporq', $M, $P], $t, $D, $sum);
	vmovdqu64	0(%r12),$t0
	vmovdqu64	64(%r12),$t1
	leaq	128(%r12),%r12
	vpunpckhqdq	$t1,$t0,$t2
	vpunpcklqdq	$t1,$t0,$t0
___
}

# L, H (+)= A * b; $mult->(j): (code, operand) for limb j (0..2) and for
# 20*limb (j-2) (j = 3, 4).
# One product: low and high 52-bit halves of $a * $o into $l and $h.
sub madd44 {
    my ($o, $a, $l, $h) = @_;
    return "\tvpmadd52luq\t$o,$a,$l\n\tvpmadd52huq\t$o,$a,$h\n";
}

sub mul44 {
    my ($A, $L, $H, $mult) = @_;
    return by_columns(3, $mult, sub {
        my ($i, $k, $o) = @_;
        return madd44($o, $A->[$i], $L->[$k], $H->[$k]);
    });
}

# The same products row by row: limb $i of A for $i in @$ord, each into
# the three columns.  The loop passes (1, 2, 0): every column's serial
# chain of three accumulations then takes A1 first and A0 last (A0 waits
# for the vpmadd52luq by 5 in carry44's loop form).
sub mul44_rows {
    my ($A, $L, $H, $mult, $ord) = @_;
    my $s = '';
    for my $i (@$ord) {
        for my $k (0 .. 2) {
            my $j = ($k - $i) % 3;
            my (undef, $o) = $mult->($i + $j >= 3 ? 2 + $j : $j);
            $s .= madd44($o, $A->[$i], $L->[$k], $H->[$k]);
        }
    }
    return $s;
}

# Fold the high halves into L: L1 += H0<<8, L2 += H1<<8, L0 += H2*5120.
# With $K (the loop form, also used by powers44: registers holding 256
# and 5120 in every lane) H0 and H2 go in by one vpmadd52luq each (H0, H2
# stay below 2^40, so the products are exact) and H1 by a shift in place
# and an add: the measured best balance between the IFMA pipes and the
# others.
sub fold44 {
    my ($L, $H, $t0, $t1, $K) = @_;
    return <<___ if $K;
	vpmadd52luq	$K->{C256},$H->[0],$L->[1]
	vpsllq	\$8,$H->[1],$H->[1]
	vpaddq	$H->[1],$L->[2],$L->[2]
	vpmadd52luq	$K->{C5120},$H->[2],$L->[0]
___
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
# With $K (loop form) the three carries are taken from L at once instead
# of rippling (A1 and A2 are ready two ops after L), and the carry out of
# limb 2 enters limb 0 times 5 by one vpmadd52luq: L below 2^54 leaves
# limbs below 2^44 + 2^15, 2^44 + 2^10, 2^42 + 2^10, which the loop's
# multiplications accept (inputs below 2^52, high halves below 2^40).
sub carry44 {
    my ($c, $L, $A, $t0, $t1, $t2, $K) = @_;
    my ($M, $M42) = @$c{qw(MASK MASK42)};
    return <<___ if $K;
	vpsrlq	\$44,$L->[0],$t0
	vpsrlq	\$44,$L->[1],$t2
	vpsrlq	\$42,$L->[2],$t1
	vpandq	$M,$L->[1],$A->[1]
	vpandq	$M42,$L->[2],$A->[2]
	vpandq	$M,$L->[0],$A->[0]
	vpaddq	$t0,$A->[1],$A->[1]
	vpaddq	$t2,$A->[2],$A->[2]
	vpmadd52luq	$K->{C5},$t1,$A->[0]
___
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
            return ("\tvmovdqu64\t" . Q($j, $base) . ",$t\n\tvpermq\t$t,$idx,$t\n", $t);
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
    my (@X, @Y, @LX, @HX, @LY, @HY, @T, @R, @S);
    vregs('zmm', 0, \@X => 3, \@Y => 3, \@LX => 3, \@HX => 3, \@LY => 3,
          \@HY => 3, \@T => 4);
    my $c = { MASK => '%zmm22', MASK42 => '%zmm23', PAD => '%zmm24' };
    # r^n limbs, then 20 * limbs 1, 2
    vregs('zmm', 25, \@R => 3, \@S => 2);
    my $IDX = '%zmm30';
    # loop constants: 256, 5120 (fold44, set by powers44; C5120 is IDX's
    # register, loaded after the loop) and 5 (carry44, in T[3], which the
    # loads before the loop use)
    my $K = { %K44, C5 => $T[3] };
    die unless $K->{C5120} eq $IDX;
    my $p = $dual ? '.Lq16' : '.Lq8';
    my $mult = sub { $_[0] <= 2 ? ('', $R[$_[0]]) : ('', $S[$_[0] - 3]) };
    my @xx = map { xreg($_) } @X;
    my $s = <<___;

.asm_func poly1305_x86_64_q$n, local, xmm, frame=$FRAME
${\ vec_entry($p, 44, $n, \@R)}	movq	$C{H0}(%rdi),%r8	# h: radix 2^64 -> 2^44, into lane 0
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
___
    if ($dual) {        # r^16 cached in ctx (R16Q) after the first call, as in vec_dual
        $s .= "\ttestl\t\$4,$C{PFLAG}(%rdi)\n\tjz\t${p}_r16_new\n";
        $s .= "\tvpbroadcastq\t" . ($C{R16Q} + 8 * $_) . "(%rdi),$R[$_]\n" for 0 .. 2;
        $s .= "\tjmp\t${p}_r16_ok\n${p}_r16_new:\n";
        $s .= "\tmovq\t" . Q($_, 15) . ",%rax\n\tmovq\t%rax," . ($C{R16Q} + 8 * $_) . "(%rdi)\n" for 0 .. 2;
        $s .= "\torl\t\$4,$C{PFLAG}(%rdi)\n${p}_r16_ok:\n";
    }
    for my $l (1 .. 2) {
        $s .= "\tvpsllq\t\$2,$R[$l],$S[$l-1]\n\tvpsllq\t\$4,$R[$l],$T[0]\n\tvpaddq\t$T[0],$S[$l-1],$S[$l-1]\n";
    }
    my $zero = sub { join '', map { "\tvpxorq\t$_,$_,$_\n" } @_ };
    my $step = sub {       # A = A*r^n + next group
        my ($A, $L, $H) = @_;
        return load44($c, \@T, $L) . $zero->(@$H) . mul44_rows($A, $L, $H, $mult, [1, 2, 0])
             . fold44($L, $H, @T[0, 1], $K) . carry44($c, $L, $A, @T[0 .. 2], $K);
    };
    my $c5 = consts44({ C5 => $K->{C5} });
    $s .= "\tmovq\t%r13,%r15\n\tshrq\t\$7,%r15\t\t# groups of 8 blocks\n";
    if ($dual) {
        $s .= "\ttestq\t\$1,%r15\n\tjz\t${p}_even\n";
        $s .= "\tvmovdqa64\t$X[$_],$Y[$_]\n\tvpxorq\t$X[$_],$X[$_],$X[$_]\n" for 0 .. 2;
        $s .= load44($c, \@T, \@Y, 1) . $c5;
        $s .= "\tshrq\t\$1,%r15\n\tjmp\t${p}_loop\n${p}_even:\n";
        $s .= $zero->(@Y) . load44($c, \@T, \@X, 1) . load44($c, \@T, \@Y, 1);
        $s .= "\tshrq\t\$1,%r15\n";
    } else {
        $s .= load44($c, \@T, \@X, 1);
    }
    $s .= $c5;
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
	vmovdqu64	.Lperm8(%rip),$IDX
___
    # last group(s): lane-wise powers, all products into LX/HX
    $s .= $zero->(@LX, @HX);
    my @tb = ($T[0], $T[1], $T[2]);
    my @ts = ($T[3], $LY[0]);
    $s .= mul44(\@X, \@LX, \@HX, lane_powers44($dual ? 8 : 0, \@tb, \@ts, $LY[1], $IDX));
    $s .= mul44(\@Y, \@LX, \@HX, lane_powers44(0, \@tb, \@ts, $LY[1], $IDX)) if $dual;
    $s .= fold44(\@LX, \@HX, @T[0, 1]);
    $s .= sums44_to_h(\@LX, $X[0]);
    $s .= vec_exit($p, 128, wipe(64, 3, $n, 0));
    return $s;
}

# The kernel glue has no IFMA entry: no radix-2^44 code there.
$code .= "\n#ifndef __KERNEL__\n" . vec44(0) . vec44(1) . "#endif\n";

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
    $s .= "\tcall\t$FN{scalar}\n" . RET();
    $s .= "$_->[1]:\n\tcall\t$_->[2]\n" . RET() for reverse @paths;
    return $s . ".asm_endfunc\n";
}

$code .= blocks_entry('poly1305_blocks_avx',
    [$VEC2D_MIN, '.Lavx_vec2d', 'poly1305_x86_64_v2d']);
$code .= blocks_entry('poly1305_blocks_avx2',
    [$VEC4D_MIN, '.Lavx2_vec4d', 'poly1305_x86_64_v4d'],
    [$VEC4_MIN,  '.Lavx2_vec',   'poly1305_x86_64_v4']);
$code .= blocks_entry('poly1305_blocks_avx512',
    [$VEC16_MIN, '.Lavx512_vec16', 'poly1305_x86_64_v16'],
    [$VEC8_MIN,  '.Lavx512_vec8',  'poly1305_x86_64_v8'],
    [$VEC4_MIN,  '.Lavx512_vec4',  'poly1305_x86_64_v4']);
$code .= "\n#ifndef __KERNEL__\n" . blocks_entry('poly1305_blocks_avx512ifma',
    [$VEC44D_MIN, '.Lifma_q16',  'poly1305_x86_64_q16'],
    [$VEC44_MIN,  '.Lifma_q8',   'poly1305_x86_64_q8'],
    [$VEC4_MIN,   '.Lifma_vec4', 'poly1305_x86_64_v4']) . "#endif\n";

# ---- OpenSSL's ChaCha20-Poly1305 helpers (ASMCRYPT_OPENSSL only) -----------
# void *xor128_encrypt_n_pad(void *out, const void *inp, void *otp, size_t len)
#   out = otp = inp ^ otp (len bytes), then otp zero-padded to a multiple
#   of 16 bytes; returns otp + len rounded up to 16.
# void *xor128_decrypt_n_pad(void *out, const void *inp, void *otp, size_t len)
#   out = inp ^ otp, otp = inp (len bytes), padded and returned the same.
# out may alias inp: every block is loaded before anything is stored.
sub xor128 {
    my ($dec) = @_;
    my $n = $dec ? 'dec' : 'enc';
    my ($blk, $byte) = $dec
        ? ("\tpxor\t%xmm0,%xmm1\n\tmovdqu\t%xmm1,(%rdi)\n\tmovdqu\t%xmm0,(%rdx)\n",
           "\tmovzbl\t(%rdx),%r10d\n\txorl\t%eax,%r10d\n\tmovb\t%r10b,(%rdi)\n\tmovb\t%al,(%rdx)\n")
        : ("\tpxor\t%xmm1,%xmm0\n\tmovdqu\t%xmm0,(%rdi)\n\tmovdqu\t%xmm0,(%rdx)\n",
           "\txorb\t(%rdx),%al\n\tmovb\t%al,(%rdi)\n\tmovb\t%al,(%rdx)\n");
    return <<___;

.asm_func xor128_${n}rypt_n_pad, nargs=4
	movq	%rcx,%r8
	shrq	\$4,%r8
	jz	.Lx${n}_tail
.Lx${n}_16:
	movdqu	(%rsi),%xmm0
	movdqu	(%rdx),%xmm1
$blk	leaq	16(%rsi),%rsi
	leaq	16(%rdi),%rdi
	leaq	16(%rdx),%rdx
	decq	%r8
	jnz	.Lx${n}_16
.Lx${n}_tail:
	andq	\$15,%rcx
	jz	.Lx${n}_done
	movl	\$16,%r9d
	subq	%rcx,%r9		# pad bytes
.Lx${n}_byte:
	movzbl	(%rsi),%eax
$byte	incq	%rsi
	incq	%rdi
	incq	%rdx
	decq	%rcx
	jnz	.Lx${n}_byte
.Lx${n}_pad:
	movb	\$0,(%rdx)
	incq	%rdx
	decq	%r9
	jnz	.Lx${n}_pad
.Lx${n}_done:
	movq	%rdx,%rax
${\ RET}.asm_endfunc
___
}
$code .= "\n#ifdef ASMCRYPT_OPENSSL\n" . xor128(0) . xor128(1) . "#endif\n";

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

# ---- output -----------------------------------------------------------------
# Through perlasm/x86_64-xlate.pl when it is there; else (a flat copy, e.g.
# in a kernel tree) the elf flavour is done here, with the same result.
if (defined $xlate) {
    open(my $OUT, '|-', $^X, $xlate, $flavour, defined $output ? $output : ())
        or die "poly1305-x86_64.pl: cannot run $xlate: $!\n";
    print $OUT $code;
    close($OUT) or die "poly1305-x86_64.pl: translator failed\n";
} else {
    my $fh = \*STDOUT;
    if (defined $output) {
        open($fh, '>', $output) or die "poly1305-x86_64.pl: $output: $!\n";
    }
    print $fh elf_xlate($code);
    close($fh) or die "poly1305-x86_64.pl: write: $!\n";
}

# The elf subset of perlasm/x86_64-xlate.pl's pseudo-ops (see there):
# .asm_func/.asm_ret/.asm_endfunc with push=, frame= (xmm and nargs matter
# only on Win64), .asm_extern, .asm_rodata, .asm_text, .asm_note, '#'
# comments to C comments, .align to .balign.
sub elf_xlate {
    my ($src) = @_;
    my (@o, $f);
    my $ppdir = qr/^\s*#\s*(if|ifdef|ifndef|else|elif|endif|define|undef|include|error|warning)\b/;
    for my $line (split /\n/, $src) {
        if ($line =~ $ppdir || $line =~ /^\s*#\s*LLVM-MCA-(BEGIN|END)\b/) { push @o, $line; next }
        my ($code, $cmt) = ($line, undef);
        my $inq = 0;
        for my $i (0 .. length($line) - 1) {
            my $ch = substr($line, $i, 1);
            $inq = !$inq if $ch eq '"';
            if ($ch eq '#' && !$inq) { ($code, $cmt) = (substr($line, 0, $i), substr($line, $i + 1)); last }
        }
        if ($code =~ /^\s*\.asm_func\s+([.\w]+)\s*,?\s*(.*?)\s*$/) {
            my ($name, @opt) = ($1, split /,/, $2);
            $f = { name => $name, global => 1, export => 1, push => [], frame => 0 };
            for (@opt) {
                s/^\s+|\s+$//g;
                if    ($_ eq 'local')    { @$f{qw(global export)} = (0, 0) }
                elsif ($_ eq 'indirect') { @$f{qw(global export)} = (1, 0) }
                elsif (/^push=([\w:]+)$/) { $f->{push} = [split /:/, $1] }
                elsif (/^frame=(\d+)$/)   { $f->{frame} = $1 }
                elsif (!/^(global|xmm|nargs=\d|)$/) { die "poly1305-x86_64.pl: bad .asm_func option '$_'\n" }
            }
            my $alloc = ($f->{frame} + 15) & ~15;
            $alloc += 8 if $alloc && (8 + 8 * @{$f->{push}}) % 16 != 0;
            $f->{alloc} = $alloc;
            push @o, '.text', '.balign 32';
            push @o, ".globl $name" if $f->{export};
            push @o, ".type $name,\@function", "$name:", '.cfi_startproc';
            push @o, "\tendbr64" if $f->{global};
            my $cfa = 8;
            for my $r (@{$f->{push}}) {
                $cfa += 8;
                push @o, "\tpushq\t%$r", '.cfi_adjust_cfa_offset 8', ".cfi_offset %$r,-$cfa";
            }
            push @o, "\tsubq\t\$$alloc,%rsp", ".cfi_adjust_cfa_offset $alloc" if $alloc;
        } elsif ($code =~ /^\s*\.asm_ret\b/) {
            push @o, '.cfi_remember_state';
            push @o, "\taddq\t\$$f->{alloc},%rsp", ".cfi_adjust_cfa_offset -$f->{alloc}" if $f->{alloc};
            push @o, "\tpopq\t%$_", '.cfi_adjust_cfa_offset -8', ".cfi_restore %$_"
                for reverse @{$f->{push}};
            push @o, "\tret", '.cfi_restore_state';
        } elsif ($code =~ /^\s*\.asm_endfunc\b/) {
            push @o, '.cfi_endproc', ".size $f->{name},.-$f->{name}";
            $f = undef;
        } elsif ($code =~ /^\s*\.asm_extern\s+(\w+)/) {
            push @o, ".hidden $1";
        } elsif ($code =~ /^\s*\.asm_rodata\b/) {
            push @o, '.section .rodata';
        } elsif ($code =~ /^\s*\.asm_text\b/) {
            push @o, '.text';
        } elsif ($code =~ /^\s*\.asm_note\b/) {
            push @o, '.section .note.gnu.property,"a"', '.p2align 3', '.long 4, 16, 5',
                '.asciz "GNU"', '.long 0xc0000002, 4, 3', '.p2align 3',
                '.section .note.GNU-stack,"",@progbits';
        } else {
            my $r = $code;
            $r =~ s/^(\s*)\.align\b/$1.balign/ if $r =~ /\S/;
            if (defined $cmt) {
                (my $t = $cmt) =~ s/\*\//* \//g;
                $t =~ s/\s+$//;
                $r .= (length $r ? "\t" : '') . "/*$t */";
            }
            push @o, $r;
        }
    }
    return join '', map { "$_\n" } @o;
}
