// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * When idle server connections and peers are forgotten (OpenAFS's reaper, rxi_ReapConnections; docs/robustness.md
 * "Rule: limits").
 *
 * @param idleConnectionTimeNs a server connection with no call running and no packet for this long is reaped, ns,
 *     &gt; 0 (default 700 s, OpenAFS's rx_idleConnectionTime)
 * @param idlePeerTimeNs a peer with no connection and no packet for this long is forgotten, ns, &gt; 0 (default 60 s,
 *     OpenAFS's rx_idlePeerTime)
 * @param reapIntervalNs interval between reaper passes over connections and peers, ns, &gt; 0 (default 60 s, OpenAFS's
 *     rxi_ReapConnections period)
 */
public record Reaping(long idleConnectionTimeNs, long idlePeerTimeNs, long reapIntervalNs) {
    /** OpenAFS's times: connections idle for 700 s and peers idle for 60 s go, checked every 60 s. */
    public static final Reaping DEFAULTS = new Reaping(Duration.ofSeconds(700).toNanos(),
            Duration.ofSeconds(60).toNanos(), Duration.ofSeconds(60).toNanos());

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public Reaping {
        SettingCheck.positive("idleConnectionTime", idleConnectionTimeNs);
        SettingCheck.positive("idlePeerTime", idlePeerTimeNs);
        SettingCheck.positive("reapInterval", reapIntervalNs);
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        long idleConnectionTimeNs;
        long idlePeerTimeNs;
        long reapIntervalNs;

        Draft(Reaping from) {
            idleConnectionTimeNs = from.idleConnectionTimeNs;
            idlePeerTimeNs = from.idlePeerTimeNs;
            reapIntervalNs = from.reapIntervalNs;
        }

        Reaping build() {
            return new Reaping(idleConnectionTimeNs, idlePeerTimeNs, reapIntervalNs);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    Reaping with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
