#!/bin/sh
# tools/charts.sh - the charts of docs/perf/README.md: time apps/speed on
# this machine (native build) and draw SVG charts with tools/svgchart.pl.
#
#   tools/charts.sh [--csv FILE] [--dir DIR] [--out DIR] [-- SPEED-OPTIONS]
#
# Without --csv: configure and build natively in DIR (default
# build/perf/speed), run `apps/speed --csv poly1305 mont_mul mod_exp`
# and keep the CSV as OUT/speed-<arch>.csv.  With --csv FILE: chart an
# existing CSV.  Writes OUT/poly1305-<arch>.svg, mont-<arch>.svg and
# modexp-<arch>.svg (OUT defaults to docs/perf).
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
DIR="$SRC/build/perf/speed"
OUT="$SRC/docs/perf"
csv=""
while [ $# -gt 0 ]; do
    case "$1" in
        --csv) csv="$2"; shift ;;
        --dir) DIR="$2"; shift ;;
        --out) OUT="$2"; shift ;;
        --)    shift; break ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *)     echo "charts.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
arch=$(uname -m)
mkdir -p "$OUT"
if [ -z "$csv" ]; then
    rm -rf "$DIR"; mkdir -p "$DIR"
    (cd "$DIR" && "$SRC/Configure" >/dev/null && make -j2 apps >/dev/null)
    csv="$OUT/speed-$arch.csv"
    "$DIR/apps/speed" --csv "$@" poly1305 mont_mul mod_exp > "$csv.tmp"
    mv "$csv.tmp" "$csv"
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
note="apps/speed --csv, $arch${cpu:+, $cpu}, $(date -u +%Y-%m-%d); solid: asmcrypt, dashed: peers"
chart() {   # table file y-column title ylabel xlabel extra-options
    if perl "$SRC/tools/svgchart.pl" --table "$1" --y "$3" --title "$4" \
        --ylabel "$5" --xlabel "$6" --note "$note" $7 "$csv" > "$OUT/$2"; then
        echo "wrote $OUT/$2" >&2
    else
        rm -f "$OUT/$2"
    fi
}
chart poly1305 "poly1305-$arch.svg" cyc_per_unit "Poly1305 one-shot tag, cycles per byte ($arch)" \
      "cycles per byte" "message size (bytes)" "--logx --logy"
chart mont_mul "mont-$arch.svg" cyc_per_op "Montgomery multiplication, cycles per operation ($arch)" \
      "cycles per operation" "modulus size (bits)" "--logy"
chart mod_exp "modexp-$arch.svg" cyc_per_op "Constant-time modexp, cycles per operation ($arch)" \
      "cycles per operation" "modulus size (bits)" "--logy"
