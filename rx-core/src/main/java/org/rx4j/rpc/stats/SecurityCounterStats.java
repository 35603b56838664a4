// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import java.util.Map;

/**
 * An endpoint's counts of security-class work, as a read-only snapshot (docs/security.md "In the engine"): the
 * CHALLENGE/RESPONSE handshakes and the DATA a security class refused. All zero on an endpoint that only speaks
 * rxnull. Counts since the endpoint was opened.
 *
 * @param challengesSent CHALLENGE packets this endpoint sent as a server, resends included
 * @param challengesIgnored CHALLENGEs this endpoint did not answer as a client (rxnull or failed connection, or over
 *     the rate limit)
 * @param responsesSent RESPONSE packets this endpoint sent as a client
 * @param responsesIgnored RESPONSEs ignored as a server (none challenged for, already authenticated, or given up)
 * @param responsesRefused RESPONSEs the security class refused (each aborted its connection)
 * @param handshakesAbandoned server connections given up after the most CHALLENGEs went unanswered
 * @param packetsRefused DATA packets refused: a failed check (the connection aborted), or none parked before
 *     authentication
 */
public record SecurityCounterStats(long challengesSent, long challengesIgnored, long responsesSent,
                                   long responsesIgnored, long responsesRefused, long handshakesAbandoned,
                                   long packetsRefused) {
    /** No security work at all. */
    public static final SecurityCounterStats NONE = new SecurityCounterStats(0, 0, 0, 0, 0, 0, 0);

    /** @return whether every count is zero (an rxnull-only endpoint) */
    public boolean isZero() {
        return equals(NONE);
    }

    /**
     * Adds the counts under {@code security.NAME} (NAME: each component's name, in declaration order), or nothing
     * when every count is zero, so rxnull endpoints' flattened stats stay as they were.
     *
     * @param into the flattened stats to extend
     */
    void putInto(Map<String, Long> into) {
        if (isZero()) {
            return;
        }
        into.put("security.challengesSent", challengesSent);
        into.put("security.challengesIgnored", challengesIgnored);
        into.put("security.responsesSent", responsesSent);
        into.put("security.responsesIgnored", responsesIgnored);
        into.put("security.responsesRefused", responsesRefused);
        into.put("security.handshakesAbandoned", handshakesAbandoned);
        into.put("security.packetsRefused", packetsRefused);
    }
}
