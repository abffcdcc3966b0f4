#!/usr/bin/env perl
#
# mips-mont.pl - Montgomery multiplication for MIPS32 (o32, 32-bit words)
# and MIPS64 (n32/n64, 64-bit words).
#
#   perl mips-mont.pl FLAVOUR OUT.S      FLAVOUR: o32 n32 64 nubi32 nubi64
#   (OUT.S alone: flavour 64; FLAVOUR alone: stdout).  Needs no other file.
#
# int bn_mul_mont(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp,
#                 const BN_ULONG *np, const BN_ULONG *n0, int num);
# rp = ap*bp*R^-1 mod np, R = 2^(W*num), every num >= 1 (returns 1;
# num < 1 returns 0 and the caller's C code takes over).  Only n0[0] is read.
#
# Written for asmcrypt from the algorithm: word-serial Montgomery
# multiplication, "CIOS" (C. K. Koc, T. Acar, B. S. Kaliski, "Analyzing
# and comparing Montgomery multiplication algorithms", IEEE Micro 1996),
# with the multiplication and reduction loops fused:
#   for i: m = (tp[0] + ap[0]*bp[i]) * n0 mod W
#          for j: (c1, t) = ap[j]*bp[i] + tp[j] + c1
#                 (c2, u) = np[j]*m + t + c2;  tp[j-1] = u   (u = 0 at j = 0)
#          (tp[num], tp[num-1]) = tp[num] + c1 + c2
#   rp = tp - np when that does not borrow past tp[num], else tp: computed
#   as a subtraction into rp and a masked select (no branch on data);
#   tp (num+2 words on the stack) is zeroed before returning.
# rp is written only in the final pass, so rp may alias ap and/or bp.
# Every branch and address depends on num only (constant time in ap, bp).
#
# Importing: the module reads no capability word (no ASMCRYPT_CAPWORD /
# ASMCRYPT_CAPBIT_* macros to set) and references no symbol; the path is
# fixed at build time by the ISA block at the top of the .S, the same
# block as in poly1305-mips and mips-words (perlasm/mips-isa-check.pl
# compares the copies).  -D__KERNEL__ and
# -DASMCRYPT_OPENSSL change nothing.  It stands in for OpenSSL's
# mips-mont.S, whose only symbol is bn_mul_mont (OpenSSL's declines
# num < 4 by returning 0; this one takes every num >= 1).
#
# Code paths (from __mips_isa_rev in the generated .S):
#   o32 MIPS32r1..R5  multu + maddu with a register holding 1 ("multiply by
#                     one and add" brings tp[j] and the carry into HI:LO)
#   o32 MIPS I/II, n32/n64 pre-R6   multu/dmultu + mflo/mfhi + sltu carries
#   R6                mulu/muhu, dmulu/dmuhu + sltu carries
# The single-row inner loop handles four words per iteration ((num-1)
# mod 4 single words first).  The 64-bit code runs two rows per pass
# while two remain (see pair_code: row i+1 trails row i by one limb and
# takes its input limb from a register), one row for an odd last row.
# Hazards (qemu models neither): loads are not consumed by the next
# instruction (MIPS I), and at least two instructions separate mflo/mfhi
# from the next multu/dmultu (MIPS I-IV); delay slots are filled by hand.
#
# PERFORMANCE: instructions executed under qemu per call, asm / C
# (bn_mul_mont_c, gcc 12 -O2, same flags); docs/perf/mips.md has the
# commands and the figures before the two-row code.
#
#   bits            256    1024   2048   4096
#   o32 mips32r2    0.55   0.51   0.50   0.50   (17037/32924 at 1024)
#   o32 mips32 r1   0.56   0.52   0.51   0.50
#   o32 MIPS I code 0.74   0.76   0.76   0.76   (vs C at r2 flags)
#   o32 mips32r6    0.79   0.76   0.75   0.75
#   n64 mips64r2    0.63   0.69   0.69   0.70   (5856/8538 at 1024, 87744/125894 at 4096)
#   n32 mips64r2    0.57   0.61   0.61   0.62
#   n64 mips64r6    0.61   0.66   0.67   0.68
# llvm-mca cycles per limb (generic model), asm : C (both C loops):
# mips32r2 single-row loop 23.5 : 40; mips64r2 two-row loop 26.5 (single
# row 28.5) : 38; mips64r6 two-row 24.5 (single 26.5) : 36.
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
my $o32  = !$is64;

