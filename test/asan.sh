#!/usr/bin/env bash
# test/asan.sh ROWDIR - the `asan` row of test/matrix.sh (script mode):
# a native x86_64 build with AddressSanitizer + UndefinedBehaviorSanitizer
# (LeakSanitizer on), then every test program at every capability level
# (what `make test` does; `make` first builds the shared library, apps and tools
# under the sanitizers; the asm runs natively, AVX-512/IFMA
# included).  Any ASan/UBSan/LSan report makes the program exit non-zero,
# which run.sh counts as a failure.  The constant-time trace check
# (ct-test, qemu) is left to the normal rows: CT_TEST=no.
# Note: the sanitizers instrument C only; the assembly's own loads and
# stores are not checked here (memcheck and test_poly1305_state do that).
# Last line: "total: N passed, N failed".
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:?usage: test/asan.sh ROWDIR}
mkdir -p "$B"; cd "$B" || exit 1
CC=clang; command -v clang >/dev/null || CC=gcc
SAN='-fsanitize=address,undefined -fno-sanitize-recover=all'
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=98:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=97
"$SRC/Configure" linux-x86_64 CC=$CC "CFLAGS=-O1 -g $SAN -fno-omit-frame-pointer" \
    "LDFLAGS=$SAN" || { echo "CONFIGURE FAILED"; echo "total: 0 passed, 1 failed"; exit 1; }
make -j1 || { echo "BUILD FAILED"; echo "total: 0 passed, 1 failed"; exit 1; }
# what `make test` runs, called directly so that the total stays the last
# line (make would print its own error after it)
EMULATOR= CAP_LEVELS="$(sed -n 's/^CAP_LEVELS *= *//p' Makefile)" VECTORS="$SRC/test/vectors" \
TESTS="$(ls testbin/test_* | tr '\n' ' ')" CT_TEST=no MAKE=make \
    sh "$SRC/test/run.sh"
