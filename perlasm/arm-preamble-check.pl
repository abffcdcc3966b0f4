#!/usr/bin/env perl
#
# perlasm/arm-preamble-check.pl - the 32-bit ARM modules share one
# preamble (flavour and command line, the translator for ios32, the
# capability-word and ISA-level cpp block; issue 15, item 4).  Each module
# carries the preamble itself, because every script must run alone from a
# flat copy (the Linux kernel imports poly1305-armv4.pl by itself); this
# check keeps the copies identical.
#
#   perl perlasm/arm-preamble-check.pl [--self-test] [SRCDIR]
#
# The preamble is the source text from the line "# ---- ARM32 preamble
# (begin)" to the line "# ---- ARM32 preamble (end)"; every module must
# have exactly one, and each must equal the first module's byte for byte.
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
my @modules = ('crypto/poly1305/asm/poly1305-armv4.pl',
               'crypto/bn/asm/armv4-mont.pl',
               'crypto/bn/asm/armv4-words.pl');

# The preamble of a script's text, or an error message (a string starting
# with "error: ").
sub preamble {
    my ($text) = @_;
    my @b = ($text =~ /^# ---- ARM32 preamble \(begin\)/mg);
    my @e = ($text =~ /^# ---- ARM32 preamble \(end\)/mg);
    return "error: " . scalar(@b) . " begin and " . scalar(@e) . " end markers"
        unless @b == 1 && @e == 1;
    $text =~ /^(# ---- ARM32 preamble \(begin\).*?^# ---- ARM32 preamble \(end\)[^\n]*\n)/ms
        or return "error: the end marker comes before the begin marker";
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
    my (@set) = @_;
    my (@msg, $ref, $ref_name);
    for my $e (@set) {
        my ($m, $text) = @$e;
        my $p = preamble($text);
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

my @set = map { [$_, slurp(File::Spec->catfile($src, $_))] } @modules;
my @msg = problems(@set);
print "     $_\n" for @msg;
check(!@msg, "the preamble of " . join(', ', @modules) . " is one text");

if ($self_test) {
    # the same check on copies of the modules with one mutation each
    my $line = 'my $me = $0; $me =~ s{.*/}{};';
    my @mutants = (
        ['a one-character change', sub { $_[0] =~ s/\Q$line\E/my \$me = \$0; \$me =~ s{.*\/}{}g;/ }],
        ['a missing end marker', sub { $_[0] =~ s/^# ---- ARM32 preamble \(end\)[^\n]*\n//m }],
        ['a second preamble', sub { $_[0] .= "# ---- ARM32 preamble (begin)\n# ---- ARM32 preamble (end)\n" }],
    );
    for my $mt (@mutants) {
        my ($what, $edit) = @$mt;
        my @copy = map { [@$_] } @set;
        my $applied = $edit->($copy[-1][1]);
        check($applied && problems(@copy) > 0, "self-test: $what in $copy[-1][0] is reported");
    }
}

print "arm-preamble-check: $pass passed, $fail failed\n";
exit($fail ? 1 : 0);
