#!/usr/bin/env perl
#
# tools/x86-sweep-bench.pl - what one eight-product sweep of the MULX
# block paths costs on this x86_64 core, against the mulx throughput.
#
#   perl tools/x86-sweep-bench.pl [--rounds N] [--keep DIR]
#
# The block paths of crypto/bn/asm/x86_64-mont.pl (sqr8, mulx2, s8/m8 and
# their reduction) are made of sweeps: one multiplier times eight words,
# per product one mulx, one adox (low half) and one adcx (high half) into
# a window of nine registers that moves up one word per sweep.  This tool
# times synthetic blocks of eight sweeps, each variant 100000 times in a
# loop, all variants alternately in every round, and prints per variant
# the median over the rounds of (its time / the mulx-only block's time in
# the same round), and the mulx-only block's cycles per multiply (TSC
# ticks scaled by the core/TSC ratio of a 1-cycle add chain timed in the
# same round).  Rounds whose baseline is more than 8% above its best are
# dropped: on a shared VM those are the minutes another tenant holds the
# core (docs/perf/x86_64-bn.md, "Run-to-run variation").
#
# Variants (the sums are not Montgomery products; only the shape counts):
#   mulx       64 independent mulx with a memory operand (the baseline)
#   sweep      8 sweeps as above; the chains' last carries are dropped
#   sweep+lea  the same and one lea on an unrelated register per sweep
#   sweep+top  the sweep as the real code must end it: the high half of
#              the last product straight into the new top word, then
#              adox and adcx of zero into it (both carries absorbed)
#   red        the s8 reduction's sweep: m = W[r] * n0 (mov, imul from
#              memory) at its start, xor of the top word, the carries
#              absorbed through the last high half (x86_64-mont.pl)
# Needs gcc (or cc) and a CPU with BMI2 and ADX; writes its sources and
# binary to a temporary folder (or DIR) and prints nothing else.
#
use strict;
use warnings;
use File::Temp qw(tempdir);
use Getopt::Long;

my $rounds = 41;
my $keep;
GetOptions('rounds=i' => \$rounds, 'keep=s' => \$keep)
    or die "usage: $0 [--rounds N] [--keep DIR]\n";
die "x86-sweep-bench: --rounds must be 5..255\n" if $rounds < 5 || $rounds > 255;   # cyc[256] below
my $flags = '';
if (open my $ci, '<', '/proc/cpuinfo') {
    while (<$ci>) { if (/^flags\s*:(.*)/) { $flags = $1; last } }
}
die "x86-sweep-bench: needs BMI2 and ADX (mulx, adcx, adox)\n"
    unless $flags =~ /\bbmi2\b/ && $flags =~ /\badx\b/;

my @WIN = qw(r8 r9 r10 r11 r12 r13 r14 r15 rbx);   # the nine-word window
my $PRODUCTS = 64;                                 # per block

# 32-bit name of a 64-bit register (for xor zeroing)
sub r32 { my ($r) = @_; return $r =~ /^r(\d+)$/ ? "r$1d" : 'e' . substr($r, 1); }

# The eight sweeps of one variant; %rdi = n[0..7], n0 at 64(%rdi),
# %rcx = 0.  Each sweep is followed by the window's rotation.
sub sweeps {
    my ($v) = @_;
    my @W = @WIN;
    my $s = '';
    for my $r (0 .. 7) {
        if ($v eq 'red') {
            $s .= "\tmov\t%$W[0],%rdx\n\timul\t64(%rdi),%rdx\n\txor\t%" . r32($W[8]) . ",%" . r32($W[8]) . "\n";
        } else {
            $s .= "\txor\t%eax,%eax\n";
        }
        for my $j (0 .. 7) {
            my $last = $j == 7;
            my $hi = ($last && $v eq 'sweep+top') ? $W[8] : 'rbp';
            $s .= "\tmulx\t" . (8 * $j) . "(%rdi),%rax,%$hi\n\tadox\t%rax,%$W[$j]\n";
            if (!$last) {
                $s .= "\tadcx\t%rbp,%$W[$j + 1]\n";
            } elsif ($v eq 'sweep+top') {
                $s .= "\tadox\t%rcx,%$W[8]\n\tadcx\t%rcx,%$W[8]\n";
            } elsif ($v eq 'red') {
                $s .= "\tadox\t%rcx,%rbp\n\tadcx\t%rbp,%$W[8]\n";
            } else {
                $s .= "\tadcx\t%rbp,%$W[8]\n";
            }
        }
        $s .= "\tlea\t1(%rsi),%rsi\n" if $v eq 'sweep+lea';
        push @W, shift @W;
    }
    return $s;
}

my @VARIANTS = ('mulx', 'sweep', 'sweep+lea', 'sweep+top', 'red');
sub cname { my ($v) = @_; (my $c = $v) =~ tr/+/_/; return "sb_$c"; }

