// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Bounds of the retransmission timeout computed from RTT samples (RFC 6298; OpenAFS 1.8's values, rx-wire-facts.md
 * §8 "Timers and reliability"). All times are nanoseconds.
 *
 * @param initialRttNs RTT assumed before the first sample, ns, &gt;= 0 (OpenAFS: 3 s for remote and loopback peers)
 * @param minRtoNs floor of srtt + 4·rttvar, ns, &gt;= 0 (rx_minPeerTimeout 20 ms; rxperf -P)
 * @param rtoSlackNs slack added to every RTO for the peer's delayed ack, ns, &gt;= 0 (OpenAFS 200 ms)
 * @param maxRtoNs cap of the backed-off RTO, ns, &gt;= 0 (60 s)
 */
public record RetransmitTimeout(long initialRttNs, long minRtoNs, long rtoSlackNs, long maxRtoNs) {
    /** OpenAFS 1.8's values: RTT 3 s until measured, RTO at least 20 ms plus 200 ms slack, at most 60 s. */
    public static final RetransmitTimeout DEFAULTS = new RetransmitTimeout(Duration.ofSeconds(3).toNanos(),
            Duration.ofMillis(20).toNanos(), Duration.ofMillis(200).toNanos(), Duration.ofSeconds(60).toNanos());

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public RetransmitTimeout {
        SettingCheck.nonNegative("initialRtt", initialRttNs);
        SettingCheck.nonNegative("minRto", minRtoNs);
        SettingCheck.nonNegative("rtoSlack", rtoSlackNs);
        SettingCheck.nonNegative("maxRto", maxRtoNs);
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        long initialRttNs;
        long minRtoNs;
        long rtoSlackNs;
        long maxRtoNs;

        Draft(RetransmitTimeout from) {
            initialRttNs = from.initialRttNs;
            minRtoNs = from.minRtoNs;
            rtoSlackNs = from.rtoSlackNs;
            maxRtoNs = from.maxRtoNs;
        }

        RetransmitTimeout build() {
            return new RetransmitTimeout(initialRttNs, minRtoNs, rtoSlackNs, maxRtoNs);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    RetransmitTimeout with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
