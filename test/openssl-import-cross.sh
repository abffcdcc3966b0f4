#!/bin/sh
# test/openssl-import-cross.sh - the openssl-import-aarch64 and
# openssl-import-armv4 matrix rows (issue 12 item 3): import our ARM
# modules into OpenSSL 3 with tools/import-openssl.sh, cross-build it, and
# run OpenSSL's own tests and the differential program under qemu-user.
#
#   test/openssl-import-cross.sh ARCH ROWDIR    ARCH: aarch64 | armv4 | mips32
#
# (test/openssl-import-aarch64.sh and test/openssl-import-armv4.sh call
# this with their ARCH.)
#
# Environment:
#   OPENSSL_SRC          an unpacked OpenSSL 3 source tree (default: the
#                        one test/openssl-import.sh --fetch puts under
#                        ROWDIR/src; CI's .ci/run exports it)
#   OPENSSL_IMPORT_JOBS  make -j for the OpenSSL builds and HARNESS_JOBS
#                        for its tests (default 2)
#
# Steps:
#   1. a copy of the source, tools/import-openssl.sh COPY ARCH (bn and
#      Poly1305; checked: only build.info files change, idempotent);
#      ./Configure TARGET --cross-compile-prefix=... no-shared FLAGS and
#      make of the libraries plus the programs the recipes below run
#      (not the ~300 other test programs: that halves the build);
#      libcrypto.a must hold our objects and not OpenSSL's replaced ones;
#   2. a stock build (libcrypto.a only) of the same source, same flags;
#   3. OpenSSL's recipes (TESTS) under qemu-user at each capability level
#      (OPENSSL_armcap: unset = OpenSSL's own probe, which on this qemu
#      -cpu finds NEON; 0 = no NEON, our integer paths).  OpenSSL 3.0's
#      harness prefixes every program it runs with $EXE_SHELL; that is
#      util/wrap.pl (the environment it would set anyway) followed by
#      qemu -cpu CPU, and QEMU_LD_PREFIX points qemu at the cross libc
#      (no binfmt_misc needed, no -static);
#   4. test/openssl/diff.c built against both archives and run under
#      qemu; the imported one compares with the stock one at each level.
# Last line: "total: N passed, N failed" (OpenSSL subtests at each level +
# differential cases at each level + the import checks).
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${OPENSSL_IMPORT_JOBS:-2}
TESTS="test_bn test_internal_bn test_exp test_rsa test_mp_rsa test_dh test_dsa test_internal_poly1305 test_evp"
# the programs those recipes run (test/recipes/*.t), plus the scripts the
# harness needs and the legacy provider that test_evp loads
PROGS="apps/openssl util/wrap.pl util/shlib_wrap.sh providers/legacy.so
test/bntest test/bn_internal_test test/exptest test/rsa_test test/rsa_mp_test
test/dhtest test/dsatest test/dsa_no_digest_size_test
test/poly1305_internal_test test/evp_test"

[ $# -eq 2 ] || { echo "usage: $0 aarch64|armv4|mips32 ROWDIR" >&2; exit 2; }
ARCH=$1
ROW=$2
XLIBS=
# per ARCH: OpenSSL target, cross prefix, extra Configure flags, qemu and
# its -cpu, the cross libc, our objects / OpenSSL's replaced ones / kept
case $ARCH in
aarch64)
    TARGET=linux-aarch64 PREFIX=aarch64-linux-gnu- XFLAGS=
    QEMU=qemu-aarch64 CPU=cortex-a57 SYSROOT=/usr/aarch64-linux-gnu
    WANT="asmcrypt-armv8-mont asmcrypt-poly1305-armv8"
    GONE="armv8-mont poly1305-armv8"
    KEEP="bn_asm" ;;
armv4)
    # Debian armhf's own flags (ARMv7, VFP, Thumb-2 by default): the NEON
    # code is assembled from OpenSSL's ARMv7 level, not from -mfpu=neon
    TARGET=linux-armv4 PREFIX=arm-linux-gnueabihf- XFLAGS=-march=armv7-a+fp
    QEMU=qemu-arm CPU=cortex-a8 SYSROOT=/usr/arm-linux-gnueabihf
    WANT="asmcrypt-armv4-mont asmcrypt-poly1305-armv4"
    GONE="armv4-mont poly1305-armv4"
    KEEP="bn_asm armv4-gf2m" ;;
mips32)
    # no matrix row yet (test/openssl-import-cross.sh mips32 DIR by hand):
    # little-endian o32, MIPS32r2; OpenSSL has no MIPS capability word and
    # no 32-bit MIPS Poly1305, so one level and the bn modules alone
    TARGET=linux-mips32 PREFIX=mipsel-linux-gnu- XFLAGS=-march=mips32r2
    QEMU=qemu-mipsel CPU=74Kf SYSROOT=/usr/mipsel-linux-gnu
    XLIBS=-latomic      # 64-bit atomics (OpenSSL's own link line has it)
    WANT="asmcrypt-mips-mont asmcrypt-mips-words"
    GONE="mips-mont bn-mips"
    KEEP= ;;
