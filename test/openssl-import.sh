#!/bin/sh
# test/openssl-import.sh - the openssl-import matrix row (issue 12): import
# our modules into OpenSSL 3 with tools/import-openssl.sh and check that
# OpenSSL's own tests pass and that its results match a stock build.
#
#   test/openssl-import.sh ROWDIR        run the row, builds under ROWDIR
#   test/openssl-import.sh --fetch DIR   get Debian's OpenSSL source into
#                                        DIR (apt-get source), print its path
#
# Environment:
#   OPENSSL_SRC      an unpacked OpenSSL 3 source tree to use (default: the
#                    one under ROWDIR/src, fetched with --fetch if missing)
#   OPENSSL_IMPORT_JOBS  make -j for the two OpenSSL builds (default 2)
#
# Steps (x86_64 host only; other hosts: the row is skipped):
#   1. stock build: ./Configure no-shared linux-x86_64 && make
#   2. imported build: a copy of the source, tools/import-openssl.sh on it
#      (checked: nothing but build.info files changed, plus asmcrypt/),
#      the same Configure and make; the archive must hold our objects and
#      not OpenSSL's x86_64-mont / x86_64-gcc / poly1305-x86_64 ones
#   3. OpenSSL's recipes (TESTS below) on the imported build at five
#      OPENSSL_ia32cap levels: default, no AVX-512 (F/DQ/IFMA/BW/VL), no
#      AVX2 either, no BMI2/ADX/AVX either, none
#   4. test/openssl/diff.c built against both libcrypto.a; the imported
#      one compares its cases with the stock one's at each level
# Poly1305 is imported when tools/import-openssl.sh accepts
# poly1305-x86_64.pl (OpenSSL mode, xor128_*_n_pad, OpenSSL's perlasm
# command line); until then the bn modules alone are, and the row says so
# (counted as skipped).
# Last line: "total: N passed, N failed" (OpenSSL subtests + differential
# cases + the import checks), as test/matrix.sh's script rows expect.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${OPENSSL_IMPORT_JOBS:-2}
TESTS="test_bn test_internal_bn test_exp test_rsa test_mp_rsa test_dh test_dsa test_internal_poly1305 test_evp"
# name:OPENSSL_ia32cap (see OpenSSL's OPENSSL_ia32cap(3): ~ clears bits;
# before ':' words 0-1 = CPUID.1 EDX:ECX, after it words 2-3 = CPUID.7.0
# EBX:ECX).  AVX512F 16, DQ 17, IFMA 21, BW 30, VL 31, AVX2 5, BMI2 8,
# ADX 19 of EBX; AVX = ECX bit 28 = bit 60 of the first value.
# "default" runs with OPENSSL_ia32cap unset (an empty value would mean 0),
# "none" with 0: no capability bit at all (OpenSSL keeps only its bit 10).
LEVELS='default:
no-avx512::~0xd0230000
no-avx2::~0xd0230020
no-bmi2-adx-avx:~0x1000000000000000:~0xd02b0128
none:0:0'

# ---- --fetch: Debian's source package ------------------------------------
fetch() {
    dir=$1
    mkdir -p "$dir" && cd "$dir" || exit 1
    have() { for d in openssl-3.*/; do [ -f "$d/Configure" ] && { echo "$PWD/${d%/}"; return 0; }; done; return 1; }
    have && return 0
    # apt-get source may fail part way (a security update whose .dsc is
    # not on the mirror yet): then try the other versions apt knows, and
    # last unpack an upstream tarball that did arrive.
    apt-get source -qq openssl >&2 2>&1 || true
    have && return 0
    for v in $(apt-cache showsrc openssl 2>/dev/null | awk '/^Version:/ {print $2}'); do
        apt-get source -qq "openssl=$v" >&2 2>&1 || true
        have && return 0
    done
    for t in openssl_3.*.orig.tar.gz; do
        [ -f "$t" ] && tar xzf "$t" && have && return 0
    done
    echo "openssl-import: could not get OpenSSL's source (deb-src entry missing?)" >&2
    return 1
}
if [ "${1:-}" = --fetch ]; then
    [ $# -eq 2 ] || { echo "usage: $0 --fetch DIR" >&2; exit 2; }
    fetch "$2"
    exit $?
fi

[ $# -eq 1 ] || { echo "usage: $0 ROWDIR | --fetch DIR" >&2; exit 2; }
ROW=$1
mkdir -p "$ROW" && ROW=$(cd "$ROW" && pwd)
PASS=0 FAIL=0 SKIP=0
ok()   { PASS=$((PASS + 1)); echo "  ok    $*"; }
bad()  { FAIL=$((FAIL + 1)); echo "  FAIL  $*"; }
finish() {
    [ "${SKIP:-0}" -eq 0 ] || echo "openssl-import: $SKIP part(s) skipped (NOTE lines above)"
    echo "total: $PASS passed, $FAIL failed"
    [ $FAIL -eq 0 ]
    exit $?
}
T0=$(date +%s)
stamp() { echo "  [$(( $(date +%s) - T0 ))s] $*"; }

case $(uname -m) in
x86_64) ;;
*) echo "openssl-import: x86_64 host only"; SKIP=1; finish ;;
esac

