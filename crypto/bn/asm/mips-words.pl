#!/usr/bin/env perl
#
# mips-words.pl - bignum word primitives for MIPS32 (o32, 32-bit words)
# and MIPS64 (n32/n64, 64-bit words).
#
#   perl mips-words.pl FLAVOUR OUT.S      FLAVOUR: o32 n32 64 nubi32 nubi64
#   (OUT.S alone: flavour 64; FLAVOUR alone: stdout).  Needs no other file.
#
# Written for asmcrypt from the schoolbook algorithms (Knuth, TAOCP vol. 2,
# 4.3.1).  Entry points (OpenSSL names and arguments, BN_ULONG = word):
#   bn_mul_add_words  rp[i] += ap[i]*w + carry          returns carry word
#   bn_mul_words      rp[i]  = ap[i]*w + carry          returns carry word
#   bn_mul_sub_words  rp[i] -= ap[i]*w + borrow         returns borrow word
#   bn_sqr_words      rp[2i], rp[2i+1] = ap[i]^2
#   bn_add_words / bn_sub_words                         returns 0/1
#   bn_cnd_add_words / bn_cnd_sub_words (cond word: 0 or not) constant time:
#     bp[i] is masked with -(cond != 0), the same instructions and
#     addresses run whatever cond is.
# num <= 0 does nothing and returns 0.
#
# OPENSSL MODE (-DASMCRYPT_OPENSSL): the module then stands in for
# OpenSSL's bn-mips.S and also provides the rest of what OpenSSL 3.0's C
# code links from it (bn_asm.c is not built on mips):
#   BN_ULONG bn_div_words(BN_ULONG h, BN_ULONG l, BN_ULONG d)
#       quotient of (h:l)/d, for h < d (every OpenSSL caller: d
#       normalized, h a remainder); bit-serial, no branch on data and no
#       divide instruction, W*11.5 + 3 instructions (371 o32, 739 64-bit)
#   void bn_mul_comba4/8(BN_ULONG *r, BN_ULONG *a, BN_ULONG *b)
#   void bn_sqr_comba4/8(BN_ULONG *r, const BN_ULONG *a)
#       r[0..2n-1] = a*b or a^2, r not overlapping a or b; straight-line
#       code, operands in registers, products software-pipelined:
#       mul 153 / 610, sqr 138 / 441 instructions (pre-R6; R6 137 / 546,
#       128 / 405; OpenSSL 3.0's own bn-mips.S, counted the same way:
#       145 / 597 and 127 / 497); comba8 saves eight registers
# OpenSSL's bn-mips.S also exports bn_div_3_words, which no C file of
# OpenSSL 3.0 calls (BN_DIV3W is never defined); it is not provided.
# Without ASMCRYPT_OPENSSL these five are not assembled (our library has
# its own C).  The module reads no capability word and references no
# symbol; the ISA block at the top of the .S is the same as in the other
# MIPS modules (perlasm/mips-isa-check.pl compares the copies), and
# -D__KERNEL__ changes nothing.
#
# Code paths (chosen in the generated .S from __mips_isa_rev):
#   o32 MIPS32r1..R5  multu + "maddu x, one" (multiply-by-one-and-add puts
#                     rp[i] and the carry into HI:LO: no sltu carries)
#   o32 MIPS I/II     multu/mflo/mfhi with sltu carries
#   o32 R6, n64/n32 R6  mulu/muhu (dmulu/dmuhu) with sltu carries
#   n32/n64 pre-R6    dmultu/mflo/mfhi with sltu carries
# Loops are unrolled four times plus a one-word tail loop.
#
# Hazards (not modelled by qemu, scheduled here): no loaded register is
# read by the next instruction (MIPS I load delay) and at least two
# instructions separate mflo/mfhi from the next multu/dmultu (MIPS I-IV
# HI/LO hazard); every function runs .set noreorder with its delay slots
# filled by hand.
#
# PERFORMANCE: instructions executed under qemu for num = 64, asm / our C
# reference (crypto/bn/bn_words.c, gcc 12 -O2, same flags); more rows and
# the commands in docs/perf/mips.md.
#
#             mul_add  mul      mul_sub   sqr      add      sub      cnd_add  cnd_sub
#   mips32r2  572/967  444/774  700/1415  443/583  587/966  587/1030 654/1034 654/1098
#   MIPS I    827/967  571/774  827/1415  443/583  (same as above)
#   mips32r6  763/900  507/644  763/1284  379/517  587/964  587/1028 654/1032 654/1096
#   mips64r2  827/968  571/712  827/1350  443/592  587/966  587/1030 653/1034 653/1098
#   mips64r6  763/901  507/645  763/1285  379/525  587/965  587/1029 653/1031 653/1095
# llvm-mca, bn_mul_add_words cycles per limb asm : C: mips32r2 generic
# 14.25 : 20.0, mips64r2 generic 15.25 : 19.0, mips64r6 I6400 12.0 : 14.0.
# Through the API at num = 8 bn_sqr_words is the one loss (13.6 vs 11.5
# instructions per limb, the loop setup); everything else wins.
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

