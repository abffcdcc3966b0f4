#!/usr/bin/env perl
# test/kernel/extract-testmgr.pl - write the Linux crypto/testmgr.h
# poly1305_tv_template vectors (published test vectors) as records of
# key/msg/tag hex, the format of test/vectors/*.txt.
#
#   perl test/kernel/extract-testmgr.pl path/to/crypto/testmgr.h > test/kernel/testmgr-poly1305.txt
#
# Only the data is taken: the strings of .plaintext/.key/.digest and the
# sizes.  Up to v6.14 the 32-byte one-time key is the first 32 bytes of
# .plaintext (psize counts it); later trees have a separate .key.
use strict;
use warnings;

my $file = shift // die "usage: $0 testmgr.h\n";
open my $fh, '<', $file or die "$file: $!\n";
my $src = do { local $/; <$fh> };
$src =~ /poly1305_tv_template\[\]\s*=\s*\{(.*?)\n\};/s
    or die "$file: no poly1305_tv_template\n";
my $body = $1;

# joined bytes of the string literals after ".field ="
sub field_bytes {
    my ($rec, $field) = @_;
    $rec =~ /\.$field\s*=\s*((?:"(?:[^"\\]|\\.)*"\s*)+)/s or return undef;
    my $lits = $1;
    my $bytes = '';
    while ($lits =~ /"((?:[^"\\]|\\.)*)"/g) {
        my $s = $1;
        die "unexpected escape in $field\n" if $s =~ /\\[^x]/;
        $s =~ s/\\x([0-9a-fA-F]{2})/chr(hex $1)/ge;
        $bytes .= $s;
    }
    return $bytes;
}
sub field_num {
    my ($rec, $field) = @_;
    return $rec =~ /\.$field\s*=\s*(\d+)/ ? $1 : undef;
}

my @recs = split /\},\s*\{/, $body;
my $n = 0;
print <<"EOH";
# Linux crypto/testmgr.h poly1305_tv_template: the published Poly1305 test
# vectors the kernel's self-test runs (RFC 7539 appendix A.3 #1-#11 and
# "overflow in AVX2").  Source: Debian linux-source-6.1 6.1.192-3
# (apt-get download linux-source-6.1), crypto/testmgr.h; data only,
# extracted with test/kernel/extract-testmgr.pl.
# Record: note, len = message bytes, key = 32 bytes (r then s), msg, tag.
EOH
for my $rec (@recs) {
    my $pt = field_bytes($rec, 'plaintext') // die "record without plaintext\n";
    my $ps = field_num($rec, 'psize') // length $pt;
    $pt = substr($pt, 0, $ps);
    my $key = field_bytes($rec, 'key');
    if (!defined $key) {
        $key = substr($pt, 0, 32);
        $pt = substr($pt, 32);
    }
    my $tag = field_bytes($rec, 'digest') // die "record without digest\n";
    my ($note) = $rec =~ m{/\*\s*(.*?)\s*\*/};
    $n++;
    printf "\nnote = testmgr.h poly1305 #%d%s\nlen = %d\nkey = %s\nmsg = %s\ntag = %s\n",
        $n, defined $note ? " ($note)" : '', length $pt, unpack('H*', $key),
        unpack('H*', $pt), unpack('H*', $tag);
}
die "expected 12 vectors, found $n\n" unless $n == 12;
