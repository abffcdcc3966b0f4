#!/usr/bin/env perl
#
# tools/icount-report.pl - instruction counts per byte / op / limb for one
# build, as a markdown section.
#
#   perl tools/icount-report.pl --plugin toolbin/libicount.so \
#        --emulator "qemu-arm -cpu cortex-a8 -L /usr/arm-linux-gnueabihf" \
#        [--target T] [--row NAME] [--cflags F] [--quick] [--runs 2] \
#        [--out FILE] [--gate] [--raw FILE] toolbin/icount_driver CAPMASK...
#
# Runs the counting driver (tools/icount_main.c) under qemu with the plugin
# counting every call of asmcrypt_probe (callees included).  For each
# primitive, size and implementation the driver makes a warm-up call, then
# one call doing the work N times and one doing it 2N times; the figure is
# (count(2N) - count(N)) / N, minus the per-repetition cost of the probe
# loop itself (the "null" probe), divided by the bytes/limbs of one call.
# The whole run is repeated --runs times (default 2) and every count must
# be identical, which the section states.
#
# --gate runs the driver's gate set (-g: headline sizes, library paths
# only); --raw FILE also writes one line per measured figure,
#     PRIM SIZE IMPL COUNT
# COUNT being instructions per call (not per unit), for test/icount-gate.sh.
#
use strict;
use warnings;
use File::Temp qw(tempdir);
use File::Basename qw(dirname);
use Cwd qw(abs_path);
use Getopt::Long;
use POSIX qw(strftime);

my %o = (plugin => '', emulator => '', target => '', row => '', cflags => '',
         out => '', runs => 2, quick => 0, gate => 0, raw => '');
GetOptions(\%o, 'plugin=s', 'emulator=s', 'target=s', 'row=s', 'cflags=s',
           'out=s', 'runs=i', 'quick', 'gate', 'raw=s') or die "icount-report.pl: bad options\n";
my ($driver, @caps) = @ARGV;
die "icount-report.pl: no driver\n" unless defined $driver && -x $driver;
die "icount-report.pl: plugin '$o{plugin}' not found (make tools)\n" unless -f $o{plugin};

my $tmp = tempdir(CLEANUP => 1);

# One run: list of [prim, size, units, impl, reps, count].
sub run_once {
    my ($k) = @_;
    my ($labels, $trace) = ("$tmp/labels$k", "$tmp/trace$k");
    my $q = $o{gate} ? '-g ' : $o{quick} ? '-q ' : '';   # also in the "run as" line
    my $cmd = "env -i $o{emulator} -plugin $o{plugin},sym=asmcrypt_probe,percall=on,out=$trace "
            . "$driver $q@caps >$labels";
    system($cmd) == 0 or die "icount-report.pl: failed: $cmd\n";
    open my $lf, '<', $labels or die "$labels: $!\n";
    my @l = map { [ (split)[1 .. 5] ] } grep { /^probe / } <$lf>;
    close $lf;
    open my $tf, '<', $trace or die "$trace: $!\n";
    my @c = map { /^call \d+ insns=(\d+)/ ? $1 : () } <$tf>;
    close $tf;
    die sprintf("icount-report.pl: %d labels, %d calls\n", scalar @l, scalar @c) if @l != @c;
    push @{ $l[$_] }, $c[$_] for 0 .. $#l;
    return \@l;
}

