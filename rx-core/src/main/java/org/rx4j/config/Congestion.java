// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a call's sender reacts to the network: its congestion controller, the window a new call starts with, and how
 * many ACKs reporting a hole trigger a fast retransmit (docs/engine.md "Loss, RTT and congestion control on long
 * paths"; RFC 5681).
 *
 * @param congestionControl the congestion controller every call of this endpoint runs, not null (default
 *     {@link CongestionControl#NEWRENO})
 * @param initialCwnd congestion window of a new call, packets, 1..255 (default 4)
 * @param initialSsthresh initial slow-start threshold, packets, 2..255 (default 255)
 * @param nackThreshold the loss-detection policy: consecutive ACKs that report a hole (a NACK) before the sender
 *     retransmits it without waiting for the RTO (fast retransmit), 1..255 (default 3, OpenAFS's rx_nackThreshold;
 *     see rx-wire-facts.md §8 and RFC 5681 §3.2)
 */
public record Congestion(CongestionControl congestionControl, int initialCwnd, int initialSsthresh,
                         int nackThreshold) {
    /** NewReno from a window of 4 packets, fast retransmit after 3 NACKs (OpenAFS 1.8's values). */
    public static final Congestion DEFAULTS = new Congestion(CongestionControl.NEWRENO, 4, 255, 3);

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     * @throws NullPointerException if congestionControl is null
     */
    public Congestion {
        Objects.requireNonNull(congestionControl, "congestionControl");
        SettingCheck.range("initialCwnd", initialCwnd, 1, 255);
        SettingCheck.range("initialSsthresh", initialSsthresh, 2, 255);
        SettingCheck.range("nackThreshold", nackThreshold, 1, 255);
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        CongestionControl congestionControl;
        int initialCwnd;
        int initialSsthresh;
        int nackThreshold;

        Draft(Congestion from) {
            congestionControl = from.congestionControl;
            initialCwnd = from.initialCwnd;
            initialSsthresh = from.initialSsthresh;
            nackThreshold = from.nackThreshold;
        }

        Congestion build() {
            return new Congestion(congestionControl, initialCwnd, initialSsthresh, nackThreshold);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    Congestion with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
