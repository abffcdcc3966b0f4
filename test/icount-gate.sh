#!/usr/bin/env bash
# test/icount-gate.sh [--update] ROWDIR [ROW...] - the instruction-count
# gate (issue 13; the icount-gate row of test/matrix.sh).
#
# Instruction counts under qemu are exact, so they can gate where timing
# cannot (timing stays a benchmark: apps/speed, docs/perf/, never a test).
# For each row of GATE_ROWS below (the definitions, i.e. Configure target,
# cross prefix, flags and qemu -cpu, are read from the ROWS table of
# test/matrix.sh) the script configures out of tree in ROWDIR/<row> with
# Configure's own default emulator, builds the library and the counting
# tools (make -j1), and runs `make icount ICOUNT_FLAGS="--gate --raw F"`:
# the same plugin, driver and report as `make icount` and
# tools/perf-all.sh, on the driver's gate set (tools/icount_main.c -g):
#   poly1305     16, 1024, 8192 bytes
#   bn_mont_mul  1024, 2048 bits; bn_mont_sqr (ap == bp) 1024, 2048 bits
#   mod_exp      1024 bits
#   bn_*_words   3, 8 and 32 limbs (all eight word primitives; 3 is a
#                few-limb call, below every piece and loop set-up)
# for every path the library dispatches to at the build's capability levels
# ("api:<name>", one per distinct asmcrypt_impl() name), instructions per
# call.  C references called directly and the peers are not gated.
#
# Every count is compared with test/icount-baseline.txt (one line
# "ROW PRIM SIZE IMPL COUNT" per figure):
#   rise of more than 1%  FAIL (a slower path; or a deliberate change whose
#                         baseline was not regenerated in the same commit)
#   drop of more than 1%  ok, with a "baseline stale" note (regenerate)
#   within 1%             ok
#   key in the baseline but not measured, or measured but not in the
#   baseline              FAIL (a path, size or row appeared or vanished)
# Rows whose cross compiler or qemu is missing are skipped (their baseline
# keys are counted as skipped); a row that fails to build counts as one
# failure.  Then the self-check (5 tests) proves the gate can fail: the
# comparison is rerun against copies of this run's own counts with the
# largest count lowered by 2% (must FAIL), lowered by 0.5% (must pass),
# raised by 2% (must pass with the stale note), one key removed and one
# key added (must each FAIL).
#
# Regenerating the baseline (in the same commit as a deliberate speed
# change, see docs/perf/icount-gate.md):
#   bash test/icount-gate.sh --update /tmp/gate            every row
#   bash test/icount-gate.sh --update /tmp/gate aarch64    only these rows'
#                                                          lines are replaced
# Naming rows without --update checks only those rows.
#
# Cost: one row is a configure, a -j1 build of libasmcrypt.a and the tools,
# and two runs of the gate set under qemu (icount-report.pl requires the
# two runs to agree).  Measured on the 2-core VM (2026-12-03, all 17 rows,
# other jobs running):
#   /usr/bin/time test/matrix.sh --dir D -j1 icount-gate
#   -> 22.7 s user + 7.8 s sys = 31 CPU-seconds, 42 s wall; after the
#      per-instruction plugin (832d4e6) 28.0 + 7.6 = 36 CPU-seconds
# (a budget of ~4 CPU-minutes; a full --update run costs the same).
#
# Last line: total: N passed, N failed, N skipped.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BASE="$SRC/test/icount-baseline.txt"

# The gated rows: every matrix row that runs assembly under qemu-user
# (generic32/64 are C only; the build rows cannot run).
GATE_ROWS=(x86_64 armv5te armv6 armv7 thumb2 aarch64 aarch64-max
           mips32-el mips32-eb mips32r2-el mips32r2-eb mips32r2-p5600 mips32r6
           mips64-el mips64-eb mips64-n32 mips64r6)

update=0
. "$SRC/test/lib/opts.sh"
opts_parse --update=update --baseline:BASE -- "$@"
set -- "${OPTS_ARGS[@]}"
DIR=${1:?usage: test/icount-gate.sh [--update] ROWDIR [ROW...]}
shift
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
regen="bash test/icount-gate.sh --update DIR"

