#!/bin/sh
# tools/neon-mont-mca.sh - llvm-mca cycles of the ARMv7 NEON Montgomery
# multiplication a*b, ours against OpenSSL's (issue 13: "<= OpenSSL's
# llvm-mca cycles per word on Cortex-A9, A57 and Swift"), on the cores
# llvm-mca-19 models for armv7: cortex-a9, cortex-a57, swift.
#
#   tools/neon-mont-mca.sh [--num N]      (N % 8 == 0, N >= 16; default 32)
#
# Needs Debian's armhf cross tools (gcc-arm-linux-gnueabihf), llvm-19
# (llvm-mca-19), libssl-dev:armhf (libcrypto.a) and, for the whole call,
# qemu-user.  Single-threaded, about a minute; works in a temporary folder
# and stores nothing: OpenSSL's code is disassembled from libcrypto.a at
# run time.  Prints:
#  1. the inner loops, cycles per iteration and per word-round (one word of
#     a times one b_i plus one word of n times one m_i): ours is the marked
#     region mont_inner_neon of crypto/bn/asm/armv4-mont.pl, preprocessed
#     with the armv7 row's flags (test/matrix.sh); OpenSSL's is the loop of
#     bn_mul8x_mont_neon with 128 vmlal.u32 (8 words x 8 rounds);
#  2. the per-round work outside the inner loop: the loop around it minus
#     it (ours: a pair of rounds, OpenSSL: a block of 8), less its own
#     word-rounds at the inner loop's rate, divided by its rounds;
#  3. one whole call at num = N: the loops from 1. and 2., and every
#     instruction bn_mul_mont executes, from a qemu-arm single-step trace,
#     as one llvm-mca pass from an empty pipeline.
# Loop regions: -iterations=100; branches are not modelled.  llvm-mca-19's
# Cortex-A9 model takes neither Thumb-2 IT nor ldm/stm/push/pop/vldm/vstm:
# for A9 those are rewritten (tools/neon-mont-regions.pl --a9), which makes
# A9's whole-call cells approximate; a cell is "fail" when llvm-mca fails.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
num=32
[ "${1:-}" = --num ] && { num=$2; shift 2; }
[ $# -eq 0 ] && [ $((num % 8)) -eq 0 ] && [ "$num" -ge 16 ] ||
    { echo "usage: $0 [--num N]   (N % 8 == 0, N >= 16)" >&2; exit 2; }

X=arm-linux-gnueabihf-
MCA=llvm-mca-19
LIB=/usr/lib/arm-linux-gnueabihf/libcrypto.a
CORES="cortex-a9 cortex-a57 swift"
regions="perl $here/neon-mont-regions.pl --cross $X"

need() {
    command -v "$1" >/dev/null 2>&1 ||
        { echo "neon-mont-mca.sh: $1 not found (apt-get install $2)" >&2; exit 2; }
}
need $MCA llvm-19
for t in gcc objdump readelf nm ar as objcopy; do need $X$t gcc-arm-linux-gnueabihf; done
[ -r $LIB ] || { echo "neon-mont-mca.sh: no $LIB (apt-get install libssl-dev:armhf)" >&2; exit 2; }
have_qemu=yes
command -v qemu-arm >/dev/null 2>&1 || have_qemu=no

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
cd "$tmp"

# Cycles per iteration of FILE (assembler text) on CORE: triple, core,
# iterations, file; empty when llvm-mca fails.
cycles() {
    ( $MCA -mtriple="$1-linux-gnueabihf" -mcpu="$2" -mattr=+neon -iterations="$3" "$4" |
        awk -v n="$3" '/^Total Cycles:/ { printf "%.2f", $3 / n }' ) 2>/dev/null || true
}
# The "@ insns=N vmlal=M" line the helper writes first: field insns or vmlal.
stat() { sed -n "1s/.*$1=\([0-9]*\).*/\1/p" "$2"; }
# Triple of a file the helper wrote.
triple() { grep -q '^	\.thumb' "$1" && echo thumbv7a || echo armv7a; }
# Arithmetic on the figures, 2 (or $2) decimals; "-" when a figure is missing.
calc() {
    case "$1" in *fail*) echo -; return;; esac
    awk "BEGIN { printf \"%.${2:-2}f\", $1 }" 2>/dev/null || echo -
}

