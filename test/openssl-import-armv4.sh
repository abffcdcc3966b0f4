#!/bin/sh
# test/openssl-import-armv4.sh - the openssl-import-armv4 matrix row: OpenSSL 3
# with our armv4 modules imported, cross-built and tested under qemu-user
# (test/openssl-import-cross.sh has the steps).
exec sh "$(dirname "$0")/openssl-import-cross.sh" armv4 "$@"