*) echo "usage: $0 aarch64|armv4|mips32 ROWDIR" >&2; exit 2 ;;
esac
# name:OPENSSL_armcap ("default" leaves it unset)
LEVELS='default:
no-neon:0'
[ "$ARCH" = mips32 ] && LEVELS='default:'

mkdir -p "$ROW" && ROW=$(cd "$ROW" && pwd)
PASS=0 FAIL=0 SKIP=0
ok()   { PASS=$((PASS + 1)); echo "  ok    $*"; }
bad()  { FAIL=$((FAIL + 1)); echo "  FAIL  $*"; }
finish() {
    [ "$SKIP" -eq 0 ] || echo "openssl-import-$ARCH: $SKIP part(s) skipped (NOTE lines above)"
    echo "total: $PASS passed, $FAIL failed"
    [ $FAIL -eq 0 ]
    exit $?
}
T0=$(date +%s)
stamp() { echo "  [$(( $(date +%s) - T0 ))s] $*"; }

for t in "${PREFIX}gcc" "$QEMU"; do
    command -v "$t" >/dev/null 2>&1 || { bad "$t not installed (test/matrix.sh --install)"; finish; }
done
[ -d "$SYSROOT/lib" ] || { bad "no cross libc in $SYSROOT"; finish; }

OSRC=${OPENSSL_SRC:-}
if [ -z "$OSRC" ]; then
    OSRC=$(sh "$SRC/test/openssl-import.sh" --fetch "$ROW/src") || { bad "get OpenSSL's source"; finish; }
fi
[ -f "$OSRC/Configure" ] || { bad "OPENSSL_SRC=$OSRC is no OpenSSL tree"; finish; }
OSRC=$(cd "$OSRC" && pwd)
echo "openssl-import-$ARCH: source $OSRC ($(sed -n 's/^MAJOR=//p;s/^MINOR=//p;s/^PATCH=//p' "$OSRC/VERSION.dat" | paste -sd.)), $TARGET $XFLAGS, $QEMU -cpu $CPU, make -j$JOBS"

# ---- import ------------------------------------------------------------------
rm -rf "$ROW/stock" "$ROW/imported"
cp -a "$OSRC" "$ROW/stock"
cp -a "$OSRC" "$ROW/imported"
if "$SRC/tools/import-openssl.sh" "$ROW/imported" "$ARCH" >"$ROW/import.log" 2>&1; then
    ok "tools/import-openssl.sh $ARCH ($(sed -n 's/.*modules (\(.*\)) now come.*/\1/p' "$ROW/import.log"))"
else
    bad "tools/import-openssl.sh: $(tail -1 "$ROW/import.log")"
    finish
fi
changed=$(cd "$ROW" && diff -rq "$OSRC" imported 2>&1 | grep -v -E "^Only in imported(/crypto/(bn|poly1305))?: (asmcrypt|build\.info\.asmcrypt-orig)$" \
          | grep -v -E "^Files .*/build\.info and imported/.*/build\.info differ$" || true)
if [ -z "$changed" ]; then ok "import changed build.info files only"; else bad "import changed more than build.info: $changed"; fi
cat "$ROW/imported/crypto/bn/build.info" "$ROW/imported/crypto/poly1305/build.info" >"$ROW/build.info.1"
"$SRC/tools/import-openssl.sh" "$ROW/imported" "$ARCH" >>"$ROW/import.log" 2>&1
cat "$ROW/imported/crypto/bn/build.info" "$ROW/imported/crypto/poly1305/build.info" >"$ROW/build.info.2"
if cmp -s "$ROW/build.info.1" "$ROW/build.info.2"; then ok "import is idempotent"; else bad "second import differs"; fi

# ---- builds ------------------------------------------------------------------
configure() {   # configure DIR
    # shellcheck disable=SC2086
    (cd "$1" && ./Configure "$TARGET" --cross-compile-prefix="$PREFIX" no-shared $XFLAGS)
}
stamp "building imported OpenSSL"
# shellcheck disable=SC2086
if (configure "$ROW/imported" && make -C "$ROW/imported" -j"$JOBS" build_libs $PROGS) >"$ROW/imported.log" 2>&1; then
    ok "imported build"
else
    bad "imported build: $(grep -m1 -i -E 'error|\*\*\*' "$ROW/imported.log")"; finish
fi
stamp "imported built"
if (configure "$ROW/stock" && make -C "$ROW/stock" -j"$JOBS" build_generated \
        && make -C "$ROW/stock" -j"$JOBS" libcrypto.a) >"$ROW/stock.log" 2>&1; then
    ok "stock build (libcrypto.a)"
