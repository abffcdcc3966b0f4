#!/usr/bin/env bash
# test/fuzz-smoke.sh ROWDIR - the `fuzz-smoke` row of test/matrix.sh
# (script mode), issue 14 item 1: a native build in ROWDIR, the libFuzzer
# targets (fuzz/fuzz.mk: clang -fsanitize=fuzzer,address,undefined, every
# capability level of the build in-process, OpenSSL as an extra oracle
# when Configure finds it), each run FUZZ_SMOKE_S seconds (default 30) on
# a fresh copy of its seed corpus, then the plain-C replay drivers over the
# committed corpus.  Needs clang and libclang-rt-14-dev (libFuzzer).
# Counts: one test per fuzz run (a crash, i.e. a mismatch or a sanitizer
# report, fails it) and one per replayed corpus file.  Without clang the
# fuzz runs are reported as skipped and only the replay runs.
# Last line: "total: N passed, N failed, N skipped".
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:?usage: test/fuzz-smoke.sh ROWDIR}
S=${FUZZ_SMOKE_S:-30}
TARGETS="words mont poly1305 modexp"
mkdir -p "$B"; cd "$B" || exit 1
passed=0 failed=0 skipped=0

finish() {
    echo "total: $passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
    exit $?
}

"$SRC/Configure" >configure.log 2>&1 ||
    { echo "CONFIGURE FAILED (see $B/configure.log)"; failed=1; finish; }
make -j1 libasmcrypt.a >build.log 2>&1 ||
    { echo "BUILD FAILED (see $B/build.log)"; failed=1; finish; }
echo "levels: $(sed -n 's/^CAP_LEVELS *= *//p' Makefile)"

if command -v clang >/dev/null && make -j1 fuzz-build >fuzz-build.log 2>&1; then
    for t in $TARGETS; do
        make --no-print-directory fuzz FUZZ_TARGETS=$t FUZZ_S="$S" >"fuzz-$t.log" 2>&1
        rc=$?
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzzwork/$t.log" | tail -n 1)
        if [ $rc -eq 0 ]; then
            passed=$((passed + 1))
            echo "  fuzz_$t: ${execs:-?} executions in $S s, no mismatch  ok"
        else
            failed=$((failed + 1))
            echo "  fuzz_$t: FAILED (see $B/fuzzwork/$t.log)"
            grep -E 'MISMATCH|ERROR|SUMMARY' "fuzzwork/$t.log" | head -n 5 | sed 's/^/    /'
        fi
    done
else
    echo "  no clang/libFuzzer (see $B/fuzz-build.log): 4 fuzz runs skipped"
    skipped=$((skipped + 4))
fi

make -j1 fuzzbin/replay_words fuzzbin/replay_mont fuzzbin/replay_poly1305 \
    fuzzbin/replay_modexp >replay-build.log 2>&1 ||
    { echo "REPLAY BUILD FAILED (see $B/replay-build.log)"; failed=$((failed + 1)); finish; }
for t in $TARGETS; do
    ./fuzzbin/replay_$t "$SRC/fuzz/corpus/$t" >"replay-$t.log" 2>&1
    rc=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "replay-$t.log" | tail -n 1)
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
    if [ -z "$line" ]; then
        p=0; f=1
    elif [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
    fi
    passed=$((passed + p)); failed=$((failed + f))
    echo "  replay_$t: $p passed, $f failed"
done
finish