trim() { local s="$1"; s="${s#"${s%%[![:space:]]*}"}"; echo "${s%"${s##*[![:space:]]}"}"; }
declare -A T P F C M
while IFS='|' read -r n t p f c m; do
    n=$(trim "$n"); [ -z "$n" ] && continue
    T[$n]=$(trim "$t"); P[$n]=$(trim "$p"); F[$n]=$(trim "$f"); C[$n]=$(trim "$c"); M[$n]=$(trim "$m")
done <<< "$(sed -n "/^ROWS='/,/^'/p" "$SRC/test/matrix.sh" | sed '1d;$d')"

rows=()
if [ $# -gt 0 ]; then
    for r in "$@"; do
        case " ${GATE_ROWS[*]} " in *" $r "*) rows+=("$r") ;;
            *) echo "icount-gate.sh: '$r' is not a gated row (${GATE_ROWS[*]})" >&2; exit 2 ;;
        esac
    done
else
    rows=("${GATE_ROWS[@]}")
fi

passed=0; failed=0; skipped=0
cur="$DIR/counts.txt"
: >"$cur"
measured=(); skipped_rows=()

for n in "${rows[@]}"; do
    if [ -z "${T[$n]:-}" ]; then
        echo "FAIL row $n: not in the ROWS table of test/matrix.sh"; failed=$((failed + 1)); continue
    fi
    t=${T[$n]} p=${P[$n]} f=${F[$n]} c=${C[$n]} m=${M[$n]}
    if [ -n "$p" ]; then
        q=$("$SRC/Configure" "$t" --cross-compile-prefix="$p" --print-qemu 2>/dev/null)
        if ! command -v "${p}gcc" >/dev/null 2>&1 || ! command -v "${q:-qemu-none}" >/dev/null 2>&1; then
            echo "skip row $n: no ${p}gcc or ${q:-its qemu} (test/matrix.sh --install $n)"
            skipped_rows+=("$n"); continue
        fi
    elif ! command -v "qemu-$(uname -m)" >/dev/null 2>&1; then
        echo "skip row $n: no qemu-$(uname -m) (apt-get install qemu-user)"
        skipped_rows+=("$n"); continue
    fi
    b="$DIR/$n"
    rm -rf "$b"; mkdir -p "$b"
    emu=()
    if [ "$m" = run-nan2008 ]; then
        # shellcheck disable=SC2086
        emu=("--emulator=sh $SRC/test/nan2008-run.sh $("$SRC/Configure" "$t" --cross-compile-prefix="$p" \
                 ${c:+--qemu-cpu=$c} $f --print-emulator)")
    fi
    # shellcheck disable=SC2086
    if ! (cd "$b" && "$SRC/Configure" "$t" ${p:+--cross-compile-prefix=$p} ${c:+--qemu-cpu=$c} \
              "${emu[@]}" $f) >"$b/configure.log" 2>&1; then
        echo "FAIL row $n: Configure failed, see $b/configure.log"; failed=$((failed + 1)); continue
    fi
    if ! make -C "$b" -j1 libasmcrypt.a tools >"$b/build.log" 2>&1; then
        echo "FAIL row $n: build failed, see $b/build.log"; failed=$((failed + 1)); continue
    fi
    if ! make -C "$b" --no-print-directory icount ROW="$n" \
             ICOUNT_FLAGS="--gate --raw $b/gate.txt" >"$b/icount.log" 2>&1 || [ ! -s "$b/gate.txt" ]; then
        echo "FAIL row $n: counting failed (or two runs differed), see $b/icount.log"
        failed=$((failed + 1)); continue
    fi
    sed "s/^/$n /" "$b/gate.txt" >>"$cur"
    measured+=("$n")
done

# compare BASELINE CURRENT "MEASURED" "SKIPPED" "SELECTED" ALL: one line
# per key, then "counts PASSED FAILED SKIPPED STALE".  Baseline keys of a
# selected row that was measured but lacks them fail; of a skipped row are
# skipped; of a row that failed to build are not counted (that failure is);
# of a row no longer in GATE_ROWS fail when ALL rows were selected.
compare() {
    perl -e '
use strict; use warnings;
my ($basef, $curf, $meas, $skip, $sel, $all, $gated, $regen) = @ARGV;
my %meas  = map { $_ => 1 } split " ", $meas;
my %skip  = map { $_ => 1 } split " ", $skip;
my %sel   = map { $_ => 1 } split " ", $sel;
my %gated = map { $_ => 1 } split " ", $gated;
sub load {
    my ($f) = @_; my (%v, @k);
    open my $fh, "<", $f or die "icount-gate: $f: $!\n";
    while (<$fh>) {
        next if /^\s*(#|$)/;
        my @w = split;
        die "icount-gate: $f:$.: bad line\n" unless @w == 5 && $w[4] =~ /^[0-9.]+$/;
        my $k = "@w[0..3]";
        die "icount-gate: $f:$.: duplicate key $k\n" if exists $v{$k};
        $v{$k} = $w[4]; push @k, $k;
    }
    return (\%v, \@k);
}
my ($b, $bk) = load($basef);
my ($c, $ck) = load($curf);
my ($p, $f, $s, $stale) = (0, 0, 0, 0);
for my $k (@$ck) {
    if (!exists $b->{$k}) {
        print "FAIL $k $c->{$k}: measured, not in the baseline (regenerate: $regen)\n"; $f++; next;
    }
    my ($bv, $cv) = ($b->{$k}, $c->{$k});
    my $d = $bv ? ($cv - $bv) / $bv : ($cv ? 1 : 0);
    my $pc = sprintf "%+.2f%%", 100 * $d;
    if ($d > 0.01) {
        print "FAIL $k $cv: baseline $bv, $pc (more than 1% more instructions)\n"; $f++;
    } elsif ($d < -0.01) {
        print "ok   $k $cv: baseline $bv, $pc: baseline stale, regenerate with $regen\n"; $p++; $stale++;
    } else {
        print "ok   $k $cv", ($cv == $bv ? "" : " (baseline $bv, $pc)"), "\n"; $p++;
    }
}
for my $k (@$bk) {
    next if exists $c->{$k};
    my ($row) = split " ", $k;
    if (!$gated{$row}) {
        next unless $all;
        print "FAIL $k: row $row is in the baseline but not gated (regenerate: $regen)\n"; $f++;
    } elsif (!$sel{$row}) {
        next;
    } elsif ($skip{$row}) {
        $s++;
    } elsif ($meas{$row}) {
        print "FAIL $k: in the baseline, not measured (path or size gone? regenerate: $regen)\n"; $f++;
    }
}
print "counts $p $f $s $stale\n";
' "$1" "$2" "$3" "$4" "$5" "$6" "${GATE_ROWS[*]}" "$regen"
}

all=1; [ $# -gt 0 ] && all=0   # all rows: baseline rows that are not gated fail too

if [ $update -eq 1 ]; then
    rev=$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)
    new="$DIR/baseline.new"
    {
        echo "# test/icount-baseline.txt - the instruction counts test/icount-gate.sh gates"
        echo "# (the icount-gate row of test/matrix.sh; docs/perf/icount-gate.md)."
        echo "# Generated, do not edit: regenerate with"
        echo "#     bash test/icount-gate.sh --update DIR [ROW...]"
        echo "# in the same commit as a deliberate change of speed."
        echo "# ROW PRIM SIZE IMPL COUNT = instructions per call (tools/icount-report.pl --gate)."
        echo "# Last generated on a tree based on commit $rev, $(date -u +%Y-%m-%d)."
        for r in "${GATE_ROWS[@]}"; do
            if [[ " ${measured[*]} " == *" $r "* ]]; then
                grep "^$r " "$cur"
            elif [ -f "$BASE" ]; then
                grep "^$r " "$BASE"
            fi
        done
    } >"$new"
    cp "$new" "$BASE"
    echo "updated $BASE (${#measured[@]} rows measured: ${measured[*]})"
fi

if [ ! -f "$BASE" ]; then
    echo "FAIL no baseline $BASE (create it: $regen)"
    failed=$((failed + 1))
else
    compare "$BASE" "$cur" "${measured[*]}" "${skipped_rows[*]}" "${rows[*]}" $all >"$DIR/compare.out"
    grep -v '^counts ' "$DIR/compare.out"
    read -r _ p f s st <<< "$(grep '^counts ' "$DIR/compare.out")"
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-1})); skipped=$((skipped + ${s:-0}))
    [ "${st:-0}" -gt 0 ] && echo "note: $st counts dropped by more than 1%: the baseline is stale, regenerate it with $regen"
