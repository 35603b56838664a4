// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.util.function.Consumer;

/**
 * When the receiver of a call acks: how many new or consumed packets it lets pass before an ACK (docs/engine.md
 * "Receiver ACK policy"; OpenAFS's rates, rx-wire-facts.md §8 "Timers and reliability"). How long it may wait
 * before an ACK it owes is {@link AckDelays}.
 *
 * @param hardAckOnly true in hard-ACK-only mode: no soft (IDLE) acks on arrival (default false)
 * @param hardAckInterval in hard-ACK-only mode, consumed packets between hard acks, 1..255 (default 8)
 * @param softAckRate default mode: an IDLE ack after more than this many new packets, 0..255 (rxi_SoftAckRate 1)
 * @param hardAckRate default mode: an immediate DELAY ack after more than this many consumed packets, 0..255
 *     (rxi_HardAckRate 2)
 * @param ackRate default mode: new packets, and consumed packets, the receiver lets pass within one burst of the
 *     sender before it acks them at once, 1..255 (default 8; OpenAFS acks every 2nd new and 3rd consumed packet,
 *     which any value &lt;= 2 reproduces). A datagram without MORE_PACKETS (the end of the sender's burst: it now
 *     waits for acks) is still acked at once after {@code softAckRate} new or {@code hardAckRate} consumed packets,
 *     and REQUEST_ACK, holes, duplicates and the delayed-ack timers are unchanged (docs/engine.md, "Receiver ACK
 *     policy"); at most half of {@link Windows#maxRwind()} is used, so a window-limited sender always has acks coming
 */
public record AckPolicy(boolean hardAckOnly, int hardAckInterval, int softAckRate, int hardAckRate, int ackRate) {
    /** OpenAFS's rates at a burst's end, an ACK every 8 packets inside a burst; soft acks on. */
    public static final AckPolicy DEFAULTS = new AckPolicy(false, 8, 1, 2, 8);

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public AckPolicy {
        SettingCheck.range("hardAckInterval", hardAckInterval, 1, 255);
        SettingCheck.range("softAckRate", softAckRate, 0, 255);
        SettingCheck.range("hardAckRate", hardAckRate, 0, 255);
        SettingCheck.range("ackRate", ackRate, 1, 255);
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        boolean hardAckOnly;
        int hardAckInterval;
        int softAckRate;
        int hardAckRate;
        int ackRate;

        Draft(AckPolicy from) {
            hardAckOnly = from.hardAckOnly;
            hardAckInterval = from.hardAckInterval;
            softAckRate = from.softAckRate;
            hardAckRate = from.hardAckRate;
            ackRate = from.ackRate;
        }

        AckPolicy build() {
            return new AckPolicy(hardAckOnly, hardAckInterval, softAckRate, hardAckRate, ackRate);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    AckPolicy with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
