#!/bin/sh
# tools/mca.sh - llvm-mca cycle estimates for one build (see tools/mca.pl):
# marked regions of the generated asm and the C references' inner loops,
# for the cores LLVM models on the build's architecture.
#   tools/mca.sh --cc CC --cflags "FLAGS" --src SRCDIR [--target T] [--row R]
#                [--out FILE] asm/X.S...
# `make mca` in a build folder runs it with the build's compiler and flags.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
command -v llvm-mca-19 >/dev/null 2>&1 || { echo "mca.sh: llvm-mca-19 not found (apt-get install llvm-19)" >&2; exit 2; }
exec perl "$here/mca.pl" "$@"
