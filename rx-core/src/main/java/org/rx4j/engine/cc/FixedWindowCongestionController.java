// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

/**
 * A congestion window that never reacts to loss: cwnd is a fixed number of packets (lowered only by
 * {@link #setMaxCwnd}). For tests and benchmarks that want the send window alone to limit the sender.
 *
 * <p>Loss is still detected: after {@code nackThreshold} consecutive ACKs with holes {@link #onNackedAck} returns true
 * once per recovery episode, so the engine fast-retransmits the holes exactly as with {@link NewRenoCongestionController};
 * only the window arithmetic is absent. Allocation-free; not thread-safe (owned by the call's event loop).
 */
public final class FixedWindowCongestionController implements CongestionController {
    private final FastRetransmitDetector detector;
    private final int window;
    private int maxCwnd = MAX_WINDOW;

    /**
     * @param window the window, packets, 1..255
     * @throws IllegalArgumentException if {@code window} is outside 1..255
     */
    public FixedWindowCongestionController(int window) {
        this(window, DEFAULT_NACK_THRESHOLD);
    }

    /**
     * @param window the window, packets, 1..255
     * @param nackThreshold consecutive ACKs with holes that trigger a fast retransmit, >= 1 (OpenAFS 3)
     * @throws IllegalArgumentException if a value is outside its range
     */
    public FixedWindowCongestionController(int window, int nackThreshold) {
        ControllerArgs.window("window", window);
        this.window = window;
        this.detector = new FastRetransmitDetector(nackThreshold);
    }

    /** @return the fixed window, or the cap from {@link #setMaxCwnd} if that is lower, packets */
    @Override
    public int cwnd() {
        return Math.min(window, maxCwnd);
    }

    /** @return the fixed window, packets (there is no slow start) */
    @Override
    public int ssthresh() {
        return window;
    }

    @Override
    public boolean inRecovery() {
        return detector.inRecovery();
    }

    /** Resets the hole count and may end recovery; the window does not change. */
    @Override
    public void onAck(int newlyAcked, int highestAckedSeq, int highestSentSeq) {
        ControllerArgs.atLeastOne("newlyAcked", newlyAcked);
        detector.onCleanAck(highestAckedSeq);
    }

    /** Counts the ACK towards a fast retransmit; the window does not change. */
    @Override
    public boolean onNackedAck(int highestSentSeq) {
        return detector.onNackedAck(highestSentSeq);
    }

    /** Ends any recovery episode; the window does not change. */
    @Override
    public void onTimeout(int twind) {
        ControllerArgs.atLeastOne("twind", twind);
        detector.onTimeout();
    }

    @Override
    public void setMaxCwnd(int packets) {
        ControllerArgs.window("window", packets);
        maxCwnd = packets;
    }
}
