# test/lib/opts.sh - the option loop of the shell tools, written once
# (test/matrix.sh, test/icount-gate.sh, tools/perf-all.sh source it).
#
#   opts_parse SPEC... -- "$@"
#
# Each SPEC word declares one option:
#   NAME=VAR        a flag: sets VAR=1
#   NAME=VAR=VALUE  a flag: sets VAR=VALUE
#   NAME:VAR        takes a value: "NAME V"; a two-character NAME such as
#                   -j also takes it attached, "-jV"
# -h and --help print the calling script's header comment (from line 2
# to the first line that is not a comment) and exit 0.  Any other
# argument that starts with "-" is an error: "SCRIPT: unknown option X
# (see --help)" on stderr, exit 2.  The other arguments are left in the
# array OPTS_ARGS, in their order.  bash only (printf -v, arrays).

opts_die() { echo "${0##*/}: $*" >&2; exit 2; }

opts_help() { sed -n '2,/^[^#]/{/^[^#]/d;s/^# \{0,1\}//;p}' "$0"; }

# opts_set ARG NEXT: match ARG (and its value NEXT) against OPTS_SPEC;
# OPTS_USED = how many arguments it took, 0 if no SPEC matches.
opts_set() {
    local arg=$1 s name var val
    OPTS_USED=0
    for s in "${OPTS_SPEC[@]}"; do
        case "$s" in
            *:*)
                name=${s%%:*}; var=${s#*:}
                if [ "$arg" = "$name" ]; then
                    [ $# -ge 2 ] || opts_die "option $arg needs a value"
                    printf -v "$var" '%s' "$2"; OPTS_USED=2; return
                elif [ ${#name} -eq 2 ] && [ "${arg#"$name"}" != "$arg" ]; then
                    printf -v "$var" '%s' "${arg#"$name"}"; OPTS_USED=1; return
                fi ;;
            *)
                name=${s%%=*}; var=${s#*=}; val=1
                case "$var" in *=*) val=${var#*=}; var=${var%%=*} ;; esac
                if [ "$arg" = "$name" ]; then
                    printf -v "$var" '%s' "$val"; OPTS_USED=1; return
                fi ;;
        esac
    done
}

opts_parse() {
    OPTS_SPEC=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do OPTS_SPEC+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    OPTS_ARGS=()
    while [ $# -gt 0 ]; do
        case "$1" in
            -h|--help) opts_help; exit 0 ;;
            -*)        opts_set "$@"
                       [ "$OPTS_USED" -gt 0 ] || opts_die "unknown option $1 (see --help)"
                       shift "$OPTS_USED" ;;
            *)         OPTS_ARGS+=("$1"); shift ;;
        esac
    done
}
