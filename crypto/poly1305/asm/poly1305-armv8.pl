#!/usr/bin/env perl
#
# crypto/poly1305/asm/poly1305-armv8.pl - Poly1305 for AArch64 (scalar
# base 2^64 and NEON base 2^26), either endianness.
#
#   perl poly1305-armv8.pl FLAVOUR OUT.S      (FLAVOUR: linux64, ios64, void)
#   perl poly1305-armv8.pl OUT.S              (linux64)
#
# int  poly1305_init(void *ctx, const unsigned char key[16], void *func[2]);
# void poly1305_blocks(void *ctx, const unsigned char *inp, size_t len,
#                      unsigned int padbit);
# void poly1305_emit(void *ctx, unsigned char mac[16], const unsigned int nonce[4]);
#
# init returns 1 and stores {blocks, emit} into func when it picked the
# NEON pair (poly1305_blocks_neon, a local symbol, plus poly1305_emit);
# otherwise it returns 1 with the scalar pair, and 0 for key == NULL.
#
# Scalar algorithm (base 2^64).  h = h0 + h1 2^64 + h2 2^128 (h2 a few
# bits), r = r0 + r1 2^64 clamped, so r0, r1 < 2^60 and 4 | r1.  Since
# 2^130 == 5 mod p, h1 r1 2^128 == h1 (r1/4) 5 = h1 s1 with s1 = r1 +
# (r1 >> 2) (exact).  Per block, after h += m + padbit 2^128:
#     d0 = h0 r0 + h1 s1                 (128 bits)
#     d1 = h0 r1 + h1 r0 + h2 s1         (+ d0 >> 64)
#     d2 = h2 r0                         (+ d1 >> 64, a few bits)
# and the bits of d2 above 2^130 fold back as 5 (d2 >> 2) = (d2 & ~3) +
# (d2 >> 2).  h stays below 2^131 (only partially reduced); emit finishes
# the reduction in constant time (h or h + 5 - 2^130, chosen with csel).
# 10 mul/umulh per block.  poly1305_blocks folds only the uncarried part
# of d2 and adds the next block during the fold (see its comment there);
# the NEON key powers use the plain form (mul_reduce).
#
# NEON algorithm (base 2^26, used by poly1305_blocks_neon for len >= 256
# bytes, >= 512 before the key powers are cached; shorter calls and the
# last 1..3 blocks go to the scalar code): five 26-bit
# limbs, two 64-bit lanes, four blocks in flight.  Per 64-byte step the
# lanes compute
#     (h + m0) r^4 + m2 r^2      in lane 0
#     m1 r^4 + m3 r^2            in lane 1   (lane 1 starts at 0)
# i.e. a Horner scheme in r^4 with the odd blocks in their own lane;
# at the end the lanes are multiplied by (r^4, r^3) and (r^2, r) and
# summed.  Products are umull/umlal 32x32->64; limbs are carried lazily
# (one carry pass per step, in two interleaved chains).
#
# State budget.  Every path, at every length, writes at most 144 bytes
# from ctx (the importers' budget is 192: OpenSSL's POLY1305 opaque, and
# every Linux glue generation), and ctx need only be 8-byte aligned (no
# access needs more; AArch64 ld1/st1 take any address).  The key powers
# r, r^2, r^3, r^4 are cached once per key in a compact table: five
# vectors (one per 26-bit limb) of lanes (r^4, r^3, r^2, r), 80 bytes.
# Each NEON call derives in registers what the loops multiply by: the
# main-loop lanes (r^4, r^4, r^2, r^2) with trn1, the 5x multiples with
# one vector mul per limb (about 12 instructions per call; nothing goes
# to the stack but d8-d15).
#
# Context layout (bytes): h0,h1,h2 @0/8/16 (base 2^64) or h[0..4] as five
# 32-bit words @0..16 (base 2^26); is_base2_26 @24 (u32); r0,r1 @32/40;
# powers-valid @48 (u32); power table @64..143.  The representation is
# recorded in is_base2_26: the scalar code converts back to base 2^64
# when it sees it, the NEON code converts to base 2^26 when it is not
# set, so any sequence of blocks() calls of any size gives the right
# result.
#
# Importer configuration (C preprocessor, the .S is always compiled
# through it):
#   ASMCRYPT_CAPWORD          capability word init reads (an array of
#                             32-bit words); default asmcrypt_cpucap,
#                             referenced as a hidden symbol
#   ASMCRYPT_CAPBIT_A64_NEON  bit number of NEON in it (word n/32, bit
#                             n%32); default 0 (include/asmcrypt/cpu.h);
#                             -1: no run-time bit, NEON iff the build
#                             targets it (__ARM_NEON)
#   ASMCRYPT_OPENSSL          shorthand for OpenSSL: word OPENSSL_armcap_P,
#                             NEON bit 0 (ARMV7_NEON), each only if not
#                             defined already.  Entry points and return
#                             conventions are OpenSSL's (those above);
#                             as in OpenSSL's own module they are hidden.
#   __KERNEL__                Linux kernel mode: init is (state, key),
#                             returns 0, reads no capability word and
#                             fills no table; len and padbit are u32 (only
#                             w2/w3 are read); poly1305_blocks and
#                             poly1305_blocks_neon are separate global
#                             entries (blocks never uses NEON).
#   ASMCRYPT_KERNEL_GLUE      with __KERNEL__: the glue generation whose
#                             names are exported (default 3):
#     1  v5.5-v6.14  poly1305_init (the kernel adds
#                    -Dpoly1305_init=poly1305_init_arm64), poly1305_blocks,
#                    poly1305_blocks_neon, poly1305_emit
#     2  v6.15-v6.16 the same literal names (the kernel adds
#                    -Dpoly1305_init=poly1305_block_init_arch
#                    -Dpoly1305_emit=poly1305_emit_arch)
#     3  v6.17+      poly1305_block_init, poly1305_blocks_arm64,
#                    poly1305_blocks_neon, poly1305_emit
#   The .S writes the literal base names; the generation-3 renames are
#   guarded by #ifndef, so a -D on the command line always wins.
# Kernel Makefile line, from a flat copy (no other file needed):
#   perl poly1305-armv8.pl void poly1305-core.S
#
# Big-endian (__AARCH64EB__): key and message words are byte-reversed with
# rev after loading; nonce words (host-order u32 pairs) with ror #32.
#
# "bti c" (hint #34) at every entry point and a .note.gnu.property
# (BTI | PAC); functions that save lr sign it with paciasp/autiasp.
#
# Performance.  Instructions per byte (make icount) against C and
# OpenSSL, and how the figures came to be: docs/perf/aarch64.md
# ("poly1305-armv8 figures").  Per CPU model,
#   llvm-mca-19 cycles per byte of the block loops:
#               A53    A55    A57/A72  Neoverse-N1  Apple(cyclone)
#     scalar    1.25   1.25   0.94     2.06         1.06
#     NEON      2.31   1.77   0.88     0.92         0.55
#     C ref64   3.81   3.69   1.25     2.50           -
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

