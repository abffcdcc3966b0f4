#!/usr/bin/env perl
#
# perlasm/mips-isa-check.pl - the MIPS modules share one ISA-revision cpp
# block (issue 15, item 4).  Each module carries the block itself, because
# every script must run alone from a flat copy (the Linux kernel imports
# poly1305-mips.pl by itself); this check keeps the copies identical.
#
#   perl perlasm/mips-isa-check.pl [SRCDIR]      (default: this tree)
#
# For every MIPS module and flavour (o32, n32, 64) it generates the .S,
# cuts the block (from its first comment line to the #endif that ends it)
# and compares it with the block of the first module and flavour, which
# must have every rung: R6, R2..R5, MIPS32/MIPS64 r1, and older.  Last line:
# "total: N passed, N failed"; exit status 0 iff nothing failed.
#
use strict;
use warnings;
use File::Spec;
use File::Temp qw(tempdir);

my $src = shift @ARGV;
if (!defined $src) {
    my ($vol, $dir) = File::Spec->splitpath(File::Spec->rel2abs($0));
    $src = File::Spec->catdir($dir, File::Spec->updir);
}
my @modules = ('crypto/poly1305/asm/poly1305-mips.pl',
               'crypto/bn/asm/mips-mont.pl',
               'crypto/bn/asm/mips-words.pl');
my @flavours = ('o32', 'n32', '64');

# The block starts with this line and ends at the first "#endif" line
# after it.  The reference is the block of the first module's first
# flavour (poly1305-mips.pl, the one the kernel imports alone); every
# other module and flavour must emit it byte for byte.
my $first = '/* ISA revision of the build (the same block in every MIPS module).';

my ($pass, $fail) = (0, 0);
sub check {
    my ($ok, $what) = @_;
    if ($ok) { $pass++ } else { $fail++; print "FAIL: $what\n" }
}

my $tmp = tempdir(CLEANUP => 1);
my $ref;
for my $m (@modules) {
    my $pl = File::Spec->catfile($src, $m);
    for my $f (@flavours) {
        my $out = File::Spec->catfile($tmp, 'x.S');
        unlink $out;
        my $rc = system($^X, $pl, $f, $out);
        if ($rc != 0 || !-s $out) { check(0, "$m $f: the script failed"); next }
        open my $fh, '<', $out or die "$out: $!\n";
        my $text = do { local $/; <$fh> };
        close $fh;
        my $at = index($text, "$first\n");
        if ($at < 0) { check(0, "$m $f: no ISA-revision block"); next }
        my $end = index($text, "\n#endif\n", $at);
        my $block = $end < 0 ? '' : substr($text, $at, $end + 8 - $at);
        if (!defined $ref) {
            # Every rung is present in the reference.
            $ref = $block;
            for my $rung ('ASMC_ISA_REV 6', 'ASMC_ISA_REV 2', 'ASMC_ISA_REV 1', 'ASMC_ISA_REV 0') {
                check(index($ref, "# define $rung\n") >= 0, "$m $f: the ISA-revision block lacks '$rung'");
            }
        }
        check($block eq $ref, "$m $f: the ISA-revision block differs from $modules[0] $flavours[0]'s");
        my $n = () = $text =~ /^\Q$first\E$/mg;
        check($n == 1, "$m $f: the ISA-revision block appears $n times");
    }
}
print "total: $pass passed, $fail failed\n";
exit($fail ? 1 : 0);
