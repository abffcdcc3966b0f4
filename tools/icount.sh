#!/bin/sh
# tools/icount.sh - instruction counts for one configured build folder:
# builds the plugin and the counting driver there and prints the table
# (also written to BUILD/icount-<target>.md).  `make icount` in the build
# folder is the same; tools/perf-all.sh does every matrix row.
#   tools/icount.sh [BUILD-DIR]        (default: the current folder)
set -eu
b=${1:-.}
[ -f "$b/Makefile" ] || { echo "icount.sh: $b is not a configured build folder (run Configure there)" >&2; exit 2; }
make -C "$b" --no-print-directory -j2 libasmcrypt.a tools >/dev/null
exec make -C "$b" --no-print-directory icount
