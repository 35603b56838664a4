// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

/**
 * Round-trip time of one peer (Jacobson/Karels estimator, RFC 6298; rx-wire-facts.md §8), as a snapshot.
 * All times in nanoseconds. Before the first sample the minimum, mean and maximum are 0 and the smoothed RTT
 * is the configured initial RTT ({@code RxConfig.rto().initialRttNs()}).
 *
 * @param samples RTT samples taken
 * @param srttNs smoothed RTT, ns
 * @param rttvarNs RTT variation (rxdebug's rtt_dev), ns
 * @param rtoNs current retransmission timeout, backoff included, ns
 * @param minRttNs smallest sample, ns
 * @param meanRttNs mean of all samples, ns
 * @param maxRttNs largest sample, ns
 * @param backoffCount retransmission timeouts since the last fresh sample (the RTO doubled this often)
 */
public record RttStats(long samples, long srttNs, long rttvarNs, long rtoNs, long minRttNs, long meanRttNs,
                       long maxRttNs, int backoffCount) {
}
