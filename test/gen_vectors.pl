#!/usr/bin/env perl
# test/gen_vectors.pl - writes test/vectors/*.txt with core Perl's
# Math::BigInt as the independent oracle (no C code of ours is involved).
#
#   perl test/gen_vectors.pl            regenerate test/vectors/
#   perl test/gen_vectors.pl --out DIR  write into DIR
#   perl test/gen_vectors.pl --check    regenerate into a temporary folder and
#                                       compare byte for byte with test/vectors/
#
# Randomness is a deterministic counter-mode generator: SHA-256 of
# "asmcrypt-vectors:<stream>:<counter>", one stream per file, so every run
# writes identical files and changing one file does not shift the others.
# Perl's rand is never used.
#
# Every file is plain text: '#' comment lines at the top describe the
# format, then records of "key = value" lines separated by a blank line.
# Numbers are big-endian hexadecimal of a fixed width (empty for zero
# width); byte strings are hexadecimal in memory order.
use strict;
use warnings;
use Math::BigInt;
use Digest::SHA qw(sha256);
use File::Temp qw(tempdir);
use File::Compare qw(compare);
use FindBin;

my $outdir = "$FindBin::Bin/vectors";
my $check  = 0;
while (@ARGV) {
    my $a = shift @ARGV;
    if    ($a eq '--check') { $check = 1 }
    elsif ($a eq '--out')   { $outdir = shift @ARGV // die "--out needs a folder\n" }
    else  { die "usage: $0 [--check] [--out DIR]\n" }
}
my $refdir = "$FindBin::Bin/vectors";
$outdir = tempdir(CLEANUP => 1) if $check;

# ---- deterministic random numbers ------------------------------------------
my %ctr;
sub rbytes {
    my ($stream, $n) = @_;
    my $out = '';
    while (length($out) < $n) {
        $out .= sha256("asmcrypt-vectors:$stream:" . $ctr{$stream}++);
    }
    return substr($out, 0, $n);
}
sub rint {                       # uniform-ish integer 0..$max-1 (small $max)
    my ($stream, $max) = @_;
    return unpack('N', rbytes($stream, 4)) % $max;
}
sub rbig {                       # random integer of at most $bits bits
    my ($stream, $bits) = @_;
    return Math::BigInt->bzero if $bits <= 0;
    my $nbytes = int(($bits + 7) / 8);
    my $x = Math::BigInt->from_hex(unpack('H*', rbytes($stream, $nbytes)));
    return $x->bmod(Math::BigInt->bone->blsft($bits));
}
sub rbelow {                     # random integer 0..$n-1, $n >= 1
    my ($stream, $n) = @_;
    my $bits = length($n->as_bin) - 2;
    my $x = rbig($stream, $bits + 64);
    return $x->bmod($n);
}

# ---- formatting ---------------------------------------------------------------
sub hexw {                       # BigInt -> big-endian hex of $digits digits
    my ($x, $digits) = @_;
    $x = Math::BigInt->new($x) unless ref $x;
    die "negative" if $x->is_neg;
    my $h = $x->as_hex;
    $h =~ s/^0x//;
    $h = '' if $h eq '0';
    die "value does not fit $digits digits" if length($h) > $digits;
    return ('0' x ($digits - length($h))) . $h;
}
sub pow2 { return Math::BigInt->bone->blsft($_[0]) }

my %files;                       # name => [header lines, records]
sub header { my ($f, @lines) = @_; push @{ $files{$f}{head} }, map { "# $_" } @lines }
sub record {
    my ($f, @kv) = @_;
    my $s = '';
    while (@kv) { my $k = shift @kv; my $v = shift @kv; $s .= "$k = $v\n" }
    push @{ $files{$f}{rec} }, $s;
}
sub write_file {
    my ($f) = @_;
    my $path = "$outdir/$f";
    open(my $fh, '>', $path) or die "$path: $!\n";
    binmode $fh;
    print $fh join("\n", @{ $files{$f}{head} }), "\n\n";
    print $fh join("\n", @{ $files{$f}{rec} });
    close($fh) or die "$path: $!\n";
}

# ==== Poly1305 ==================================================================
my $P = pow2(130)->bsub(5);

sub le_num {                     # byte string -> BigInt, little-endian
    my ($s) = @_;
    return Math::BigInt->bzero if $s eq '';
    return Math::BigInt->from_hex(unpack('H*', scalar reverse $s));
}
sub num_le {                     # BigInt -> $n bytes little-endian
    my ($x, $n) = @_;
    return scalar reverse pack('H*', hexw($x, 2 * $n));
}
sub clamp_r {
    my ($key) = @_;
    my $r = le_num(substr($key, 0, 16));
    return $r->band(Math::BigInt->from_hex('0ffffffc0ffffffc0ffffffc0fffffff'));
}
# h before the final "+ s": every chunk of 16 (the last may be shorter)
# is read little-endian with a 1 appended above its top byte.
sub poly_h {
    my ($key, $msg) = @_;
    my $r = clamp_r($key);
    my $h = Math::BigInt->bzero;
    for (my $i = 0; $i < length($msg); $i += 16) {
        my $c = substr($msg, $i, 16);
        $h->badd(le_num($c))->badd(pow2(8 * length($c)))->bmul($r)->bmod($P);
    }
    return $h;
}
sub poly_tag {
    my ($key, $msg) = @_;
    my $s = le_num(substr($key, 16, 16));
    my $t = poly_h($key, $msg)->badd($s)->bmod(pow2(128));
    return num_le($t, 16);
}
sub poly_rec {
    my ($note, $key, $msg, $want) = @_;
    my $tag = poly_tag($key, $msg);
    die "oracle disagrees with the published tag for $note\n"
        if defined $want && $tag ne $want;
    record('poly1305.txt', note => $note, len => length($msg),
           key => unpack('H*', $key), msg => unpack('H*', $msg),
           tag => unpack('H*', $tag));
}
sub hx { my $h = join('', @_); $h =~ s/[\s:]//g; return pack('H*', $h) }

sub gen_poly1305 {
    my $f = 'poly1305.txt';
    header($f,
        'Poly1305 (RFC 8439) vectors, written by test/gen_vectors.pl.',
        'Record: note = text, len = message bytes, key = 32 bytes hex (r then s),',
        'msg = message hex (empty for length 0), tag = 16 bytes hex.',
        'Tags of the oracle records come from Math::BigInt: h = sum of',
        '(chunk + 2^(8*chunklen)) r^i mod 2^130-5, tag = h + s mod 2^128.');
    my $S = 'poly1305';

    # --- RFC 8439, section 2.5.2 (test vector of the Poly1305 section)
    poly_rec('RFC 8439 section 2.5.2',
        hx('85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b'),
        'Cryptographic Forum Research Group',
        hx('a8061dc1305136c6c22b8baf0c0127a9'));

    # --- RFC 8439, Appendix A.3, test vectors #1..#11
    my $ietf = 'Any submission to the IETF intended by the Contributor for '
      . 'publication as all or part of an IETF Internet-Draft or RFC and any '
      . 'statement made within the context of an IETF activity is considered '
      . 'an "IETF Contribution". Such statements include oral statements in '
      . 'IETF sessions, as well as written and electronic communications made '
      . 'at any time or place, which are addressed to';
    my $jab = "'Twas brillig, and the slithy toves\nDid gyre and gimble in the "
      . "wabe:\nAll mimsy were the borogoves,\nAnd the mome raths outgrabe.";
    my $z16 = "\0" x 16;
    my @a3 = (
        [ "\0" x 32, "\0" x 64, $z16 ],
        [ $z16 . hx('36e5f6b5c5e06070f0efca96227a863e'), $ietf,
          hx('36e5f6b5c5e06070f0efca96227a863e') ],
        [ hx('36e5f6b5c5e06070f0efca96227a863e') . $z16, $ietf,
          hx('f3477e7cd95417af89a6b8794c310cf0') ],
        [ hx('1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0'),
          $jab, hx('4541669a7eaaee61e708dc7cbcc5eb62') ],
        [ hx('02' . '00' x 31), "\xff" x 16, hx('03' . '00' x 15) ],
        [ hx('02' . '00' x 15 . 'ff' x 16), hx('02' . '00' x 15),
          hx('03' . '00' x 15) ],
        [ hx('01' . '00' x 31), "\xff" x 16 . hx('f0' . 'ff' x 15 . '11' . '00' x 15),
          hx('05' . '00' x 15) ],
        [ hx('01' . '00' x 31), "\xff" x 16 . hx('fb' . 'fe' x 15) . "\x01" x 16,
          $z16 ],
        [ hx('02' . '00' x 31), hx('fd' . 'ff' x 15), hx('fa' . 'ff' x 15) ],
        [ hx('01' . '00' x 7 . '04' . '00' x 7 . '00' x 16),
          hx('e33594d7505e43b9' . '00' x 8 . '3394d7505e4379cd' . '01' . '00' x 7
             . '00' x 16 . '01' . '00' x 15),
          hx('14000000000000005500000000000000') ],
        [ hx('01' . '00' x 7 . '04' . '00' x 7 . '00' x 16),
          hx('e33594d7505e43b9' . '00' x 8 . '3394d7505e4379cd' . '01' . '00' x 7
             . '00' x 16),
          hx('13' . '00' x 15) ],
    );
    for my $i (0 .. $#a3) {
        poly_rec('RFC 8439 appendix A.3 #' . ($i + 1), @{ $a3[$i] });
    }

    # --- every length 0..300, random key and message
    for my $len (0 .. 300) {
        poly_rec("random length $len", rbytes($S, 32), rbytes($S, $len));
    }
    # --- lengths around powers of two, up to 4096, and 8192
    for my $k (5 .. 12) {
        for my $len (2**$k - 1, 2**$k + 1) {
            next if $len <= 300;
            poly_rec("random length $len", rbytes($S, 32), rbytes($S, $len));
        }
        poly_rec("random length " . 2**$k, rbytes($S, 32), rbytes($S, 2**$k))
            if 2**$k > 300;
    }
    poly_rec('random length 8192', rbytes($S, 32), rbytes($S, 8192));

    # --- r at its clamped maximum, s all ones, all-0xff messages
    my $rmax = "\xff" x 16;
    my $sff  = "\xff" x 16;
    for my $len (0, 1, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 127, 128, 129,
                 255, 256, 257, 511, 512, 513, 912, 1024, 2048, 4096) {
        poly_rec("r max, s all ones, $len bytes of 0xff", $rmax . $sff, "\xff" x $len);
    }
    for my $len (16, 64, 256, 912) {
        poly_rec("r max, random s, $len random bytes", $rmax . rbytes($S, 16),
                 rbytes($S, $len));
        poly_rec("random r, s all ones, $len bytes of 0xff", rbytes($S, 16) . $sff,
                 "\xff" x $len);
    }
    # --- 912 bytes of 0xff (a 2025 port of MIPS code failed there) with
    #     several keys
    for my $i (1 .. 4) {
        poly_rec("912 bytes of 0xff, random key $i", rbytes($S, 32), "\xff" x 912);
    }

    # --- carry ripples: r = 1 makes h the plain sum of the blocks, so long
    #     runs of 0xff carry through every limb; r = 2^k probes each limb
    my $r1 = "\x01" . "\0" x 15;
    for my $len (16, 32, 48, 64, 80, 96, 128, 160, 256, 912) {
        poly_rec("r = 1, s = 0, $len bytes of 0xff", $r1 . $z16, "\xff" x $len);
        poly_rec("r = 1, s all ones, $len bytes of 0xff", $r1 . $sff, "\xff" x $len);
    }
    for my $bit (0, 1, 26, 27, 32, 52, 64, 78, 96, 104, 123) {
        my $r = pow2($bit)->band(Math::BigInt->from_hex('0ffffffc0ffffffc0ffffffc0fffffff'));
        next if $r->is_zero;
        poly_rec("r = 2^$bit, 0xff message", num_le($r, 16) . $sff, "\xff" x 64);
    }
    for my $len (16, 17, 32, 33, 64) {
        poly_rec("r = 1, 0xfe..0xff pattern $len", $r1 . $z16,
                 "\xfe" . "\xff" x ($len - 1));
        poly_rec("r = 1, zero message $len, s all ones", $r1 . $sff, "\0" x $len);
    }

    # --- h driven to chosen values near 0 and p before the final reduction:
    #     pick every block but the last at random, then solve the last full
    #     block m so that (h + m + 2^128) r = T (mod p); retry until m < 2^128.
    my @targets;
    push @targets, [ "p-$_", $P->copy->bsub($_) ] for (1 .. 6);
    push @targets, [ "$_",   Math::BigInt->new($_) ] for (0 .. 6);
    push @targets, [ '2^128-1', pow2(128)->bsub(1) ], [ '2^128', pow2(128) ],
                   [ '2^129', pow2(129) ], [ '2^130-6', pow2(130)->bsub(6) ];
    my @keys = ([ 'r max', $rmax ], [ 'r = 1', $r1 ]);
    push @keys, [ "random r $_", rbytes($S, 16) ] for (1 .. 2);
    for my $t (@targets) {
        for my $k (@keys) {
            for my $nblk (1, 2, 4) {
                for my $skind ('s = 0', 's all ones') {
                    my $key = $k->[1] . ($skind eq 's = 0' ? $z16 : $sff);
                    my $msg = solve_last_block($S, $key, $t->[1], $nblk);
                    next unless defined $msg;
                    poly_rec("h = $t->[0] before reduction, $k->[0], $skind, "
                             . "$nblk blocks", $key, $msg);
                }
            }
        }
    }

    # --- h = g + k 2^128 (g < 2^26, k = 1..3: bits 26..127 zero) at the end
    #     of a message that a vector body takes whole (a multiple of 128
    #     bytes).  A radix-2^26 body then holds limb 1 as exactly 2^26
    #     (limb 0's carry lands on a masked zero), so the base-2^64
    #     conversion carries out of h0 into h1 = 2^64-1 and on into h2
    #     (docs/mutation.md, issue 14 gap 4).  The message ends there, or
    #     goes on for 1..3 blocks (and a partial one for k = 2).
    for my $len (256, 384, 512, 768, 1024, 2048) {
        for my $k (1 .. 3) {
            my $key = rbytes($S, 32);
            my $g = rbig($S, 26);
            my $msg = solve_last_block($S, $key, pow2(128)->bmul($k)->badd($g), $len / 16);
            die "no last block for h = g + $k 2^128, $len bytes" unless defined $msg;
            poly_rec("h = g + $k 2^128 (g < 2^26) after $len bytes", $key, $msg);
            # the same h followed by more blocks: an h2 that lost the carry
            # (h - 2^128, the same tag when h is emitted right away) then
            # goes through the scalar tail's multiplication
            my $tail = 16 * (1 + rint($S, 3)) + ($k == 2 ? 5 : 0);
            poly_rec("h = g + $k 2^128 (g < 2^26) after $len bytes, $tail more",
                     $key, $msg . rbytes($S, $tail));
        }
    }

    # --- keys whose power r^k mod p has its low word in [2^64-5, 2^64):
    #     the AArch64 NEON key-power code then computes h + 5 with a carry
    #     into the middle word, which its final "h >= p" select must not
    #     take (docs/mutation.md, issue 14 gap 5).  Random keys get there
    #     with probability about 2^-62; these r come from
    #     tools/poly1305-keysearch.c (arguments K 1: k, seed), checked here.
    #     r^4 is the multiplier of the four-block steps, so its key gets the
    #     lengths where a 4-lane body runs: ARMv7 NEON from 128 bytes, x86_64
    #     AVX2 / IFMA v4 from 192, AArch64 NEON from 256 (powers cached) and
    #     512 (not cached), x86_64 AVX-512 v8 / IFMA q8 from 384 / 256, and
    #     1000 (a partial block at the end).  Appended after the r^2 and r^3
    #     records, so those stay unchanged.
    my @pkeys = ([ 2, '0caf8eb0066b973c0b7e577c002513f2', [ 64, 512, 1024 ] ],
                 [ 3, '0fa793500ea87f2805a1464001e54f68', [ 64, 512, 1024 ] ],
                 [ 4, '038a349404f9ea30065ba28004ef4106', [ 128, 192, 256, 512, 1000, 1024 ] ]);
    for my $pk (@pkeys) {
        my ($k, $rhex, $lens) = @$pk;
        my $r = Math::BigInt->from_hex($rhex);
        my $key = num_le($r, 16);
        die "key for r^$k is not clamped" unless clamp_r($key . $z16) == $r;
        my $low = $r->copy->bmodpow($k, $P)->bmod(pow2(64));
        die "r^$k mod p has low word $low" unless $low >= pow2(64)->bsub(5);
        for my $len (@$lens) {
            poly_rec("r^$k mod p with low word 2^64-" . pow2(64)->bsub($low)
                     . ", $len random bytes", $key . rbytes($S, 16), rbytes($S, $len));
        }
    }

    # --- h = g + k 2^128 with g < 5 at the end of a message the IFMA q16
    #     body (x86_64, 768 bytes and up) takes whole, then 1..3 blocks.
    #     Its lane sum X = g0 + g1 2^44 + g2 2^88 is some t 2^130 above h's
    #     residue class (t = 8..29120 over the vectors above, read with gdb at
    #     the carry pass), and the carry pass holds g1 as 2^44 (so the h1
    #     assembly carries into h2) exactly when g < 5 t.  The g < 2^26 of
    #     the records above never is; g < 5 always is (docs/mutation.md,
    #     poly1305-x86_64:4619).
    for my $len (768, 1024, 1280, 2048) {
        for my $k (1 .. 3) {
            my $key = rbytes($S, 32);
            my $g = rint($S, 5);
            my $msg = solve_last_block($S, $key, pow2(128)->bmul($k)->badd($g), $len / 16);
            die "no last block for h = $g + $k 2^128, $len bytes" unless defined $msg;
            my $tail = 16 * (1 + rint($S, 3));
            poly_rec("h = $g + $k 2^128 after $len bytes, $tail more", $key, $msg . rbytes($S, $tail));
        }
    }
}

sub solve_last_block {
    my ($S, $key, $target, $nblk) = @_;
    my $r = clamp_r($key);
    return undef if $r->is_zero;
    my $rinv = $r->copy->bmodinv($P);
    return undef if $rinv->is_nan;
    for my $try (1 .. 64) {
        my $prefix = $nblk > 1 ? rbytes($S, 16 * ($nblk - 1)) : '';
        my $h = poly_h($key, $prefix);
        my $m = $target->copy->bmul($rinv)->bsub($h)->bsub(pow2(128))->bmod($P);
        next if $m >= pow2(128);
        my $msg = $prefix . num_le($m, 16);
        die "solver error" unless poly_h($key, $msg) == $target;
        return $msg;
    }
    return undef;
}

# ==== Montgomery multiplication ==================================================
# R^-1 mod N for R = 2^(32*ceil(bits/32)) and 2^(64*ceil(bits/64)).  One
# bmodinv per modulus (cached: adversarial records share moduli); the
# 64-bit R is the 32-bit one times 2^32 when bits/32 is odd, and
# 2^-32 mod N = (N k + 1) / 2^32 with k = -N^-1 mod 2^32 (small numbers).
my %rinv_cache;
sub rinv_pair {
    my ($n, $bits) = @_;
    my $key = "$bits:" . $n->bstr;
    return @{ $rinv_cache{$key} } if $rinv_cache{$key};
    my $w32 = int(($bits + 31) / 32);
    my $r32 = pow2(32 * $w32)->bmodinv($n);
    my $r64 = $r32->copy;
    if ($w32 % 2) {
        my $n32 = $n % pow2(32);
        my $inv = $n32->copy;                   # n^-1 mod 2^32 by Newton:
        for (1 .. 4) {                          # 3, 6, 12, 24, 48 bits
            $inv = ($inv * (2 - $n32 * $inv)) % pow2(32);
        }
        my $k = (pow2(32) - $inv) % pow2(32);   # -n^-1 mod 2^32
        my $i32 = ($n * $k + 1) / pow2(32);     # 2^-32 mod n (exact division)
        die "2^-32 mod n wrong" unless ($i32 * pow2(32)) % $n == 1 % $n;
        $r64 = ($r32 * $i32) % $n;
    }
    die "R^-1 mod n wrong" unless ($r64 * pow2(64 * int(($bits + 63) / 64))) % $n == 1 % $n;
    $rinv_cache{$key} = [ $r32, $r64 ];
    return ($r32, $r64);
}
sub mont_pair {
    my ($a, $b, $n, $bits) = @_;
    my ($r32, $r64) = rinv_pair($n, $bits);
    my $ab = $a * $b;
    return (($ab * $r32) % $n, ($ab * $r64) % $n);
}
sub mont_rec {
    my ($note, $bits, $n, $a, $b) = @_;
    my $d = $bits / 4;
    die "mont record '$note': operand not below n\n" unless $a < $n && $b < $n;
    my ($m32, $m64) = mont_pair($a, $b, $n, $bits);
    record('mont.txt', note => $note, bits => $bits,
           N => hexw($n, $d), A => hexw($a, $d), B => hexw($b, $d),
           M32 => hexw($m32, $d), M64 => hexw($m64, $d));
}
sub rand_odd_full {              # odd, top bit set
    my ($S, $bits) = @_;
    return rbig($S, $bits)->bior(pow2($bits - 1))->bior(1);
}
sub ones_words {                 # every other 32-bit word all ones, below $n
    my ($bits) = @_;
    my $x = Math::BigInt->bzero;
    for (my $i = 0; $i < $bits / 32; $i += 2) {
        $x->bior(pow2(32)->bsub(1)->blsft(32 * $i));
    }
    return $x;
}

sub gen_mont {
    my $f = 'mont.txt';
    header($f,
        'Montgomery products, written by test/gen_vectors.pl (Math::BigInt oracle).',
        'Record: note, bits (a multiple of 32), N (odd), A, B (both < N), M32, M64,',
        'all big-endian hex of bits/4 digits.  Mw = A*B*2^(-w*ceil(bits/w)) mod N',
        'for word size w, i.e. the result of bn_mul_mont with num = ceil(bits/w).');
    my $S = 'mont';
    for my $k (1 .. 160) {
        my $bits = 32 * $k;
        my $n = rand_odd_full($S, $bits);
        mont_rec("random $bits", $bits, $n, rbelow($S, $n), rbelow($S, $n));
    }
    for my $bits (32, 64, 96, 128, 160, 192, 256, 288, 512, 544, 1024, 1536,
                  2048, 3072, 4096) {
        my $all = pow2($bits)->bsub(1);
        mont_rec("n = 2^$bits-1, a = b = n-1", $bits, $all, $all - 1, $all - 1);
        mont_rec("n = 2^$bits-1, random a, b", $bits, $all, rbelow($S, $all), rbelow($S, $all));
        my $low = pow2($bits - 1)->badd(1);
        mont_rec("n = 2^" . ($bits - 1) . "+1, a = n-1, random b", $bits, $low,
                 $low - 1, rbelow($S, $low));
        my $low2 = pow2($bits - 1)->badd(2 * rint($S, 1000) + 3);
        mont_rec("n just above 2^" . ($bits - 1) . ", random a, b", $bits, $low2,
                 rbelow($S, $low2), rbelow($S, $low2));
        my $n = rand_odd_full($S, $bits)->bior(ones_words($bits));
        my $ow = ones_words($bits);
        $ow = $n - 1 if $ow >= $n;
        mont_rec("all-ones words in a and b", $bits, $n, $ow, $ow);
        mont_rec("a = n-1, b = n-1", $bits, $n, $n - 1, $n - 1);
        my $a = rbelow($S, $n);
        mont_rec("a = b", $bits, $n, $a, $a->copy);
        mont_rec("a = 0", $bits, $n, Math::BigInt->bzero, rbelow($S, $n));
        mont_rec("a = 1", $bits, $n, Math::BigInt->bone, rbelow($S, $n));
        mont_rec("b = 1 (out of Montgomery form)", $bits, $n, rbelow($S, $n),
                 Math::BigInt->bone);
    }
}

# ==== modular exponentiation ======================================================
sub modexp_rec {
    my ($note, $bits, $n, $a, $e, $ebits) = @_;
    die "modexp record '$note': a not below n\n" unless $a < $n || $n->is_one;
    record('modexp.txt', note => $note, bits => $bits,
           N => hexw($n, $bits / 4), A => hexw($a, $bits / 4),
           E => hexw($e, $ebits / 4),
           R => hexw($a->copy->bmodpow($e, $n), $bits / 4));
}
sub gen_modexp {
    my $f = 'modexp.txt';
    header($f,
        'Modular exponentiation, written by test/gen_vectors.pl (Math::BigInt oracle).',
        'Record: note, bits (multiple of 32), N (odd, bits/4 hex digits), A (< N),',
        'E (exponent, a multiple of 16 hex digits: ewords = digits*4/w),',
        'R = A^E mod N (bits/4 hex digits).');
    my $S = 'modexp';
    # short exponents: every 32-bit num 1..80 and every 64-bit num 1..80.
    # E is always one 64-bit field (two 32-bit words); above 1024 bits its
    # value stays below 2^24 so that Math::BigInt's slow bmodpow keeps the
    # generator under two minutes (the C code still walks all 64 bits).
    my @sizes = ((map { 32 * $_ } 1 .. 80), (map { 64 * $_ } 41 .. 80));
    my $i = 0;
    for my $bits (@sizes) {
        my $n = rand_odd_full($S, $bits);
        my $kind = $i++ % 4;
        my $big = $bits > 1024;
        my ($e, $note);
        if    ($kind == 0) { $e = rbig($S, $big ? 24 : 64); $note = 'random e' }
        elsif ($kind == 1) { $e = Math::BigInt->new(65537); $note = 'e = 65537' }
        elsif ($kind == 2) { $e = pow2($big ? 24 : 64)->bsub(1); $note = 'e all ones' }
        else               { $e = rbig($S, $big ? 20 : 61)->bior(1); $note = 'random odd e' }
        modexp_rec("$bits bits, $note", $bits, $n, rbelow($S, $n), $e, 64);
    }
    # edge cases at a few sizes
    for my $bits (32, 64, 96, 256, 1024) {
        my $n = rand_odd_full($S, $bits);
        modexp_rec("$bits bits, e = 0", $bits, $n, rbelow($S, $n), Math::BigInt->bzero, 64);
        modexp_rec("$bits bits, e = 1", $bits, $n, rbelow($S, $n), Math::BigInt->bone, 64);
        modexp_rec("$bits bits, a = 0", $bits, $n, Math::BigInt->bzero, rbig($S, 64), 64);
        modexp_rec("$bits bits, a = 1", $bits, $n, Math::BigInt->bone, rbig($S, 64), 64);
        modexp_rec("$bits bits, a = n-1", $bits, $n, $n - 1, rbig($S, 64), 64);
        my $all = pow2($bits)->bsub(1);
        modexp_rec("$bits bits, n = 2^$bits-1", $bits, $all, rbelow($S, $all), rbig($S, 64), 64);
        modexp_rec("$bits bits, 128-bit e with zero top word", $bits, $n,
                   rbelow($S, $n), rbig($S, 60), 128);
    }
    modexp_rec('n = 1', 32, Math::BigInt->bone, Math::BigInt->bzero, rbig($S, 64), 64);
    # full-size exponents
    for my $bits (512, 1024, 1536, 2048, 3072, 4096) {
        my $n = rand_odd_full($S, $bits);
        modexp_rec("$bits bits, full-size e", $bits, $n, rbelow($S, $n),
                   rbig($S, $bits)->bior(pow2($bits - 1)), $bits);
    }
    # one modulus for each x86_64 IFMA AMM body above 5120 bits: the
    # radix-2^52 modexp (crypto/bn/bn_exp_x86_64.c) takes lp = ceil((64 num
    # + 2) / 52) limbs in k = ceil(lp / 8) zmm registers, so num = 88, 94,
    # 100, 106, 112, 120 and 128 (= ASMCRYPT_BN_MAX_WORDS) give k = 14..20.
    # Short exponents (24 bits in the 64-bit field) keep valgrind, qemu
    # and the generator cheap; the C code still scans all 64 bits.
    for my $num (88, 94, 100, 106, 112, 120, 128) {
        my $bits = 64 * $num;
        my $n = rand_odd_full($S, $bits);
        modexp_rec("$bits bits, IFMA k = " . int((int((64 * $num + 2 + 51) / 52) + 7) / 8)
                   . ", 24-bit e", $bits, $n, rbelow($S, $n),
                   rbig($S, 24)->bior(pow2(23)), 64);
    }
}

# ==== word primitives ===============================================================
sub gen_words {
    my ($w) = @_;
    my $f = "words$w.txt";
    my $S = "words$w";
    my $d = $w / 4;
    header($f,
        "Word primitives for $w-bit words, written by test/gen_vectors.pl.",
        'Record: op, num, then the inputs and outputs as big-endian hex of',
        "num*$d digits (empty when num = 0): r (rp before, mul_add/mul_sub),",
        "a, b (add/sub/cnd_*), w and cond (one word, $d digits), out (rp after;",
        '2*num words for sqr) and c (carry or borrow word; absent for sqr).',
        'mul_add: out = r + a*w;  mul: out = a*w;  mul_sub: out = r - a*w',
        '(c = borrow word);  sqr: out words 2i,2i+1 = a[i]^2;  add, sub;',
        'cnd_add/cnd_sub: a +/- (cond != 0 ? b : 0).');
    my $B = pow2($w);
    my $wmax = $B - 1;
    my @sizes = (0 .. 20, 31 .. 33, 63 .. 65, 99, 100);
    for my $num (@sizes) {
        my $top = pow2($w * $num);
        my $allones = $top - 1;
        my $one = Math::BigInt->bone;
        my %kinds = (
            random => sub { rbig($S, $w * $num) },
            ones   => sub { $allones->copy },
        );
        for my $kind ('random', 'ripple') {
            my $rnd = ($kind eq 'random');
            my $R = $rnd ? rbig($S, $w * $num) : $allones->copy;
            my $A = $rnd ? rbig($S, $w * $num) : $allones->copy;
            my $W = $rnd ? rbig($S, $w) : $wmax->copy;
            # mul_add
            my $t = $R + $A * $W;
            words_rec($f, $w, 'mul_add', $num, r => $R, a => $A, w => $W,
                      out => $t % $top, c => $t / $top);
            # mul
            $t = $A * $W;
            words_rec($f, $w, 'mul', $num, a => $A, w => $W,
                      out => $t % $top, c => $t / $top);
            # mul_sub (ripple: r = 0 borrows through every word)
            my $R2 = $rnd ? $R : Math::BigInt->bzero;
            $t = $R2 - $A * $W;
            my $out = $t % $top;         # Math::BigInt % is floored: >= 0
            words_rec($f, $w, 'mul_sub', $num, r => $R2, a => $A, w => $W,
                      out => $out, c => ($out - $t) / $top);
            # sqr
            my $sq = Math::BigInt->bzero;
            for my $i (0 .. $num - 1) {
                my $ai = ($A / pow2($w * $i)) % $B;
                $sq->badd(($ai * $ai)->blsft(2 * $w * $i));
            }
            words_rec($f, $w, 'sqr', $num, a => $A, out => $sq);
            # add / sub: ripple adds 1 to all ones and subtracts 1 from 0
            my $Ba = $rnd ? rbig($S, $w * $num) : ($num ? $one->copy : Math::BigInt->bzero);
            $t = $A + $Ba;
            words_rec($f, $w, 'add', $num, a => $A, b => $Ba,
                      out => $t % $top, c => $t / $top);
            my $As = $rnd ? $A : Math::BigInt->bzero;
            $t = $As - $Ba;
            words_rec($f, $w, 'sub', $num, a => $As, b => $Ba,
                      out => $t % $top, c => ($t < 0 ? 1 : 0));
            for my $cond ('0', '1', 'top', 'random') {
                my $C = $cond eq '0' ? Math::BigInt->bzero
                      : $cond eq '1' ? Math::BigInt->bone
                      : $cond eq 'top' ? pow2($w - 1)
                      : rbig($S, $w)->bior(pow2($w - 5));
                my $on = !$C->is_zero;
                $t = $on ? $A + $Ba : $A->copy;
                words_rec($f, $w, 'cnd_add', $num, a => $A, b => $Ba, cond => $C,
                          out => $t % $top, c => $t / $top);
                $t = $on ? $As - $Ba : $As->copy;
                words_rec($f, $w, 'cnd_sub', $num, a => $As, b => $Ba, cond => $C,
                          out => $t % $top, c => ($t < 0 ? 1 : 0));
            }
            if (!$rnd && $num > 0) {
                # more ripples: all ones + all ones, 0 - all ones
                $t = $allones + $allones;
                words_rec($f, $w, 'add', $num, a => $allones, b => $allones,
                          out => $t % $top, c => $t / $top);
                $t = Math::BigInt->bzero - $allones;
                words_rec($f, $w, 'sub', $num, a => Math::BigInt->bzero, b => $allones,
                          out => $t % $top, c => 1);
                $t = Math::BigInt->bzero - $A;
                words_rec($f, $w, 'mul_sub', $num, r => Math::BigInt->bzero, a => $A,
                          w => $one, out => $t % $top, c => 1);
                $t = $allones + $one;
                words_rec($f, $w, 'mul_add', $num, r => $allones, a => $one,
                          w => $one, out => $t % $top, c => $t / $top);
            }
            if (!$rnd && $num > 1) {
                # the product row carries at every word: with w = 2^w - 1,
                # a_i*w has hi = a_i - 1 and lo = 2^w - a_i, so
                # hi(a_{i-1} w) + lo(a_i w) = 2^w exactly when limbs fall
                # by one (a_i = 2^w - 1 - i).  The all-ones and random
                # vectors leave some of these carries out (a dropped one
                # in the 4-limb mulq chain of x86_64-words passed them).
                my $Ad = Math::BigInt->bzero;
                $Ad->badd(($wmax - $_)->blsft($w * $_)) for 0 .. $num - 1;
                my $P = $Ad * $wmax;
                words_rec($f, $w, 'mul', $num, a => $Ad, w => $wmax,
                          out => $P % $top, c => $P / $top);
                $t = $allones + $P;
                words_rec($f, $w, 'mul_add', $num, r => $allones, a => $Ad, w => $wmax,
                          out => $t % $top, c => $t / $top);
                $t = Math::BigInt->bzero - $P;
                $out = $t % $top;
                words_rec($f, $w, 'mul_sub', $num, r => Math::BigInt->bzero, a => $Ad,
                          w => $wmax, out => $out, c => ($out - $t) / $top);
            }
        }
    }
}
sub words_rec {
    my ($f, $w, $op, $num, %v) = @_;
    my @kv = (op => $op, num => $num);
    for my $k (qw(r a b w cond out c)) {
        next unless exists $v{$k};
        my $digits = ($k eq 'w' || $k eq 'cond' || $k eq 'c') ? $w / 4
                   : ($k eq 'out' && $op eq 'sqr') ? 2 * $num * $w / 4
                   : $num * $w / 4;
        push @kv, $k, hexw($v{$k}, $digits);
    }
    record($f, @kv);
}

# ==== main ============================================================================
for my $step ([ 'poly1305', \&gen_poly1305 ], [ 'mont', \&gen_mont ],
              [ 'words32', sub { gen_words(32) } ], [ 'words64', sub { gen_words(64) } ],
              [ 'modexp', \&gen_modexp ]) {
    my $t0 = time;
    $step->[1]->();
    printf STDERR "%-9s %3d s\n", $step->[0], time - $t0 if $ENV{GEN_VERBOSE};
}
-d $outdir or mkdir $outdir or die "$outdir: $!\n";
write_file($_) for sort keys %files;

if ($check) {
    my $bad = 0;
    for my $f (sort keys %files) {
        if (compare("$outdir/$f", "$refdir/$f") != 0) {
            print "DIFFERS: test/vectors/$f\n";
            $bad++;
        } else {
            print "same: test/vectors/$f\n";
        }
    }
    exit($bad ? 1 : 0);
}
