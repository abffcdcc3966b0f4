#!/bin/sh
# tools/import-openssl.sh - swap asmcrypt's modules into an OpenSSL 3 source
# tree by editing build.info lines only.
#
#   tools/import-openssl.sh [--modules LIST] OPENSSL_SRC ARCH
#   tools/import-openssl.sh --revert OPENSSL_SRC
#
#   ARCH     x86_64 | armv4 | aarch64 | mips32 | mips64 (OpenSSL's asm_arch
#            names: the target's build then uses the modules below)
#   LIST     comma-separated subset of "bn,poly1305" (default: both)
#
# What it does (run it before ./Configure; running it again re-applies it
# from the saved originals, so it is idempotent):
#   - copies our .pl files and translators into OPENSSL_SRC/asmcrypt/, in
#     our own layout (crypto/<area>/asm/X.pl, perlasm/), so each script
#     finds our translator at ../../../perlasm/ and never OpenSSL's
#     crypto/perlasm/;
#   - saves each build.info it edits as build.info.asmcrypt-orig, and edits
#     it: the module list names asmcrypt-X.S instead of OpenSSL's file, a
#     GENERATE line builds it from our .pl (a capital .S: OpenSSL runs it
#     through the C compiler, which preprocesses it), and ASMCRYPT_OPENSSL
#     joins the DEFINEs of that area (OpenSSL passes them to the perl
#     script and to the compiler; the modules then read OpenSSL's
#     capability word with OpenSSL's bit numbers and use OpenSSL's entry
#     points).  No OpenSSL C file or header changes: POLY1305 keeps its
#     192-byte opaque state.
#
# Replaced / kept per ARCH (docs/import-openssl.md has the reasons):
#   x86_64   bn: crypto/bn/asm/x86_64-mont.pl  -> x86_64-mont.pl
#                crypto/bn/asm/x86_64-gcc.c    -> x86_64-words.pl
#                kept: x86_64-mont5, x86_64-gf2m, rsaz-*, bn_asm.c unused
#            poly1305: poly1305-x86_64.pl      -> poly1305-x86_64.pl
#   armv4    bn: armv4-mont.pl -> armv4-mont.pl (bn_asm.c, armv4-gf2m kept)
#            poly1305: poly1305-armv4.pl -> poly1305-armv4.pl
#   aarch64  bn: armv8-mont.pl -> armv8-mont.pl (bn_asm.c kept)
#            poly1305: poly1305-armv8.pl -> poly1305-armv8.pl
#   mips32/mips64  bn: mips-mont.pl -> mips-mont.pl
#                asm/mips.pl (bn-mips.S) -> mips-words.pl (the ten word
#                functions OpenSSL links from it, in OpenSSL mode)
#            poly1305 (mips64 only, as in OpenSSL): poly1305-mips.pl
# Exit status 0 on success; any mismatch with the expected build.info
# lines stops it with a message naming the file and the line it wanted.
set -eu

usage() {
    echo "usage: $0 [--modules bn,poly1305] OPENSSL_SRC x86_64|armv4|aarch64|mips32|mips64" >&2
    echo "       $0 --revert OPENSSL_SRC" >&2
    exit 2
}
die() { echo "import-openssl: $*" >&2; exit 1; }

SELF=$(cd "$(dirname "$0")/.." && pwd)
MODULES=bn,poly1305
REVERT=0
while [ $# -gt 0 ]; do
    case $1 in
    --modules) [ $# -ge 2 ] || usage; MODULES=$2; shift 2 ;;
    --modules=*) MODULES=${1#--modules=}; shift ;;
    --revert) REVERT=1; shift ;;
    -h|--help) usage ;;
    -*) usage ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || usage
OSSL=$1
[ -f "$OSSL/Configure" ] && [ -f "$OSSL/crypto/bn/build.info" ] \
    || die "$OSSL is not an OpenSSL source tree (no Configure, crypto/bn/build.info)"
[ -f "$OSSL/VERSION.dat" ] && grep -q '^MAJOR=3' "$OSSL/VERSION.dat" \
    || die "$OSSL: only OpenSSL 3.x is supported (VERSION.dat MAJOR=3)"

BUILDINFOS="crypto/bn/build.info crypto/poly1305/build.info"

# Put every build.info back as it was before the first import.
restore() {
    for b in $BUILDINFOS; do
        if [ -f "$OSSL/$b.asmcrypt-orig" ]; then
            cp "$OSSL/$b.asmcrypt-orig" "$OSSL/$b"
        fi
    done
}

if [ $REVERT = 1 ]; then
    restore
    for b in $BUILDINFOS; do rm -f "$OSSL/$b.asmcrypt-orig"; done
    rm -rf "$OSSL/asmcrypt"
    echo "import-openssl: reverted $OSSL (run ./Configure again)"
    exit 0
fi

