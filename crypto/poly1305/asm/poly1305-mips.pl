#!/usr/bin/env perl
#
# poly1305-mips.pl - Poly1305 for MIPS32 (o32) and MIPS64 (n32, n64).
#
#   perl poly1305-mips.pl FLAVOUR OUT.S      (or OUT.S alone: flavour 64)
#   FLAVOUR: o32 | n32 | 64 | nubi32 | nubi64   (default 64)
# OpenSSL's "FLAVOUR <its CFLAGS...> OUT.S" works too (the flags are
# ignored).  The script needs no other file; the .S goes through the C
# preprocessor.
#
# Written for asmcrypt from the algorithm (RFC 8439 section 2.5, D. J.
# Bernstein, "The Poly1305-AES message-authentication code", 2005).
#
# Entry points (OpenSSL semantics, see crypto/internal.h):
#   int  poly1305_init(void *ctx, const unsigned char key[16], void *func[2]);
#   void poly1305_blocks(void *ctx, const unsigned char *inp, size_t len,
#                        unsigned int padbit);
#   void poly1305_emit(void *ctx, unsigned char mac[16],
#                      const unsigned int nonce[4]);
#
# STATE.  Every path writes at most 48 bytes from ctx (the MIPS budget is
# 72, the kernel's reservation; OpenSSL's opaque is 192), with lw/sw (o32)
# or ld/sd (n32/n64), so ctx needs only 8-byte alignment (4 on o32):
#   o32   h0..h4 at 0..19, r0..r3 at 20..35, s1..s3 at 36..47
#   64    h0,h1,h2 at 0,8,16, r0 at 24, r1 at 32, s1 at 40
# (the R6 unaligned-input shift amounts live in the call's stack frame).
#
# KERNEL MODE (-D__KERNEL__; Makefile line "perl poly1305-mips.pl o32|64
# poly1305-core.S", AFLAGS -mno-abicalls -fno-pic -G 0 -msoft-float).
# ASMCRYPT_KERNEL_GLUE picks the names of one Linux glue generation:
#   1  v5.5-v6.14   poly1305_init_mips, poly1305_blocks_mips, poly1305_emit_mips
#   2  v6.15-v6.16  poly1305_block_init_arch, poly1305_blocks_arch, poly1305_emit_arch
#   3  v6.17+       poly1305_block_init, poly1305_blocks, poly1305_emit  (default)
# Each rename is #ifndef-guarded, so a -Dpoly1305_init=... on the kernel's
# command line wins.  init takes (state, key), never touches func, reads
# no capability word and returns 0; the ISA path is fixed at build time
# by __mips_isa_rev.  len and padbit are u32: the 64-bit code uses their
# low 32 bits only.  No $gp, no symbol outside this file.
#
# CAPABILITY WORD (o32 MIPS32r1..R5 big-endian builds and n64 R6
# little-endian builds outside the kernel only; other little-endian,
# 32-bit R6, n32 and MIPS I/II builds read none).  cpp macros, each may be
# set with -D:
#   ASMCRYPT_CAPWORD         symbol read, an array of 32-bit words
#                            (default asmcrypt_cpucap, referenced .hidden)
#   ASMCRYPT_CAPBIT_MIPS_R2  bit number in it (word n/32, bit n%32) of
#                            "MIPS32R2 present" (default 0 = cpu.h's
#                            ASMCRYPT_CAP_MIPS_R2); -1 = no run-time bit,
#                            the build's ISA decides and nothing is read
#   ASMCRYPT_CAPBIT_MIPS_MSA the same for "MSA runs" (default 1 = cpu.h's
#                            ASMCRYPT_CAP_MIPS_MSA), read by n64 R6
#                            little-endian poly1305_blocks from 512 bytes
#                            (PC-relative, no $gp: ASMCRYPT_CAPWORD must
#                            be defined in the same link unit, hidden);
#                            -1 = never the MSA body
#   ASMCRYPT_OPENSSL         OpenSSL has no MIPS capability word: sets
#                            ASMCRYPT_CAPBIT_MIPS_R2 and _MSA to -1
#                            (#ifndef); then poly1305_init returns 0 (no
#                            func pair), as OpenSSL's own module does
# When the R2 bit is read (and func is not NULL) poly1305_init stores the
# block function (R2, or pre-R2 when the bit is clear) and poly1305_emit
# in func[] and returns 1.  A MIPS32r1 build is no hint that the core
# lacks R2: its importer sets the bit from a run-time probe (asmcrypt's
# crypto/arch/cpucap_mips.c does) or passes -1.
#
# ALGORITHM
#
# h = (h + m + padbit*2^128) * r mod p, p = 2^130-5, r clamped so that
# r < 2^124 and every 32-bit limb r1..r3 is a multiple of 4.  Hence for a
# limb r_j (j >= 1), r_j * 2^130 == 5*r_j and s_j = r_j + (r_j >> 2) =
# 5*r_j/4 exactly, so products that land at or above 2^130 come back at
# their position minus 2^130 multiplied by s_j (never a wider product).
#
# 64-bit path (n32, n64): base 2^64, h = h0 + h1*2^64 + h2*2^128,
# r = r0 + r1*2^64, s1 = 5*r1/4.  Per block 4 full 64x64->128 products
# (h0r0, h1s1, h0r1, h1r0) and 2 low-half products (h2*s1, h2*r0: h2 is
# at most 6 there).  dmultu/mflo/mfhi before R6, dmulu/dmuhu on R6.
#
# 32-bit path (o32): base 2^32, h = h0..h3 + h4*2^128, r = r0..r3,
# s_j = 5*r_j/4.  Columns of the product (a = h + m + pad, a4 = top word):
#   d0 = a0 r0 + a1 s3 + a2 s2 + a3 s1 + q * 5r0          (q = a4 >> 2)
#   d1 = a0 r1 + a1 r0 + a2 s3 + a3 s2 + a4 s1
#   d2 = a0 r2 + a1 r1 + a2 r0 + a3 s3 + a4 s2
#   d3 = a0 r3 + a1 r2 + a2 r1 + a3 r0 + a4 s3
#   d4 = (a4 & 3) r0
#   h0 = lo(d0), h_k = lo(d_k + hi(d_{k-1})), h4 = d4 + hi(d3)
#   (a4 = 4q + e: e*2^128*r_j = e*s_j at column j >= 1 and e*r0 at
#   column 4; 4q*2^128 = q*2^130 == 5q, so 5q*r_j = 4q*s_j joins column
#   j >= 1 as a4*s_j and 5q*r0 goes to column 0.)
#   - MIPS I/II: multu + mflo/mfhi, carries with sltu.
#   - MIPS32r1..R5: every column is one multu/maddu chain in HI:LO; the
#     previous column's high word enters with "maddu hi_prev, one"
#     (multiply by one and add), so no sltu carry code at all.
#   - R6: mulu/muhu pairs, carries with sltu.  Here the fold is NOT fused:
#     the carry pass first adds c = 5*(h4 >> 2) to h0 (one lsa), so a4 =
#     (h4 & 3) + carries + pad <= 6 and each a4 term a4*s_k < 2^31 is one
#     mul, added together with hi(d_{k-1}) < 2^31 (no wrap) under a single
#     carry; the fused q*5r0 product would cost a mulu/muhu pair and four
#     add/sltu, the fold costs four instructions.
#
# DEFERRED (MODULO-SCHEDULED) REDUCTION WITH A FUSED CARRY CHAIN
#
# The loop never finishes a reduction: it stores the top limb (h2 or h4)
# unreduced and the bits above 2^130 are folded in at the top of the next
# iteration (and by emit after the last one):
#   64-bit: c = (h2 >> 2) * 5 computed as (h2 & ~3) + (h2 >> 2) (one
#     dlsa on R6), h2 &= 3, then ONE carry pass adds m0 and c to h0,
#     carries (0..2) plus m1 to h1, and carries plus padbit into h2.  The
#     high word of column 0 (H0 = hi(d0)) is also left lazy: the loop
#     keeps h = h0 + (h1 + H0)*2^64 + h2*2^128 and the carry pass adds H0
#     to the two carries out of h0 with a plain add (no wrap, see the
#     bounds), so it costs one add instead of an add, sltu and carry add
#     at the end of the products; after the loop one h1 += H0 with its
#     carry into h2 restores the stored layout.
#   32-bit: the carry pass adds m0..m3 to h0..h3 and carries plus padbit to
#     h4 (one pass); the fold itself is fused into the multiplication: q =
#     h4 >> 2 times 5*r0 is one more term of column 0 and the rest of h4
#     simply multiplies s1..s3 as a4 (see above), which saves the serial
#     "fold and ripple" entirely (4 instructions per block on R2).
# Bounds (r_j < 2^28 resp. r0,r1 < 2^60, s_j < 1.25*2^28 resp. 1.25*2^60):
#   32-bit: stored h4 < 2^31 (d3 < 4*2^60 + 2^31*1.25*2^28 + 2^32 gives
#     hi(d3) < 2^30.1, d4 <= 3*2^28); then a4 < 2^31 + 7, q < 2^29, every
#     column stays below 5.5*2^60 < 2^64, so HI:LO never overflows and the
#     "maddu hi, one" carry is exact.
#   64-bit: stored h2 < 2^63 (hi(d1) < 2^61 + 1, h2*r0 < 6*2^60), so the
#     fold value 1.25*h2 < 2^64 fits one register; after the carry pass
#     h2 <= 3 + 2 + 1 = 6, so h2*s1 < 2^63 and h2*r0 < 2^63 need only the
#     low halves, and d0 < 2.25*2^124, d1 < 2^126 fit 128 bits.
#     The lazy H0 = hi(a0 r0) + hi(a1 s1) + carry + lo(a2 s1) <
#     2^60 + 1.25*2^60 + 1 + 7.5*2^60 < 2^63.3, so H0 + 2 (the carries out
#     of h0) < 2^64, and the h1 pass h1 + (H0 + carries) + m1 < 3*2^64
#     still carries at most 2 into h2.  (H1 = hi(d1) does not include the
#     carry out of h1 + H0 any more; that carry goes in one pass later,
#     into a2, whose bound 3 + 2 + 1 is unchanged.)
# emit completes the pending fold (leaving h < 2^130 + 2^128*2), then adds
# 5 and selects, by a mask (no branch), h+5-2^130 when bit 130 is set,
# adds the nonce mod 2^128 and stores 16 bytes with byte stores.
#
# HAZARDS.  qemu models neither the MIPS I load delay slot nor the MIPS
# I-III HI/LO hazards, so the generator schedules them: in the pre-R2
# 32-bit code no loaded register is read by the next instruction, and the
# product emitter (mul_base below) counts instructions after every
# mflo/mfhi and pads with nop so that at least two separate them from the
# next multu/dmultu.  All code runs under .set noreorder with delay slots
# filled here; the o32 output assembles with -march=mips1 -mfp32.
#
# ISA selection happens in the generated .S from __mips_isa_rev /
# _MIPS_ARCH_* (the same cpp block as in mips-mont and mips-words; each
# script keeps its own copy so that it runs alone, and
# perlasm/mips-isa-check.pl checks that the copies agree): R6 ->
# mulu/muhu (dmulu/dmuhu) and aligned loads merged with shifts (no
# lwl/lwr); R2..R5 -> maddu chain, wsbh/rotr (dsbh/dshd) byte swaps on
# big-endian; MIPS32r1 -> maddu chain, on big-endian aligned input an
# lwl/lwr pair that loads the word halfword-swapped plus a 5-instruction
# swap inside the halves (8 with lw alone); older -> multu/sltu and
# mask-and-shift swaps.
# A big-endian o32 R2..R5 build also contains the MIPS32r1 block function
# (maddu chain, no wsbh/rotr: the code of a MIPS32r1 build) and
# poly1305_init picks it when the R2 bit of the capability word (above)
# is clear; the mirror image, a big-endian o32 MIPS32r1 build also
# contains the R2 block function (assembled under .set mips32r2) and picks
# it when the bit is set (wsbh/rotr make it 4.30 instructions per byte
# instead of 5.26).  On little-endian the two functions are the same
# instructions (R2 only changes the byte swap), so there is one, and init
# reads no capability word (15 instructions a call less than carrying
# both).  Kernel builds, ASMCRYPT_CAPBIT_MIPS_R2 = -1, MIPS I/II, 64-bit
# and R6 builds decide at build time (on 64-bit little-endian the pre-R2
# and R2 code would be the same).
#
# PERFORMANCE (measured here, docs/perf/mips.md has the commands, the
# before/after figures and more rows).  poly1305_blocks over 8 KiB:
# instructions executed under qemu per byte, and llvm-mca cycles per byte
# of the aligned loop (generic model); C = our poly1305_ref26 / ref64
# built -O2 with the same flags.
#
#   target                        asm insn/B  C ref26  C ref64  mca c/B asm : C
#   o32 mips32r2 LE (74Kf)          3.76       8.57      -      4.69 : 10.31
#   o32 mips32r2 BE                 4.26       9.01      -
#   o32 mips32 (r1) LE              3.76      12.32      -
#   o32 mips32 (r1) BE (24Kf)       5.26      14.32      -      6.44
#     the same build on an R2 core  4.26  (its R2 function, run-time bit)
#   o32 MIPS I code (-march=mips1)  10.26     16.51      -
#   o32 mips32r6                    8.01      15.88      -     10.00 : 21.63
#   n64 mips64r2 LE                 2.85      10.69     3.57    (4.13 : 4.75)
#   n64 mips64r2 BE (5KEf)          3.10      11.13     3.82
#   n32 mips64r2 LE                 2.85      10.63     3.57
#   n64 mips64r6 (I6400)            2.41       6.07     3.07    (3.31 : 5.19)
#     with MSA (the default there)  1.89       6.07     3.07
#
# MSA (n64 R6 little-endian, from 512 bytes when the capability word says
# MSA runs; see "MSA block function" below): 59 instructions per 32 bytes
# against the scalar 77, 15492 instructions for the 8 KiB tag through the
# API against 19894 (0.78x; 0.61x C ref64), 2276 against 2646 at 1 KiB;
# below 512 bytes the scalar code, two instructions later (211 against
# 209 at 16 bytes).
# The 64-bit rows are after issue 13's work (lazy H0, frameless blocks
# function, dlsa on R6, then four blocks per loop turn): 45.5 instructions
# per block on R2 (45 + pointer step and branch per four), 38.5 on R6,
# +4 on big-endian R2 (dsbh/dshd).  Blocks-only asm / C ref64: 0.80x R2
# LE and n32, 0.81x R2 BE, 0.79x R6.  One-shot API tag at 8 KiB (make
# icount, asm / C ref64): 23468 / 29460 = 0.797x R2 LE and n32, 25548 /
# 31515 = 0.811x R2 BE, 19887 / 25356 = 0.784x R6; at 16 bytes 213, 249
# and 209 instructions against C's 333, 344 and 317 (init loads the key
# with ldl/ldr, emit the nonce with ldl/ldr and stores the tag with
# sdl/sdr; R6 uses ld/sd when the pointer is aligned).  The bracketed
# llvm-mca figures are from before the four-block loop (llvm-mca-19 was
# not installed when it was measured).
#
# The pre-R2 choice of an R2 build (ASMCRYPT_CAP=0) is the MIPS32r1 code:
# an R2 build's C needs a MIPS32 core, so MIPS32r1 is the oldest that can
# clear the bit.  Until stop 26 it was the MIPS I code, 10.19 insn/B and
# more than the C ref26 of the same build (8.57): an asm path slower than
# C (issue 13).  The MIPS32r1 code does 3.76 LE and 5.26 BE (above).
#
use strict;
use warnings;

