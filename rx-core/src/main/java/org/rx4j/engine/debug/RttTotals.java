// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.debug;

import org.rx4j.engine.RxEngine;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.recovery.RttEstimator;

/**
 * RTT samples taken together over several peers: the endpoint-wide RTT figures of rxdebug's RXSTATS
 * (rx-wire-facts.md §13, indices 49..55) and of {@code rxperf -D}. Read on the engine's thread.
 *
 * @param samples RTT samples over all the peers
 * @param sumNs sum of the samples, ns (each peer's mean times its sample count)
 * @param minNs smallest sample, ns; 0 when there is none
 * @param maxNs largest sample, ns; 0 when there is none
 */
public record RttTotals(long samples, long sumNs, long minNs, long maxNs) {

    /**
     * @param peers the peers to sum (e.g. {@link RxEngine#peers()})
     * @return their totals; all zero when no peer has a sample
     */
    public static RttTotals of(Iterable<Peer> peers) {
        long samples = 0;
        long sum = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        for (Peer p : peers) {
            RttEstimator r = p.rtt();
            if (r.samples() > 0) {
                samples += r.samples();
                sum += r.meanRttNs() * r.samples();
                min = Math.min(min, r.minRttNs());
                max = Math.max(max, r.maxRttNs());
            }
        }
        return new RttTotals(samples, sum, samples == 0 ? 0 : min, max);
    }

    /** @return the mean sample, ns; 0 when there is none */
    public long meanNs() {
        return samples == 0 ? 0 : sumNs / samples;
    }
}