# ABI-neutral register map.  Only caller-saved registers of every ABI
# (NUBI included) are used, so no function needs a stack frame.
my $RET = $nubi ? '$4' : '$2';
my ($rp, $ap, $bp, $a3) = ('$4', '$5', '$6', '$7');
my ($c, $x3, $t, $end, $cnt, $a, $r, $lo, $hi) =
   ('$2', '$3', '$8', '$9', '$10', '$11', '$24', '$25', '$1');

my $W   = $is64 ? 8 : 4;
my $LW  = $is64 ? 'ld' : 'lw';
my $SW  = $is64 ? 'sd' : 'sw';
my $ADD = $is64 ? 'daddu' : 'addu';
my $SUB = $is64 ? 'dsubu' : 'subu';
my $MUL = $is64 ? 'dmultu' : 'multu';
my ($MULLO, $MULHI) = $is64 ? ('dmulu', 'dmuhu') : ('mulu', 'muhu');
my $PADD  = $n64 ? 'daddu'  : 'addu';
my $PADDI = $n64 ? 'daddiu' : 'addiu';
my $PSLL  = $n64 ? 'dsll'   : 'sll';
my $LOGW  = $is64 ? 3 : 2;

my $code = <<'___';
/* Generated by crypto/bn/asm/mips-words.pl (asmcrypt); do not edit. */
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

# One product a*b into (lo, hi) for variant $v ('madd' never calls this).
sub prod {
    my ($v, $l, $h, $x, $y) = @_;
    return ("$MULLO\t$l,$x,$y", "$MULHI\t$h,$x,$y") if $v eq 'r6';
    return ("$MUL\t$x,$y", "mflo\t$l", "mfhi\t$h");
}

# A global function's head: .globl, .align 4, .ent/.type, the label,
# .frame of $fs bytes, .set noreorder.
sub func_head {
    my ($name, $fs) = @_;
    return "\t.globl\t$name\n\t.align\t4\n\t.ent\t$name\n\t.type\t$name,\@function\n"
         . "$name:\n\t.frame\t\$sp,$fs,\$31\n\t.set\tnoreorder\n";
}

