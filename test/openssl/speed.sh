#!/bin/sh
# test/openssl/speed.sh - `openssl speed` of a stock and an imported
# OpenSSL build, interleaved, medians (docs/perf/openssl-import.md).
#
#   test/openssl/speed.sh STOCK_BUILD IMPORTED_BUILD [ROUNDS [SECONDS]]
#
# Each round runs, for the stock build then the imported one:
#   openssl speed -mr -seconds S rsa2048 rsa4096 ffdh2048
#   openssl speed -mr -seconds S -evp chacha20-poly1305
#   test/openssl/bench.c (Poly1305: EVP_MAC and Poly1305_Update), S/2 per size
# and prints a markdown table of the medians over the rounds with the
# ratio imported/stock (higher is better for every row).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 STOCK_BUILD IMPORTED_BUILD [ROUNDS [SECONDS]]" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
STOCK=$(cd "$1" && pwd) IMP=$(cd "$2" && pwd)
ROUNDS=${3:-5} SECS=${4:-1}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for b in stock imp; do
    d=$STOCK; [ $b = imp ] && d=$IMP
    cc -std=c99 -D_DEFAULT_SOURCE -O2 -I"$d/include" "$HERE/bench.c" "$d/libcrypto.a" \
        -ldl -pthread -o "$T/bench-$b"
done
half=$(awk "BEGIN {print $SECS / 2}")
r=1
while [ $r -le "$ROUNDS" ]; do
    for b in stock imp; do
        d=$STOCK; [ $b = imp ] && d=$IMP
        {
            "$d/apps/openssl" speed -mr -seconds "$SECS" rsa2048 rsa4096 ffdh2048 2>/dev/null
            "$d/apps/openssl" speed -mr -seconds "$SECS" -evp chacha20-poly1305 2>/dev/null
            "$T/bench-$b" "$half"
        } | grep -E '^\+F|^\+H|^poly1305' >"$T/$b.$r"
    done
    r=$((r + 1))
done
# one "key value" line per measurement: rsa2048-sign, ..., chacha-16, ...
for b in stock imp; do
    for f in "$T/$b".*; do
        perl -ne '
            if (/^\+F2:\d+:(\d+):([\d.]+):([\d.]+)/) { print "rsa$1 sign/s $2\nrsa$1 verify/s $3\n" }
            elsif (/^\+F8:\d+:(\d+):([\d.]+)/)     { print "ffdh$1 ops/s $2\n" }
            elsif (/^\+H:(.*)/)                   { @h = split /:/, $1 }
            elsif (/^\+F:\d+:ChaCha20-Poly1305:(.*)/) {
                my @v = split /:/, $1;
                printf "chacha20-poly1305 %s MB/s %.1f\n", $h[$_], $v[$_] / 1e6 for 0 .. $#v }
            elsif (/^(poly1305-\w+) (\d+) ([\d.]+)/) { print "$1 $2 MB/s $3\n" }
        ' "$f"
    done >"$T/$b.all"
done
perl -e '
    my %v;
    for my $b (qw(stock imp)) {
        open(my $f, "<", "$ARGV[0]/$b.all") or die;
        while (<$f>) {
            chomp; my @w = split / /; my $x = pop @w; my $k = join " ", @w;
            push @{$v{$k}{$b}}, $x; push @order, $k unless $seen{$k}++;
        }
    }
    sub med { my @s = sort { $a <=> $b } @_; my $n = @s;
              $n % 2 ? $s[$n / 2] : ($s[$n / 2 - 1] + $s[$n / 2]) / 2 }
    print "| measurement | stock | imported | imported/stock |\n|---|---:|---:|---:|\n";
    for my $k (@order) {
        my ($s, $i) = (med(@{$v{$k}{stock}}), med(@{$v{$k}{imp}}));
        printf "| %s | %.1f | %.1f | %.2f |\n", $k, $s, $i, $s ? $i / $s : 0;
    }
' "$T"
