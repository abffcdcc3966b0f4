#!/usr/bin/env perl
#
# perlasm/capbits-check.pl - one source for the capability bits (issue 15,
# item 3).  include/asmcrypt/cpu.h numbers the bits of the capability word
# (ASMCRYPT_CAP_<ARCH>_<F> = 1u << n); every module that tests a bit must
# run alone from a flat copy, so it carries its own default for
# ASMCRYPT_CAPBIT_<ARCH>_<F> (a Perl table or a cpp block it emits).  This
# check keeps those copies equal to cpu.h.
#
#   perl perlasm/capbits-check.pl [SRCDIR]        (default: this tree)
#   perl perlasm/capbits-check.pl --self-test [SRCDIR]
#
# For every crypto/*/asm/*.pl and every flavour of its family it
#  - generates the .S and runs it through the host C preprocessor (cpp -dM)
#    without and with -DASMCRYPT_OPENSSL; each ASMCRYPT_CAPBIT_* the .S
#    names must get a default, equal to cpu.h's bit (native) or to the bit
#    of OpenSSL's capability word (%OPENSSL below; -1 where OpenSSL has
#    none);
#  - reads the Perl source: every "NAME => n" of a %CAPBIT_* table and
#    every literal "define ASMCRYPT_CAPBIT_<X> n" must name a cpu.h bit and
#    hold its native value, its OpenSSL value or -1.
# --self-test also mutates copies of the tree (a cpu.h bit, a Perl table
# entry, a cpp default) and requires the check to fail on each copy.
# Last line: "total: N passed, N failed"; exit status 0 iff nothing failed.
#
use strict;
use warnings;
use File::Spec;
use File::Temp qw(tempdir);
use File::Path qw(make_path);
use File::Copy qw(copy);

my $self_test = @ARGV && $ARGV[0] eq '--self-test' ? shift @ARGV : undef;
my $src = shift @ARGV;
if (!defined $src) {
    my ($vol, $dir) = File::Spec->splitpath(File::Spec->rel2abs($0));
    $src = File::Spec->catdir($dir, File::Spec->updir);
}

# Flavours and host-cpp defines per module family (the file-name prefix).
# A module of no family listed here fails: a new one must be added.
my %FAMILY = (
    'x86_64'  => { flavours => [qw(elf macosx mingw64)], cpp => [] },
    'armv4'   => { flavours => [qw(linux32 void ios32)],
                   cpp => ['-D__arm__', '-D__ARM_ARCH=7', '-D__ARM_ARCH__=7'] },
    'armv8'   => { flavours => [qw(linux64 ios64 void)], cpp => ['-D__aarch64__'] },
    'mips'    => { flavours => [qw(o32 n32 64)], cpp => ['-D__mips__'] },
);

# OpenSSL's capability words (facts of its public cpuid layout):
# OPENSSL_ia32cap_P[1] = CPUID.1:ECX, [2] = CPUID.(7,0):EBX, so bit 32+k
# resp. 64+k; OPENSSL_armcap_P bit 0 = ARMV7_NEON (also on AArch64).  -1:
# OpenSSL has no bit, the build's ISA decides.
my %OPENSSL = (
    X86_BMI1 => 64 + 3, X86_BMI2 => 64 + 8, X86_ADX => 64 + 19,
    X86_AVX => 32 + 28, X86_AVX2 => 64 + 5, X86_AVX512F => 64 + 16,
    X86_AVX512VL => 64 + 31, X86_AVX512BW => 64 + 30,
    X86_AVX512IFMA => 64 + 21,
    ARM_UMAAL => -1, ARM_NEON => 0,
    A64_NEON => 0,
    MIPS_R2 => -1, MIPS_MSA => -1,
);

my ($pass, $fail) = (0, 0);
sub check {
    my ($ok, $what) = @_;
    if ($ok) { $pass++ } else { $fail++; print "FAIL: $what\n" }
}

sub slurp {
    my ($f) = @_;
    open my $fh, '<', $f or die "$f: $!\n";
    local $/;
    my $t = <$fh>;
    close $fh;
    return $t;
}

