#!/usr/bin/env perl
#
# perlasm/arm-preamble-check.pl - the 32-bit ARM modules share one
# preamble (flavour and command line, the translator for ios32, the
# capability-word and ISA-level cpp block), and so do the AArch64 modules
# (flavour and command line, the translator for ios64; issue 15, item 4).
# Each module carries its family's preamble itself, because every script
# must run alone from a flat copy (the Linux kernel imports
# poly1305-armv4.pl and poly1305-armv8.pl by themselves); this check keeps
# the copies identical.
#
#   perl perlasm/arm-preamble-check.pl [--self-test] [SRCDIR]
#
# A preamble is the source text from the line "# ---- FAMILY preamble
# (begin)" to the line "# ---- FAMILY preamble (end)" (FAMILY: ARM32,
# AArch64); every module of the family must have exactly one, and each
# must equal the first module's byte for byte.
# --self-test also checks that a copy with one character changed, or with
# its end marker missing, is reported.  Last line: "arm-preamble-check: N
# passed, N failed"; exit status 0 iff nothing failed.
#
use strict;
use warnings;
use File::Spec;

my $self_test = @ARGV && $ARGV[0] eq '--self-test' ? shift @ARGV : 0;
my $src = shift @ARGV;
if (!defined $src) {
    my ($vol, $dir) = File::Spec->splitpath(File::Spec->rel2abs($0));
    $src = File::Spec->catdir($dir, File::Spec->updir);
}
my @families = (
    [ARM32   => 'crypto/poly1305/asm/poly1305-armv4.pl',
                'crypto/bn/asm/armv4-mont.pl', 'crypto/bn/asm/armv4-words.pl'],
    [AArch64 => 'crypto/poly1305/asm/poly1305-armv8.pl',
                'crypto/bn/asm/armv8-mont.pl', 'crypto/bn/asm/armv8-words.pl'],
);

# The preamble of a script's text, or an error message (a string starting
# with "error: ").
sub preamble {
    my ($text, $fam) = @_;
    my @b = ($text =~ /^# ---- \Q$fam\E preamble \(begin\)/mg);
    my @e = ($text =~ /^# ---- \Q$fam\E preamble \(end\)/mg);
    return "error: " . scalar(@b) . " begin and " . scalar(@e) . " $fam end markers"
        unless @b == 1 && @e == 1;
    $text =~ /^(# ---- \Q$fam\E preamble \(begin\).*?^# ---- \Q$fam\E preamble \(end\)[^\n]*\n)/ms
        or return "error: the $fam end marker comes before the begin marker";
    return $1;
}

sub slurp {
    my ($f) = @_;
    open(my $fh, '<', $f) or die "arm-preamble-check: $f: $!\n";
    local $/;
    return <$fh>;
}

my ($pass, $fail) = (0, 0);
sub check {
    my ($ok, $what) = @_;
    if ($ok) { $pass++; print "ok   $what\n" } else { $fail++; print "FAIL $what\n" }
}

# Problems of a set of modules, [name, text] each: a list of messages,
# empty when every module has one preamble identical to the first one's.
sub problems {
    my ($fam, @set) = @_;
    my (@msg, $ref, $ref_name);
    for my $e (@set) {
        my ($m, $text) = @$e;
        my $p = preamble($text, $fam);
        if ($p =~ /^error: (.*)/) { push @msg, "$m: $1"; next }
        if (!defined $ref) {
            ($ref, $ref_name) = ($p, $m);
            my $n = () = $p =~ /\n/g;
            push @msg, "$m: preamble of only $n lines" if $n < 20;
            next;
        }
        next if $p eq $ref;
        my @a = split /\n/, $ref;
        my @b = split /\n/, $p;
        my $i = 0;
        $i++ while $i < @a && $i < @b && $a[$i] eq $b[$i];
        push @msg, "$m: preamble differs from ${ref_name}'s at its line " . ($i + 1)
                   . ": '" . ($b[$i] // '(end)') . "' vs '" . ($a[$i] // '(end)') . "'";
    }
    return @msg;
}

for my $f (@families) {
    my ($fam, @modules) = @$f;
    my @set = map { [$_, slurp(File::Spec->catfile($src, $_))] } @modules;
    my @msg = problems($fam, @set);
    print "     $_\n" for @msg;
    check(!@msg, "$fam: the preamble of " . join(', ', @modules) . " is one text");
    next unless $self_test;
    # the same check on copies of the modules with one mutation each
    my $line = 'my $me = $0; $me =~ s{.*/}{};';
    my @mutants = (
        ['a one-character change', sub { $_[0] =~ s/\Q$line\E/my \$me = \$0; \$me =~ s{.*\/}{}g;/ }],
        ['a missing end marker', sub { $_[0] =~ s/^# ---- \Q$fam\E preamble \(end\)[^\n]*\n//m }],
        ['a second preamble', sub { $_[0] .= "# ---- $fam preamble (begin)\n# ---- $fam preamble (end)\n" }],
    );
    for my $mt (@mutants) {
        my ($what, $edit) = @$mt;
        my @copy = map { [@$_] } @set;
        my $applied = $edit->($copy[-1][1]);
        check($applied && problems($fam, @copy) > 0, "$fam self-test: $what in $copy[-1][0] is reported");
    }
}

print "arm-preamble-check: $pass passed, $fail failed\n";
exit($fail ? 1 : 0);
