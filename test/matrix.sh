#!/usr/bin/env bash
# test/matrix.sh - build and test every row of the target matrix
# (DESIGN.md) out of tree, cross targets under qemu-user.
#
#   test/matrix.sh [options] [row...]      (no row: all rows)
#     --list        print the rows and exit
#     --install     install the Debian packages of the rows (root) and exit
#     -j N          rows built and tested at once (default 2)
#     --dir DIR     build folders (default build/matrix in the source tree)
#
# Run as root, missing packages are installed with apt-get first; not as
# root, rows whose packages are missing are reported as skipped.
# Output: one line per row, then "matrix: N passed, N failed, N skipped"
# (test cases summed over rows; an assemble-only row counts as one test,
# a row that fails to configure or build counts as one failure).
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
JOBS=2
DIR="$SRC/build/matrix"

# name | Configure target | cross prefix | extra compiler flags | qemu -cpu | mode
# mode: run = make test under qemu; build = assemble and link only (no
# core with that ISA level can run Debian's libc); run-nan2008 = see below;
# vectors = regenerate test/vectors with the Math::BigInt oracle and require
# the committed files byte for byte (one test per file);
# kernel = test/kernel/run.sh: the Poly1305 module of the arch in the
# target column (mips-o32, mips-64, arm-6, arm-7 = a NEON kernel,
# arm-7-noneon = a v7 kernel without kernel-mode NEON, arm64, x86_64) built from a flat copy with the kernel's command lines and
# flags, linked with the kernel-shaped glue of generations A, B and C
# (docs/import-kernel.md); the flags column is the kernel's -march;
# script = test/<name>.sh <row folder> prints the counts; SKIPPED when
# that script does not exist.
ROWS='
vectors        |                 |                               |                                   |                  | vectors
openssl-import |                 |                               |                                   |                  | script
openssl-import-aarch64|                 |                               |                                   |                  | script
openssl-import-armv4|                 |                               |                                   |                  | script
memcheck       |                 |                               |                                   |                  | script
asan           |                 |                               |                                   |                  | script
tsan           |                 |                               |                                   |                  | script
fuzz-smoke     |                 |                               |                                   |                  | script
ct-static      |                 |                               |                                   |                  | script
ct-taint       |                 |                               |                                   |                  | script
armeb          |                 |                               |                                   |                  | script
perlasm-check  |                 |                               |                                   |                  | script
icount-gate    |                 |                               |                                   |                  | script
choice-check   |                 |                               |                                   |                  | script
no-cycles      |                 |                               |                                   |                  | script
neon-mca       |                 |                               |                                   |                  | script
x86_64         | linux-x86_64    |                               |                                   |                  | run
generic64      | linux-generic64 |                               |                                   |                  | run
generic32      | linux-generic32 | arm-linux-gnueabihf-          |                                   | cortex-a15       | run
armv4t         | linux-armv4     | arm-linux-gnueabi-            | -marm -march=armv4t               |                  | build
armv5te        | linux-armv4     | arm-linux-gnueabi-            | -marm -march=armv5te              | arm926           | run
armv6          | linux-armv4     | arm-linux-gnueabi-            | -marm -march=armv6                | arm1136          | run
armv7          | linux-armv4     | arm-linux-gnueabihf-          | -marm -march=armv7-a -mfpu=neon   | cortex-a8        | run
thumb2         | linux-armv4     | arm-linux-gnueabihf-          | -mthumb -march=armv7-a -mfpu=neon | cortex-a15       | run
armv7-tune-a57 | linux-armv4     | arm-linux-gnueabihf-          | -marm -march=armv7-a -mfpu=neon -mtune=cortex-a57 | cortex-a15 | run
aarch64        | linux-aarch64   | aarch64-linux-gnu-            |                                   | cortex-a57       | run
aarch64-max    | linux-aarch64   | aarch64-linux-gnu-            |                                   | max              | run
mips1          | linux-mips32    | mipsel-linux-gnu-             | -march=mips1 -mfp32               |                  | build
mips32-el      | linux-mips32    | mipsel-linux-gnu-             | -march=mips32                     | 24Kf             | run
mips32-eb      | linux-mips32    | mips-linux-gnu-               | -march=mips32                     | 24Kf             | run
mips32r2-el    | linux-mips32    | mipsel-linux-gnu-             | -march=mips32r2                   | 74Kf             | run
mips32r2-eb    | linux-mips32    | mips-linux-gnu-               | -march=mips32r2                   | 74Kf             | run
mips32r2-p5600 | linux-mips32    | mipsel-linux-gnu-             | -march=mips32r2                   | P5600            | run-nan2008
mips32r2-tune-p5600 | linux-mips32 | mipsel-linux-gnu-            | -march=mips32r2 -mtune=p5600      | 74Kf             | run
mips32r6       | linux-mips32    | mipsisa32r6el-linux-gnu-      |                                   | mips32r6-generic | run
mips64-el      | linux64-mips64  | mips64el-linux-gnuabi64-      | -march=mips64r2                   | MIPS64R2-generic | run
mips64-eb      | linux64-mips64  | mips64-linux-gnuabi64-        | -march=mips64r2                   | 5KEf             | run
mips64-n32     | linux-mips64    | mips64el-linux-gnuabi64-      | -march=mips64r2                   | MIPS64R2-generic | run
mips64r6       | linux64-mips64  | mipsisa64r6el-linux-gnuabi64- |                                   | I6400            | run
kernel-mips32r2-el | mips-o32    | mipsel-linux-gnu-             | -march=mips32r2                   | 74Kf             | kernel
kernel-mips32r2-eb | mips-o32    | mips-linux-gnu-               | -march=mips32r2                   | 74Kf             | kernel
kernel-mips64  | mips-64         | mips64el-linux-gnuabi64-      | -march=mips64r2                   | MIPS64R2-generic | kernel
kernel-mips64-eb | mips-64       | mips64-linux-gnuabi64-        | -march=mips64r2                   | 5KEf             | kernel
kernel-armv6   | arm-6           | arm-linux-gnueabi-            | -marm -march=armv6                | arm1136          | kernel
kernel-armv7   | arm-7           | arm-linux-gnueabi-            | -marm -march=armv7-a              | cortex-a8        | kernel
kernel-armv7-noneon | arm-7-noneon | arm-linux-gnueabi-        | -marm -march=armv7-a              | cortex-a8        | kernel
kernel-thumb2  | arm-7           | arm-linux-gnueabi-            | -mthumb -march=armv7-a            | cortex-a15       | kernel
kernel-aarch64 | arm64           | aarch64-linux-gnu-            |                                   | cortex-a57       | kernel
kernel-x86_64  | x86_64          |                               |                                   |                  | kernel
'
# run-nan2008: qemu's P5600 accepts only IEEE 754-2008 NaN binaries, and
# Debian ships no nan2008 o32 glibc to link against, so the programs are
# built legacy-NaN and test/nan2008-run.sh sets EF_MIPS_NAN2008 in a copy
# of each program's ELF header before running it (nothing here uses FP).

