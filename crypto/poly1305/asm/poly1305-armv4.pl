#!/usr/bin/env perl
#
# poly1305-armv4.pl - Poly1305 for 32-bit ARM (ARMv4 and later, ARM or
# Thumb-2 mode, either endianness).
#
#   perl poly1305-armv4.pl [FLAVOUR] [OUT.S]   (FLAVOUR: linux32, void
#                                              (default), ios32)
#   perl poly1305-armv4.pl > poly1305-core.S   (Linux kernel Makefile)
# linux32 and void need no other file (from a flat copy too); ios32 runs
# arm-xlate.pl, found beside this script or in ../../../perlasm/.
#
#   int  poly1305_init(void *ctx, const unsigned char key[16], void *func[2])
#   void poly1305_blocks(void *ctx, const unsigned char *inp, size_t len,
#                        unsigned int padbit)
#   void poly1305_blocks_neon(same)            (NEON builds)
#   void poly1305_emit(void *ctx, unsigned char mac[16],
#                      const unsigned int nonce[4])
# init returns 1 and stores {poly1305_blocks_neon, poly1305_emit} in func
# when it picked NEON, else 0 (OpenSSL's convention).  key NULL only
# zeroes h.  blocks ignores len % 16.
#
# Algorithm.  h = (h + m + padbit*2^128) * r mod p, p = 2^130-5, with h
# held in five 32-bit words (radix 2^32, h4 a few bits) and r in four.
# Clamping makes r1..r3 multiples of 4, so a product that reaches
# 2^128 can be folded down as r_j*2^128 = (r_j/4)*2^130 == 5*r_j/4 =
# s_j = r_j + (r_j >> 2) (exact).  The product is formed in 64-bit
# umull/umlal column accumulators,
#   d0 = h0 r0 + h1 s3 + h2 s2 + h3 s1
#   d1 = h0 r1 + h1 r0 + h2 s3 + h3 s2 + h4 s1  (+ d0 >> 32)
#   d2 = h0 r2 + h1 r1 + h2 r0 + h3 s3 + h4 s2  (+ d1 >> 32)
#   d3 = h0 r3 + h1 r2 + h2 r1 + h3 r0 + h4 s3  (+ d2 >> 32)
#   d4 = h4 r0                                  (+ d3 >> 32)
# (r < 2^28, s < 1.25*2^28, so five products plus a carry stay below
# 2^64).  d0, d1 and d2 are accumulated side by side - three independent
# multiply-accumulate chains sharing each loaded multiplier - and their
# carries folded afterwards; d3 then starts from d2's high word.  (One
# chain per column in sequence was latency bound: 19 dependent umlal per
# block, 6.70 c/B on the Cortex-A9 model against 5.13 now.)  The partial
# reduction folds d4 >> 2 back as 5*(d4 >> 2), which leaves
# h < 2^130 + 2^35: not fully reduced, but the next block's
# multiplication accepts it and emit finishes the job in constant time
# (select h or h + 5 - 2^130).  No branch or address depends on h, r or
# the message.
#
# The seven multipliers (r0, s3, s2, s1, r1, r2, r3) live in a stack
# table; three registers hold the ones in use, r0 and s3 are fetched
# twice (one ldrd each time on ARMv6+).
#
# Loads: ARMv7 uses unaligned ldr (plus rev on big-endian); older cores
# use ldm for word-aligned input (rev on big-endian ARMv6) and otherwise
# assemble bytes with ldrb/orr, which is endian-neutral.  emit stores the
# tag with strb, so mac may be unaligned.
#
# State (ctx): h0..h4 @0..16 (always radix 2^32 between calls), word @20
# unused (0), r0..r3 @24..36, NEON tables: ready flag @52, r / r^2 / r^4
# as five 26-bit limbs @64 / @84 / @104 (computed by the first NEON call
# after init with a key).  Every access is a 32-bit ldr/str/ldm/stm or a
# 32-bit NEON lane load, so 4-byte alignment suffices (8 is what the
# kernel and OpenSSL give).  Bytes written from ctx, at every level and
# length: init 0..39 and 52..55; scalar blocks 0..19; NEON blocks 0..19,
# 52..55 and 64..123.  High-water mark 124, inside the 192-byte budget
# (DESIGN.md: OpenSSL's POLY1305 opaque; the kernel's arm state is 240).
# Bytes 40..51 and 56..63 are never touched.  r^3 and the per-call
# multiplier tables live in the stack frame.
#
# Importer defines (cpp; the .S is always compiled through it):
#   ASMCRYPT_CAPWORD          capability word init reads (an array of
#                             32-bit words, referenced PC-relative as a
#                             hidden symbol); default asmcrypt_cpucap
#   ASMCRYPT_CAPBIT_ARM_NEON  bit number of NEON in it (word n/32, bit
#                             n%32); default 1 (include/asmcrypt/cpu.h);
#                             -1: no run-time bit, init picks NEON
#                             whenever the NEON code is assembled
#   ASMCRYPT_OPENSSL          shorthand, each only if not defined already:
#                             OPENSSL_armcap_P, NEON bit 0 (ARMV7_NEON)
#                             (ASMCRYPT_CAPBIT_ARM_UMAAL -1: unused here)
#   __ARM_MAX_ARCH__          6 leaves the NEON code out (default: 7 when
#                             the compiler targets NEON)
#   __KERNEL__                Linux kernel mode.  The level is
#                             __LINUX_ARM_ARCH__ (also for NEON: from 7
#                             the NEON code is assembled with its own
#                             .fpu neon, under -mfpu=vfp -msoft-float).
#                             init is (state, key), returns 0, reads no
#                             capability word, fills no table; blocks
#                             never uses NEON, poly1305_blocks_neon is a
#                             separate entry (the glue brackets it with
#                             kernel_neon_begin/end).
#   ASMCRYPT_KERNEL_GLUE      with __KERNEL__: the glue generation whose
#                             names are exported (default 3):
#     1  v5.5-v6.14  poly1305_init_arm, poly1305_blocks_arm,
#                    poly1305_blocks_neon, poly1305_emit_arm
#     2  v6.15-v6.16 poly1305_block_init_arch, poly1305_blocks_arm,
#                    poly1305_blocks_neon, poly1305_emit_arch
#     3  v6.17+      poly1305_block_init, poly1305_blocks_arm,
#                    poly1305_blocks_neon, poly1305_emit
#   The .S writes the base names and renames them under #ifndef, so a
#   -Dpoly1305_init=... on the command line wins.
# Kernel recipe (flat copy, nothing else needed):
#   perl poly1305-armv4.pl > poly1305-core.S
#   AFLAGS -D__KERNEL__ -D__LINUX_ARM_ARCH__=N -msoft-float -mfpu=vfp
#          -Wa,-march=...; NEON: -U__LINUX_ARM_ARCH__ -D__LINUX_ARM_ARCH__=7;
#          Thumb-2: -U__thumb2__ -D__thumb2__=1
#
# NEON (ARMv7 builds with NEON, chosen by init when the NEON bit of the
# capability word is set; see neon_blocks below): radix 2^26, two lanes,
# four blocks per step, h converted from/to radix 2^32 on entry/exit so
# the state layout and emit are shared with the scalar code.
#
# Performance, our measurements.
#
# Instructions per byte of a one-shot tag (make icount: tools/qemu-icount
# under qemu-arm; C = poly1305_ref26 at -O2 with the same flags; OpenSSL =
# Debian armhf libcrypto 3.0.22, which takes its NEON path on cortex-a8):
#   row (qemu -cpu)      size   C ref26  scalar  ratio  NEON   OpenSSL
#   armv7  (cortex-a8)   8192   6.54     3.55    0.54   1.76   1.79
#   armv7  (cortex-a8)   1024   6.83     3.91    0.57   2.38   2.72
#   armv7  (cortex-a8)    256   7.81     5.15    0.66   4.50   5.93
#   armv7  (cortex-a8)     64   11.73    10.09   0.86   (scalar: < 128 B)
#   thumb2 (cortex-a15)  8192   7.17     3.55    0.50   1.76
#   armv6  (arm1136)     8192   6.43     3.36    0.52   (aligned: ldm loop)
#   armv5te (arm926)     8192   8.37     3.49    0.42   (aligned: ldm loop)
#   (unaligned input before ARMv7 takes the ldrb loop, ~1.7/byte more)
#
# llvm-mca-19 cycles per byte of the block loops (ARMv7 ARM-mode build;
# Thumb-2 gives the same on these models; M4/M7 on the Thumb-2 build):
#   loop                      A9     A57    Swift  M4     M7
#   scalar (56 insns/16 B)    5.13   3.76   4.51   5.13   3.38
#   NEON  (107 insns/64 B)    2.45   1.27   1.52   -      -
# (The previous one-chain-per-column scalar loop, 53 instructions: A9
# 6.70, A57 5.26, Swift 5.32, M4 4.94, M7 3.13; the side-by-side columns
# trade 3 instructions and ~5% on the M cores for 15-30% on the others.)
# Targets: NEON A9 <= 2.5 met; scalar A9 <= 5.1 missed by 0.6%: starting
# d3 independently as well would need a 15th register or one more
# instruction per block (over the 0.55x instruction target on armv7).
#
use strict;
use warnings;

