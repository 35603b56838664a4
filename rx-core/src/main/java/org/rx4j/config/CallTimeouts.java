// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * When a call fails for lack of progress or for its age (OpenAFS 1.8's dead times, rx-wire-facts.md §8 "Timers and
 * reliability"; docs/embedding.md "Cancellation and deadlines"). A per-call deadline set by the application comes on
 * top.
 *
 * @param deadTimeNs nothing heard for this long fails an active call with RX_CALL_DEAD, ns, &gt; 0 (12 s)
 * @param clientIdleDeadTimeNs idle dead time of client calls, ns, &gt;= 0; 0 = off (OpenAFS default)
 * @param serverIdleDeadTimeNs idle dead time of server calls, ns, &gt;= 0 (60 s); 0 = off
 * @param hardDeadTimeNs total call lifetime limit, ns, &gt;= 0; 0 = off (default)
 */
public record CallTimeouts(long deadTimeNs, long clientIdleDeadTimeNs, long serverIdleDeadTimeNs,
                           long hardDeadTimeNs) {
    /** Dead after 12 s of silence; server calls idle for 60 s fail; no client idle or lifetime limit. */
    public static final CallTimeouts DEFAULTS = new CallTimeouts(Duration.ofSeconds(12).toNanos(), 0,
            Duration.ofSeconds(60).toNanos(), 0);

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public CallTimeouts {
        SettingCheck.positive("deadTime", deadTimeNs);
        SettingCheck.nonNegative("clientIdleDeadTime", clientIdleDeadTimeNs);
        SettingCheck.nonNegative("serverIdleDeadTime", serverIdleDeadTimeNs);
        SettingCheck.nonNegative("hardDeadTime", hardDeadTimeNs);
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        long deadTimeNs;
        long clientIdleDeadTimeNs;
        long serverIdleDeadTimeNs;
        long hardDeadTimeNs;

        Draft(CallTimeouts from) {
            deadTimeNs = from.deadTimeNs;
            clientIdleDeadTimeNs = from.clientIdleDeadTimeNs;
            serverIdleDeadTimeNs = from.serverIdleDeadTimeNs;
            hardDeadTimeNs = from.hardDeadTimeNs;
        }

        CallTimeouts build() {
            return new CallTimeouts(deadTimeNs, clientIdleDeadTimeNs, serverIdleDeadTimeNs, hardDeadTimeNs);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    CallTimeouts with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