# The kernel rows run the glue as static programs (the kernel's ARM is
# soft-float: armel); kernel-x86_64 also uses objtool from
# linux-kbuild-6.1 when it is installed (else the same rules in Perl).
OBJTOOL=/usr/lib/linux-kbuild-6.1/tools/objtool/objtool

# The one list of Debian packages the matrix needs, per cross prefix.
packages_for() {
    case "$1" in
        '')                            echo "build-essential perl qemu-user" ;;
        arm-linux-gnueabi-)            echo "gcc-arm-linux-gnueabi libc6-dev-armel-cross qemu-user" ;;
        arm-linux-gnueabihf-)          echo "gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user" ;;
        aarch64-linux-gnu-)            echo "gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user" ;;
        mipsel-linux-gnu-)             echo "gcc-mipsel-linux-gnu libc6-dev-mipsel-cross qemu-user" ;;
        mips-linux-gnu-)               echo "gcc-mips-linux-gnu libc6-dev-mips-cross qemu-user" ;;
        mipsisa32r6el-linux-gnu-)      echo "gcc-mipsisa32r6el-linux-gnu libc6-dev-mipsr6el-cross qemu-user" ;;
        mips64el-linux-gnuabi64-)      echo "gcc-mips64el-linux-gnuabi64 libc6-dev-mips64el-cross gcc-multilib-mips64el-linux-gnuabi64 qemu-user" ;;
        mips64-linux-gnuabi64-)        echo "gcc-mips64-linux-gnuabi64 libc6-dev-mips64-cross qemu-user" ;;
        mipsisa64r6el-linux-gnuabi64-) echo "gcc-mipsisa64r6el-linux-gnuabi64 libc6-dev-mips64r6el-cross qemu-user" ;;
        *) echo "unknown-prefix-$1" ;;
    esac
}

# prefix target -> qemu binary: Configure's table (--print-qemu), the one
# place that knows it.  A kernel row's target column is the kernel's arch,
# not a Configure target; only its prefix matters there (no n32 kernel
# row), so it asks as linux-generic64.
qemu_for() {
    local t=$2
    case "$t" in linux-*|linux64-*) ;; *) t=linux-generic64 ;; esac
    "$SRC/Configure" "$t" --cross-compile-prefix="$1" --print-qemu 2>/dev/null
}

