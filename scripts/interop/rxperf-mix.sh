#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# The rxperf workload used for capture comparisons: the same mix for every client.
#
#   rxperf-mix.sh PORT CLIENT [ARGS...]
#
# CLIENT ARGS is an rxperf client command without its -c/-b/-T flags, e.g.
#   rxperf-mix.sh 7009 scripts/interop/build/rxperf-peer client -s 127.0.0.1 -p 7009
# Runs SEND 1 MiB x3, RECV 1 MiB x3, RPC 4/30 x50, SEND 100000 x3 without jumbograms, then
# rxdebug -version, -rxstats -noconns and -peers -long against the server on 127.0.0.1:PORT.
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 PORT CLIENT [ARGS...]" >&2; exit 2; }
port=$1; shift
"$@" -c send -b 1048576 -T 3
"$@" -c recv -b 1048576 -T 3
"$@" -c rpc -S 4 -R 30 -T 50
"$@" -c send -b 100000 -T 3 -j
rxdebug 127.0.0.1 "$port" -version > /dev/null
rxdebug 127.0.0.1 "$port" -rxstats -noconns > /dev/null
rxdebug 127.0.0.1 "$port" -peers -long > /dev/null
