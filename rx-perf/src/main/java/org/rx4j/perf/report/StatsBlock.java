// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders an endpoint's counters for {@code rxperf -D} as a readable block: a title line, then names without a
 * group, then one indented section per group (the part of a name before its first dot), names sorted.
 */
public final class StatsBlock {
    private StatsBlock() {
    }

    /**
     * Renders the block.
     *
     * @param title e.g. {@code client}
     * @param stats counter name to value, dotted names grouped by their first segment
     * @return lines without terminators, e.g. {@code Rx statistics (client):}, {@code   packetsSent},
     *     {@code     data                                         700}
     */
    public static List<String> render(String title, Map<String, Long> stats) {
        List<String> lines = new ArrayList<>();
        if (stats.isEmpty()) {
            lines.add("Rx statistics (" + title + "): none reported");
            return lines;
        }
        lines.add("Rx statistics (" + title + "):");
        Map<String, Map<String, Long>> groups = new TreeMap<>();
        Map<String, Long> ungrouped = new TreeMap<>();
        for (Map.Entry<String, Long> entry : stats.entrySet()) {
            String name = entry.getKey();
            int dot = name.indexOf('.');
            if (dot <= 0 || dot == name.length() - 1) {
                ungrouped.put(name, entry.getValue());
            } else {
                groups.computeIfAbsent(name.substring(0, dot), g -> new TreeMap<>())
                        .put(name.substring(dot + 1), entry.getValue());
            }
        }
        ungrouped.forEach((name, value) -> lines.add(entry("  ", 32, name, value)));
        groups.forEach((group, entries) -> {
            lines.add("  " + group);
            entries.forEach((name, value) -> lines.add(entry("    ", 30, name, value)));
        });
        return lines;
    }

    /** One {@code name value} line; the name column is padded so that all values end in the same column. */
    private static String entry(String indent, int nameWidth, String name, long value) {
        return String.format(Locale.ROOT, "%s%-" + nameWidth + "s %14d", indent, name, value);
    }
}