# ---- ARM32 preamble (begin) ---------------------------------------------
# The same lines in every 32-bit ARM module (armv4-mont.pl, armv4-words.pl,
# poly1305-armv4.pl); see the numbered rules at the top of arm-xlate.pl.
# linux32 and void are written directly: the .S needs nothing else.
# ios32 (Mach-O) goes through arm-xlate.pl, looked for beside this script
# first, then in the tree's perlasm/.
# Arguments: [FLAVOUR] [anything ...] [OUT.S], OpenSSL's perlasm command
# line included (docs/adding-a-module.md, "The script's command line").
my @args = @ARGV;
my $output  = (@args && $args[-1] =~ /\.\w+$/ && $args[-1] !~ /^-/) ? pop @args : undef;
my $flavour = (@args && $args[0] !~ /^-|\./) ? shift @args : 'void';
$flavour = 'void' if $flavour eq '';
my $me = $0; $me =~ s{.*/}{};
die "$me: unknown flavour '$flavour' (linux32, ios32, void)\n"
    unless $flavour =~ /^(?:linux32|ios32|void)$/;
if ($flavour eq 'ios32') {
    my $dir = $0; $dir =~ s{[^/]*$}{};
    my ($xlate) = grep { -f $_ }
        ("${dir}arm-xlate.pl", "${dir}../../../perlasm/arm-xlate.pl");
    defined $xlate
        or die "$me: ios32 needs arm-xlate.pl beside $me or in ../../../perlasm/\n";
    open STDOUT, '|-', $^X, $xlate, $flavour, (defined $output ? $output : ())
        or die "$me: can't run $xlate: $!\n";
} elsif (defined $output) {
    open STDOUT, '>', $output or die "$me: can't write $output: $!\n";
}

# C-preprocessor block at the top of every .S:
# - __ARM_ARCH__: the architecture level, one number (from __ARM_ARCH or
#   the legacy __ARM_ARCH_nX__ macros; under __KERNEL__ from the kernel's
#   __LINUX_ARM_ARCH__, which the kernel Makefile may -U/-D re-define).
# - __ARM_MAX_ARCH__: NEON ceiling (7: NEON code is assembled).  Default:
#   __ARM_ARCH__ when the compiler targets NEON, else 6; under __KERNEL__
#   __LINUX_ARM_ARCH__ (the NEON code carries its own .fpu neon).  An
#   importer may pre-define it lower, e.g. 6 for "no NEON".
# - ASMCRYPT_ARM_UMAAL: 1 when umaal exists (ARMv6+, except M-profile
#   without the DSP extension).
# - the capability word and bits (see cap_macros), and ARM or Thumb-2
#   mode.

# OpenSSL mode (-DASMCRYPT_OPENSSL on the perl command line, where OpenSSL's
# build puts the DEFINEs of crypto/{bn,poly1305}/build.info): like
# OpenSSL's own ARM modules, an ARMv7 build assembles the NEON code even
# when the compiler does not target NEON (Debian armhf: -march=armv7-a+fp);
# it carries its own .fpu neon and OPENSSL_armcap_P picks it at run time.
# Without that define the .S is unchanged.
my $openssl_neon = (grep { $_ eq "-DASMCRYPT_OPENSSL" } @ARGV)
    ? "# elif defined(ASMCRYPT_OPENSSL) && __ARM_ARCH__ >= 7\n#  define __ARM_MAX_ARCH__ __ARM_ARCH__\n"
    : "";