# context offsets (bytes from ctx; ctx need only be 8-byte aligned)
use constant { H0 => 0, H1 => 8, H2 => 16, IS26 => 24, R0 => 32, R1 => 40,
               PVALID => 48, TABLE => 64 };
# NEON key table at TABLE: vector j (16 bytes) = limb j of (r^4, r^3, r^2, r)
use constant TABLE_END => TABLE + 5 * 16;
use constant STATE_MAX => 192;          # the importers' budget (OpenSSL, Linux)
die "poly1305-armv8.pl: state layout exceeds the budget\n" if TABLE_END > STATE_MAX;

# ---- scalar register map ----------------------------------------------------
my ($ctx, $inp, $len, $pad) = map { "x$_" } (0 .. 3);
my ($wlen, $wpad) = ('w2', 'w3');
my ($h0, $h1, $h2, $r0, $r1, $s1) = map { "x$_" } (4 .. 9);
my ($m0, $m1, $d0, $d1, $d2, $t0, $t1, $t2) = map { "x$_" } (10 .. 17);

# The fold of the bits above 2^130: (o0, o1, o2) = (i0, i1, top & 3) +
# 5 (top >> 2), the multiple of 4 in $t0 and its quarter taken from $shr
# ($top itself or $t0: the same bits).
sub fold130 {
    my ($o0, $o1, $o2, $i0, $i1, $top, $shr) = @_;
    return <<___;
	and	$t0, $top, #-4
	and	$o2, $top, #3
	add	$t0, $t0, $shr, lsr #2
	adds	$o0, $i0, $t0
	adcs	$o1, $i1, xzr
	adc	$o2, $o2, xzr
___
}

# Importer configuration, resolved by the C preprocessor: one small block
# (documented in the header above).
my $capsym = $flavour eq 'ios64'
    ? 'ASMCRYPT_XPASTE(_, ASMCRYPT_CAPWORD)'     # Mach-O C-symbol prefix
    : 'ASMCRYPT_CAPWORD';