# ---- OpenSSL: the object that defines bn_mul8x_mont_neon ----------------------
member=$(${X}nm -A $LIB 2>/dev/null | awk '$NF == "bn_mul8x_mont_neon" { split($1, p, ":"); print p[2]; exit }')
[ -n "$member" ] || { echo "neon-mont-mca.sh: no bn_mul8x_mont_neon in $LIB" >&2; exit 1; }
${X}ar x $LIB "$member"
ver=$(dpkg-query -W -f '${Version}' libssl-dev:armhf 2>/dev/null || echo '?')
# Check the disassembly-to-assembler conversion: the function reassembles
# to the same bytes.
$regions obj "$member" bn_mul8x_mont_neon full > ossl_full.s
set -- $(${X}readelf -sW "$member" | awk '$8 == "bn_mul8x_mont_neon" { print $2, $3 }')
${X}as -o rt.o ossl_full.s
${X}objcopy -O binary -j .text rt.o rt.bin
${X}objcopy -O binary -j .text "$member" obj.bin
off=$(( (0x$1 & ~1) ))
dd if=obj.bin of=fn.bin bs=1 skip=$off count=$2 2>/dev/null
cmp -s rt.bin fn.bin || { echo "neon-mont-mca.sh: bn_mul8x_mont_neon does not reassemble to its bytes" >&2; exit 1; }
fn_bytes=$2
$regions --vmlal 128 obj "$member" bn_mul8x_mont_neon inner > ossl_inner.s
$regions --vmlal 128 obj "$member" bn_mul8x_mont_neon outer > ossl_outer.s
$regions --vmlal 128 --a9 --it-slot obj "$member" bn_mul8x_mont_neon inner > ossl_inner_a9.s
$regions --vmlal 128 --a9 --it-slot obj "$member" bn_mul8x_mont_neon outer > ossl_outer_a9.s

# ---- ours, with the armv7 row's flags -------------------------------------------
flags=$(sed -n "/^ROWS='/,/^'/p" "$src/test/matrix.sh" | awk -F'|' '$1 ~ /^armv7 *$/ { print $4 }' | xargs)
[ -n "$flags" ] || { echo "neon-mont-mca.sh: no armv7 row in test/matrix.sh" >&2; exit 1; }
perl "$src/crypto/bn/asm/armv4-mont.pl" linux32 ours.S
${X}gcc -E -P -x assembler-with-cpp $flags -I"$src/include" ours.S > ours.s
$regions --vmlal 32 asm ours.s mont_inner_neon inner > ours_inner.s
$regions --vmlal 32 asm ours.s mont_inner_neon outer > ours_outer.s
for f in ours_inner ours_outer; do cp $f.s ${f}_a9.s; done    # ARM state, no ldm/stm

git_rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')
echo "# NEON Montgomery a*b, llvm-mca-19: asmcrypt ($git_rev, armv7 row: $flags) vs OpenSSL $ver"
echo
echo "Command: tools/neon-mont-mca.sh --num $num. OpenSSL: bn_mul8x_mont_neon of $member in $LIB"
echo "(Thumb-2; its disassembly reassembles to its $fn_bytes bytes); loops found by their back branches."
echo "Instructions per iteration: ours inner $(stat insns ours_inner.s) ($(stat vmlal ours_inner.s) vmlal.u32),"
echo "OpenSSL inner $(stat insns ossl_inner.s) ($(stat vmlal ossl_inner.s) vmlal.u32); outer parts: ours $(stat insns ours_outer.s), OpenSSL $(stat insns ossl_outer.s)."
echo "Word-rounds = vmlal.u32 / 2; rounds = word-rounds / 8 (both step over 8 words)."

wr_oi=$(( $(stat vmlal ours_inner.s) / 2 )); wr_si=$(( $(stat vmlal ossl_inner.s) / 2 ))
wr_oo=$(( $(stat vmlal ours_outer.s) / 2 )); wr_so=$(( $(stat vmlal ossl_outer.s) / 2 ))
r_o=$((wr_oi / 8)); r_s=$((wr_si / 8))
for c in $CORES; do
    s=; [ $c = cortex-a9 ] && s=_a9
    for f in ours_inner ossl_inner ours_outer ossl_outer; do
        eval "${f}_$(echo $c | tr - _)=\$(cycles $(triple $f$s.s) $c 100 $f$s.s)"
    done
done
val() { eval "echo \${$1_$(echo $2 | tr - _):-fail}"; }

echo
echo "## 1. Inner loops (cycles per iteration; per word-round)"
echo
echo "| core | ours /iter ($wr_oi wr) | OpenSSL /iter ($wr_si wr) | ours /word-round | OpenSSL /word-round | ours/OpenSSL |"
echo "|---|---:|---:|---:|---:|---:|"
for c in $CORES; do
    oi=$(val ours_inner $c); si=$(val ossl_inner $c)
    echo "| $c | $oi | $si | $(calc "$oi / $wr_oi") | $(calc "$si / $wr_si") | $(calc "($oi / $wr_oi) / ($si / $wr_si)" 3) |"
done
echo
echo "## 2. Per-round work outside the inner loop: (outer part - its word-rounds x inner per word-round) / rounds"
echo
echo "| core | ours outer part ($r_o rounds, $wr_oo wr) | OpenSSL outer part ($r_s rounds, $wr_so wr) | ours /round | OpenSSL /round |"
echo "|---|---:|---:|---:|---:|"
for c in $CORES; do
    oi=$(val ours_inner $c); si=$(val ossl_inner $c); oo=$(val ours_outer $c); so=$(val ossl_outer $c)
    echo "| $c | $oo | $so | $(calc "($oo - $wr_oo * $oi / $wr_oi) / $r_o" 1) | $(calc "($so - $wr_so * $si / $wr_si) / $r_s" 1) |"
