// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.time.Duration;
import java.util.function.Consumer;

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

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        long softAckDelayNs;
        long hardAckDelayNs;
        long lastAckDelayNs;

        Draft(AckDelays from) {
            softAckDelayNs = from.softAckDelayNs;
            hardAckDelayNs = from.hardAckDelayNs;
            lastAckDelayNs = from.lastAckDelayNs;
        }

        AckDelays build() {
            return new AckDelays(softAckDelayNs, hardAckDelayNs, lastAckDelayNs);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    AckDelays with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
