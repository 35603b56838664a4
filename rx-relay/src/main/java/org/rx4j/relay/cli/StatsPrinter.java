// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.cli;

import java.util.Locale;
import org.rx4j.relay.RelayStats;
import org.rx4j.relay.core.DirectionStats;

/**
 * Formats the periodic stats line: per direction, datagrams and Mbit/s in and out over the interval, drops and
 * late releases over the interval.
 */
final class StatsPrinter {
    private final long startNs;
    private RelayStats previous;
    private long previousNs;

    /**
     * @param first the counters at the start
     * @param startNs when the run started, ns (System.nanoTime)
     */
    StatsPrinter(RelayStats first, long startNs) {
        this.previous = first;
        this.startNs = startNs;
        this.previousNs = startNs;
    }

    /**
     * @param now the counters now
     * @param nowNs the time, ns
     * @return e.g. {@code [   5.0 s] up in 4100 dg 590.4 Mbit/s out 4100 dg 590.4 Mbit/s drop 0 late 0 | down ...}
     */
    String line(RelayStats now, long nowNs) {
        double seconds = Math.max(1e-9, (nowNs - previousNs) / 1e9);
        String line = String.format(Locale.ROOT, "[%6.1f s] %s | %s | flows %d", (nowNs - startNs) / 1e9,
                direction(previous.upstream(), now.upstream(), seconds),
                direction(previous.downstream(), now.downstream(), seconds), now.flows());
        previous = now;
        previousNs = nowNs;
        return line;
    }

    private static String direction(DirectionStats a, DirectionStats b, double seconds) {
        return String.format(Locale.ROOT, "%s in %d dg %.1f Mbit/s out %d dg %.1f Mbit/s drop %d late %d",
                b.direction().label(), b.inDatagrams() - a.inDatagrams(),
                (b.inBytes() - a.inBytes()) * 8 / seconds / 1e6, b.outDatagrams() - a.outDatagrams(),
                (b.outBytes() - a.outBytes()) * 8 / seconds / 1e6, b.droppedTotal() - a.droppedTotal(),
                b.late() - a.late());
    }
}
