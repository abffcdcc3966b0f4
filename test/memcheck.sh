#!/usr/bin/env bash
# test/memcheck.sh ROWDIR - the `memcheck` row of test/matrix.sh (script
# mode): a normal -O2 -g native x86_64 build, then every test program under
# valgrind memcheck at each capability level valgrind 3.19 can execute.
# It cannot run AVX-512F/IFMA (levels ffffffff, ff: left to the asan row
# and the state canary test), and its CPUID hides ADX, so the MULX/ADCX
# paths (x86_64-adx) never run under it either.  What remains is three
# distinct path sets: ASMCRYPT_CAP 1f (Poly1305 AVX2, bignum mulq),
# 9 (Poly1305 scalar, bignum mulq, AVX+BMI1 kept) and 0 (baseline);
# f equals 9 under valgrind.  MEMCHECK_LEVELS overrides the list.
# Unlike ASan, memcheck also checks the assembly's loads and stores
# (test_threads uses exact-size heap buffers for every input and output).
# A memcheck error or a definite/indirect leak makes valgrind exit 99,
# which test/run.sh counts as a failure of that (program, level).
# Counts: each program's own passes and failures at each level, as in
# every other row (so the total equals the x86_64 row's at 3 of its 6
# levels when clean); a valgrind error adds one failure.
# Last line: "total: N passed, N failed".
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:?usage: test/memcheck.sh ROWDIR}
LEVELS=${MEMCHECK_LEVELS:-1f 9 0}
mkdir -p "$B"; cd "$B" || exit 1
if ! command -v valgrind >/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "memcheck: installing valgrind (apt-get)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends valgrind >/dev/null
    fi
    command -v valgrind >/dev/null || { echo "memcheck: valgrind missing"; echo "total: 0 passed, 1 failed"; exit 1; }
fi
"$SRC/Configure" linux-x86_64 "CFLAGS=-O2 -g" || { echo "CONFIGURE FAILED"; echo "total: 0 passed, 1 failed"; exit 1; }
make -j1 libasmcrypt.a tests || { echo "BUILD FAILED"; echo "total: 0 passed, 1 failed"; exit 1; }
# test/run.sh's EMULATOR prefix is where valgrind goes (its log per
# program and level: testlogs/<prog>.cap<level>.log, valgrind's lines
# prefixed ==pid==).
EMULATOR="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect --track-origins=yes" \
CAP_LEVELS="$LEVELS" VECTORS="$SRC/test/vectors" \
TESTS="$(ls testbin/test_* | tr '\n' ' ')" CT_TEST=no MAKE=make \
    sh "$SRC/test/run.sh"
