# test/openssl/import-lib.sh - the steps the openssl-import rows share,
# sourced (POSIX sh) by test/openssl-import.sh (x86_64, native) and
# test/openssl-import-cross.sh (aarch64, armv4, mips32 under qemu-user).
#
# Before sourcing, set:
#   SRC      the asmcrypt source tree
#   ROW      the row's folder (absolute)
#   NAME     the row's name for the messages ("openssl-import-aarch64")
#   CAPVAR   the capability variable of OpenSSL's recipes and the
#            differential program (OPENSSL_ia32cap, OPENSSL_armcap)
#   LEVELS   one line per level, "name:value"; an empty value leaves
#            CAPVAR unset (OpenSSL's own probe)
# The row's stock and imported OpenSSL trees are $ROW/stock and
# $ROW/imported.  Counts: PASS, FAIL, SKIP; ok/bad count and print one
# line, finish prints the last line ("total: N passed, N failed") and
# exits.

PASS=0 FAIL=0 SKIP=0
ok()   { PASS=$((PASS + 1)); echo "  ok    $*"; }
bad()  { FAIL=$((FAIL + 1)); echo "  FAIL  $*"; }
finish() {
    [ "$SKIP" -eq 0 ] || echo "$NAME: $SKIP part(s) skipped (NOTE lines above)"
    echo "total: $PASS passed, $FAIL failed"
    [ $FAIL -eq 0 ]
    exit $?
}
T0=$(date +%s)
stamp() { echo "  [$(( $(date +%s) - T0 ))s] $*"; }

# import_fetch DIR: Debian's OpenSSL source under DIR (apt-get source);
# prints its path
import_fetch() {
    mkdir -p "$1" && cd "$1" || return 1
    have() { for d in openssl-3.*/; do [ -f "$d/Configure" ] && { echo "$PWD/${d%/}"; return 0; }; done; return 1; }
    have && return 0
    # apt-get source may fail part way (a security update whose .dsc is
    # not on the mirror yet): then try the other versions apt knows, and
    # last unpack an upstream tarball that did arrive.
    apt-get source -qq openssl >&2 2>&1 || true
    have && return 0
    for v in $(apt-cache showsrc openssl 2>/dev/null | awk '/^Version:/ {print $2}'); do
        apt-get source -qq "openssl=$v" >&2 2>&1 || true
        have && return 0
    done
    for t in openssl_3.*.orig.tar.gz; do
        [ -f "$t" ] && tar xzf "$t" && have && return 0
    done
    echo "openssl-import: could not get OpenSSL's source (deb-src entry missing?)" >&2
    return 1
}

# import_source: OSRC = $OPENSSL_SRC, or fetched under $ROW/src; finishes
# the row when there is no OpenSSL tree
import_source() {
    OSRC=${OPENSSL_SRC:-}
    if [ -z "$OSRC" ]; then
        OSRC=$(import_fetch "$ROW/src") || { bad "get OpenSSL's source"; finish; }
    fi
    [ -f "$OSRC/Configure" ] || { bad "OPENSSL_SRC=$OSRC is no OpenSSL tree"; finish; }
    OSRC=$(cd "$OSRC" && pwd)
    OVERSION=$(sed -n 's/^MAJOR=//p;s/^MINOR=//p;s/^PATCH=//p' "$OSRC/VERSION.dat" | paste -sd.)
}

# import_checks ARCH [OPTION...]: tools/import-openssl.sh OPTION...
# $ROW/imported ARCH must succeed, change build.info files only (plus our
# asmcrypt/), and give the same build.info files when run again
import_checks() {
    arch=$1
    shift
    if "$SRC/tools/import-openssl.sh" "$@" "$ROW/imported" "$arch" >"$ROW/import.log" 2>&1; then
        ok "tools/import-openssl.sh $* $arch ($(sed -n 's/.*modules (\(.*\)) now come.*/\1/p' "$ROW/import.log"))"
    else
        bad "tools/import-openssl.sh: $(tail -1 "$ROW/import.log")"
        finish
    fi
    changed=$(cd "$ROW" && diff -rq "$OSRC" imported 2>&1 | grep -v -E "^Only in imported(/crypto/(bn|poly1305))?: (asmcrypt|build\.info\.asmcrypt-orig)$" \
              | grep -v -E "^Files .*/build\.info and imported/.*/build\.info differ$" || true)
    if [ -z "$changed" ]; then ok "import changed build.info files only"; else bad "import changed more than build.info: $changed"; fi
    cat "$ROW/imported/crypto/bn/build.info" "$ROW/imported/crypto/poly1305/build.info" >"$ROW/build.info.1"
    "$SRC/tools/import-openssl.sh" "$@" "$ROW/imported" "$arch" >>"$ROW/import.log" 2>&1
    cat "$ROW/imported/crypto/bn/build.info" "$ROW/imported/crypto/poly1305/build.info" >"$ROW/build.info.2"
    if cmp -s "$ROW/build.info.1" "$ROW/build.info.2"; then ok "import is idempotent"; else bad "second import differs"; fi
}

