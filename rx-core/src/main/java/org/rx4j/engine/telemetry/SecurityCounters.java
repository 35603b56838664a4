// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.telemetry;

/**
 * The endpoint's counts of security-class work (docs/security.md "In the engine"): CHALLENGEs and RESPONSEs, and
 * DATA the class refused or the handshake could not park. Kept apart from {@link RxCounters} (per connection and
 * peer; these are per endpoint only). Written only by the engine's thread; read there (tests, the endpoint's stats).
 */
public final class SecurityCounters {
    public long challengesSent;
    public long challengesIgnored;
    public long responsesSent;
    public long responsesIgnored;
    public long responsesRefused;
    public long handshakesAbandoned;
    public long packetsRefused;

    public SecurityCounters() {
    }

    /** @return CHALLENGE packets this server sent, resends included */
    public long challengesSent() {
        return challengesSent;
    }

    /** @return CHALLENGEs this client did not answer (rxnull connection, failed connection, over the rate limit) */
    public long challengesIgnored() {
        return challengesIgnored;
    }

    /** @return RESPONSE packets this client sent */
    public long responsesSent() {
        return responsesSent;
    }

    /** @return RESPONSEs this server ignored (none challenged for, already authenticated, or given up) */
    public long responsesIgnored() {
        return responsesIgnored;
    }

    /** @return RESPONSEs the security class refused (each aborted its connection) */
    public long responsesRefused() {
        return responsesRefused;
    }

    /** @return server connections that gave up after the most CHALLENGEs went unanswered */
    public long handshakesAbandoned() {
        return handshakesAbandoned;
    }

    /** @return DATA packets refused: a failed check (the connection aborted), or none parked before authentication */
    public long packetsRefused() {
        return packetsRefused;
    }
}