my $W   = $is64 ? 8 : 4;
my $LW  = $is64 ? 'ld' : 'lw';
my $SW  = $is64 ? 'sd' : 'sw';
my $ADD = $is64 ? 'daddu' : 'addu';
my $SUB = $is64 ? 'dsubu' : 'subu';
my $SRA = $is64 ? 'dsra32' : 'sra';
my $SRA_N = 31;                          # sra x,31 / dsra32 x,31 (63): sign mask
my $MUL = $is64 ? 'dmultu' : 'multu';
my ($MULLO, $MULHI) = $is64 ? ('dmulu', 'dmuhu') : ('mulu', 'muhu');
my $PADD  = $n64 ? 'daddu'  : 'addu';
my $PADDI = $n64 ? 'daddiu' : 'addiu';
my $PSUB  = $n64 ? 'dsubu'  : 'subu';
my $PSLL  = $n64 ? 'dsll'   : 'sll';
my $REG_S = $is64 ? 'sd' : 'sw';
my $REG_L = $is64 ? 'ld' : 'lw';
my $SZREG = $is64 ? 8 : 4;
my $LOGW  = $is64 ? 3 : 2;
my $RET   = $nubi ? '$4' : '$2';

# Register map (numeric, ABI-neutral)
my ($rp, $ap, $bp, $np) = ('$4', '$5', '$6', '$7');
my ($n0, $num)   = ('$8', '$9');       # n32/n64 arrive here; o32 from the stack
my ($bi, $m, $c1, $c2) = ('$10', '$11', '$12', '$13');
my ($apj, $npj, $tpj, $tpend) = ('$14', '$15', '$16', '$17');
my ($a, $n, $t, $u) = ('$18', '$19', '$20', '$21');
my ($lo, $hi, $x) = ('$24', '$25', '$1');
my ($one, $bend, $a2, $n2, $t2) = ('$22', '$23', '$2', '$3', '$31');
my $fp = '$30';

sub callee_saved {
    my ($r) = @_;
    my ($k) = $r =~ /^\$(\d+)$/;
    return 1 if ($k >= 16 && $k <= 23) || $k == 30 || $k == 31;
    return 1 if $is64 && $k == 28;          # $gp is callee-saved in n32/n64
    return 1 if $nubi && $k >= 12 && $k <= 15;
    return 0;
}

# (carry, out) = x*y + add + carry, variant $v.  $out may equal $add.
sub mac {
    my ($v, $carry, $out, $xx, $yy, $add) = @_;
    if ($v eq 'madd') {
        return ("multu\t$xx,$yy", "maddu\t$add,$one", "maddu\t$carry,$one",
                "mflo\t$out", "mfhi\t$carry");
    }
    my @p = $v eq 'r6' ? ("$MULLO\t$lo,$xx,$yy", "$MULHI\t$hi,$xx,$yy")
                       : ("$MUL\t$xx,$yy", "mflo\t$lo", "mfhi\t$hi");
    return (@p, "$ADD\t$lo,$lo,$add", "sltu\t$x,$lo,$add", "$ADD\t$hi,$hi,$x",
            "$ADD\t$out,$lo,$carry", "sltu\t$x,$out,$carry", "$ADD\t$carry,$hi,$x");
}

# same with carry-in 0 (peeled j = 0)
sub mac0 {
    my ($v, $carry, $out, $xx, $yy, $add) = @_;
    if ($v eq 'madd') {
        return ("multu\t$xx,$yy", "maddu\t$add,$one", "mflo\t$out", "mfhi\t$carry");
    }
    my @p = $v eq 'r6' ? ("$MULLO\t$lo,$xx,$yy", "$MULHI\t$hi,$xx,$yy")
                       : ("$MUL\t$xx,$yy", "mflo\t$lo", "mfhi\t$hi");
    # $out may be $add: compare the sum with $lo
    return (@p, "$ADD\t$out,$lo,$add", "sltu\t$x,$out,$lo", "$ADD\t$carry,$hi,$x");
}