my @runs = map { run_once($_) } 1 .. $o{runs};
my $same = 1;
for my $r (@runs[1 .. $#runs]) {
    for my $i (0 .. $#{ $runs[0] }) {
        $same = 0 if "@{ $r->[$i] }" ne "@{ $runs[0][$i] }";
    }
}
my $calls = scalar @{ $runs[0] };

# Per (prim,size,impl): counts by reps.
my (%cnt, %units, @prims, %sizes, %impls);
for my $e (@{ $runs[0] }) {
    my ($prim, $size, $units, $impl, $reps, $n) = @$e;
    $cnt{$prim}{$size}{$impl}{$reps} = $n;
    $units{$prim}{$size} = $units;
    push @prims, $prim unless grep { $_ eq $prim } @prims;
    push @{ $sizes{$prim} }, $size unless grep { $_ == $size } @{ $sizes{$prim} || [] };
    push @{ $impls{$prim} }, $impl unless grep { $_ eq $impl } @{ $impls{$prim} || [] };
}
my $null = 0;
if (my $z = $cnt{null}{0}{null}) {
    $null = $z->{2} - $z->{1};
}

sub per_call {
    my ($prim, $size, $impl) = @_;
    my $c = $cnt{$prim}{$size}{$impl} or return undef;
    my @r = sort { $a <=> $b } grep { $_ > 0 } keys %$c;
    return undef unless @r == 2;
    my ($n1, $n2) = @r;
    return ($c->{$n2} - $c->{$n1}) / ($n2 - $n1) - $null;
}

sub per_unit {
    my ($prim, $size, $impl) = @_;
    my $v = per_call($prim, $size, $impl);
    return defined $v ? $v / $units{$prim}{$size} : undef;
}

if ($o{raw} ne '') {
    open my $fh, '>', $o{raw} or die "$o{raw}: $!\n";
    for my $prim (grep { $_ ne 'null' } @prims) {
        for my $size (@{ $sizes{$prim} }) {
            for my $impl (@{ $impls{$prim} }) {
                my $v = per_call($prim, $size, $impl);
                next unless defined $v;
                printf $fh "%s %s %s %s\n", $prim, $size, $impl,
                    $v == int($v) ? $v : sprintf('%.2f', $v);
            }
        }
    }
    close $fh;
}

my %family = (poly1305 => 'Poly1305 one-shot tag: instructions per byte',
              bn_mont_mul => 'Montgomery multiplication: instructions per operation (size in bits)',
              bn_mont_sqr => 'Montgomery squaring (ap == bp): instructions per operation (size in bits)',
              mod_exp => 'Constant-time modexp (full-size exponent): instructions per operation (size in bits)');
my $words_title = 'Word primitives: instructions per limb (size in limbs)';

my @md;
my $title = $o{row} ne '' ? $o{row} : $o{target};
push @md, "## $title", '';
push @md, "- target `$o{target}`, CFLAGS `$o{cflags}`" if $o{target} ne '';
# the source folder is shown as $(SRCDIR), so the file does not depend on
# where the tree was checked out
my $srcdir = abs_path(dirname(abs_path($0)) . '/..');
(my $emu_shown = $o{emulator}) =~ s/\Q$srcdir\E(?=\/)/\$(SRCDIR)/g;
push @md, "- run as `env -i $emu_shown -plugin libicount.so,sym=asmcrypt_probe,percall=on $driver "
    . ($o{gate} ? '-g ' : $o{quick} ? '-q ' : '') . "@caps`";
push @md, sprintf "- %d runs of %d measured calls: %s", scalar @runs, $calls,
    $same ? 'every count identical' : '**COUNTS DIFFER BETWEEN RUNS**';
push @md, "- probe loop overhead subtracted: $null instructions per repetition";
push @md, '';

sub fmt {
    my ($v, $prim) = @_;
    return '–' unless defined $v;
    return $prim =~ /^(bn_mont_mul|bn_mont_sqr|mod_exp)$/ ? sprintf('%.0f', $v) : sprintf('%.2f', $v);
}

# One table per family; the word primitives share one table.
my @groups = (['poly1305'], ['bn_mont_mul'], ['bn_mont_sqr'], ['mod_exp'],
              [grep { /_words$/ } @prims]);
for my $g (@groups) {
    my @p = grep { exists $cnt{$_} } @$g;
    next unless @p;
    my @cols;
    for my $prim (@p) {
        for my $i (@{ $impls{$prim} }) { push @cols, $i unless grep { $_ eq $i } @cols }
    }
    push @md, '### ' . ($family{ $p[0] } // $words_title), '';
    push @md, '| primitive | size | ' . join(' | ', @cols) . ' |';
    push @md, '|---|---:|' . join('', map { '---:|' } @cols);
    for my $prim (@p) {
        for my $size (@{ $sizes{$prim} }) {
            my @v = map { per_unit($prim, $size, $_) } @cols;
            my ($best) = sort { $a <=> $b } grep { defined } @v;
            my @cells = map {
                my $s = fmt($_, $prim);
                (defined $_ && defined $best && $_ == $best && @cols > 1) ? "$s#" : $s
            } @v;
            push @md, "| $prim | $size | " . join(' | ', @cells) . ' |';
        }
    }
    push @md, '';
}
push @md, "`#` marks the fewest instructions in a row.  Instruction counts are not cycles: see mca.md for cycle estimates.", '';

# Asm against C at the largest size of each primitive: the ratio of the
# best asm path to the best C reference, and every asm path that executes
# more instructions than C (the field's lesson: check, don't assume).
# Like with like: the asm entries called directly (asm:<name>), as the C
# references are; the api: columns add the API's checks to one side only.
# Drivers without asm: columns fall back to api:.
# tools/perf-all.sh collects the "<!-- icount-summary ... -->" lines.
my (@worse, @summary);
for my $prim (@prims) {
    next if $prim eq 'null';
    my $size = $sizes{$prim}[-1];
    my @c = grep { defined } map { per_unit($prim, $size, $_) } grep { /^c(-ref\d+)?$/ } @{ $impls{$prim} };
    my $kind = (grep { /^asm:/ } @{ $impls{$prim} }) ? 'asm' : 'api';
    my %asm = map { ($_ => per_unit($prim, $size, $_)) }
              grep { /^$kind:/ && $_ ne "$kind:c" } @{ $impls{$prim} };
    delete $asm{$_} for grep { !defined $asm{$_} } keys %asm;
    next unless @c && %asm;
    my ($cbest) = sort { $a <=> $b } @c;
    my ($abest) = sort { $a <=> $b } values %asm;
    push @summary, sprintf '%s@%s=%.2f', $prim, $size, $abest / $cbest;
    for my $a (sort keys %asm) {
        push @worse, sprintf('%s %s: %s %s vs C %s (%.2fx)', $prim, $size, $a,
                             fmt($asm{$a}, $prim), fmt($cbest, $prim), $asm{$a} / $cbest)
            if $asm{$a} > $cbest;
    }
}
if (@worse) {
    push @md, '**Asm paths that execute more instructions than the C reference** (largest size):', '';
    push @md, map { "- $_" } @worse;
    push @md, '';
}
push @md, "<!-- icount-summary $title | " . join(' ', @summary) . ' | ' . scalar(@worse) . ' -->', '';

my $text = join("\n", @md);
print $text;
if ($o{out} ne '') {
    open my $fh, '>', $o{out} or die "$o{out}: $!\n";
    print $fh $text;
    close $fh;
}
exit($same ? 0 : 1);
