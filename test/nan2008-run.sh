#!/bin/sh
# test/nan2008-run.sh QEMU [QEMU-OPTIONS...] PROGRAM [ARGS...]
#
# Runs PROGRAM under qemu's P5600 model, which refuses binaries whose ELF
# header does not say IEEE 754-2008 NaN.  Debian ships no nan2008 o32 glibc
# to link against, so the matrix builds legacy-NaN programs; this wrapper
# runs a copy with EF_MIPS_NAN2008 (0x400) set in e_flags.  The code under
# test uses no floating point, so the NaN encoding cannot change a result.
set -u
n=0
for a in "$@"; do
    n=$((n + 1))
    case "$a" in -*) continue ;; esac
    if [ -f "$a" ] && [ "$(head -c 4 "$a" | od -An -c | tr -d ' ')" = '177ELF' ]; then
        break
    fi
done
[ "$n" -le "$#" ] || { echo "nan2008-run.sh: no ELF program in arguments" >&2; exit 2; }
prog=$(eval echo "\${$n}")
tmp=$(mktemp "${TMPDIR:-/tmp}/nan2008.XXXXXX") || exit 2
trap 'rm -f "$tmp"' EXIT
cp "$prog" "$tmp" && chmod +x "$tmp"
perl -e '
    open my $f, "+<", $ARGV[0] or die "$ARGV[0]: $!\n"; binmode $f;
    read $f, my $id, 16;
    my $le = substr($id, 5, 1) eq "\x01";           # EI_DATA
    my $off = substr($id, 4, 1) eq "\x02" ? 48 : 36; # e_flags, ELF64/ELF32
    seek $f, $off, 0; read $f, my $b, 4;
    my $v = unpack($le ? "V" : "N", $b) | 0x400;
    seek $f, $off, 0; print $f pack($le ? "V" : "N", $v); close $f;
' "$tmp" || exit 2
i=0
orig=$#
for a in "$@"; do
    i=$((i + 1))
    if [ "$i" -eq "$n" ]; then set -- "$@" "$tmp"; else set -- "$@" "$a"; fi
done
shift "$orig"
exec "$@"
