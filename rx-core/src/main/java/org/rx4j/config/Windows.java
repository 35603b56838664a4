// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.util.function.Consumer;

/**
 * The largest flow-control windows of an endpoint's calls (rx-wire-facts.md §5 "Sizes and windows"). The sender's
 * window is further capped by the rwind its peer advertises; the congestion window grows inside it
 * ({@link Congestion}).
 *
 * @param maxTwind maximum transmit window (twind), packets, 1..255 (default 32, OpenAFS's rx_maxSendWindow); the
 *     peer's rwind caps it further
 * @param maxRwind maximum receive window (rwind) advertised, packets, 1..255 (default 32, OpenAFS's
 *     rx_maxReceiveWindow)
 */
public record Windows(int maxTwind, int maxRwind) {
    /** OpenAFS 1.8's windows: 32 packets each way. */
    public static final Windows DEFAULTS = new Windows(32, 32);

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public Windows {
        SettingCheck.range("maxTwind", maxTwind, 1, 255);
        SettingCheck.range("maxRwind", maxRwind, 1, 255);
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        int maxTwind;
        int maxRwind;

        Draft(Windows from) {
            maxTwind = from.maxTwind;
            maxRwind = from.maxRwind;
        }

        Windows build() {
            return new Windows(maxTwind, maxRwind);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    Windows with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
