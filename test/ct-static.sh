#!/usr/bin/env bash
# test/ct-static.sh ROWDIR - the `ct-static` row of test/matrix.sh (script
# mode): the static constant-time check (tools/ct-static.pl) over every
# generated .S of every flavour, each preprocessed as the targets of the
# matrix compile it (ISA levels, Thumb-2, endianness, kernel mode, the
# OpenSSL configuration), then over planted leaks, which must be flagged.
#
# One test per (configuration, exported entry).  A configuration whose
# compiler is not installed is skipped (the row's packages are those of
# the matrix: the cross gcc's).  Planted leaks:
#   - tools/ct_leaks.c compiled with -O2 -S for x86_64, AArch64, ARM and
#     MIPS (a secret-dependent branch, a secret-indexed table load);
#   - patched copies of generated code: an AVX-512 vpgatherqq with a
#     secret vector index and a secret-dependent branch in
#     bn_gather52_x86_64 (AVX-512F), a secret-indexed load in the IFMA
#     bn_amm52_x86_64, a vpermq with a secret index in the AVX-512
#     Poly1305 body, a secret AVX2 lane as an index and a branch on a
#     secret scalar product (Poly1305, through its internal calls), a
#     secret cbz in the AArch64 Montgomery loop and NEON Poly1305, a
#     branch on a NEON product (ARMv7), a secret predicated store in ARM
#     words, a secret beqz in MIPS words and MIPS64 Poly1305, a load
#     at an idx-derived address in bn_gather5_armv4 and a branch on the
#     mask in bn_gather5_armv7_neon;
#   - an unknown instruction and bytes on an execution path, which must
#     be ERRORs;
# and two selects on secret flags (x86 cmov, ARM movcs), which must stay
# clean (the predication rule of docs/constant-time.md).
# Last line: "total: N passed, N failed, N skipped".
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:?usage: test/ct-static.sh ROWDIR}
mkdir -p "$B/s" "$B/leaks" "$B/inc32/asmcrypt" "$B/inc64/asmcrypt" "$B/log"
CHK="perl $SRC/tools/ct-static.pl"
PASS=0 FAIL=0 SKIP=0

count() {   # LOGFILE LABEL: add the checker's counts
    local last p f
    last=$(tail -n 1 "$1")
    p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    if [ -z "$p" ]; then p=0; f=1; fi
    PASS=$((PASS + p)); FAIL=$((FAIL + f))
    if [ "$f" -ne 0 ]; then grep -v '^ok ' "$1" | sed "s|^|  $2: |" | head -n 8; fi
    printf '%-44s %s\n' "$2" "$last"
}

