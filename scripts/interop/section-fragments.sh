# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section fragments: rx4j <-> rx4j through a veth pair of network namespaces at MTU 1500 and
# 9000 (scripts/netns/fragments.sh): the kernel's IP counters (nstat) must show no fragment for rx4j's defaults;
# --fragment-jumbograms (OpenAFS's habit) is printed as the control. And what OpenAFS's sender sends rx4j's receiver
# (scripts/netns/openafs-packets.sh): single packets of its natMTU at MTU 9000, jumbograms on loopback. Sourced by
# scripts/interop.sh; uses common.sh.

section_fragments() {
    check "rx4j: no IP fragments through a veth pair at MTU 1500 and 9000 (nstat; 10 MiB send and recv each)" 300 \
        env FRAG_BYTES=10485760 "$ROOT/scripts/netns/fragments.sh" 1500 9000
    check "OpenAFS -> rx4j: single packets of OpenAFS's natMTU at MTU 9000, jumbograms on loopback (-D counts)" 120 \
        env OAP_BYTES=10485760 "$ROOT/scripts/netns/openafs-packets.sh"
}
