// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.output;

/**
 * Paces replies rx4j sends unasked-for (ABORTs to a failed call's packets, raw ABORTs to unknown traffic): the first
 * {@code burst} go at once, then one per {@code intervalNs}. Virtual scheduling (the generic cell rate algorithm of
 * ITU-T I.371, a token bucket of depth {@code burst}): {@code dueNs} is when the next reply would be due if every
 * allowed one had been spaced out. Engine thread only; times are ns on the engine's clock.
 */
public final class BurstPacer {
    private final int burst;
    private final long intervalNs;
    /** When the next reply is due, ns; valid once {@link #started}. */
    private long dueNs;
    private boolean started;

    /**
     * @param burst replies allowed at once, &gt;= 1
     * @param intervalNs spacing of replies past the burst, ns, &gt; 0
     */
    public BurstPacer(int burst, long intervalNs) {
        this.burst = burst;
        this.intervalNs = intervalNs;
    }

    /**
     * @param now current time, ns
     * @return true when a reply may go now (it is counted against the burst); false when it must be left unsent
     */
    public boolean allow(long now) {
        if (!started || dueNs - now < 0) {
            started = true;
            dueNs = now;
        }
        if (dueNs - now >= burst * intervalNs) {
            return false;
        }
        dueNs += intervalNs;
        return true;
    }
}
