// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Whether a server proves a new peer reachable with a PING before it starts the peer's first call, and how long a proof
 * lasts (OpenAFS's checkReach, rx-wire-facts.md §7; docs/robustness.md "Rule: a call gets a handler only after packet
 * 1, from a reachable peer"). Only {@code checkReach} has a builder setter; the two times are set by building this
 * record.
 *
 * @param checkReach true when a server PINGs a new peer before starting its first call (OpenAFS checkReach; default
 *     true)
 * @param reachTtlNs how long a reachability answer stays valid, ns, &gt; 0 (60 s)
 * @param reachRetryNs interval between reachability PINGs, ns, &gt; 0 (2 s)
 */
public record Reachability(boolean checkReach, long reachTtlNs, long reachRetryNs) {
    /**
     * Most bytes an endpoint sends to a source that has not proven reachable, per byte it received from that source:
     * QUIC's bound for unvalidated addresses (RFC 9000 §8.1: at most three times the bytes received). A forged request
     * reflects at most this factor at the address it names; a legitimate client's smallest request (a 28-byte header)
     * pays for a 65-byte reachability PING or a 44-byte CHALLENGE at once (docs/robustness.md "Rule: unsolicited
     * traffic, loops and amplification").
     */
    public static final int AMPLIFICATION_LIMIT = 3;

    /** Check on, an answer valid for 60 s, a PING every 2 s until answered. */
    public static final Reachability DEFAULTS = new Reachability(true, Duration.ofSeconds(60).toNanos(),
            Duration.ofSeconds(2).toNanos());

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public Reachability {
        SettingCheck.positive("reachTtl", reachTtlNs);
        SettingCheck.positive("reachRetry", reachRetryNs);
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        boolean checkReach;
        long reachTtlNs;
        long reachRetryNs;

        Draft(Reachability from) {
            checkReach = from.checkReach;
            reachTtlNs = from.reachTtlNs;
            reachRetryNs = from.reachRetryNs;
        }

        Reachability build() {
            return new Reachability(checkReach, reachTtlNs, reachRetryNs);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    Reachability with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
