#!/usr/bin/env bash
# test/kernel/run.sh - build one Poly1305 module the way a Linux kernel
# builds it and run the kernel-shaped glue (test/kernel/kharness.c) on it,
# for each glue generation (issue 11, "Tests"; docs/import-kernel.md).
#
#   test/kernel/run.sh --arch ARCH [--cross PREFIX] [--cflags FLAGS]
#                      [--qemu "CMD"] [--dir DIR] [--gen A|B|C]...
#     ARCH   mips-o32 | mips-64 | arm-6 | arm-7 (a NEON kernel) |
#            arm-7-noneon (v7 without KERNEL_MODE_NEON) | arm64 | x86_64
#     FLAGS  the kernel's -march (and -marm/-mthumb) for the row; a
#            Thumb-2 kernel is `-mthumb`
#     CMD    emulator prefix for the harness (e.g. "qemu-arm -cpu cortex-a8")
#     DIR    where the per-generation folders and logs go (default: a
#            temporary folder, removed)
#     --gen  only these generations (default A B C)
#     --pl   test this copy of the module script instead of the tree's
#
# Per generation: the module's .pl is copied alone into a fake kernel tree
# ($tmp/linux/<the kernel's folder for that generation>/, under the kernel's
# file name), its .S is made from the tree's top with the kernel Makefile's
# command line, assembled with the kernel's AFLAGS plus
# -DASMCRYPT_KERNEL_GLUE=1 (A) or 2 (B) (C: no define, the default), then
# linked statically with kharness.c compiled for that generation and run
# for every glue mode the CPU has (kharness --modes) and every test group.
# On x86_64 the object is also checked as the kernel's objtool would
# (objtool from Debian's linux-kbuild-6.1 when installed, and always the
# rules in Perl: every ret followed by int3, every call to a function
# symbol).  A step that fails counts as one failure.
# Output ends with "total: N passed, N failed".
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
K="$SRC/test/kernel"
ARCH= CROSS= CFLAGS= QEMU= OUT= GENS=() PLFILE=
while [ $# -gt 0 ]; do
    case "$1" in
        --arch)   ARCH="$2"; shift ;;
        --cross)  CROSS="$2"; shift ;;
        --cflags) CFLAGS="$2"; shift ;;
        --qemu)   QEMU="$2"; shift ;;
        --dir)    OUT="$2"; shift ;;
        --gen)    GENS+=("$2"); shift ;;
        --pl)     PLFILE="$2"; shift ;;
        -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
[ ${#GENS[@]} -gt 0 ] || GENS=(A B C)
ARCH_SPEC=$ARCH
CC="${CROSS}gcc"
OBJDUMP="${CROSS}objdump"
NM="${CROSS}nm"
OBJTOOL=/usr/lib/linux-kbuild-6.1/tools/objtool/objtool

# per arch: module, kernel file name, kernel folder per generation
case "$ARCH" in
    mips-o32|mips-64)
        PL=poly1305-mips.pl; KPL=poly1305-mips.pl; KS=poly1305-core.S
        DIRS=(arch/mips/crypto arch/mips/lib/crypto lib/crypto/mips) ;;
    arm-6|arm-7|arm-7-noneon)
        PL=poly1305-armv4.pl; KPL=poly1305-armv4.pl; KS=poly1305-core.S
        DIRS=(arch/arm/crypto arch/arm/lib/crypto lib/crypto/arm) ;;
    arm64)
        PL=poly1305-armv8.pl; KPL=poly1305-armv8.pl; KS=poly1305-core.S
        DIRS=(arch/arm64/crypto arch/arm64/lib/crypto lib/crypto/arm64) ;;
    x86_64)
        PL=poly1305-x86_64.pl; KPL=poly1305-x86_64-cryptogams.pl; KS=poly1305-x86_64-cryptogams.S
        DIRS=(arch/x86/crypto arch/x86/lib/crypto lib/crypto/x86) ;;
    *) echo "run.sh: --arch mips-o32|mips-64|arm-6|arm-7|arm-7-noneon|arm64|x86_64" >&2; exit 2 ;;
esac

# the kernel's make exports these to every command
case "$ARCH" in
    mips-*) KARCHNAME=mips ;; arm-*) KARCHNAME=arm ;; x86_64) KARCHNAME=x86 ;; *) KARCHNAME=$ARCH ;;
esac
export CC ARCH_K="$KARCHNAME"

