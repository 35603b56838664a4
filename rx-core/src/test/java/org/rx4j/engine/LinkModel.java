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
 */
public record LinkModel(long delayNs, long jitterNs, double loss, double reorder, double duplicate,
                        long bitsPerSecond, long queueBytes, int mtu) {

    /** @param delayNs one-way delay, ns @return a lossless, unlimited link with that delay */
    public static LinkModel delay(long delayNs) {
        return new LinkModel(delayNs, 0, 0, 0, 0, 0, 1 << 30, 65535);
    }

    /** @param p loss probability @return a copy */
    public LinkModel withLoss(double p) {
        return new LinkModel(delayNs, jitterNs, p, reorder, duplicate, bitsPerSecond, queueBytes, mtu);
    }

    /** @param p reorder probability @return a copy */
    public LinkModel withReorder(double p) {
        return new LinkModel(delayNs, jitterNs, loss, p, duplicate, bitsPerSecond, queueBytes, mtu);
    }

    /** @param p duplication probability @return a copy */
    public LinkModel withDuplicate(double p) {
        return new LinkModel(delayNs, jitterNs, loss, reorder, p, bitsPerSecond, queueBytes, mtu);
    }

    /** @param ns jitter bound @return a copy */
    public LinkModel withJitter(long ns) {
        return new LinkModel(delayNs, ns, loss, reorder, duplicate, bitsPerSecond, queueBytes, mtu);
    }

    /** @param bps bandwidth @param queue drop-tail queue bytes @return a copy */
    public LinkModel withBandwidth(long bps, long queue) {
        return new LinkModel(delayNs, jitterNs, loss, reorder, duplicate, bps, queue, mtu);
    }

    /** @param bytes largest datagram @return a copy */
    public LinkModel withMtu(int bytes) {
        return new LinkModel(delayNs, jitterNs, loss, reorder, duplicate, bitsPerSecond, queueBytes, bytes);
    }
}
