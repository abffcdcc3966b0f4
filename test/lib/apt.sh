# test/lib/apt.sh - sourced by .ci/run and test/matrix.sh (as root).
#
# apt_update WHO: `apt-get update`, retried.  It exits 100 when any one
# index fails to download, even when the others are fresh ("File has
# unexpected size ... Mirror sync in progress?", seen on the armhf
# security index at the start of stop 25).  Three tries, 10 and 20 s
# apart, then go on with what was fetched: the installs after it fail
# loudly if a package the tests need is really missing.  WHO prefixes
# the messages.
apt_update() {
    local who=$1 i
    for i in 1 2 3; do
        apt-get update -qq >/dev/null && return 0
        echo "$who: apt-get update failed (try $i of 3)"
        [ $i -lt 3 ] && sleep $((10 * i))
    done
    echo "$who: apt-get update still failing; going on with the indexes fetched"
    return 0
}