# Arguments: "FLAVOUR OUT.S"; OpenSSL's perlasm convention "FLAVOUR
# [compiler flags...] OUT.S" (its build passes its CFLAGS in between; they
# are ignored, the .S is preprocessed later); "OUT.S" alone (flavour 64);
# "FLAVOUR" alone (output to stdout).
my @args = @ARGV;
my $output = (@args && $args[-1] =~ /\.\w+$/ && $args[-1] !~ /^-/) ? pop @args : undef;
my $flavour = shift @args;
$flavour = '64' unless defined $flavour && $flavour ne '';
die "usage: $0 FLAVOUR [OUT.S]\nunknown flavour '$flavour'\n"
    unless $flavour =~ /^(o32|n32|64|nubi32|nubi64)$/;

my $is64 = $flavour =~ /64|n32/ ? 1 : 0;
my $nubi = $flavour =~ /nubi/ ? 1 : 0;
my $n64  = ($flavour eq '64' || $flavour eq 'nubi64') ? 1 : 0;

# ---------------------------------------------------------------------------
# ABI-neutral conventions.  Registers are numeric everywhere ($8-$11 are
# t0-t3 in o32 but a4-a7 in n32/n64; NUBI makes $12-$15 callee-saved and
# returns in $a0).
# ---------------------------------------------------------------------------
my $RET  = $nubi ? '$4' : '$2';
# The arguments of every entry point (ctx, inp, len -> end, padbit).
my ($ctx, $inp, $end, $pad) = ('$4', '$5', '$6', '$7');
my $SZREG = $is64 ? 8 : 4;
my $REG_S = $is64 ? 'sd' : 'sw';
my $REG_L = $is64 ? 'ld' : 'lw';
my $PTR_ADD  = $n64 ? 'daddu'  : 'addu';     # pointers (n32: 32-bit)
my $PTR_ADDI = $n64 ? 'daddiu' : 'addiu';
my $PTR_SUB  = $n64 ? 'dsubu'  : 'subu';
my $PTR_SLL  = $n64 ? 'dsll'   : 'sll';
my $PTR_SRL  = $n64 ? 'dsrl'   : 'srl';      # size_t len
my $PTR_S    = $n64 ? 'sd'     : 'sw';       # store a pointer

# Context layout: byte offsets from ctx of the first word of each field,
# words of 4 bytes (o32) or 8 (64-bit) one after another (the header's
# STATE table).  The block functions load and store the fields as one run
# from H (ctx_words); init and emit name them.
#   o32:    h0..h4, r0..r3, s1..s3 (s_i = r_i + (r_i >> 2), i.e. 5 r_i / 4)
#   64-bit: h0, h1, h2, r0, r1, s1
my %CTX = $is64 ? (H => 0, R => 24, S1 => 40)
                : (H => 0, R => 20, S1 => 36);
# the run ctx_words loads: h, r, s back to back from H
die "poly1305-mips: context fields are not one run\n"
    unless $CTX{R} == $CTX{H} + ($is64 ? 3 * 8 : 5 * 4)
        && $CTX{S1} == $CTX{R} + ($is64 ? 2 * 8 : 4 * 4);

sub callee_saved {
    my ($r) = @_;
    my ($n) = $r =~ /^\$(\d+)$/ or die "bad reg $r";
    return 1 if ($n >= 16 && $n <= 23) || $n == 30 || $n == 31;
    return 1 if $nubi && $n >= 12 && $n <= 15;
    return 0;
}

# Stack frame that saves the callee-saved registers among @regs (plus
# $extra bytes of scratch at 0($sp)).  Returns (prologue, epilogue, size).
sub frame {
    my ($extra, @regs) = @_;
    my %seen;
    my @save = grep { callee_saved($_) && !$seen{$_}++ } @regs;
    my $size = $extra + @save * $SZREG;
    $size = ($size + 15) & ~15;
    return ('', '', 0) if $size == 0;
    my ($pro, $epi) = ("\t$PTR_ADDI\t\$sp,\$sp,-$size\n", '');
    my $off = $size;
    for my $r (@save) {
        $off -= $SZREG;
        $pro .= "\t$REG_S\t$r,$off(\$sp)\n";
        $epi .= "\t$REG_L\t$r,$off(\$sp)\n";
    }
    return ($pro, $epi, $size);
}

# A function's head: .globl (when $global), .align 5, .ent/.type, the
# label, .frame of $fs bytes, .set noreorder.
sub func_head {
    my ($name, $fs, $global) = @_;
    return ($global ? "\t.globl\t$name\n" : '') . <<___;
	.align	5
	.ent	$name
	.type	$name,\@function
$name:
	.frame	\$sp,$fs,\$31
	.set	noreorder
___
}

# emit's arithmetic, for limbs of either width ($add/$addi: addu/addiu or
# daddu/daddiu).  ripple: the carry $c added into each limb of @h in turn,
# the last taking it whole ($note: its bound).
sub ripple {
    my ($add, $c, $note, @h) = @_;
    my $last = pop @h;
    my $s = join '', map { "\t$add\t$_,$_,$c\n\tsltu\t$c,$_,$c\n" } @h;
    return $s . "\t$add\t$last,$last,$c\t\t# $note\n";
}

# x += c + y with the carry out of both adds in c (c may be any word:
# x + c and then + y each carry at most once); $t scratch.
sub add_carry {
    my ($add, $x, $c, $y, $t) = @_;
    return "\t$add\t$x,$x,$c\n\tsltu\t$t,$x,$c\n"
         . "\t$add\t$x,$x,$y\n\tsltu\t$c,$x,$y\n\t$add\t$c,$c,$t\n";
}

# g = h + 5 over the limbs of @$g / @$h, the carry in $c.
sub plus5 {
    my ($add, $addi, $c, $g, $h) = @_;
    my $s = "\t$addi\t$g->[0],$h->[0],5\t\t# g = h + 5\n\tsltu\t$c,$g->[0],$h->[0]\n";
    for my $i (1 .. $#$g) {
        $s .= "\t$add\t$g->[$i],$h->[$i],$c\n";
        $s .= "\tsltu\t$c,$g->[$i],$c\n" if $i < $#$g;
    }
    return $s;
}

# h = msk ? g : h limb by limb (constant time), g clobbered.
sub select_g {
    my ($msk, $g, $h) = @_;
    my $s = '';
    $s .= "\txor\t$g->[$_],$g->[$_],$h->[$_]\n" for 0 .. $#$g;
    $s .= "\tand\t$g->[$_],$g->[$_],$msk\n" for 0 .. $#$g;
    $s .= "\txor\t$h->[$_],$h->[$_],$g->[$_]\n" for 0 .. $#$g;
    return $s;
}

# poly1305_init after its head: h = 0 ($n words of $w bytes stored with
# $op, the last in the delay slot of the key == NULL exit), then the
# clamp mask $m = 0x0fffffff.
sub init_entry {
    my ($op, $w, $n, $key, $m) = @_;
    my $s = '';
    $s .= "\t$op\t\$0," . ($CTX{H} + $w * $_) . "($ctx)\n" for 0 .. $n - 2;
    $s .= "\tbeqz\t$key,.Linit_done\n\t$op\t\$0," . ($CTX{H} + $w * ($n - 1))
        . "($ctx)\t\t# (delay slot)\n";
    return $s . "\tlui\t$m,0x0fff\n\tori\t$m,$m,0xffff\t\t# 0x0fffffff\n";
}

# Key word $i into $d, clamped with $m (which becomes 0x0ffffffc after
# word 0); $x, $y scratch.
sub clamped_key_word {
    my ($d, $key, $i, $x, $y, $m) = @_;
    my $s = load_le32_bytes($d, $key, 4 * $i, $x, $y) . "\tand\t$d,$d,$m\n";
    $s .= "\tori\t$m,$m,3\n\txori\t$m,$m,3\t\t# 0x0ffffffc from now on\n" if $i == 0;
    return $s;
}

# A function's end: .end and .size.
sub func_end {
    my ($name) = @_;
    return "\t.end\t$name\n\t.size\t$name,.-$name\n";
}

# Return from a function with the frame of frame(): its epilogue $epi,
# jr with the stack pointer restored in the delay slot.
sub frame_ret {
    my ($epi, $fs) = @_;
    return "$epi\tjr\t\$31\n\t$PTR_ADDI\t\$sp,\$sp,$fs\n";
}

# The end of poly1305_init: .Linit_done returns 0 ("use poly1305_blocks
# and poly1305_emit").
sub init_end {
    return ".Linit_done:\n\tjr\t\$31\n\tmove\t$RET,\$0\n" . func_end('poly1305_init');
}

# The entry of a blocks function after its head: $nblocks turns len
# into the number of blocks in $end; none: return at once; else end =
# inp + 16 blocks ($sll, $add: the pointer-width shift and add, the
# prologue $pro before it) and padbit made 0 or 1.
sub blocks_entry {
    my ($name, $nblocks, $sll, $add, $pro) = @_;
    return $nblocks . <<___;
	beqz	$end,.L${name}_none
	$sll	$end,$end,4
$pro	$add	$end,$end,$inp
	sltu	$pad,\$0,$pad		# any nonzero padbit counts as 1
___
}