my $code = <<___;
// Generated by crypto/poly1305/asm/poly1305-armv8.pl ($flavour).  Do not edit.
#ifdef __KERNEL__
# ifndef ASMCRYPT_KERNEL_GLUE
#  define ASMCRYPT_KERNEL_GLUE 3
# endif
# if ASMCRYPT_KERNEL_GLUE == 3
#  ifndef poly1305_init
#   define poly1305_init poly1305_block_init
#  endif
#  ifndef poly1305_blocks
#   define poly1305_blocks poly1305_blocks_arm64
#  endif
# elif ASMCRYPT_KERNEL_GLUE != 1 && ASMCRYPT_KERNEL_GLUE != 2
#  error "ASMCRYPT_KERNEL_GLUE must be 1, 2 or 3"
# endif
#else
# ifdef ASMCRYPT_OPENSSL
#  ifndef ASMCRYPT_CAPWORD
#   define ASMCRYPT_CAPWORD OPENSSL_armcap_P
#  endif
#  ifndef ASMCRYPT_CAPBIT_A64_NEON
#   define ASMCRYPT_CAPBIT_A64_NEON 0
#  endif
# endif
# ifndef ASMCRYPT_CAPWORD
#  define ASMCRYPT_CAPWORD asmcrypt_cpucap
# endif
# ifndef ASMCRYPT_CAPBIT_A64_NEON
#  define ASMCRYPT_CAPBIT_A64_NEON 0
# endif
# define ASMCRYPT_PASTE(a, b) a##b
# define ASMCRYPT_XPASTE(a, b) ASMCRYPT_PASTE(a, b)
# define ASMCRYPT_CAPSYM $capsym
#endif
	.text
___

# Function start.  $vis: 'global' (always exported), 'kernel' (exported
# in kernel mode only, a local function otherwise).  $entry is a local
# label at the same address, used for branches and adr inside this file
# (no PLT, no dependence on what cpp renames the symbol to).
sub func_begin {
    my ($name, $vis, $entry) = @_;
    my $s = "\n";
    # OpenSSL hides its poly1305 entry points (called only inside libcrypto)
    $s .= "\t.globl\t$name\n#if defined(ASMCRYPT_OPENSSL) && !defined(__KERNEL__)\n"
        . "\t.hidden\t$name\n#endif\n" if $vis eq 'global';
    $s .= "#ifdef __KERNEL__\n\t.globl\t$name\n#endif\n" if $vis eq 'kernel';
    $s .= <<___;
	.type	$name, %function
	.align	5
$name:
$entry:
	hint	#34			// bti c
___
    return $s;
}
sub func_end { my ($n) = @_; return "\t.size\t$n, .-$n\n"; }

# Byte-reverse registers on big-endian builds.
sub be_rev {
    my $s = "#ifdef __AARCH64EB__\n";
    $s .= "\trev\t$_, $_\n" for @_;
    return $s . "#endif\n";
}

# h (five 26-bit limbs in w-regs of @l) -> base 2^64 in $h0,$h1,$h2.
# Limbs may exceed 26 bits (up to 32): full carry chains.
sub base26_to_64 {
    my @l = @_;             # x registers holding the zero-extended limbs
    return <<___;
	add	$h0, $l[0], $l[1], lsl #26	// < 2^59: no carry
	lsr	$t0, $l[2], #12
	adds	$h0, $h0, $l[2], lsl #52
	add	$t0, $t0, $l[3], lsl #14	// < 2^47: no carry
	lsr	$h2, $l[4], #24
	adcs	$t0, $t0, xzr
	adc	$h2, $h2, xzr
	adds	$h1, $t0, $l[4], lsl #40
	adc	$h2, $h2, xzr
___
}

