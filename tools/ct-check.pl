#!/usr/bin/env perl
#
# tools/ct-check.pl - constant-time check by trace equivalence.
#
#   perl tools/ct-check.pl --plugin PATH/libicount.so --emulator "QEMU ARGS" \
#        [--keep DIR] DRIVER [CAPMASK...]
#
# Runs DRIVER (tools/ct_main.c) under the emulator with the plugin in trace
# mode on asmcrypt_probe.  The driver prints "case NAME VARIANT" before each
# probe call; the plugin prints "call K insns=.. mem=.. ihash=.. mhash=.."
# per call.  Per case, every variant (the "warm" call excluded) must have
# the same instruction-address hash, memory-access hash and counts; cases
# named leak-* are planted leaks and pass only when a difference is seen.
# Prints one line per case and "N passed, N failed"; exits 1 on failure.
#
use strict;
use warnings;
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use Getopt::Long;

my ($plugin, $emulator, $keep) = ('', '', '');
GetOptions('plugin=s' => \$plugin, 'emulator=s' => \$emulator, 'keep=s' => \$keep)
    or die "usage: ct-check.pl --plugin SO --emulator CMD DRIVER [CAP...]\n";
my ($driver, @caps) = @ARGV;
die "ct-check.pl: no driver\n" unless defined $driver && -x $driver;
die "ct-check.pl: plugin '$plugin' not found (make tools)\n" unless -f $plugin;

my $dir = $keep ne '' ? $keep : tempdir(CLEANUP => 1);
make_path($dir) unless -d $dir;
my ($labels, $trace) = ("$dir/ct-labels.txt", "$dir/ct-trace.txt");

# env -i: nothing from the environment may change a path through the code
# (ASMCRYPT_CAP in particular); the driver restricts capabilities itself.
my $cmd = "env -i $emulator -plugin $plugin,sym=asmcrypt_probe,trace=on,out=$trace "
        . "$driver @caps >$labels";
system($cmd) == 0 or do {
    print "ct-check: driver failed: $cmd\n0 passed, 1 failed\n";
    exit 1;
};

open my $lf, '<', $labels or die "$labels: $!\n";
my @label;
while (<$lf>) {
    push @label, [$1, $2] if /^case (\S+) (\S+)$/;
}
close $lf;
open my $tf, '<', $trace or die "$trace: $!\n";
my @call;
while (<$tf>) {
    push @call, "insns=$1 mem=$2 ihash=$3 mhash=$4"
        if /^call \d+ insns=(\d+) mem=(\d+) ihash=(\S+) mhash=(\S+)/;
}
close $tf;
if (@label != @call) {
    printf "ct-check: %d labels but %d traced calls (driver and plugin out of step)\n",
        scalar @label, scalar @call;
    print "0 passed, 1 failed\n";
    exit 1;
}

my (%traces, @order);
for my $i (0 .. $#label) {
    my ($case, $variant) = @{ $label[$i] };
    next if $variant eq 'warm';
    push @order, $case unless exists $traces{$case};
    push @{ $traces{$case} }, [$variant, $call[$i]];
}

my ($pass, $fail) = (0, 0);
for my $case (@order) {
    my @t = @{ $traces{$case} };
    my %distinct;
    $distinct{ $_->[1] }++ for @t;
    my $same = keys(%distinct) == 1;
    my $what = '';
    if (!$same) {
        my ($ref) = $t[0][1];
        my @diff = grep { $_->[1] ne $ref } @t;
        my %f0 = map { split /=/ } split ' ', $ref;
        my %f1 = map { split /=/ } split ' ', $diff[0][1];
        my @which = grep { $f0{$_} ne $f1{$_} } qw(insns ihash mem mhash);
        $what = sprintf "variant %s vs %s differ in %s", $t[0][0], $diff[0][0], join(',', @which);
    }
    if ($case =~ /^leak-/) {
        if ($same) { $fail++; print "FAIL $case: planted leak NOT detected\n" }
        else       { $pass++; print "ok   $case: planted leak detected ($what)\n" }
    } else {
        if ($same) { $pass++; printf "ok   %s: %d variants, %s\n", $case, scalar @t, $t[0][1] }
        else       { $fail++; print "FAIL $case: secret-dependent trace: $what\n" }
    }
}
print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);
