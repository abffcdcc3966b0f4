#!/bin/sh
# test/mips-r2-probe.sh PROGRAM [QEMU] - run test/mips_r2_probe.c's
# freestanding program (`make probe-test`, test/test.mk) on the qemu-user
# MIPS32 cores without R2 (4Kc, 4KEcR1: it must answer 0 and survive) and
# with it (24Kf, 74Kf: 1).  QEMU is qemu-mips or qemu-mipsel (the row's
# emulator); empty on a native MIPS host, where the program runs once
# with the answer unknown ("-").  Each run's "N passed, N failed" is
# added; a run that exits non-zero, hangs (60 s) or prints no such line
# is one failure more.  Last line: "N passed, N failed".
set -u
prog=${1:?usage: test/mips-r2-probe.sh PROGRAM [QEMU]}
qemu=${2:-}
passed=0
failed=0

run() {     # LABEL EXPECT COMMAND...
    label=$1 want=$2
    shift 2
    out=$(timeout -k 5 60 "$@" "$want" 2>&1)
    rc=$?
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    if [ -z "$line" ]; then
        p=0 f=1
    else
        p=${line%% passed*} f=${line#*passed, }
        f=${f%% failed*}
        [ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
    fi
    passed=$((passed + p)) failed=$((failed + f))
    st=ok
    [ "$f" -ne 0 ] && st="FAILED (exit $rc)"
    echo "$label (expect $want): $(printf '%s\n' "$out" | grep '^probe:') $p passed, $f failed  $st"
    [ "$f" -ne 0 ] && printf '%s\n' "$out" | grep -v '^ok ' | sed 's/^/    /'
}

if [ -z "$qemu" ]; then
    run native - "./$prog"
else
    for c in 4Kc:0 4KEcR1:0 24Kf:1 74Kf:1; do
        run "$qemu -cpu ${c%:*}" "${c#*:}" "$qemu" -cpu "${c%:*}" "./$prog"
    done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