# Function skeleton: 4x unrolled loop + 1-word tail loop.
#   $setup   instructions run once (after num > 0 is known)
#   $body    sub($k, $tail) -> list of instructions for word k (offset k*W
#            from ap/bp, per-function from rp); the last one must be the
#            store to rp (it goes to the delay slot)
#   $group   sub() -> instructions run before the four bodies (or '')
#   @ptrs    [reg, bytes per word] advanced every word
sub words_fn {
    my (%o) = @_;
    my $name = $o{name};
    my $numr = $o{num};
    my @ptrs = @{$o{ptrs}};
    my $s = func_head($name, 0);
    $s .= "\t$_\n" for @{$o{pre} || []};
    $s .= <<___;
	blez	$numr,.L${name}_done
	move	$c,\$0
___
    $s .= "\t$_\n" for @{$o{setup} || []};
    $s .= <<___;
	andi	$cnt,$numr,3		# tail words
	srl	$end,$numr,2
	beqz	$end,.L${name}_tail
	$PSLL	$end,$end,@{[$LOGW + 2]}
	$PADD	$end,$end,$ap		# ap + 4*W*(num/4)
.L${name}_loop4:
# LLVM-MCA-BEGIN $name
# LLVM-MCA-UNITS 4 limbs
___
    my @ins;
    push @ins, $o{group}->() if $o{group};
    push @ins, $o{body}->($_, 0) for 0 .. 3;
    my $last = pop @ins;
    $s .= "\t$_\n" for @ins;
    for my $p (@ptrs) {
        $s .= "\t$PADDI\t$p->[0],$p->[0],".(4 * $p->[1])."\n";
    }
    # the store of word 3 runs in the delay slot, after rp moved on
    my ($op, $reg, $off, $base) = $last =~ /^(\S+)\s+([^,]+),(-?\d+)\((\$\d+)\)$/
        or die "last instruction must be a store: $last";
    for my $p (@ptrs) { $off -= 4 * $p->[1] if $p->[0] eq $base }
    $s .= "# LLVM-MCA-END\n";
    $s .= "\tbne\t$ap,$end,.L${name}_loop4\n";
    $s .= "\t$op\t$reg,$off($base)\t# (delay slot)\n";
    $s .= ".L${name}_tail:\n";
    $s .= "\tbeqz\t$cnt,.L${name}_done\n\tnop\n";
    $s .= ".L${name}_loop1:\n";
    @ins = $o{body}->(0, 1);
    $last = pop @ins;
    ($op, $reg, $off, $base) = $last =~ /^(\S+)\s+([^,]+),(-?\d+)\((\$\d+)\)$/ or die;
    $s .= "\t$_\n" for @ins;
    for my $p (@ptrs) {
        $s .= "\t$PADDI\t$p->[0],$p->[0],$p->[1]\n" unless $o{tail_moves_ap} && $p->[0] eq $ap;
        $off -= $p->[1] if $p->[0] eq $base;
    }
    $s .= "\taddiu\t$cnt,$cnt,-1\n";
    $s .= "\tbnez\t$cnt,.L${name}_loop1\n";
    $s .= "\t$op\t$reg,$off($base)\t# (delay slot)\n";
    $s .= <<___;
.L${name}_done:
	jr	\$31
	move	$RET,$c
	.end	$name
	.size	$name,.-$name
___
    return $s;
}

