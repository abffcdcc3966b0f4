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
# The steps both openssl-import scripts share are
# test/openssl/import-lib.sh's.
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

[ "${1:-}" = --fetch ] || [ $# -eq 1 ] || { echo "usage: $0 ROWDIR | --fetch DIR" >&2; exit 2; }
[ "${1:-}" != --fetch ] || [ $# -eq 2 ] || { echo "usage: $0 --fetch DIR" >&2; exit 2; }
if [ "$1" = --fetch ]; then ROW=$2; else ROW=$1; fi
mkdir -p "$ROW" && ROW=$(cd "$ROW" && pwd)
NAME=openssl-import CAPVAR=OPENSSL_ia32cap
. "$SRC/test/openssl/import-lib.sh"
if [ "$1" = --fetch ]; then
    import_fetch "$ROW"
    exit $?
fi

case $(uname -m) in
x86_64) ;;
*) echo "openssl-import: x86_64 host only"; SKIP=1; finish ;;
esac

import_source
echo "openssl-import: source $OSRC ($OVERSION), make -j$JOBS"

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
import_checks x86_64 --modules $MODULES

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
want="asmcrypt-x86_64-mont asmcrypt-x86_64-words x86_64-mont5"
gone="x86_64-mont x86_64-gcc"
case $MODULES in *poly1305*)
    want="$want asmcrypt-poly1305-x86_64"
    gone="$gone poly1305-x86_64" ;;
esac
import_members "$want" "$gone"

import_recipes make test TESTS="$TESTS" HARNESS_JOBS=1
import_diff cc ""
finish
