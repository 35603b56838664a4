// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

/**
 * The congestion controller toward one peer, as last seen (read-only snapshot for {@code rxperf -D} and
 * {@code --json}; docs/rxperf.md). For BBR the model belongs to the peer; for NewReno it is the most recent sending
 * call's.
 *
 * @param state the controller and its phase, e.g. "bbr/PROBE_BW_CRUISE", "slow-start", "congestion-avoidance"
 * @param cwnd the congestion window, packets
 * @param ssthresh the slow-start threshold (BBR: its long-term inflight bound, or the maximum window), packets
 * @param bandwidthPps the bottleneck-bandwidth estimate, packets per second (0 when the controller keeps none)
 * @param pacingRatePps the pacing rate, packets per second (0 when the controller does not pace)
 * @param minRttNs the controller's min-RTT estimate, ns (0 when it keeps none)
 */
public record CongestionStats(String state, int cwnd, int ssthresh, long bandwidthPps, long pacingRatePps,
                              long minRttNs) {
    /** No sending call to the peer yet. */
    public static final CongestionStats NONE = new CongestionStats("none", 0, 0, 0, 0, 0);
}