else
    bad "stock build: $(grep -m1 -i -E 'error|\*\*\*' "$ROW/stock.log")"; finish
fi
stamp "stock built"

members=$(ar t "$ROW/imported/libcrypto.a")
for o in $WANT $KEEP; do
    if echo "$members" | grep -qx "libcrypto-lib-$o.o"; then ok "libcrypto.a has libcrypto-lib-$o.o"; else bad "libcrypto.a lacks libcrypto-lib-$o.o"; fi
done
for o in $GONE; do
    if echo "$members" | grep -qx "libcrypto-lib-$o.o"; then bad "libcrypto.a still has OpenSSL's libcrypto-lib-$o.o"; else ok "libcrypto.a has no libcrypto-lib-$o.o"; fi
done

# setcap VALUE: OPENSSL_armcap=VALUE, or unset for an empty VALUE
setcap() {
    if [ -n "$1" ]; then OPENSSL_armcap=$1; export OPENSSL_armcap; else unset OPENSSL_armcap; fi
}
QEMU_LD_PREFIX=$SYSROOT
# and the guest's ld.so takes the cross libc, not a multiarch copy of the
# host's /etc/ld.so.cache (why: Configure's default_emulator)
QEMU_SET_ENV=LD_LIBRARY_PATH=$SYSROOT/lib
export QEMU_LD_PREFIX QEMU_SET_ENV

# ---- OpenSSL's recipes at each level -----------------------------------------
echo "$LEVELS" | while IFS=: read -r name cap; do
    log=$ROW/test-$name.log
    s=$(date +%s)
    (cd "$ROW/imported" && setcap "$cap" \
        && make run_tests TESTS="$TESTS" HARNESS_JOBS="$JOBS" \
                EXE_SHELL="$ROW/imported/util/wrap.pl $QEMU -cpu $CPU") >"$log" 2>&1
    total=$(sed -n 's/^Files=[0-9]*, Tests=\([0-9]*\),.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
    failed=$(sed -n 's/^Failed \([0-9]*\)\/[0-9]* subtests.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
    if grep -q '^Result: PASS' "$log" && ! grep -q '^Result: FAIL' "$log" && [ "$total" -gt 0 ]; then
        echo "R $name $total 0 $(( $(date +%s) - s ))"
    else
        [ "$failed" -gt 0 ] || failed=1
        echo "R $name $((total > failed ? total - failed : 0)) $failed $(( $(date +%s) - s ))"
    fi
done >"$ROW/recipes.txt"
while read -r _ name p f secs; do
    PASS=$((PASS + p)) FAIL=$((FAIL + f))
    echo "  recipes at $name: $p passed, $f failed  (OPENSSL_armcap=$(echo "$LEVELS" | sed -n "s/^$name://p"), ${secs}s)"
    [ "$f" -eq 0 ] || grep -E '^(Failed|[0-9a-z_-]+\.+ *(Dubious|Failed))' "$ROW/test-$name.log" | head -5
done <"$ROW/recipes.txt"
stamp "recipes done"

# ---- differential program ------------------------------------------------------
DIFFSRC=$SRC/test/openssl/diff.c
for b in stock imported; do
    if ! "${PREFIX}gcc" -std=c99 -D_DEFAULT_SOURCE -O2 -Wall -Wextra $XFLAGS -I"$ROW/$b/include" "$DIFFSRC" \
         "$ROW/$b/libcrypto.a" -ldl -pthread $XLIBS -o "$ROW/diff-$b" 2>"$ROW/diff-$b.log"; then
        bad "build test/openssl/diff.c against $b: $(head -1 "$ROW/diff-$b.log")"
        finish
    fi
done
if ! "$QEMU" -cpu "$CPU" "$ROW/diff-stock" 12 >"$ROW/stock.out" 2>"$ROW/stock.err"; then
    bad "differential program on the stock build: $(cat "$ROW/stock.err")"
    finish
fi
echo "$LEVELS" | while IFS=: read -r name cap; do
    (setcap "$cap" && exec "$QEMU" -cpu "$CPU" "$ROW/diff-imported" 12 "$ROW/stock.out") >"$ROW/diff-$name.log" 2>&1
    line=$(tail -1 "$ROW/diff-$name.log")
    p=$(echo "$line" | sed -n 's/^total: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$line" | sed -n 's/^total: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    [ -n "$p" ] || { p=0; f=1; }
    echo "D $name $p $f"
done >"$ROW/diff.txt"
while read -r _ name p f; do
    PASS=$((PASS + p)) FAIL=$((FAIL + f))
    echo "  differential at $name: $p passed, $f failed  ($(grep -m1 '^OPENSSL_armcap_P' "$ROW/diff-$name.log"))"
    [ "$f" -eq 0 ] || grep '^FAIL' "$ROW/diff-$name.log" | head -5
done <"$ROW/diff.txt"
stamp "differential done"
finish
