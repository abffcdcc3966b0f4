#!/usr/bin/env bash
# test/no-cycles.sh ROWDIR - the no-cycles row: no cycle among the source
# files through the symbols their objects define and use (issue 15).
#
# Builds the native library, apps/speed, the test programs and the tools
# (the counting and ct drivers; dudect and the fuzz replay drivers where
# they build) out of tree in ROWDIR/build and runs tools/call-cycles.pl over all of them at once.  Then the
# self-check proves the check can fail: two objects that call each other
# must be reported as a cycle, and a chain a -> b -> c must not.
# Last line: "total: N passed, N failed".
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
ROWDIR=${1:-/tmp/no-cycles}
mkdir -p "$ROWDIR/build" "$ROWDIR/self"
pass=0 fail=0
ok()  { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

B="$ROWDIR/build"
if (cd "$B" && "$SRC/Configure" >configure.log 2>&1 &&
    make -j"${NO_CYCLES_JOBS:-2}" all tools >build.log 2>&1); then
    # the optional programs (dudect; the fuzz replay drivers), where they build
    (cd "$B" && make -k -j"${NO_CYCLES_JOBS:-2}" dudect fuzz-replay >>build.log 2>&1) || true
    mapfile -t objs < <(cd "$B" && find obj -name '*.o' | sort)
    out=$(cd "$B" && perl "$SRC/tools/call-cycles.pl" "${objs[@]}")
    echo "$out" | sed 's/^/     /'
    if (cd "$B" && perl "$SRC/tools/call-cycles.pl" "${objs[@]}" >/dev/null); then
        ok "no cycle among the ${#objs[@]} objects of the native build"
    else
        bad "a cycle among the objects of the native build (above)"
    fi
else
    bad "native build failed (see $B/configure.log, $B/build.log)"
fi

# Self-check: planted objects.
S="$ROWDIR/self"
cat >"$S/a.c" <<'EOF'
int b(int);
int a(int x) { return x > 0 ? b(x - 1) : 0; }
EOF
cat >"$S/b.c" <<'EOF'
int a(int);
int b(int x) { return x > 0 ? a(x - 1) : 1; }
EOF
cat >"$S/c.c" <<'EOF'
int d(int);
int c(int x) { return d(x) + 1; }
EOF
cat >"$S/d.c" <<'EOF'
int e(int);
int d(int x) { return e(x) * 2; }
EOF
cat >"$S/e.c" <<'EOF'
int e(int x) { return x; }
EOF
for f in a b c d e; do cc -c -o "$S/$f.o" "$S/$f.c" || bad "self-check: cc $f.c"; done
if out=$(perl "$SRC/tools/call-cycles.pl" "$S/a.o" "$S/b.o" "$S/c.o"); then
    bad "self-check: a.o <-> b.o not reported"
elif grep -q "^cycle: $S/a.o $S/b.o\$" <<<"$out"; then
    ok "self-check: two objects calling each other are a cycle"
else
    bad "self-check: wrong report for a.o <-> b.o: $out"
fi
if perl "$SRC/tools/call-cycles.pl" "$S/c.o" "$S/d.o" "$S/e.o" >/dev/null; then
    ok "self-check: a chain c -> d -> e is not a cycle"
else
    bad "self-check: the chain c -> d -> e reported as a cycle"
fi
echo "total: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
