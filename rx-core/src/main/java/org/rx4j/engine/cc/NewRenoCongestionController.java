// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

/**
 * NewReno-style congestion control in packets, in the spirit of RFC 5681/6582 and with OpenAFS 1.8's constants
 * (rx-wire-facts.md §8):
 * <ul>
 *   <li>slow start: below ssthresh, cwnd grows by the number of newly acked packets (as OpenAFS; acks beyond
 *       ssthresh count towards congestion avoidance);</li>
 *   <li>congestion avoidance: +1 packet per cwnd newly acked packets;</li>
 *   <li>fast recovery after {@code nackThreshold} consecutive ACKs with holes: ssthresh = max(2, cwnd/2),
 *       cwnd = ssthresh + nackThreshold, recovery point = highest seq sent; the window holds until a clean ack reaches
 *       the recovery point, then cwnd = ssthresh;</li>
 *   <li>timeout: ssthresh = max(2, min(cwnd, twind)/2), cwnd = 1 (the same values as OpenAFS's
 *       {@code max(4, min(cwind, twind))/2});</li>
 *   <li>cwnd never exceeds the cap set by {@link #setMaxCwnd} (the transmit window, at most 255).</li>
 * </ul>
 * OpenAFS starts with cwnd 1 and ssthresh 32 ({@link #DEFAULT_INITIAL_CWND}, {@link #DEFAULT_INITIAL_SSTHRESH});
 * RFC 5681 §3.1 also allows an initial ssthresh as high as the largest window ({@link CongestionController#MAX_WINDOW}),
 * which lets slow start run until the first loss.
 *
 * <p>Allocation-free; not thread-safe (owned by the call's event loop).
 */
public final class NewRenoCongestionController implements CongestionController {
    /** OpenAFS initial congestion window: 1 packet. */
    public static final int DEFAULT_INITIAL_CWND = 1;
    /** OpenAFS initial slow-start threshold: 32 packets. */
    public static final int DEFAULT_INITIAL_SSTHRESH = 32;
    /** OpenAFS {@code rx_maxSendWindow}: 32 packets, the default cap on cwnd. */
    public static final int DEFAULT_MAX_CWND = 32;

    private final FastRetransmitDetector detector;
    private final int nackThreshold;
    private int cwnd;
    private int ssthresh;
    private int maxCwnd;
    /** Packets acked in congestion avoidance since the last +1, always < cwnd. */
    private int avoidanceAcks;

    /** Creates a controller with the OpenAFS defaults: cwnd 1, ssthresh 32, cap 32 packets, NACK threshold 3. */
    public NewRenoCongestionController() {
        this(DEFAULT_INITIAL_CWND, DEFAULT_INITIAL_SSTHRESH, DEFAULT_MAX_CWND);
    }

    /**
     * @param initialCwnd first window, packets, 1..maxCwnd
     * @param initialSsthresh first slow-start threshold, packets, >= 1
     * @param maxCwnd cap on cwnd, packets, 1..255
     * @throws IllegalArgumentException if a value is outside its range
     */
    public NewRenoCongestionController(int initialCwnd, int initialSsthresh, int maxCwnd) {
        this(initialCwnd, initialSsthresh, maxCwnd, DEFAULT_NACK_THRESHOLD);
    }

    /**
     * @param initialCwnd first window, packets, 1..maxCwnd
     * @param initialSsthresh first slow-start threshold, packets, >= 1
     * @param maxCwnd cap on cwnd, packets, 1..255
     * @param nackThreshold consecutive ACKs with holes that trigger fast recovery, >= 1 (OpenAFS 3)
     * @throws IllegalArgumentException if a value is outside its range
     */
    public NewRenoCongestionController(int initialCwnd, int initialSsthresh, int maxCwnd, int nackThreshold) {
        ControllerArgs.window("window cap", maxCwnd);
        if (initialCwnd < 1 || initialCwnd > maxCwnd) {
            throw new IllegalArgumentException("initialCwnd must be 1..maxCwnd (" + maxCwnd + "), got " + initialCwnd);
        }
        if (initialSsthresh < 1) {
            throw new IllegalArgumentException("initialSsthresh must be >= 1, got " + initialSsthresh);
        }
        this.detector = new FastRetransmitDetector(nackThreshold);
        this.nackThreshold = nackThreshold;
        this.cwnd = initialCwnd;
        this.ssthresh = initialSsthresh;
        this.maxCwnd = maxCwnd;
    }

