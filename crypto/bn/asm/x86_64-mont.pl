#!/usr/bin/env perl
# crypto/bn/asm/x86_64-mont.pl - Montgomery multiplication for x86_64.
#
# Usage: perl crypto/bn/asm/x86_64-mont.pl FLAVOUR OUT.S
#        FLAVOUR: elf | macosx | mingw64 (see perlasm/x86_64-xlate.pl)
#        OpenSSL's perlasm command line works too (FLAVOUR first, OUT.S
#        last, options between); -DASMCRYPT_OPENSSL there generates for
#        OpenSSL (below).  The .S must be run through the C preprocessor.
#
# Defines (cpp, when the .S is compiled; each only if not set already):
#   ASMCRYPT_CAPWORD            capability word array read at run time
#                               (default asmcrypt_cpucap, hidden)
#   ASMCRYPT_CAPBIT_X86_BMI2, _ADX, _AVX512F, _AVX512IFMA
#                               bit numbers in it (defaults: the bits of
#                               include/asmcrypt/cpu.h; -1 = take the
#                               compiler's __BMI2__ etc. instead)
#   ASMCRYPT_OPENSSL            OpenSSL build: OPENSSL_ia32cap_P with
#                               OpenSSL's bit numbers (72, 83, 80, 85), and
#                               num up to 512 (OpenSSL's BN_SOFT_LIMIT; the
#                               perl command line must carry the define
#                               too, the .S checks that).  Replaces
#                               OpenSSL's crypto/bn/asm/x86_64-mont.pl
#                               (bn_mul_mont); x86_64-mont5.pl stays and
#                               still provides bn_sqr8x_internal etc.
#
# int bn_mul_mont(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
#                 const BN_ULONG *np, const BN_ULONG *n0, int num);
#
#   rp = ap*bp*2^(-64*num) mod np, for ap, bp < np, np odd, n0[0] =
#   -np[0]^-1 mod 2^64 (only n0[0] is read).  Returns 1, or 0 (nothing
#   written) when num < 1 or num > MAXW (128 words = 8192 bits, the
#   library's limit; the caller then uses the C reference).  rp may alias
#   ap and/or bp.  Constant time: no branch or address depends on ap/bp.
#   The stack temporary is wiped before returning.
#
# Paths (chosen per call from num, ap == bp and asmcrypt_cpucap):
#
#   mulq   every x86_64.  Word-serial CIOS: for each b[i] one pass over j
#          computes t[j-1] = t[j] + a[j]*b[i] + n[j]*m + carries, with
#          m = (t[0] + a[0]*b[i])*n0 from a peeled j = 0.
#   mulx   BMI2+ADX.  Two passes per b[i] over the temporary t (n words +
#          a top word in a register):
#            pass 1  t += a*b[i]       mulx a[j]; adcx (hi_{j-1}) on CF;
#                                      adox t[j] on OF
#            pass 2  t = (t + n*m)/2^64  same, storing word j at t[j-1]
#          Each pass is one mulx + two 1-cycle carry chains per limb.
#   sqrx   BMI2+ADX and ap == bp.  Squaring first, then a separate
#          reduction: the n(n-1)/2 cross products a[i]*a[j] (i<j) are
#          accumulated row by row into a 2n-word t, t is doubled and the
#          squares a[i]^2 are added in one pass (CF chain doubles, OF chain
#          adds), then n reduction passes t[i..i+n] += n*m_i, the carry
#          out of each pass being added at the top of the next one.
#          n(n+1)/2 + n^2 products instead of 2n^2.  For num % 8 == 0
#          the cross products and the reduction run in eight-row blocks
#          (below): the "sqr8" variant, which has no doubling pass: its
#          rows multiply by the doubled words d[i] = 2a[i] + (a[i-1] >> 63)
#          mod 2^64, and the diagonal terms a[i]^2 + (a[i-1] >> 63) a[i]
#          go into the triangle of each block (see sqr8 below).
#   mulx2  BMI2+ADX, ap != bp and num % 8 == 0: the full product a*b, then
#          the same block reduction (n^2 + n^2 products, all of them in the
#          register window).
#   s8/m8  num == 8 (512 bits) with BMI2+ADX, a*a and a*b: the sqr8 and
#          mulx2 schemes with their one block unrolled and the ring
#          renamed by the generator (no counters, no restoring movs, the
#          d/X words and the m in registers), a straight-line final
#          subtraction; bn_mont_sqrn_x86_64 runs its squarings there too.
#
#   Eight-row blocks (sqr8 / mulx2 / their reduction): for eight
#   multipliers M[0..7] (b words, a words, or the m_i of eight reduction
#   rows) a window of nine registers holds the words of t at weights
#   r .. r+8 while M[r] sweeps eight words of the other operand: per
#   product one mulx, one adox (low half, weight r+j) and one adcx (high
#   half, weight r+j+1); the ninth word starts at zero, so the sum of a
#   sweep cannot leave the window and both carry chains end empty (the
#   last product's OF goes into its high half before that is added to the
#   top).  The sweep also adds the old t word of its lowest weight on the
#   CF chain (the sum still fits: 8 words + 1 word + M*8 words < 2^576), so
#   after sweep r the lowest word is final and is stored; the register
#   becomes the next sweep's top.  t is read and written once per eight
#   products instead of once per product, and the loop-carried memory
#   dependence between rows disappears.  In the reduction the first chunk
#   computes each m_r = W[r] n0 from the window as sweep r starts (one
#   imul).  Until 2026-12-07 they came two at a time, (m_r, m_{r+1}) =
#   (W[r], W[r+1]) * (-n^-1 mod 2^128) mod 2^128, so that m_{r+1} did not
#   wait for sweep r: -2.5% a*a, -1.6% a*b at 1024 bits on the Zen 5 VM,
#   which issues two mulx a cycle; but three multiplies per pair instead
#   of two, and on the Zen 3 VM (one mulx a cycle, like every MULX core
#   without IFMA we know of) one at a time is the faster (1-4% a window
#   at 512 and 1024 bits; docs/perf/x86_64-bn.md, 2026-12-07).
#
#   All inner loops are unrolled four times and entered Duff-style, so every
#   num works without a remainder loop: %rcx runs from -(count rounded up to
#   a multiple of 4) to 0 over pointers to the end of each array, the first
#   iteration entering at slot (-count)&3, and the loop is closed by lea +
#   jrcxz, which leave CF and OF intact.  The two high-word registers of
#   the mulx loops alternate between slots and are both zeroed at entry.
#
#   The result is t (< 2np, n words + a top bit); r = t - np is written to
#   rp, and a mask from the top bit and the borrow selects t or t - np word
#   by word (for the block paths eight words per iteration, the select a
#   cmovc on that borrow).
#
#   ifma   AVX-512F + AVX512-IFMA, 16 <= num <= 64 (1024..4096 bits; but
#          ap == bp, num = 16 goes to sqr8 when BMI2+ADX are there): the
#          operands go to radix 2^52 (a shifted left by d = 52lp - 64num
#          bits, lp = ceil((64num+1)/52)), are multiplied by the radix-2^52
#          almost-Montgomery product bn_amm52_x86_64 (R = 2^(52lp), so the
#          result is a*b/2^(64num) mod n, < 2n) and come back to radix 2^64
#          for the common final subtraction.
#
# Also here, for crypto/bn/bn_exp_x86_64.c: bn_amm52_x86_64 (described at
# its code), bn_mont_sqrn_x86_64 (a modexp window's squarings in one call
# on the sqr8 path, at its code), bn_gather52_x86_64 (AVX-512) and
# bn_gather64_avx2_x86_64 (AVX2) (constant-time table reads).
#
# Performance, estimated core cycles per call, apps/speed -q -r 9 mont
# (AMD EPYC family 26 model 2 = Zen 5 VM, "Oxide Virtual Turin-like
# Processor"; OpenSSL 3.0.22 BN_mod_mul_montgomery in the same run; the
# runs, their dates and commits, and the Zen 4 figures are in
# docs/perf/x86_64-bn.md).  "mulx" is the MULX column (ASMCRYPT_CAP
# without IFMA): mulx2 / sqr8 for these sizes (num % 8 == 0); in brackets
# the interleaved mulx / sqrx paths they replace, from an earlier run.
#
#   bits          512    1024   2048   3072   4096
#   a*b ifma       -      720   1290   2325   3439
#   a*b mulx2     234     750   2716   5901  10349
#                (306)   (970) (3307) (7159)(13413)
#   a*b mulq      299    1007   3806   8333  14673
#   a*b C ref     436    1476   5412  11830  21057
#   a*b OpenSSL   236     830   3264   7217  12751
#   a*a ifma       -      650*  1293   2341   3438
#   a*a sqr8      228     648   2202   4677   8064
#                (395)  (1042) (3285) (6419)(11591)
#   a*a OpenSSL   198     633   2279   5002   8752
#   (* num 16, a == b runs sqr8 when BMI2+ADX are present)
#
# Zen 4 (AMD EPYC family 25 model 17 VM), ASMCRYPT_CAP=ff, est. core cycles
# per call, medians of three apps/speed -q -r 7 runs alternated with the
# build of the previous code (docs/perf/x86_64-bn.md, 2026-12-04); in
# brackets that previous code (commit 336a70e):
#
#   bits          512    1024   2048   3072   4096
#   a*b mulx2     250     823   3028   6662  11720
#                (275)   (940) (3456) (7578)(13299)
#   a*b OpenSSL   281     963   3591   8003  14053
#   a*a sqr8      217     676   2396   5203   9067
#                (260)   (794) (2762) (5935)(10320)
#   a*a OpenSSL   224     722   2571   5628   9871
#
# Zen 5 again (the first table's VM), 2026-12-06, this code (m in pairs,
# no zeroing of t) at ASMCRYPT_CAP=ff, two apps/speed -q -r 9 mont_mul
# mont_sqr runs (est. core cycles per call, the first run; the second
# within 1%); in brackets the code before those two steps, same day:
#
#   bits          512    1024   2048   3072   4096
#   a*b mulx2     210     673   2424   5307   9311
#                (215)   (691) (2464) (5388) (9389)
#   a*b OpenSSL   233     824   3237   7202  12741
#   a*a sqr8      184     561   1947   4168   7229
#                (189)   (584) (1978) (4216) (7306)
#   a*a OpenSSL   194     628   2272   4995   8749
#
# and the modexp over it (bn_exp_x86_64.c: a window's five squarings are
# one bn_mont_sqrn_x86_64 call), OpenSSL's time / ours, four alternating
# apps/speed -q -r 9 mod_exp runs (docs/perf/x86_64-bn.md, 2026-12-06):
#
#   bits                   512    1024   2048   3072   4096
#   MULX (CAP=ff)         0.84   1.12   1.20   1.22   1.24
#   all caps (IFMA)       0.84*  1.40   2.12   2.16   2.36
#   (* 512 bits runs the MULX path at every level: mulx_wins)
#
# 512 bits (2026-12-06, same VM): the straight-line s8 / m8 code, the
# gather in four chains and a whole window in one call
# (bn_mont_sqrn_mul_x86_64).  Per squaring 672 -> 525 instructions (qemu
# plugin on bn_mont_sqrn_x86_64, count 11 - count 1, over 10); one 512-bit
# asmcrypt_mod_exp 513647 -> 405209 instructions (qemu -cpu max, plugin
# on asmcrypt_mod_exp).  Est. core cycles per call and ours / OpenSSL's
# time (ASMCRYPT_CAP=ff apps/speed -q -r 9 mont_mul mont_sqr, two runs of
# each build): a*b 210 -> 176 (0.90 -> 0.70-0.76), a*a 185 -> 153 (0.95
# -> 0.77-0.79).  The modexp, OpenSSL's time / ours, three alternating
# runs of each build of apps/speed -q -r 9 mod_exp (CAP=ff; and all
# capabilities, where 512 bits also runs this path):
#
#   bits              before (48e2ed7)     after
#   512  MULX         0.826-0.867          1.066-1.102 (median 1.081)
#   512  all caps     0.836-0.870          1.066-1.079
#   1024 MULX         1.140-1.156          1.165-1.172
#
# 2026-12-07: the first sweep of a product writes the empty window, the
# reduction's sweep 0 adds t from the frame, and the squarings of a
# window end almost reduced (t - n only when t >= 2^512).  Per squaring of
# bn_mont_sqrn_mul_x86_64 526 -> 494 instructions (501 with the full
# step); one 512-bit modexp 405261 -> 385497.  Time: unchanged on an idle
# core (OpenSSL's time / ours 1.070-1.085 against 1.072-1.090 before;
# in-process A/B 0.995-1.001), 0.974-0.978 of the old time when the other
# vCPU is busy.  A step (about 140 core cycles) is bound by neither the
# multiplier (two mulx per cycle here) nor the m chain (docs/perf/
# x86_64-bn.md, 2026-12-07).
#
# Zen 3 (AMD EPYC family 25 model 1 VM, no AVX-512), 2026-12-07.  Est.
# core cycles per call, apps/speed -q -r 9 -t 0.1 mont, and OpenSSL's time
# / ours for the modexp (ASMCRYPT_CAP=ff apps/speed -q -r 9 mod_exp, three
# runs alternating the two builds); "before" is 4aba305, "now" this code
# (one m per imul instead of pairs, the windows' squarings almost reduced
# on the block paths, the 16-word AVX2 gather; docs/perf/x86_64-bn.md):
#
#   bits              512    1024   2048   3072   4096
#   a*b mulx2 before  223     891   3094   6751  11818
#   a*b mulx2 now     219     839   3069   6710  11776
#   a*b OpenSSL       288     970   3616   8019  14119
#   a*a sqr8 before   197     749   2445   5254     -
#   a*a sqr8 now      188     692   2452   5243  10522
#   a*a OpenSSL       227     728   2580   5630  12083
#   modexp before    0.96   1.06   1.09-1.10  1.10  1.10-1.11
#   modexp now       0.97   1.11   1.11-1.12  1.12  1.12-1.14
#
# There mulx issues one per cycle (a microbenchmark of independent mulx:
# 1.0 core cycle each; mulx + adox + adcx, 1.24 per product), so the
# multiplies set the floor (408 in a 1024-bit squaring, the same count as
# OpenSSL's sqr8x), and the m pairs' third multiply costs more than the
# latency it hides.  The 1024-bit a*a cell moves between runs of one
# binary (692 here, 746 in another run): the VM's host shares the core,
# and in busy minutes this multiplier-bound code loses more than
# OpenSSL's (docs/perf/x86_64-bn.md); the table is from quiet minutes.
# 512 bits still loses to RSAZ-512.
#
use strict;
use warnings;

