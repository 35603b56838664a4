// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

/**
 * One delivery-rate sample, made per ACK by {@link DeliveryRate} (draft-ietf-ccwg-bbr §4.5 "Delivery Rate
 * Samples"): how many packets were delivered over which interval, measured from the most recently sent packet the
 * ACK newly acknowledged, plus the ACK's loss and RTT signals. Counted in packets; times in ns. Reused for every ACK
 * (read it before the next one); not thread-safe.
 */
public final class RateSample {
    /** Packets delivered in the sampled interval; 0 when the ACK gave no valid sample. */
    public long delivered;
    /** The sampled interval, ns: max(send elapsed, ack elapsed); 0 when invalid. */
    public long intervalNs;
    /** The connection-wide delivered count when the sampled packet was sent. */
    public long priorDelivered;
    /** True when the sampled packet was sent while the sender was application-limited. */
    public boolean appLimited;
    /** Packets in flight (peer-wide) when the sampled packet was sent. */
    public int txInFlight;
    /** Packets marked lost (peer-wide) between the sampled packet's send and this ACK. */
    public long lostSinceSend;
    /** Packets this ACK newly acknowledged (hard or soft). */
    public int newlyAcked;
    /** Packets this ACK (or its fast retransmit) newly marked lost. */
    public int newlyLost;
    /** Loss events (runs of adjacent lost packets, e.g. one lost jumbogram) among {@link #newlyLost}. */
    public int newLossEvents;
    /** Packets in flight (peer-wide) after this ACK. */
    public int inFlight;
    /** This ACK's RTT sample, ns, or -1 for none (Karn's rule). */
    public long rttNs = -1;
    /** The peer-wide delivered count after this ACK. */
    public long totalDelivered;

    /** @return the delivery rate, packets per second; 0 when the sample is invalid */
    public double ratePps() {
        return delivered <= 0 || intervalNs <= 0 ? 0 : delivered * 1e9 / intervalNs;
    }
}
