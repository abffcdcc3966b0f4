#!/bin/sh
# test/choice-check.sh - Configure --cpu=NAME applies docs/perf/choice.md:
#   1. Configure's choice table is the one tools/choice.pl derives from
#      the choice block of docs/perf/choice.md;
#   2. for every row of that block, a build configured with --cpu=CORE
#      names the core in conf.h, builds exactly the modules the row does
#      not send to C, and carries the capability mask the row clears
#      (none when it clears nothing);
#   3. a default build and --cpu=generic carry no choice at all;
#   4. -mcpu= / -mtune= / -march= naming a core are taken from the flags;
#   5. an unknown core, or one of another arch, is refused and nothing is
#      written.
# Rows whose cross compiler is missing are skipped (counted).
#   test/choice-check.sh [WORKDIR]     (the matrix row choice-check)
# WORKDIR holds the scratch builds (default: a temporary folder, removed).
# Prints one line per failure, then "total: N passed, M failed, K skipped";
# exit 1 on failure.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ge 1 ]; then
    TMP=$1; rm -rf "$TMP"; mkdir -p "$TMP"
else
    TMP=$(mktemp -d /tmp/choice-check.XXXXXX)
    trap 'rm -rf "$TMP"' EXIT
fi
pass=0 fail=0 skip=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# 1. the table
if perl "$SRC/tools/choice.pl" --check >/dev/null 2>"$TMP/check.err"; then ok
else bad "Configure's table differs from docs/perf/choice.md: $(cat "$TMP/check.err")"; fi

# Configure arguments of a build for an arch, and the compiler it needs
args_for() {
    case $1 in
    arm)     echo "linux-armv4 --cross-compile-prefix=arm-linux-gnueabihf- -marm -march=armv7-a -mfpu=neon" ;;
    aarch64) echo "linux-aarch64 --cross-compile-prefix=aarch64-linux-gnu-" ;;
    mips)    echo "linux-mips32 --cross-compile-prefix=mipsel-linux-gnu- -march=mips32r2" ;;
    esac
}
cc_for() {
    case $1 in
    arm) echo arm-linux-gnueabihf-gcc ;; aarch64) echo aarch64-linux-gnu-gcc ;; mips) echo mipsel-linux-gnu-gcc ;;
    esac
}
bit() {     # include/asmcrypt/cpu.h
    case $1:$2 in
    arm:UMAAL) echo 1 ;; arm:NEON) echo 2 ;; aarch64:NEON) echo 1 ;; mips:R2) echo 1 ;;
    *) echo 0 ;;
    esac
}
define_of() {
    case $1 in
    mont) echo ASMCRYPT_BN_MONT_ASM ;; words) echo ASMCRYPT_BN_WORDS_ASM ;;
    poly1305) echo ASMCRYPT_POLY1305_ASM ;; modexp) echo ASMCRYPT_BN_MODEXP_ASM ;;
    esac
}
# modules the registry has for each arch (Configure's @modules)
mods_for() {
    case $1 in
    arm|mips) echo "mont words poly1305" ;; aarch64) echo "mont words modexp poly1305" ;;
    esac
}
configure() {   # dir, args...: run Configure in a fresh dir
    d=$1; shift
    rm -rf "$d"; mkdir -p "$d"
    (cd "$d" && perl "$SRC/Configure" "$@" >out.log 2>&1)
}