# ---------------------------------------------------------------------------
sub gen_variant {
    my ($v) = @_;              # 'madd' (o32 r1..r5), 'base', 'r6'
    my $s = '';
    my $one = $x3;             # madd: constant 1
    my @one = $v eq 'madd' ? ("li\t$one,1") : ();

    # mul_add and mul_sub: word k of ap and of rp loaded into $a and $r,
    # then $step->($o) (o = k W, the byte offset) combines and stores
    my $rw_words = sub {
        my ($name, $step) = @_;
        return words_fn(
            name => $name, num => $bp, setup => [@one],
            ptrs => [[$ap, $W], [$rp, $W]],
            body => sub {
                my $o = $_[0] * $W;
                return ("$LW\t$a,$o($ap)", "$LW\t$r,$o($rp)", $step->($o));
            });
    };

    # bn_mul_add_words(rp, ap, num, w)
    $s .= $rw_words->('bn_mul_add_words', sub {
        my ($o) = @_;
        return ("multu\t$a,$a3", "maddu\t$r,$one", "maddu\t$c,$one",
                "mflo\t$r", "mfhi\t$c", "$SW\t$r,$o($rp)") if $v eq 'madd';
        return (prod($v, $lo, $hi, $a, $a3),
                "$ADD\t$lo,$lo,$r", "sltu\t$t,$lo,$r", "$ADD\t$hi,$hi,$t",
                "$ADD\t$lo,$lo,$c", "sltu\t$t,$lo,$c", "$ADD\t$c,$hi,$t",
                "$SW\t$lo,$o($rp)");
    });

    # bn_mul_words(rp, ap, num, w): the four a words are loaded first
    # ($bp = num is free once counted; madd keeps 1 in $x3)
    my @A = $v eq 'madd' ? ($a, $r, $bp, $hi) : ($a, $r, $bp, $x3);
    $s .= words_fn(
        name => 'bn_mul_words', num => $bp, setup => [@one],
        ptrs => [[$ap, $W], [$rp, $W]], tail_moves_ap => 1,
        group => sub { map { "$LW\t$A[$_]," . ($_ * $W) . "($ap)" } 0 .. 3 },
        body => sub {
            my ($k, $tail) = @_;
            my $o = $k * $W;
            my $ak = $tail ? $a : $A[$k];
            my @b;
            push @b, "$LW\t$a,0($ap)", "$PADDI\t$ap,$ap,$W" if $tail;
            if ($v eq 'madd') {
                push @b, "multu\t$ak,$a3", "maddu\t$c,$one", "mflo\t$t", "mfhi\t$c", "$SW\t$t,$o($rp)";
            } else {
                push @b, prod($v, $lo, $hi, $ak, $a3),
                    "$ADD\t$lo,$lo,$c", "sltu\t$t,$lo,$c", "$ADD\t$c,$hi,$t", "$SW\t$lo,$o($rp)";
            }
            return @b;
        });

    # bn_mul_sub_words(rp, ap, num, w)
    $s .= $rw_words->('bn_mul_sub_words', sub {
        my ($o) = @_;
        my @b = $v eq 'madd'
            ? ("multu\t$a,$a3", "maddu\t$c,$one", "mflo\t$lo", "mfhi\t$hi")
            : (prod($v, $lo, $hi, $a, $a3),
               "$ADD\t$lo,$lo,$c", "sltu\t$t,$lo,$c", "$ADD\t$hi,$hi,$t");
        return (@b, "sltu\t$t,$r,$lo", "$SUB\t$r,$r,$lo", "$ADD\t$c,$hi,$t", "$SW\t$r,$o($rp)");
    });

    # bn_sqr_words(rp, ap, num)
    @A = ($a, $r, $bp, $x3);
    $s .= words_fn(
        name => 'bn_sqr_words', num => $bp,
        ptrs => [[$ap, $W], [$rp, 2 * $W]], tail_moves_ap => 1,
        group => sub { map { "$LW\t$A[$_]," . ($_ * $W) . "($ap)" } 0 .. 3 },
        body => sub {
            my ($k, $tail) = @_;
            my $ak = $tail ? $a : $A[$k];
            my @b;
            push @b, "$LW\t$a,0($ap)", "$PADDI\t$ap,$ap,$W" if $tail;
            push @b, prod($v eq 'madd' ? 'base' : $v, $lo, $hi, $ak, $ak),
                "$SW\t$lo," . (2 * $k * $W) . "($rp)", "$SW\t$hi," . ((2 * $k + 1) * $W) . "($rp)";
            return @b;
        });
    return $s;
}

