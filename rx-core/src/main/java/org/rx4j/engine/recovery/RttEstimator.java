// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

/**
 * Round-trip time and retransmission timeout estimator for one peer or call, after Jacobson/Karels as specified by
 * RFC 6298, with the OpenAFS 1.8 floor and slack (rx-wire-facts.md §8):
 * {@code RTO = min(maxRto, max(srtt + 4·rttvar, minRto) + slack) · 2^backoff}, capped at {@code maxRto}.
 *
 * <p>Differences from OpenAFS, both deliberate (rx-wire-facts.md §13 "RTO start-up"): the first sample replaces the
 * preset initial RTT ({@code srtt = R, rttvar = R/2}, RFC 6298 §2.2) instead of being smoothed into it, so a loopback
 * RTO drops from seconds to milliseconds after one sample; and values are kept in nanoseconds rather than ⅛ ms.
 *
 * <p>All times are nanoseconds. The estimator has no clock: the caller measures each sample. Not thread-safe; owned by
 * the event loop of its connection. Allocation-free.
 */
public final class RttEstimator {
    /** OpenAFS initial peer RTT for a remote peer, loopback included: 3 s (2 s same subnet, 4 s point-to-point). */
    public static final long DEFAULT_INITIAL_RTT_NS = 3_000_000_000L;
    /** OpenAFS {@code rx_minPeerTimeout}: the RTO floor before slack, 20 ms. */
    public static final long DEFAULT_MIN_RTO_NS = 20_000_000L;
    /** Slack added to every RTO for the peer's delayed ack, 200 ms (OpenAFS). */
    public static final long DEFAULT_RTO_SLACK_NS = 200_000_000L;
    /** Upper bound of the RTO, backoff included, 60 s (OpenAFS). */
    public static final long DEFAULT_MAX_RTO_NS = 60_000_000_000L;
    /** Largest accepted {@code maxRtoNs}, so that {@code srtt + 4·rttvar + slack} can never overflow a long. */
    public static final long MAX_RTO_LIMIT_NS = Long.MAX_VALUE / 8;

    /** Doublings beyond this are pointless (any positive base times 2^62 exceeds every allowed maxRto). */
    private static final int MAX_BACKOFF = 62;

    private final long minRtoNs;
    private final long rtoSlackNs;
    private final long maxRtoNs;

    private long srttNs;
    private long rttvarNs;
    private int backoff;

    private long samples;
    private long minRttNs = Long.MAX_VALUE;
    private long maxRttNs;
    private long sumRttNs;

    /** Creates an estimator with the OpenAFS defaults: initial RTT 3 s, min RTO 20 ms, slack 200 ms, max RTO 60 s. */
    public RttEstimator() {
        this(DEFAULT_INITIAL_RTT_NS, DEFAULT_MIN_RTO_NS, DEFAULT_RTO_SLACK_NS, DEFAULT_MAX_RTO_NS);
    }

    /**
     * @param initialRttNs RTT assumed before the first sample, ns (rttvar 0 until then), 0..maxRtoNs
     * @param minRtoNs floor applied to {@code srtt + 4·rttvar} before slack, ns, 0..maxRtoNs
     * @param rtoSlackNs added after the floor (peer's delayed ack), ns, 0..maxRtoNs
     * @param maxRtoNs cap of the RTO including backoff, ns, 1..{@link #MAX_RTO_LIMIT_NS}
     * @throws IllegalArgumentException if a value is outside its range
     */
    public RttEstimator(long initialRttNs, long minRtoNs, long rtoSlackNs, long maxRtoNs) {
        if (maxRtoNs < 1 || maxRtoNs > MAX_RTO_LIMIT_NS) {
            throw new IllegalArgumentException("maxRtoNs must be 1.." + MAX_RTO_LIMIT_NS + ", got " + maxRtoNs);
        }
        checkRange("initialRttNs", initialRttNs, maxRtoNs);
        checkRange("minRtoNs", minRtoNs, maxRtoNs);
        checkRange("rtoSlackNs", rtoSlackNs, maxRtoNs);
        this.minRtoNs = minRtoNs;
        this.rtoSlackNs = rtoSlackNs;
        this.maxRtoNs = maxRtoNs;
        this.srttNs = initialRttNs;
        this.rttvarNs = 0;
    }

    private static void checkRange(String name, long value, long maxRtoNs) {
        if (value < 0 || value > maxRtoNs) {
            throw new IllegalArgumentException(name + " must be 0..maxRtoNs (" + maxRtoNs + "), got " + value);
        }
    }

