#!/bin/sh
# test/run.sh - run every test program at every capability level.
#
# Called by `make test` with, in the environment:
#   EMULATOR    command prefix for target programs ("" when native)
#   CAP_LEVELS  ASMCRYPT_CAP masks to run the suite at
#   VECTORS     the test/vectors folder (argv[1] of each program)
#   TESTS       the test programs
#   CT_TEST     "yes" to also run `$MAKE ct-test` (constant-time traces)
#   PROBE_TEST  "yes" to also run `$MAKE probe-test` (o32 MIPS32r1: the
#               R2 probe on cores with and without R2, test/test.mk)
#   TEST_TIMEOUT seconds one program may run (default 300; under qemu the
#               slowest takes about 2 s, under valgrind about a minute):
#               a program that hangs is killed and counts as one failure,
#               so a run always ends
# Each program prints "N passed, N failed" as its last such line; a program
# that exits non-zero or prints no such line counts as one failure.
# The last line of output is the total.
set -u
passed=0
failed=0
logdir=testlogs
mkdir -p "$logdir"

# add_counts LOGFILE STATUS LABEL
add_counts() {
    line=$(grep -E '^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    if [ -z "$line" ]; then
        echo "  $3: no result line (exit $2), see $1"
        failed=$((failed + 1))
        return
    fi
    p=$(echo "$line" | sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2/')
    f=$(echo "$line" | sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\3/')
    if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1          # crashed or exited non-zero after a clean count
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    status=ok
    [ "$f" -ne 0 ] && status="FAILED (see $1)"
    echo "  $3: $p passed, $f failed  $status"
}

for level in $CAP_LEVELS; do
    echo "ASMCRYPT_CAP=$level"
    for t in $TESTS; do
        name=$(basename "$t")
        log="$logdir/$name.cap$level.log"
        # shellcheck disable=SC2086
        ASMCRYPT_CAP=$level timeout -k 10 "${TEST_TIMEOUT:-300}" $EMULATOR "./$t" "$VECTORS" >"$log" 2>&1
        rc=$?
        [ $rc -eq 124 ] && echo "run.sh: killed after ${TEST_TIMEOUT:-300} s" >>"$log"
        add_counts "$log" $rc "$name"
    done
done

if [ "${CT_TEST:-}" = yes ]; then
    echo "constant-time trace check"
    log="$logdir/ct-test.log"
    $MAKE --no-print-directory ct-test >"$log" 2>&1
    add_counts "$log" $? "ct-test"
fi

if [ "${PROBE_TEST:-}" = yes ]; then
    echo "MIPS R2 probe (freestanding, cores with and without R2)"
    log="$logdir/probe-test.log"
    $MAKE --no-print-directory probe-test >"$log" 2>&1
    add_counts "$log" $? "probe-test"
fi

echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