# carry of n0*m + t, whose low word is 0 by the choice of m: the low word
# of n0*m is then W - t when t != 0 and 0 when t == 0, so the carry is
# hi(n0*m) + (t != 0) (64-bit code; sltu, no branch)
sub mac0z {
    my ($v, $carry, $xx, $yy, $add) = @_;
    my @p = $v eq 'r6' ? ("$MULHI\t$hi,$xx,$yy") : ("$MUL\t$xx,$yy", "mfhi\t$hi");
    return (@p, "sltu\t$x,\$0,$add", "$ADD\t$carry,$hi,$x");
}

sub lowmul {     # d = x*y mod W
    my ($v, $d, $xx, $yy) = @_;
    return ("$MULLO\t$d,$xx,$yy") if $v eq 'r6';
    return ("mul\t$d,$xx,$yy") if $v eq 'madd';
    return ("$MUL\t$xx,$yy", "mflo\t$d");
}

# Two rows at a time (64-bit code).  Rows i (b0, m, carries c1/c2) and
# i+1 (b1, m1, carries d1/d2) run in one pass over j: step j does row i at
# limb j and row i+1 at limb j-1, which takes row i's output limb j-1
# straight from a register, so per two row-limbs a_j, n_j and tp[j] are
# loaded once and one word is stored (a single row loads all three and
# stores one per limb).  a_j/n_j alternate between the E registers (even
# j) and the O registers (odd j), so row i+1 finds a_{j-1}, n_{j-1}
# without moves; the loop does two steps per iteration and num's parity
# picks the entry.  rp is spilled to 0($fp) and its register holds n_j
# for odd j; $28 ($gp, callee-saved in n32/n64) holds a_j for odd j.
my ($b1, $m1, $d1, $d2) = ('$22', '$2', '$3', '$31');
my ($aE, $nE, $aO, $nO) = ($a, $n, '$28', $rp);
sub pair_step {     # step at word offset $o from apj/npj/tpj; limb j in the $pp registers
    my ($v, $pp, $o) = @_;
    my ($aj, $nj, $ap1, $np1) = $pp eq 'E' ? ($aE, $nE, $aO, $nO) : ($aO, $nO, $aE, $nE);
    my @i = ("$LW\t$aj,$o($apj)", "$LW\t$nj,$o($npj)", "$LW\t$t,$o($tpj)",
             mac($v, $c1, $t, $aj, $bi, $t), mac($v, $c2, $u, $nj, $m, $t),
             mac($v, $d1, $t, $ap1, $b1, $u), mac($v, $d2, $t, $np1, $m1, $t),
             "$SW\t$t,".($o - 2 * $W)."($tpj)");
    return join '', map { "\t$_\n" } @i;
}
sub pair_tail {     # a_{num-1}, n_{num-1} are in the $pp registers; tpj = tpend
    my ($v, $pp) = @_;
    my ($aj, $nj) = $pp eq 'E' ? ($aE, $nE) : ($aO, $nO);
    my @i = ("$LW\t$t,0($tpend)",
             "$ADD\t$c1,$c1,$c2", "sltu\t$u,$c1,$c2", "$ADD\t$c1,$c1,$t", "sltu\t$t,$c1,$t",
             "$ADD\t$u,$u,$t",                  # row i: limbs num, num-1 in (u, c1)
             mac($v, $d1, $t, $aj, $b1, $c1), mac($v, $d2, $t, $nj, $m1, $t),
             "$SW\t$t,-".(2 * $W)."($tpend)",
             "$ADD\t$d1,$d1,$d2", "sltu\t$x,$d1,$d2", "$ADD\t$d1,$d1,$u", "sltu\t$t,$d1,$u",
             "$ADD\t$x,$x,$t", "$SW\t$d1,-$W($tpend)", "$SW\t$x,0($tpend)");
    my ($first, $last) = (shift @i, pop @i);
    return ($first, join('', map { "\t$_\n" } @i), $last);
}
sub pair_code {
    my ($v) = @_;
    my $s = ".Lmont_pair:\n";
    my @p = ("$LW\t$b1,$W($bp)", "$LW\t$aE,0($ap)", "$LW\t$t,0(\$sp)",
             "$LW\t$nE,0($np)", "$PADDI\t$bp,$bp,".(2 * $W),
             mac0($v, $c1, $t, $aE, $bi, $t), lowmul($v, $m, $t, $n0),
             "$LW\t$aO,$W($ap)", "$LW\t$nO,$W($np)",       # (HI/LO hazard fillers)
             mac0z($v, $c2, $nE, $m, $t),
             "$LW\t$t,$W(\$sp)",
             mac($v, $c1, $t, $aO, $bi, $t), mac($v, $c2, $u, $nO, $m, $t),   # u = row i, limb 0
             mac0($v, $d1, $t, $aE, $b1, $u), lowmul($v, $m1, $t, $n0),
             "$PADDI\t$apj,$ap,".(2 * $W), "$PADDI\t$npj,$np,".(2 * $W),
             "$PADDI\t$tpj,\$sp,".(2 * $W),                # (HI/LO hazard fillers)
             "andi\t$u,$num,1",                             # (num-1) & 1: num even
             mac0z($v, $d2, $nE, $m1, $t));
    my $last = pop @p;
    $s .= join '', map { "\t$_\n" } @p;
    my ($tO0, $tO, $tOl) = pair_tail($v, 'O');
    my ($tE0, $tE, $tEl) = pair_tail($v, 'E');
    $s .= <<___;
	beqz	$u,.Lmont_pair_odd
	$last		# (delay slot)
	beq	$tpj,$tpend,.Lmont_pair_tail_O1
	$tO0		# (delay slot; harmless when not taken)
.Lmont_pair_loop_EO:
# LLVM-MCA-BEGIN bn_mul_mont_pair
# LLVM-MCA-UNITS 4 limbs
@{[ pair_step($v, 'E', 0) ]}@{[ pair_step($v, 'O', $W) ]}	$PADDI	$npj,$npj,@{[2*$W]}
	$PADDI	$tpj,$tpj,@{[2*$W]}
# LLVM-MCA-END
	bne	$tpj,$tpend,.Lmont_pair_loop_EO
	$PADDI	$apj,$apj,@{[2*$W]}	# (delay slot)
	$tO0
.Lmont_pair_tail_O1:
$tO	b	.Lmont_pair_done
	$tOl		# (delay slot)
.Lmont_pair_odd:
@{[ pair_step($v, 'E', 0) ]}	$PADDI	$apj,$apj,$W
	$PADDI	$npj,$npj,$W
	$PADDI	$tpj,$tpj,$W
	beq	$tpj,$tpend,.Lmont_pair_tail_E1
	$tE0		# (delay slot; harmless when not taken)
.Lmont_pair_loop_OE:
@{[ pair_step($v, 'O', 0) ]}@{[ pair_step($v, 'E', $W) ]}	$PADDI	$npj,$npj,@{[2*$W]}
	$PADDI	$tpj,$tpj,@{[2*$W]}
	bne	$tpj,$tpend,.Lmont_pair_loop_OE
	$PADDI	$apj,$apj,@{[2*$W]}	# (delay slot)
	$tE0
.Lmont_pair_tail_E1:
$tE	$tEl
.Lmont_pair_done:
	bne	$bp,$bend,.Lmont_outer1
	$PADDI	$x,$bp,$W		# (delay slot: .Lmont_outer's first instruction)
	b	.Lmont_final1
	$LW	$rp,0(\$fp)		# (delay slot: .Lmont_final's first instruction)
___
    return $s;
}

