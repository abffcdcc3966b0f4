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
# and compares it with the block below.  It also checks that the block has
# every rung: R6, R2..R5, MIPS32/MIPS64 r1, and older.  Last line:
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

# The reference text: what every module must emit.
my $ref = <<'___';
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
___
my ($first) = $ref =~ /^(.*)\n/;

my ($pass, $fail) = (0, 0);
sub check {
    my ($ok, $what) = @_;
    if ($ok) { $pass++ } else { $fail++; print "FAIL: $what\n" }
}

# Every rung is present in the reference itself.
for my $rung ('ASMC_ISA_REV 6', 'ASMC_ISA_REV 2', 'ASMC_ISA_REV 1', 'ASMC_ISA_REV 0') {
    check(index($ref, "# define $rung\n") >= 0, "reference block lacks '$rung'");
}

my $tmp = tempdir(CLEANUP => 1);
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
        check($block eq $ref, "$m $f: the ISA-revision block differs from the reference");
        my $n = () = $text =~ /^\Q$first\E$/mg;
        check($n == 1, "$m $f: the ISA-revision block appears $n times");
    }
}
print "total: $pass passed, $fail failed\n";
exit($fail ? 1 : 0);