done
echo
echo "## 3. One a*b call, num = $num"
echo
steps=$((num / 8))
echo "(a) Loops only: OpenSSL $((num / r_s)) x (outer part + $((steps - 1)) inner), ours $((num / r_o)) x (outer part + $((steps - 1)) inner); no set-up, fold or subtraction:"
for c in $CORES; do
    oi=$(val ours_inner $c); si=$(val ossl_inner $c); oo=$(val ours_outer $c); so=$(val ossl_outer $c)
    echo "- $c: ours $(calc "$((num / r_o)) * ($oo + $((steps - 1)) * $oi)" 0), OpenSSL $(calc "$((num / r_s)) * ($so + $((steps - 1)) * $si)" 0)"
done
echo
if [ $have_qemu = no ]; then
    echo "(b) skipped: qemu-arm not found (apt-get install qemu-user)"
    exit 0
fi
cat > drv.c <<EOF
/* One bn_mul_mont call at NUM words (a*b) with the NEON capability set,
   linked with OpenSSL's object (-DOSSL) or with ours; prints a checksum. */
#include <stdio.h>
#include <stdint.h>
#define NUM $num
typedef uint32_t W;
int bn_mul_mont(W *rp, const W *ap, const W *bp, const W *np, const W *n0, int num);
#ifdef OSSL
unsigned int OPENSSL_armcap_P = 1;          /* NEON */
#else
unsigned int asmcrypt_cpucap = 2;           /* ASMCRYPT_CAP_ARM_NEON */
#endif
int main(void)
{
    static W a[NUM], b[NUM], n[NUM], r[NUM + 2];
    W x = 12345, n0 = 1, s = 0;
    for (int i = 0; i < NUM; i++) {
        x = x * 1103515245u + 12345u; a[i] = x ^ (x >> 7);
        x = x * 1103515245u + 12345u; b[i] = x ^ (x >> 9);
        x = x * 1103515245u + 12345u; n[i] = x ^ (x >> 11);
    }
    n[0] |= 1; n[NUM - 1] |= 0x80000000u; a[NUM - 1] >>= 1; b[NUM - 1] >>= 1;
    for (int i = 0; i < 5; i++) n0 *= 2 - n[0] * n0;     /* n^-1 mod 2^32 */
    n0 = -n0;
    int rc = bn_mul_mont(r, a, b, n, &n0, NUM);
    for (int i = 0; i < NUM; i++) s = s * 31 + r[i];
    printf("rc=%d sum=%08x\n", rc, s);
    return 0;
}
EOF
${X}gcc -O1 -static $flags -DOSSL drv.c "$member" -o drv_ossl
${X}gcc -O1 -static $flags drv.c ours.s -o drv_ours
for w in ossl ours; do
    env -i qemu-arm -singlestep -d exec,nochain -D trace_$w.log ./drv_$w > out_$w.txt
    $regions trace drv_$w trace_$w.log bn_mul_mont main > call_$w.s 2> note_$w.txt
    $regions --a9 trace drv_$w trace_$w.log bn_mul_mont main > call_${w}_a9.s 2>/dev/null
done
sum=$(sed -n 's/.*sum=//p' out_ours.txt)       # (OpenSSL's NEON path returns no 1)
[ -n "$sum" ] && [ "$sum" = "$(sed -n 's/.*sum=//p' out_ossl.txt)" ] ||
    { echo "neon-mont-mca.sh: the two calls disagree: $(cat out_ossl.txt) vs $(cat out_ours.txt)" >&2; exit 1; }
[ "$(stat vmlal call_ossl.s)" -gt 0 ] && [ "$(stat vmlal call_ours.s)" -gt 0 ] ||
    { echo "neon-mont-mca.sh: a call did not take its NEON path" >&2; exit 1; }
echo "(b) Whole call from a qemu-arm single-step trace (same result, checksum $sum), branches dropped, -iterations=1."
echo "Instructions: ours $(stat insns call_ours.s), OpenSSL $(stat insns call_ossl.s). A9: approximate rewrite of IT and ldm/stm."
echo
echo "| core | ours | OpenSSL | ours/OpenSSL | ours /word-round | OpenSSL /word-round |"
echo "|---|---:|---:|---:|---:|---:|"
for c in $CORES; do
    s=; [ $c = cortex-a9 ] && s=_a9
    o=$(cycles $(triple call_ours$s.s) $c 1 call_ours$s.s); o=${o:-fail}    # -iterations=1:
    p=$(cycles $(triple call_ossl$s.s) $c 1 call_ossl$s.s); p=${p:-fail}    # whole numbers
    echo "| $c | ${o%%.*} | ${p%%.*} | $(calc "$o / $p") | $(calc "$o / ($num * $num)") | $(calc "$p / ($num * $num)") |"
done
