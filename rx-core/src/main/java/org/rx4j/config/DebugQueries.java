// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * How the endpoint answers connectionless DEBUG and VERSION queries (rxdebug; rx-wire-facts.md §9), which a forged
 * source address could turn into reflected traffic (docs/robustness.md "Rule: unsolicited traffic, loops and
 * amplification").
 *
 * @param versionString the string answered to VERSION requests (default "rx4j"; at most 64 ASCII bytes are sent)
 * @param debugReplies which DEBUG and VERSION queries are answered, not null (default
 *     {@link DebugReplies#LOOPBACK_OR_NO_AMPLIFICATION}: no reply larger than three times its query (a VERSION reply
 *     cut to its string to fit), except to loopback addresses;
 *     docs/robustness.md "Rule: unsolicited traffic, loops and amplification")
 */
public record DebugQueries(String versionString, DebugReplies debugReplies) {
    /** Answers "rx4j", amplified at most 3× except to loopback addresses. */
    public static final DebugQueries DEFAULTS = new DebugQueries("rx4j", DebugReplies.LOOPBACK_OR_NO_AMPLIFICATION);

    /**
     * Checks that the policy is set.
     *
     * @throws NullPointerException if debugReplies is null
     */
    public DebugQueries {
        Objects.requireNonNull(debugReplies, "debugReplies");
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        String versionString;
        DebugReplies debugReplies;

        Draft(DebugQueries from) {
            versionString = from.versionString;
            debugReplies = from.debugReplies;
        }

        DebugQueries build() {
            return new DebugQueries(versionString, debugReplies);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    DebugQueries with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
