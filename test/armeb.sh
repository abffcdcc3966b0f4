#!/usr/bin/env bash
# test/armeb.sh ROWDIR - the big-endian ARM row (issue 14): the 32-bit ARM
# modules (armv4-mont, armv4-words, poly1305-armv4, flavour linux32)
# assembled with -mbig-endian, linked BE8 with the C references into a
# freestanding static program (test/armeb/: its own _start, write/exit
# system calls and string functions; Debian has no big-endian ARM libc)
# and run under qemu-armeb at every capability level of each build:
#   armv7   -marm -march=armv7-a -mfpu=neon   cortex-a8   (NEON, UMAAL)
#   thumb2  -mthumb -march=armv7-a -mfpu=neon cortex-a15  (NEON, UMAAL)
#   armv6   -marm -march=armv6                arm1136     (UMAAL)
# Checks: the Poly1305, Montgomery and 32-bit word vectors of test/vectors
# and random operands against the C references (test/armeb/main.c).
# Packages: gcc-arm-linux-gnueabi, qemu-user (qemu-armeb).
# Last line: total: N passed, N failed, N skipped.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:?usage: test/armeb.sh ROWDIR}
CROSS=arm-linux-gnueabi-
QEMU=qemu-armeb
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

passed=0; failed=0; skipped=0
fail() { echo "$1"; failed=$((failed + 1)); }

for tool in "${CROSS}gcc" "$QEMU" perl; do
    command -v "$tool" >/dev/null 2>&1 || fail "missing $tool (apt-get install gcc-arm-linux-gnueabi qemu-user)"
done
if [ "$failed" -ne 0 ]; then
    echo "total: $passed passed, $failed failed, $skipped skipped"
    exit 1
fi

# generated once: the vector tables and the configuration header
mkdir -p "$DIR/include/asmcrypt"
perl "$SRC/test/armeb/vectors.pl" "$SRC/test/vectors" "$DIR/include/vectors.h" ||
    fail "vectors.pl failed"
cat >"$DIR/include/asmcrypt/conf.h" <<'H'
/* Written by test/armeb.sh: 32-bit ARM, big-endian, every module in asm. */
#ifndef ASMCRYPT_CONF_H
#define ASMCRYPT_CONF_H
#define ASMCRYPT_TARGET "linux-armv4-be"
#define ASMCRYPT_WORD_BITS 32
#define ASMCRYPT_BN_MONT_ASM 1
#define ASMCRYPT_BN_WORDS_ASM 1
#define ASMCRYPT_POLY1305_ASM 1
#endif
H


# build NAME CPU FLAGS...: assemble, compile, link and run one build
build() {
    local name=$1 cpu=$2; shift 2
    local b="$DIR/$name" log="$DIR/$name.log" o
    local cc=("${CROSS}gcc" -mbig-endian "$@" -O2 -std=c99 -Wall -Wextra -ffreestanding
              -fno-builtin -fno-stack-protector -fno-pic -I"$DIR/include" -I"$SRC/include"
              -I"$SRC/crypto" -I"$SRC/test/armeb")
    rm -rf "$b"; mkdir -p "$b"
    (   # a subshell: set -e ends the build step only
        set -e
        for m in crypto/bn/asm/armv4-mont.pl crypto/bn/asm/armv4-words.pl \
                 crypto/poly1305/asm/poly1305-armv4.pl; do
            o=$(basename "$m" .pl)
            perl "$SRC/$m" linux32 "$b/$o.S"
            "${cc[@]}" -c "$b/$o.S" -o "$b/$o.o"
        done
        for c in crypto/bn/bn_mont.c crypto/bn/bn_words.c crypto/poly1305/poly1305_ref26.c \
                 test/armeb/main.c; do
            "${cc[@]}" -c "$SRC/$c" -o "$b/$(basename "$c" .c).o"
        done
        # rt.c's _start is ARM code
        "${cc[@]}" -marm -c "$SRC/test/armeb/rt.c" -o "$b/rt.o"
        "${CROSS}gcc" -mbig-endian -nostdlib -static -Wl,--be8 -o "$b/armeb-test" "$b"/*.o
    ) >"$log" 2>&1
    if [ $? -ne 0 ] || [ ! -x "$b/armeb-test" ]; then
        fail "  $name: BUILD FAILED (see $log)"
        return
    fi
    "$QEMU" -cpu "$cpu" "$b/armeb-test" >"$b/run.log" 2>&1
    local rc=$? line p f s
    cat "$b/run.log" >>"$log"
    line=$(grep -E '^total: [0-9]+ passed, [0-9]+ failed' "$b/run.log" | tail -n 1)
    if [ -z "$line" ]; then
        fail "  $name: no result line (exit $rc), see $log"
        return
    fi
    p=$(echo "$line" | sed -E 's/^total: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
    grep -E '^(FAIL|caps )' "$b/run.log" | sed "s/^/  $name: /" | head -n 20
    echo "  $name: $p passed, $f failed, ${s:-0} skipped"
}

build armv7  cortex-a8  -marm -march=armv7-a -mfpu=neon -mfloat-abi=softfp
build thumb2 cortex-a15 -mthumb -march=armv7-a -mfpu=neon -mfloat-abi=softfp
build armv6  arm1136    -marm -march=armv6

echo "total: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