    /**
     * Feeds one RTT measurement. The first sample replaces the initial RTT ({@code srtt = R, rttvar = R/2});
     * later ones are smoothed ({@code rttvar = ¾ rttvar + ¼ |srtt − R|}, then {@code srtt = ⅞ srtt + ⅛ R}, RFC 6298
     * §2.3). Any sample clears the backoff (RFC 6298 §5.7: a fresh measurement supersedes the doubled timer).
     * A sample above {@code maxRtoNs} is clamped to it, which keeps the arithmetic overflow-free.
     *
     * @param rttNs the measured round trip, ns; a negative value (clock misuse) is ignored
     */
    public void onSample(long rttNs) {
        if (rttNs < 0) {
            return;
        }
        long r = Math.min(rttNs, maxRtoNs);
        if (samples == 0) {
            srttNs = r;
            rttvarNs = r / 2;
        } else {
            // rttvar uses the srtt from before this sample (RFC 6298 §2.3 order).
            rttvarNs += (Math.abs(srttNs - r) - rttvarNs) / 4;
            srttNs += (r - srttNs) / 8;
        }
        backoff = 0;
        samples++;
        // Saturate rather than wrap: only reachable after ~10^8 samples of a minute each.
        sumRttNs = sumRttNs > Long.MAX_VALUE - r ? Long.MAX_VALUE : sumRttNs + r;
        if (r < minRttNs) {
            minRttNs = r;
        }
        if (r > maxRttNs) {
            maxRttNs = r;
        }
    }

    /**
     * @return the retransmission timeout, ns: {@code min(maxRto, max(srtt + 4·rttvar, minRto) + slack)} doubled once
     *     per {@link #backoff()} since the last sample, capped at {@code maxRto}; 3.2 s before any sample with the
     *     defaults, as OpenAFS
     */
    public long rtoNs() {
        long base = baseRtoNs();
        if (backoff == 0) {
            return base;
        }
        // base << backoff <= maxRto exactly when base <= maxRto >> backoff; this test also rules out overflow.
        if (base > (maxRtoNs >> backoff)) {
            return maxRtoNs;
        }
        return base << backoff;
    }

    /**
     * @return the retransmission timeout without backoff, ns: {@code min(maxRto, max(srtt + 4·rttvar, minRto) + slack)}
     *     (what {@link #rtoNs()} returns once a sample cleared the backoff)
     */
    public long baseRtoNs() {
        return Math.min(maxRtoNs, Math.max(srttNs + 4 * rttvarNs, minRtoNs) + rtoSlackNs);
    }

    /**
     * Doubles the RTO after a retransmission timeout (RFC 6298 §5.5), up to {@code maxRto}; call once per expiry.
     * Cleared by the next {@link #onSample}.
     */
    public void backoff() {
        if (backoff < MAX_BACKOFF && rtoNs() < maxRtoNs) {
            backoff++;
        }
    }

    /**
     * Clears the backoff without a sample: the peer acknowledged everything a call sent (a client call's first reply
     * packet, or an ACKALL), so the path delivers again, but Karn's rule left no sample when the acknowledged packets
     * were retransmitted (RFC 6298 §5.7 clears the doubling with the next sample; a reply is the only answer a
     * small request gets). Without this the doubled RTO outlived the exchange: under a flood the next call's one
     * lost request waited 6.4 s instead of 3.2 s, and a second loss outlasted the dead time (docs/robustness.md
     * "Flood").
     */
    public void clearBackoff() {
        backoff = 0;
    }

    /** @return how many doublings the current RTO carries (0 after a sample), bounded once the cap is reached */
    public int backoffCount() {
        return backoff;
    }

    /** @return smoothed RTT, ns; the initial RTT before any sample */
    public long srttNs() {
        return srttNs;
    }

    /** @return RTT variation (mean deviation), ns; 0 before any sample */
    public long rttvarNs() {
        return rttvarNs;
    }

    /** @return number of samples accepted since creation (negative ones are not counted) */
    public long samples() {
        return samples;
    }

    /** @return smallest sample, ns, 0 if none (rxdebug/RXSTATS min RTT) */
    public long minRttNs() {
        return samples == 0 ? 0 : minRttNs;
    }

    /** @return largest sample, ns, 0 if none (rxdebug/RXSTATS max RTT) */
    public long maxRttNs() {
        return maxRttNs;
    }

    /** @return sum of samples divided by their count, ns, 0 if none (RXSTATS total RTT / nRttSamples) */
    public long meanRttNs() {
        return samples == 0 ? 0 : sumRttNs / samples;
    }
}
