#!/usr/bin/env bash
# test/tsan.sh ROWDIR - the `tsan` row of test/matrix.sh (script mode): a
# native x86_64 build with ThreadSanitizer, then every test program at
# every capability level (test_threads is the one with threads: eight of
# them call every public function from a cold start; the others are cheap
# and run for the instrumented C).  A TSan report makes the program exit
# 66, which test/run.sh counts as a failure.  TSan instruments C only: the
# assembly's memory accesses are invisible to it (a race there would show
# as a digest mismatch in test_threads, not as a report).
# Last line: "total: N passed, N failed".
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:?usage: test/tsan.sh ROWDIR}
mkdir -p "$B"; cd "$B" || exit 1
CC=clang; command -v clang >/dev/null || CC=gcc
export TSAN_OPTIONS=halt_on_error=1:exitcode=66:second_deadlock_stack=1
"$SRC/Configure" linux-x86_64 CC=$CC "CFLAGS=-O1 -g -fsanitize=thread" \
    "LDFLAGS=-fsanitize=thread" || { echo "CONFIGURE FAILED"; echo "total: 0 passed, 1 failed"; exit 1; }
make -j1 libasmcrypt.a tests || { echo "BUILD FAILED"; echo "total: 0 passed, 1 failed"; exit 1; }
EMULATOR= CAP_LEVELS="$(sed -n 's/^CAP_LEVELS *= *//p' Makefile)" VECTORS="$SRC/test/vectors" \
TESTS="$(ls testbin/test_* | tr '\n' ' ')" CT_TEST=no MAKE=make \
    sh "$SRC/test/run.sh"