# Arguments: [FLAVOUR] [anything ...] [OUT.S], OpenSSL's perlasm command
# line included (docs/adding-a-module.md, "The script's command line").
my @args = @ARGV;
my $output  = (@args && $args[-1] =~ /\.\w+$/) ? pop @args : undef;
my $flavour = (@args && $args[0] !~ /^-|\./) ? shift @args : 'elf';
# -DASMCRYPT_OPENSSL on the perl command line (OpenSSL passes its build.info
# DEFINEs there): generate for OpenSSL's limits (see MAXW below).
my $openssl = grep { $_ eq '-DASMCRYPT_OPENSSL' } @args;
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
#                               bit numbers (BMI2 72, ADX 83, AVX512F 80,
#                               AVX512IFMA 85; [2] = CPUID.7.0:EBX)
# Each is set only where not defined already (a -D on the command line wins).
my %CAPBIT_DEFAULT = (          # include/asmcrypt/cpu.h, ASMCRYPT_CAP_X86_*
    BMI2 => 1, ADX => 2, AVX512F => 5, AVX512IFMA => 8,
);
my %CAPBIT_OPENSSL = (BMI2 => 72, ADX => 83, AVX512F => 80, AVX512IFMA => 85);
my %CAPBIT_ISA = (BMI2 => '__BMI2__', ADX => '__ADX__',
                  AVX512F => '__AVX512F__', AVX512IFMA => '__AVX512IFMA__');

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
# The mulx/sqrx/mulx2 paths need BMI2 and ADX, the ifma path AVX-512F,
# AVX512-IFMA and BMI2 (bn_amm52_int's scalar m chain is a mulx).
my @CAP_MULX = qw(BMI2 ADX);
my @CAP_IFMA = qw(BMI2 AVX512F AVX512IFMA);

# Largest num taken (bigger: return 0): the library's limit, 128 words =
# 8192 bits.  Generated for OpenSSL (-DASMCRYPT_OPENSSL on the perl command
# line) it is OpenSSL's BN_SOFT_LIMIT, 512 words: OpenSSL's constant-time
# modexp calls bn_mul_mont up to that size without checking the result.
# The stack frame grows with it (8.5 KiB instead of 2.9 KiB).
my $MAXW = $openssl ? 512 : 128;
die "x86_64-mont.pl: OpenSSL mode on mingw64 would need stack probes for its 8.5 KiB frame\n"
    if $openssl && $flavour eq 'mingw64';
my $AMM_MAXK = 20;             # bn_amm52_x86_64: up to 20 zmm = 160 limbs
my $SQR_MIN = 2;                # sqrx for ap == bp and num >= this

# Frame: $SCAL bytes of scalars (the block paths keep their eight
# multipliers, a carry and counters there), then t[-1], t[0 .. 2*MAXW]
# aligned to 64.
# IFMA path of bn_mul_mont (num <= $IFMA_MAXW): three 80-limb radix-2^52
# operands and an 80-word scratch P in the same area.
my $IFMA_MAXW = 64;
my $IFMA_MINW = 16;
# ap == bp with MULX: IFMA only from this num (at 1024 bits the sqr8 path
# measured 647 cycles against IFMA's 721, apps/speed mont_sqr)
my $IFMA_SQR_MINW = 24;
my $TWORDS = 2 * $MAXW + 2 > 4 * 80 + 1 ? 2 * $MAXW + 2 : 4 * 80 + 1;
my $SCAL = 320;
my $FRAME = $SCAL + 8 + 63 + 8 * $TWORDS;
# bn_mul_mont and bn_mont_sqrn_x86_64 build the same frame (the second runs
# the first's sqr8 code, its epilogue included), so both take these options.
my $MONT_FRAME = "nargs=6, push=rbx:rbp:r12:r13:r14:r15, frame=$FRAME, xmm";
my ($S_RP, $S_BP, $S_BPEND, $S_T, $S_WIPE, $S_AP, $S_NP, $S_N0, $S_KL, $S_G, $S_D, $S_N, $S_K)
    = map { "$_(%rsp)" } (0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96);
# sqrx block reduction (num % 8 == 0): the eight m of a block, the carry
# between blocks, the saved np end / num / n0 and two counters.
my @S_M = map { (128 + 8 * $_) . "(%rsp)" } 0 .. 7;
my ($S_CB, $S_NPE, $S_NUM, $S_N0B, $S_BLK, $S_CHK, $S_TP)
    = map { "$_(%rsp)" } (192, 200, 208, 216, 224, 232, 240);
# sqr8: the top bit of the word below the block (0 / -1) and the eight
# diagonal corrections X_r of a block (see sqr8)
my $S_C = '248(%rsp)';
# squarings left in a bn_mont_sqrn_x86_64 call (1 on every bn_mul_mont
# block path: .Lmont_final8 counts it down)
my $S_CNT = '104(%rsp)';
# bn_mont_sqrn_mul_x86_64: the multiplier b of its last step (0 for
# bn_mont_sqrn_x86_64; read only after a step that leaves $S_CNT above 0,
# which bn_mul_mont's never does)
my $S_MB = '120(%rsp)';
my @S_X = map { (256 + 8 * $_) . "(%rsp)" } 0 .. 7;
# Wipe @S_M and @S_X (the block paths' multipliers and diagonal terms, the
# s8/m8 words of t): words of a and of the product.  Clobbers %xmm0.
my $wipe_mx = "\tpxor\t%xmm0,%xmm0\n"
    . join('', map { "\tmovups\t%xmm0,$_(%rsp)\n" } 128, 144, 160, 176, 256, 272, 288, 304);

# Register map (both multiplication paths agree on these):
my $ape  = '%rsi';              # ap + 8n
my $npe  = '%rbp';              # np + 8n
my $te   = '%rdi';              # &t[n] (end of the n-word temporary)
my $n0   = '%r8';               # n0[0]
my $num  = '%r9';               # n
my $tn   = '%r14';              # top word of t (0/1 between rows)
my $zero = '%rbx';              # 0 (mulx paths)
# mulx loops: lo %r10/%r11, hi %r12/%r13, spare %r15
my @lo = ('%r10', '%r11');
my @hi = ('%r12', '%r13');

my $code = '';

