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
#   OPENSSL_SRC          an unpacked OpenSSL 3 source tree (default:
#                        Debian's, fetched under ROWDIR/src as
#                        test/openssl-import.sh --fetch does; CI's .ci/run
#                        exports it)
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
# differential cases at each level + the import checks).  The steps both
# openssl-import scripts share are test/openssl/import-lib.sh's.
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
NAME=openssl-import-$ARCH CAPVAR=OPENSSL_armcap
. "$SRC/test/openssl/import-lib.sh"

for t in "${PREFIX}gcc" "$QEMU"; do
    command -v "$t" >/dev/null 2>&1 || { bad "$t not installed (test/matrix.sh --install)"; finish; }
done
[ -d "$SYSROOT/lib" ] || { bad "no cross libc in $SYSROOT"; finish; }

import_source
echo "openssl-import-$ARCH: source $OSRC ($OVERSION), $TARGET $XFLAGS, $QEMU -cpu $CPU, make -j$JOBS"

# ---- import ------------------------------------------------------------------
rm -rf "$ROW/stock" "$ROW/imported"
cp -a "$OSRC" "$ROW/stock"
cp -a "$OSRC" "$ROW/imported"
import_checks "$ARCH"

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

import_members "$WANT $KEEP" "$GONE"

QEMU_LD_PREFIX=$SYSROOT
# and the guest's ld.so takes the cross libc, not a multiarch copy of the
# host's /etc/ld.so.cache (why: Configure's default_emulator)
QEMU_SET_ENV=LD_LIBRARY_PATH=$SYSROOT/lib
export QEMU_LD_PREFIX QEMU_SET_ENV

import_recipes make run_tests TESTS="$TESTS" HARNESS_JOBS="$JOBS" \
    EXE_SHELL="$ROW/imported/util/wrap.pl $QEMU -cpu $CPU"
import_diff "${PREFIX}gcc $XFLAGS" "$XLIBS" "$QEMU" -cpu "$CPU"
finish
