// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the kernel's per-socket receive-drop counters (the {@code drops} column of Linux's {@code /proc/net/udp}
 * and {@code /proc/net/udp6}, see proc(5)): datagrams the kernel discarded because a relay socket's receive
 * buffer was full — the relay fell behind before it could see them. Elsewhere it reports nothing.
 */
final class UdpDropProbe {
    private static final List<Path> FILES = List.of(Path.of("/proc/net/udp"), Path.of("/proc/net/udp6"));
    private boolean available = true;

    /**
     * @return drops per local UDP port, summed over the sockets bound to it (empty when unavailable)
     */
    Map<Integer, Long> dropsByPort() {
        Map<Integer, Long> drops = new HashMap<>();
        if (!available) {
            return drops;
        }
        boolean any = false;
        for (Path file : FILES) {
            List<String> lines;
            try {
                lines = Files.readAllLines(file);
            } catch (IOException | SecurityException e) {
                continue;
            }
            any = true;
            for (int i = 1; i < lines.size(); i++) {
                parse(lines.get(i), drops);
            }
        }
        available = any;
        return drops;
    }

    /**
     * @param line a socket line: {@code sl local rem st tx:rx tr:when retrnsmt uid timeout inode ref ptr drops}
     * @param drops where to add its drops, by local port
     */
    static void parse(String line, Map<Integer, Long> drops) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 13) {
            return;
        }
        int colon = f[1].lastIndexOf(':');
        if (colon < 0) {
            return;
        }
        try {
            int port = Integer.parseInt(f[1].substring(colon + 1), 16);
            long n = Long.parseLong(f[12]);
            drops.merge(port, n, Long::sum);
        } catch (NumberFormatException e) {
            // a line in an unknown format: skip it
        }
    }
}