# add/sub/cnd: identical on every ISA level
sub gen_addsub {
    my $s = '';
    my $m = $hi;        # cnd mask
    my $cond = $o32 ? $t : '$8';
    for my $f (['bn_add_words', 0, 0], ['bn_sub_words', 1, 0],
               ['bn_cnd_add_words', 0, 1], ['bn_cnd_sub_words', 1, 1]) {
        my ($name, $sub, $cnd) = @$f;
        my @pre;
        my @setup;
        if ($cnd) {
            push @pre, "lw\t$cond,16(\$sp)" if $o32;       # 5th argument
            push @setup, "sltu\t$m,\$0,$cond", "$SUB\t$m,\$0,$m";   # -(cond != 0)
        }
        $s .= words_fn(
            name => $name, num => $a3, pre => \@pre, setup => \@setup,
            ptrs => [[$ap, $W], [$bp, $W], [$rp, $W]],
            body => sub {
                my ($k) = @_;
                my $o = $k * $W;
                # MIPS I load delay: b is first read 3 instructions later
                my @b = ("$LW\t$a,$o($ap)", "$LW\t$r,$o($bp)");
                if (!$sub) {
                    push @b, "$ADD\t$lo,$a,$c", "sltu\t$t,$lo,$c";
                    push @b, "and\t$r,$r,$m" if $cnd;
                    push @b, "$ADD\t$lo,$lo,$r", "sltu\t$c,$lo,$r", "or\t$c,$c,$t";
                } else {
                    push @b, "$SUB\t$lo,$a,$c", "sltu\t$t,$a,$c";
                    push @b, "and\t$r,$r,$m" if $cnd;
                    push @b, "sltu\t$c,$lo,$r", "$SUB\t$lo,$lo,$r", "or\t$c,$c,$t";
                }
                push @b, "$SW\t$lo,$o($rp)";
                return @b;
            });
    }
    return $s;
}

if ($is64) {
    $code .= "#if ASMC_ISA_REV >= 6\n" . gen_variant('r6') .
             "#else\n" . gen_variant('base') . "#endif\n";
} else {
    $code .= "#if ASMC_ISA_REV >= 6\n" . gen_variant('r6') .
             "#elif ASMC_ISA_REV >= 1\n" . gen_variant('madd') .
             "#else\n" . gen_variant('base') . "#endif\n";
}
$code .= gen_addsub();

# ---------------------------------------------------------------------------
# OpenSSL mode extras: the rest of what OpenSSL's bn-mips.S provides and
# OpenSSL's C code links against (bn_div_words, bn_mul_comba4/8,
# bn_sqr_comba4/8).  Written from the algorithms: column-wise ("comba")
# schoolbook products (P. G. Comba, "Exponentiation cryptosystems on the
# IBM PC", IBM Systems Journal 29(4), 1990) and bit-serial restoring
# division (Knuth, TAOCP vol. 2, 4.3.1).
# ---------------------------------------------------------------------------

my $TOPSH = $is64 ? ['dsrl32', 31] : ['srl', 31];       # x >> (W-1)
my $SLL1  = $is64 ? 'dsll' : 'sll';
my $ADDI  = $is64 ? 'daddiu' : 'addiu';

# bn_div_words(h, l, d): the W-bit quotient of (h:l) / d for h < d (what
# every OpenSSL caller passes: d normalized, h the running remainder).
# One quotient bit per step, no branch on data and no divide instruction
# (whose time depends on the operands on most cores):
#   (top:h:l) <<= 1;  e = (h < d) - top  (0 or 1; top = 1 implies h < d
#   because (top:h) < 2d);  h -= d & (e - 1);  the low bit of l becomes e.
# After W steps l holds the complemented quotient.
sub gen_div_words {
    my ($h, $l, $d) = ('$4', '$5', '$6');
    my ($top, $e, $m, $n) = ('$8', '$9', '$11', '$10');
    my ($srl, $sh) = @$TOPSH;
    my $step = <<___;
	$srl	$top,$h,$sh
	$SLL1	$h,$h,1
	$srl	$e,$l,$sh
	or	$h,$h,$e
	$SLL1	$l,$l,1
	sltu	$e,$h,$d
	$SUB	$e,$e,$top		# e = 1: (top:h) < d, quotient bit 0
	$ADDI	$m,$e,-1
	and	$m,$m,$d
	$SUB	$h,$h,$m
	or	$l,$l,$e
___
    my $body = $step x 4;
    $body =~ s/\n\tor\t\Q$l,$l,$e\E\n\z/\n/ or die;      # last one: delay slot
    return <<___;
	.globl	bn_div_words
	.align	4
	.ent	bn_div_words
	.type	bn_div_words,\@function
bn_div_words:
	.frame	\$sp,0,\$31
	.set	noreorder
	li	$n,@{[$W * 2]}		# W/4 iterations of 4 bits
.Ldiv_loop:
$body	addiu	$n,$n,-1
	bnez	$n,.Ldiv_loop
	or	$l,$l,$e		# (delay slot)
	jr	\$31
	nor	$RET,$l,\$0
	.end	bn_div_words
	.size	bn_div_words,.-bn_div_words
___
}