    @Override
    public int cwnd() {
        return cwnd;
    }

    @Override
    public int ssthresh() {
        return ssthresh;
    }

    @Override
    public boolean inRecovery() {
        return detector.inRecovery();
    }

    @Override
    public void onAck(int newlyAcked, int highestAckedSeq, int highestSentSeq) {
        ControllerArgs.atLeastOne("newlyAcked", newlyAcked);
        if (detector.onCleanAck(highestAckedSeq)) {
            // Full ack of everything outstanding at loss: deflate to the halved window (RFC 6582 §3.2 step 3).
            cwnd = Math.min(ssthresh, maxCwnd);
            avoidanceAcks = 0;
            return;
        }
        if (detector.inRecovery()) {
            return; // partial ack: hold the window until the recovery point is covered
        }
        grow(newlyAcked);
    }

    private void grow(int newlyAcked) {
        int remaining = newlyAcked;
        if (cwnd < ssthresh) {
            int step = Math.min(remaining, ssthresh - cwnd);
            cwnd += step;
            remaining -= step;
        }
        if (remaining > 0 && cwnd >= ssthresh) {
            long acked = (long) avoidanceAcks + remaining;
            // Bounded by maxCwnd (<= 255) increments.
            while (acked >= cwnd && cwnd < maxCwnd) {
                acked -= cwnd;
                cwnd++;
            }
            avoidanceAcks = cwnd >= maxCwnd ? 0 : (int) acked;
        }
        if (cwnd >= maxCwnd) {
            cwnd = maxCwnd;
            avoidanceAcks = 0;
        }
    }

    @Override
    public boolean onNackedAck(int highestSentSeq) {
        if (!detector.onNackedAck(highestSentSeq)) {
            return false;
        }
        ssthresh = Math.max(2, cwnd / 2);
        // The nackThreshold ACKs that triggered this each mean a packet has left the network (RFC 5681 §3.2 step 4).
        cwnd = Math.min(ssthresh + nackThreshold, maxCwnd);
        avoidanceAcks = 0;
        return true;
    }

    @Override
    public void onTimeout(int twind) {
        ControllerArgs.atLeastOne("twind", twind);
        ssthresh = Math.max(2, Math.min(cwnd, twind) / 2);
        cwnd = 1;
        avoidanceAcks = 0;
        detector.onTimeout();
    }

    @Override
    public void setMaxCwnd(int packets) {
        ControllerArgs.window("window cap", packets);
        maxCwnd = packets;
        if (cwnd >= packets) {
            cwnd = packets;
            avoidanceAcks = 0;
        }
    }

    /**
     * The phase: {@code recovery}; {@code window-limited} once cwnd has reached its cap (the send window), where it
     * can grow no more, whatever ssthresh says (with the default ssthresh of 255 above a 32-packet window, a run
     * without loss would otherwise report slow start to its end); else {@code slow-start} below ssthresh and
     * {@code congestion-avoidance} at or above it.
     *
     * @return the phase, for statistics (rxperf {@code -D}, {@code --json})
     */
    @Override
    public String mode() {
        if (!inRecovery() && cwnd >= maxCwnd) {
            return "window-limited";
        }
        return CongestionController.super.mode();
    }

    /** @return the current cap on cwnd, packets */
    public int maxCwnd() {
        return maxCwnd;
    }
}
