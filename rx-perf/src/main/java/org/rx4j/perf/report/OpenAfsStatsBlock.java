// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The part of an endpoint's counters that OpenAFS's rxperf {@code -D} prints, in the layout of its {@code rx stats:}
 * block (what OpenAFS 1.8's {@code rx_PrintStats} writes, docs/rxperf.md "-D statistics"), so that a script reading
 * OpenAFS's lines reads rx4j's: {@code packets read:} and {@code packets sent:} by type, the read and send counters,
 * the RTT lines and the connection line. Lines whose counters rx4j does not keep (the packet pool's free packets and
 * allocations, greedy/bogus reads, selects, the per-peer list) are left out rather than printed as zeros.
 */
public final class OpenAfsStatsBlock {
    /** OpenAFS's names of packet types 1..13, in its order (types 10..12 are unused there). */
    private static final String[] TYPES = {"data", "ack", "busy", "abort", "ackall", "challenge", "response",
        "debug", "params", "unused", "unused", "unused", "version"};

    private OpenAfsStatsBlock() {
    }

    /**
     * Renders the block.
     *
     * @param stats counter name to value, as {@code RxEndpoint.stats()} flattens them ({@code packetsSent.DATA},
     *     {@code dataPacketsSent}, {@code rttSamples}, ...); missing counters read as 0
     * @return lines without terminators, the first {@code rx stats:}
     */
    public static List<String> render(Map<String, Long> stats) {
        List<String> lines = new ArrayList<>();
        lines.add("rx stats:");
        lines.add("   packets read: " + byType(stats, "packetsReceived."));
        lines.add(String.format(Locale.ROOT, "   other read counters: data %d, ack %d, dup %d",
                get(stats, "dataPacketsReceived"), get(stats, "packetsReceived.ACK"),
                get(stats, "duplicatesReceived")));
        lines.add("   packets sent: " + byType(stats, "packetsSent."));
        long resends = get(stats, "resends");
        lines.add(String.format(Locale.ROOT, "   other send counters: ack %d, data %d (not resends), resends %d",
                get(stats, "packetsSent.ACK"), get(stats, "dataPacketsSent") - resends, resends));
        lines.add(String.format(Locale.ROOT, "   \t(these should be small) sendFailed %d",
                get(stats, "sendFailures")));
        lines.add(String.format(Locale.ROOT, "   Average rtt is %.3f, with %d samples",
                get(stats, "rttMeanUs") / 1e6, get(stats, "rttSamples")));
        lines.add(String.format(Locale.ROOT, "   Minimum rtt is %.3f, maximum is %.3f",
                get(stats, "rttMinUs") / 1e6, get(stats, "rttMaxUs") / 1e6));
        lines.add(String.format(Locale.ROOT, "   %d connections, %d peer structs", get(stats, "connections"),
                get(stats, "peers")));
        return lines;
    }

    /** One {@code data N ack N ...} run over OpenAFS's 13 types; rx4j counts types 9..11 together as params. */
    private static String byType(Map<String, Long> stats, String prefix) {
        StringBuilder sb = new StringBuilder();
        for (int type = 1; type <= TYPES.length; type++) {
            String key = switch (type) {
                case 9 -> "PARAMS";
                case 10, 11 -> null;
                case 12 -> "type12";
                default -> TYPES[type - 1].toUpperCase(Locale.ROOT);
            };
            sb.append(TYPES[type - 1]).append(' ').append(key == null ? 0 : get(stats, prefix + key)).append(' ');
        }
        return sb.toString();
    }

    private static long get(Map<String, Long> stats, String key) {
        return stats.getOrDefault(key, 0L);
    }
}
