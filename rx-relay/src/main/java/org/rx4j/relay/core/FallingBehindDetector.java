// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides when the relay must say it is falling behind: some datagram was released later than the lateness
 * threshold after its due time, or dropped for one of the relay's own reasons ({@link DropReason#isRelayOwn()}).
 * Fed counter snapshots (about once a second); returns at most one warning line per {@code minIntervalNs}, covering
 * everything since the previous line, so a run through the relay is never silently relay-bound. Sans-I/O.
 */
public final class FallingBehindDetector {
    private final long minIntervalNs;
    private final long lateThresholdNs;
    private final long[] lastLate = new long[Direction.values().length];
    private final long[] lastRelayDrops = new long[Direction.values().length];
    private long lastWarningNs;
    private boolean warned;
    private long warnings;

    /**
     * @param minIntervalNs least time between two warning lines, ns
     * @param lateThresholdNs the lateness threshold the counters use, ns (only quoted in the line)
     */
    public FallingBehindDetector(long minIntervalNs, long lateThresholdNs) {
        this.minIntervalNs = minIntervalNs;
        this.lateThresholdNs = lateThresholdNs;
    }

    /**
     * Compares the counters with those of the last warning.
     *
     * @param nowNs the time, ns
     * @param directions the snapshots of both directions
     * @return a warning line (starting {@code relay: falling behind:}), or null when there is nothing new or the
     *         last line was less than {@code minIntervalNs} ago
     */
    public String check(long nowNs, DirectionStats... directions) {
        if (warned && nowNs - lastWarningNs < minIntervalNs) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (DirectionStats d : directions) {
            int i = d.direction().ordinal();
            long late = d.late() - lastLate[i];
            long drops = d.droppedByRelay() - lastRelayDrops[i];
            if (late == 0 && drops == 0) {
                continue;
            }
            StringBuilder sb = new StringBuilder(d.direction().label()).append(' ');
            if (late != 0) {
                sb.append(late).append(" datagrams released > ").append(Impairment.ms(lateThresholdNs))
                        .append(" ms late (max so far ").append(Impairment.ms(d.maxLateNs())).append(" ms)");
            }
            if (drops != 0) {
                if (late != 0) {
                    sb.append(", ");
                }
                sb.append(drops).append(" dropped by the relay (");
                List<String> reasons = new ArrayList<>();
                for (DropReason r : DropReason.values()) {
                    if (r.isRelayOwn() && d.dropped(r) != 0) {
                        reasons.add(r.label() + " " + d.dropped(r));
                    }
                }
                sb.append(String.join(", ", reasons)).append(" so far)");
            }
            parts.add(sb.toString());
            lastLate[i] = d.late();
            lastRelayDrops[i] = d.droppedByRelay();
        }
        if (parts.isEmpty()) {
            return null;
        }
        warned = true;
        lastWarningNs = nowNs;
        warnings++;
        return "relay: falling behind: " + String.join("; ", parts)
                + " — results through this relay are partly relay-bound";
    }

    /** @return warning lines returned so far */
    public long warnings() {
        return warnings;
    }
}
