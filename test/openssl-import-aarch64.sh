#!/bin/sh
# test/openssl-import-aarch64.sh - the openssl-import-aarch64 matrix row: OpenSSL 3
# with our aarch64 modules imported, cross-built and tested under qemu-user
# (test/openssl-import-cross.sh has the steps).
exec sh "$(dirname "$0")/openssl-import-cross.sh" aarch64 "$@"