sub arch_block {
    my $s = <<'___' . cap_macros() . <<'___';
#if defined(__KERNEL__) && !defined(__ARM_ARCH__)
# ifndef __LINUX_ARM_ARCH__
#  error "__KERNEL__ without __LINUX_ARM_ARCH__"
# endif
# define __ARM_ARCH__ __LINUX_ARM_ARCH__
# ifndef __ARM_MAX_ARCH__
#  define __ARM_MAX_ARCH__ __LINUX_ARM_ARCH__
# endif
#endif
#ifndef __ARM_ARCH__
# if defined(__ARM_ARCH)
#  define __ARM_ARCH__ __ARM_ARCH
# elif defined(__ARM_ARCH_8A__)
#  define __ARM_ARCH__ 8
# elif defined(__ARM_ARCH_7__) || defined(__ARM_ARCH_7A__) || \
       defined(__ARM_ARCH_7R__) || defined(__ARM_ARCH_7M__) || \
       defined(__ARM_ARCH_7EM__)
#  define __ARM_ARCH__ 7
# elif defined(__ARM_ARCH_6__) || defined(__ARM_ARCH_6J__) || \
       defined(__ARM_ARCH_6K__) || defined(__ARM_ARCH_6Z__) || \
       defined(__ARM_ARCH_6ZK__) || defined(__ARM_ARCH_6T2__)
#  define __ARM_ARCH__ 6
# elif defined(__ARM_ARCH_5__) || defined(__ARM_ARCH_5T__) || \
       defined(__ARM_ARCH_5E__) || defined(__ARM_ARCH_5TE__) || \
       defined(__ARM_ARCH_5TEJ__)
#  define __ARM_ARCH__ 5
# elif defined(__ARM_ARCH_4__) || defined(__ARM_ARCH_4T__)
#  define __ARM_ARCH__ 4
# else
#  error "cannot tell the ARM architecture level; define __ARM_ARCH__"
# endif
#endif
#ifndef __ARM_MAX_ARCH__
# if defined(__ARM_NEON__) || defined(__ARM_NEON)
#  define __ARM_MAX_ARCH__ __ARM_ARCH__
# else
#  define __ARM_MAX_ARCH__ 6
# endif
#endif
#if __ARM_MAX_ARCH__ > __ARM_ARCH__ && __ARM_ARCH__ < 7
# undef __ARM_MAX_ARCH__
# define __ARM_MAX_ARCH__ __ARM_ARCH__
#endif
#ifndef ASMCRYPT_ARM_UMAAL
# if __ARM_ARCH__ >= 6 && !(defined(__ARM_ARCH_PROFILE) && \
       __ARM_ARCH_PROFILE == 'M' && !defined(__ARM_FEATURE_DSP))
#  define ASMCRYPT_ARM_UMAAL 1
# else
#  define ASMCRYPT_ARM_UMAAL 0
# endif
#endif
___
#if defined(__thumb2__)
	.syntax	unified
	.thumb
#else
	.syntax	unified
	.arm
#endif
___
    $s =~ s/^(#  define __ARM_MAX_ARCH__ __ARM_ARCH__\n)(# else\n#  define __ARM_MAX_ARCH__ 6\n)/$1$openssl_neon$2/m
        or die "arch_block: no __ARM_MAX_ARCH__ default";
    return $s;
}

# The capability word an importer names (one block, the same in every
# ARM module):
#   ASMCRYPT_CAPWORD           symbol read, an array of 32-bit words,
#                              referenced PC-relative as a hidden symbol
#                              (default asmcrypt_cpucap)
#   ASMCRYPT_CAPBIT_ARM_UMAAL  bit number of umaal in it (word n/32, bit
#   ASMCRYPT_CAPBIT_ARM_NEON   n%32); defaults 0 and 1 as in
#                              include/asmcrypt/cpu.h; -1: no run-time
#                              bit, the path runs iff the build has it
#   ASMCRYPT_OPENSSL           shorthand (each only if not defined yet):
#                              OPENSSL_armcap_P, NEON 0 (ARMV7_NEON),
#                              UMAAL -1
# ASMCRYPT_ARM_UMAAL_RT / ASMCRYPT_ARM_NEON_RT are 1 when the path is
# built and chosen by its bit at run time.
sub cap_macros {
    return <<'___';
#ifndef ASMCRYPT_CAPWORD
# ifdef ASMCRYPT_OPENSSL
#  define ASMCRYPT_CAPWORD OPENSSL_armcap_P
# else
#  define ASMCRYPT_CAPWORD asmcrypt_cpucap
# endif
#endif
#ifndef ASMCRYPT_CAPBIT_ARM_UMAAL
# ifdef ASMCRYPT_OPENSSL
#  define ASMCRYPT_CAPBIT_ARM_UMAAL -1
# else
#  define ASMCRYPT_CAPBIT_ARM_UMAAL 0
# endif
#endif
#ifndef ASMCRYPT_CAPBIT_ARM_NEON
# ifdef ASMCRYPT_OPENSSL
#  define ASMCRYPT_CAPBIT_ARM_NEON 0
# else
#  define ASMCRYPT_CAPBIT_ARM_NEON 1
# endif
#endif
#define ASMCRYPT_CAP_OFF(b)  (4 * ((b) / 32))
#define ASMCRYPT_CAP_MASK(b) (1 << ((b) % 32))
#ifdef __APPLE__
# define ASMCRYPT_CAP_LIT(b) 0
#else
# define ASMCRYPT_CAP_LIT(b) ASMCRYPT_CAP_OFF(b)
#endif
#if ASMCRYPT_ARM_UMAAL && ASMCRYPT_CAPBIT_ARM_UMAAL >= 0
# define ASMCRYPT_ARM_UMAAL_RT 1
#else
# define ASMCRYPT_ARM_UMAAL_RT 0
#endif
#if __ARM_MAX_ARCH__ >= 7 && ASMCRYPT_CAPBIT_ARM_NEON >= 0
# define ASMCRYPT_ARM_NEON_RT 1
#else
# define ASMCRYPT_ARM_NEON_RT 0
#endif
___
}

# Literal $lit for capability bit $bit (a macro name): the word's offset
# from $lit (ELF), or that of its non-lazy pointer (Mach-O, arm-xlate.pl).
sub cap_literal {
    my ($lit, $bit) = @_;
    return "\t.align\t2\n$lit:\n"
         . "\t.word\tASMCRYPT_CAPWORD - $lit + ASMCRYPT_CAP_LIT($bit)\n";
}

