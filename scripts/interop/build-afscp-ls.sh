#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Builds scripts/interop/afscp-ls.c (a directory lister on OpenAFS's libafscp, the reference rx4j's directory
# reader is compared with) against Debian's libopenafs-dev static libraries.
#
#   scripts/interop/build-afscp-ls.sh OUTPUT
set -euo pipefail
out=${1:?usage: build-afscp-ls.sh OUTPUT}
src=$(cd "$(dirname "$0")" && pwd)/afscp-ls.c
stub=$(mktemp -d /tmp/rx4j-afscp.XXXXXX)
trap 'rm -rf "$stub"' EXIT
# Debian installs no afsconfig.h/roken.h; the installed headers need only these two macros
printf '#define AFS_NORETURN __attribute__((__noreturn__))\n#define AFS_NONNULL(x) __attribute__((__nonnull__ x))\n' \
    > "$stub/afsconfig.h"
: > "$stub/roken.h"
lib=/lib/$(gcc -print-multiarch)
gcc -O1 -Wall -D_REENTRANT -DAFS_PTHREAD_ENV -I"$stub" -o "$out" "$src" -L/usr/lib -L/usr/lib/afs \
    -Wl,--start-group -lafscp -lafsauthent -lafsrpc -lvldb -lafsint -lubik -lafsutil -lopr -lauth -lrxkad -lcmd \
    -lsys -lacl -lprot -Wl,--end-group "$lib/libhcrypto.so.5" "$lib/libroken.so.19" "$lib/libkrb5.so.3" \
    "$lib/libcom_err.so.2" -lpthread
