#!/usr/bin/env perl
# tools/call-cycles.pl [--nm NM] OBJ... - report cycles among object files
# through the symbols they define and use (issue 15: "no circle among the
# source files").
#
# File A depends on file B when A uses (nm: U) a global symbol B defines
# (T, D, B, R).  A symbol defined by several of the objects (each test
# program's main, the same driver hook in two programs) links no edge: the
# objects of several programs can be passed together.  Every strongly connected component of more than one file
# is a cycle: those files cannot be understood, tested or replaced one at
# a time.  The objects of one build are passed together, so a cycle
# across folders (apps/ -> crypto/ -> apps/) is found too.
#
# Output: one line per cycle ("cycle: a.o b.o ..."), then
# "call-cycles: N passed, N failed" (1 passed when there is none, else
# one failure per cycle).  Exit 0 when there is no cycle, 1 otherwise.
use strict;
use warnings;

my $nm = 'nm';
if (@ARGV >= 2 && $ARGV[0] eq '--nm') { shift @ARGV; $nm = shift @ARGV }
die "usage: $0 [--nm NM] OBJ...\n" unless @ARGV;

my (%def, %uses);                    # symbol -> [files]; file -> {symbol}
for my $o (@ARGV) {
    open(my $fh, '-|', $nm, $o) or die "$nm $o: $!\n";
    $uses{$o} = {};
    while (<$fh>) {
        my @f = split;
        if (@f == 3 && $f[1] =~ /^[TDBR]$/) {
            push @{ $def{$f[2]} }, $o;
        } elsif (@f == 2 && $f[0] eq 'U') {
            $uses{$o}{$f[1]} = 1;
        }
    }
    close $fh or die "$nm $o failed\n";
}

my %edge;                            # file -> [files it depends on]
for my $o (sort keys %uses) {
    my %to = map { $_ => 1 } grep { $_ ne $o }
             map { $def{$_}[0] } grep { exists $def{$_} && @{ $def{$_} } == 1 }
             keys %{ $uses{$o} };
    $edge{$o} = [sort keys %to];
}

# Tarjan's strongly connected components, recursive: the depth is the
# longest dependency chain among the objects, a handful here.
my ($n, @stack, %index, %low, %on, @cycles) = (0);
sub visit {
    my ($v) = @_;
    $index{$v} = $low{$v} = $n++;
    push @stack, $v;
    $on{$v} = 1;
    for my $w (@{ $edge{$v} }) {
        if (!exists $index{$w}) {
            visit($w);
            $low{$v} = $low{$w} if $low{$w} < $low{$v};
        } elsif ($on{$w}) {
            $low{$v} = $index{$w} if $index{$w} < $low{$v};
        }
    }
    return if $low{$v} != $index{$v};
    my @c;
    while (1) {
        my $w = pop @stack;
        delete $on{$w};
        push @c, $w;
        last if $w eq $v;
    }
    push @cycles, [sort @c] if @c > 1;
}
for my $v (sort keys %edge) { visit($v) unless exists $index{$v} }

print "cycle: @$_\n" for @cycles;
my $multi = grep { @{ $def{$_} } > 1 } keys %def;
printf "call-cycles: %d passed, %d failed  (%d objects, %d symbols defined more than once)\n",
    @cycles ? 0 : 1, scalar @cycles, scalar keys %uses, $multi;
exit(@cycles ? 1 : 0);
