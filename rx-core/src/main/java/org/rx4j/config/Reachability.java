package org.rx4j.config;

import java.time.Duration;

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
}