# import_members "WANT..." "GONE...": the imported libcrypto.a holds
# libcrypto-lib-W.o for each WANT (ours, and OpenSSL's that must stay)
# and no libcrypto-lib-G.o for each GONE (OpenSSL's that ours replace)
import_members() {
    members=$(ar t "$ROW/imported/libcrypto.a")
    for o in $1; do
        if echo "$members" | grep -qx "libcrypto-lib-$o.o"; then ok "libcrypto.a has libcrypto-lib-$o.o"; else bad "libcrypto.a lacks libcrypto-lib-$o.o"; fi
    done
    for o in $2; do
        if echo "$members" | grep -qx "libcrypto-lib-$o.o"; then bad "libcrypto.a still has OpenSSL's libcrypto-lib-$o.o"; else ok "libcrypto.a has no libcrypto-lib-$o.o"; fi
    done
}

# setcap VALUE: CAPVAR=VALUE, or CAPVAR unset for an empty VALUE (call in
# a subshell)
setcap() {
    if [ -n "$1" ]; then eval "$CAPVAR=\$1; export $CAPVAR"; else unset "$CAPVAR"; fi
}

# import_recipes COMMAND...: OpenSSL's recipes, COMMAND run in
# $ROW/imported at each level; the harness's summary ("Files=9,
# Tests=134, ..." and "Result: PASS"; on failure "Failed X/Y subtests"
# lines per recipe) counted per level
import_recipes() {
    echo "$LEVELS" | while IFS= read -r line; do
        name=${line%%:*} cap=${line#*:}
        log=$ROW/test-$name.log
        s=$(date +%s)
        (cd "$ROW/imported" && setcap "$cap" && "$@") >"$log" 2>&1
        total=$(sed -n 's/^Files=[0-9]*, Tests=\([0-9]*\),.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
        failed=$(sed -n 's/^Failed \([0-9]*\)\/[0-9]* subtests.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
        if grep -q '^Result: PASS' "$log" && ! grep -q '^Result: FAIL' "$log" && [ "$total" -gt 0 ]; then
            echo "R $name $total 0 $(( $(date +%s) - s ))"
        else
            [ "$failed" -gt 0 ] || failed=1
            echo "R $name $((total > failed ? total - failed : 0)) $failed $(( $(date +%s) - s ))"
        fi
    done >"$ROW/recipes.txt"
    while read -r _ name p f secs; do
        PASS=$((PASS + p)) FAIL=$((FAIL + f))
        echo "  recipes at $name: $p passed, $f failed  ($CAPVAR=$(echo "$LEVELS" | sed -n "s/^$name://p"), ${secs}s)"
        [ "$f" -eq 0 ] || grep -E '^(Failed|[0-9a-z_-]+\.+ *(Dubious|Failed))' "$ROW/test-$name.log" | head -5
    done <"$ROW/recipes.txt"
    stamp "recipes done"
}

# import_diff "CC FLAGS..." "LIBS" [RUN...]: test/openssl/diff.c built
# with CC FLAGS against both libcrypto.a (LIBS after), run by RUN (e.g.
# qemu; none: natively): the stock build writes its cases, the imported
# one compares with them at each level
import_diff() {
    cc=$1 libs=$2
    shift 2
    for b in stock imported; do
        # shellcheck disable=SC2086
        if ! $cc -std=c99 -D_DEFAULT_SOURCE -O2 -Wall -Wextra -I"$ROW/$b/include" "$SRC/test/openssl/diff.c" \
             "$ROW/$b/libcrypto.a" -ldl -pthread $libs -o "$ROW/diff-$b" 2>"$ROW/diff-$b.log"; then
            bad "build test/openssl/diff.c against $b: $(head -1 "$ROW/diff-$b.log")"
            finish
        fi
    done
    if ! "$@" "$ROW/diff-stock" 12 >"$ROW/stock.out" 2>"$ROW/stock.err"; then
        bad "differential program on the stock build: $(cat "$ROW/stock.err")"
        finish
    fi
    echo "$LEVELS" | while IFS= read -r line; do
        name=${line%%:*} cap=${line#*:}
        (setcap "$cap" && exec "$@" "$ROW/diff-imported" 12 "$ROW/stock.out") >"$ROW/diff-$name.log" 2>&1
        last=$(tail -1 "$ROW/diff-$name.log")
        p=$(echo "$last" | sed -n 's/^total: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
        f=$(echo "$last" | sed -n 's/^total: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
        [ -n "$p" ] || { p=0; f=1; }
        echo "D $name $p $f"
    done >"$ROW/diff.txt"
    while read -r _ name p f; do
        PASS=$((PASS + p)) FAIL=$((FAIL + f))
        echo "  differential at $name: $p passed, $f failed  ($(grep -m1 "^${CAPVAR}_P" "$ROW/diff-$name.log"))"
        [ "$f" -eq 0 ] || grep '^FAIL' "$ROW/diff-$name.log" | head -5
    done <"$ROW/diff.txt"
    stamp "differential done"
}