fi

# self-check: the gate must be able to fail (on this run's own counts, so
# it holds whether the real baseline is current or not)
selfcheck() {   # name, expected "F STALE", perl edit of the copy (on $_ lines; $top = largest key)
    local name=$1 want=$2 edit=$3 got
    perl -e '
        my ($in, $edit) = @ARGV; open my $fh, "<", $in or die; my @l = <$fh>;
        my ($top) = sort { (split " ", $b)[4] <=> (split " ", $a)[4] } @l;
        $top = join " ", (split " ", $top)[0..3];
        eval $edit; die $@ if $@; print @l;' "$cur" "$edit" >"$DIR/selfcheck.base"
    got=$(compare "$DIR/selfcheck.base" "$cur" "${measured[*]}" "" "${measured[*]}" 0 | grep '^counts ' |
          awk '{print $3, $5}')
    if [ "$got" = "$want" ]; then
        echo "ok   self-check: $name"; passed=$((passed + 1))
    else
        echo "FAIL self-check: $name (failures, stale notes: got '$got', want '$want')"; failed=$((failed + 1))
    fi
}
if [ -s "$cur" ]; then
    # shellcheck disable=SC2016
    {
        selfcheck "a count 2% over its baseline fails" "1 0" \
            'for (@l) { my @w = split; if ("@w[0..3]" eq $top) { $w[4] = int($w[4] / 1.02); $_ = "@w\n" } }'
        selfcheck "a count 0.5% over its baseline passes" "0 0" \
            'for (@l) { my @w = split; if ("@w[0..3]" eq $top) { $w[4] = int($w[4] / 1.005); $_ = "@w\n" } }'
        selfcheck "a count 2% under its baseline passes, noted stale" "0 1" \
            'for (@l) { my @w = split; if ("@w[0..3]" eq $top) { $w[4] = int($w[4] * 1.02) + 1; $_ = "@w\n" } }'
        selfcheck "a measured key missing from the baseline fails" "1 0" \
            '@l = grep { join(" ", (split " ")[0..3]) ne $top } @l;'
        selfcheck "a baseline key not measured fails" "1 0" \
            'my @w = split " ", $l[0]; push @l, "$w[0] $w[1] $w[2] api:no-such-path 100\n";'
    }
else
    echo "self-check: nothing measured, skipped"
    skipped=$((skipped + 5))
fi

echo "total: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
