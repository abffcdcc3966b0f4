#!/usr/bin/env bash
# test/perlasm-check.sh ROWDIR - consistency checks of the perlasm sources
# that no build row sees: the copies of shared blocks each run-alone
# script carries must stay identical (perlasm/*-check.pl), and the
# mingw64 flavour runs under the Win64 calling convention
# (perlasm/x86_64-win64-check.sh); the capability-bit and ARM32 preamble
# checks also run in --self-test mode (they must fail on mutated copies).
# Last line: "total: N passed, N failed".
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
ROWDIR=${1:-/tmp/perlasm-check}
mkdir -p "$ROWDIR"
pass=0 fail=0
checks=()
for chk in "$SRC"/perlasm/*-check.pl "$SRC"/perlasm/*-check.sh; do
    [ -f "$chk" ] && checks+=("$chk")
done
[ -f "$SRC/perlasm/capbits-check.pl" ] && checks+=("$SRC/perlasm/capbits-check.pl --self-test")
[ -f "$SRC/perlasm/arm-preamble-check.pl" ] && checks+=("$SRC/perlasm/arm-preamble-check.pl --self-test")
for entry in "${checks[@]}"; do
    chk=${entry%% --*} opt=
    [ "$chk" = "$entry" ] || opt=${entry##* }
    out="$ROWDIR/$(basename "$chk")$opt.out"
    case "$chk" in
        *.pl) perl "$chk" $opt "$SRC" >"$out" 2>&1 ;;
        *)    sh "$chk" "$SRC" >"$out" 2>&1 ;;
    esac
    rc=$?
    last=$(tail -n 1 "$out")
    p=$(sed -n 's/^[a-z0-9-]*: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' <<<"$last")
    f=$(sed -n 's/^[a-z0-9-]*: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' <<<"$last")
    if [ -z "$p" ]; then p=0; f=1; fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    echo "$(basename "$chk")${opt:+ $opt}: $last (exit $rc)"
    pass=$((pass + p)) fail=$((fail + f))
done
echo "total: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