trim() { local s="$1"; s="${s#"${s%%[![:space:]]*}"}"; echo "${s%"${s##*[![:space:]]}"}"; }

declare -a R_NAME R_TARGET R_PFX R_FLAGS R_CPU R_MODE
while IFS='|' read -r n t p f c m; do
    n=$(trim "$n"); [ -z "$n" ] && continue
    R_NAME+=("$n"); R_TARGET+=("$(trim "$t")"); R_PFX+=("$(trim "$p")")
    R_FLAGS+=("$(trim "$f")"); R_CPU+=("$(trim "$c")"); R_MODE+=("$(trim "$m")")
done <<< "$ROWS"

install_only=0
list_only=0
. "$SRC/test/lib/opts.sh"
opts_parse --list=list_only --install=install_only -j:JOBS --dir:DIR -- "$@"
want=("${OPTS_ARGS[@]}")
[ "$list_only" = 1 ] && { printf '%s\n' "${R_NAME[@]}"; exit 0; }

sel=()
if [ ${#want[@]} -eq 0 ]; then
    sel=("${!R_NAME[@]}")
else
    for w in "${want[@]}"; do
        found=
        for i in "${!R_NAME[@]}"; do
            [ "${R_NAME[$i]}" = "$w" ] && { sel+=("$i"); found=1; }
        done
        [ -n "$found" ] || { echo "matrix.sh: unknown row '$w'; rows: ${R_NAME[*]}" >&2; exit 2; }
    done
fi

row_ready() {   # index -> 0 when the toolchain, libc and emulator are present
    local i=$1 p=${R_PFX[$1]} triple
    if [ "${R_MODE[$i]}" = script ]; then
        [ -x "$SRC/test/${R_NAME[$i]}.sh" ] || [ -f "$SRC/test/${R_NAME[$i]}.sh" ] || return 1
    fi
    if [ -z "$p" ]; then command -v cc >/dev/null && command -v make >/dev/null; return; fi
    triple=${p%-}
    command -v "${p}gcc" >/dev/null || return 1
    [ -e "/usr/$triple/include/stdio.h" ] || return 1
    if [ "${R_TARGET[$i]}" = linux-mips64 ]; then
        [ -d "/usr/$triple/lib32" ] || return 1
    fi
    if [ "${R_MODE[$i]}" != build ]; then
        command -v "$(qemu_for "$p" "${R_TARGET[$i]}")" >/dev/null || return 1
    fi
    return 0
}

# a script row's missing piece is the script, not a package
script_missing() { [ "${R_MODE[$1]}" = script ] && [ ! -f "$SRC/test/${R_NAME[$1]}.sh" ]; }
missing=()
for i in "${sel[@]}"; do
    script_missing "$i" && continue
    row_ready "$i" || missing+=($(packages_for "${R_PFX[$i]}"))
    # objtool is optional: installed when we can, never a reason to skip
    if [ "${R_MODE[$i]}" = kernel ] && [ "${R_TARGET[$i]}" = x86_64 ] && [ ! -x "$OBJTOOL" ] &&
       [ "$(id -u)" -eq 0 ]; then
        missing+=(linux-kbuild-6.1)
    fi
done
if [ $install_only -eq 1 ]; then
    all=()
    for i in "${sel[@]}"; do
        all+=($(packages_for "${R_PFX[$i]}"))
        [ "${R_MODE[$i]}" = kernel ] && [ "${R_TARGET[$i]}" = x86_64 ] && all+=(linux-kbuild-6.1)
    done
    missing=("${all[@]}")
fi
if [ ${#missing[@]} -gt 0 ]; then
    pk=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
    if [ "$(id -u)" -eq 0 ]; then
        echo "matrix: installing $pk"
        export DEBIAN_FRONTEND=noninteractive
        . "$SRC/test/lib/apt.sh"       # apt-get update, retried
        apt_update matrix
        if ! apt-get install -y -qq --no-install-recommends $pk >/dev/null; then
            echo "matrix: apt-get failed; rows without their packages are skipped"
            [ $install_only -eq 1 ] && exit 1     # --install must not pass quietly
        fi
    else
        echo "matrix: not root; rows that need these missing packages are skipped: $pk"
    fi
fi
[ $install_only -eq 1 ] && exit 0

mkdir -p "$DIR"

# run_row index: configure, build and test one row; writes $DIR/<row>.result
run_row() {
    local i=$1 name=${R_NAME[$1]} target=${R_TARGET[$1]} p=${R_PFX[$1]}
    local flags=${R_FLAGS[$1]} cpu=${R_CPU[$1]} mode=${R_MODE[$1]}
    local b="$DIR/$name" log="$DIR/$name.log" res="$DIR/$name.result"
    local t0=$SECONDS emu="" q line
    rm -rf "$b"; mkdir -p "$b"
    if [ -n "$p" ]; then
        q=$(qemu_for "$p" "$target")
        # Configure's own default (qemu, -cpu, the sysroot, and the libc
        # folder first on LD_LIBRARY_PATH), so one place knows how
        # target programs run; kernel rows link statically and take $q
        # shellcheck disable=SC2086
        [ "$mode" = kernel ] || [ "$mode" = script ] ||
            emu=$("$SRC/Configure" "$target" --cross-compile-prefix="$p" ${cpu:+--qemu-cpu=$cpu} \
                      $flags --print-emulator 2>/dev/null)
        [ "$mode" = run-nan2008 ] && emu="sh $SRC/test/nan2008-run.sh $emu"
    fi
    (   # a subshell, so that `exit` ends this step only and the result is written
        echo "== $name: ${target:-$mode} ${p:+--cross-compile-prefix=$p} $flags ${emu:+--emulator=\"$emu\"}"
        if [ "$mode" = vectors ]; then
            perl "$SRC/test/gen_vectors.pl" --check >"$b/check.out" 2>&1
            rc=$?
            cat "$b/check.out"
            echo "total: $(grep -c '^same:' "$b/check.out") passed, $(grep -c '^DIFFERS:' "$b/check.out") failed"
            exit $rc
        fi
        if [ "$mode" = kernel ]; then
            "$SRC/test/kernel/run.sh" --arch "$target" ${p:+--cross "$p"} --cflags "$flags" \
                ${p:+--qemu "$q${cpu:+ -cpu $cpu}"} --dir "$b"
            exit $?
        fi
        if [ "$mode" = script ]; then
            # a hung step must not hold CI past its limit: ROW_TIMEOUT
            # seconds (default 2700; the slowest row takes about 500)
            timeout -k 30 "${ROW_TIMEOUT:-2700}" "${BASH:-bash}" "$SRC/test/$name.sh" "$b"
            exit $?
        fi
        # shellcheck disable=SC2086
        (cd "$b" && "$SRC/Configure" "$target" ${p:+--cross-compile-prefix=$p} \
              --emulator="$emu" $flags) || { echo "CONFIGURE FAILED"; exit 1; }
        if [ "$mode" = build ]; then
            make -C "$b" -j1 libasmcrypt.a libasmcrypt.so tests || { echo "BUILD FAILED"; exit 1; }
            echo "total: 1 passed, 0 failed"
        else
            make -C "$b" -j1 || { echo "BUILD FAILED"; exit 1; }
            make -C "$b" --no-print-directory test
        fi
    ) >"$log" 2>&1
    local rc=$?
    line=$(grep -E '^total: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    [ -n "$line" ] || line="total: 0 passed, 1 failed"
    if [ $rc -ne 0 ]; then        # make failed after a clean count: still a failure
        local f=${line#*passed, }; f=${f%% failed*}
        [ "$f" -eq 0 ] && line="${line%%, *}, 1 failed"
    fi
    echo "$name|$rc|$((SECONDS - t0))|${line#total: }" >"$res"
}

passed=0; failed=0; skipped=0
running=0
queue=()
for i in "${sel[@]}"; do
    if script_missing "$i"; then
        printf '%-19s SKIPPED (missing: test/%s.sh)\n' "${R_NAME[$i]}" "${R_NAME[$i]}"
        skipped=$((skipped + 1))
    elif row_ready "$i"; then queue+=("$i"); else
        printf '%-19s SKIPPED (missing: %s)\n' "${R_NAME[$i]}" "$(packages_for "${R_PFX[$i]}")"
        skipped=$((skipped + 1))
    fi
done

report() {
    local r name rc secs counts p f
    r=$(cat "$DIR/$1.result")
    IFS='|' read -r name rc secs counts <<< "$r"
    p=${counts%% passed*}; f=${counts#*passed, }; f=${f%% failed*}
    passed=$((passed + p)); failed=$((failed + f))
    local st=ok; [ "$f" -ne 0 ] && st="FAILED, see $DIR/$name.log"
    printf '%-19s %s  (%ss)  %s\n' "$name" "$counts" "$secs" "$st"
}

pids=(); names=()
for i in "${queue[@]}"; do
    run_row "$i" &
    pids+=($!); names+=("${R_NAME[$i]}")
    running=$((running + 1))
    if [ $running -ge "$JOBS" ]; then
        wait "${pids[0]}"; report "${names[0]}"
        pids=("${pids[@]:1}"); names=("${names[@]:1}")
        running=$((running - 1))
    fi
done
for k in "${!pids[@]}"; do
    wait "${pids[$k]}"; report "${names[$k]}"
done

echo "matrix: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
