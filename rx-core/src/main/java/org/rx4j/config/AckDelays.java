// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.time.Duration;

/**
 * How long a receiver may hold back an ACK it owes, hoping to combine it with the next one (OpenAFS 1.8's delayed-ack
 * timers, rx-wire-facts.md §8 "Timers and reliability"). Which packets make an ACK owed is {@link AckPolicy}.
 *
 * @param softAckDelayNs delay before a soft ack is sent on its own, ns, &gt;= 0 (rx_softAckDelay 100 ms)
 * @param hardAckDelayNs delay before a hard ack is sent on its own, ns, &gt;= 0 (rx_hardAckDelay 100 ms)
 * @param lastAckDelayNs delay before a client acks the last reply packet, ns, &gt;= 0 (rx_lastAckDelay 400 ms)
 */
public record AckDelays(long softAckDelayNs, long hardAckDelayNs, long lastAckDelayNs) {
    /** OpenAFS 1.8's delays: 100 ms for soft and hard acks, 400 ms for the last reply packet. */
    public static final AckDelays DEFAULTS = new AckDelays(Duration.ofMillis(100).toNanos(),
            Duration.ofMillis(100).toNanos(), Duration.ofMillis(400).toNanos());

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public AckDelays {
        SettingCheck.nonNegative("softAckDelay", softAckDelayNs);
        SettingCheck.nonNegative("hardAckDelay", hardAckDelayNs);
        SettingCheck.nonNegative("lastAckDelay", lastAckDelayNs);
    }
}
