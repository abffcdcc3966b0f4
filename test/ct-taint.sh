#!/usr/bin/env bash
# test/ct-taint.sh ROWDIR - the `ct-taint` row of test/matrix.sh (script
# mode): secret-taint check under valgrind memcheck.  tools/ct_taint.c
# marks the secrets undefined (VALGRIND_MAKE_MEM_UNDEFINED) and calls
# every constant-time primitive; memcheck then reports each conditional
# jump and each address that depends on a secret.  Run at each capability
# level valgrind 3.19 can execute (as test/memcheck.sh: 1f = Poly1305
# AVX2 + bignum mulq, 9 = scalar Poly1305, 0 = baseline; it runs no
# AVX-512F/IFMA and its CPUID hides ADX, so those paths are left to the
# static check, test/ct-static.sh).  CT_TAINT_LEVELS overrides the list.
#
# One test per (level, case): a case passes when memcheck reports nothing
# between its "case" line and the next.  Then the two planted leaks of
# tools/ct_leaks.c, each of which must draw a memcheck error.
# Needs: valgrind (Debian's package ships valgrind/memcheck.h).
# Last line: "total: N passed, N failed".
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:?usage: test/ct-taint.sh ROWDIR}
LEVELS=${CT_TAINT_LEVELS:-1f 9 0}
mkdir -p "$B"; cd "$B" || exit 1
if ! command -v valgrind >/dev/null || [ ! -f /usr/include/valgrind/memcheck.h ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "ct-taint: installing valgrind (apt-get)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends valgrind >/dev/null
    fi
    command -v valgrind >/dev/null && [ -f /usr/include/valgrind/memcheck.h ] ||
        { echo "ct-taint: valgrind or valgrind/memcheck.h missing"; echo "total: 0 passed, 1 failed"; exit 1; }
fi
"$SRC/Configure" linux-x86_64 "CFLAGS=-O2 -g" >configure.log 2>&1 ||
    { tail -n 5 configure.log; echo "CONFIGURE FAILED"; echo "total: 0 passed, 1 failed"; exit 1; }
make -j1 toolbin/ct_taint >build.log 2>&1 ||
    { tail -n 20 build.log; echo "BUILD FAILED"; echo "total: 0 passed, 1 failed"; exit 1; }
mkdir -p testlogs
PASS=0 FAIL=0
VG="valgrind -q --error-exitcode=99 --track-origins=yes"

# split LOG: per case, ok or the first lines of its errors
split_cases() {
    awk -v lvl="$2" '
        function flush() {
            if (name == "" || name == "done") return
            if (err == "") { printf "ok   %s @%s\n", name, lvl; np++ }
            else { printf "FAIL %s @%s: secret-dependent %s\n", name, lvl, err; nf++ }
        }
        /^case / { flush(); name = $2; err = ""; next }
        /^==[0-9]+== (Conditional jump|Use of uninitialised|Syscall param|Invalid)/ {
            if (err == "") { sub(/^==[0-9]+== /, ""); err = $0; getline; sub(/^==[0-9]+== +/, ""); err = err " " $0 }
        }
        END { flush(); printf "counts %d %d\n", np, nf }' "$1"
}

for lvl in $LEVELS; do
    log=testlogs/ct_taint.cap$lvl.log
    $VG ./toolbin/ct_taint "$lvl" >"$log" 2>&1
    rc=$?
    split_cases "$log" "$lvl" >testlogs/ct_taint.cap$lvl.sum
    grep -v '^counts\|^ok ' testlogs/ct_taint.cap$lvl.sum
    set -- $(sed -n 's/^counts //p' testlogs/ct_taint.cap$lvl.sum)
    PASS=$((PASS + $1)); FAIL=$((FAIL + $2))
    grep -q '^case done' "$log" || { echo "ct_taint $lvl did not finish (exit $rc)"; tail -n 5 "$log"; FAIL=$((FAIL + 1)); }
    echo "level $lvl: $1 cases clean, $2 with findings"
done

for leak in leak-exp leak-table; do
    log=testlogs/ct_taint.$leak.log
    $VG ./toolbin/ct_taint "$leak" >"$log" 2>&1
    if grep -Eq '^==[0-9]+== (Conditional jump|Use of uninitialised)' "$log"; then
        PASS=$((PASS + 1))
        echo "ok   $leak: planted leak reported ($(grep -Em1 '^==[0-9]+== (Conditional|Use of)' "$log" | sed 's/^==[0-9]*== //'))"
    else
        FAIL=$((FAIL + 1)); echo "FAIL $leak: planted leak NOT reported"
    fi
done
echo "total: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