# the kernel Makefile's perl command line (run from the tree's top)
perl_cmd() {   # folder
    ARCH=$ARCH_K CROSS_COMPILE=$CROSS perl_line "$@"
}
perl_line() {   # folder
    case "$ARCH_SPEC" in
        mips-o32) perl "$1/$KPL" o32 "$1/$KS" ;;
        mips-64)  perl "$1/$KPL" 64 "$1/$KS" ;;
        arm-*)    perl "$1/$KPL" > "$1/$KS" ;;
        arm64)    perl "$1/$KPL" void "$1/$KS" ;;
        x86_64)   perl "$1/$KPL" > "$1/$KS" ;;
    esac
}

# the kernel's AFLAGS for the module's .S, per generation
aflags() {   # gen
    local g=$1 f="-D__KERNEL__ -D__ASSEMBLY__"
    case "$g" in A) f="$f -DASMCRYPT_KERNEL_GLUE=1" ;; B) f="$f -DASMCRYPT_KERNEL_GLUE=2" ;; esac
    case "$ARCH" in
        mips-o32) f="$f -mabi=32 -mno-abicalls -fno-pic -G 0 -msoft-float $CFLAGS" ;;
        mips-64)  f="$f -mabi=64 -mno-abicalls -fno-pic -G 0 -msoft-float $CFLAGS" ;;
        arm-*)
            local n=${ARCH#arm-} march
            n=${n%-noneon}
            march=$(echo "$CFLAGS" | sed -n 's/.*-march=\([^ ]*\).*/\1/p')
            f="$f -D__LINUX_ARM_ARCH__=$n -msoft-float -mfpu=vfp -Wa,-march=${march:-armv$n} $CFLAGS"
            # the kernel's poly1305 AFLAGS: 7 with kernel-mode NEON, 5 on
            # other v7 kernels
            case "$ARCH" in
                arm-7)        f="$f -U__LINUX_ARM_ARCH__ -D__LINUX_ARM_ARCH__=7" ;;
                arm-7-noneon) f="$f -U__LINUX_ARM_ARCH__ -D__LINUX_ARM_ARCH__=5" ;;
            esac
            case " $CFLAGS " in *" -mthumb "*)
                f="$f -Wa,-mimplicit-it=always -U__thumb2__ -D__thumb2__=1" ;; esac ;;
        arm64)
            case "$g" in
                A) f="$f -Dpoly1305_init=poly1305_init_arm64" ;;
                B) f="$f -Dpoly1305_init=poly1305_block_init_arch -Dpoly1305_emit=poly1305_emit_arch" ;;
            esac ;;
        x86_64) ;;
    esac
    echo "$f"
}

# dirty upper halves only where a u32 argument shares a 64-bit register
# with garbage the ABI allows (not MIPS n64: it sign-extends)
TGROUPS="vectors lengths long"
case "$ARCH" in arm64|x86_64) TGROUPS="$TGROUPS dirty" ;; esac

genno() { case "$1" in A) echo 1 ;; B) echo 2 ;; C) echo 3 ;; esac; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/asmcrypt-kernel.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
if [ -z "$OUT" ]; then OUT="$TMP/out"; fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

tpass=0; tfail=0
declare -a SUMMARY
add() { tpass=$((tpass + $1)); tfail=$((tfail + $2)); gp=$((gp + $1)); gf=$((gf + $2)); }