OSRC=${OPENSSL_SRC:-}
if [ -z "$OSRC" ]; then
    OSRC=$(fetch "$ROW/src") || { bad "get OpenSSL's source"; finish; }
fi
[ -f "$OSRC/Configure" ] || { bad "OPENSSL_SRC=$OSRC is no OpenSSL tree"; finish; }
OSRC=$(cd "$OSRC" && pwd)
echo "openssl-import: source $OSRC ($(sed -n 's/^MAJOR=//p;s/^MINOR=//p;s/^PATCH=//p' "$OSRC/VERSION.dat" | paste -sd.)), make -j$JOBS"

# ---- builds ----------------------------------------------------------------
build() {   # build DIR LOG
    (cd "$1" && ./Configure no-shared linux-x86_64 && make -j"$JOBS") >"$2" 2>&1
}

# OPENSSL_IMPORT_REUSE_STOCK=1 keeps a stock build of the same source
# from an earlier run (for development; CI builds both)
reuse=0
if [ "${OPENSSL_IMPORT_REUSE_STOCK:-0}" = 1 ] && [ -f "$ROW/stock/libcrypto.a" ] \
   && [ "$(cat "$ROW/stock/.asmcrypt-src" 2>/dev/null)" = "$OSRC" ]; then
    reuse=1
else
    rm -rf "$ROW/stock"
    cp -a "$OSRC" "$ROW/stock"
fi
rm -rf "$ROW/imported"
cp -a "$OSRC" "$ROW/imported"

MODULES=bn,poly1305
if ! "$SRC/tools/import-openssl.sh" --modules $MODULES "$ROW/imported" x86_64 >"$ROW/import.log" 2>&1; then
    echo "  NOTE  Poly1305 not imported (OpenSSL's poly1305-x86_64 stays): $(tail -1 "$ROW/import.log")"
    SKIP=$((SKIP + 1))
    MODULES=bn
fi
if "$SRC/tools/import-openssl.sh" --modules $MODULES "$ROW/imported" x86_64 >"$ROW/import.log" 2>&1; then
    ok "tools/import-openssl.sh --modules $MODULES x86_64"
else
    bad "tools/import-openssl.sh: $(tail -1 "$ROW/import.log")"
    finish
fi
# only build.info files may differ from the source (plus our asmcrypt/)
changed=$(cd "$ROW" && diff -rq "$OSRC" imported 2>&1 | grep -v -E "^Only in imported(/crypto/(bn|poly1305))?: (asmcrypt|build\.info\.asmcrypt-orig)$" \
          | grep -v -E "^Files .*/build\.info and imported/.*/build\.info differ$" || true)
if [ -z "$changed" ]; then ok "import changed build.info files only"; else bad "import changed more than build.info: $changed"; fi
# and the import is idempotent
cp "$ROW/imported/crypto/bn/build.info" "$ROW/bn-build.info.1"
"$SRC/tools/import-openssl.sh" --modules $MODULES "$ROW/imported" x86_64 >>"$ROW/import.log" 2>&1
if cmp -s "$ROW/bn-build.info.1" "$ROW/imported/crypto/bn/build.info"; then ok "import is idempotent"; else bad "second import differs"; fi

stamp "building stock and imported OpenSSL"
if [ $reuse = 1 ]; then
    ok "stock build (reused)"
elif build "$ROW/stock" "$ROW/stock.log"; then
    echo "$OSRC" >"$ROW/stock/.asmcrypt-src"
    ok "stock build"
else
    bad "stock build (see $ROW/stock.log)"; finish
fi
stamp "stock built"
if build "$ROW/imported" "$ROW/imported.log"; then ok "imported build"; else bad "imported build: $(grep -m1 -i error "$ROW/imported.log")"; finish; fi
stamp "imported built"