# "\t$op\t$reg,$off($base)\n" for the registers at 0, $w, 2*$w, ...
sub ctx_words {
    my ($op, $base, $w, @regs) = @_;
    my $i = 0;
    return join '', map { "\t$op\t$_," . ($CTX{H} + $w * $i++) . "($base)\n" } @regs;
}

# The rest of a blocks function, after the loads of ctx: $test sets $mis
# to inp & (word size - 1) (the pointer's alignment is public); aligned
# input runs the loop 'loop' with $how_a loads, other input the loop
# 'uloop' ($loop->(label, how)), on R6 after $r6_setup (inp and end
# aligned down, the shift pair on the stack) with 'r6u' loads, else with
# $how_u (lwl/lwr, ldl/ldr).  Then $store (h back to ctx) and the epilogue.
sub blocks_tail {
    my ($name, $loop, $test, $mis, $how_a, $how_u, $r6_setup, $store, $epi, $fs) = @_;
    my $s = "$test\tbnez\t$mis,.L${name}_unaligned\n\tnop\n";
    $s .= $loop->('loop', $how_a);
    $s .= "\tb\t.L${name}_done\n\tnop\n.L${name}_unaligned:\n";
    $s .= defined $r6_setup ? $r6_setup . $loop->('uloop', 'r6u') : $loop->('uloop', $how_u);
    $s .= ".L${name}_done:\n$store" . frame_ret($epi, $fs);
    $s .= ".L${name}_none:\n\tjr\t\$31\n\tnop\n" . func_end($name);
    return $s;
}

my $code = '';

# ---------------------------------------------------------------------------
# File header: ISA and endianness macros, kernel renaming.
# ---------------------------------------------------------------------------
$code .= <<'___';
/* Generated by crypto/poly1305/asm/poly1305-mips.pl (asmcrypt); do not edit. */
/* ISA revision of the build (the same block in every MIPS module).
 * ASMC_FORCE_ISA_REV (tests only) runs older code on a newer build. */
#if defined(ASMC_FORCE_ISA_REV)
# define ASMC_ISA_REV ASMC_FORCE_ISA_REV
#elif defined(__mips_isa_rev)
# define ASMC_ISA_REV __mips_isa_rev
#elif defined(_MIPS_ARCH_MIPS32R6) || defined(_MIPS_ARCH_MIPS64R6)
# define ASMC_ISA_REV 6
#elif defined(_MIPS_ARCH_MIPS32R2) || defined(_MIPS_ARCH_MIPS64R2) || \
      defined(_MIPS_ARCH_MIPS32R3) || defined(_MIPS_ARCH_MIPS64R3) || \
      defined(_MIPS_ARCH_MIPS32R5) || defined(_MIPS_ARCH_MIPS64R5)
# define ASMC_ISA_REV 2
#elif defined(_MIPS_ARCH_MIPS32) || defined(_MIPS_ARCH_MIPS64)
# define ASMC_ISA_REV 1
#else
# define ASMC_ISA_REV 0
#endif
/* Capability word (importers may override; see the header of the .pl).
 * ASMCRYPT_CAPBIT_MIPS_R2 = -1: no run-time bit, the build's ISA decides. */
#if defined(ASMCRYPT_OPENSSL) && !defined(ASMCRYPT_CAPBIT_MIPS_R2)
# define ASMCRYPT_CAPBIT_MIPS_R2 -1
#endif
#ifndef ASMCRYPT_CAPWORD
# define ASMCRYPT_CAPWORD asmcrypt_cpucap
#endif
#ifndef ASMCRYPT_CAPBIT_MIPS_R2
# define ASMCRYPT_CAPBIT_MIPS_R2 0
#endif
/* ASMCRYPT_CAPBIT_MIPS_MSA: "MSA runs" (n64 R6 little-endian builds
 * only); -1 = never the MSA body. */
#if defined(ASMCRYPT_OPENSSL) && !defined(ASMCRYPT_CAPBIT_MIPS_MSA)
# define ASMCRYPT_CAPBIT_MIPS_MSA -1
#endif
#ifndef ASMCRYPT_CAPBIT_MIPS_MSA
# define ASMCRYPT_CAPBIT_MIPS_MSA 1
#endif
/* Kernel entry names: ASMCRYPT_KERNEL_GLUE 1 = v5.5-v6.14 glue,
 * 2 = v6.15-v6.16, 3 (default) = v6.17+.  A -D on the command line wins. */
#ifdef __KERNEL__
# ifndef ASMCRYPT_KERNEL_GLUE
#  define ASMCRYPT_KERNEL_GLUE 3
# endif
# if ASMCRYPT_KERNEL_GLUE == 1
#  ifndef poly1305_init
#   define poly1305_init poly1305_init_mips
#  endif
#  ifndef poly1305_blocks
#   define poly1305_blocks poly1305_blocks_mips
#  endif
#  ifndef poly1305_emit
#   define poly1305_emit poly1305_emit_mips
#  endif
# elif ASMCRYPT_KERNEL_GLUE == 2
#  ifndef poly1305_init
#   define poly1305_init poly1305_block_init_arch
#  endif
#  ifndef poly1305_blocks
#   define poly1305_blocks poly1305_blocks_arch
#  endif
#  ifndef poly1305_emit
#   define poly1305_emit poly1305_emit_arch
#  endif
# elif ASMCRYPT_KERNEL_GLUE == 3
#  ifndef poly1305_init
#   define poly1305_init poly1305_block_init
#  endif
# else
#  error "ASMCRYPT_KERNEL_GLUE must be 1, 2 or 3"
# endif
#endif
/* o32 MIPS32r1..R5 big-endian outside the kernel: poly1305_init picks the
 * R2 or the pre-R2 block function from the capability word at run time.
 * Not on little-endian, where the two are the same instructions (R2 only
 * changes the byte swap): there init reads no capability word. */
#if !defined(__KERNEL__) && ASMC_ISA_REV >= 1 && ASMC_ISA_REV < 6 && ASMCRYPT_CAPBIT_MIPS_R2 >= 0 && \
    defined(__MIPSEB__)
# define ASMC_R2_AT_RUNTIME 1
#else
# define ASMC_R2_AT_RUNTIME 0
#endif
___
# n64 only: NUBI makes the $12-$15 it uses callee-saved, and no matrix row
# runs n32 or o32 R6 code on a CPU with MSA (qemu-mipsel has none)
$code .= $flavour eq '64' ? <<'___' : "#define ASMC_MSA_AT_RUNTIME 0\n";
/* n64 R6 little-endian outside the kernel: poly1305_blocks runs its MSA
 * body from 512 bytes when the capability word says MSA runs. */
#if !defined(__KERNEL__) && ASMC_ISA_REV >= 6 && ASMCRYPT_CAPBIT_MIPS_MSA >= 0 && \
    !defined(__MIPSEB__)
# define ASMC_MSA_AT_RUNTIME 1
#else
# define ASMC_MSA_AT_RUNTIME 0
#endif
___
$code .= $is64 ? <<'___' : <<'___';
#ifdef __MIPSEB__
# define MSB 0
# define LSB 7
#else
# define MSB 7
# define LSB 0
#endif
___
#ifdef __MIPSEB__
# define MSB 0
# define LSB 3
#else
# define MSB 3
# define LSB 0
#endif
___
$code .= <<'___';
	.text
	.set	noat
	.set	noreorder
___

# ---------------------------------------------------------------------------
# Shared little helpers (text generators)
# ---------------------------------------------------------------------------

# Byte-swap a 32-bit word in place (big-endian hosts): R2 wsbh+rotr, else
# mask-and-shift using $mask (0x00ff00ff, caller loads it) and $tmp.
sub bswap32 {
    my ($rev2, $x, $mask, $tmp) = @_;
    return "\twsbh\t$x,$x\n\trotr\t$x,$x,16\n" if $rev2;
    return bswap_in_halves($x, $mask, $tmp) . <<___;
	sll	$tmp,$x,16
	srl	$x,$x,16
	or	$x,$x,$tmp
___
}

# Swap the two bytes inside each 16-bit half of $x (mask-and-shift, $mask
# = 0x00ff00ff, caller loads it): [b2 b3 b0 b1] -> [b3 b2 b1 b0].  With a
# halfword-swapping lwl/lwr pair (load_block32) this is the pre-R2
# big-endian byte reversal in 5 ALU instructions instead of 8.
sub bswap_in_halves {
    my ($x, $mask, $tmp) = @_;
    return <<___;
	and	$tmp,$x,$mask
	srl	$x,$x,8
	sll	$tmp,$tmp,8
	and	$x,$x,$mask
	or	$x,$x,$tmp
___
}

# Build a little-endian 32-bit word (zero-extended on 64-bit) from 4 bytes
# at $off($p) with byte loads only (init: key material; alignment free).
# The loads are grouped so no loaded value is used by the next instruction.
sub load_le32_bytes {
    my ($d, $p, $off, $t1, $t2) = @_;
    my $sll = $is64 ? 'dsll' : 'sll';
    my $s = '';
    $s .= "\tlbu\t$d,".($off+3)."($p)\n";
    $s .= "\tlbu\t$t1,".($off+2)."($p)\n";
    $s .= "\tlbu\t$t2,".($off+1)."($p)\n";
    $s .= "\t$sll\t$d,$d,8\n";
    $s .= "\tor\t$d,$d,$t1\n";
    $s .= "\tlbu\t$t1,".($off+0)."($p)\n";
    $s .= "\t$sll\t$d,$d,8\n";
    $s .= "\tor\t$d,$d,$t2\n";
    $s .= "\t$sll\t$d,$d,8\n";
    $s .= "\tor\t$d,$d,$t1\n";
    return $s;
}

# Store the low 32 bits of $x as 4 little-endian bytes at $off($p).
sub store_le32_bytes {
    my ($x, $p, $off, $t) = @_;
    my $srl = $is64 ? 'dsrl' : 'srl';
    my $s = "\tsb\t$x,".($off)."($p)\n";
    for my $i (1 .. 3) {
        $s .= "\t$srl\t$t,$x,".(8*$i)."\n\tsb\t$t,".($off+$i)."($p)\n";
    }
    return $s;
}

# Product emitter for the pre-R2 code (HI/LO hazards): every item is
# [a, b, lo, hi, @acc] where lo/hi ('' = not read) receive the product and
# @acc are instructions run after it.  At least two instructions separate
# the last mflo/mfhi from the next multu (nop padding where @acc is
# shorter).  $mul is multu or dmultu.
sub mul_base {
    my ($mul, @items) = @_;
    my $s = '';
    my $since = 99;
    for my $it (@items) {
        my ($a, $b, $lo, $hi, @acc) = @$it;
        if ($since < 2) {
            $s .= "#if ASMC_ISA_REV < 1\n";
            while ($since < 2) { $s .= "\tnop\t\t\t# HI/LO hazard (MIPS I-IV)\n"; $since++ }
            $s .= "#endif\n";
        }
        $s .= "\t$mul\t$a,$b\n";
        $s .= "\tmflo\t$lo\n" if $lo ne '';
        $s .= "\tmfhi\t$hi\n" if $hi ne '';
        $s .= "\t$_\n" for @acc;
        $since = @acc;
    }
    return ($s, $since);
}

# R6 product pair.
sub mul_r6 {
    my ($w, $lo, $hi, $a, $b) = @_;
    my ($l, $h) = $w == 64 ? ('dmulu', 'dmuhu') : ('mulu', 'muhu');
    my $L = $lo ne '' ? "\t$l\t$lo,$a,$b\n" : '';
    my $H = $hi ne '' ? "\t$h\t$hi,$a,$b\n" : '';
    # the low half may overwrite an operand: then the high half goes first
    return ($lo eq $a || $lo eq $b) ? $H . $L : $L . $H;
}