# x86_64: the kernel's objtool rules on the object, in Perl on objdump
# output: every ret is followed by int3, every call goes to a symbol of
# type function, every global in .text has .type function and a .size.  Prints one line per problem, then "rules: N problems".
perl_objtool_rules() {   # object
    "$OBJDUMP" -d -r --no-show-raw-insn "$1" > "$2.dis" || return 1
    "$NM" "$1" > "$2.nm"
    "$OBJDUMP" -t "$1" > "$2.syms"
    perl -e '
        use strict; use warnings;
        my ($dis, $syms) = @ARGV;
        my (%func, %any);
        open my $s, "<", $syms or die;
        my $bad = 0;
        while (<$s>) {
            next unless /^[0-9a-f]+\s+(.{7})\s+(\S+)\s+([0-9a-f]+)\s+(\S+)$/;
            my ($fl, $sec, $size, $name) = ($1, $2, hex $3, $4);
            $any{$name} = 1;
            $func{$name} = 1 if $fl =~ /F/;
            if ($fl =~ /^g/ && $sec eq ".text" && ($fl !~ /F/ || $size == 0)) {
                print "global $name: no .type function or no .size\n"; $bad++;
            }
        }
        open my $d, "<", $dis or die;
        my @ins;
        while (<$d>) {
            push @ins, [$1, $2] if /^\s*([0-9a-f]+):\s+(\S.*?)\s*$/;
        }
        for my $i (0 .. $#ins) {
            my $t = $ins[$i][1];
            if ($t =~ /^ret[q]?\b/) {
                my $next = $i < $#ins ? $ins[$i + 1][1] : "";
                if ($next !~ /^int3\b/) {
                    print "ret at $ins[$i][0] not followed by int3\n"; $bad++;
                }
            }
            if ($t =~ /^call[q]?\s+([0-9a-f]+)\s+<([^>+]+)(\+0x[0-9a-f]+)?>/) {
                my ($name, $plus) = ($2, $3);
                if (!$func{$name} || defined $plus) {
                    print "call at $ins[$i][0] to $name", ($plus // ""), ": not a function symbol\n"; $bad++;
                }
            } elsif ($t =~ /^call[q]?\s+\*/) {
                print "indirect call at $ins[$i][0]\n"; $bad++;
            }
        }
        print "rules: $bad problems\n";
    ' "$2.dis" "$2.syms"
}

for g in "${GENS[@]}"; do
    n=$(genno "$g") || { echo "run.sh: generation $g?" >&2; exit 2; }
    gp=0; gf=0
    kdir=${DIRS[$((n - 1))]}
    top="$TMP/gen$g/linux"
    o="$OUT/gen$g"
    rm -rf "$top" "$o"; mkdir -p "$top/$kdir" "$o"
    echo "== generation $g (ASMCRYPT_KERNEL_GLUE=$n${n:+}), $ARCH, flat copy $kdir/$KPL"
    cp "${PLFILE:-$SRC/crypto/poly1305/asm/$PL}" "$top/$kdir/$KPL"
    if [ -e "$top/$kdir/../../../perlasm" ] || [ -e "$top/perlasm" ]; then
        echo "run.sh: a perlasm folder is reachable from the flat copy" >&2; exit 2
    fi
    # 1. the .S, from the top of the tree, exactly as the kernel Makefile
    ( cd "$top" && perl_cmd "$kdir" ) > "$o/perl.log" 2>&1
    rc=$?
    echo "   perlasm: $(cd "$top" && case "$ARCH" in
        mips-o32) echo "perl $kdir/$KPL o32 $kdir/$KS" ;; mips-64) echo "perl $kdir/$KPL 64 $kdir/$KS" ;;
        arm64) echo "perl $kdir/$KPL void $kdir/$KS" ;; *) echo "perl $kdir/$KPL > $kdir/$KS" ;; esac)"
    if [ $rc -ne 0 ] || [ ! -s "$top/$kdir/$KS" ]; then
        echo "   FAIL: the script did not run from a flat copy (exit $rc):"; sed 's/^/     /' "$o/perl.log" | head -5
        add 0 1; SUMMARY+=("$g: perlasm FAILED"); continue
    fi
    cp "$top/$kdir/$KS" "$o/"
    # 2. assemble with the kernel's AFLAGS
    af=$(aflags "$g")
    echo "   AFLAGS: $af"
    # shellcheck disable=SC2086
    if ! "$CC" $af -c "$o/$KS" -o "$o/core.o" > "$o/as.log" 2>&1; then
        echo "   FAIL: assembling:"; sed 's/^/     /' "$o/as.log" | head -10
        add 0 1; SUMMARY+=("$g: assemble FAILED"); continue
    fi
    exports=$("$NM" -g --defined-only "$o/core.o" | awk '{print $3}' | sort | tr '\n' ' ')
    echo "   exports: $exports"
    # a kernel object may reference nothing of asmcrypt (no capability
    # word, no helper): no undefined symbols at all
    undef=$("$NM" -u "$o/core.o" | awk '{print $2}' | tr '\n' ' ')
    if [ -z "$undef" ]; then add 1 0
    else add 0 1; echo "   FAIL: the object needs symbols the kernel does not have: $undef"; fi
    if [ "$g" = C ]; then      # the default must be the newest generation
        # shellcheck disable=SC2086
        "$CC" $af -DASMCRYPT_KERNEL_GLUE=3 -c "$o/$KS" -o "$o/core3.o" > "$o/as3.log" 2>&1
        e3=$("$NM" -g --defined-only "$o/core3.o" 2>/dev/null | awk '{print $3}' | sort | tr '\n' ' ')
        if [ "$e3" = "$exports" ]; then add 1 0
        else add 0 1; echo "   FAIL: -DASMCRYPT_KERNEL_GLUE=3 exports '$e3', the default '$exports'"; fi
    fi
    # 3. the glue for this generation, linked statically
    hf="-std=gnu99 -O2 -Wall -Wextra $CFLAGS -DKGEN=$n"
    [ "$ARCH" = arm-7 ] && hf="$hf -DKNEON=1"
    # shellcheck disable=SC2086
    if ! "$CC" $hf -c "$K/kharness.c" -o "$o/kharness.o" > "$o/cc.log" 2>&1 || [ -s "$o/cc.log" ]; then
        echo "   FAIL: compiling the glue (warnings count):"; sed 's/^/     /' "$o/cc.log" | head -10
        add 0 1; SUMMARY+=("$g: glue compile FAILED"); continue
    fi
    # shellcheck disable=SC2086
    if ! "$CC" $CFLAGS -static -o "$o/kharness" "$o/kharness.o" "$o/core.o" > "$o/ld.log" 2>&1; then
        echo "   FAIL: linking the glue (names the generation needs):"
        grep -E "undefined reference|error" "$o/ld.log" | sed 's/^.*: //' | sort -u | sed 's/^/     /' | head -10
        add 0 1; SUMMARY+=("$g: link FAILED"); continue
    fi
    # 4. x86_64: objtool's rules
    if [ "$ARCH" = x86_64 ]; then
        perl_objtool_rules "$o/core.o" "$o/core" > "$o/rules.log" 2>&1
        nb=$(sed -n 's/^rules: \([0-9]*\) problems$/\1/p' "$o/rules.log")
        if [ "${nb:-x}" = 0 ]; then add 1 0; echo "   objtool rules (Perl): ok"
        else add 0 1; echo "   FAIL objtool rules (Perl): ${nb:-?} problems"; head -5 "$o/rules.log" | sed 's/^/     /'; fi
        if [ -x "$OBJTOOL" ]; then
            cp "$o/core.o" "$o/objtool.o"
            "$OBJTOOL" --hacks=jump_label --hacks=noinstr --orc --retpoline --sls --static-call \
                --uaccess --module "$o/objtool.o" > "$o/objtool.log" 2>&1
            rc=$?
            nw=$(grep -c 'warning:' "$o/objtool.log")
            if [ $rc -eq 0 ] && [ "$nw" -eq 0 ]; then add 1 0; echo "   objtool (linux-kbuild-6.1 --orc --retpoline --sls ...): ok"
            else add 0 1; echo "   FAIL objtool: exit $rc, $nw warnings"; head -5 "$o/objtool.log" | sed 's/^/     /'; fi
            cp "$o/core.o" "$o/objtool2.o"
            "$OBJTOOL" --rethunk --ibt --module "$o/objtool2.o" > "$o/objtool-info.log" 2>&1
            echo "   (information) objtool --rethunk --ibt: $(grep -c 'warning:' "$o/objtool-info.log") warnings (the RET macro and ENDBR of <linux/linkage.h>; not required)"
        else
            echo "   objtool: not installed ($OBJTOOL, Debian linux-kbuild-6.1); Perl rules only"
        fi
    fi
    # 5. run every mode and group
    modes=$($QEMU "$o/kharness" --modes 2> "$o/modes.log")
    sed 's/^/   /' "$o/modes.log"
    [ -n "$modes" ] || { echo "   FAIL: kharness --modes printed nothing"; add 0 1; SUMMARY+=("$g: FAILED to run"); continue; }
    marks=""
    for m in $modes; do
        mhw=0
        for grp in $TGROUPS; do
            log="$o/$m-$grp.log"
            # shellcheck disable=SC2086
            $QEMU "$o/kharness" "$K/testmgr-poly1305.txt" "$m" "$grp" > "$log" 2>&1
            rc=$?
            line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
            if [ -z "$line" ]; then
                echo "   FAIL $m/$grp: no result (exit $rc, crashed?): $(tail -n 1 "$log")"
                add 0 1; continue
            fi
            p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
            [ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
            add "$p" "$f"
            hw=$(sed -n 's/^high-water: \([0-9]*\) bytes.*/\1/p' "$log")
            st=ok; [ "$f" -ne 0 ] && st=FAILED
            printf '   %-7s %-8s %6s passed, %4s failed  high-water %4s  %s  %s\n' "$m" "$grp" "$p" "$f" \
                "${hw:-?}" "$st" "$(sed -n 's/^calls: //p' "$log")"
            grep -E '^(FAIL|     extent)' "$log" | head -3 | sed 's/^/       /'
            [ -n "$hw" ] && [ "$hw" -gt "$mhw" ] && mhw=$hw
        done
        marks="$marks $m $mhw,"
    done
    SUMMARY+=("$g: $gp passed, $gf failed; high-water from &h:${marks%,}")
done
echo "== $ARCH summary (kernel reserves $(case $ARCH in mips*) echo 72 ;; x86_64) echo 288 ;; *) echo 240 ;; esac) bytes from &h; asmcrypt budget $(case $ARCH in mips*) echo 72 ;; *) echo 192 ;; esac))"
for s in "${SUMMARY[@]}"; do echo "   $s"; done
echo "total: $tpass passed, $tfail failed"
[ "$tfail" -eq 0 ] && [ "$tpass" -gt 0 ]