# Comba products (r[0..2n-1] = a*b or a^2, r not overlapping a or b).
# All operands are loaded into registers first.  Column k of a*b is the
# sum of a[i]*b[k-i] in a three-word accumulator (c0, c1, c2); r[k] = c0,
# then the accumulator moves down a word (a renaming in this generator).
# a^2 first sums the cross products a[i]*a[j], i < j, by columns into
# r[1..2n-2] (their sum is below B^(2n-1), B = 2^W), then one pass
# doubles r two words at a time and adds a[i]^2 into r[2i], r[2i+1]
# (the squares-on-the-diagonal method of GMP's sqr_basecase, restated).
#
# Products are software-pipelined: while product p multiplies, the
# accumulation of product p-1 runs (two (lo, hi) register pairs), so the
# multiplier latency is covered, and the emitter checks that at least two
# instructions separate mflo/mfhi from the next multu (MIPS I-IV HI/LO
# hazard; nops under ASMC_ISA_REV < 1 where they do not).  Loaded
# registers are first read two or more instructions later (MIPS I).

sub words_callee_saved {
    my ($r) = @_;
    my ($k) = $r =~ /^\$(\d+)$/;
    return 1 if ($k >= 16 && $k <= 23) || $k == 30;
    return 1 if $nubi && $k >= 12 && $k <= 15;
    return 0;
}

# Product stream emitter: items are [x, y, accA, accB] where accA/accB
# are instruction lists that use the symbolic operands LO/HI (replaced by
# the pair the product landed in).  Returns the instruction list.
sub product_stream {
    my ($v, $pairs, @items) = @_;
    my @out;
    my $since = 99;          # instructions since the last mflo/mfhi
    my $pending;             # [accA, accB] of the previous product
    my $emit = sub { for (@_) { push @out, $_; $since++ } };
    for my $p (0 .. $#items) {
        my ($x, $y, $accA, $accB) = @{$items[$p]};
        my ($l, $h) = @{$pairs->[$p & 1]};
        my @A = map { s/\bLO\b/$l/gr =~ s/\bHI\b/$h/gr } @$accA;
        my @B = map { s/\bLO\b/$l/gr =~ s/\bHI\b/$h/gr } @$accB;
        if ($v eq 'r6') {
            $emit->("$MULLO\t$l,$x,$y", "$MULHI\t$h,$x,$y");
            $emit->(@{$pending->[0]}, @{$pending->[1]}) if $pending;
        } else {
            if ($since < 2) {
                push @out, "#if ASMC_ISA_REV < 1";
                while ($since < 2) { push @out, "nop\t\t\t# HI/LO hazard (MIPS I-IV)"; $since++ }
                push @out, "#endif";
            }
            $emit->("$MUL\t$x,$y");
            $emit->(@{$pending->[0]}) if $pending;
            $emit->("mflo\t$l", "mfhi\t$h");
            $since = 0;
            $emit->(@{$pending->[1]}) if $pending;
        }
        $pending = [\@A, \@B];
    }
    $emit->(@{$pending->[0]}, @{$pending->[1]}) if $pending;
    return @out;
}