# The final pass: rp = tp - np, then tp instead where that borrowed past
# tp[num] (masked select, no branch on data), wiping tp.  The 64-bit code
# does two words per turn (one first when num is odd).
sub final_pass {
    # one word at offset $o: rp = tp - np - borrow (c1); $fill1 goes after
    # the loads, $fill2 before the store (the 32-bit loop's pointer steps)
    my $sub = sub {
        my ($o, $fill1, $fill2) = @_;
        return <<___;
	$LW	$t,$o($tpj)
	$LW	$n,$o($npj)
${\ ($fill1 // '')}	$SUB	$u,$t,$c1
	sltu	$x,$t,$c1
	sltu	$c1,$u,$n
	$SUB	$u,$u,$n
	or	$c1,$c1,$x
${\ ($fill2 // '')}	$SW	$u,$o($apj)
___
    };
    # one word: rp = tp where the mask m is all ones, else rp; wipes tp
    my $sel = sub {
        my ($o, $fill) = @_;
        return <<___;
	$LW	$t,$o($tpj)
	$LW	$u,$o($apj)
	$SW	\$0,$o($tpj)		# wipe tp
	and	$t,$t,$m
	and	$u,$u,$n
	or	$t,$t,$u
${\ ($fill // '')}	$SW	$t,$o($apj)
___
    };
    my $adv = sub {
        my ($k, @p) = @_;
        return join '', map { "\t$PADDI\t$_,$_," . ($k * $W) . "\n" } @p;
    };
    return <<___ if !$is64;
	move	$tpj,\$sp
	move	$npj,$np
	move	$apj,$rp
	move	$c1,\$0			# borrow
.Lmont_sub:
@{[ $sub->(0, $adv->(1, $tpj), $adv->(1, $npj)) ]}	bne	$tpj,$tpend,.Lmont_sub
	$PADDI	$apj,$apj,$W
	$LW	$t,0($tpend)		# tp[num] (0 or 1)
	move	$tpj,\$sp
	move	$apj,$rp
	$SUB	$t,$t,$c1		# -1: tp < np, keep tp
	$SRA	$m,$t,$SRA_N		# mask: all ones keeps tp
	nor	$n,$m,\$0
.Lmont_select:
@{[ $sel->(0, $adv->(1, $tpj)) ]}	bne	$tpj,$tpend,.Lmont_select
	$PADDI	$apj,$apj,$W
	$SW	\$0,0($tpend)
	$SW	\$0,$W($tpend)
___
    return <<___;
.Lmont_final:
	$LW	$rp,0(\$fp)
.Lmont_final1:
	move	$tpj,\$sp
	move	$npj,$np
	move	$apj,$rp
	andi	$bi,$num,1		# (num-1) & 1: num even
	bnez	$bi,.Lmont_sub2
	move	$c1,\$0			# borrow (delay slot)
@{[ $sub->(0) ]}@{[ $adv->(1, $tpj, $npj, $apj) ]}	beq	$tpj,$tpend,.Lmont_sub_done
	nop
.Lmont_sub2:
@{[ $sub->(0) ]}@{[ $sub->($W) ]}@{[ $adv->(2, $tpj, $npj) ]}	bne	$tpj,$tpend,.Lmont_sub2
	$PADDI	$apj,$apj,@{[2*$W]}	# (delay slot)
.Lmont_sub_done:
	$LW	$t,0($tpend)		# tp[num] (0 or 1)
	move	$tpj,\$sp
	move	$apj,$rp
	$SUB	$t,$t,$c1		# -1: tp < np, keep tp
	$SRA	$m,$t,$SRA_N		# mask: all ones keeps tp
	bnez	$bi,.Lmont_select2
	nor	$n,$m,\$0		# (delay slot)
@{[ $sel->(0) ]}@{[ $adv->(1, $tpj, $apj) ]}	beq	$tpj,$tpend,.Lmont_select_done
	nop
.Lmont_select2:
@{[ $sel->(0) ]}@{[ $sel->($W) ]}@{[ $adv->(2, $tpj) ]}	bne	$tpj,$tpend,.Lmont_select2
	$PADDI	$apj,$apj,@{[2*$W]}	# (delay slot)
.Lmont_select_done:
	$SW	\$0,0($tpend)
	$SW	\$0,$W($tpend)
___
}

sub gen {
    my ($v) = @_;
    my @used = ($bi, $m, $c1, $c2, $apj, $npj, $tpj, $tpend, $a, $n, $t, $u, $one, $bend, $t2, $fp);
    push @used, '$28' if $is64;             # two-row code
    my %seen;
    my @save = grep { callee_saved($_) && !$seen{$_}++ } @used;
    my $fsz = ((@save + $is64) * $SZREG + 15) & ~15;   # 64-bit: rp slot at 0($fp)
    my $s = <<___;
	.globl	bn_mul_mont
	.align	5
	.ent	bn_mul_mont
	.type	bn_mul_mont,\@function
bn_mul_mont:
	.frame	\$sp,$fsz,\$31
	.set	noreorder
___
    $s .= "\tlw\t$num,20(\$sp)\n\tlw\t$n0,16(\$sp)\n" if $o32;
    $s .= "\tnop\t\t\t\t# MIPS I load delay\n" if $o32;
    $s .= <<___;
	blez	$num,.Lmont_decline
	$PADDI	\$sp,\$sp,-$fsz
___
    my $off = $fsz;
    my $restore = '';
    for my $r (@save) {
        $off -= $SZREG;
        $s .= "\t$REG_S\t$r,$off(\$sp)\n";
        $restore .= "\t$REG_L\t$r,$off(\$sp)\n";
    }
    # tp: num+2 words below the saved registers, 16-byte aligned
    $s .= <<___;
	$LW	$n0,0($n0)		# n0[0]
	move	$fp,\$sp
@{[ $is64 ? "\t$SW\t$rp,0(\$sp)\t\t# rp: its register holds n_j in the two-row code\n" : '' ]}	$PSLL	$x,$num,$LOGW
	$PADDI	$x,$x,@{[2*$W + 15]}
	srl	$x,$x,4
	$PSLL	$x,$x,4
	$PSUB	\$sp,\$sp,$x
	$PSLL	$x,$num,$LOGW
	$PADD	$tpend,\$sp,$x		# &tp[num]
	$PADD	$bend,$bp,$x		# &bp[num]
	addiu	$num,$num,-1
	andi	$num,$num,3		# num: single words per row from now on
	move	$tpj,\$sp
.Lmont_zero:				# tp area [sp, fp), 16 bytes a turn
	$PADDI	$tpj,$tpj,16
@{[ join '', map { "\t$SW\t\$0,".($_ - 16)."($tpj)\n" } grep { $_ < 16 - $W } map { $_ * $W } 0 .. 16 / $W - 1 ]}	bne	$tpj,$fp,.Lmont_zero
	$SW	\$0,-$W($tpj)		# (delay slot)
___
    $s .= "\tli\t$one,1\n" if $v eq 'madd';
    # outer loop
    my @j0;
    push @j0, "$LW\t$bi,0($bp)", "$LW\t$a,0($ap)", "$LW\t$t,0(\$sp)", "$LW\t$n,0($np)";
    push @j0, "$PADDI\t$bp,$bp,$W";           # (load delay filler)
    push @j0, mac0($v, $c1, $t, $a, $bi, $t);    # t = lo(a0*bi + tp0)
    push @j0, lowmul($v, $m, $t, $n0);
    # (also the two HI/LO hazard fillers between mflo and the next multu)
    push @j0, "$PADDI\t$apj,$ap,$W", "$PADDI\t$npj,$np,$W", "$PADDI\t$tpj,\$sp,$W";
    push @j0, $is64 ? mac0z($v, $c2, $n, $m, $t) : mac0($v, $c2, $u, $n, $m, $t);     # u = 0
    $s .= ".Lmont_outer:\n";
    # 64-bit: two rows at a time while at least two remain
    if ($is64) {       # both paths start with bi = bp[0]: it fills the delay slot
        $s .= "\t$PADDI\t$x,$bp,$W\n.Lmont_outer1:\n\tsltu\t$x,$x,$bend\n\tbnez\t$x,.Lmont_pair\n";
        $s .= "\t" . (shift @j0) . "\t\t# (delay slot)\n";
    }
    $s .= "\t$_\n" for @j0;
    # inner loop, two words per iteration: j and j+1 (tpj points at tp[j])
    # number of remaining words num-1: pairs while tpj+W < tpend
    $s .= <<___;
	beqz	$num,.Lmont_inner_check	# (num-1) mod 4 single words first
	move	$t2,$num
.Lmont_single:
	$LW	$a,0($apj)
	$LW	$n,0($npj)
	$LW	$t,0($tpj)
	$PADDI	$apj,$apj,$W
___
    my @one = (mac($v, $c1, $t, $a, $bi, $t), mac($v, $c2, $u, $n, $m, $t));
    $s .= "\t$_\n" for @one;
    $s .= <<___;
	$SW	$u,-$W($tpj)
	$PADDI	$npj,$npj,$W
	addiu	$t2,$t2,-1
	bnez	$t2,.Lmont_single
	$PADDI	$tpj,$tpj,$W		# (delay slot)
.Lmont_inner_check:
	beq	$tpj,$tpend,.Lmont_inner_done
	nop
.Lmont_inner:
# LLVM-MCA-BEGIN bn_mul_mont_inner
# LLVM-MCA-UNITS 4 limbs
___
    for my $h (0, 1) {
        my $o = 2 * $h * $W;
        $s .= "\t$LW\t$a,".($o)."($apj)\n\t$LW\t$n,".($o)."($npj)\n\t$LW\t$t,".($o)."($tpj)\n";
        $s .= "\t$LW\t$a2,".($o+$W)."($apj)\n\t$LW\t$n2,".($o+$W)."($npj)\n\t$LW\t$t2,".($o+$W)."($tpj)\n";
        my @pair = (mac($v, $c1, $t, $a, $bi, $t), mac($v, $c2, $u, $n, $m, $t),
                    "$SW\t$u,".($o-$W)."($tpj)",
                    mac($v, $c1, $t2, $a2, $bi, $t2), mac($v, $c2, $u, $n2, $m, $t2));
        push @pair, "$SW\t$u,".($o)."($tpj)" if $h == 0;
        $s .= "\t$_\n" for @pair;
    }
    $s .= <<___;
	$PADDI	$tpj,$tpj,@{[4*$W]}
	$PADDI	$apj,$apj,@{[4*$W]}
	$PADDI	$npj,$npj,@{[4*$W]}
# LLVM-MCA-END
	bne	$tpj,$tpend,.Lmont_inner
	$SW	$u,-@{[2*$W]}($tpj)		# tp[j+2] (delay slot)
.Lmont_inner_done:
	$LW	$t,0($tpend)		# tp[num]
	$ADD	$c1,$c1,$c2
	sltu	$x,$c1,$c2
	$ADD	$c1,$c1,$t
	sltu	$t,$c1,$t
	$ADD	$x,$x,$t
	$SW	$c1,-$W($tpend)		# tp[num-1]
	bne	$bp,$bend,.Lmont_outer
	$SW	$x,0($tpend)		# tp[num] (delay slot)

	# rp = tp - np, then keep tp instead if that borrowed past tp[num]
@{[ final_pass() ]}	move	\$sp,$fp
$restore	li	$RET,1
	jr	\$31
	$PADDI	\$sp,\$sp,$fsz
.Lmont_decline:
	move	$RET,\$0
	jr	\$31
	$PADDI	\$sp,\$sp,$fsz
@{[ $is64 ? pair_code($v) : '' ]}	.end	bn_mul_mont
	.size	bn_mul_mont,.-bn_mul_mont
___
    return $s;
}

my $code = <<'___';
/* Generated by crypto/bn/asm/mips-mont.pl (asmcrypt); do not edit. */
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
	.text
	.set	noat
	.set	noreorder
___
if ($is64) {
    $code .= "#if ASMC_ISA_REV >= 6\n" . gen('r6') . "#else\n" . gen('base') . "#endif\n";
} else {
    $code .= "#if ASMC_ISA_REV >= 6\n" . gen('r6') . "#elif ASMC_ISA_REV >= 1\n" . gen('madd') .
             "#else\n" . gen('base') . "#endif\n";
}
$code .= "\t.section .note.GNU-stack,\"\",\@progbits\n";

if (defined $output) {
    open my $out, '>', $output or die "$output: $!\n";
    print $out $code;
    close $out or die "$output: $!\n";
} else {
    print $code;
}