if ($self_test) {
    self_test();
    print "total: $pass passed, $fail failed\n";
    exit($fail ? 1 : 0);
}

# cpu.h: NAME -> bit.
my %CPU;
{
    my $h = slurp(File::Spec->catfile($src, 'include/asmcrypt/cpu.h'));
    while ($h =~ /^#define\s+ASMCRYPT_CAP_(\w+)\s+\(1u\s*<<\s*(\d+)\)/mg) {
        check(!exists $CPU{$1}, "cpu.h: ASMCRYPT_CAP_$1 defined twice");
        $CPU{$1} = $2;
    }
    check(scalar(keys %CPU) > 0, "cpu.h: no ASMCRYPT_CAP_* bit found");
    for my $n (sort keys %CPU) {
        check(exists $OPENSSL{$n}, "cpu.h: ASMCRYPT_CAP_$n has no OpenSSL entry in $0");
    }
}

my @modules = map { File::Spec->abs2rel($_, $src) }
              sort glob(File::Spec->catfile($src, 'crypto', '*', 'asm', '*.pl'));
check(scalar(@modules) > 0, "no crypto/*/asm/*.pl found");
my $tmp = tempdir(CLEANUP => 1);

for my $m (@modules) {
    my $pl = File::Spec->catfile($src, $m);
    my ($base) = $m =~ m{([^/]+)\.pl$};
    my ($fam) = grep { $base =~ /^(?:poly1305-)?\Q$_\E-/ || $base =~ /^poly1305-\Q$_\E$/ }
                sort keys %FAMILY;
    if (!defined $fam) { check(0, "$m: no family in $0 (flavours unknown)"); next }

    # The Perl source.
    my $text = slurp($pl);
    my @prefix = $text =~ /ASMCRYPT_CAPBIT_([A-Z0-9]+)_\$/g;
    while ($text =~ /^my\s+%(CAPBIT_\w+)\s*=\s*\((.*?)\);/msg) {
        my ($table, $body) = ($1, $2);
        my %p = map { $_ => 1 } @prefix;
        if (keys(%p) != 1) { check(0, "$m: %$table: cannot tell its ASMCRYPT_CAPBIT_ prefix"); next }
        my ($pre) = keys %p;
        next if $table !~ /^CAPBIT_(?:DEFAULT|OPENSSL)$/;
        while ($body =~ /\b([A-Z0-9]+)\s*=>\s*(-?\d+)/g) {
            my ($k, $n, $v) = ($1, "${pre}_$1", $2);
            if (!exists $CPU{$n}) { check(0, "$m: %$table names $n, not in cpu.h"); next }
            my $want = $table eq 'CAPBIT_DEFAULT' ? $CPU{$n} : $OPENSSL{$n};
            check($v == $want, "$m: %${table}{$k} = $v, cpu.h/OpenSSL say $want");
        }
    }
    while ($text =~ /define\s+ASMCRYPT_CAPBIT_(\w+)\s+(-?\d+)\b/g) {
        my ($n, $v) = ($1, $2);
        if (!exists $CPU{$n}) { check(0, "$m: ASMCRYPT_CAPBIT_$n is not a cpu.h bit"); next }
        check($v == $CPU{$n} || $v == $OPENSSL{$n} || $v == -1,
              "$m: a default ASMCRYPT_CAPBIT_$n $v is neither cpu.h's $CPU{$n} nor OpenSSL's $OPENSSL{$n} nor -1");
    }

    # The generated .S, native and OpenSSL mode.
    for my $f (@{ $FAMILY{$fam}{flavours} }) {
        for my $mode ('native', 'openssl') {
            my @d = $mode eq 'openssl' ? ('-DASMCRYPT_OPENSSL') : ();
            my $out = File::Spec->catfile($tmp, "$base-$f-$mode.S");
            my $err = File::Spec->catfile($tmp, 'err');
            my $rc = system("\"$^X\" \"$pl\" $f @d \"$out\" 2>\"$err\"");
            if ($rc != 0 || !-s $out) {
                # A script may refuse a combination it cannot build (it
                # says so); the other combinations still cover its bits.
                if ($mode eq 'openssl' && -s $err) { next }
                check(0, "$m $f $mode: the script failed");
                next;
            }
            my $s = slurp($out);
            my %used = map { $_ => 1 } $s =~ /\bASMCRYPT_CAPBIT_(\w+)/g;
            next unless %used;
            my $cmd = join ' ', 'cpp -undef -dM -x assembler-with-cpp',
                      @{ $FAMILY{$fam}{cpp} }, @d, "\"$out\"", "2>/dev/null";
            my $dm = `$cmd`;
            my %got = $dm =~ /^#define\s+ASMCRYPT_CAPBIT_(\w+)\s+(.*)$/mg;
            for my $n (sort keys %used) {
                if (!exists $CPU{$n}) { check(0, "$m $f: the .S names ASMCRYPT_CAPBIT_$n, not a cpu.h bit"); next }
                if (!defined $got{$n}) { check(0, "$m $f $mode: ASMCRYPT_CAPBIT_$n gets no default"); next }
                my $want = $mode eq 'openssl' ? $OPENSSL{$n} : $CPU{$n};
                check($got{$n} =~ /^\s*(-?\d+)\s*$/ && $1 == $want,
                      "$m $f $mode: ASMCRYPT_CAPBIT_$n defaults to '$got{$n}', want $want"
                      . ($mode eq 'openssl' ? ' (OpenSSL)' : ' (cpu.h)'));
            }
        }
    }
}
print "total: $pass passed, $fail failed\n";
exit($fail ? 1 : 0);