sub gen_comba {
    my ($v, $name, $n, $sqr) = @_;
    my ($rp, $ap, $bp) = ('$4', '$5', '$6');
    # operands from registers that are free while loading, then the rest
    my @pool = ('$2', '$3', '$7', '$8', '$9', '$10', '$11', '$12', '$13', '$14', '$15',
                '$24', '$25', '$1', map { "\$$_" } 16 .. 23, 30);
    my $order = sub { ((grep { !words_callee_saved($_) } @_), (grep { words_callee_saved($_) } @_)) };
    my %seen;
    @pool = grep { !$seen{$_}++ } $order->(@pool);
    my @A = splice @pool, 0, $n;
    my @B = $sqr ? @A : splice @pool, 0, $n;
    %seen = ();
    @pool = grep { !$seen{$_}++ } $order->('$5', '$6', @pool);    # ap, bp: free after the loads
    my ($c0, $c1, $c2, $l0, $h0, $l1, $h1, $t) = splice @pool, 0, 8;
    my @extra = splice @pool, 0, 4;                        # sqr second pass
    my @used = (@A, @B, $c0, $c1, $c2, $l0, $h0, $l1, $h1, $t, ($sqr ? @extra : ()));
    %seen = ();
    my @save = grep { words_callee_saved($_) && !$seen{$_}++ } @used;
    my $fs = (@save * $W + 15) & ~15;
    my $REG_S = $is64 ? 'sd' : 'sw';
    my $REG_L = $is64 ? 'ld' : 'lw';

    my @ins;
    if (@save) {
        push @ins, "$PADDI\t\$sp,\$sp,-$fs";
        my $off = $fs;
        for my $r (@save) { $off -= $W; push @ins, "$REG_S\t$r,$off(\$sp)" }
    }
    # loads, interleaved a/b so that the first product's operands come first
    for my $i (0 .. $n - 1) {
        push @ins, "$LW\t$A[$i]," . ($i * $W) . "($ap)";
        push @ins, "$LW\t$B[$i]," . ($i * $W) . "($bp)" unless $sqr;
    }

    my @c = ($c0, $c1, $c2);
    my (@items, $first_col, $last_col);
    if ($sqr) { ($first_col, $last_col) = (1, 2 * $n - 3) }
    else      { ($first_col, $last_col) = (0, 2 * $n - 2) }
    for my $k ($first_col .. $last_col) {
        my @pr;
        for my $i (0 .. $n - 1) {
            my $j = $k - $i;
            next if $j < 0 || $j >= $n;
            next if $sqr && $i >= $j;
            push @pr, [$A[$i], $B[$j]];
        }
        for my $q (0 .. $#pr) {
            my ($accA, $accB);
            if ($k == $first_col) {         # the one product of the first column
                ($accA, $accB) = ([], ["move\t$c[0],LO", "move\t$c[1],HI", "move\t$c[2],\$0"]);
            } else {
                $accA = ["$ADD\t$c[0],$c[0],LO", "sltu\t$t,$c[0],LO", "$ADD\tHI,HI,$t"];
                $accB = $q == 0 ? ["$ADD\t$c[1],$c[1],HI", "sltu\t$c[2],$c[1],HI"]
                                : ["$ADD\t$c[1],$c[1],HI", "sltu\t$t,$c[1],HI", "$ADD\t$c[2],$c[2],$t"];
            }
            if ($q == $#pr) {               # column done
                push @$accB, "$SW\t$c[0]," . ($k * $W) . "($rp)";
                @c = (@c[1, 2], $c[0]);
            }
            push @items, [@{$pr[$q]}, $accA, $accB];
        }
    }
    # column k+1 is c0 now (c1 = 0 after the last column)
    push @{$items[-1][3]}, "$SW\t$c[0]," . (($last_col + 1) * $W) . "($rp)";
    my @tail;
    if (!$sqr) {
        push @ins, product_stream($v, [[$l0, $h0], [$l1, $h1]], @items);
    } else {
        # a^2: r[0] = 0, r[1..2n-2] = cross products (r[2n-2] from the last
        # column's carry), r[2n-1] = 0; now r = 2r + sum a[i]^2 B^(2i)
        push @ins, product_stream($v, [[$l0, $h0], [$l1, $h1]], @items);
        my ($x, $y, $cy, $top) = ($c0, $c1, $c2, $t);
        my ($u, $t2) = @extra[0, 1];
        my ($srl, $sh) = @$TOPSH;
        my @diag;
        for my $i (0 .. $n - 1) {
            my (@pA, @pB);
            if ($i == 0) {      # x = r[0] = 0: r0 = lo, y = 2 r[1] + hi
                @pA = ("$LW\t$y," . (1 * $W) . "($rp)");
                @pB = ("$srl\t$top,$y,$sh", "$SLL1\t$y,$y,1", "$SW\tLO,0($rp)",
                       "$ADD\t$y,$y,HI", "sltu\t$cy,$y,HI", "$SW\t$y," . (1 * $W) . "($rp)");
            } else {
                my ($ox, $oy) = (2 * $i * $W, (2 * $i + 1) * $W);
                # r[2n-1] of the cross products is 0 (never stored)
                @pA = ("$LW\t$x,$ox($rp)",
                       $i == $n - 1 ? "move\t$y,\$0" : "$LW\t$y,$oy($rp)",
                       "$ADD\t$top,$top,$cy");
                # (x, y) = 2 (x, y) + top_in, top_in = shifted-out bit + carry (0..2)
                @pB = ("$srl\t$u,$x,$sh", "$SLL1\t$x,$x,1", "$ADD\t$x,$x,$top",
                       "sltu\t$t2,$x,$top",          # (2x + top_in wrapped)
                       "$srl\t$top,$y,$sh", "$SLL1\t$y,$y,1", "or\t$y,$y,$u");
                push @pB, "$ADD\t$x,$x,LO", "sltu\t$u,$x,LO", "$ADD\t$u,$u,$t2",
                          "$ADD\t$y,$y,$u", "sltu\t$cy,$y,$u",
                          "$ADD\t$y,$y,HI", "sltu\t$u,$y,HI", "$ADD\t$cy,$cy,$u",
                          "$SW\t$x,$ox($rp)", "$SW\t$y,$oy($rp)";
            }
            push @diag, [$A[$i], $A[$i], \@pA, \@pB];
        }
        push @ins, product_stream($v, [[$l0, $h0], [$l1, $h1]], @diag);
    }
    my $s = func_head($name, $fs);
    for (@ins) { $s .= /^#/ ? "$_\n" : "\t$_\n" }
    if (@save) {
        my $off = $fs;
        for my $r (@save) { $off -= $W; $s .= "\t$REG_L\t$r,$off(\$sp)\n" }
        $s .= "\tjr\t\$31\n\t$PADDI\t\$sp,\$sp,$fs\n";
    } else {
        $s .= "\tjr\t\$31\n\tnop\n";
    }
    $s .= "\t.end\t$name\n\t.size\t$name,.-$name\n";
    return $s;
}

sub gen_openssl_extras {
    my ($v) = @_;
    my $s = '';
    $s .= gen_comba($v, 'bn_mul_comba4', 4, 0);
    $s .= gen_comba($v, 'bn_mul_comba8', 8, 0);
    $s .= gen_comba($v, 'bn_sqr_comba4', 4, 1);
    $s .= gen_comba($v, 'bn_sqr_comba8', 8, 1);
    return $s;
}

$code .= "#ifdef ASMCRYPT_OPENSSL\n";
$code .= gen_div_words();
$code .= "#if ASMC_ISA_REV >= 6\n" . gen_openssl_extras('r6') .
         "#else\n" . gen_openssl_extras('base') . "#endif\n";
$code .= "#endif /* ASMCRYPT_OPENSSL */\n";
$code .= "\t.section .note.GNU-stack,\"\",\@progbits\n";

if (defined $output) {
    open my $out, '>', $output or die "$output: $!\n";
    print $out $code;
    close $out or die "$output: $!\n";
} else {
    print $code;
}
