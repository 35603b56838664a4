// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

/**
 * How many DATA packets the sender may put in its next jumbogram (rx-wire-facts.md §4 and §8, OpenAFS
 * {@code nDgramPackets}): starts at 1; grows by 1 each time more than {@code threshold} packets have been newly acked
 * with no NACK in between, up to {@link #max()}; a NACK restarts the count; a retransmission timeout drops the size
 * back to 1.
 *
 * <p>The max is {@code min(peer maxDgramPackets, own limit)}, set by the engine from the ACK trailer; until then it is 1,
 * so no jumbogram is built for a peer that has not advertised support. The engine still limits each datagram to cwnd
 * and to the packets ready to go. Allocation-free; not thread-safe (owned by the call's event loop).
 */
public final class JumboSizer {
    /** OpenAFS {@code rx_nDgramThreshold}: acked packets (exclusive) before the size grows, 4. */
    public static final int DEFAULT_THRESHOLD = 4;

    private final int threshold;
    private int size = 1;
    private int max = 1;
    /** Packets newly acked since the last growth, NACK or timeout; always <= threshold. */
    private int cleanAcked;

    /** Creates a sizer with the OpenAFS threshold of 4 packets. */
    public JumboSizer() {
        this(DEFAULT_THRESHOLD);
    }

    /**
     * @param threshold the size grows once more than this many packets are acked without a NACK, >= 0
     * @throws IllegalArgumentException if {@code threshold < 0}
     */
    public JumboSizer(int threshold) {
        if (threshold < 0) {
            throw new IllegalArgumentException("threshold must be >= 0, got " + threshold);
        }
        this.threshold = threshold;
    }

    /** @return packets per datagram for the next send, 1..{@link #max()} */
    public int size() {
        return size;
    }

    /** @return the current upper bound on {@link #size()}, packets */
    public int max() {
        return max;
    }

    /**
     * Sets the upper bound (min of the peer's advertised maxDgramPackets and our own limit); lowers the size if needed.
     *
     * @param max packets per datagram, >= 1
     * @throws IllegalArgumentException if {@code max < 1}
     */
    public void setMax(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be >= 1, got " + max);
        }
        this.max = max;
        if (size > max) {
            size = max;
        }
    }

    /**
     * Reports an ACK with no NACK that newly acknowledges packets; grows the size by one (at most once per call) when
     * the clean count passes the threshold, and restarts the count.
     *
     * @param newlyAcked packets newly acked by this ACK, >= 1
     * @throws IllegalArgumentException if {@code newlyAcked < 1}
     */
    public void onCleanAck(int newlyAcked) {
        ControllerArgs.atLeastOne("newlyAcked", newlyAcked);
        // Written as a difference so that a huge newlyAcked cannot overflow the count.
        if (newlyAcked > threshold - cleanAcked) {
            if (size < max) {
                size++;
            }
            cleanAcked = 0;
        } else {
            cleanAcked += newlyAcked;
        }
    }

    /**
     * Starts from a size learned earlier (e.g. the peer's previous call, as OpenAFS keeps nDgramPackets per
     * peer), clamped to 1..{@link #max()}.
     *
     * @param packets the size to start from
     */
    public void restore(int packets) {
        size = Math.max(1, Math.min(packets, max()));
    }

    /** Reports an ACK showing a NACK (a hole): the clean count restarts; the size is kept. */
    public void onNack() {
        cleanAcked = 0;
    }

    /** Reports a retransmission timeout: size back to 1, clean count restarts. */
    public void onTimeout() {
        size = 1;
        cleanAcked = 0;
    }
}