# Z clear iff capability $bit is set; $base = address of $lit, $t = word.
sub cap_test {
    my ($lit, $bit, $base, $t) = @_;
    return <<___;
	adr	$base, $lit
	ldr	$t, [$base]
	ldr	$t, [$base, $t]
#ifdef __APPLE__
	ldr	$t, [$t, #ASMCRYPT_CAP_OFF($bit)]	\@ through the non-lazy pointer
#endif
	tst	$t, #ASMCRYPT_CAP_MASK($bit)
___
}

# Return to lr: bx lr on ARMv5+ and Thumb-2; on ARMv4/v4T bit 0 of lr
# decides, and bx (e12fff1e) is a .word so -march=armv4 accepts the file.
# No final newline: written as a line of its own in the code.
my $RET = <<'___';
#if __ARM_ARCH__ >= 5 || defined(__thumb2__)
	bx	lr
#else
	tst	lr, #1
	moveq	pc, lr
	.word	0xe12fff1e
#endif
___
chomp $RET;

sub func_begin {
    my ($name) = @_;
    return "\t.globl\t$name\n\t.type\t$name, %function\n\t.align\t5\n$name:\n";
}
sub func_end { my ($name) = @_; return "\t.size\t$name, .-$name\n"; }
my $GNU_STACK = "\t.section\t.note.GNU-stack,\"\",%progbits\n";
# ---- ARM32 preamble (end) -----------------------------------------------

# ---- register map --------------------------------------------------------
# poly1305_blocks: h0..h4 stay in r0..r4 across the loop; everything else
# is a temporary whose role changes column by column (see mul_reduce).
my ($h0, $h1, $h2, $h3, $h4) = map { "r$_" } 0 .. 4;
my @tmp = ('r5', 'r6', 'r7', 'r8', 'r9', 'r10', 'r11', 'r12', 'lr');

# Stack frame of poly1305_blocks (below the 9 saved registers).
my %F = (TAB => 0,      # r0, s3, s2, s1, r1, r2, r3 : 7 words
         CTX => 28, INP => 32, END => 36, PAD => 40);
my $FRAME = 44;         # 36 + 44 = 80: sp stays 8-byte aligned

# ---- helpers -------------------------------------------------------------

# Load one little-endian 32-bit word from [$p] into $d, advancing $p by 4.
# ARMv7: unaligned ldr (+rev on big-endian).  Older: four ldrb, using the
# three scratch registers @s.
sub load_le32 {
    my ($d, $p, @s) = @_;
    return <<___;
#if __ARM_ARCH__ >= 7
	ldr	$d, [$p], #4
# ifdef __ARMEB__
	rev	$d, $d
# endif
#else
	ldrb	$d, [$p], #1
	ldrb	$s[0], [$p], #1
	ldrb	$s[1], [$p], #1
	ldrb	$s[2], [$p], #1
	orr	$d, $d, $s[0], lsl #8
	orr	$d, $d, $s[1], lsl #16
	orr	$d, $d, $s[2], lsl #24
#endif
___
}

# Load one little-endian word with byte loads only (key bytes: no
# alignment promise, run once per key).
sub load_le32_bytes {
    my ($d, $p, $off, @s) = @_;
    my ($o1, $o2, $o3) = ($off + 1, $off + 2, $off + 3);
    return <<___;
	ldrb	$d, [$p, #$off]
	ldrb	$s[0], [$p, #$o1]
	ldrb	$s[1], [$p, #$o2]
	ldrb	$s[2], [$p, #$o3]
	orr	$d, $d, $s[0], lsl #8
	orr	$d, $d, $s[1], lsl #16
	orr	$d, $d, $s[2], lsl #24
___
}

# Store $w little-endian with four strb at [$p, #$off]; clobbers $t.
sub store_le32_bytes {
    my ($w, $p, $off, $t) = @_;
    my ($o1, $o2, $o3) = ($off + 1, $off + 2, $off + 3);
    return <<___;
	strb	$w, [$p, #$off]
	mov	$t, $w, lsr #8
	strb	$t, [$p, #$o1]
	mov	$t, $w, lsr #16
	strb	$t, [$p, #$o2]
	mov	$t, $w, lsr #24
	strb	$t, [$p, #$o3]
___
}

# One block: h += m + pad; h *= r; partial reduction.  Entry and exit:
# h in r0..r4, inp pointer at [sp,#INP].  Register roles per column are
# chosen so that no register is both a umull/umlal destination and a
# source (a pre-ARMv6 rule) and at most 14 are live at once.
# $ldm: the input is word aligned (pre-ARMv7 fast path): one ldmia, plus
# rev on big-endian ARMv6 (big-endian ARMv4/v5 never take this path).
sub block_body {
    my ($ldm) = @_;
    my $load = '';
    if ($ldm) {
        $load = "\tldmia\tr12!, {r5, r6, r7, r8}\n#ifdef __ARMEB__\n"
              . join('', map { "\trev\t$_, $_\n" } qw(r5 r6 r7 r8))
              . "#endif\n";
    } else {
        $load .= load_le32($_, 'r12', 'r9', 'r10', 'r11') for qw(r5 r6 r7 r8);
    }
    my $add = <<___;
	ldr	r12, [sp, #$F{INP}]
	ldr	lr, [sp, #$F{PAD}]
$load	str	r12, [sp, #$F{INP}]
	adds	$h0, $h0, r5
	adcs	$h1, $h1, r6
	adcs	$h2, $h2, r7
	adcs	$h3, $h3, r8
	adc	$h4, $h4, lr
___
    return $add . mul_reduce();
}

# h = h * r, partially reduced (h < 2^130 + 2^35 on exit).  h in r0..r4,
# the multiplier table at sp+TAB; clobbers r5..r12, lr.
sub mul_reduce {
    # Columns d0, d1, d2 accumulate side by side (three independent
    # umull/umlal chains sharing each loaded multiplier), then their carries
    # are folded and d3 is chained from d2's high word.
    my $pair = sub {            # (r0, s3) -> r10, r11
        return <<___;
#if __ARM_ARCH__ >= 6
	ldrd	r10, r11, [sp, #$F{TAB}]	\@ r0, s3
#else
	ldr	r10, [sp, #$F{TAB}]
	ldr	r11, [sp, #$F{TAB}+4]
#endif
___
    };
    # The products h_i m into the columns named, m in register $m
    # ($name in the comments); $op umull starts a column, umlal adds.
    my %col = (d0 => 'r5, r6', d1 => 'r7, r8', d2 => 'r9, lr');
    my @hr = ($h0, $h1, $h2, $h3, $h4);
    my $macs = sub {
        my ($op, $m, $name, @di) = @_;    # (column => i) pairs
        my $rel = $op eq 'umull' ? '=' : '+=';
        my $s = '';
        while (my ($d, $i) = splice @di, 0, 2) {
            $s .= "\t$op\t$col{$d}, $hr[$i], $m\t\t\@ $d $rel h$i $name\n";
        }
        return $s;
    };
    return $pair->() . <<___ . $pair->() . <<___;
	ldr	r12, [sp, #$F{TAB}+8]		\@ s2
@{[ $macs->('umull', 'r10', 'r0', d0 => 0, d1 => 1, d2 => 2)
  . $macs->('umlal', 'r11', 's3', d0 => 1, d1 => 2, d2 => 3) ]}	ldr	r10, [sp, #$F{TAB}+12]		\@ s1
@{[ $macs->('umlal', 'r12', 's2', d0 => 2, d1 => 3, d2 => 4) ]}	ldr	r11, [sp, #$F{TAB}+16]		\@ r1
@{[ $macs->('umlal', 'r10', 's1', d0 => 3, d1 => 4) ]}	ldr	r12, [sp, #$F{TAB}+20]		\@ r2
@{[ $macs->('umlal', 'r11', 'r1', d1 => 0, d2 => 1)
  . $macs->('umlal', 'r12', 'r2', d2 => 0) ]}	adds	r7, r7, r6			\@ d1 += d0 >> 32
	adc	r8, r8, #0
	adds	r9, r9, r8			\@ d2 += d1 >> 32
	adc	lr, lr, #0
	mov	r6, #0
	umlal	lr, r6, $h1, r12		\@ d3 = h1 r2 + (d2 >> 32)
	umlal	lr, r6, $h2, r11		\@ d3 += h2 r1
___
	ldr	r8, [sp, #$F{TAB}+24]		\@ r3
	umlal	lr, r6, $h0, r8			\@ d3 += h0 r3
	umlal	lr, r6, $h3, r10		\@ d3 += h3 r0
	umlal	lr, r6, $h4, r11		\@ d3 += h4 s3
	mla	r6, $h4, r10, r6		\@ d4 = h4 r0 + (d3 >> 32)

	bic	$h0, r6, #3			\@ 4k
	and	$h4, r6, #3
	add	$h0, $h0, r6, lsr #2		\@ 5k
	adds	$h0, $h0, r5
	adcs	$h1, r7, #0
	adcs	$h2, r9, #0
	adcs	$h3, lr, #0
	adc	$h4, $h4, #0
___
}

# Context layout: byte offsets from ctx (the State paragraph above).  h is
# loaded and stored with ldm/stm on ctx itself, so CTX_H must stay 0.
my $CTX_H    = 0;               # h0..h4, radix 2^32 between calls
my $CTX_ZERO = 20;              # unused word, cleared by init
my $CTX_R    = 24;              # r0..r3, the clamped key
die "poly1305-armv4: h must be at ctx+0 (ldm/stm on ctx)\n" if $CTX_H != 0;

# The frame of a blocks call (r0 = ctx, r1 = inp, r2 = len rounded down,
# r3 = padbit): allocated, and the arguments kept in it with r2 = the end
# of the input.
sub frame_args {
    return <<___;
	sub	sp, sp, #$FRAME
	add	r2, r1, r2
	str	r0, [sp, #$F{CTX}]
	str	r1, [sp, #$F{INP}]
	str	r2, [sp, #$F{END}]
	str	r3, [sp, #$F{PAD}]
___
}

# Build the multiplier table at sp+TAB from r at ctx (r0); r4..r10.
sub setup_table {
    return <<___;
	ldr	r4, [r0, #@{[$CTX_R]}]			\@ r0
	ldr	r5, [r0, #@{[$CTX_R + 4]}]			\@ r1
	ldr	r6, [r0, #@{[$CTX_R + 8]}]			\@ r2
	ldr	r7, [r0, #@{[$CTX_R + 12]}]			\@ r3
	add	r8, r7, r7, lsr #2		\@ s3
	add	r9, r6, r6, lsr #2		\@ s2
	add	r10, r5, r5, lsr #2		\@ s1
	stmia	sp, {r4, r8, r9, r10}
	str	r5, [sp, #$F{TAB}+16]
	str	r6, [sp, #$F{TAB}+20]
	str	r7, [sp, #$F{TAB}+24]
___
}

# The block loop at label $lbl (bottom-tested: at least one block).
sub blocks_loop {
    my ($lbl, $ldm, $mca) = @_;
    return "\t.align\t5\n$lbl:\n# LLVM-MCA-BEGIN $mca\n" . block_body($ldm) . <<___;
	ldr	r5, [sp, #$F{INP}]
	ldr	r6, [sp, #$F{END}]
	cmp	r5, r6
	bne	$lbl
# LLVM-MCA-END
___
}

# ---- NEON, radix 2^26, four blocks per step --------------------------------
my $NEON_OK   = '__ARM_MAX_ARCH__ >= 7';
my $NEON_MIN  = 128;            # shorter calls: scalar (measured: 64 B loses)
my $POW_READY = 52;             # ctx word: 1 when the tables below are set
my $POW1      = 64;             # r   as five 26-bit limbs (ctx+64..80)
my $POW2      = 84;             # r^2 (ctx+84..100)
my $POW4      = 104;            # r^4 (ctx+104..120)

# Lanes: lane 0 ("A") takes blocks 1, 3, 5, ..., lane 1 ("B") blocks 2, 4,
# 6, ...; per pair of blocks each lane is multiplied by r^2, except the
# last pair, where lane A takes r^2 and lane B takes r.  A four-block step
# is two pair steps at once: H = (H + M01) * r^4 + M23 * r^2, with the
# multipliers packed as (r^2, r^4) limbs and used by scalar lane.
#
# NEON register map.  By-scalar multiplies need their scalar in d0-d15.
my @RR = map { "d$_" } 0 .. 4;          # (r^2, r^4) limbs; final: (r^2, r)
my @SS = (undef, map { "d$_" } 5 .. 8); # 5 * RR[1..4]
my @W  = map { "d$_" } 10 .. 13;        # vld4 destination
my @L  = map { "d$_" } 10 .. 14;        # message limbs (overwrite @W):
my @LQ = ('q5', 'q6');                  #   limbs 0-1 and 2-3 as q registers
my @D  = map { "q$_" } 8 .. 12;         # 64-bit product columns
my $M64 = 'q13';                        # 2^26 - 1 in both 64-bit lanes
my @H  = ('d28', 'd29', 'd30', 'd31', 'd15');   # h limbs (lane A, lane B)
my @HQ = ('q14', 'q15');                #   limbs 0-1 and 2-3 as q registers
my @C  = ('q5', 'q6');                  # carries (over @L: dead by then)
# padbit is always 1 here (padbit 0 goes to the scalar code): vorr #1<<24.

# Five 26-bit limbs @l from a base 2^32 value @a (h < 2^130 + small).
sub to_limbs {
    my ($a, $l) = @_;
    # limb k = bits 26k .. 26k+25: a[k-1] >> (32 - 6k) | a[k] << 6k
    my $s = "\tbic\t$l->[0], $a->[0], #0xfc000000\n";
    for my $k (1 .. 4) {
        $s .= "\tmov\t$l->[$k], $a->[$k - 1], lsr #" . (32 - 6 * $k) . "\n";
        $s .= "\torr\t$l->[$k], $l->[$k], $a->[$k], lsl #" . (6 * $k) . "\n";
        $s .= "\tbic\t$l->[$k], $l->[$k], #0xfc000000\n" if $k < 4;
    }
    return $s;
}

# Base 2^32 h (r0..r4) from limbs @l (each < 2^28), then the partial
# reduction that keeps h < 2^130 + 2^35 (what emit and mul_reduce expect).
sub from_limbs {
    my ($l, $t) = @_;
    # word k = l[k] >> 6k + l[k+1] << (26 - 6k) + carry
    my $s = "\tadds\tr0, $l->[0], $l->[1], lsl #26\n";
    for my $k (1 .. 3) {
        $s .= "\tmov\t$t, $l->[$k], lsr #" . (6 * $k) . "\n";
        $s .= "\tadcs\tr$k, $t, $l->[$k + 1], lsl #" . (26 - 6 * $k) . "\n";
    }
    return $s . <<___;
	mov	$t, $l->[4], lsr #24
	adc	r4, $t, #0
	bic	$t, r4, #3
	and	r4, r4, #3
	add	$t, $t, $t, lsr #2
	adds	r0, r0, $t
	adcs	r1, r1, #0
	adcs	r2, r2, #0
	adcs	r3, r3, #0
	adc	r4, r4, #0
___
}

# SS[k] = 5 * RR[k], k = 1..4.
sub times5 {
    my $s = '';
    $s .= "\tvshl.u32\t$SS[$_], $RR[$_], #2\n" for 1 .. 4;
    $s .= "\tvadd.i32\t$SS[$_], $SS[$_], $RR[$_]\n" for 1 .. 4;
    return $s;
}

# Load two blocks (32 bytes at r1, advancing) as limbs into @L.  The
# shift/insert pairs are interleaved (limb 1 goes through $T) so that the
# in-order NEON pipe never waits for the shift an insert depends on.
my $T = 'd9';
sub load_limbs {
    return <<___;
	vld4.32	{$W[0], $W[1], $W[2], $W[3]}, [r1]!
#ifdef __ARMEB__
	vrev32.8	$LQ[0], $LQ[0]
	vrev32.8	$LQ[1], $LQ[1]
#endif
	vshr.u32	$L[4], $W[3], #8
	vshl.u32	$W[3], $W[3], #18
	vshl.u32	$T, $W[1], #6
	vorr.i32	$L[4], #0x01000000		\@ padbit
	vsri.32	$W[3], $W[2], #14		\@ limb 3 (bits 26.. cleared below)
	vshl.u32	$W[2], $W[2], #12
	vsri.32	$T, $W[0], #26			\@ limb 1
	vsri.32	$W[2], $W[1], #20		\@ limb 2
	vmov	$W[1], $T
	vbic.i32	$LQ[1], #0xfc000000
	vbic.i32	$LQ[0], #0xfc000000
___
}

# D[k] (+)= sum_i src[i] * m(j), j = k - i (R) or k - i + 5 (S).
sub mul_terms {
    my ($src, $mul, $first) = @_;
    my $s = '';
    for my $i (0 .. 4) {
        for my $k (0 .. 4) {
            my $j = $k - $i;
            my $m = $j >= 0 ? $mul->($RR[$j]) : $mul->($SS[$j + 5]);
            my $op = ($first && $i == 0) ? 'vmull.u32' : 'vmlal.u32';
            $s .= "\t$op\t$D[$k], $src->[$i], $m\n";
        }
    }
    return $s;
}

# Lazy carry propagation of @D, then narrow into @H.
sub reduce_narrow {
    my $carry = sub {
        my ($from, $to, $t, $five) = @_;
        my $s = "\tvshr.u64\t$t, $D[$from], #26\n\tvand\t$D[$from], $D[$from], $M64\n"
              . "\tvadd.i64\t$D[$to], $D[$to], $t\n";
        $s .= "\tvshl.u64\t$t, $t, #2\n\tvadd.i64\t$D[$to], $D[$to], $t\n" if $five;
        return $s;
    };
    # 0->1 and 3->4, 1->2 and 4->0 (*5), 2->3 and 0->1, 3->4
    my $c = $carry->(0, 1, $C[0]) . $carry->(3, 4, $C[1])
          . $carry->(1, 2, $C[0]) . $carry->(4, 0, $C[1], 1)
          . $carry->(2, 3, $C[0]) . $carry->(0, 1, $C[1])
          . $carry->(3, 4, $C[0]);
    $c .= "\tvmovn.i64\t$H[$_], $D[$_]\n" for 0 .. 4;
    return $c;
}

sub add_h_l {
    return "\tvadd.i32\t$HQ[0], $HQ[0], $LQ[0]\n\tvadd.i32\t$HQ[1], $HQ[1], $LQ[1]\n"
         . "\tvadd.i32\t$H[4], $H[4], $L[4]\n";
}

# Four blocks: H = (H + M01) * r^4 + M23 * r^2.
sub body4 {
    # M23 is converted before the first product so that neither block of
    # multiplies waits for its inputs.
    return load_limbs() . add_h_l() . load_limbs()
         . mul_terms(\@H, sub { "$_[0]\[1]" }, 1)
         . mul_terms(\@L, sub { "$_[0]\[0]" }, 0)
         . reduce_narrow();
}

# Two blocks with r^2 in both lanes (by scalar), or with the vector
# multipliers of the final pair.
# The two powers the loop multiplies by into @RR (lane 0 from lr + $p0,
# lane 1 from lr + $p1, limb by limb), and their 5x multiples.
sub load_powers {
    my ($p0, $p1) = @_;
    my $s = "\tadd\tr12, lr, #$p0\n\tadd\tr11, lr, #$p1\n";
    for my $k (0 .. 4) {
        $s .= "\tvld1.32\t{$RR[$k]\[0]}, [r12]!\n\tvld1.32\t{$RR[$k]\[1]}, [r11]!\n";
    }
    return $s . times5();
}

sub body2 {
    my ($vector) = @_;
    my $m = $vector ? sub { $_[0] } : sub { "$_[0]\[0]" };
    return load_limbs() . add_h_l() . mul_terms(\@H, $m, 1) . reduce_narrow();
}

# ctx+$off <- five 26-bit limbs of the base 2^32 value in r0..r4.
sub store_limbs {
    my ($off) = @_;
    my @l = ('r5', 'r6', 'r7', 'r8', 'r9');
    return to_limbs([qw(r0 r1 r2 r3 r4)], \@l) . <<___;
	ldr	lr, [sp, #$F{CTX}]
	add	r12, lr, #$off
	stmia	r12, {r5, r6, r7, r8, r9}
___
}

sub neon_blocks {
    my @l = ('r5', 'r6', 'r7', 'r8', 'r9');
    my @h = ('r0', 'r1', 'r2', 'r3', 'r4');
    my $code = <<___;
#if $NEON_OK
	.fpu	neon
\@ void poly1305_blocks_neon(void *ctx, const unsigned char *inp,
\@                           size_t len, unsigned int padbit)
\@ Inputs under $NEON_MIN bytes go to the scalar code; an odd block first too.
\@ h stays in radix 2^32 in ctx between calls (converted on entry and
\@ exit), so scalar and NEON calls mix freely and emit is shared.
___
    $code .= func_begin(q(poly1305_blocks_neon)) . <<___;
.Lblocks_neon:
	cmp	r3, #0				\@ padbit 0: scalar code
	beq	.Lblocks_entry
	cmp	r2, #$NEON_MIN
	blo	.Lblocks_entry
	stmdb	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
	tst	r2, #16
	beq	.Lneon_even
	mov	r4, r0
	mov	r5, r1
	mov	r6, r2
	mov	r7, r3
	mov	r2, #16
	bl	.Lblocks_entry
	mov	r0, r4
	add	r1, r5, #16
	sub	r2, r6, #16
	mov	r3, r7
.Lneon_even:
	bic	r2, r2, #31
	vstmdb	sp!, {d8-d15}
@{[ frame_args() ]}	ldr	r4, [r0, #$POW_READY]
	cmp	r4, #0
	bne	.Lneon_have_pow
___
    # r, r^2 (= r*r), r^3, r^4 with the scalar multiplier-r code.
    $code .= setup_table();
    $code .= <<___;
	mov	r0, r4				\@ h = r
	mov	r1, r5
	mov	r2, r6
	mov	r3, r7
	mov	r4, #0
___
    $code .= store_limbs($POW1);               # keeps r0..r4
    $code .= mul_reduce();                      # r^2
    $code .= store_limbs($POW2);
    $code .= mul_reduce();                      # r^3
    $code .= mul_reduce();                      # r^4
    $code .= store_limbs($POW4);
    $code .= <<___;
	mov	r5, #1
	str	r5, [lr, #$POW_READY]
.Lneon_have_pow:
	ldr	lr, [sp, #$F{CTX}]
	ldmia	lr, {r0, r1, r2, r3, r4}
___
    $code .= to_limbs(\@h, \@l);
    $code .= <<___;
	vmov.i32	$HQ[0], #0
	vmov.i32	$HQ[1], #0
	vmov.i32	$H[4], #0
	vmov.32	$H[0]\[0], r5
	vmov.32	$H[1]\[0], r6
	vmov.32	$H[2]\[0], r7
	vmov.32	$H[3]\[0], r8
	vmov.32	$H[4]\[0], r9
___
    $code .= load_powers($POW2, $POW4);
    $code .= <<___;
	vmov.i64	$M64, #0xffffffff
	vshr.u64	$M64, $M64, #6
	ldr	r1, [sp, #$F{INP}]
	ldr	r3, [sp, #$F{END}]
	sub	r2, r3, #64			\@ 4-block steps while 3+ pairs are left
	cmp	r1, r2
	bhs	.Lneon_tail
.Lneon_loop4:
# LLVM-MCA-BEGIN poly1305_blocks_neon4
___
    $code .= body4();
    $code .= <<___;
	cmp	r1, r2
	blo	.Lneon_loop4
# LLVM-MCA-END
.Lneon_tail:
	sub	r2, r3, #32
	cmp	r1, r2
	beq	.Lneon_last
___
    $code .= body2(0);
    $code .= <<___;
.Lneon_last:
___
    $code .= load_powers($POW2, $POW1);
    $code .= body2(1);
    $code .= <<___;
	vpadd.i32	d0, $H[0], $H[1]
	vpadd.i32	d1, $H[2], $H[3]
	vpadd.i32	d2, $H[4], $H[4]
	vmov	r5, r6, d0
	vmov	r7, r8, d1
	vmov	r9, r10, d2
___
    $code .= from_limbs(\@l, 'r10');
    $code .= <<___;
	ldr	lr, [sp, #$F{CTX}]
	mov	r5, #0				\@ wipe the copy of r
	mov	r6, #0
	mov	r7, #0
	mov	r8, #0
	stmia	lr, {r0, r1, r2, r3, r4}
	stmia	sp, {r5, r6, r7, r8}
	str	r5, [sp, #$F{TAB}+16]
	str	r5, [sp, #$F{TAB}+20]
	str	r5, [sp, #$F{TAB}+24]
	add	sp, sp, #$FRAME
	vldmia	sp!, {d8-d15}
	ldmia	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
$RET
___
    $code .= func_end(q(poly1305_blocks_neon)) . "#endif\n";
    return $code;
}

# ---- code -------------------------------------------------------------------

# Kernel mode: the names of one Linux glue generation.  The .S writes the
# base names; every rename is guarded by #ifndef, so a -D on the kernel's
# command line wins.  poly1305_blocks_neon keeps its name everywhere.
my $kernel_names = <<'___';
#ifdef __KERNEL__
# ifndef ASMCRYPT_KERNEL_GLUE
#  define ASMCRYPT_KERNEL_GLUE 3
# endif
# if ASMCRYPT_KERNEL_GLUE == 1		/* v5.5-v6.14, arch/arm/crypto */
#  ifndef poly1305_init
#   define poly1305_init	poly1305_init_arm
#  endif
#  ifndef poly1305_emit
#   define poly1305_emit	poly1305_emit_arm
#  endif
# elif ASMCRYPT_KERNEL_GLUE == 2	/* v6.15-v6.16, lib/crypto/arm */
#  ifndef poly1305_init
#   define poly1305_init	poly1305_block_init_arch
#  endif
#  ifndef poly1305_emit
#   define poly1305_emit	poly1305_emit_arch
#  endif
# elif ASMCRYPT_KERNEL_GLUE == 3	/* v6.17+, lib/crypto/arm/poly1305.h */
#  ifndef poly1305_init
#   define poly1305_init	poly1305_block_init
#  endif
# else
#  error "ASMCRYPT_KERNEL_GLUE must be 1, 2 or 3"
# endif
# ifndef poly1305_blocks
#  define poly1305_blocks	poly1305_blocks_arm
# endif
#endif
___

# init picks the NEON pair (user space only): with the NEON bit of the
# capability word, or always when that bit is -1 (build ISA decides).
my $neon_pick = "$NEON_OK && !defined(__KERNEL__)";

my $code = <<___ . arch_block() . $kernel_names . <<___;
\@ Generated by poly1305-armv4.pl; see that file for the algorithm, the
\@ state layout and the defines.  Self-contained: needs no header.
___

	.text

\@ int poly1305_init(void *ctx, const unsigned char key[16], void *func[2])
\@ (kernel mode: void poly1305_init(void *state, const u8 key[16]))
___
$code .= func_begin('poly1305_init') . <<___;
	mov	r3, #0
@{[ join '', map { "\tstr\tr3, [r0, #" . ($CTX_H + 4 * $_) . "]\n" } 0 .. 4 ]}	str	r3, [r0, #$CTX_ZERO]
	cmp	r1, #0
	beq	.Linit_done
	stmdb	sp!, {r4, r5, r6, lr}
___
{
    my @s = ('r4', 'r5', 'r6');
    $code .= load_le32_bytes('r12', 'r1', 0, @s);      # r2 is func: keep
    $code .= "\tbic\tr12, r12, #0xf0000000\n\tstr\tr12, [r0, #$CTX_R]\n";
    for my $i (1 .. 3) {
        $code .= load_le32_bytes('r12', 'r1', 4 * $i, @s);
        $code .= "\tbic\tr12, r12, #0xf0000000\n\tbic\tr12, r12, #3\n";
        $code .= "\tstr\tr12, [r0, #" . ($CTX_R + 4 * $i) . "]\n";
    }
}
$code .= <<___;
	ldmia	sp!, {r4, r5, r6, lr}
	mov	r3, #0
	str	r3, [r0, #$POW_READY]		\@ powers of r: not yet for this key
#if $neon_pick
	adr	r3, .Lpoly_lit
# if ASMCRYPT_ARM_NEON_RT
	ldr	r12, [r3, #8]
	ldr	r12, [r3, r12]			\@ the capability word
#  ifdef __APPLE__
	ldr	r12, [r12, #ASMCRYPT_CAP_OFF(ASMCRYPT_CAPBIT_ARM_NEON)]	\@ through the non-lazy pointer
#  endif
	tst	r12, #ASMCRYPT_CAP_MASK(ASMCRYPT_CAPBIT_ARM_NEON)
	beq	.Linit_done
# endif
	ldr	r12, [r3]
	add	r12, r12, r3			\@ poly1305_blocks_neon
# ifdef __thumb2__
	orr	r12, r12, #1
# endif
	str	r12, [r2]
	ldr	r12, [r3, #4]
	add	r12, r12, r3			\@ poly1305_emit
# ifdef __thumb2__
	orr	r12, r12, #1
# endif
	str	r12, [r2, #4]
	mov	r0, #1
$RET
#endif
.Linit_done:
	mov	r0, #0
$RET
#if $neon_pick
	.align	2
.Lpoly_lit:
	.word	.Lblocks_neon - .Lpoly_lit
	.word	.Lemit_entry - .Lpoly_lit
# if ASMCRYPT_ARM_NEON_RT
	.word	ASMCRYPT_CAPWORD - .Lpoly_lit + ASMCRYPT_CAP_LIT(ASMCRYPT_CAPBIT_ARM_NEON)
# endif
#endif
___
$code .= func_end('poly1305_init');
$code .= neon_blocks();
$code .= <<___;

\@ void poly1305_blocks(void *ctx, const unsigned char *inp, size_t len,
\@                      unsigned int padbit)
___
$code .= func_begin('poly1305_blocks') . <<___;
.Lblocks_entry:
	bics	r2, r2, #15
	bne	.Lblocks_go
$RET
.Lblocks_go:
	stmdb	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
@{[ frame_args() ]}
___
$code .= setup_table();
$code .= <<___;
#if __ARM_ARCH__ < 7 && (!defined(__ARMEB__) || __ARM_ARCH__ >= 6)
	tst	r1, #3				@ aligned input: ldm loop
#endif
	ldmia	r0, {$h0, $h1, $h2, $h3, $h4}
#if __ARM_ARCH__ < 7 && (!defined(__ARMEB__) || __ARM_ARCH__ >= 6)
	beq	.Lblocks_loop_al
#endif
	b	.Lblocks_loop
___
$code .= blocks_loop('.Lblocks_loop', 0, 'poly1305_blocks');
$code .= "#if __ARM_ARCH__ < 7 && (!defined(__ARMEB__) || __ARM_ARCH__ >= 6)\n"
       . "\tb\t.Lblocks_tail\n"
       . blocks_loop('.Lblocks_loop_al', 1, 'poly1305_blocks_aligned')
       . "#endif\n";
$code .= <<___;
.Lblocks_tail:
	ldr	lr, [sp, #$F{CTX}]
	mov	r5, #0				@ wipe the copy of r
	mov	r6, #0
	mov	r7, #0
	mov	r8, #0
	stmia	lr, {$h0, $h1, $h2, $h3, $h4}
	stmia	sp, {r5, r6, r7, r8}
	str	r5, [sp, #$F{TAB}+16]
	str	r5, [sp, #$F{TAB}+20]
	str	r5, [sp, #$F{TAB}+24]
	add	sp, sp, #$FRAME
	ldmia	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
$RET
___
$code .= func_end('poly1305_blocks') . <<___;

\@ void poly1305_emit(void *ctx, unsigned char mac[16],
\@                    const unsigned int nonce[4])
___
$code .= func_begin('poly1305_emit') . <<___;
.Lemit_entry:
	stmdb	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
	ldmia	r0, {r3, r4, r5, r6, r7}	@ h0..h4
	adds	r8, r3, #5			@ g = h + 5
	adcs	r9, r4, #0
	adcs	r10, r5, #0
	adcs	r11, r6, #0
	adc	r12, r7, #0
	mov	r12, r12, lsr #2		@ 1 iff h >= p (h < 2p)
	rsb	r12, r12, #0			@ mask: take g
	bic	r3, r3, r12
	and	r8, r8, r12
	orr	r3, r3, r8
	bic	r4, r4, r12
	and	r9, r9, r12
	orr	r4, r4, r9
	bic	r5, r5, r12
	and	r10, r10, r12
	orr	r5, r5, r10
	bic	r6, r6, r12
	and	r11, r11, r12
	orr	r6, r6, r11
	ldmia	r2, {r7, r8, r9, r10}		@ nonce
	adds	r3, r3, r7
	adcs	r4, r4, r8
	adcs	r5, r5, r9
	adc	r6, r6, r10
___
$code .= store_le32_bytes('r3', 'r1', 0, 'r12');
$code .= store_le32_bytes('r4', 'r1', 4, 'r12');
$code .= store_le32_bytes('r5', 'r1', 8, 'r12');
$code .= store_le32_bytes('r6', 'r1', 12, 'r12');
$code .= <<___;
	ldmia	sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}
$RET
___
$code .= func_end('poly1305_emit') . <<___ . $GNU_STACK;

#if $neon_pick && ASMCRYPT_ARM_NEON_RT
	.hidden	ASMCRYPT_CAPWORD
#endif
___

print $code;
close STDOUT or die "poly1305-armv4.pl: error closing output: $!\n";