# gen MODULE FLAVOUR [perl options]: generate once, print the .S path
gen() {
    local m=$1 fl=$2; shift 2
    local tag out pl
    tag=$(echo "$m-$fl$*" | tr -c 'A-Za-z0-9_.-' '_')
    out="$B/s/$tag.S"
    pl=$(ls "$SRC"/crypto/*/asm/"$m".pl)
    [ -s "$out" ] || perl "$pl" "$fl" "$@" "$out" >/dev/null
    echo "$out"
}

# check LABEL ARCH ABI CC "FLAGS" FLAVOUR "PERL-OPTS" MODULE...
check() {
    local label=$1 arch=$2 abi=$3 cc=$4 flags=$5 fl=$6 popts=$7; shift 7
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "$label: $cc not installed; skipped"; SKIP=$((SKIP + 1)); return
    fi
    local files=() m
    # shellcheck disable=SC2086
    for m in "$@"; do files+=("$(gen "$m" "$fl" $popts)"); done
    local log="$B/log/$(echo "$label" | tr -c 'A-Za-z0-9_.-' '_').log"
    $CHK --arch "$arch" --abi "$abi" --cpp "$cc -E $flags" "${files[@]}" >"$log" 2>&1
    count "$log" "$label"
}

X86="x86_64-mont x86_64-words poly1305-x86_64"
A64="armv8-mont armv8-words poly1305-armv8"
A32="armv4-mont armv4-words poly1305-armv4"
MIPS="mips-mont mips-words poly1305-mips"

# ---- x86_64: run-time dispatch, compile-time AVX-512/IFMA, kernel, win64, OpenSSL
check x86_64-elf             x86_64 sysv  cc "" elf "" $X86
check x86_64-elf-v4-ifma     x86_64 sysv  cc "-march=x86-64-v4 -mavx512ifma -madx -mbmi2" elf "" $X86
check x86_64-elf-v3          x86_64 sysv  cc "-march=x86-64-v3" elf "" $X86
check x86_64-kernel          x86_64 sysv  cc "-D__KERNEL__" elf "" $X86
check x86_64-mingw64         x86_64 win64 cc "" mingw64 "" $X86
# Mach-O: preprocessed by the Linux compiler with Apple's __APPLE__/__MACH__
check x86_64-macosx          x86_64 sysv  cc "-D__APPLE__ -D__MACH__" macosx "" $X86
check x86_64-openssl         x86_64 sysv  cc "-DASMCRYPT_OPENSSL" elf "-DASMCRYPT_OPENSSL" $X86

# ---- AArch64
check aarch64                aarch64 aapcs64 aarch64-linux-gnu-gcc "" linux64 "" $A64
check aarch64-ios64          aarch64 aapcs64 aarch64-linux-gnu-gcc "-D__APPLE__ -D__MACH__" ios64 "" $A64
check aarch64-be             aarch64 aapcs64 aarch64-linux-gnu-gcc "-mbig-endian" linux64 "" $A64
check aarch64-kernel         aarch64 aapcs64 aarch64-linux-gnu-gcc "-D__KERNEL__" linux64 "" $A64
# (armv8-words refuses OpenSSL mode: OpenSSL's bn_asm.c has those functions on aarch64)
check aarch64-openssl        aarch64 aapcs64 aarch64-linux-gnu-gcc "-DASMCRYPT_OPENSSL" linux64 "-DASMCRYPT_OPENSSL" armv8-mont poly1305-armv8

# ---- ARM32: every ISA level of the matrix, Thumb-2, big-endian, kernel
check armv4t                 arm aapcs arm-linux-gnueabi-gcc "-marm -march=armv4t" linux32 "" $A32
check armv5te                arm aapcs arm-linux-gnueabi-gcc "-marm -march=armv5te" linux32 "" $A32
check armv6                  arm aapcs arm-linux-gnueabi-gcc "-marm -march=armv6" linux32 "" $A32
check armv7-neon             arm aapcs arm-linux-gnueabihf-gcc "-marm -march=armv7-a -mfpu=neon" linux32 "" $A32
check thumb2-neon            arm aapcs arm-linux-gnueabihf-gcc "-mthumb -march=armv7-a -mfpu=neon" linux32 "" $A32
check armv7-ios32            arm aapcs arm-linux-gnueabihf-gcc "-marm -march=armv7-a -mfpu=neon -D__APPLE__ -D__MACH__" ios32 "" $A32
check armv7-eb               arm aapcs arm-linux-gnueabi-gcc "-marm -march=armv7-a -mbig-endian" linux32 "" $A32
check arm-kernel-v6          arm aapcs arm-linux-gnueabi-gcc "-marm -march=armv6 -D__KERNEL__ -D__LINUX_ARM_ARCH__=6" linux32 "" $A32
check arm-kernel-v7          arm aapcs arm-linux-gnueabi-gcc "-marm -march=armv7-a -mfpu=neon -D__KERNEL__ -D__LINUX_ARM_ARCH__=7" linux32 "" $A32
check thumb2-kernel-v7       arm aapcs arm-linux-gnueabi-gcc "-mthumb -march=armv7-a -mfpu=neon -D__KERNEL__ -D__LINUX_ARM_ARCH__=7" linux32 "" $A32
check arm-openssl            arm aapcs arm-linux-gnueabihf-gcc "-marm -march=armv7-a -mfpu=neon -DASMCRYPT_OPENSSL" linux32 "-DASMCRYPT_OPENSSL" $A32

# ---- MIPS: o32 (MIPS I, 32, 32r2, 32r6; both endians), n32, n64 (r2, r6), kernel
check mips1-o32              mips o32 mipsel-linux-gnu-gcc "-mabi=32 -march=mips1 -mfp32" o32 "" $MIPS
check mips32-o32-eb          mips o32 mips-linux-gnu-gcc "-mabi=32 -march=mips32" o32 "" $MIPS
check mips32r2-o32           mips o32 mipsel-linux-gnu-gcc "-mabi=32 -march=mips32r2" o32 "" $MIPS
check mips32r2-o32-eb        mips o32 mips-linux-gnu-gcc "-mabi=32 -march=mips32r2" o32 "" $MIPS
check mips32r6-o32           mips o32 mipsel-linux-gnu-gcc "-mabi=32 -march=mips32r6 -mnan=2008" o32 "" $MIPS
check mips64r2-n32           mips n32 mips64el-linux-gnuabi64-gcc "-mabi=n32 -march=mips64r2" n32 "" $MIPS
check mips64r2-n64           mips 64  mips64el-linux-gnuabi64-gcc "-mabi=64 -march=mips64r2" 64 "" $MIPS
check mips64r2-n64-eb        mips 64  mips64-linux-gnuabi64-gcc "-mabi=64 -march=mips64r2" 64 "" $MIPS
check mips64r6-n64           mips 64  mips64el-linux-gnuabi64-gcc "-mabi=64 -march=mips64r6 -mnan=2008" 64 "" $MIPS
check mips32r2-kernel        mips o32 mipsel-linux-gnu-gcc "-mabi=32 -march=mips32r2 -D__KERNEL__" o32 "" $MIPS
check mips64r2-kernel        mips 64  mips64el-linux-gnuabi64-gcc "-mabi=64 -march=mips64r2 -D__KERNEL__" 64 "" $MIPS
check mips-openssl-o32       mips o32 mipsel-linux-gnu-gcc "-mabi=32 -march=mips32r2 -DASMCRYPT_OPENSSL" o32 "-DASMCRYPT_OPENSSL" $MIPS

# ---- planted leaks: each must be reported (--expect-leak)
printf '#ifndef ASMCRYPT_CONF_H\n#define ASMCRYPT_CONF_H\n#define ASMCRYPT_TARGET "ct-static"\n#define ASMCRYPT_WORD_BITS %s\n#endif\n' 32 >"$B/inc32/asmcrypt/conf.h"
printf '#ifndef ASMCRYPT_CONF_H\n#define ASMCRYPT_CONF_H\n#define ASMCRYPT_TARGET "ct-static"\n#define ASMCRYPT_WORD_BITS %s\n#endif\n' 64 >"$B/inc64/asmcrypt/conf.h"

planted() {   # LABEL ARCH ABI FILE [checker options]
    local label=$1 arch=$2 abi=$3 file=$4; shift 4
    local log="$B/log/leak-$label.log"
    $CHK --arch "$arch" --abi "$abi" --expect-leak "$@" "$file" >"$log" 2>&1
    count "$log" "leak:$label"
}

leaks_c() {   # LABEL ARCH ABI CC BITS FLAGS
    local label=$1 arch=$2 abi=$3 cc=$4 bits=$5 flags=$6
    if ! command -v "$cc" >/dev/null 2>&1; then echo "leak:$label: $cc not installed; skipped"; SKIP=$((SKIP + 1)); return; fi
    # shellcheck disable=SC2086
    $cc -O2 -S $flags -I"$B/inc$bits" -I"$SRC/include" -I"$SRC/crypto" -I"$SRC/tools" \
        -o "$B/leaks/ct_leaks-$label.s" "$SRC/tools/ct_leaks.c" || { FAIL=$((FAIL + 1)); return; }
    planted "c-$label" "$arch" "$abi" "$B/leaks/ct_leaks-$label.s"
}
leaks_c x86_64  x86_64  sysv    cc                     64 ""
leaks_c aarch64 aarch64 aapcs64 aarch64-linux-gnu-gcc  64 ""
leaks_c armv7   arm     aapcs   arm-linux-gnueabi-gcc  32 "-marm -march=armv7-a"
leaks_c thumb2  arm     aapcs   arm-linux-gnueabi-gcc  32 "-mthumb -march=armv7-a"
leaks_c mips32  mips    o32     mipsel-linux-gnu-gcc   32 "-mabi=32 -march=mips32r2"
leaks_c mips64  mips    64      mips64el-linux-gnuabi64-gcc 64 "-mabi=64 -march=mips64r2"

# patch FILE.S OUT.S PERL-PROGRAM: a planted copy; the plant must change the file
patch_s() {
    perl -e "$3" "$1" >"$2"
    if cmp -s "$1" "$2"; then echo "patch for $2 did not apply"; FAIL=$((FAIL + 1)); return 1; fi
}
MONT=$(gen x86_64-mont elf)
POLY=$(gen poly1305-x86_64 elf)
# AVX-512 gather with a secret vector index (the table read of modexp)
patch_s "$MONT" "$B/leaks/gather52-vpgather.S" '
    while (<>) { s/^(\s*)vmovdqu64(\s+)\(%rax\),%zmm20$/$1vpgatherqq$2(%rsi,%zmm16,8),%zmm20\{%k1\}/; print }' &&
    planted avx512-vpgather-secret-index x86_64 sysv "$B/leaks/gather52-vpgather.S" --cpp "cc -E" --entry bn_gather52_x86_64
# a secret-dependent branch in the AVX-512 gather (skip the OR when the mask says "not this entry")
patch_s "$MONT" "$B/leaks/gather52-branch.S" '
    while (<>) { print; print "\tkortestb\t%k1,%k1\n\tjz\t.Lgather52_chunk\n" if /^\s*vpcmpeqq\s+%zmm16,%zmm17,%k1$/ }' &&
    planted avx512-gather-secret-branch x86_64 sysv "$B/leaks/gather52-branch.S" --cpp "cc -E" --entry bn_gather52_x86_64
# IFMA: a load indexed by a secret word of b in the AMM loop
patch_s "$MONT" "$B/leaks/amm52-index.S" '
    my $done; while (<>) { print; if (!$done && /^\s*vpbroadcastq\s+\(%r9\),%zmm31$/) { print "\tmovq\t(%rcx,%rdx,8),%r10\n"; $done = 1 } }' &&
    planted ifma-amm52-secret-load x86_64 sysv "$B/leaks/amm52-index.S" --cpp "cc -E" --entry bn_amm52_x86_64
# AVX-512 Poly1305: a variable permute indexed by a secret product
patch_s "$POLY" "$B/leaks/poly-vpermq.S" '
    my $in = 0; while (<>) { print; $in = 1 if /^poly1305_x86_64_v16:/;
      if ($in == 1 && /^\s*vpmuludq\s.*,(%zmm\d+)\s*$/) { print "\tvpermq\t%zmm0,$1,%zmm0\n"; $in = 2 } }' &&
    planted avx512-poly-vpermq-secret x86_64 sysv "$B/leaks/poly-vpermq.S" --cpp "cc -E" --entry poly1305_blocks_avx512
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
    A8=$(gen armv8-mont linux64)
    patch_s "$A8" "$B/leaks/armv8-cbz.S" '
        my $done; while (<>) { print; if (!$done && /^\s*umulh\s+(x\d+),/) { print "\tcbz\t$1, 1f\n1:\n"; $done = 1 } }' &&
    sed -i 's/cbz\t\(x[0-9]*\), 1f/cbz\t\1, .Lct_plant/; s/^1:$/.Lct_plant:/' "$B/leaks/armv8-cbz.S" &&
        planted aarch64-mont-secret-cbz aarch64 aapcs64 "$B/leaks/armv8-cbz.S" --cpp "aarch64-linux-gnu-gcc -E" --entry bn_mul_mont
fi
# the vector Poly1305 bodies, reached through internal calls: a secret
# AVX2 lane used as an index, a secret scalar product branched on
patch_s "$POLY" "$B/leaks/poly-avx2-index.S" '
    my $in = 0; while (<>) { print; $in = 1 if /^poly1305_x86_64_v4:/;
      if ($in == 1 && /^\s*vpmuludq\s.*,%ymm(\d+)\s*$/) { print "\tvmovq\t%xmm$1,%r11\n\tmovq\t(%rdi,%r11),%r11\n"; $in = 2 } }' &&
    planted avx2-poly-secret-index x86_64 sysv "$B/leaks/poly-avx2-index.S" --cpp "cc -E" --entry poly1305_blocks_avx2
patch_s "$POLY" "$B/leaks/poly-scalar-branch.S" '
    my $in = 0; while (<>) { print; $in = 1 if /^poly1305_x86_64_scalar:/;
      if ($in == 1 && /^\s*mulq\s/) { print "\ttestq\t%rax,%rax\n\tjz\t.Lct_plant\n.Lct_plant:\n"; $in = 2 } }' &&
    planted scalar-poly-secret-branch x86_64 sysv "$B/leaks/poly-scalar-branch.S" --cpp "cc -E" --entry poly1305_blocks
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
    P8=$(gen poly1305-armv8 linux64)
    patch_s "$P8" "$B/leaks/poly-armv8-neon.S" '
        my $in = 0; while (<>) { print; $in = 1 if /^poly1305_blocks_neon:/;
          if ($in == 1 && /^\s*umull2?\s+v(\d+)\.2d,/) { print "\tumov\tx9, v$1.d[0]\n\tcbz\tx9, .Lct_plant\n.Lct_plant:\n"; $in = 2 } }' &&
        planted aarch64-neon-poly-secret-cbz aarch64 aapcs64 "$B/leaks/poly-armv8-neon.S" --cpp "aarch64-linux-gnu-gcc -E" --entry poly1305_blocks_neon
fi
if command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1; then
    P4=$(gen poly1305-armv4 linux32)
    patch_s "$P4" "$B/leaks/poly-armv4-neon.S" '
        my $in = 0; while (<>) { print; $in = 1 if /^poly1305_blocks_neon:/;
          if ($in == 1 && /^\s*vmull\.u32\s+q(\d+),/) { my $d = 2 * $1; print "\tvmov.32\tr12, d$d\[0\]\n\tteq\tr12, #0\n\tbne\t.Lct_plant\n.Lct_plant:\n"; $in = 2 } }' &&
        planted armv7-neon-poly-secret-branch arm aapcs "$B/leaks/poly-armv4-neon.S" --cpp "arm-linux-gnueabihf-gcc -E -march=armv7-a -mfpu=neon" --entry poly1305_blocks_neon
fi
if command -v mips64el-linux-gnuabi64-gcc >/dev/null 2>&1; then
    PM=$(gen poly1305-mips 64)
    patch_s "$PM" "$B/leaks/poly-mips64.S" '
        my $in = 0; while (<>) { print; $in = 1 if /^poly1305_blocks:/;
          if ($in == 1 && /^\s*d?multu\s/) { print "\tmflo\t\$1\n\tbeqz\t\$1,.Lct_plant\n\tnop\n.Lct_plant:\n"; $in = 2 } }' &&
        planted mips64-poly-secret-beqz mips 64 "$B/leaks/poly-mips64.S" --cpp "mips64el-linux-gnuabi64-gcc -E -mabi=64" --entry poly1305_blocks
fi
if command -v arm-linux-gnueabi-gcc >/dev/null 2>&1; then
    A4=$(gen armv4-words linux32)
    # a store predicated on the carry of a secret addition
    patch_s "$A4" "$B/leaks/armv4-strcs.S" '
        my $done; while (<>) { print; if (!$done && /^\s*adcs\s+(r\d+),/) { print "\tstrcs\t$1, [r0]\n"; $done = 1 } }' &&
        planted arm-secret-predicated-store arm aapcs "$B/leaks/armv4-strcs.S" --cpp "arm-linux-gnueabi-gcc -E -march=armv5te" --entry bn_add_words
    # the integer modexp gather loading at an address from its idx countdown
    M4=$(gen armv4-mont linux32)
    patch_s "$M4" "$B/leaks/gather-armv4-index.S" '
        my $done; while (<>) { print; if (!$done && /^\s*subs\s+lr, lr, #1/) { print "\tldr\tr9, [r1, lr, lsl #2]\n"; $done = 1 } }' &&
        planted arm-gather-secret-index arm aapcs "$B/leaks/gather-armv4-index.S" --cpp "arm-linux-gnueabi-gcc -E -march=armv5te" --entry bn_gather5_armv4
fi
if command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1; then
    # the NEON modexp gather skipping the merge when the mask says "not this entry"
    M7=$(gen armv4-mont linux32)
    patch_s "$M7" "$B/leaks/gather-neon-branch.S" '
        my $done; while (<>) { print; if (!$done && /^\s*vceq\.i32\s+q12,/) { print "\tvmov.32\tr12, d24[0]\n\tteq\tr12, #0\n\tbeq\t.Lct_plant\n.Lct_plant:\n"; $done = 1 } }' &&
        planted armv7-neon-gather-secret-branch arm aapcs "$B/leaks/gather-neon-branch.S" --cpp "arm-linux-gnueabihf-gcc -E -march=armv7-a -mfpu=neon" --entry bn_gather5_armv7_neon
fi
if command -v mipsel-linux-gnu-gcc >/dev/null 2>&1; then
    MW=$(gen mips-words o32)
    patch_s "$MW" "$B/leaks/mips-beqz.S" '
        my $in = 0; while (<>) { print; $in = 1 if /^\.Lbn_add_words_loop4:/;
          if ($in == 1 && /^\s*lw\s+(\$\w+),/) { print "\tbeqz\t$1,.Lct_plant\n\tnop\n.Lct_plant:\n"; $in = 2 } }' &&
        planted mips-secret-beqz mips o32 "$B/leaks/mips-beqz.S" --cpp "mipsel-linux-gnu-gcc -E -mabi=32" --entry bn_add_words
fi

# selects on secret flags are data, not leaks (the documented rule): these
# patched copies must stay clean
clean() {   # LABEL ARCH ABI FILE [checker options]
    local label=$1 arch=$2 abi=$3 file=$4; shift 4
    local log="$B/log/clean-$label.log"
    $CHK --arch "$arch" --abi "$abi" "$@" "$file" >"$log" 2>&1
    count "$log" "clean:$label"
}
patch_s "$MONT" "$B/leaks/gather52-cmov.S" '
    my $done; while (<>) { print; if (!$done && /^\s*vpcmpeqq\s+%zmm16,%zmm17,%k1$/) {
      print "\tkortestb\t%k1,%k1\n\tcmovzq\t%rsi,%r9\n"; $done = 1 } }' &&
    clean x86_64-cmov-on-secret-flags x86_64 sysv "$B/leaks/gather52-cmov.S" --cpp "cc -E" --entry bn_gather52_x86_64
if command -v arm-linux-gnueabi-gcc >/dev/null 2>&1; then
    patch_s "$A4" "$B/leaks/armv4-movcs.S" '
        my $done; while (<>) { print; if (!$done && /^\s*adcs\s+(r\d+),/) { print "\tmovcs\t$1, #0\n"; $done = 1 } }' &&
        clean arm-predicated-alu-on-secret-flags arm aapcs "$B/leaks/armv4-movcs.S" --cpp "arm-linux-gnueabi-gcc -E -march=armv5te" --entry bn_add_words
fi

# an instruction the model does not know is an error, never clean
printf '\t.text\n\t.globl\tbn_add_words\n\t.type\tbn_add_words,@function\nbn_add_words:\n\tvfrobnicateq\t%%zmm0,%%zmm1\n\tret\n' >"$B/leaks/unknown.S"
$CHK --arch x86_64 "$B/leaks/unknown.S" >"$B/log/unknown.log" 2>&1
if grep -q '^ERROR.*unknown instruction' "$B/log/unknown.log"; then PASS=$((PASS + 1)); echo "unknown-instruction: ERROR as required"
else FAIL=$((FAIL + 1)); echo "unknown-instruction: NOT reported"; cat "$B/log/unknown.log"; fi

# ... and so is an instruction spelled as data on an execution path
printf '\t.text\n\t.globl\tbn_add_words\n\t.type\tbn_add_words,@function\nbn_add_words:\n\t.byte\t0x0f,0x0b\n\tret\n' >"$B/leaks/encoded.S"
$CHK --arch x86_64 "$B/leaks/encoded.S" >"$B/log/encoded.log" 2>&1
if grep -q '^ERROR.*data directive' "$B/log/encoded.log"; then PASS=$((PASS + 1)); echo "encoded-instruction: ERROR as required"
else FAIL=$((FAIL + 1)); echo "encoded-instruction: NOT reported"; cat "$B/log/encoded.log"; fi

echo "total: $PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" -eq 0 ]