###########################################################################
# 32-bit path (o32, nubi32)
###########################################################################
if (!$is64) {

# Register map (numeric; see frame()).
my ($h0, $h1, $h2, $h3, $h4) = ('$2', '$3', '$8', '$9', '$10');
my ($r0, $r1, $r2, $r3)      = ('$11', '$12', '$13', '$14');
my ($s1, $s2, $s3)           = ('$15', '$24', '$25');
my $r05                      = '$16';              # 5*r0
my ($a0, $a1, $a2, $a3)      = ('$17', '$18', '$19', '$20');
my ($k0, $k1, $t)            = ('$21', '$22', '$23');
my $one                      = '$30';              # R2: constant 1
my $at                       = '$1';
my @h = ($h0, $h1, $h2, $h3);
my @a = ($a0, $a1, $a2, $a3);
my @r = ($r0, $r1, $r2, $r3);
my @s = (undef, $s1, $s2, $s3);

# Column terms as [a-index or 'q'/'a4', multiplier]
sub col32 {
    my ($k) = @_;
    my @t;
    for my $i (0 .. 3) {
        my $j = $k - $i;
        if ($j >= 0) { push @t, [$a[$i], $r[$j]] }
        else         { push @t, [$a[$i], $s[$j + 4]] }
    }
    push @t, $k == 0 ? ['Q', $r05] : [$h4, $s[$k]];
    return @t;
}

# a_i += h_i + carry for i = 1..3, the carry of limb 0 in $k0 and then
# alternately in $k1 and $k0.  Returns the code and the register holding
# the carry out of a3.  (15 instructions)
sub carry_chain32 {
    my ($cin, $cout) = ($k0, $k1);
    my $s = '';
    for my $i (1 .. 3) {
        $s .= <<___;
	addu	$a[$i],$a[$i],$h[$i]
	sltu	$cout,$a[$i],$h[$i]
	addu	$a[$i],$a[$i],$cin
	sltu	$t,$a[$i],$cin
	addu	$cout,$cout,$t
___
        ($cin, $cout) = ($cout, $cin);
    }
    return ($s, $cin);
}

# The carry pass: a_i = h_i + m_i + carry, a4 = h4 + carry + pad.
# m_i are already in a_i.  (22 instructions)
sub carry_pass32 {
    my $s = "\taddu\t$a0,$a0,$h0\n\tsltu\t$k0,$a0,$h0\n";
    my ($chain, $cin) = carry_chain32();
    $s .= $chain;
    $s .= "\taddu\t$h4,$h4,$cin\n\taddu\t$h4,$h4,$pad\n";
    return $s;
}

# R6: the pending fold first, then the carry pass (25 instructions):
# c = 5*(h4 >> 2) (one lsa), a0 = m0 + h0 + c, a_i = m_i + h_i + carry,
# a4 = (h4 & 3) + carry + pad <= 6.  With a4 that small every a4 term of
# the product is one 32-bit mul (mul32 'r6' below).
sub carry_pass32_fold {
    my ($c, $e) = ($at, $one);     # both free until the product starts
    my $s = <<___;
	srl	$t,$h4,2
	andi	$e,$h4,3
	lsa	$c,$t,$t,2		# c = 5*(h4 >> 2) < 2^32 (h4 < 2^31.5)
	addu	$a0,$a0,$h0
	sltu	$k0,$a0,$h0
	addu	$a0,$a0,$c
	sltu	$t,$a0,$c
	addu	$k0,$k0,$t		# carry 0..2
___
    my ($chain, $cin) = carry_chain32();
    $s .= $chain;
    $s .= "\taddu\t$h4,$e,$cin\n\taddu\t$h4,$h4,$pad\t\t# a4 <= 3 + 2 + 1\n";
    return $s;
}

# Input words into a0..a3 (little-endian value).
#   'lwlr'  lwl/lwr pairs (pre-R6), byte swap on big-endian
#   'lwa'   aligned input: lw; on big-endian without wsbh (MIPS32r1, the
#           'madd' code, $mask_in_at set: 0x00ff00ff is in $at for the
#           whole loop) an lwl/lwr pair at +2/+1 loads the halfword-swapped
#           word [b2 b3 b0 b1] and bswap_in_halves finishes the reversal
#   'r6a'   aligned lw (R6, input aligned)
#   'r6u'   aligned lw merged with shifts (R6, misaligned input), shift
#           amounts from the stack: 0($sp) = sh, 4($sp) = 32 - sh
sub load_block32 {
    my ($how, $rev2, $mask_in_at) = @_;
    my $s = '';
    my $mask = $mask_in_at ? '' : "\tlui\t$at,0x00ff\n\tori\t$at,$at,0x00ff\n";
    if ($how eq 'lwlr') {
        for my $i (0 .. 3) {
            my $o = 4 * $i;
            $s .= "\tlwl\t$a[$i],$o+MSB($inp)\n\tlwr\t$a[$i],$o+LSB($inp)\n";
        }
        # MIPS I load delay: the first use below is >= 1 instruction later.
        $s .= "#ifdef __MIPSEB__\n";
        $s .= $mask if !$rev2;
        $s .= bswap32($rev2, $_, $at, $k0) for @a;
        $s .= "#endif\n";
    } elsif ($how eq 'lwa' && !$rev2 && $mask_in_at) {
        # Big-endian, aligned: lwl at +2 puts bytes 2,3 in the top half and
        # lwr at +1 bytes 0,1 in the bottom half (the pair only works on an
        # aligned word).  All eight loads come first: no loaded register is
        # read by the next instruction (MIPS I load delay).
        $s .= "#ifdef __MIPSEB__\n";
        for my $i (0 .. 3) {
            my $o = 4 * $i;
            $s .= "\tlwl\t$a[$i],".($o + 2)."($inp)\n\tlwr\t$a[$i],".($o + 1)."($inp)\n";
        }
        $s .= bswap_in_halves($_, $at, $k0) for @a;
        $s .= "#else\n";
        $s .= "\tlw\t$a[$_],".(4*$_)."($inp)\n" for 0 .. 3;
        $s .= "#endif\n";
    } elsif ($how eq 'lwa' || $how eq 'r6a') {
        $s .= "\tlw\t$a[$_],".(4*$_)."($inp)\n" for 0 .. 3;
        # MIPS I load delay: the first use below is >= 1 instruction later.
        $s .= "#ifdef __MIPSEB__\n";
        $rev2 = 1 if $how eq 'r6a';
        $s .= $mask if !$rev2;
        $s .= bswap32($rev2, $_, $at, $k0) for @a;
        $s .= "#endif\n";
    } else {    # r6u: inp is aligned down; words w0..w4
        $s .= "\tlw\t$k0,0(\$sp)\n\tlw\t$k1,4(\$sp)\n";
        $s .= "\tlw\t$a[$_],".(4*$_)."($inp)\n" for 0 .. 3;
        $s .= "\tlw\t$t,16($inp)\n";
        my @w = (@a, $t);
        $s .= "#ifdef __MIPSEB__\n";
        for my $i (0 .. 3) {
            $s .= "\tsllv\t$w[$i],$w[$i],$k0\n\tsrlv\t$at,$w[$i+1],$k1\n\tor\t$w[$i],$w[$i],$at\n";
        }
        $s .= bswap32(1, $_) for @a;
        $s .= "#else\n";
        for my $i (0 .. 3) {
            $s .= "\tsrlv\t$w[$i],$w[$i],$k0\n\tsllv\t$at,$w[$i+1],$k1\n\tor\t$w[$i],$w[$i],$at\n";
        }
        $s .= "#endif\n";
    }
    return $s;
}

# Multiplication h = a * r (columns above), variants 'r2', 'base', 'r6'.
# Leaves h0..h3 and h4 (< 2^31, unreduced) in place.
sub mul32 {
    my ($v) = @_;
    my $s = '';
    my $q = $k1;             # a4 >> 2 for column 0 (free after the carry pass)
    if ($v eq 'r2' || $v eq 'madd') {
        $s .= "\tsrl\t$q,$h4,2\n";
        for my $k (0 .. 3) {
            my @t = col32($k);
            my $first = 1;
            for my $tm (@t) {
                my ($x, $y) = @$tm;
                $x = $q if $x eq 'Q';
                $s .= "\t".($first ? 'multu' : 'maddu')."\t$x,$y\n";
                $first = 0;
            }
            $s .= "\tmaddu\t$k0,$one\t\t# + hi(d".($k-1).") * 1\n" if $k > 0;
            $s .= "\tmflo\t$h[$k]\n\tmfhi\t$k0\n";
        }
        $s .= "\tandi\t$h4,$h4,3\n\tmul\t$t,$h4,$r0\n";
        return ($s, $k0);     # caller adds: addu h4,t,k0
    }
    if ($v eq 'r6') {
        # Columns 0..3 of the four full limbs a0..a3 (no q term: the fold
        # is done), each product a mulu/muhu pair added to (L, H) with one
        # sltu carry.  The small a4 term v = a4*s_k (a4 <= 6: v < 2^31,
        # one mul) and the previous column's high word (< 2^31) are added
        # together first, which cannot wrap, so they cost one carry.
        my ($lo, $hi) = ($t, $at);
        my @H = ($k0, $one);
        for my $k (0 .. 3) {
            my @t = grep { $_->[0] ne 'Q' && $_->[0] ne $h4 } col32($k);
            my ($L, $H, $Hp) = ($h[$k], $H[$k & 1], $H[($k + 1) & 1]);
            my ($x, $y) = @{ shift @t };
            $s .= mul_r6(32, $L, $H, $x, $y);
            for my $tm (@t) {
                ($x, $y) = @$tm;
                $s .= mul_r6(32, $lo, $hi, $x, $y);
                $s .= "\taddu\t$L,$L,$lo\n\tsltu\t$lo,$L,$lo\n\taddu\t$H,$H,$hi\n\taddu\t$H,$H,$lo\n";
            }
            if ($k > 0) {
                $s .= <<___;
	mul	$lo,$h4,$s[$k]		# a4*s$k < 2^31
	addu	$lo,$lo,$Hp		# + hi(d@{[$k-1]}) < 2^31: no wrap
	addu	$L,$L,$lo
	sltu	$lo,$L,$lo
	addu	$H,$H,$lo
___
            }
        }
        $s .= "\tmul\t$t,$h4,$r0\t\t# d4 = a4*r0\n";
        return ($s, $H[1]);   # caller adds: addu h4,t,H
    }
    # base: column (L, H) with products into ($t lo, $at hi);
    # column carries alternate between $k0 and $one ($30 is free here).
    my ($lo, $hi) = ($t, $at);
    my @H = ($k0, $one);
    my @items;
    for my $k (0 .. 3) {
        my @t = col32($k);
        my ($L, $H, $Hp) = ($h[$k], $H[$k & 1], $H[($k + 1) & 1]);
        my $first = 1;
        for my $tm (@t) {
            my ($x, $y) = @$tm;
            $x = $q if $x eq 'Q';
            if ($first) {
                my @acc = $k > 0 ? ("addu\t$L,$L,$Hp", "sltu\t$Hp,$L,$Hp", "addu\t$H,$H,$Hp")
                                 : ("srl\t$q,$h4,2");
                push @items, [$x, $y, $L, $H, @acc];
                $first = 0;
            } else {
                push @items, [$x, $y, $lo, $hi,
                    "addu\t$L,$L,$lo", "sltu\t$lo,$L,$lo", "addu\t$H,$H,$hi", "addu\t$H,$H,$lo"];
            }
        }
    }
    my ($body, $since) = mul_base('multu', @items);
    $s .= $body;
    # h4 product: multu needs >= 2 instructions after the last mfhi
    $s .= "\tandi\t$h4,$h4,3\n";
    $s .= "#if ASMC_ISA_REV < 1\n\tnop\t\t\t# HI/LO hazard (MIPS I-IV)\n#endif\n" if $since < 1;
    $s .= "\tmultu\t$h4,$r0\n\tmflo\t$t\n";
    return ($s, $H[1]);   # final carry (column 3)
}

# One blocks function.  $v: 'base' (MIPS I/II), 'madd' (MIPS32r1), 'r2', 'r6'.
sub blocks32 {
    my ($name, $v, $global) = @_;
    my @used = ($r0, $r1, $r2, $r3, $s1, $s2, $s3, $r05, @a, $k0, $k1, $t, $one);
    my ($pro, $epi, $fs) = frame($v eq 'r6' ? 8 : 0, @used);
    my $s = func_head($name, $fs, $global)
          . blocks_entry($name, "\tsrl\t$end,$end,4\t\t# number of blocks\n", 'sll', 'addu', $pro)
          . ctx_words('lw', $ctx, 4, $h0, $h1, $h2, $h3, $h4, $r0, $r1, $r2, $r3, $s1, $s2, $s3)
          . <<___;
	sll	$r05,$r0,2
	addu	$r05,$r05,$r0		# 5*r0 (< 2^31)
___
    $s .= "\tli\t$one,1\n" if $v eq 'r2' || $v eq 'madd';
    # MIPS32r1 big-endian: the byte-swap mask stays in $at for both loops
    $s .= "#ifdef __MIPSEB__\n\tlui\t$at,0x00ff\n\tori\t$at,$at,0x00ff\n#endif\n" if $v eq 'madd';
    my $loop = sub {
        my ($lbl, $how) = @_;
        my $b = '';
        $b .= ".L${name}_$lbl:\n# LLVM-MCA-BEGIN poly1305_blocks32_${v}_$lbl\n# LLVM-MCA-UNITS 16 bytes\n";
        $b .= load_block32($how, $v eq 'r2', $v eq 'madd');
        $b .= "\t$PTR_ADDI\t$inp,$inp,16\n";
        $b .= $v eq 'r6' ? carry_pass32_fold() : carry_pass32();
        my ($mb, $cr) = mul32($v);
        $b .= $mb;
        $b .= "# LLVM-MCA-END\n";
        $b .= "\tbne\t$inp,$end,.L${name}_$lbl\n";
        $b .= "\taddu\t$h4,$t,$cr\t\t# h4 = d4 + hi(d3) (delay slot)\n";
        return $b;
    };
    # Aligned input: plain lw.  Otherwise lwl/lwr, or on R6 align down
    # and merge with shifts.
    my $r6_setup = $v ne 'r6' ? undef : <<___;
	sll	$k1,$k0,3		# sh = 8*(inp & 3)
	subu	$inp,$inp,$k0
	subu	$end,$end,$k0
	li	$t,32
	subu	$t,$t,$k1
	sw	$k1,0(\$sp)
	sw	$t,4(\$sp)
___
    $s .= blocks_tail($name, $loop, "\tandi\t$k0,$inp,3\n", $k0,
                      $v eq 'r6' ? 'r6a' : 'lwa', 'lwlr', $r6_setup,
                      ctx_words('sw', $ctx, 4, $h0, $h1, $h2, $h3, $h4), $epi, $fs);
    # carry into h4 comes from $k0 in r2, from $one (moved to k0) otherwise
    return $s;
}

# The block function of the build's ISA ($own, global poly1305_blocks)
# and, where init picks at run time (ASMC_R2_AT_RUNTIME), the other one
# ($other, local $name; $isa: the .set it needs, '' for none): the
# MIPS32r1 code in an R2..R5 build, the R2 code in a MIPS32r1 build.
my %OTHER32 = (r2 => 'poly1305_blocks_mips32', madd => 'poly1305_blocks_mips32r2');
sub blocks32_pair {
    my ($own, $other, $isa) = @_;
    my $s = blocks32('poly1305_blocks', $own, 1) . "#if ASMC_R2_AT_RUNTIME\n";
    $s .= "\t.set\tpush\n\t.set\t$isa\n" if $isa ne '';
    $s .= blocks32($OTHER32{$own}, $other, 0);
    $s .= "\t.set\tpop\n" if $isa ne '';
    return $s . "#endif\n";
}

# init --------------------------------------------------------------------
{
    my ($key, $func) = ('$5', '$6');
    my ($w, $x, $y, $m) = ('$8', '$9', '$10', '$11');
    my $s = func_head('poly1305_init', 0, 1) . <<___;
#if ASMC_R2_AT_RUNTIME && defined(__mips_abicalls)
	.cpload	\$25
#endif
___
    $s .= init_entry('sw', 4, 5, $key, $m);
    for my $i (0 .. 3) {
        $s .= clamped_key_word($w, $key, $i, $x, $y, $m);
        $s .= "\tsw\t$w,".($CTX{R} + 4 * $i)."($ctx)\n";
        if ($i > 0) {
            $s .= "\tsrl\t$x,$w,2\n\taddu\t$x,$x,$w\n\tsw\t$x,".($CTX{S1} + 4 * ($i - 1))."($ctx)\n";
        }
    }
    $s .= <<___;
#if ASMC_R2_AT_RUNTIME
	/* pick the R2 or the MIPS32r1 block function at run time:
	   bit ASMCRYPT_CAPBIT_MIPS_R2 of the 32-bit word array ASMCRYPT_CAPWORD;
	   one of them is poly1305_blocks, the other local (blocks32_pair) */
#if ASMC_ISA_REV >= 2
# define ASMC_BLOCKS_R2 poly1305_blocks
# define ASMC_BLOCKS_PRE_R2 $OTHER32{r2}
#else
# define ASMC_BLOCKS_R2 $OTHER32{madd}
# define ASMC_BLOCKS_PRE_R2 poly1305_blocks
#endif
	beqz	$func,.Linit_done
	nop
	.set	reorder
	.set	at
	.hidden	ASMCRYPT_CAPWORD
	lw	$w,ASMCRYPT_CAPWORD+((ASMCRYPT_CAPBIT_MIPS_R2>>5)*4)
	la	$x,ASMC_BLOCKS_R2
	la	$y,poly1305_emit
#if (ASMCRYPT_CAPBIT_MIPS_R2 & 31) != 0
	srl	$w,$w,ASMCRYPT_CAPBIT_MIPS_R2&31
#endif
	andi	$w,$w,1
	bnez	$w,.Linit_r2
	la	$x,ASMC_BLOCKS_PRE_R2
.Linit_r2:
	sw	$x,0($func)
	sw	$y,4($func)
	li	$RET,1
	j	\$31
	.set	noat
	.set	noreorder
#endif
___
    $code .= $s . init_end();
}

$code .= "#if ASMC_ISA_REV >= 6\n";
$code .= blocks32('poly1305_blocks', 'r6', 1);
$code .= "#elif ASMC_ISA_REV >= 2\n";
$code .= blocks32_pair('r2', 'madd', '');
$code .= "#elif ASMC_ISA_REV >= 1\n";
$code .= blocks32_pair('madd', 'r2', 'mips32r2');
$code .= "#else\n";
$code .= blocks32('poly1305_blocks', 'base', 1);
$code .= "#endif\n";

# emit --------------------------------------------------------------------
{
    my ($mac, $nonce) = ('$5', '$6');
    my ($c, $g0, $g1, $g2, $g3, $g4, $msk, $tt) = ('$11', '$12', '$13', '$14', '$15', '$24', '$25', '$7');
    my ($pro, $epi, $fs) = frame(0, $g0, $g1, $g2, $g3);    # NUBI only
    my $s = func_head('poly1305_emit', $fs, 1) . <<___;
$pro	lw	$h4,@{[$CTX{H} + 16]}($ctx)
	lw	$h0,@{[$CTX{H}]}($ctx)
	lw	$h1,@{[$CTX{H} + 4]}($ctx)
	srl	$c,$h4,2		# pending fold: c = 5*(h4 >> 2)
	lw	$h2,@{[$CTX{H} + 8]}($ctx)
	sll	$tt,$c,2
	lw	$h3,@{[$CTX{H} + 12]}($ctx)
	addu	$c,$c,$tt
	andi	$h4,$h4,3
@{[ ripple('addu', $c, 'h4 <= 4', $h0, $h1, $h2, $h3, $h4)
  . plus5('addu', 'addiu', $c, [$g0, $g1, $g2, $g3, $g4], [$h0, $h1, $h2, $h3, $h4]) ]}	srl	$g4,$g4,2		# 1 iff h >= p
	subu	$msk,\$0,$g4		# all-ones iff h >= p
@{[ select_g($msk, [$g0, $g1, $g2, $g3], [$h0, $h1, $h2, $h3]) ]}	lw	$g0,0($nonce)
	lw	$g1,4($nonce)
	lw	$g2,8($nonce)
	lw	$g3,12($nonce)
	addu	$h0,$h0,$g0
	sltu	$c,$h0,$g0
@{[ add_carry('addu', $h1, $c, $g1, $tt) . add_carry('addu', $h2, $c, $g2, $tt) ]}	addu	$h3,$h3,$c
	addu	$h3,$h3,$g3
___
    $s .= store_le32_bytes($h[$_], $mac, 4 * $_, $tt) for 0 .. 3;
    $code .= $s . frame_ret($epi, $fs) . func_end('poly1305_emit');
}

}
###########################################################################
# 64-bit path (n32, n64, nubi64)
###########################################################################
else {

my ($h0, $h1, $h2) = ('$2', '$3', '$8');
my ($r0, $r1, $s1) = ('$9', '$10', '$11');
my ($m0, $m1)      = ('$12', '$13');
my ($H0, $H1)      = ('$14', '$15');
my ($lo, $hi, $c)  = ('$24', '$25', '$1');
# The carry pass's scratch t, k are the product temporaries (dead at the
# top of the loop), so the block function needs no callee-saved register
# (no frame at all before R6; NUBI saves its $12-$15).
my ($t, $k)        = ($lo, $hi);

# dmultu/mflo/mfhi or R6 pairs for a list of items [a, b, lo, hi, @acc].
sub mul_items64 {
    my ($r6, @items) = @_;
    if ($r6) {
        my $s = '';
        for my $it (@items) {
            my ($x, $y, $l, $hh, @acc) = @$it;
            $s .= mul_r6(64, $l, $hh, $x, $y);
            $s .= "\t$_\n" for @acc;
        }
        return $s;
    }
    my ($s) = mul_base('dmultu', @items);
    return $s;
}

# Byte-reverse 64-bit registers (R2: dsbh then dshd).  With $guard
# ('#' or '# ', the cpp indent), only on big-endian: "${guard}ifdef
# __MIPSEB__" ... "${guard}endif".
sub bswap64 {
    my ($guard, @regs) = @_;
    my $s = join '', map { "\tdsbh\t$_,$_\n\tdshd\t$_,$_\n" } @regs;
    return defined $guard ? "${guard}ifdef __MIPSEB__\n$s${guard}endif\n" : $s;
}

# Little-endian 64-bit input words at $o($inp) and $o+8($inp) into m0, m1.
#   'ldlr' ldl/ldr (pre-R6) + byte swap on big-endian (dsbh/dshd on R2,
#          byte loads on pre-R2 big-endian instead)
#   'r6a' / 'r6u' as in the 32-bit path (shifts at 0/8($sp))
sub load_block64 {
    my ($how, $o) = @_;
    my $s = '';
    if ($how eq 'ldlr' || $how eq 'lda') {
        $s .= "#if defined(__MIPSEB__) && ASMC_ISA_REV < 2\n";
        for my $i (0, 1) {
            my $d = $i ? $m1 : $m0;
            $s .= "\tlbu\t$d,".($o+8*$i+7)."($inp)\n";
            for my $b (reverse 0 .. 6) {
                $s .= "\tlbu\t$t,".($o+8*$i+$b)."($inp)\n\tdsll\t$d,$d,8\n\tor\t$d,$d,$t\n";
            }
        }
        $s .= "#else\n";
        if ($how eq 'lda') {
            $s .= "\tld\t$m0,$o($inp)\n\tld\t$m1,".($o+8)."($inp)\n";
        } else {
            $s .= "\tldl\t$m0,$o+MSB($inp)\n\tldr\t$m0,$o+LSB($inp)\n";
            $s .= "\tldl\t$m1,".($o+8)."+MSB($inp)\n\tldr\t$m1,".($o+8)."+LSB($inp)\n";
        }
        $s .= bswap64('# ', $m0, $m1) . "#endif\n";
    } elsif ($how eq 'r6a') {
        $s .= "\tld\t$m0,$o($inp)\n\tld\t$m1,".($o+8)."($inp)\n";
        $s .= bswap64('#', $m0, $m1);
    } else {
        # shift pair in c, H1, the third word in lo, scratch hi: all dead
        # at the top of a block (H0 is not: it carries hi(d0) over)
        my ($sh, $sr, $w2, $x) = ($c, $H1, $lo, $hi);
        $s .= "\tld\t$sh,0(\$sp)\n\tld\t$sr,8(\$sp)\n";
        $s .= "\tld\t$m0,$o($inp)\n\tld\t$m1,".($o+8)."($inp)\n\tld\t$w2,".($o+16)."($inp)\n";
        my @w = ($m0, $m1, $w2);
        $s .= "#ifdef __MIPSEB__\n";
        for my $i (0, 1) {
            $s .= "\tdsllv\t$w[$i],$w[$i],$sh\n\tdsrlv\t$x,$w[$i+1],$sr\n\tor\t$w[$i],$w[$i],$x\n";
        }
        $s .= bswap64(undef, $m0, $m1);
        $s .= "#else\n";
        for my $i (0, 1) {
            $s .= "\tdsrlv\t$w[$i],$w[$i],$sh\n\tdsllv\t$x,$w[$i+1],$sr\n\tor\t$w[$i],$w[$i],$x\n";
        }
        $s .= "#endif\n";
    }
    return $s;
}

# Top of the loop: the pending fold and one carry pass (h0..h2 become
# a0..a2).  On entry the value is h0 + (h1 + H0)*2^64 + h2*2^128: the
# previous block's hi(d0) sum H0 has not been added to h1 yet (the "lazy"
# word, see mul64).  H0 < 2^63.3 and the two carries out of h0 are <= 2,
# so H0 + carries < 2^64 is one plain add, and only the two sltu of the h1
# pass remain.  R6: 5*(h2 >> 2) is one dlsa.
sub carry_pass64 {
    my ($r6) = @_;
    my $fold = $r6 ? "\tdlsa\t$c,$t,$t,2\t\t# c = 5*(h2 >> 2)\n"
                   : "\tdsubu\t$c,$h2,$k\t\t# c = 5*(h2 >> 2) = (h2 & ~3) + (h2 >> 2)\n\tdaddu\t$c,$c,$t\n";
    return <<___ . add_carry('daddu', $h1, $c, $m1, $t);
	dsrl	$t,$h2,2
	andi	$k,$h2,3
$fold	daddu	$h0,$h0,$m0
	sltu	$t,$h0,$m0
	daddu	$h0,$h0,$c
	sltu	$c,$h0,$c
	daddu	$c,$c,$t		# carry 0..2
	daddu	$c,$c,$H0		# + pending hi(d0): < 2^64, no wrap
___
}

# The products of a block.  Out: h0 = lo(d0), h1 = lo(d1), H0 = hi(d0)
# (not added to h1: the next carry pass or lazy_end64 does it), h2 =
# d2 + hi(d1) (the caller adds H1 = hi(d1) in the branch delay slot):
#   d0 = a0 r0 + a1 s1, hi(d0) also takes lo(a2 s1) (a2 <= 6)
#   d1 = a0 r1 + a1 r0,  d2 = a2 r0 (low half: a2 <= 6)
# The first product's slot takes the end of the carry pass (a2), so the
# pre-R2 HI/LO padding is needed after the second only.
sub mul64 {
    my ($r6) = @_;
    my @items = (
        [$h1, $s1, $m0, $H0, "daddu\t$h2,$k,$c", "daddu\t$h2,$h2,$pad\t\t# a2 <= 6"],
        [$h1, $r0, $m1, $H1],
        [$h0, $r1, $lo, $hi, "daddu\t$h1,$m1,$lo", "sltu\t$lo,$h1,$lo", "daddu\t$H1,$H1,$hi", "daddu\t$H1,$H1,$lo"],
        [$h0, $r0, $lo, $hi, "daddu\t$h0,$m0,$lo", "sltu\t$lo,$h0,$lo", "daddu\t$H0,$H0,$hi", "daddu\t$H0,$H0,$lo"],
        [$h2, $s1, $lo, '',  "daddu\t$H0,$H0,$lo\t\t# + a2*s1: no wrap"],
        [$h2, $r0, $h2, ''],
    );
    return mul_items64($r6, @items);
}

# After the loop: h1 += H0, the carry into h2 (the stored h stays
# h0 + h1*2^64 + h2*2^128, the layout emit and the C code read).
sub lazy_end64 {
    return "\tdaddu\t$h1,$h1,$H0\n\tsltu\t$t,$h1,$H0\n\tdaddu\t$h2,$h2,$t\n";
}

# Kernel prototypes take u32 len and padbit: use only their low 32 bits
# (n64 passes them sign-extended; this is also right when the upper half
# is not).  Number of blocks into $end.
sub ulen_blocks64 {
    my $s = "\tsll\t$pad,$pad,0\t\t# u32 padbit: low 32 bits\n";
    if ($n64) {
        $s .= "\tdsll32\t$end,$end,0\t\t# u32 len: low 32 bits\n";
        $s .= "\tdsrl32\t$end,$end,4\t\t# number of blocks\n";
    } else {
        $s .= "\tsll\t$end,$end,0\t\t# u32 len: low 32 bits\n";
        $s .= "\tsrl\t$end,$end,4\t\t# number of blocks\n";
    }
    return $s;
}

# Store h and return: the last store in the jr delay slot when there is
# no frame to pop.
# Return after the stores $st: with a frame, after frame_ret; without
# one, the last line of $st goes into the jr delay slot.
sub ret_after_stores {
    my ($st, $epi, $fs) = @_;
    return $st . frame_ret($epi, $fs) if $fs;
    my ($body, $last) = $st =~ /\A(.*\n)?([^\n]*\n)\z/s or die "no store to delay";
    return ($body // '') . "$epi\tjr\t\$31\n$last";
}

sub store_ret64 {
    my ($epi, $fs) = @_;
    return ret_after_stores(lazy_end64() . ctx_words('sd', $ctx, 8, $h0, $h1)
                            . "\tsd\t$h2," . ($CTX{H} + 16) . "($ctx)\n", $epi, $fs);
}

# The loop runs $U64 blocks per turn (issue 13: the pointer step and the
# loop branch once per turn instead of once per block).  inp advances by
# 16*$U64 in the first block of a turn, right after its loads, so block i
# of the turn loads from 16*(i - $U64) past the advanced pointer.  A count
# that is not a multiple of $U64 enters the first turn in the middle: with
# r = blocks mod $U64 and rem = 16*r = len & (16*$U64 - 16) (kept in R),
# entry e(U-r) runs the last r blocks of a turn, and inp += rem (always:
# rem = 0 enters at the top) makes their loads and the end test right.
# Every entry point sees the same state: h0, h1, h2 and the pending H0 (a
# block that is not the last of a turn adds its H1 into h2 itself; the
# last does it in the loop branch's delay slot).  The entry branches test
# len only (public).  r = 1 (a one-block message) is tested first, so a
# 16-byte call pays 4 instructions for it (andi, daddiu, beqz, the inp
# add in its delay slot); a multiple of $U64 blocks pays 2 * $U64.
# Hazards: mul_items64 pads each block's products for the pre-R2 HI/LO
# rule; across a block boundary (and the loop branch) the next dmultu
# comes after the loads and the carry pass (15 or more instructions), so
# the unrolled body needs no extra padding.  64-bit cores (MIPS III on)
# have no load delay slot.
my $U64 = 4;
my $R = $m1;            # rem, from the entry to the dispatch (m1 is free)

sub dispatch64 {
    my ($name, $lbl) = @_;
    my $s = "\tdaddiu\t$c,$R,-16\n";
    for my $r (1 .. $U64 - 1) {
        $s .= "\tbeqz\t$c,.L${name}_${lbl}_e" . ($U64 - $r) . "\t# $r block" . ($r > 1 ? 's' : '') . " left over\n";
        if ($r == 1) {
            $s .= "\t$PTR_ADD\t$inp,$inp,$R\t\t# (delay slot) inp += rem\n";
            $s .= "\tdaddiu\t$c,$R,-32\n" if $U64 > 2;
        } elsif ($r < $U64 - 1) {
            $s .= "\tdaddiu\t$c,$R,-" . (16 * ($r + 1)) . "\t\t# (delay slot)\n";
        } else {
            $s .= "\tnop\n";
        }
    }
    return $s;
}

my $MSA_MIN = 32;      # blocks; below this the MSA setup costs more than it saves
# The head of the R6 block function in builds with the MSA body
# (ASMC_MSA_AT_RUNTIME): from $MSA_MIN blocks, with padbit set and the MSA
# bit of the capability word (read PC-relative: no \$gp, the function has
# no frame), go to poly1305_blocks_msa; else on to the scalar code.  Two
# instructions for a short message, seven for a long one.
sub msa_dispatch {
    my $w = 'ASMCRYPT_CAPWORD+((ASMCRYPT_CAPBIT_MIPS_MSA>>5)*4)';
    return <<___;
#if ASMC_MSA_AT_RUNTIME
	sltiu	\$1,$end,@{[16 * $MSA_MIN]}	# len < 16 * MSA_MIN: scalar
	bnezc	\$1,.Lpoly1305_blocks_r6
	.hidden	ASMCRYPT_CAPWORD
	auipc	\$1,%pcrel_hi($w)
	lw	\$1,%pcrel_lo($w+4)(\$1)
	ext	\$1,\$1,ASMCRYPT_CAPBIT_MIPS_MSA&31,1
	selnez	\$1,\$1,$pad		# and padbit set
	bnezc	\$1,poly1305_blocks_msa
#endif
___
}

sub blocks64 {
    my ($name, $r6) = @_;
    # the callee-saved registers among those used (NUBI: $12-$15)
    my ($pro, $epi, $fs) = frame($r6 ? 16 : 0, $m0, $m1, $H0, $H1, $t, $k);
    my $nblocks = "#ifdef __KERNEL__\n" . ulen_blocks64()
                . "#else\n\t$PTR_SRL\t$end,$end,4\t\t# number of blocks\n#endif\n";
    my $rem = "\tandi\t$R,$end," . (16 * $U64 - 16) . "\t\t# rem = 16*(blocks mod $U64)\n";
    my $s = func_head($name, $fs, 1)
          . ($r6 ? msa_dispatch() . ".L${name}_r6:\t\t\t# (poly1305_blocks_msa comes here for the scalar code)\n" : '')
          . blocks_entry($name, $nblocks, $PTR_SLL, $PTR_ADD, $pro . $rem)
          . ctx_words('ld', $ctx, 8, $h0, $h1, $h2, $r0, $r1, $s1);
    my $loop = sub {
        my ($lbl, $how) = @_;
        my $b = dispatch64($name, $lbl);
        $b .= ".L${name}_$lbl:\n# LLVM-MCA-BEGIN poly1305_blocks64_${lbl}\n# LLVM-MCA-UNITS " . (16 * $U64) . " bytes\n";
        for my $i (0 .. $U64 - 1) {
            $b .= ".L${name}_${lbl}_e$i:\n" if $i;
            $b .= load_block64($how, $i ? 16 * ($i - $U64) : 0);
            $b .= "\t$PTR_ADDI\t$inp,$inp," . (16 * $U64) . "\n" if !$i;
            $b .= carry_pass64($r6);
            $b .= mul64($r6);
            $b .= "\tdaddu\t$h2,$h2,$H1\n" if $i < $U64 - 1;
        }
        $b .= "# LLVM-MCA-END\n";
        $b .= "\tbne\t$inp,$end,.L${name}_$lbl\n\tdaddu\t$h2,$h2,$H1\t\t# (delay slot)\n";
        return $b;
    };
    my $r6_setup = !$r6 ? undef : <<___;
	dsll	$k,$t,3			# sh = 8*(inp & 7)
	$PTR_SUB	$inp,$inp,$t
	$PTR_SUB	$end,$end,$t
	li	$c,64
	dsubu	$c,$c,$k
	sd	$k,0(\$sp)
	sd	$c,8(\$sp)
___
    # aligned and unaligned input each end in their own store and return
    # (no branch to a shared tail); H0 = 0 in the dispatch's delay slot
    $s .= "\tandi\t$t,$inp,7\n\tbnez\t$t,.L${name}_unaligned\n\tmove\t$H0,\$0\t\t# (delay slot) no pending hi(d0)\n";
    $s .= $loop->('loop', $r6 ? 'r6a' : 'lda') . store_ret64($epi, $fs);
    $s .= ".L${name}_unaligned:\n";
    $s .= defined $r6_setup ? $r6_setup . $loop->('uloop', 'r6u') : $loop->('uloop', 'ldlr');
    $s .= store_ret64($epi, $fs);
    $s .= ".L${name}_none:\n\tjr\t\$31\n\tnop\n" . func_end($name);
    return $s;
}

# ---------------------------------------------------------------------------
# MSA block function (n64 R6 little-endian builds outside the kernel,
# ASMC_MSA_AT_RUNTIME): poly1305_blocks_msa, where poly1305_blocks goes
# when the MSA bit of the capability word is set (crypto/arch/cpucap_mips.c
# probes for it; msa_dispatch above).  MSA's dotp_u.d / dpadd_u.d compute, in each 64-bit
# lane, the sum of two 32x32 products: four products per instruction,
# where the scalar R6 loop needs a dmulu/dmuhu pair and an add chain for
# each 64x64 product (38.5 instructions a block, 2.41 per byte).
#
# Radix 2^26: h = h_0 + h_1 2^26 + ... + h_4 2^104, likewise r.  Product
# column k (p = 2^130 - 5, 2^130 == 5):
#   d_k = sum_i h_i rho(k, i),  rho(k, i) = r_{k-i} (i <= k), 5 r_{k-i+5} (i > k)
# Two blocks at a time, one per 64-bit lane (lane A the odd blocks, lane B
# the even ones; two Horner chains with r^2):
#   A = (h + m_1) r^2 ... ,  B = m_2 r^2 ...,  last pair: A r^2 + B r
# so that h' = A + B = (h + m_1) r^2n + m_2 r^(2n-1) + ... + m_2n r.
# A limb vector D_k holds (h_k of A, h_k of B) as two 64-bit lanes, i.e.
# the words (a, 0, b, 0); a dot-product operand pairs two limbs of both
# lanes, H01 = (h_0, h_1 | h_0, h_1) (one ilvev.w), and the multiplier
# vectors R[k][p] = (rho(k,2p), rho(k,2p+1) | the same) are built once per
# call, so column k is dotp + dpadd + dpadd (H01, H23, and D_4 itself: its
# high word is 0) against R[k][0..2].  Per pair of blocks: 15 product
# instructions, 20 for the message (two ld.d and two ilv.d, both lanes
# split into limbs at once, padbit, the five adds), 20 for the carry
# chain d_0 -> ... -> d_4 -> 5 d_0 -> d_1, 2 for H01/H23, the pointer step
# and the branch: 59 per 32 bytes.
# Bounds: after the carry chain every limb is < 2^26 but D_1 < 2^26 +
# 2^10; with the message limbs (< 2^26, m_4 < 2^25 with padbit) the
# operands are < 2^27, the multipliers < 5 * 2^26, so a column sums five
# products < 2^55.4 and stays far below 2^64.
# Per call: r and r^2 (one vector product of r by itself, both lanes) in
# radix 2^26, the 15 vectors R for r kept on the stack for the last pair
# (whose lane B multiplies by r, not r^2), h converted on entry (after the
# pending fold, so h_4 <= 4) and back on exit (h2 < 2^4, the scalar
# layout); n64's callee-saved $f24..$f31 (the low halves of $w24..$w31;
# MSA leaves the upper halves caller-saved) are saved.  poly1305_blocks
# comes here (msa_dispatch) from MSA_MIN blocks with padbit set when the
# capability bit is set; an odd block count leaves the last block to the
# scalar code.  The MSA_MIN of 32 (512
# bytes) is above the break-even (the setup, about 205 instructions more
# than the scalar call's, against 9 fewer per block: 23 blocks).
# Not in o32 or n32 builds: no matrix row runs R6 code of those ABIs on a
# CPU with MSA (qemu-mipsel has none; docs/perf/mips.md).
# ---------------------------------------------------------------------------
my $CODE_MSA = '';
if ($flavour eq '64') {
    my @w = map { "\$w$_" } 0 .. 31;
    my @RV = @w[0 .. 14];                 # R[k][p] = $RV[3k + p]
    my @D  = @w[15 .. 19];                # h limbs (lanes A, B)
    my @E  = @w[20 .. 24];                # product columns
    my ($H01, $H23, $MASK, $T0, $T1, $T2, $PADV) = @w[25 .. 31];
    my $ZERO = $PADV;                     # zero vector while setting up
    my ($nb, $x, $y) = ('$2', '$3', '$1');
    my @g = ('$8', '$9', '$10');          # 64-bit words h0, h1, h2 / r0, r1
    my @l = ('$11', '$12', '$13', '$14', '$15');      # 26-bit limbs
    my @SAVED = 24 .. 31;                             # n64: $f24-$f31 callee-saved
    my $FS = @SAVED * 8 + 15 * 16;                    # those, R for r
    my $ROFF = @SAVED * 8;                            # R for r at ROFF + 16i
    my $fpr = sub {                                   # sdc1 / ldc1 of @SAVED
        my ($op) = @_;
        return join '', map { "\t$op\t\$f$SAVED[$_]," . (8 * $_) . "(\$sp)\n" } 0 .. $#SAVED;
    };

    # coefficient of h_i in column k: ['r', j] = r_j, ['s', j] = 5 r_j
    my $rho = sub { my ($k, $i) = @_; return $i <= $k ? ['r', $k - $i] : ['s', $k - $i + 5]; };

    # R[k][p] = ilvev.w(Y, X): words (x, y, x, y) from vectors X, Y whose
    # words 0 and 2 hold x resp. y; $vec->(['r'|'s', j]) names them.
    my $build_r = sub {
        my ($vec) = @_;
        my $s = '';
        for my $k (0 .. 4) {
            for my $p (0 .. 2) {
                my $X = $vec->($rho->($k, 2 * $p));
                my $Y = $p < 2 ? $vec->($rho->($k, 2 * $p + 1)) : $ZERO;
                $s .= "\tilvev.w\t$RV[3 * $k + $p],$Y,$X\n";
            }
        }
        return $s;
    };
    # E_k = the three dot products of column k; $h4: the vector of h_4.
    my $mul = sub {
        my ($h4) = @_;
        my $s = '';
        for my $k (0 .. 4) {
            $s .= "\tdotp_u.d\t$E[$k],$H01,$RV[3 * $k]\n"
                . "\tdpadd_u.d\t$E[$k],$H23,$RV[3 * $k + 1]\n"
                . "\tdpadd_u.d\t$E[$k],$h4,$RV[3 * $k + 2]\n";
        }
        return $s;
    };
    # E -> D: 26-bit limbs, the carry out of E_4 times 5 into D_0.
    my $carry = sub {
        my $s = '';
        for my $k (0 .. 3) {
            $s .= "\tsrli.d\t$T2,$E[$k],26\n\tand.v\t$D[$k],$E[$k],$MASK\n"
                . "\taddv.d\t$E[$k + 1],$E[$k + 1],$T2\n";
        }
        return $s . <<___;
	srli.d	$T2,$E[4],26
	and.v	$D[4],$E[4],$MASK
	addv.d	$D[0],$D[0],$T2
	slli.d	$T2,$T2,2
	addv.d	$D[0],$D[0],$T2		# + 5 * (E_4 >> 26)
	srli.d	$T2,$D[0],26
	and.v	$D[0],$D[0],$MASK
	addv.d	$D[1],$D[1],$T2
___
    };
    # D_k += (X >> $sh) & MASK, both lanes ($sh 0: no shift)
    my $add_limb = sub {
        my ($k, $x, $sh) = @_;
        my $s = $sh ? "\tsrli.d\t$T2,$x,$sh\n\tand.v\t$T2,$T2,$MASK\n" : "\tand.v\t$T2,$x,$MASK\n";
        return $s . "\taddv.d\t$D[$k],$D[$k],$T2\n";
    };
    # One pair of blocks: h += (m_A | m_B), then h = h * R.  The message
    # halves L = (lo A, lo B) in H01 and Hh = (hi A, hi B) in H23 (free
    # until the ilvev.w at the end); limb 2 straddles them, limb 4 takes
    # padbit.
    my $body = sub {
        return <<___ . $add_limb->(0, $H01, 0) . $add_limb->(1, $H01, 26) . <<___ . $add_limb->(3, $H23, 14) . <<___ . $mul->($D[4]) . $carry->();
	ld.d	$T0,0($inp)		# block A: (lo, hi) 64-bit halves
	ld.d	$T1,16($inp)		# block B
	$PTR_ADDI	$inp,$inp,32
	ilvev.d	$H01,$T1,$T0		# L = (lo A, lo B)
	ilvod.d	$H23,$T1,$T0		# Hh = (hi A, hi B)
___
	srli.d	$T2,$H01,52
	slli.d	$H01,$H23,12
	or.v	$T2,$T2,$H01
	and.v	$T2,$T2,$MASK
	addv.d	$D[2],$D[2],$T2
___
	srli.d	$T2,$H23,40
	or.v	$T2,$T2,$PADV		# + padbit * 2^128
	addv.d	$D[4],$D[4],$T2
	ilvev.w	$H01,$D[1],$D[0]	# (h0, h1 | h0, h1)
	ilvev.w	$H23,$D[3],$D[2]
___
    };
    # Radix 2^26 over the 64-bit words g0, g1: the pieces [limb, word,
    # bit in the word, bits] in order, each limb's bits from its bit 0 up
    # (limb 4 keeps what lies above 2^128, the top word g2, at its bit 24).
    # split26 and join26 both follow it, so they cannot disagree.
    my @LAYOUT26 = ([0, 0, 0, 26], [1, 0, 26, 26], [2, 0, 52, 12], [2, 1, 0, 14],
                    [3, 1, 14, 26], [4, 1, 40, 24]);
    # 26-bit limbs @l of g0, g1 (and of the top word $top, <= 4, when given)
    my $split26 = sub {
        my ($top) = @_;
        my ($s, %at) = ('');                      # %at: bits of the limb so far
        for (@LAYOUT26) {
            my ($k, $w, $pos, $n) = @$_;
            my $lb = $at{$k} // 0;
            $s .= $lb ? "\tdins\t$l[$k],$g[$w],$lb,$n\n"
                : $pos + $n == 64 ? "\tdsrl\t$l[$k],$g[$w],$pos\n"
                :                   "\tdext\t$l[$k],$g[$w],$pos,$n\n";
            $at{$k} = $lb + $n;
        }
        $s .= "\tdins\t$l[4],$top,24,8\n" if defined $top;
        return $s;
    };
    # the inverse: g0, g1 and the top word g2 from limbs @l (< 2^26, l4 any)
    my $join26 = sub {
        my ($s, %at, %seen) = ('');               # %at: bits of the limb so far
        for (@LAYOUT26) {
            my ($k, $w, $pos, $n) = @$_;
            my $lb = $at{$k} // 0;
            $s .= $seen{$w}++ ? "\tdins\t$g[$w],$l[$k],$pos,$n\n"
                : $lb ? "\tdsrl\t$g[$w],$l[$k],$lb\n"
                :       "\tmove\t$g[$w],$l[$k]\n";
            $at{$k} = $lb + $n;
        }
        return $s . "\tdsrl\t$g[2],$l[4],24\n";
    };

    my %F = (r0 => $E[0], r1 => $E[1], r2 => $E[2], r3 => $E[3], r4 => $E[4],
             s1 => $H01, s2 => $H23, s3 => $T0, s4 => $T1);
    my $fillvec = sub { my ($c) = @_; return $F{$c->[0] . $c->[1]}; };
    my $dvec = sub { my ($c) = @_; return $c->[0] eq 'r' ? $D[$c->[1]] : $E[$c->[1]]; };

    my $s = "#if ASMC_MSA_AT_RUNTIME\n\t.set\tpush\n\t.set\tmsa\n\t.set\tfp=64\n"
          . func_head('poly1305_blocks_msa', $FS, 0) . <<___;
	$PTR_SRL	$nb,$end,4		# blocks (>= MSA_MIN: poly1305_blocks checked)
	$PTR_ADDI	\$sp,\$sp,-$FS
___
    $s .= $fpr->('sdc1');
    $s .= <<___;
	ldi.d	$MASK,-1
	srli.d	$MASK,$MASK,38		# 2^26 - 1 in both lanes
	ldi.d	$ZERO,0
	/* r in radix 2^26, 5 r_j, one word vector per value */
	ld	$g[0],$CTX{R}($ctx)
	ld	$g[1],@{[$CTX{R} + 8]}($ctx)
@{[ $split26->(undef) ]}@{[ join '', map { "\tfill.w\t$F{\"r$_\"},$l[$_]\n" } 0 .. 4 ]}@{[ join '', map { "\tlsa\t$x,$l[$_],$l[$_],2\n\tfill.w\t$F{\"s$_\"},$x\n" } 1 .. 4 ]}@{[ $build_r->($fillvec) ]}@{[ join '', map { "\tst.d\t$RV[$_]," . ($ROFF + 16 * $_) . "(\$sp)\n" } 0 .. 14 ]}	/* r^2 = r * r in both lanes */
	ilvev.w	$H01,$F{r1},$F{r0}
	ilvev.w	$H23,$F{r3},$F{r2}
	ilvev.w	$T2,$ZERO,$F{r4}
@{[ $mul->($T2) . $carry->() ]}@{[ join '', map { "\tslli.d\t$T2,$D[$_],2\n\taddv.d\t$E[$_],$D[$_],$T2\n" } 1 .. 4 ]}@{[ $build_r->($dvec) ]}	/* h: the pending fold, then radix 2^26 in lane A */
	ld	$g[2],@{[$CTX{H} + 16]}($ctx)
	ld	$g[0],$CTX{H}($ctx)
	ld	$g[1],@{[$CTX{H} + 8]}($ctx)
	dsrl	$x,$g[2],2
	andi	$g[2],$g[2],3
	dlsa	$x,$x,$x,2		# 5 * (h2 >> 2) < 2^64 (h2 < 2^63)
@{[ ripple('daddu', $x, 'h2 <= 4', @g) . $split26->($g[2]) ]}@{[ join '', map { "\tldi.d\t$D[$_],0\n\tinsert.w\t$D[$_]\[0],$l[$_]\n" } 0 .. 4 ]}	lui	$x,0x100		# padbit * 2^24 in both lanes
	fill.w	$T0,$x
	ilvev.w	$PADV,$ZERO,$T0
	/* end of the pairs before the last one */
	$PTR_SRL	$x,$nb,1
	$PTR_ADDI	$x,$x,-1
	$PTR_SLL	$x,$x,5
	$PTR_ADD	$end,$inp,$x
.Lpoly1305_msa_loop:
# LLVM-MCA-BEGIN poly1305_blocks64_msa
# LLVM-MCA-UNITS 32 bytes
@{[ $body->() ]}# LLVM-MCA-END
	bnec	$inp,$end,.Lpoly1305_msa_loop
	/* last pair: lane B by r (the stored R), lane A by r^2 */
@{[ join '', map { "\tld.d\t$T0," . ($ROFF + 16 * $_) . "(\$sp)\n\tilvev.d\t$RV[$_],$T0,$RV[$_]\n" } 0 .. 14 ]}@{[ $body->() ]}	/* h = A + B, back to the scalar layout */
___
    for my $k (0 .. 4) {
        $s .= "\tcopy_s.w\t$x,$D[$k]\[0]\n\tcopy_s.w\t$y,$D[$k]\[2]\n\taddu\t$l[$k],$x,$y\n";
    }
    for my $k (0 .. 3) {
        $s .= "\tsrl\t$x,$l[$k],26\n\text\t$l[$k],$l[$k],0,26\n\taddu\t$l[$k + 1],$l[$k + 1],$x\n";
    }
    $s .= <<___;
@{[ $join26->() . ctx_words('sd', $ctx, 8, @g) . $fpr->('ldc1') ]}	$PTR_ADDI	\$sp,\$sp,$FS
	andi	$nb,$nb,1
	beqzc	$nb,.Lpoly1305_msa_ret
	li	$end,16			# the odd last block: the scalar code
	bc	.Lpoly1305_blocks_r6
.Lpoly1305_msa_ret:
	jrc	\$31
@{[ func_end('poly1305_blocks_msa') ]}	.set	pop
#endif
___
    $CODE_MSA = $s;
}

# init --------------------------------------------------------------------
# The key halves are two 64-bit loads where that is cheap, and the clamp
# two ands with 0x0ffffffc0fffffff / 0x0ffffffc0ffffffc (issue 13: every
# call of the one-shot API runs init; 19 instructions instead of 50 on
# R2 little-endian):
#   pre-R6 (not pre-R2 big-endian)  ldl/ldr (+ dsbh/dshd on big-endian)
#   R6                              ld when the key is 8-byte aligned (a
#                                   public property of the pointer), else
#                                   bytes; no unaligned ld (the kernel may
#                                   emulate it)
#   pre-R2 big-endian               bytes, clamped 32 bits at a time
{
    my ($key) = ('$5');
    my ($w, $x, $y, $m) = ('$8', '$9', '$10', '$11');
    my ($lo32, $hi32) = ('$24', '$25');
    my ($b1, $b2) = ('$2', '$3');       # R6 byte path scratch
    my $swap = bswap64('# ', $x, $w);
    my $s = func_head('poly1305_init', 0, 1) . init_entry('sd', 8, 3, $key, $m);
    $s .= "#if ASMC_ISA_REV >= 6\n";
    $s .= "\tandi\t$y,$key,7\n\tbnez\t$y,.Linit_bytes\n";
    $s .= "\txori\t$y,$m,3\t\t\t# (delay slot) 0x0ffffffc\n";
    $s .= "\tld\t$x,0($key)\n\tld\t$w,8($key)\n$swap";
    $s .= ".Linit_clamp:\n";
    $s .= "#elif !(defined(__MIPSEB__) && ASMC_ISA_REV < 2)\n";
    $s .= "\tldl\t$x,0+MSB($key)\n\tldr\t$x,0+LSB($key)\n";
    $s .= "\tldl\t$w,8+MSB($key)\n\tldr\t$w,8+LSB($key)\n$swap";
    $s .= "\txori\t$y,$m,3\t\t\t# 0x0ffffffc\n";
    $s .= "#endif\n";
    $s .= "#if ASMC_ISA_REV >= 6 || !(defined(__MIPSEB__) && ASMC_ISA_REV < 2)\n";
    $s .= <<___;
	dsll32	$y,$y,0
	or	$y,$y,$m		# 0x0ffffffc0fffffff
	and	$x,$x,$y		# r0
	xori	$y,$y,3			# 0x0ffffffc0ffffffc
	and	$w,$w,$y		# r1
	sd	$x,$CTX{R}($ctx)
	sd	$w,@{[$CTX{R} + 8]}($ctx)
___
    $s .= "#else\n";
    for my $i (0 .. 3) {
        my $d = $i & 1 ? $hi32 : $lo32;
        $s .= clamped_key_word($d, $key, $i, $x, $y, $m);
        if ($i & 1) {
            $s .= "\tdsll32\t$hi32,$hi32,0\n\tor\t$w,$lo32,$hi32\n";
            $s .= "\tsd\t$w,".($CTX{R} + 8 * ($i >> 1))."($ctx)\n";
        }
    }
    $s .= "#endif\n";
    $s .= <<___;
	dsrl	$x,$w,2
	daddu	$x,$x,$w		# s1 = r1 + (r1 >> 2)
	sd	$x,$CTX{S1}($ctx)
.Linit_done:
	jr	\$31
	move	$RET,\$0
___
    # R6, key not 8-byte aligned: the two little-endian words from bytes
    # (unclamped), then the clamp above
    $s .= "#if ASMC_ISA_REV >= 6\n.Linit_bytes:\n";
    for my $i (0, 1) {
        my $d = $i ? $w : $x;
        $s .= load_le32_bytes($lo32, $key, 8 * $i, $b1, $b2);
        $s .= load_le32_bytes($hi32, $key, 8 * $i + 4, $b1, $b2);
        $s .= "\tdsll32\t$hi32,$hi32,0\n\tor\t$d,$lo32,$hi32\n";
    }
    $s .= "\tb\t.Linit_clamp\n\txori\t$y,$m,3\t\t\t# (delay slot) 0x0ffffffc\n#endif\n";
    $code .= $s . func_end('poly1305_init');
}

$code .= "#if ASMC_ISA_REV >= 6\n";
$code .= blocks64('poly1305_blocks', 1) . $CODE_MSA;
$code .= "#else\n";
$code .= blocks64('poly1305_blocks', 0);
$code .= "#endif\n";

# emit --------------------------------------------------------------------
{
    my ($mac, $nonce) = ('$5', '$6');
    my ($g0, $g1, $g2, $msk, $n0, $n1, $tt) = ('$9', '$10', '$11', '$12', '$13', '$14', '$15');
    my ($pro, $epi, $fs) = frame(0, $msk, $n0, $n1, $tt);    # NUBI only
    my $s = func_head('poly1305_emit', $fs, 1) . <<___;
$pro	ld	$h2,@{[$CTX{H} + 16]}($ctx)
	ld	$h0,@{[$CTX{H}]}($ctx)
	ld	$h1,@{[$CTX{H} + 8]}($ctx)
	dsrl	$c,$h2,2		# pending fold
	andi	$tt,$h2,3
	dsubu	$h2,$h2,$tt
	daddu	$c,$c,$h2
	move	$h2,$tt
@{[ ripple('daddu', $c, 'h2 <= 4', $h0, $h1, $h2)
  . plus5('daddu', 'daddiu', $c, [$g0, $g1, $g2], [$h0, $h1, $h2]) ]}	dsrl	$g2,$g2,2		# 1 iff h >= p
	dsubu	$msk,\$0,$g2
@{[ select_g($msk, [$g0, $g1], [$h0, $h1]) ]}#if ASMC_ISA_REV < 6 && !(defined(__MIPSEB__) && ASMC_ISA_REV < 2)
	ldl	$n0,0+MSB($nonce)	# nonce words 0,1 and 2,3 (4-byte aligned)
	ldr	$n0,0+LSB($nonce)
	ldl	$n1,8+MSB($nonce)
	ldr	$n1,8+LSB($nonce)
# ifdef __MIPSEB__
	drotr	$n0,$n0,32		# word 0 low, word 1 high (drotr32)
	drotr	$n1,$n1,32
# endif
#else
	lwu	$n0,0($nonce)
	lwu	$tt,4($nonce)
	lwu	$n1,8($nonce)
	lwu	$g2,12($nonce)
	dsll32	$tt,$tt,0
	or	$n0,$n0,$tt
	dsll32	$g2,$g2,0
	or	$n1,$n1,$g2
#endif
	daddu	$h0,$h0,$n0
	sltu	$c,$h0,$n0
	daddu	$h1,$h1,$n1
	daddu	$h1,$h1,$c
___
    # the tag: sdl/sdr pairs where they and a byte swap exist (issue 13:
    # 4 or 8 instructions instead of 31), on R6 two sd when mac is 8-byte
    # aligned (public), else byte stores
    my $swap = bswap64('# ', $h0, $h1);
    my $bytes = '';
    for my $i (0 .. 15) {
        my $src = $i < 8 ? $h0 : $h1;
        my $sh = 8 * ($i % 8);
        if ($sh == 0) { $bytes .= "\tsb\t$src,$i($mac)\n" }
        elsif ($sh < 32) { $bytes .= "\tdsrl\t$tt,$src,$sh\n\tsb\t$tt,$i($mac)\n" }
        else { $bytes .= "\tdsrl32\t$tt,$src,".($sh-32)."\n\tsb\t$tt,$i($mac)\n" }
    }
    my $ret = sub { ret_after_stores($_[0], $epi, $fs) };
    $s .= "#if ASMC_ISA_REV >= 6\n";
    $s .= "\tandi\t$tt,$mac,7\n\tbnez\t$tt,.Lemit_bytes\n\tnop\n$swap";
    $s .= $ret->("\tsd\t$h0,0($mac)\n\tsd\t$h1,8($mac)\n");
    $s .= ".Lemit_bytes:\n" . $ret->($bytes);
    $s .= "#elif !(defined(__MIPSEB__) && ASMC_ISA_REV < 2)\n$swap";
    $s .= $ret->("\tsdl\t$h0,0+MSB($mac)\n\tsdr\t$h0,0+LSB($mac)\n"
               . "\tsdl\t$h1,8+MSB($mac)\n\tsdr\t$h1,8+LSB($mac)\n");
    $s .= "#else\n" . $ret->($bytes) . "#endif\n";
    $code .= $s . func_end('poly1305_emit');
}

}

$code .= <<'___';
	.section .note.GNU-stack,"",@progbits
___

if (defined $output) {
    open my $out, '>', $output or die "$output: $!\n";
    print $out $code;
    close $out or die "$output: $!\n";
} else {
    print $code;
}