# Duff entry into the 4-slot loop ${pfx}_0.._3: in %rcx = -count (count >
# 0); out %rcx = -(count rounded up to 4); runs $clear (which must leave
# the flags the loop needs) and enters slot (count)&3 from the end.
# Clobbers %eax.  Only public values (num) decide these branches.
sub duff_from_rcx {
    my ($pfx, $clear) = @_;
    chomp $clear;
    return <<___;
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

# 4-slot loop; $body->($k) is slot k (operands k*8(base,%rcx,8)).
sub duff_loop {
    my ($pfx, $name, $body) = @_;
    my $s = "# LLVM-MCA-BEGIN $name\n";
    $s .= "${pfx}_$_:\n" . $body->($_) for 0 .. 3;
    $s .= <<___;
	leaq	4(%rcx),%rcx
	jrcxz	${pfx}_done
	jmp	${pfx}_0
# LLVM-MCA-END
${pfx}_done:
___
    return $s;
}

# One mulx slot: t-row accumulate.  $src is the multiplicand array end
# pointer, $dst_off the displacement of the stored word (0 for pass 1,
# -8 for the shifting reduction pass), $tb the t base pointer.
sub mulx_slot {
    my ($k, $src, $tb, $dst_off) = @_;
    my ($l, $h, $ph) = ($lo[$k % 2], $hi[$k % 2], $hi[($k + 1) % 2]);
    my $o = 8 * $k;
    my $d = $o + $dst_off;
    return <<___;
	mulx	$o($src,%rcx,8),$l,$h
	adcx	$ph,$l
	adox	$o($tb,%rcx,8),$l
	movq	$l,$d($tb,%rcx,8)
___
}

my $clear_hi = <<___;
	xorl	$hi[0]d,$hi[0]d
	xorl	$hi[1]d,$hi[1]d
___

# The stack slot $slot (a pointer) advanced by $n bytes, through %rax.
sub slot_add {
    my ($slot, $n) = @_;
    return "\tmovq\t$slot,%rax\n\tleaq\t$n(%rax),%rax\n\tmovq\t%rax,$slot\n";
}

# One mulx row (the mulx and sqrx paths) over the $cnt words ending at
# $src: %rcx = -$cnt, Duff entry with hi cleared, then the loop $lbl
# (llvm-mca region $mca) adding rdx times the words at $src into the
# words at $dst + $off.
sub mulx_row {
    my ($lbl, $mca, $cnt, $src, $dst, $off) = @_;
    return "\tmovq\t$cnt,%rcx\n\tnegq\t%rcx\n"
         . duff_from_rcx($lbl, $clear_hi)
         . duff_loop($lbl, $mca, sub { mulx_slot(shift, $src, $dst, $off) });
}

# Zero 4-word blocks with 16-byte SSE2 stores (baseline x86_64): $p is a
# 16-byte aligned pointer register (advanced past the blocks), $cnt a
# register holding the block count (> 0; counted down to 0).  Clobbers
# %xmm0 and the flags.  Used for t (64-byte aligned; the frame has room
# for the rounding up) and for the wipe.
sub zero_blocks {
    my ($pfx, $p, $cnt) = @_;
    return <<___;
	pxor	%xmm0,%xmm0
${pfx}:
	movaps	%xmm0,($p)
	movaps	%xmm0,16($p)
	leaq	32($p),$p
	decq	$cnt
	jnz	${pfx}
___
}

# Zero t[0 .. n-1] (rounded up to 4 words); uses %rax, %rcx, %xmm0.
my $zero_t = <<___;
	movq	$S_T,%rax
	leaq	3($num),%rcx
	shrq	\$2,%rcx
___

# ---------------------------------------------------------------------------
$code .= capword_cpp();
$code .= <<___ if $openssl;
#ifndef ASMCRYPT_OPENSSL
# error "generated for OpenSSL (-DASMCRYPT_OPENSSL on the perl command line); assemble with -DASMCRYPT_OPENSSL"
#endif
___
$code .= <<___ unless $openssl;
#ifdef ASMCRYPT_OPENSSL
# error "for OpenSSL, generate with -DASMCRYPT_OPENSSL on the perl command line too (num up to 512)"
#endif
___
$code .= <<___;
.asm_extern	ASMCRYPT_CAPWORD
.asm_text
.asm_func bn_mul_mont, $MONT_FRAME
	xorl	%eax,%eax
	cmpl	\$1,%r9d
	jl	.Lmont_ret
	cmpl	\$$MAXW,%r9d
	jg	.Lmont_ret
	movslq	%r9d,$num
	movq	($n0),$n0
	movq	%rdi,$S_RP
	movq	%rsi,$S_AP
	movq	%rdx,$S_BP
	leaq	(%rdx,$num,8),%rax
	movq	%rax,$S_BPEND
	leaq	(%rcx,$num,8),$npe
	leaq	($ape,$num,8),$ape
	leaq	$SCAL+8+63(%rsp),%rax
	andq	\$-64,%rax
	movq	%rax,$S_T
	leaq	(%rax,$num,8),$te
	leaq	1($num),%r10
	movq	%r10,$S_WIPE
	xorl	${tn}d,${tn}d
	xorl	%ebx,%ebx
@{[cap_require('.Lmont_no_ifma', @CAP_IFMA)]}	cmpq	\$$IFMA_MINW,$num
	jb	.Lmont_no_ifma
	cmpq	\$$IFMA_MAXW,$num
	ja	.Lmont_no_ifma
	cmpq	\$$IFMA_SQR_MINW,$num	# a*a below this size: sqr8 beats IFMA
	jae	.Lmont_ifma
	cmpq	%rdx,$S_AP
	jne	.Lmont_ifma
	testq	\$7,$num
	jnz	.Lmont_ifma
@{[cap_require('.Lmont_ifma', @CAP_MULX)]}.Lmont_no_ifma:
@{[cap_require('.Lmont_q', @CAP_MULX)]}	cmpq	%rdx,$S_AP
	jne	.Lmont_x_sel
	cmpq	\$$SQR_MIN,$num
	jae	.Lmont_sqrx
	jmp	.Lmont_x
.Lmont_x_sel:
	cmpq	\$8,$num
	je	.Lmont_m8
	testq	\$7,$num
	jz	.Lmont_x2
	jmp	.Lmont_x

___
$code =~ s/\$\{tn\}d/%r14d/g;
# (the 'movq ($n0),$n0' above loads n0[0] through the pointer argument)

# ---------------------------------------------------------------------------
# mulq path.  Registers: %rbx = b[i], %r15 = m, %r10 = carry of the a*b
# chain, %r11 = carry of the n*m chain, %r12 = scratch sum, %r13 = -n.
{
    my ($bi, $m, $c1, $c2, $s, $mn) = ('%rbx', '%r15', '%r10', '%r11', '%r12', '%r13');
    $code .= <<___;
.Lmont_q:
	movq	$num,$mn
	negq	$mn
$zero_t@{[zero_blocks('.Lmont_q_zero', '%rax', '%rcx')]}.Lmont_q_outer:
	movq	$S_BP,%rax
	movq	(%rax),$bi
	leaq	8(%rax),%rax
	movq	%rax,$S_BP
	movq	($ape,$mn,8),%rax	# j = 0: m = (t[0] + a[0]*b[i])*n0
	mulq	$bi
	addq	($te,$mn,8),%rax
	adcq	\$0,%rdx
	movq	%rdx,$c1
	movq	%rax,$s
	movq	%rax,$m
	imulq	$n0,$m
	movq	($npe,$mn,8),%rax
	mulq	$m
	addq	$s,%rax
	adcq	\$0,%rdx
	movq	%rdx,$c2
	leaq	1($mn),%rcx
	testq	%rcx,%rcx
	jz	.Lmont_q_inner_done
___
    $code .= duff_from_rcx('.Lmont_q_in', '');
    $code .= duff_loop('.Lmont_q_in', 'bn_mul_mont_mulq', sub {
        my $k = shift;
        my $o = 8 * $k;
        my $d = $o - 8;
        return <<___;
	movq	$o($ape,%rcx,8),%rax
	mulq	$bi
	addq	$o($te,%rcx,8),%rax
	adcq	\$0,%rdx
	addq	$c1,%rax
	adcq	\$0,%rdx
	movq	%rdx,$c1
	movq	%rax,$s
	movq	$o($npe,%rcx,8),%rax
	mulq	$m
	addq	$s,%rax
	adcq	\$0,%rdx
	addq	$c2,%rax
	adcq	\$0,%rdx
	movq	%rax,$d($te,%rcx,8)
	movq	%rdx,$c2
___
    });
    $code .= <<___;
.Lmont_q_inner_done:
	xorl	%eax,%eax		# t[n-1] = c1 + c2 + tn, tn = carry
	addq	$c1,$c2
	adcq	\$0,%rax
	addq	$tn,$c2
	adcq	\$0,%rax
	movq	$c2,-8($te)
	movq	%rax,$tn
	movq	$S_BP,%rax
	cmpq	$S_BPEND,%rax
	jne	.Lmont_q_outer
	jmp	.Lmont_final

___
}

# ---------------------------------------------------------------------------
# mulx path (two passes per b[i]).
{
    my $top = '%r15';
    $code .= <<___;
.Lmont_x:
$zero_t@{[zero_blocks('.Lmont_x_zero', '%rax', '%rcx')]}.Lmont_x_outer:
	movq	$S_BP,%rax
	movq	(%rax),%rdx
	leaq	8(%rax),%rax
	movq	%rax,$S_BP
___
    $code .= mulx_row('.Lmont_x_p1', 'bn_mul_mont_mulx_ab', $num, $ape, $te, 0);
    $code .= <<___;
	adcx	$zero,$hi[1]		# t[n] = hi + CF + tn, top = OF
	adox	$tn,$hi[1]
	movl	\$0,${top}d
	adox	$zero,$top
	movq	$hi[1],$tn
	movq	$S_T,%rdx
	movq	(%rdx),%rdx
	imulq	$n0,%rdx		# m = t[0]*n0
___
    $code =~ s/\$\{top\}d/%r15d/g;
    $code .= mulx_row('.Lmont_x_p2', 'bn_mul_mont_mulx_nm', $num, $npe, $te, -8);
    $code .= <<___;
	adcx	$zero,$hi[1]		# t[n-1] = hi + CF + t[n] + OF
	adox	$tn,$hi[1]
	movq	$hi[1],-8($te)
	adox	$zero,$top
	movq	$top,$tn
	movq	$S_BP,%rax
	cmpq	$S_BPEND,%rax
	jne	.Lmont_x_outer
	jmp	.Lmont_final

___
}

# ---------------------------------------------------------------------------
# sqrx path (ap == bp): square into a 2n-word t, then reduce.
#   cross products  row i = 0..n-2: t[i+1+i .. i+n] += a[i]*a[i+1..n-1]
#                   (%r15 = &a[i], %r14 = row length, %rdi = &t[i+n])
#   diagonal        t = 2t + sum a[i]^2 2^(128i)  (CF doubles, OF adds)
#   reduction       row i = 0..n-1: m = t[i]*n0, t[i..i+n-1] += n*m,
#                   t[i+n] += hi + CF + OF + c, c = carry out (0/1)
#                   (%rsi = &t[i], %rdi = &t[i+n], %r15 = c)
{
    my ($ai, $len, $ti) = ('%r15', '%r14', '%rsi');
    $code .= <<___;
.Lmont_sqrx:
	cmpq	\$8,$num
	je	.Lmont_s8
	testq	\$7,$num
	jz	.Lmont_sqr8
	leaq	1(%r9,%r9),%rax
	movq	%rax,$S_WIPE
$zero_t@{[zero_blocks('.Lmont_sqrx_zero', '%rax', '%rcx')]}	movq	$S_T,%rax		# and t[2n-1]; t[n .. 2n-2] are first
	leaq	($num,$num),%rcx	# written by the top stores of the rows
	movq	$zero,-8(%rax,%rcx,8)
	movq	$S_AP,$ai
	leaq	-1($num),$len
	movq	$S_T,%rdi
	leaq	(%rdi,$num,8),%rdi
.Lmont_sqrx_row:
	movq	($ai),%rdx
___
    $code .= mulx_row('.Lmont_sqrx_ab', 'bn_mul_mont_sqrx_cross', $len, $ape, '%rdi', 0);
    $code .= <<___;
	adcx	$zero,$hi[1]
	adox	$zero,$hi[1]
	movq	$hi[1],(%rdi)
	leaq	8($ai),$ai
	leaq	8(%rdi),%rdi
	decq	$len
	jnz	.Lmont_sqrx_row

.Lmont_sqrx_diag_start:
	movq	$num,%rcx
	negq	%rcx
	movq	$S_T,%rdi
	xorl	%eax,%eax
.Lmont_sqrx_diag:
	movq	($ape,%rcx,8),%rdx
	mulx	%rdx,$lo[0],$lo[1]
	movq	(%rdi),$hi[0]
	movq	8(%rdi),$hi[1]
	adcx	$hi[0],$hi[0]
	adcx	$hi[1],$hi[1]
	adox	$lo[0],$hi[0]
	adox	$lo[1],$hi[1]
	movq	$hi[0],(%rdi)
	movq	$hi[1],8(%rdi)
	leaq	16(%rdi),%rdi
	leaq	1(%rcx),%rcx
	jrcxz	.Lmont_sqrx_diag_done
	jmp	.Lmont_sqrx_diag
.Lmont_sqrx_diag_done:
	movq	$S_T,$ti
	leaq	($ti,$num,8),%rdi
	movq	$num,$len
	xorl	%r15d,%r15d
.Lmont_sqrx_red:
	movq	($ti),%rdx
	imulq	$n0,%rdx
___
    $code .= mulx_row('.Lmont_sqrx_nm', 'bn_mul_mont_sqrx_reduce', $num, $npe, '%rdi', 0);
    $code .= <<___;
	adcx	$zero,$hi[1]
	adox	(%rdi),$hi[1]
	adcx	%r15,$hi[1]
	movq	$hi[1],(%rdi)
	movl	\$0,%r15d
	adcx	$zero,%r15
	adox	$zero,%r15
	leaq	8($ti),$ti
	leaq	8(%rdi),%rdi
	decq	$len
	jnz	.Lmont_sqrx_red
	movq	%r15,$tn
	jmp	.Lmont_final

___
}

# ---------------------------------------------------------------------------
# sqrx reduction for num % 8 == 0, eight rows per block with the words in
# registers.  For the block of rows i0..i0+7 (p = &t[i0]):
#   triangle  W = p[0..7]; for r = 0..7: m_r = W[r]*n0 (kept in @S_M;
#             computed from the window as sweep r starts, see $sweep),
#             W[r .. r+8] += m_r*n[0..7], W[r+8] a fresh zero word (the
#             nine-word sum cannot overflow: W[r..r+7] + m*n[0..7] <
#             2^(64*9)), so each sweep is mulx + adox (lo, weight r+j) +
#             adcx (hi, weight r+j+1) and ends with no carry pending.
#   chunks    c = 1..n/8-1: the same eight sweeps with the stored m_r over
#             n[8c .. 8c+7]; sweep r first adds p[8c+r] into its lowest
#             word (weight 8c+r) on the CF chain, so that word is final
#             after the sweep and is stored back (the window sum stays
#             below 2^(64*9) with the extra word).
#   top       the window (weights n .. n+7) gets p[n..n+7] and the carry
#             left by the previous block (one adc chain); its carry out
#             (0/1) goes to the next block, and after the last block it is
#             the top bit.
# Registers: window ring %rbx %rcx %r8 %r9 %r10 %r11 %r12 %r13 %r14 (nine:
# eight words + the fresh top; the ring turns by one per sweep and is put
# back by eight movs after each chunk), lo %r15, hi %rbp, zero %rax, m %rdx,
# %rsi = &n[8c], %rdi = &t[i0 + 8c].  Flags: a sweep starts with the xor
# that zeroes its top word (CF = OF = 0) and ends with both chains empty.
{
    my @ring = ('%rbx', '%rcx', '%r8', '%r9', '%r10', '%r11', '%r12', '%r13', '%r14');
    my ($lo, $hi, $zr) = ('%r15', '%rbp', '%rax');
    my $d32 = sub { my $r = shift; return $r =~ /^%r(\d+)$/ ? "%r${1}d" : do { (my $x = $r) =~ s/^%r/%e/; $x } };
    # The products of a sweep: the window @w (nine words, $w[8] the fresh
    # top) += %rdx * the words at $o(%rsi) for each $o of @off (window
    # index $o/8), ending at index 7.  The xor zeroes the top and both
    # flags; the last product's OF goes into its high half (adox of the
    # zero register $zr: hi < 2^64 - 1, so no carry) before the adcx into
    # the top, so both chains end empty
    # and no instruction after the last product waits on OF (the former
    # movl $0 + adox into the top cost ~10% of a chunk on Zen 4: 1.50 vs
    # 1.37 cycles per product in a 9-sweep rdtsc loop).
    # With $mem defined, the t word at $mem(%rdi) is added into the lowest
    # window word first (CF chain; the window sum still fits: 8 words + one
    # word + M*8 words < 2^(64*9)), so that word is final after the sweep.
    # One product %rdx * $src into window indices $j (low half, OF chain)
    # and $j + 1 (high half, CF chain); at $j = 7 the OF carry goes into
    # the high half first, ending both chains.
    my $product = sub {
        my ($w, $src, $j) = @_;
        my $c = "\tmulx\t$src,$lo,$hi\n\tadox\t$lo,$w->[$j]\n";
        return $c . ($j < 7 ? "\tadcx\t$hi,$w->[$j+1]\n"
                            : "\tadox\t$zr,$hi\n\tadcx\t$hi,$w->[8]\n");
    };
    my $products = sub {
        my ($w, $mem, @off) = @_;
        my $c = "\txorl\t" . $d32->($w->[8]) . "," . $d32->($w->[8]) . "\n";
        $c .= "\tadcx\t$mem(%rdi),$w->[0]\n" if defined $mem;
        $c .= $product->($w, "$_(%rsi)", $_ / 8) for @off;
        return $c;
    };
    # m_r = W[r] n0 mod 2^64 into %rdx, from the window's lowest word $w
    # (final after the sweeps before, see $sweep); the imul's flags die at
    # the sweep's xor
    my $m_word = sub {
        my ($w) = @_;
        return "\tmovq\t$w,%rdx\n\timulq\t$S_N0B,%rdx\t\t# m_r\n";
    };
    # sweep r of a chunk (ring offset r); $tri: the reduction's first chunk,
    # computing m_r; $mem: see $products
    my $sweep = sub {
        my ($r, $tri, $mem) = @_;
        my @w = map { $ring[($r + $_) % 9] } 0 .. 8;
        my $c = '';
        if ($tri) {
            $c .= $m_word->($w[0]) . "\tmovq\t%rdx,$S_M[$r]\n";
        } else {
            $c .= "\tmovq\t$S_M[$r],%rdx\n";
        }
        $c .= $products->(\@w, $mem, map { 8 * $_ } 0 .. 7);
        return ($c, $w[0]);
    };
    # The top of a block: the window (ring[0..7]) += the eight t words at
    # (%rdi), stored back; one adc chain, carried in from CF ($cin: the
    # instruction that sets it; '' = the first word is an add).
    my $top_add = sub {
        my ($cin) = @_;
        my $c = $cin;
        for my $r (0 .. 7) {
            my $op = ($r == 0 && $cin eq '') ? 'addq' : 'adcq';
            $c .= "\t$op\t" . (8 * $r) . "(%rdi),$ring[$r]\n\tmovq\t$ring[$r]," . (8 * $r) . "(%rdi)\n";
        }
        return $c;
    };
    # triangular sweep r for the squaring (%rsi = &a[k - r], k = i0 + r):
    # the diagonal term X_r + a[k]^2 at window index r, then the doubled
    # row d[k]*a[k+1 .. i0+7] (d[k] = M[r], see sqr8).  X_r goes in on the
    # CF chain like a chunk's t word; the window sum still fits, the added
    # terms being at most (2^64 - 1) 2^(64*8) (sqr8).
    my $sweep_tri = sub {
        my ($r) = @_;
        my @w = map { $ring[($r + $_) % 9] } 0 .. 8;
        my $c = "\txorl\t" . $d32->($w[8]) . "," . $d32->($w[8]) . "\n";
        $c .= "\tadcx\t$S_X[$r],$w[$r]\n\tmovq\t" . (8 * $r) . "(%rsi),%rdx\n";
        $c .= $product->(\@w, '%rdx', $r);
        $c .= "\tmovq\t$S_M[$r],%rdx\n" if $r < 7;
        $c .= $product->(\@w, (8 * $_) . '(%rsi)', $_) for $r + 1 .. 7;
        return ($c, $w[0]);
    };
    my $restore = '';
    # after 8 sweeps the window is ring[8], ring[0..6]; ring[7] is free
    $restore .= "\tmovq\t$ring[$_ - 1],$ring[$_]\n" for reverse 1 .. 7;
    $restore .= "\tmovq\t$ring[8],$ring[0]\n";

    # One 64-byte chunk of eight sweeps (the loop body from its label on):
    # eight rows over the next eight words, the window rotated back, then
    # on to the next chunk until S_CHK runs out.
    my $chunk8 = sub {
        my ($lbl, $first) = @_;
        my $c = '';
        for my $r (0 .. 7) {
            my ($sw, $f) = $sweep->($r, 0, $first ? undef : 8 * $r);
            $c .= $sw . "\tmovq\t$f," . (8 * $r) . "(%rdi)\n";
        }
        return $c . $restore . <<___;
	leaq	64(%rsi),%rsi
	leaq	64(%rdi),%rdi
	decq	$S_CHK
	jnz	$lbl
# LLVM-MCA-END
___
    };

    # The block paths' start: npe, num and n0 saved (they are the block
    # loops' scratch), the block count num/8 in S_BLK and %rax; at the end
    # of the mulx2 and sqr8 products $blk_reload takes the three back.
    chomp(my $blk_save = <<___);
	movq	$npe,$S_NPE
	movq	$num,$S_NUM
	movq	$n0,$S_N0B
	movq	$num,%rax
	shrq	\$3,%rax
	movq	%rax,$S_BLK
___
    my $blk_reload = "\tmovq\t$S_NPE,$npe\n\tmovq\t$S_NUM,$num\n\tmovq\t$S_N0B,$n0\n";
    # The start of mulx2 and sqr8.  t is not zeroed: their first block
    # reads no t word (its window starts at zero, its chunks add none: the
    # $first variants below), every later block reads only words the
    # blocks before it wrote, and the products write all of t[0 .. 2n-1]
    # before the reduction reads it.  t is wiped (2n + 1 words) at the end.
    my $blk_start = sub {
        my ($label) = @_;
        return <<___;
$label:
	movq	\$1,$S_CNT
${label}_go:
	leaq	1(%r9,%r9),%rax
	movq	%rax,$S_WIPE
$blk_save
___
    };

    $code .= <<___;
.Lmont_sqrx_blk:
$blk_save
	movq	\$0,$S_CB
	movq	$S_T,%rdi
.Lmont_sqrx_blk_loop:
	movq	$S_NUM,%rax
	movq	$S_NPE,%rsi
	negq	%rax
	leaq	(%rsi,%rax,8),%rsi	# np
	xorl	%eax,%eax		# the sweeps' zero
___
    $code .= "\tmovq\t" . (8 * $_) . "(%rdi),$ring[$_]\n" for 0 .. 7;
    for my $r (0 .. 7) {
        my ($c) = $sweep->($r, 1);
        $code .= $c;
    }
    $code .= $restore;
    $code .= <<___;
	leaq	64(%rsi),%rsi
	leaq	64(%rdi),%rdi
	movq	$S_NUM,%rdx
	shrq	\$3,%rdx
	decq	%rdx
	jz	.Lmont_sqrx_blk_top
	movq	%rdx,$S_CHK
# LLVM-MCA-BEGIN bn_mul_mont_sqrx_reduce8
.Lmont_sqrx_blk_chunk:
___
    $code .= $chunk8->('.Lmont_sqrx_blk_chunk');
    $code .= <<___;
.Lmont_sqrx_blk_top:
___
    # CF = the previous block's carry (0/1), and the carry out back to S_CB
    $code .= $top_add->("\tmovq\t$S_CB,%rax\n\tnegq\t%rax\n");
    $code .= <<___;
	sbbq	%rax,%rax
	negq	%rax
	movq	%rax,$S_CB
	movq	$S_NUM,%rax		# next block: p += 8 words
	negq	%rax
	leaq	64(%rdi,%rax,8),%rdi
	decq	$S_BLK
	jnz	.Lmont_sqrx_blk_loop
	movq	$S_NPE,$npe
	movq	$S_NUM,$num
	movq	$S_CB,$tn
	movq	$S_T,$te
	leaq	($te,$num,8),$te
	leaq	($te,$num,8),$te
	jmp	.Lmont_final8

___

    # Rectangle block: p[0 .. 8L+7] = p[0 .. 8L-1] + M*A for the eight
    # multipliers M = @S_M and A = L chunks of 8 words (in: %rsi = A, %rdi
    # = p, $S_CHK = L - 1; p[8L .. 8L+7] are not read).  Chunk 0 loads its
    # window from p (its final words are just stored); chunks 1.. are the
    # reduction's chunks (the t word added in the carry chain), the top
    # stores the window.  No carry out: callers only use it where the sum
    # fits in 8L + 8 words.  $first: the first block of a product, where
    # p[0 .. 8L-1] would be zero: the window starts at zero and the chunks
    # add no t word, so t need not be zeroed (its own labels, $pfx).
    my $rect = sub {
        my ($pfx, $tri0, $first) = @_;
        my $c = "\txorl\t%eax,%eax\n";
        $c .= $first ? "\txorl\t" . $d32->($ring[$_]) . "," . $d32->($ring[$_]) . "\n"
                     : "\tmovq\t" . (8 * $_) . "(%rdi),$ring[$_]\n" for 0 .. 7;
        for my $r (0 .. 7) {
            my ($sw, $f) = $tri0 ? $sweep_tri->($r) : $sweep->($r, 0);
            $c .= $sw . "\tmovq\t$f," . (8 * $r) . "(%rdi)\n";
        }
        $c .= $restore;
        $c .= <<___;
	leaq	64(%rsi),%rsi
	leaq	64(%rdi),%rdi
	cmpq	\$0,$S_CHK
	je	${pfx}_top
# LLVM-MCA-BEGIN bn_mul_mont_@{[ ($pfx =~ /sqr8/ ? 'sqr8' : 'mulx2') . ($first ? '_first' : '') ]}_rect8
${pfx}_chunk:
___
        $c .= $chunk8->("${pfx}_chunk", $first);
        $c .= <<___;
${pfx}_top:
___
        # the top's words (weights 8L .. 8L+7 from p) are first written
        # here: the previous block's rectangle ended below them
        $c .= "\tmovq\t$ring[$_]," . (8 * $_) . "(%rdi)\n" for 0 .. 7;
        return $c;
    };

    # The eight multipliers of a rectangle block: the words at $p into @S_M.
    my $load_m8 = sub {
        my ($p) = @_;
        return join '', map { "\tmovq\t" . (8 * $_) . "($p),%rdx\n\tmovq\t%rdx,$S_M[$_]\n" } 0 .. 7;
    };

    # mulx2 path (BMI2+ADX, ap != bp, num % 8 == 0): the full product a*b
    # by rectangle blocks of eight b words, then the eight-row block
    # reduction above.  Same n^2 + n^2 products as the interleaved mulx
    # path, all of them in the register window.
    # The block loop of mulx2 and sqr8: $block->(1) is the first block (its
    # rectangle starts from zero), then $block->(0) for the others (each
    # ends with the decq of $S_BLK), then on to the block reduction.
    my $block_loop = sub {
        my ($pfx, $block) = @_;
        return $block->(1) . "\tjz\t${pfx}_done\n${pfx}_blk:\n" . $block->(0)
             . "\tjnz\t${pfx}_blk\n${pfx}_done:\n$blk_reload\tjmp\t.Lmont_sqrx_blk\n\n";
    };

    # One block of mulx2.
    my $x2_block = sub {
        my ($first) = @_;
        my $c = <<___;
	movq	$S_BP,%rax
@{[ $load_m8->('%rax') ]}	leaq	64(%rax),%rax
	movq	%rax,$S_BP
	movq	$S_NUM,%rax
	shrq	\$3,%rax
	decq	%rax
	movq	%rax,$S_CHK
	movq	$S_AP,%rsi
	movq	$S_TP,%rdi
___
        $c .= $rect->($first ? '.Lmont_x2_r0' : '.Lmont_x2_r', 0, $first);
        return $c . slot_add($S_TP, 64) . "\tdecq\t$S_BLK\n";
    };
    $code .= $blk_start->('.Lmont_x2') . <<___ . $block_loop->('.Lmont_x2', $x2_block);
	movq	$S_T,%rax
	movq	%rax,$S_TP
___

    # sqr8 (BMI2+ADX, ap == bp, num % 8 == 0): a^2 with the doubling in
    # the multipliers.  With c[k] = a[k] >> 63 (c[-1] = 0) and the doubled
    # words d[k] = 2a[k] + c[k-1] mod 2^64 (so 2a = sum d[k] 2^(64k) +
    # c[n-1] 2^(64n)), expanding 2a[i] = d[i] - c[i] 2^64 + c[i-1] in
    # 2 sum_{i<j} a[i]a[j] 2^(64(i+j)) leaves
    #   a^2 = sum_{i<j} d[i] a[j] 2^(64(i+j)) + sum_k (a[k]^2 + X[k]) 2^(128k),
    #   X[k] = c[k-1] a[k],  a[k]^2 + X[k] <= 2^128 - 2^64,
    # so row i is the multiplier d[i] over a[i+1 .. n-1] plus its diagonal
    # term, and no doubling pass over t is needed (nor c[n-1]).  Blocks of
    # eight rows i0..i0+7 in increasing order, each one rectangle over
    # a[i0 .. n-1] whose first chunk is the triangle with the diagonal
    # terms ($sweep_tri).  Each row adds at most (2^64 - 1) 2^(64(n+i)), so
    # after block b t holds the exact sum of rows i < i0+8, below
    # 2^(64(i0+n+8)), and the top of each block has no carry out.  Then
    # the block reduction.  The block's d[k] (in @S_M) and X[k] (in @S_X)
    # come from one adc chain (CF = c[k-1] in, c[k] out; X by cmovc).
    # One block of sqr8.
    my $sqr8_block = sub {
        my ($first) = @_;
        my $c = <<___;
	movq	$S_BP,%rsi
	movq	$S_C,%rax
	negq	%rax			# CF = c[i0 - 1]
___
        $c .= "\tmovq\t" . (8 * $_) . "(%rsi),%rdx\n\tmovl\t\$0,%eax\n\tcmovcq\t%rdx,%rax\n"
            . "\tadcq\t%rdx,%rdx\n\tmovq\t%rax,$S_X[$_]\n\tmovq\t%rdx,$S_M[$_]\n" for 0 .. 7;
        $c .= <<___;
	sbbq	%rax,%rax
	movq	%rax,$S_C
	movq	$S_CB,%rax
	decq	%rax
	movq	%rax,$S_CHK
	movq	%rax,$S_CB
	movq	$S_TP,%rdi
___
        $c .= $rect->($first ? '.Lmont_sqr8_r0' : '.Lmont_sqr8_r', 1, $first);
        return $c . slot_add($S_TP, 128) . slot_add($S_BP, 64) . "\tdecq\t$S_BLK\n";
    };
    $code .= $blk_start->('.Lmont_sqr8') . <<___;
	movq	%rax,$S_CB		# chunks of this block: (n - i0)/8
	movq	$S_T,%rax
	movq	%rax,$S_TP
	movq	$S_AP,%rax
	movq	%rax,$S_BP
	movq	\$0,$S_C
___
    $code .= $block_loop->('.Lmont_sqr8', $sqr8_block);

    # s8 / m8: num == 8 (512 bits) with BMI2+ADX: a*a (bn_mul_mont with
    # a == b, and every step of bn_mont_sqrn_x86_64) and a*b, straight-
    # line.  The block paths above with their one block unrolled: the ring
    # turns by renaming in the generator instead of eight movs a chunk,
    # there are no block, chunk or pointer counters, and neither t nor
    # the multipliers go through memory:
    #   a*a        sweep r (r = 0..7) forms d[r] = 2a[r] + (a[r-1] >> 63)
    #              (shld) and X[r] = (a[r-1] >> 63) a[r] (sar, and) in
    #              registers, adds X[r] + a[r]^2 at weight 2r and d[r] *
    #              a[r+1..7] above it ($sweep_tri's terms), and stores the
    #              final word of weight r in @S8_T.
    #   a*b        sweep r adds b[r] * a[0..7] at weights r .. r+8 (the
    #              rectangle's sweeps) and stores weight r in @S8_T.
    #              Sweep 0 of both writes the empty window ($first_sweep).
    #   reduction  (shared, .Lmont_8_red) the words of weight 8..15 go to
    #              @S8_T, then the eight sweeps of the block reduction,
    #              each forming its m_r from the window in %rdx (sweep 0
    #              adds the words of weight 0..7 from @S8_T), then the
    #              high half is added back (one adc chain; its carry is
    #              the top bit).
    #   final      t - n is stored to rp, and a cmovnc per word puts t
    #              back where the borrow says t < n; the result is in the
    #              window too, and rp is the next squaring's a at once.
    #              The squarings of bn_mont_sqrn_mul_x86_64 take the
    #              almost-reduced step instead (t - n only when t >= R).
    # In: S_AP = a, S_BP = b (a*b), S_RP = rp, $npe = np + 64, $n0; S_CNT
    # = the squarings (bn_mul_mont: 1).  The frame's t area is not used;
    # @S8_T (the block paths' multiplier and diagonal slots, free here) is
    # wiped at the end.  Only num (public) and S_CNT decide branches.
    # 494 instructions per squaring of bn_mont_sqrn_mul_x86_64 (501 with
    # the full final step, bn_mont_sqrn_x86_64) against the block path's
    # 672, and about a fifth less time (see the header).
    {
        my @S8_T = (@S_M, @S_X);
        my $wd = sub { my ($r) = @_; return map { $ring[($r + $_) % 9] } 0 .. 8 };
        # the set-up of both: np, n0 (as .Lmont_sqrx_blk), %rsi = a
        my $setup = <<___;
	leaq	-64($npe),%rcx
	movq	%rcx,$S_NP
	movq	$n0,$S_N0B
	movq	$S_AP,%rsi
___
        my $zero_reg = "\txorl\t%eax,%eax\t\t# the sweeps' zero\n";
        # The first sweep of a product writes the empty window instead of
        # adding to it: %rdx * $src[j] (j = 0..7) with the low half of
        # j = 0 and every high half straight into w[j] and w[j + 1], and
        # the low halves of j >= 1 added by one add/adc chain ($mid goes
        # between the first two products).  The top takes the last carry:
        # hi < 2^64 - 1, so w[8] cannot wrap.  No xor of the ring, and two
        # instructions per product instead of three.
        my $first_sweep = sub {
            my ($w, $mid, @src) = @_;
            my $c = "\tmulx\t$src[0],$w->[0],$w->[1]\n$mid";
            for my $j (1 .. 7) {
                $c .= "\tmulx\t$src[$j],%r15,$w->[$j + 1]\n\t" . ($j == 1 ? 'addq' : 'adcq')
                    . "\t%r15,$w->[$j]\n";
            }
            return $c . "\tadcq\t%rax,$w->[8]\n";
        };
        # a*a: squaring sweep r (window weights r .. r+8; %rsi = a)
        my $sq = '';
        # sweep 0: a[0]^2 and d[0] = 2a[0] mod 2^64 times a[1..7] (a[0]'s
        # top bit is the next sweep's X[1] and d[1])
        $sq .= "\tmovq\t0(%rsi),%rdx\n\tleaq\t(%rdx,%rdx),%rdi\t# d[0]\n"
             . $first_sweep->([$wd->(0)], "\tmovq\t%rdi,%rdx\n", '%rdx', map { (8 * $_) . '(%rsi)' } 1 .. 7)
             . "\tmovq\t$ring[0],$S8_T[0]\n";
        for my $r (1 .. 7) {
            my @w = $wd->($r);
            my ($o, $op) = (8 * $r, 8 * ($r - 1));
            $sq .= "\tmovq\t$o(%rsi),%rdx\n\tmovq\t%rdx,%rdi\n" . <<___;
	movq	$op(%rsi),%rbp
	shldq	\$1,%rbp,%rdi		# d[$r]
	sarq	\$63,%rbp
	andq	%rdx,%rbp		# X[$r]
___
            $sq .= "\txorl\t" . $d32->($w[8]) . "," . $d32->($w[8]) . "\n";
            $sq .= "\tadcx\t%rbp,$w[$r]\n";
            $sq .= $product->(\@w, '%rdx', $r);
            $sq .= "\tmovq\t%rdi,%rdx\n" if $r < 7;
            $sq .= $product->(\@w, (8 * $_) . '(%rsi)', $_) for $r + 1 .. 7;
            $sq .= "\tmovq\t$w[0],$S8_T[$r]\n";
        }
        # a*b: sweep r (%rsi = a, %rdi = b)
        my $ab = "\tmovq\t0(%rdi),%rdx\n"
               . $first_sweep->([$wd->(0)], '', map { (8 * $_) . '(%rsi)' } 0 .. 7)
               . "\tmovq\t$ring[0],$S8_T[0]\n";
        for my $r (1 .. 7) {
            my @w = $wd->($r);
            $ab .= "\tmovq\t" . (8 * $r) . "(%rdi),%rdx\n"
                 . $products->(\@w, undef, map { 8 * $_ } 0 .. 7)
                 . "\tmovq\t$w[0],$S8_T[$r]\n";
        }
        # the reduction: weights 8..15 out, 0..7 in (window of sweep 0:
        # ring[0..7]), eight sweeps over np (%rax still zero)
        my @hiw = $wd->(8);
        my $red = '';
        $red .= "\tmovq\t$hiw[$_],$S8_T[8 + $_]\n" for 0 .. 7;
        $red .= "\tmovq\t$S_NP,%rsi\n";
        # sweep 0 takes the words of weight 0..7 from the frame as the
        # second operand of its adox (w[j] = lo + t[j] + OF, the same sum
        # as t[j] + lo): no loads into the window first, and the last high
        # half goes straight into the top, which then takes both carries
        # (it stays below 2^64: the window bound of the block reduction)
        {
            my @w = $wd->(0);
            my @h = ('%r15', '%rbp');
            $red .= $m_word->($S8_T[0]) . <<___;
	xorl	%eax,%eax		# (still zero) CF = OF = 0
___
            for my $j (0 .. 7) {
                my $hi = $j < 7 ? $h[$j % 2] : $w[8];
                $red .= "\tmulx\t" . (8 * $j) . "(%rsi),$w[$j],$hi\n\tadox\t$S8_T[$j],$w[$j]\n";
                $red .= "\tadcx\t$h[($j - 1) % 2],$w[$j]\n" if $j;
            }
            $red .= "\tadox\t%rax,$w[8]\n\tadcx\t%rax,$w[8]\n";
        }
        for my $r (1 .. 7) {
            my @w = $wd->($r);
            $red .= $m_word->($w[0]);
            $red .= $products->(\@w, undef, map { 8 * $_ } 0 .. 7);
        }
        # the high half of the product back in; carry out = top bit (%r15)
        $red .= "\taddq\t$S8_T[8],$hiw[0]\n";
        $red .= "\tadcq\t$S8_T[8 + $_],$hiw[$_]\n" for 1 .. 7;
        $red .= "\tmovl\t\$0,%r15d\n\tadcq\t\$0,%r15\n\tmovq\t$S_RP,%rdi\n";
        # The full final step: rp = t - n; CF after the sbb of the top: 1 =
        # t < n, keep t (a cmovnc per word)
        my $final = '';
        for my $j (0 .. 7) {
            my $o = 8 * $j;
            $final .= "\tmovq\t$hiw[$j],%rax\n\t" . ($j ? 'sbbq' : 'subq')
                    . "\t$o(%rsi),%rax\n\tmovq\t%rax,$o(%rdi)\n";
        }
        $final .= "\tsbbq\t\$0,%r15\n";
        $final .= "\tcmovncq\t" . (8 * $_) . "(%rdi),$hiw[$_]\n\tmovq\t$hiw[$_]," . (8 * $_) . "(%rdi)\n"
            for 0 .. 7;
        # The almost-reduced final step of the squarings of a window
        # (bn_mont_sqrn_mul_x86_64): rp = t - n if t >= 2^512 (the top bit
        # %r15), else t, through the mask -%r15; no comparison with n.
        # With a < R = 2^512 (not necessarily < n), t = (a^2 + m n)/R <
        # R + n, so either way rp < R: a valid input of the next squaring,
        # and of the product by b < n, whose t < (R n + R n)/R = 2n gets
        # the full step and leaves rp < n as bn_mul_mont would.  The mask
        # is known as soon as the high half is in (no sbb chain over the
        # whole of t - n before the cmovs), and the words of rp come out in
        # the order the next squaring's first sweep reads them.  (The
        # plain bn_mont_sqrn_x86_64 keeps the full step: its last squaring
        # needs a reduced input to leave rp < n.)
        # The and of a masked word would clear CF, so the words go in two
        # groups of four, masked before their sbb chain; CF waits in %rax
        # (0 / -1) between the groups.  Temporaries: %rax, %rdx, %rbp and
        # the free ring register; the last word takes the mask's register.
        my @tmp = ('%rax', '%rdx', '%rbp', $ring[7]);
        my $almost = "\tnegq\t%r15\t\t\t# 0 or -1\n";
        for my $g (0, 1) {
            my @x = $g ? (@tmp[1 .. 3], '%r15') : @tmp;
            for my $i (0 .. 3) {
                my $o = 8 * (4 * $g + $i);
                $almost .= $x[$i] eq '%r15' ? "\tandq\t$o(%rsi),%r15\n"
                         : "\tmovq\t%r15,$x[$i]\n\tandq\t$o(%rsi),$x[$i]\n";
            }
            $almost .= "\tnegq\t%rax\t\t\t# CF back\n" if $g;
            for my $i (0 .. 3) {
                my $j = 4 * $g + $i;
                $almost .= "\t" . ($j ? 'sbbq' : 'subq') . "\t$x[$i],$hiw[$j]\n\tmovq\t$hiw[$j]," . (8 * $j) . "(%rdi)\n";
            }
            $almost .= "\tsbbq\t%rax,%rax\t\t# CF kept\n" if !$g;
        }

        $code .= <<___;
.Lmont_m8:
	movq	\$1,$S_CNT
$setup	movq	$S_BP,%rdi
.Lmont_m8_go:
$zero_reg# LLVM-MCA-BEGIN bn_mul_mont_m8_mul
# LLVM-MCA-UNITS 8 limbs
$ab# LLVM-MCA-END
	jmp	.Lmont_8_red
.Lmont_s8:
	movq	\$1,$S_CNT
.Lmont_s8_go:
$setup.Lmont_s8_sq:
$zero_reg# LLVM-MCA-BEGIN bn_mul_mont_s8_sqr
# LLVM-MCA-UNITS 8 limbs
$sq# LLVM-MCA-END
.Lmont_8_red:
# LLVM-MCA-BEGIN bn_mul_mont_8_red
# LLVM-MCA-UNITS 8 limbs
$red# LLVM-MCA-END
	decq	$S_CNT			# bn_mont_sqrn_x86_64 and _mul_x86_64:
	jz	.Lmont_8_full		# the steps left after this one
	cmpq	\$0,$S_MB		# (bn_mul_mont: none); with a b, the
	je	.Lmont_8_full		# squarings end almost reduced
$almost	movq	%rdi,%rsi
	cmpq	\$1,$S_CNT		# the last step: the product by b
	jne	.Lmont_s8_sq		# (m8; np, n0 are set)
	movq	$S_MB,%rdi
	jmp	.Lmont_m8_go
.Lmont_8_full:
$final	movq	%rdi,%rsi
	cmpq	\$0,$S_CNT		# bn_mont_sqrn_x86_64: the next squaring
	jne	.Lmont_s8_sq
$wipe_mx	movl	\$1,%eax
	jmp	.Lmont_ret

___
    }
}

# ---------------------------------------------------------------------------
# IFMA path (AVX-512F + IFMA, $IFMA_MINW <= num <= $IFMA_MAXW): with lp =
# ceil((64num+1)/52) and d = 52lp - 64num (1..52), A = a*2^d, B = b and
# N = n are converted to lp limbs of 52 bits, and the radix-2^52
# almost-Montgomery product gives A*B/2^(52lp) = a*b/2^(64num) (mod n),
# below 2n (A < 2^(52lp), B < n) and so below 2^(52lp) (d >= 1).  It goes back to radix 2^64 and through the
# common final subtraction.  Buffers: P = T (the result in radix 2^64),
# A52 = T+640, B52 = T+1280, N52 = T+1920 (filled by bn_to52v_x86_64).
# bn_to52v_x86_64 of num words at $src (shifted left by %rcx, set by $d)
# into the buffer at T + $off; $what names it.
sub ifma_to52 {
    my ($off, $src, $d, $what) = @_;
    return <<___;
	movq	$S_T,%rdi		# $what
	leaq	$off(%rdi),%rdi
	movq	$src,%rsi
	movq	$S_N,%rdx
$d	movq	$S_K,%r8
	call	bn_to52v_x86_64
___
}

$code .= <<___;
.Lmont_ifma:
	movq	%rcx,$S_NP
	movq	$n0,$S_N0
	movq	$num,$S_N
	leaq	2($num),%rax
	movq	%rax,$S_WIPE		# t[-1], P[0..num]
	movq	$num,%rax
	shlq	\$6,%rax
	addq	\$52,%rax
	xorl	%edx,%edx
	movl	\$52,%ecx
	divq	%rcx			# lp = ceil((64num+1)/52), num only
	imulq	\$52,%rax,%r10
	movq	$num,%r11
	shlq	\$6,%r11
	subq	%r11,%r10
	movq	%r10,$S_D		# d = 52lp - 64num
	leaq	15(%rax),%r11
	shrq	\$4,%r11
	movq	%r11,$S_G		# groups of 16 limbs
	leaq	7(%rax),%r11
	shrq	\$3,%r11
	movq	%r11,$S_K		# zmm registers (8 limbs each)
	shlq	\$8,%rax
	orq	%r11,%rax
	movq	%rax,$S_KL		# k | lp << 8

@{[ ifma_to52(640, $S_AP, "\tmovq\t$S_D,%rcx\n", 'A52 = to52(a << d)')
  . ifma_to52(1280, $S_BP, "\txorl\t%ecx,%ecx\n", 'B52')
  . ifma_to52(1920, $S_NP, "\txorl\t%ecx,%ecx\n", 'N52') ]}
	movq	$S_T,%rdi		# A52 = A52*B52/R
	leaq	640(%rdi),%rdi
	movq	%rdi,%rsi
	leaq	640(%rdi),%rdx
	leaq	1280(%rdi),%rcx
	movq	\$0xfffffffffffff,%r8
	andq	$S_N0,%r8
	movq	$S_KL,%r9
	call	bn_amm52_int

	movq	$S_T,%rdi		# P = from52(A52), num+1 words used
	leaq	640(%rdi),%rsi
	movq	$S_G,%rdx
	call	bn_from52_x86_64
	movq	$S_T,%rax		# wipe A52, B52 (N52 is public)
	vpxorq	%zmm0,%zmm0,%zmm0
	movl	\$20,%ecx
.Lmont_ifma_wipe:
	vmovdqu64	%zmm0,640(%rax)
	leaq	64(%rax),%rax
	decl	%ecx
	jnz	.Lmont_ifma_wipe
	vzeroupper
	movq	$S_N,$num
	movq	$S_T,$te
	leaq	($te,$num,8),$te
	movq	($te),$tn
	jmp	.Lmont_final

___
# ---------------------------------------------------------------------------
# Final subtraction and constant-time select, then wipe t.
# In: $te = end of the n-word result t, $tn = top bit, $npe, $num.
#
# .Lmont_final8, for num % 8 == 0 (the block paths): the same, eight words
# per iteration with the loops closed by lea + jrcxz (flags kept), so the
# select is a cmovc per word on the CF left by the subtraction's borrow
# (cmov loads its source unconditionally: no address depends on it); the
# block paths' scalars (multipliers, diagonal terms) are wiped too.
# $body->($o) is one word at displacement $o of %rcx*8 from the ends.
sub loop8 {
    my ($lbl, $body) = @_;
    my $s = "$lbl:\n";
    $s .= $body->(8 * $_) for 0 .. 7;
    return $s . "\tleaq\t8(%rcx),%rcx\n\tjrcxz\t${lbl}_done\n\tjmp\t$lbl\n${lbl}_done:\n";
}
my $sub8 = loop8('.Lmont_sub8', sub {
    my $o = shift;
    return "\tmovq\t$o($te,%rcx,8),%rax\n\tsbbq\t$o($npe,%rcx,8),%rax\n"
         . "\tmovq\t%rax,$o(%rsi,%rcx,8)\n";
});
my $sel8 = loop8('.Lmont_sel8', sub {
    my $o = shift;
    return "\tmovq\t$o(%rsi,%rcx,8),%rax\n\tcmovcq\t$o($te,%rcx,8),%rax\n"
         . "\tmovq\t%rax,$o(%rsi,%rcx,8)\n";
});
# The almost-reduced step of the block paths (num >= 16), for the
# squarings of bn_mont_sqrn_mul_x86_64 that another step follows: rp = t -
# n if the top bit is set (t >= R = 2^(64num)), else t, through the mask
# -$tn; no comparison with n.  The bound is the s8 one (see there): with
# a < R, t = (a^2 + m n)/R < R + n, so rp < R is a valid a for the next
# squaring and for the product by b < n, whose t < 2n gets the full step
# and leaves rp < n.  Nothing waits for the borrow of the whole of t - n:
# the mask is the top bit, and rp's words come out in the order the next
# squaring's first block reads them.  Four words a group: the masked n
# words are formed first (`and` clears CF), then their sbb chain with the
# borrow from the group before taken back from %r15 (0 / -1).
my $alm8 = loop8('.Lmont_alm8', sub {
    my $o = shift;
    my @x = ('%rdx', '%rbx', '%r10', '%r11');
    return '' if $o % 32;
    my $s = join '', map { "\tmovq\t$tn,$x[$_]\n\tandq\t" . ($o + 8 * $_) . "($npe,%rcx,8),$x[$_]\n" } 0 .. 3;
    $s .= "\taddq\t%r15,%r15\t\t# CF = the borrow so far\n";
    $s .= "\tmovq\t" . ($o + 8 * $_) . "($te,%rcx,8),%rax\n\tsbbq\t$x[$_],%rax\n"
        . "\tmovq\t%rax," . ($o + 8 * $_) . "(%rsi,%rcx,8)\n" for 0 .. 3;
    return $s . "\tsbbq\t%r15,%r15\n";
});
$code .= <<___;
.Lmont_final8:
	movq	$S_RP,%rsi
	leaq	(%rsi,$num,8),%rsi
	movq	$num,%rcx
	negq	%rcx
	cmpq	\$1,$S_CNT		# the last step: exact
	je	.Lmont_final8_full
	cmpq	\$0,$S_MB		# plain bn_mont_sqrn_x86_64: exact
	je	.Lmont_final8_full	# steps (its last needs a < n)
	negq	$tn			# the mask: 0 or -1
	xorl	%r15d,%r15d
$alm8	decq	$S_CNT
	jmp	.Lmont_sqrn_next
.Lmont_final8_full:
	clc
$sub8	sbbq	\$0,$tn			# 0: take t - np, -1: take t
	movq	$num,%rcx
	negq	%rcx
	negq	$tn			# CF = 1: take t
$sel8	decq	$S_CNT			# bn_mont_sqrn_x86_64 and _mul_x86_64:
	jnz	.Lmont_sqrn_next	# the next step on the result, in the
$wipe_mx	movq	%rcx,$S_C		# same frame; the scalars holding
	jmp	.Lmont_wipe_t		# words of a (%rcx = 0) once per call
.Lmont_sqrn_next:
	movq	$S_RP,%rax
	movq	%rax,$S_AP
	movq	$S_N0B,$n0		# ($num, $npe: put back by the reduction)
	cmpq	\$1,$S_CNT		# the last step: the product by b
	jne	.Lmont_sqr8_go		# (mulx2) if there is a b
	movq	$S_MB,%rax
	testq	%rax,%rax
	jz	.Lmont_sqr8_go
	movq	%rax,$S_BP
	jmp	.Lmont_x2_go

.Lmont_final:
	movq	$S_RP,%rsi
	leaq	(%rsi,$num,8),%rsi
	movq	$num,%rcx
	negq	%rcx
	clc
.Lmont_sub:
	movq	($te,%rcx,8),%rax
	sbbq	($npe,%rcx,8),%rax
	movq	%rax,(%rsi,%rcx,8)
	incq	%rcx
	jnz	.Lmont_sub
	sbbq	\$0,$tn			# 0: take t - np, -1: take t
	movq	$num,%rcx
	negq	%rcx
.Lmont_sel:
	movq	(%rsi,%rcx,8),%rax
	movq	($te,%rcx,8),%rdx
	xorq	%rax,%rdx
	andq	$tn,%rdx
	xorq	%rdx,%rax
	movq	%rax,(%rsi,%rcx,8)
	incq	%rcx
	jnz	.Lmont_sel
.Lmont_wipe_t:
	movq	$S_T,%rax
	leaq	-8(%rax),%rax
	movq	$S_WIPE,%rcx
	xorl	%edx,%edx
	movq	%rdx,(%rax)		# t[-1], then t[0 ..] in blocks of 4
	leaq	8(%rax),%rax
	leaq	2(%rcx),%rcx		# ceil((wipe - 1)/4)
	shrq	\$2,%rcx
@{[zero_blocks('.Lmont_wipe', '%rax', '%rcx')]}	movl	\$1,%eax
.Lmont_ret:
.asm_ret
.asm_endfunc
___

# ---------------------------------------------------------------------------
# int bn_mont_sqrn_x86_64(u64 *rp, const u64 *ap, const u64 *np,
#                         const u64 *n0, int num, int count)
# int bn_mont_sqrn_mul_x86_64(u64 *rp, const u64 *bp, const u64 *np,
#                             const u64 *n0, int num, int count)
#
# count Montgomery squarings in one call, for the modexp windows
# (crypto/bn/bn_exp_x86_64.c): rp = ap^(2^count) / R^(2^count - 1) mod n,
# each step exactly bn_mul_mont(rp, x, x, np, n0, num) on the sqr8 path
# (s8 at num 8).  The call builds bn_mul_mont's frame and enters its sqr8
# code, whose .Lmont_final8 (.Lmont_8_red) goes round again on rp while
# $S_CNT lasts: the entry checks, the register saves and the wipe of t are
# paid once per call instead of once per squaring (the last wipe covers
# every step's t).  The second squares rp in place count times and then
# multiplies it by bp, bn_mul_mont(rp, rp, bp, np, n0, num) on the mulx2
# path (m8 at num 8), in the same frame: a whole window of the modexp in
# one call.  bp must not overlap rp (it is read after the squarings).
# Both return 0 without writing when the sqr8 path does not apply (count
# < 1, num not a multiple of 8 in 8..$MAXW, no BMI2+ADX), else 1.  rp may
# be ap; count, num and np are public.
{
    my $sqrn_entry = sub {
        my ($name, $ap, $mb) = @_;
        # the steps: count squarings, and the product when there is a b
        my $steps = $mb eq '$0' ? '' : "\tincq\t%r9\n";
        return <<___;
.asm_func $name, $MONT_FRAME
	xorl	%eax,%eax
	cmpl	\$1,%r9d
	jl	.L${name}_ret
	testl	\$7,%r8d
	jnz	.L${name}_ret
	cmpl	\$8,%r8d
	jl	.L${name}_ret
	cmpl	\$$MAXW,%r8d
	jg	.L${name}_ret
@{[cap_require(".L${name}_ret", @CAP_MULX)]}	movslq	%r9d,%r9
$steps	movq	%r9,$S_CNT
	movslq	%r8d,$num
	movq	(%rcx),$n0
	movq	%rdi,$S_RP
	movq	$mb,$S_MB
	movq	$ap,$S_AP
	leaq	(%rdx,$num,8),$npe
	leaq	$SCAL+8+63(%rsp),%rax
	andq	\$-64,%rax
	movq	%rax,$S_T
	cmpq	\$8,$num
	je	.Lmont_s8_go
	jmp	.Lmont_sqr8_go
.L${name}_ret:
.asm_ret
.asm_endfunc

___
    };
    $code .= $sqrn_entry->('bn_mont_sqrn_x86_64', '%rsi', '$0')
           . $sqrn_entry->('bn_mont_sqrn_mul_x86_64', '%rdi', '%rsi');
}


# ---------------------------------------------------------------------------
# bn_to52v_x86_64(dst, src, num, d, k): dst[0..8k-1] = limbs of src << d
# (plus 8 zero limbs when k is odd, so that bn_from52_x86_64 reads whole
# groups of 16).  Eight limbs per step: bit position p = 52t - d, words
# w = p >> 6 and w + 1 gathered (lanes outside 0..num-1 masked off and left
# zero), limb = (lo >> (p & 63) | hi << (64 - (p & 63))) & (2^52 - 1).
# Addresses depend on num and d only.
$code .= <<___;
.asm_rodata
.balign	64
.Lto52v_pos:
	.quad	0,52,104,156,208,260,312,364
.asm_text
.asm_func bn_to52v_x86_64, local
	vmovdqu64	.Lto52v_pos(%rip),%zmm0
	vpbroadcastq	%rcx,%zmm1
	vpsubq	%zmm1,%zmm0,%zmm0		# p = 52t - d
	movl	\$416,%eax
	vpbroadcastq	%rax,%zmm1		# 52*8
	vpbroadcastq	%rdx,%zmm2		# num
	movq	\$-1,%rax
	vpbroadcastq	%rax,%zmm3		# -1
	movl	\$64,%eax
	vpbroadcastq	%rax,%zmm4
	movq	\$0xfffffffffffff,%rax
	vpbroadcastq	%rax,%zmm5
	movl	\$63,%eax
	vpbroadcastq	%rax,%zmm6
	movq	%r8,%r9
.Lto52v_loop:
	vpsraq	\$6,%zmm0,%zmm7		# w
	vpsubq	%zmm3,%zmm7,%zmm8		# w + 1
	vpandq	%zmm6,%zmm0,%zmm9		# sh
	vpsubq	%zmm9,%zmm4,%zmm10		# 64 - sh
	vpcmpq	\$6,%zmm3,%zmm7,%k1		# w > -1
	vpcmpq	\$1,%zmm2,%zmm7,%k1{%k1}	# and w < num
	vpcmpq	\$6,%zmm3,%zmm8,%k2
	vpcmpq	\$1,%zmm2,%zmm8,%k2{%k2}
	vpxorq	%zmm11,%zmm11,%zmm11
	vpxorq	%zmm12,%zmm12,%zmm12
	vpgatherqq	(%rsi,%zmm7,8),%zmm11{%k1}
	vpgatherqq	(%rsi,%zmm8,8),%zmm12{%k2}
	vpsrlvq	%zmm9,%zmm11,%zmm11
	vpsllvq	%zmm10,%zmm12,%zmm12
	vporq	%zmm12,%zmm11,%zmm11
	vpandq	%zmm5,%zmm11,%zmm11
	vmovdqu64	%zmm11,(%rdi)
	leaq	64(%rdi),%rdi
	vpaddq	%zmm1,%zmm0,%zmm0
	decq	%r9
	jnz	.Lto52v_loop
	testl	\$1,%r8d
	jz	.Lto52v_done
	vpxorq	%zmm11,%zmm11,%zmm11
	vmovdqu64	%zmm11,(%rdi)
.Lto52v_done:
	vzeroupper
.asm_ret
.asm_endfunc

___
# ---------------------------------------------------------------------------
# Radix conversion back from 2^52 for the IFMA path (local, SysV).
#
# bn_from52_x86_64(dst, src, G): dst[0..13G-1] = src[0..16G-1] in radix
# 2^64 (limbs < 2^52).  Positions are fixed: straight-line per group of 16
# limbs / 13 words.
{
    $code .= <<___;
.asm_func bn_from52_x86_64, local
.Lfrom52_group:
___
    for my $w (0 .. 12) {
        my ($lo, $hi) = (64 * $w, 64 * $w + 63);
        my $first = 1;
        for my $t (int($lo / 52) .. int($hi / 52)) {
            my $o = 8 * $t;
            my $dst = $first ? '%rax' : '%rcx';
            $code .= "\tmovq\t$o(%rsi),$dst\n";
            my $pos = 52 * $t - $lo;           # where limb t starts in the word
            if ($pos < 0) { $code .= "\tshrq\t\$" . (-$pos) . ",$dst\n"; }
            elsif ($pos > 0) { $code .= "\tshlq\t\$$pos,$dst\n"; }
            $code .= "\torq\t%rcx,%rax\n" unless $first;
            $first = 0;
        }
        $code .= "\tmovq\t%rax," . 8 * $w . "(%rdi)\n";
    }
    $code .= <<___;
	leaq	128(%rsi),%rsi
	leaq	104(%rdi),%rdi
	decq	%rdx
	jnz	.Lfrom52_group
.asm_ret
.asm_endfunc

___
}

# ---------------------------------------------------------------------------
# void bn_amm52_x86_64(u64 *r, const u64 *a, const u64 *b, const u64 *n,
#                      u64 n0, int kl)         (AVX-512F + AVX512-IFMA)
#
# Almost-Montgomery multiplication in radix 2^52 for the x86_64 modexp
# (crypto/bn/bn_exp_x86_64.c): kl = k | (l << 8); the arrays have L = 8k
# limbs (k = 1..$AMM_MAXK zmm registers), of which the top L - l are zero;
# every limb of a, b, n < 2^52, a, b < 2n, 4n < R = 2^(52l), n0 = -n^-1 mod
# 2^52.  r = a*b/R mod n, r < 2n, in L normalised limbs.  Returns without
# writing for k outside 1..$AMM_MAXK.
#
# The accumulator Z (L lanes of 64 bits, zmm0..zmm{k-1}) is kept redundant:
# for each b[i], Z += lo52(a*b[i]) + lo52(n*m) lane by lane, Z is shifted
# down one lane (valignq through the register chain; lane 0 is then
# divisible by 2^52 and dropped, its carry kept in a scalar), and
# Z += hi52(a*b[i]) + hi52(n*m), the high halves landing one limb up.  Each
# lane collects at most 4 values below 2^52 per b[i], so for L <= 160 no
# lane can overflow 64 bits and carries are propagated only once, at the
# end, by a scalar pass.  m = (z0 + lo52(a[0]*b[i]))*n0 mod 2^52 is computed
# on the scalar side from lane 0 (vmovq) plus the pending carry.
{
    my ($r, $a, $b, $n, $k0, $kk) = ('%rdi', '%rsi', '%rdx', '%rcx', '%r8', '%r9d');
    my ($bp, $mask, $carry, $cnt) = ('%r9', '%r13', '%r14', '%r15');
    my ($B, $M, $ZERO) = ('%zmm31', '%zmm30', '%zmm29');
    $code .= <<___;
.asm_func bn_amm52_x86_64, nargs=6, xmm
	call	bn_amm52_int
.asm_ret
.asm_endfunc

.asm_func bn_amm52_int, local, push=rbx:r12:r13:r14:r15, frame=32
	movl	$kk,%eax
	shrl	\$8,%eax
	movl	%eax,8(%rsp)		# number of b limbs (Montgomery iterations)
	movzbl	%r9b,$kk
___
    for my $k (1 .. $AMM_MAXK) {
        $code .= "\tcmpl\t\$$k,$kk\n\tje\t.Lamm52_$k\n";
    }
    $code .= "\tjmp\t.Lamm52_ret\n";
    for my $k (1 .. $AMM_MAXK) {
        my @Z = map { "%zmm$_" } 0 .. $k - 1;
        # k <= 14: the n*m products go to a second accumulator W, so each
        # register sees two dependent vpmadd52 per b[i] instead of four.
        my $split = $k <= 14;
        my @W = $split ? map { "%zmm" . ($k + $_) } 0 .. $k - 1 : @Z;
        my $L = 8 * $k;
        $code .= <<___;
.Lamm52_$k:
	movq	%rdi,0(%rsp)
	movq	%rdx,$bp
	movq	\$0xfffffffffffff,$mask
	xorl	%r14d,%r14d
	movl	8(%rsp),%r15d
	movq	($n),%rax
	shlq	\$12,%rax
	movq	%rax,16(%rsp)		# n[0] << 12: mulx gives hi52(n[0]*m)
	movq	($a),%rdi
	shlq	\$12,%rdi		# a[0] << 12
	vpxorq	$ZERO,$ZERO,$ZERO
___
        $code .= "\tvpxorq\t$_,$_,$_\n" for @Z;
        if ($split) { $code .= "\tvpxorq\t$_,$_,$_\n" for @W; }
        # one iteration = one b limb against all 8k limbs of a and n
        $code .= "# LLVM-MCA-BEGIN bn_amm52_x86_64_$k\n# LLVM-MCA-UNITS $L limbs\n.Lamm52_${k}_loop:\n";
        # scalar side: s0 (%r14) is the exact value of limb 0; the next one
        # is lane 1 of Z (+W) plus the b[i] and m terms that land there.
        # With x = a[0] << 12 (n[0] << 12), mulx returns hi52(a[0]*y) in
        # its high half; the carry out of limb 0 is (t + 2^52 - 1) >> 52
        # because t + lo52(n[0]*m) is t rounded up to a multiple of 2^52.
        # Loop-carried scalar path: t -> m (imul, and) -> mulx -> add -> lea.
        $code .= <<___;
	movq	($bp),%rdx
	vpbroadcastq	($bp),$B
	vpextrq	\$1,%xmm0,%r12
	mulx	%rdi,%rax,%rbx
	shrq	\$12,%rax
	movq	8($a),%r10
	imulq	%rdx,%r10
	andq	$mask,%r10
	addq	%rbx,%r10
	addq	%r10,%r12
___
        if ($split) {
            my $w0 = $W[0]; $w0 =~ s/zmm/xmm/;
            $code .= "\tvpextrq\t\$1,$w0,%r10\n\taddq\t%r10,%r12\n";
        }
        $code .= <<___;
	addq	%r14,%rax
	movq	%rax,%rdx
	imulq	$k0,%rdx
	andq	$mask,%rdx
	vpbroadcastq	%rdx,$M
	movq	8($n),%r10
	imulq	%rdx,%r10
	andq	$mask,%r10
	addq	%r10,%r12
	mulx	16(%rsp),%rbx,%r11
	addq	$mask,%rax
	shrq	\$52,%rax
	addq	%r11,%r12
	leaq	(%r12,%rax),%r14
___
        $code .= "\tvpmadd52luq\t" . 64 * $_ . "($a),$B,$Z[$_]\n" for 0 .. $k - 1;
        $code .= "\tvpmadd52luq\t" . 64 * $_ . "($n),$M,$W[$_]\n" for 0 .. $k - 1;
        for my $j (0 .. $k - 1) {
            my $hi = $j + 1 < $k ? $Z[$j + 1] : $ZERO;
            $code .= "\tvalignq\t\$1,$Z[$j],$hi,$Z[$j]\n";
        }
        if ($split) {
            for my $j (0 .. $k - 1) {
                my $hi = $j + 1 < $k ? $W[$j + 1] : $ZERO;
                $code .= "\tvalignq\t\$1,$W[$j],$hi,$W[$j]\n";
            }
        }
        $code .= "\tvpmadd52huq\t" . 64 * $_ . "($a),$B,$Z[$_]\n" for 0 .. $k - 1;
        $code .= "\tvpmadd52huq\t" . 64 * $_ . "($n),$M,$W[$_]\n" for 0 .. $k - 1;
        $code .= <<___;
	leaq	8($bp),$bp
	decl	%r15d
	jnz	.Lamm52_${k}_loop
# LLVM-MCA-END
	movq	0(%rsp),%rdi
___
        if ($split) { $code .= "\tvpaddq\t$W[$_],$Z[$_],$Z[$_]\n" for 0 .. $k - 1; }
        $code .= "\tvmovdqu64\t$Z[$_]," . 64 * $_ . "($r)\n" for 0 .. $k - 1;
        $code .= <<___;
	movq	%r14,($r)
	xorl	%r14d,%r14d
	movl	\$$L,%r15d
	jmp	.Lamm52_norm
___
    }
    # one limb of the normalisation: %rax = limb + carry in, the limb
    # keeps its low 52 bits, %rax the carry out; then the count
    my $norm = <<___;
	movq	%rax,%rbx
	shrq	\$52,%rax
	andq	$mask,%rbx
	movq	%rbx,($r)
	leaq	8($r),$r
	decl	${cnt}d
___
    $code .= <<___;
.Lamm52_norm:
	movq	($r),%rax
	addq	$carry,%rax
${norm}	jz	.Lamm52_done
.Lamm52_norm_loop:
	addq	($r),%rax
${norm}	jnz	.Lamm52_norm_loop
.Lamm52_done:
	vzeroupper
.Lamm52_ret:
.asm_ret
.asm_endfunc

___
    $code =~ s/\$\{carry\}d/%r14d/g;
    $code =~ s/\$\{cnt\}d/%r15d/g;
}

# ---------------------------------------------------------------------------
# void bn_gather52_x86_64(u64 *out, const u64 *tab, unsigned idx, int L)
#
# out[0..L-1] = tab[idx*L .. idx*L+L-1] for a table of 32 entries of L limbs
# (L a multiple of 8), reading all 32 entries in full: each entry is loaded
# and OR-ed into an accumulator under a lane mask that is all ones only
# for i == idx (vpcmpeqq of idx against a lane counter), so addresses and
# timing do not depend on idx.  The 32 entries of a chunk are unrolled
# over four accumulators and counters (entries i = 4g + k go to
# accumulator k): the masked ORs form four chains of 8 instead of one of
# 32.  One 8-limb gather (a 512-bit modexp window), median TSC ticks on
# the Zen 5 VM: 28.4-28.9 -> 20.9-22.5.  (The same unrolling of the AVX2
# gather below measured no change, 44.4 -> 44.5: it is bound by its
# vector ALU work, not by a chain.)
{
    my @acc = map { "%zmm$_" } 0 .. 3;
    my @ld  = map { "%zmm$_" } 20 .. 23;
    my @ctr = map { "%zmm$_" } 17 .. 19, 25;
    my @adr = ('(%rax)', '(%rax,%r8)', '(%rax,%r8,2)', '(%rax,%r10)');
    my $body = '';
    for my $g (0 .. 7) {
        for my $k (0 .. 3) {
            my $i = 4 * $g + $k;
            my $kr = '%k' . ($k + 1);
            $body .= "\tvpcmpeqq\t%zmm16,$ctr[$k],$kr\n"
                   . "\tvmovdqu64\t$adr[$k],$ld[$k]\n"
                   . "\tvporq\t$ld[$k],$acc[$k],$acc[$k]\{$kr\}\n";
            $body .= "\tvpaddq\t%zmm24,$ctr[$k],$ctr[$k]\n" if $g < 7;
        }
        $body .= "\tleaq\t(%rax,%r8,4),%rax\n" if $g < 7;
    }
    $code .= <<___;
.asm_func bn_gather52_x86_64, nargs=4, xmm
	movl	%edx,%edx
	vpbroadcastq	%rdx,%zmm16
	movl	\$4,%eax
	vpbroadcastq	%rax,%zmm24
	movslq	%ecx,%rcx
	leaq	0(,%rcx,8),%r8		# entry stride in bytes
	leaq	(%r8,%r8,2),%r10
	shrl	\$3,%ecx
.Lgather52_chunk:
@{[ join('', map { "\tvpxorq\t$_,$_,$_\n" } @acc) ]}@{[ join('', map { "\tmovl\t\$$_,%eax\n\tvpbroadcastq\t%rax,$ctr[$_]\n" } 0 .. 3) ]}	movq	%rsi,%rax
# LLVM-MCA-BEGIN bn_gather52_x86_64
# LLVM-MCA-UNITS 256 limbs
$body# LLVM-MCA-END
	vporq	$acc[1],$acc[0],$acc[0]
	vporq	$acc[3],$acc[2],$acc[2]
	vporq	$acc[2],$acc[0],$acc[0]
	vmovdqu64	$acc[0],(%rdi)
	leaq	64(%rdi),%rdi
	leaq	64(%rsi),%rsi
	decl	%ecx
	jnz	.Lgather52_chunk
	vzeroupper
.asm_ret
.asm_endfunc

___
}

# ---------------------------------------------------------------------------
# void bn_gather64_avx2_x86_64(u64 *out, const u64 *tab, unsigned idx, int S)
#
# The AVX2 twin of bn_gather52_x86_64 for CPUs without AVX-512 (the radix
# 2^64 modexp): out[0..S-1] = tab[idx*S ..] for 32 entries of S words (S a
# multiple of 8), every entry loaded in full and AND-ed with a mask that is
# all ones only for i == idx (vpcmpeqq of a lane counter), then OR-ed into
# the accumulators.  Addresses and timing do not depend on idx.  The words
# go in chunks of 16 (four ymm a entry), then one of 8 if S % 16 == 8: the
# mask and the counter are made once per entry and chunk, so a 16-word
# chunk costs 10 vector operations an entry where two 8-word ones cost 12
# (1024 bits: 608 -> 446 instructions a gather, about 1.5% of a modexp's
# time on the Zen 3 VM; docs/perf/x86_64-bn.md, 2026-12-07).  Labels
# .Lgather64_c<W>, .Lgather64_e<W>; llvm-mca region
# bn_gather64_avx2_x86_64 (the 16-word loop).
{
    my @acc = ('%ymm1', '%ymm2', '%ymm10', '%ymm11');
    my @ld  = ('%ymm6', '%ymm7', '%ymm8', '%ymm9');
    # one chunk of $w words (8 or 16) of every entry, then out and tab on
    my $chunk = sub {
        my ($w) = @_;
        my $v = $w / 4;                                 # ymm per entry
        my $c = join '', map { "\tvpxor\t$_,$_,$_\n" } @acc[0 .. $v - 1], '%ymm3';
        $c .= "\tmovq\t%rsi,%rax\n\tmovl\t\$32,%r9d\n";
        $c .= "# LLVM-MCA-BEGIN bn_gather64_avx2_x86_64\n# LLVM-MCA-UNITS 16 limbs\n" if $w == 16;
        $c .= ".Lgather64_e$w:\n\tvpcmpeqq\t%ymm0,%ymm3,%ymm4\n";
        $c .= "\tvpand\t" . (32 * $_) . "(%rax),%ymm4,$ld[$_]\n" for 0 .. $v - 1;
        $c .= "\tvpor\t$ld[$_],$acc[$_],$acc[$_]\n" for 0 .. $v - 1;
        $c .= "\tvpsubq\t%ymm5,%ymm3,%ymm3\n\taddq\t%r8,%rax\n\tdecl\t%r9d\n\tjnz\t.Lgather64_e$w\n";
        $c .= "# LLVM-MCA-END\n" if $w == 16;
        $c .= "\tvmovdqu\t$acc[$_]," . (32 * $_) . "(%rdi)\n" for 0 .. $v - 1;
        return $c . "\tleaq\t" . (8 * $w) . "(%rdi),%rdi\n\tleaq\t" . (8 * $w) . "(%rsi),%rsi\n";
    };
    $code .= <<___;
.asm_func bn_gather64_avx2_x86_64, nargs=4, xmm
	movl	%edx,%edx
	vmovq	%rdx,%xmm0
	vpbroadcastq	%xmm0,%ymm0		# idx
	vpcmpeqq	%ymm5,%ymm5,%ymm5		# -1
	movslq	%ecx,%rcx
	leaq	0(,%rcx,8),%r8		# entry stride in bytes
	shrl	\$3,%ecx			# chunks of 8 words left
	cmpl	\$2,%ecx
	jb	.Lgather64_c8
.Lgather64_c16:
@{[ $chunk->(16) ]}	subl	\$2,%ecx
	cmpl	\$2,%ecx
	jae	.Lgather64_c16
	testl	%ecx,%ecx
	jz	.Lgather64_done
.Lgather64_c8:
@{[ $chunk->(8) ]}.Lgather64_done:
	vzeroupper
.asm_ret
.asm_endfunc

___
}

$code .= ".asm_note\n";
print $OUT $code;
close($OUT) or die "x86_64-xlate.pl failed\n";
