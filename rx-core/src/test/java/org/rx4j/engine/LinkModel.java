// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

/**
 * One direction of a simulated link: delay, jitter, loss, reordering, duplication, bandwidth with a
 * drop-tail queue, and an MTU. Immutable; build with the with* methods.
 *
 * @param delayNs one-way propagation delay, ns
 * @param jitterNs extra uniform random delay 0..jitter, ns
 * @param loss probability a datagram is dropped, 0..1
 * @param reorder probability a datagram is held back by an extra delay (so later ones overtake it), 0..1
 * @param duplicate probability a datagram is delivered twice, 0..1
 * @param bitsPerSecond bandwidth; 0 = unlimited
 * @param queueBytes drop-tail queue in front of the bandwidth limit, bytes
 * @param mtu largest datagram carried, bytes (UDP payload)
 * @param burstEnter Gilbert–Elliott loss: probability per datagram of moving from the good state (no loss beyond
 *     {@code loss}) to the bad state (every datagram lost), 0..1; 0 = no bursts
 * @param burstExit Gilbert–Elliott loss: probability per datagram of leaving the bad state, 0..1 (mean burst
 *     length 1/burstExit datagrams)
 */
public record LinkModel(long delayNs, long jitterNs, double loss, double reorder, double duplicate,
                        long bitsPerSecond, long queueBytes, int mtu, double burstEnter, double burstExit) {

    /** The link without bursty loss. */
    public LinkModel(long delayNs, long jitterNs, double loss, double reorder, double duplicate, long bitsPerSecond,
            long queueBytes, int mtu) {
        this(delayNs, jitterNs, loss, reorder, duplicate, bitsPerSecond, queueBytes, mtu, 0, 0);
    }

    /**
     * Gilbert–Elliott bursty loss with a given mean loss rate and mean burst length: the bad state drops every
     * datagram, the good state none (beyond {@link #loss}).
     *
     * @param meanLoss long-run fraction of datagrams lost in bursts, 0..1 (exclusive)
     * @param meanBurst mean burst length, datagrams, >= 1
     * @return a copy
     */
    public LinkModel withBurstLoss(double meanLoss, double meanBurst) {
        double exit = 1.0 / meanBurst;
        double enter = meanLoss * exit / (1 - meanLoss);
        return new LinkModel(delayNs, jitterNs, loss, reorder, duplicate, bitsPerSecond, queueBytes, mtu, enter, exit);
    }

    /** @param delayNs one-way delay, ns @return a lossless, unlimited link with that delay */
    public static LinkModel delay(long delayNs) {
        return new LinkModel(delayNs, 0, 0, 0, 0, 0, 1 << 30, 65535);
    }

    /** @param p loss probability @return a copy */
    public LinkModel withLoss(double p) {
        return new LinkModel(delayNs, jitterNs, p, reorder, duplicate, bitsPerSecond, queueBytes, mtu, burstEnter, burstExit);
    }

    /** @param p reorder probability @return a copy */
    public LinkModel withReorder(double p) {
        return new LinkModel(delayNs, jitterNs, loss, p, duplicate, bitsPerSecond, queueBytes, mtu, burstEnter, burstExit);
    }

    /** @param p duplication probability @return a copy */
    public LinkModel withDuplicate(double p) {
        return new LinkModel(delayNs, jitterNs, loss, reorder, p, bitsPerSecond, queueBytes, mtu, burstEnter, burstExit);
    }

    /** @param ns jitter bound @return a copy */
    public LinkModel withJitter(long ns) {
        return new LinkModel(delayNs, ns, loss, reorder, duplicate, bitsPerSecond, queueBytes, mtu, burstEnter, burstExit);
    }

    /** @param bps bandwidth @param queue drop-tail queue bytes @return a copy */
    public LinkModel withBandwidth(long bps, long queue) {
        return new LinkModel(delayNs, jitterNs, loss, reorder, duplicate, bps, queue, mtu, burstEnter, burstExit);
    }

    /** @param bytes largest datagram @return a copy */
    public LinkModel withMtu(int bytes) {
        return new LinkModel(delayNs, jitterNs, loss, reorder, duplicate, bitsPerSecond, queueBytes, bytes, burstEnter, burstExit);
    }
}