# 2. every row
sed -n '/^```choice$/,/^```$/p' "$SRC/docs/perf/choice.md" | sed '1d;$d' | grep -v '^#' |
while read -r core arch cfield clearfield; do
    c=${cfield#c=} k=${clearfield#clear=}
    echo "$core $arch ${c:--} ${k:--}"     # - = none (read collapses empty fields)
done > "$TMP/rows"
while read -r core arch cmods clears; do
    [ "$cmods" = - ] && cmods=
    [ "$clears" = - ] && clears=
    if ! command -v "$(cc_for "$arch")" >/dev/null 2>&1; then skip=$((skip + 1)); continue; fi
    d="$TMP/$arch-$core"
    # shellcheck disable=SC2046
    if ! configure "$d" $(args_for "$arch") "--cpu=$core"; then bad "$core/$arch: Configure failed: $(head -3 "$d/out.log")"; continue; fi
    h="$d/include/asmcrypt/conf.h"
    grep -qx "#define ASMCRYPT_CPU_CHOICE \"$core\"" "$h" || bad "$core/$arch: conf.h does not name the core"
    for m in $(mods_for "$arch"); do
        want=1
        case ",$cmods," in *",$m,"*) want=0 ;; esac
        # modexp needs mont
        [ "$m" = modexp ] && case ",$cmods," in *",mont,"*) want=0 ;; esac
        have=0; grep -q "^#define $(define_of "$m") 1" "$h" && have=1
        [ "$want" = "$have" ] || bad "$core/$arch: module $m asm=$have, choice.md says $want"
    done
    clear=0
    for b in $(echo "$clears" | tr , ' '); do clear=$((clear | $(bit "$arch" "$b"))); done
    if [ "$clear" = 0 ]; then
        grep -q ASMCRYPT_CAP_BUILD_MASK "$h" && bad "$core/$arch: a build mask though the row clears nothing"
    else
        want=$(printf '#define ASMCRYPT_CAP_BUILD_MASK 0x%08xu' $((0xffffffff & ~clear)))
        grep -qx "$want" "$h" || bad "$core/$arch: mask line is '$(grep BUILD_MASK "$h")', want '$want'"
    fi
    ok
done < "$TMP/rows"

# 3. default and generic: no choice, same conf.h
if command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1; then
    # shellcheck disable=SC2046
    configure "$TMP/def" $(args_for arm)
    # shellcheck disable=SC2046
    configure "$TMP/gen" $(args_for arm) --cpu=generic
    if grep -q 'CPU_CHOICE\|BUILD_MASK' "$TMP/def/include/asmcrypt/conf.h"; then bad "default build carries a choice"
    elif ! cmp -s "$TMP/def/include/asmcrypt/conf.h" "$TMP/gen/include/asmcrypt/conf.h"; then bad "--cpu=generic differs from the default"
    else ok; fi
    # 4. from the flags (gcc spellings)
    configure "$TMP/tune" linux-armv4 --cross-compile-prefix=arm-linux-gnueabihf- -marm -march=armv7-a -mfpu=neon -mtune=cortex-a57
    grep -q 'CPU_CHOICE "cortex-a57"' "$TMP/tune/include/asmcrypt/conf.h" && ok || bad "-mtune=cortex-a57 not taken"
    configure "$TMP/mcpu" linux-armv4 --cross-compile-prefix=arm-linux-gnueabihf- -marm -mcpu=cortex-a9 -mfpu=neon
    grep -q 'CPU_CHOICE "cortex-a9"' "$TMP/mcpu/include/asmcrypt/conf.h" && ok || bad "-mcpu=cortex-a9 not taken"
    # 5. refused
    if configure "$TMP/bogus" linux-armv4 --cross-compile-prefix=arm-linux-gnueabihf- --cpu=no-such-core; then bad "--cpu=no-such-core accepted"
    elif [ -e "$TMP/bogus/Makefile" ]; then bad "--cpu=no-such-core wrote a Makefile"
    else ok; fi
    if configure "$TMP/wrong" linux-armv4 --cross-compile-prefix=arm-linux-gnueabihf- --cpu=p5600; then bad "--cpu=p5600 accepted for linux-armv4"
    else ok; fi
else
    skip=$((skip + 5))
fi
if command -v mipsel-linux-gnu-gcc >/dev/null 2>&1; then
    configure "$TMP/march" linux-mips32 --cross-compile-prefix=mipsel-linux-gnu- -march=24kc
    grep -q 'CPU_CHOICE "24k"' "$TMP/march/include/asmcrypt/conf.h" && ok || bad "-march=24kc not taken as 24k"
else
    skip=$((skip + 1))
fi

echo "total: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