# the archive holds our objects instead of OpenSSL's
members=$(ar t "$ROW/imported/libcrypto.a")
want="libcrypto-lib-asmcrypt-x86_64-mont.o libcrypto-lib-asmcrypt-x86_64-words.o"
gone="libcrypto-lib-x86_64-mont.o libcrypto-lib-x86_64-gcc.o"
keep="libcrypto-lib-x86_64-mont5.o"
case $MODULES in *poly1305*)
    want="$want libcrypto-lib-asmcrypt-poly1305-x86_64.o"
    gone="$gone libcrypto-lib-poly1305-x86_64.o" ;;
esac
for o in $want $keep; do
    if echo "$members" | grep -qx "$o"; then ok "libcrypto.a has $o"; else bad "libcrypto.a lacks $o"; fi
done
for o in $gone; do
    if echo "$members" | grep -qx "$o"; then bad "libcrypto.a still has OpenSSL's $o"; else ok "libcrypto.a has no $o"; fi
done

# setcap MASK: OPENSSL_ia32cap=MASK, or unset for an empty MASK (in a
# subshell)
setcap() {
    if [ -n "$1" ]; then OPENSSL_ia32cap=$1; export OPENSSL_ia32cap; else unset OPENSSL_ia32cap; fi
}

# ---- OpenSSL's recipes at each level ----------------------------------------
echo "$LEVELS" | while IFS=: read -r name m1 m2; do
    mask=$m1${m2:+:$m2}
    log=$ROW/test-$name.log
    (cd "$ROW/imported" && setcap "$mask" && make test TESTS="$TESTS" HARNESS_JOBS=1) >"$log" 2>&1
    # the harness's summary: "Files=9, Tests=134, ..." and "Result: PASS";
    # on failure "Failed X/Y subtests" lines per recipe
    total=$(sed -n 's/^Files=[0-9]*, Tests=\([0-9]*\),.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
    failed=$(sed -n 's/^Failed \([0-9]*\)\/[0-9]* subtests.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
    if grep -q '^Result: PASS' "$log" && ! grep -q '^Result: FAIL' "$log" && [ "$total" -gt 0 ]; then
        echo "R $name $total 0"
    else
        [ "$failed" -gt 0 ] || failed=1
        echo "R $name $((total > failed ? total - failed : 0)) $failed"
    fi
done >"$ROW/recipes.txt"
while read -r _ name p f; do
    PASS=$((PASS + p)) FAIL=$((FAIL + f))
    echo "  recipes at $name: $p passed, $f failed  (OPENSSL_ia32cap: $(echo "$LEVELS" | sed -n "s/^$name://p"))"
done <"$ROW/recipes.txt"
stamp "recipes done"

# ---- differential program ---------------------------------------------------
DIFFSRC=$SRC/test/openssl/diff.c
for b in stock imported; do
    if ! cc -std=c99 -D_DEFAULT_SOURCE -O2 -Wall -Wextra -I"$ROW/$b/include" "$DIFFSRC" \
         "$ROW/$b/libcrypto.a" -ldl -pthread -o "$ROW/diff-$b" 2>"$ROW/diff-$b.log"; then
        bad "build test/openssl/diff.c against $b: $(head -1 "$ROW/diff-$b.log")"
        finish
    fi
done
if ! "$ROW/diff-stock" 12 >"$ROW/stock.out" 2>"$ROW/stock.err"; then
    bad "differential program on the stock build: $(cat "$ROW/stock.err")"
    finish
fi
echo "$LEVELS" | while IFS=: read -r name m1 m2; do
    mask=$m1${m2:+:$m2}
    (setcap "$mask" && exec "$ROW/diff-imported" 12 "$ROW/stock.out") >"$ROW/diff-$name.log" 2>&1
    line=$(tail -1 "$ROW/diff-$name.log")
    p=$(echo "$line" | sed -n 's/^total: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$line" | sed -n 's/^total: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    [ -n "$p" ] || { p=0; f=1; }
    echo "D $name $p $f"
done >"$ROW/diff.txt"
while read -r _ name p f; do
    PASS=$((PASS + p)) FAIL=$((FAIL + f))
    echo "  differential at $name: $p passed, $f failed  ($(grep -m1 '^OPENSSL_ia32cap_P' "$ROW/diff-$name.log"))"
    [ "$f" -eq 0 ] || grep '^FAIL' "$ROW/diff-$name.log" | head -5
done <"$ROW/diff.txt"
stamp "differential done"
finish