# h as the NEON code left it (five 32-bit limbs at ctx + 0, base 2^26)
# -> base 2^64 in $h0,$h1,$h2 (w10..w14 are the low halves of $m0 .. $d2).
sub load_h26_to_64 {
    return <<___ . base26_to_64($m0, $m1, $d0, $d1, $d2);
	ldp	w10, w11, [$ctx, #0]
	ldp	w12, w13, [$ctx, #8]
	ldr	w14, [$ctx, #16]
___
}

# One block multiply + partial reduction, h += m + pad 2^128 already done.
sub mul_reduce {
    return <<___ . fold130($h0, $h1, $h2, $d0, $d1, $d2, $d2);
	mul	$d0, $h0, $r0
	umulh	$t0, $h0, $r0
	mul	$t1, $h1, $s1
	umulh	$t2, $h1, $s1
	adds	$d0, $d0, $t1
	adc	$d1, $t0, $t2
	mul	$t0, $h0, $r1
	umulh	$t1, $h0, $r1
	mul	$d2, $h2, $r0
	adds	$d1, $d1, $t0
	adc	$d2, $d2, $t1
	mul	$t0, $h1, $r0
	umulh	$t1, $h1, $r0
	mul	$t2, $h2, $s1
	adds	$d1, $d1, $t0
	adc	$d2, $d2, $t1
	adds	$d1, $d1, $t2
	adc	$d2, $d2, xzr
___
}

# ---- poly1305_init ------------------------------------------------------------
# Picks the blocks function from the capability word (never in kernel
# mode).  With ASMCRYPT_CAPBIT_A64_NEON -1 the build decides.
sub init_pick {
    return <<___;
	adr	$t0, .Lpoly1305_blocks
	adr	$t1, .Lpoly1305_emit
	adr	$t2, .Lpoly1305_blocks_neon
#if ASMCRYPT_CAPBIT_A64_NEON < 0
# ifdef __ARM_NEON
	mov	$t0, $t2
# endif
#else
	adrp	$m0, ASMCRYPT_CAPSYM
	add	$m0, $m0, #:lo12:ASMCRYPT_CAPSYM
	ldr	w9, [$m0, #((ASMCRYPT_CAPBIT_A64_NEON >> 5) << 2)]
	tst	w9, #(1 << (ASMCRYPT_CAPBIT_A64_NEON & 31))
	csel	$t0, $t0, $t2, eq
#endif
	stp	$t0, $t1, [x2]
	mov	x0, #1
	ret
___
}

$code .= func_begin('poly1305_init', 'global', '.Lpoly1305_init');
$code .= <<___;
	stp	xzr, xzr, [$ctx, #@{[H0]}]
	stp	xzr, xzr, [$ctx, #@{[H2]}]	// h2 and is_base2_26 (+ pad)
	str	wzr, [$ctx, #@{[PVALID]}]
	cbz	x1, .Linit_nokey
	ldp	$r0, $r1, [x1]
___
$code .= be_rev($r0, $r1);
$code .= <<___;
	mov	$t0, #0xffff			// 0x0ffffffc0fffffff
	movk	$t0, #0x0fff, lsl #16
	movk	$t0, #0xfffc, lsl #32
	movk	$t0, #0x0fff, lsl #48
	and	$r0, $r0, $t0
	and	$t0, $t0, #-4			// 0x0ffffffc0ffffffc
	and	$r1, $r1, $t0
	stp	$r0, $r1, [$ctx, #@{[R0]}]
#ifndef __KERNEL__
___
$code .= init_pick();
$code .= <<___;
#endif
.Linit_nokey:
	mov	x0, #0
	ret
___
$code .= func_end('poly1305_init');

# ---- poly1305_blocks (scalar) ---------------------------------------------------
# Kernel mode: len is a u32 (the upper half of x2 is unspecified);
# otherwise size_t.  padbit is unsigned int everywhere (only w3 is read).
#
# The block step is scheduled for in-order dual-issue cores (Cortex-A53/
# A55: one multiply per cycle, results after 3-4 cycles, ALU results and
# flags after 1-3).  Three changes shorten the dependency chain from h to
# the next h compared with multiply-then-carry-then-fold:
#  - only the uncarried column-2 sum c2 = hi(h0 r1) + hi(h1 r0) + h2 r0
#    is folded (t = 5 (c2 >> 2) = (c2 & ~3) + (c2 >> 2) into limb 0,
#    c2 & 3 stays in limb 2); the carries out of column 1 go to limb 2
#    as a separate count k, so the fold does not wait for them;
#  - the next block (m, padbit) is added to the column sums while the
#    fold is computed (the loop body adds block i+1 while finishing block
#    i; the last block is peeled into .Lblocks_tail);
#  - the loop is rotated: the last two steps of the fold carry chain
#    (limbs 1 and 2) run at the top of the next iteration, beside the
#    limb-0 multiplies, which need only h0.
# The h2 terms are folded into the column sums with madd.  Register
# roles at .Lblocks_loop / .Lblocks_tail: h0 final, flags = carry out of
# limb 0; h1 = $pd1 + $px + C, h2 = $pc2 + $pk + C still to do.
# Bounds (r0, r1 < 2^60, s1 < 1.25 2^60): h2 <= 8 at the multiply (the
# NEON code's limbs end below 2^26 + 2^10, so its h converts to h2 <= 6,
# plus padbit and a carry), so
#   x  = hi(h0 r0) + hi(h1 s1) + h2 s1 < (1 + 1.25 + 10) 2^60 < 2^64,
#   c2 = hi(h0 r1) + hi(h1 r0) + h2 r0 < 10 2^60,  t < 12.5 2^60,
# none of which carries; then h2 = (c2 & 3) + k + C with k = padbit + two
# column-1 carries <= 3, C <= 1: h2 <= 7 in the loop.  Stored after the
# last (padbit-free) block: h2 <= 5, h < 6 2^128 < 2^131 (what emit and
# the NEON conversion take).  Per block 27 instructions (loop), 10 of
# them mul/umulh/madd.
my ($pc2, $pk, $pm0, $pm1, $pb0, $pb1, $pd1, $pa0) = map { "x$_" } (10 .. 17);
my ($wk) = ('w11');
# roles: $pb0 becomes x (column 1), $pa0 d0, $pd1 d1, $pb1 c2; $h0 holds
# hi(h1 r0), then t, then the new h0; $pm0 then holds lo(h1 s1), $pc2
# lo(h1 r0), $h1 hi(h1 s1).
my ($pa2, $pa3, $pb2, $pb3, $px, $pt) = ($pm0, $pc2, $h1, $h0, $pb0, $h0);

# One block step.  $next: load the next block and add it to the sums.
# The order is what llvm-mca-19 found best for Cortex-A53 (a local
# search over dependence-preserving moves) without losing on the others.
sub blocks_step {
    my ($next) = @_;
    my $n = sub { $next ? $_[0] : '' };
    my $s = $n->("\tldp\t$pm0, $pm1, [$inp], #16\t// next block\n" . be_rev($pm0, $pm1)) . <<___;
	umulh	$pb1, $h0, $r1		// hi(h0 r1), column 2
	adcs	$h1, $pd1, $px		// previous fold: limb 1
	mul	$pd1, $h0, $r1
	mul	$pa0, $h0, $r0
	umulh	$pb0, $h0, $r0
	adc	$h2, $pc2, $pk		// previous fold: limb 2
@{[ $n->("\tadds\t$pa0, $pa0, $pm0\t\t// + m") ]}
	umulh	$pb3, $h1, $r0		// hi(h1 r0), column 2
@{[ $n->("\tsub\t$len, $len, #1") ]}
	madd	$pb1, $h2, $r0, $pb1	// + h2 r0
@{[ $n->("\tadcs\t$pd1, $pd1, $pm1") ]}
	mul	$pa2, $h1, $s1
	mul	$pa3, $h1, $r0
@{[ $n->("\tadc\t$wk, $wpad, wzr\t\t// k = padbit + carry") ]}
	adds	$pa0, $pa0, $pa2
	add	$pb1, $pb1, $pb3		// c2
	umulh	$pb2, $h1, $s1
	madd	$px, $h2, $s1, $pb0	// + h2 s1
	adcs	$pd1, $pd1, $pa3
	add	$px, $px, $pb2			// x, column 1
	and	$pt, $pb1, #-4
	add	$pt, $pt, $pb1, lsr #2		// t = 5 (c2 >> 2)
	and	$pc2, $pb1, #3
@{[ $next ? "\tadc\t$pk, $pk, xzr" : "\tcset\t$pk, cs" ]}
	adds	$h0, $pa0, $pt
___
    $s =~ s/^\n//mg;                   # the lines left empty without $next
    return $s;
}

$code .= func_begin('poly1305_blocks', 'global', '.Lpoly1305_blocks');
$code .= <<___;
#ifdef __KERNEL__
	lsr	$wlen, $wlen, #4		// u32 len, zero-extended
#else
	lsr	$len, $len, #4
#endif
	cbz	$len, .Lblocks_ret
	ldr	w16, [$ctx, #@{[IS26]}]
	ldp	$r0, $r1, [$ctx, #@{[R0]}]
	cbz	w16, .Lblocks_h64
	// h is in base 2^26 (left by the NEON code): convert back
___
$code .= load_h26_to_64();
$code .= <<___;
	str	wzr, [$ctx, #@{[IS26]}]
	mov	$pd1, $h1
	mov	$pc2, $h2
	b	.Lblocks_go
.Lblocks_h64:
	ldp	$h0, $pd1, [$ctx, #@{[H0]}]
	ldr	$pc2, [$ctx, #@{[H2]}]
.Lblocks_go:
	ldp	$pm0, $px, [$inp], #16
	add	$s1, $r1, $r1, lsr #2
	mov	$wk, $wpad			// padbit: upper half unspecified
	sub	$len, $len, #1
___
$code .= be_rev($pm0, $px);
$code .= <<___;
	adds	$h0, $h0, $pm0			// h += m, limbs 1, 2 in the step
	cbz	$len, .Lblocks_tail
# LLVM-MCA-BEGIN poly1305_blocks
# LLVM-MCA-UNITS 16 bytes
.Lblocks_loop:
___
$code .= blocks_step(1);
$code .= <<___;
	cbnz	$len, .Lblocks_loop
# LLVM-MCA-END
.Lblocks_tail:
___
$code .= blocks_step(0);
$code .= <<___;
	adcs	$h1, $pd1, $px
	adc	$h2, $pc2, $pk
	stp	$h0, $h1, [$ctx, #@{[H0]}]
	str	$h2, [$ctx, #@{[H2]}]
.Lblocks_ret:
	ret
___
$code .= func_end('poly1305_blocks');

# ---- poly1305_emit --------------------------------------------------------------
my ($mac, $nonce) = ('x1', 'x2');
$code .= func_begin('poly1305_emit', 'global', '.Lpoly1305_emit');
$code .= <<___;
	ldr	w16, [$ctx, #@{[IS26]}]
	cbz	w16, .Lemit_h64
___
$code .= load_h26_to_64();
$code .= <<___;
	b	.Lemit_go
.Lemit_h64:
	ldp	$h0, $h1, [$ctx, #@{[H0]}]
	ldr	$h2, [$ctx, #@{[H2]}]
.Lemit_go:
	// h < 2^131: fold the bits above 2^130 once more, then h < 2^130 + 2^33
@{[ fold130($h0, $h1, $h2, $h0, $h1, $h2, $t0) ]}	// h >= p  <=>  h + 5 >= 2^130
	adds	$d0, $h0, #5
	adcs	$d1, $h1, xzr
	adc	$d2, $h2, xzr
	tst	$d2, #-4
	csel	$h0, $h0, $d0, eq
	csel	$h1, $h1, $d1, eq
	ldp	$m0, $m1, [$nonce]
#ifdef __AARCH64EB__
	ror	$m0, $m0, #32
	ror	$m1, $m1, #32
#endif
	adds	$h0, $h0, $m0
	adc	$h1, $h1, $m1
___
$code .= be_rev($h0, $h1);
$code .= <<___;
	stp	$h0, $h1, [$mac]
	ret
___
$code .= func_end('poly1305_emit');

# ---- NEON ---------------------------------------------------------------------

# Full reduction of ($a0,$a1,$a2) (< 2^131) to [0, p), constant time.
sub full_reduce {
    my ($a0, $a1, $a2) = @_;
    return <<___;
@{[ fold130($a0, $a1, $a2, $a0, $a1, $a2, $t0) ]}	adds	$t0, $a0, #5
	adcs	$t1, $a1, xzr
	adc	$t2, $a2, xzr
	tst	$t2, #-4
	csel	$a0, $a0, $t0, eq
	csel	$a1, $a1, $t1, eq
	csel	$a2, $a2, $t2, eq
	and	$a2, $a2, #3
___
}

# Base 2^64 ($a0,$a1,$a2) -> limb j (26 bits, limb 4 may be wider) in $dst.
sub limb26 {
    my ($j, $dst, $a0, $a1, $a2) = @_;
    return "\tand\t$dst, $a0, #0x3ffffff\n" if $j == 0;
    return "\tubfx\t$dst, $a0, #26, #26\n" if $j == 1;
    return "\textr\t$dst, $a1, $a0, #52\n\tand\t$dst, $dst, #0x3ffffff\n" if $j == 2;
    return "\tubfx\t$dst, $a1, #14, #26\n" if $j == 3;
    return "\textr\t$dst, $a2, $a1, #40\n";
}

# Store power $pw (reduced, in $a0..$a2) into its lane of the table:
# limb j at TABLE + 16 j, lane 4 - pw (lanes r^4, r^3, r^2, r).
sub store_power {
    my ($pw, $a0, $a1, $a2) = @_;
    my ($l, $wl) = ('x10', 'w10');
    my $out = '';
    for my $j (0 .. 4) {
        $out .= limb26($j, $l, $a0, $a1, $a2);
        $out .= "\tstr\t$wl, [$ctx, #" . (TABLE + 16 * $j + 4 * (4 - $pw)) . "]\n";
    }
    return $out;
}

# NEON register map
my @R  = map { "v$_" } (0 .. 4);            # R0..R4 (.4s)
my @S  = (undef, map { "v$_" } (5 .. 8));   # S1..S4 (.4s), S = 5R
my @H  = map { "v$_" } (9 .. 13);           # h limbs (.2s), then h + m (low lanes)
my @L  = map { "v$_" } (14 .. 18);          # message limbs of 4 blocks (.4s)
my @D  = map { "v$_" } (19 .. 23);          # accumulators (.2d)
my ($T, $FIVE, $M4, $M2, $PAD, $T2v) = map { "v$_" } (24, 25, 28, 29, 30, 31);
my ($n4, $tbl) = ('x9', 'x10');

# ld4 + split four blocks into 26-bit limbs @L (lanes = blocks 0..3).
sub load_split {
    my $s = "\tld4\t{$L[0].4s, $L[1].4s, $L[2].4s, $L[3].4s}, [$inp], #64\n";
    $s .= "#ifdef __AARCH64EB__\n";
    $s .= "\trev32\t$L[$_].16b, $L[$_].16b\n" for 0 .. 3;
    $s .= "#endif\n";
    $s .= <<___;
	ushr	$L[4].4s, $L[3].4s, #8
	ushr	$T.4s, $L[2].4s, #14
	orr	$L[4].16b, $L[4].16b, $PAD.16b
	sli	$T.4s, $L[3].4s, #18
	ushr	$T2v.4s, $L[1].4s, #20
	and	$L[3].16b, $T.16b, $M4.16b
	sli	$T2v.4s, $L[2].4s, #12
	ushr	$T.4s, $L[0].4s, #26
	and	$L[2].16b, $T2v.16b, $M4.16b
	sli	$T.4s, $L[1].4s, #6
	and	$L[0].16b, $L[0].16b, $M4.16b
	and	$L[1].16b, $T.16b, $M4.16b
___
    return $s;
}

# D = (H + L.lo) * R.lo + L.hi * R.hi  (5x5 limbs, S = 5R for wrap-around)
sub products {
    my $s = '';
    # multiplier of L[i] for D[k]
    my $mul = sub { my ($i, $k) = @_; my $j = $k - $i; return $j >= 0 ? $R[$j] : $S[$j + 5]; };
    # high lanes first: they do not depend on h
    for my $i (0 .. 4) {
        for my $k (0 .. 4) {
            my $op = $i == 0 ? 'umull2' : 'umlal2';
            $s .= "\t$op\t$D[$k].2d, $L[$i].4s, " . $mul->($i, $k) . ".4s\n";
        }
    }
    $s .= "\tadd\t$H[$_].2s, $H[$_].2s, $L[$_].2s\n" for 0 .. 4;
    for my $i (0 .. 4) {
        for my $k (0 .. 4) {
            $s .= "\tumlal\t$D[$k].2d, $H[$i].2s, " . $mul->($i, $k) . ".2s\n";
        }
    }
    return $s;
}

# Lazy carry: two interleaved chains, limbs end below 2^26 + 2^10.
sub carry {
    return <<___;
	usra	$D[1].2d, $D[0].2d, #26
	and	$D[0].16b, $D[0].16b, $M2.16b
	usra	$D[4].2d, $D[3].2d, #26
	and	$D[3].16b, $D[3].16b, $M2.16b
	ushr	$T.2d, $D[4].2d, #26
	usra	$D[2].2d, $D[1].2d, #26
	and	$D[4].16b, $D[4].16b, $M2.16b
	and	$D[1].16b, $D[1].16b, $M2.16b
	add	$D[0].2d, $D[0].2d, $T.2d
	shl	$T.2d, $T.2d, #2
	usra	$D[3].2d, $D[2].2d, #26
	and	$D[2].16b, $D[2].16b, $M2.16b
	add	$D[0].2d, $D[0].2d, $T.2d
	usra	$D[4].2d, $D[3].2d, #26
	and	$D[3].16b, $D[3].16b, $M2.16b
	usra	$D[1].2d, $D[0].2d, #26
	and	$D[0].16b, $D[0].16b, $M2.16b
___
}

# The compact table into R0..R4 (lanes r^4, r^3, r^2, r).
sub load_table {
    return <<___;
	add	$tbl, $ctx, #@{[TABLE]}
	ld1	{$R[0].4s, $R[1].4s, $R[2].4s, $R[3].4s}, [$tbl], #64
	ld1	{$R[4].4s}, [$tbl]
___
}
# Main-loop lanes (r^4, r^4, r^2, r^2) from (r^4, r^3, r^2, r).
sub table_main_lanes {
    return join '', map { "\ttrn1\t$R[$_].4s, $R[$_].4s, $R[$_].4s\n" } 0 .. 4;
}
# S1..S4 = 5 R1..R4 (below 2^29: no overflow in a 32-bit lane).
sub table_times5 {
    return join '', map { "\tmul\t$S[$_].4s, $R[$_].4s, $FIVE.4s\n" } 1 .. 4;
}

# NEON is chosen at run time (init or the kernel glue), so the code must
# assemble even where the build targets +nosimd.
$code .= "\n\t.arch_extension\tsimd\n";
$code .= func_begin('poly1305_blocks_neon', 'kernel', '.Lpoly1305_blocks_neon');
$code .= <<___;
	// NEON pays for its set-up (powers: 189 instructions once per key;
	// conversions, frame, lane set-up and lane sum: about 60 per call)
	// from 256 bytes when the powers are cached and from 512 bytes
	// otherwise.
#ifdef __KERNEL__
	mov	$wlen, $wlen			// u32 len: upper half unspecified
#endif
	cmp	$len, #256
	b.lo	.Lpoly1305_blocks
	ldr	w16, [$ctx, #@{[PVALID]}]
	cbnz	w16, .Lneon_go
	cmp	$len, #512
	b.lo	.Lpoly1305_blocks
.Lneon_go:
	hint	#25			// paciasp
	stp	x29, x30, [sp, #-80]!
	add	x29, sp, #0
	stp	d8, d9, [sp, #16]
	stp	d10, d11, [sp, #32]
	stp	d12, d13, [sp, #48]
	stp	d14, d15, [sp, #64]
	mov	$wpad, $wpad			// padbit: upper half unspecified

	ldr	w16, [$ctx, #@{[PVALID]}]
	cbnz	w16, .Lneon_have_powers
	// r^1..r^4 in base 2^26 into the table, once per key
	ldp	$r0, $r1, [$ctx, #@{[R0]}]
	add	$s1, $r1, $r1, lsr #2
	mov	$h0, $r0
	mov	$h1, $r1
	mov	$h2, #0
___
$code .= store_power(1, $h0, $h1, $h2);
for my $pw (2 .. 4) {
    $code .= mul_reduce();
    $code .= "\tmov\t$d0, $h0\n\tmov\t$d1, $h1\n\tmov\t$d2, $h2\n";
    $code .= full_reduce($d0, $d1, $d2);
    $code .= store_power($pw, $d0, $d1, $d2);
}
$code .= <<___;
	mov	w16, #1
	str	w16, [$ctx, #@{[PVALID]}]
.Lneon_have_powers:
	ldr	w16, [$ctx, #@{[IS26]}]
	cbnz	w16, .Lneon_h26
	// h from base 2^64 to base 2^26
	ldp	$h0, $h1, [$ctx, #@{[H0]}]
	ldr	$h2, [$ctx, #@{[H2]}]
___
for my $j (0 .. 4) {
    $code .= limb26($j, $d0, $h0, $h1, $h2);
    $code .= "\tfmov\t" . ($H[$j] =~ s/v/s/r) . ", w12\n";
}
$code .= <<___;
	mov	w16, #1
	str	w16, [$ctx, #@{[IS26]}]
	b	.Lneon_h_ready
.Lneon_h26:
	ldp	s9, s10, [$ctx, #0]
	ldp	s11, s12, [$ctx, #8]
	ldr	s13, [$ctx, #16]
.Lneon_h_ready:
	movi	$T.2d, #-1
	ushr	$M4.4s, $T.4s, #6		// 0x03ffffff per 32-bit lane
	ushr	$M2.2d, $T.2d, #38		// 0x03ffffff per 64-bit lane
	movi	$FIVE.4s, #5
	lsl	w16, $wpad, #24
	dup	$PAD.4s, w16
	lsr	$n4, $len, #6
	and	$len, $len, #63
	subs	$n4, $n4, #1
	b.eq	.Lneon_last
___
$code .= load_table();
$code .= table_main_lanes();
$code .= table_times5();
$code .= "# LLVM-MCA-BEGIN poly1305_blocks_neon\n# LLVM-MCA-UNITS 64 bytes\n.Lneon_loop:\n";
$code .= load_split();
$code .= products();
$code .= carry();
$code .= "\txtn\t$H[$_].2s, $D[$_].2d\n" for 0 .. 4;
$code .= <<___;
	subs	$n4, $n4, #1
	b.ne	.Lneon_loop
# LLVM-MCA-END
.Lneon_last:
___
$code .= load_table();
$code .= table_times5();
$code .= load_split();
$code .= products();
$code .= "\taddp\t" . ($D[$_] =~ s/v/d/r) . ", $D[$_].2d\n" for 0 .. 4;
$code .= carry();
$code .= "\tmov\tx16, $ctx\n";
$code .= "\tst1\t{$D[$_].s}[0], [x16], #4\n" for 0 .. 4;
$code .= <<___;
	ldp	d8, d9, [sp, #16]
	ldp	d10, d11, [sp, #32]
	ldp	d12, d13, [sp, #48]
	ldp	d14, d15, [sp, #64]
	ldp	x29, x30, [sp], #80
	hint	#29			// autiasp
	cmp	$len, #16
	b.hs	.Lpoly1305_blocks	// 1..3 blocks left: scalar (converts h back)
	ret
___
$code .= func_end('poly1305_blocks_neon');

$code .= <<___;

#ifndef __KERNEL__
# if ASMCRYPT_CAPBIT_A64_NEON >= 0
___
$code .= $flavour eq 'ios64'
    ? "\t.private_extern\tASMCRYPT_CAPSYM\n"      # not seen by arm-xlate.pl
    : "\t.hidden\tASMCRYPT_CAPSYM\n";
$code .= <<___;
# endif
#endif
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
close $out or die "poly1305-armv8.pl: error writing output: $!\n";