# Copy the tree's inputs of this check, apply $edit to one file, and run
# the check on the copy: it must fail.
sub mutant {
    my ($what, $file, $from, $to) = @_;
    my $dir = tempdir(CLEANUP => 1);
    for my $f ('include/asmcrypt/cpu.h',
               glob(File::Spec->catfile($src, 'crypto', '*', 'asm', '*.pl')),
               glob(File::Spec->catfile($src, 'perlasm', '*.pl'))) {
        my $rel = File::Spec->file_name_is_absolute($f) ? File::Spec->abs2rel($f, $src) : $f;
        my $dst = File::Spec->catfile($dir, $rel);
        my ($v, $d) = File::Spec->splitpath($dst);
        make_path($d);
        copy(File::Spec->catfile($src, $rel), $dst) or die "copy $rel: $!\n";
    }
    my $p = File::Spec->catfile($dir, $file);
    my $t = slurp($p);
    my $n = $t =~ s/\Q$from\E/$to/;
    if (!$n) { check(0, "self-test $what: '$from' not found in $file"); return }
    open my $fh, '>', $p or die "$p: $!\n";
    print $fh $t;
    close $fh;
    my $out = `"$^X" "$0" "$dir" 2>&1`;
    my $rc = $? >> 8;
    check($rc != 0 && $out =~ /^FAIL: /m, "self-test $what: the check passed a mutated tree");
}

sub self_test {
    my $out = `"$^X" "$0" "$src" 2>&1`;
    check($? == 0, "self-test: the tree itself fails:\n$out");
    mutant('cpu.h bit', 'include/asmcrypt/cpu.h',
           'ASMCRYPT_CAP_X86_ADX         (1u << 2)', 'ASMCRYPT_CAP_X86_ADX         (1u << 9)');
    mutant('Perl table', 'crypto/bn/asm/x86_64-mont.pl',
           'BMI2 => 1, ADX => 2,', 'BMI2 => 1, ADX => 3,');
    mutant('cpp default', 'crypto/poly1305/asm/poly1305-mips.pl',
           "# define ASMCRYPT_CAPBIT_MIPS_R2 0\n", "# define ASMCRYPT_CAPBIT_MIPS_R2 1\n");
    mutant('ARM OpenSSL default', 'crypto/poly1305/asm/poly1305-armv4.pl',
           "#  define ASMCRYPT_CAPBIT_ARM_NEON 0\n", "#  define ASMCRYPT_CAPBIT_ARM_NEON 2\n");
}