[ $# -eq 2 ] || usage
ARCH=$2
want_bn=0; want_poly=0
for m in $(echo "$MODULES" | tr ',' ' '); do
    case $m in
    bn) want_bn=1 ;;
    poly1305) want_poly=1 ;;
    *) die "unknown module '$m' (bn, poly1305)" ;;
    esac
done

# Per ARCH: our scripts (relative to this tree), the translator, and the
# build.info edits as "file|old-word|new-word" triples plus GENERATE lines.
case $ARCH in
x86_64)
    FLAVOUR=elf
    XLATE=perlasm/x86_64-xlate.pl
    BN_PL="crypto/bn/asm/x86_64-mont.pl crypto/bn/asm/x86_64-words.pl"
    POLY_PL=crypto/poly1305/asm/poly1305-x86_64.pl ;;
armv4)
    FLAVOUR=linux32
    XLATE=perlasm/arm-xlate.pl
    BN_PL=crypto/bn/asm/armv4-mont.pl
    POLY_PL=crypto/poly1305/asm/poly1305-armv4.pl ;;
aarch64)
    FLAVOUR=linux64
    XLATE=perlasm/arm-xlate.pl
    BN_PL=crypto/bn/asm/armv8-mont.pl
    POLY_PL=crypto/poly1305/asm/poly1305-armv8.pl ;;
mips32)
    FLAVOUR=o32
    XLATE=
    BN_PL="crypto/bn/asm/mips-mont.pl crypto/bn/asm/mips-words.pl"
    POLY_PL= ;;     # OpenSSL has no Poly1305 asm for mips32
mips64)
    FLAVOUR=64
    XLATE=
    BN_PL="crypto/bn/asm/mips-mont.pl crypto/bn/asm/mips-words.pl"
    POLY_PL=crypto/poly1305/asm/poly1305-mips.pl ;;
*) usage ;;
esac
[ -n "$POLY_PL" ] || want_poly=0

# A module is imported only when it has the OpenSSL mode: it must know
# ASMCRYPT_OPENSSL (and on x86_64 Poly1305 provide xor128_*_n_pad).
# It must also take OpenSSL's perlasm command line: OpenSSL runs
# `perl X.pl FLAVOUR -I... CFLAGS -D... OUT.S` (flavour first, output last).
check_ready() {
    f=$SELF/$1
    [ -f "$f" ] || die "$f: missing"
    grep -q ASMCRYPT_OPENSSL "$f" \
        || die "$1 has no OpenSSL mode (ASMCRYPT_OPENSSL) yet; import the rest alone: --modules $OTHER"
    t=$(mktemp -d)
    (cd "$t" && perl "$f" "$FLAVOUR" -I. -Iinclude -Wall -O3 -DASMCRYPT_OPENSSL -DL_ENDIAN "$t/out.S") \
        >"$t/log" 2>&1 || true
    if ! [ -s "$t/out.S" ]; then
        rm -rf "$t"
        die "$1 does not take OpenSSL's perlasm command line (perl X.pl $FLAVOUR -I... -D... OUT.S wrote no OUT.S); import the rest alone: --modules $OTHER"
    fi
    rm -rf "$t"
}
OTHER=poly1305
[ $want_bn = 1 ] && for p in $BN_PL; do check_ready "$p"; done
OTHER=bn
if [ $want_poly = 1 ]; then
    check_ready "$POLY_PL"
    if [ "$ARCH" = x86_64 ]; then
        grep -q xor128_encrypt_n_pad "$SELF/$POLY_PL" \
            || die "$POLY_PL lacks xor128_encrypt_n_pad/xor128_decrypt_n_pad, which OpenSSL's ChaCha20-Poly1305 links against; import without it: --modules bn"
    fi
fi

# Save originals once, then always start from them.
for b in $BUILDINFOS; do
    [ -f "$OSSL/$b.asmcrypt-orig" ] || cp "$OSSL/$b" "$OSSL/$b.asmcrypt-orig"
done
restore

# Our files, in our layout, under OPENSSL_SRC/asmcrypt.
rm -rf "$OSSL/asmcrypt"
copy() {
    mkdir -p "$OSSL/asmcrypt/$(dirname "$1")"
    cp "$SELF/$1" "$OSSL/asmcrypt/$1"
}
[ -n "$XLATE" ] && copy "$XLATE"
[ $want_bn = 1 ] && for p in $BN_PL; do copy "$p"; done
[ $want_poly = 1 ] && copy "$POLY_PL"
cat >"$OSSL/asmcrypt/README" <<EOF
asmcrypt modules imported by tools/import-openssl.sh ($ARCH: $MODULES).
Generated from asmcrypt $(cd "$SELF" && git rev-parse --short HEAD 2>/dev/null || echo "(no git)").
Undo with: tools/import-openssl.sh --revert OPENSSL_SRC
EOF