# void sb_X(const uint64_t n[9], long iterations)
my $asm = "\t.text\n";
for my $v (@VARIANTS) {
    my $f = cname($v);
    my $body = $v eq 'mulx'
        ? join '', map { "\tmulx\t" . (8 * ($_ % 8)) . "(%rdi),%rax,%rbp\n" } 0 .. $PRODUCTS - 1
        : sweeps($v);
    $asm .= "\t.globl\t$f\n\t.type\t$f,\@function\n$f:\n"
          . join('', map { "\tpush\t%$_\n" } qw(rbx rbp r12 r13 r14 r15))
          . "\tmov\t%rsi,%r11\n\tmov\t\$0x123456789,%rdx\n\txor\t%ecx,%ecx\n\txor\t%esi,%esi\n"
          . join('', map { "\txor\t%" . r32($_) . ",%" . r32($_) . "\n" } grep { $_ ne 'r11' } @WIN)
          . "\tmov\t%r11,%rsi\n\tmov\t%rsi,72(%rdi)\n\txor\t%r11d,%r11d\n"
          . ".L${f}_loop:\n$body"
          . "\tdecq\t72(%rdi)\n\tjnz\t.L${f}_loop\n"
          . join('', map { "\tpop\t%$_\n" } reverse qw(rbx rbp r12 r13 r14 r15))
          . "\tret\n\t.size\t$f,.-$f\n";
}
# one add per cycle: the core/TSC ratio
$asm .= "\t.globl\tsb_addchain\n\t.type\tsb_addchain,\@function\nsb_addchain:\n\txor\t%eax,%eax\n"
      . ".Lsb_add_loop:\n" . ("\tadd\t\$1,%rax\n" x 100) . "\tdec\t%rdi\n\tjnz\t.Lsb_add_loop\n\tret\n";
$asm .= "\t.section\t.note.GNU-stack,\"\",\@progbits\n";

my $nv = @VARIANTS;
my $decls = join '', map { "void " . cname($_) . "(uint64_t *, long);\n" } @VARIANTS;
my $calls = join '', map {
    "        t0 = __rdtsc(); " . cname($VARIANTS[$_]) . "(n, ITER); t[$_][k] = (double)(__rdtsc() - t0);\n"
} 0 .. $#VARIANTS;
my $names = join ', ', map { "\"$_\"" } @VARIANTS;
my $c = <<___;
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>
#define ITER 100000L
#define NV $nv
$decls void sb_addchain(long);
static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
int main(int argc, char **argv)
{
    int rounds = atoi(argv[1]), k, v, m, kept = 0;
    static uint64_t n[10];
    static const char *name[NV] = { $names };
    double *t[NV], *ratio = malloc(sizeof(double) * rounds), *clk = malloc(sizeof(double) * rounds);
    double best = 1e300, cyc[256];
    uint64_t t0;

    for (v = 0; v < NV; v++)
        t[v] = malloc(sizeof(double) * rounds);
    for (k = 0; k < 9; k++)
        n[k] = 0x9e3779b97f4a7c15ull * (uint64_t)(k + 1);
    for (k = 0; k < rounds; k++) {
        t0 = __rdtsc(); sb_addchain(100000); clk[k] = (double)(__rdtsc() - t0) / 1e7;
$calls        if (t[0][k] < best)
            best = t[0][k];
    }
    for (k = 0; k < rounds; k++)
        if (t[0][k] <= best * 1.08)
            cyc[kept++] = t[0][k] / ($PRODUCTS.0 * ITER) / clk[k];
    qsort(cyc, (size_t)kept, sizeof(double), cmpd);
    printf("rounds %d, quiet %d; mulx-only block: %.3f core cycles per mulx (median)\\n",
           rounds, kept, cyc[kept / 2]);
    printf("%-10s  time / mulx-only block (median, quiet rounds)  ~cycles per product\\n", "variant");
    for (v = 0; v < NV; v++) {
        for (k = 0, m = 0; k < rounds; k++)
            if (t[0][k] <= best * 1.08)
                ratio[m++] = t[v][k] / t[0][k];
        qsort(ratio, (size_t)m, sizeof(double), cmpd);
        printf("%-10s  %.3f  [%.3f .. %.3f]                        %.2f\\n", name[v],
               ratio[m / 2], ratio[m / 4], ratio[(3 * m) / 4], ratio[m / 2] * cyc[kept / 2]);
    }
    return 0;
}
___
my $dir = $keep // tempdir(CLEANUP => 1);
mkdir $dir unless -d $dir;
for (['sb.S', $asm], ['sb.c', $c]) {
    open my $fh, '>', "$dir/$_->[0]" or die "x86-sweep-bench: $dir/$_->[0]: $!\n";
    print $fh $_->[1];
    close $fh;
}
my $cc = $ENV{CC} // 'cc';
system($cc, '-O2', '-o', "$dir/sb", "$dir/sb.c", "$dir/sb.S") == 0
    or die "x86-sweep-bench: $cc failed\n";
exec "$dir/sb", $rounds;
