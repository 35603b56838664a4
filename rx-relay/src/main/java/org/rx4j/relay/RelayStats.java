// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import org.rx4j.relay.core.DirectionStats;

/**
 * A snapshot of a relay's counters.
 *
 * @param upstream client → target counters
 * @param downstream target → client counters
 * @param flows client addresses currently served (each with its own upstream socket)
 * @param warnings falling-behind warning lines printed so far
 */
public record RelayStats(DirectionStats upstream, DirectionStats downstream, int flows, long warnings) {
    /** @return true when the relay released some datagram late or dropped one for its own reasons */
    public boolean fellBehind() {
        return upstream.late() + downstream.late() + upstream.droppedByRelay() + downstream.droppedByRelay() != 0;
    }

    /** @return two lines, {@code up: ...} and {@code down: ...}, plus the flow and warning counts */
    @Override
    public String toString() {
        return upstream + "\n" + downstream + "\nflows " + flows + ", falling-behind warnings " + warnings;
    }
}