# edit FILE OLD NEW: replace the whole word OLD by NEW on the one line of
# FILE (relative to OPENSSL_SRC) that matches the Perl regex CONTEXT.
edit() {
    perl -e '
        my ($file, $ctx, $old, $new) = @ARGV;
        open(my $in, "<", $file) or die "import-openssl: $file: $!\n";
        my @l = <$in>; close $in;
        my $n = 0;
        for (@l) {
            next unless /$ctx/;
            $n++ if s/(?<![\w.\/-])\Q$old\E(?![\w.-])/$new/;
        }
        die "import-openssl: $file: expected one line matching /$ctx/ with \"$old\", found $n (unsupported OpenSSL version?)\n"
            unless $n == 1;
        open(my $out, ">", $file) or die "import-openssl: $file: $!\n";
        print $out @l; close $out or die;
    ' "$OSSL/$1" "$2" "$3" "$4"
}
# append FILE TEXT: add lines at the end of FILE
append() {
    printf '%s\n' "$2" >>"$OSSL/$1"
}
BANNER="# asmcrypt import (tools/import-openssl.sh $ARCH); originals in build.info.asmcrypt-orig"

# gen AREA OUT.S PL: GENERATE + DEPEND lines for one module
gen() {
    g="GENERATE[$2]=../../asmcrypt/$3"
    [ -n "$XLATE" ] && g="$g
DEPEND[$2]=../../asmcrypt/$XLATE"
    append "crypto/$1/build.info" "$g"
    # the arm translators include arm_arch.h-like headers from ..: none of
    # ours do, but OpenSSL's INCLUDE for the object is harmless
}

if [ $want_bn = 1 ]; then
    BI=crypto/bn/build.info
    append $BI "$BANNER"
    case $ARCH in
    x86_64)
        edit $BI '^\s*\$BNASM_x86_64=asm/x86_64-gcc\.c \$BNASM_x86_64' \
            asm/x86_64-gcc.c asmcrypt-x86_64-words.S
        edit $BI '^\s*x86_64-mont\.s x86_64-mont5\.s' \
            x86_64-mont.s asmcrypt-x86_64-mont.S
        edit $BI '^\s*\$BNDEF_x86_64=' OPENSSL_BN_ASM_MONT \
            'OPENSSL_BN_ASM_MONT ASMCRYPT_OPENSSL'
        gen bn asmcrypt-x86_64-mont.S crypto/bn/asm/x86_64-mont.pl
        gen bn asmcrypt-x86_64-words.S crypto/bn/asm/x86_64-words.pl ;;
    armv4)
        edit $BI '^\s*\$BNASM_armv4=' armv4-mont.S asmcrypt-armv4-mont.S
        edit $BI '^\s*\$BNDEF_armv4=' OPENSSL_BN_ASM_MONT \
            'OPENSSL_BN_ASM_MONT ASMCRYPT_OPENSSL'
        gen bn asmcrypt-armv4-mont.S crypto/bn/asm/armv4-mont.pl ;;
    aarch64)
        edit $BI '^\s*\$BNASM_aarch64=' armv8-mont.S asmcrypt-armv8-mont.S
        edit $BI '^\s*\$BNDEF_aarch64=' OPENSSL_BN_ASM_MONT \
            'OPENSSL_BN_ASM_MONT ASMCRYPT_OPENSSL'
        gen bn asmcrypt-armv8-mont.S crypto/bn/asm/armv8-mont.pl ;;
    mips32|mips64)
        edit $BI '^\s*\$BNASM_mips32=' mips-mont.S asmcrypt-mips-mont.S
        edit $BI '^\s*\$BNASM_mips32=' bn-mips.S asmcrypt-mips-words.S
        edit $BI '^\s*\$BNDEF_mips32=' OPENSSL_BN_ASM_MONT \
            'OPENSSL_BN_ASM_MONT ASMCRYPT_OPENSSL'
        gen bn asmcrypt-mips-mont.S crypto/bn/asm/mips-mont.pl
        gen bn asmcrypt-mips-words.S crypto/bn/asm/mips-words.pl ;;
    esac
fi

if [ $want_poly = 1 ]; then
    BI=crypto/poly1305/build.info
    append $BI "$BANNER"
    case $ARCH in
    x86_64)  pold=poly1305-x86_64.s; pnew=asmcrypt-poly1305-x86_64.S ;;
    armv4)   pold=poly1305-armv4.S;  pnew=asmcrypt-poly1305-armv4.S ;;
    aarch64) pold=poly1305-armv8.S;  pnew=asmcrypt-poly1305-armv8.S ;;
    mips64)  pold=poly1305-mips.S;   pnew=asmcrypt-poly1305-mips.S ;;
    esac
    edit $BI "^\\s*\\\$POLY1305ASM_$ARCH=" $pold $pnew
    edit $BI '^\s*\$POLY1305DEF=' POLY1305_ASM 'POLY1305_ASM ASMCRYPT_OPENSSL'
    gen poly1305 $pnew $POLY_PL
fi

done_m=
[ $want_bn = 1 ] && done_m=bn
[ $want_poly = 1 ] && done_m=${done_m:+$done_m,}poly1305
echo "import-openssl: $OSSL: $ARCH modules ($done_m) now come from asmcrypt; run ./Configure"
