// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

/**
 * One call's view of its peer's {@link BbrModel} (draft-ietf-ccwg-bbr): the model, its window and its pacer belong
 * to the path, so several calls to one peer share one bandwidth estimate and one schedule instead of competing. A
 * call may fill what the path's window leaves after the other calls' packets in flight ({@link #sendWindow}), at
 * least one packet. NACK-driven fast retransmit keeps the engine's rule (3 ACKs with holes, once per episode) but
 * changes no window: loss enters the model only through its loss-rate threshold. Packets; ns. Not thread-safe.
 */
public final class BbrCongestionController implements CongestionController {
    private final PathModel path;
    private final BbrModel model;
    private final FastRetransmitDetector detector;
    private int maxCwnd;
    private boolean closed;

    /**
     * @param path the peer's shared state (its model is created on first use)
     * @param initialCwnd the window before any sample, packets, 1..maxCwnd
     * @param maxCwnd the largest window of this call, packets, 1..255
     * @throws IllegalArgumentException if a value is outside its range
     */
    public BbrCongestionController(PathModel path, int initialCwnd, int maxCwnd) {
        this(path, initialCwnd, maxCwnd, DEFAULT_NACK_THRESHOLD);
    }

    /**
     * @param path the peer's shared state (its model is created on first use)
     * @param initialCwnd the window before any sample, packets, 1..maxCwnd
     * @param maxCwnd the largest window of this call, packets, 1..255
     * @param nackThreshold consecutive ACKs with a hole before a fast retransmit, &gt;= 1 (OpenAFS 3)
     * @throws IllegalArgumentException if a value is outside its range
     */
    public BbrCongestionController(PathModel path, int initialCwnd, int maxCwnd, int nackThreshold) {
        this.detector = new FastRetransmitDetector(nackThreshold);
        if (maxCwnd < 1 || maxCwnd > MAX_WINDOW || initialCwnd < 1 || initialCwnd > maxCwnd) {
            throw new IllegalArgumentException("need 1 <= initialCwnd <= maxCwnd <= 255, got " + initialCwnd + ", "
                    + maxCwnd);
        }
        this.path = path;
        this.model = path.bbr(initialCwnd);
        this.maxCwnd = maxCwnd;
        path.join();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            path.leave();
        }
    }

    /** @return the path's window, capped at this call's maximum, packets */
    @Override
    public int cwnd() {
        return Math.max(1, Math.min(model.cwnd(), maxCwnd));
    }

    /** @return the model's long-term inflight bound (packets), or the maximum window while it has none */
    @Override
    public int ssthresh() {
        int hi = model.inflightLongterm();
        return hi < 0 ? maxCwnd : Math.min(hi, maxCwnd);
    }

    @Override
    public boolean inRecovery() {
        return detector.inRecovery();
    }

    @Override
    public void onAck(int newlyAcked, int highestAckedSeq, int highestSentSeq) {
        ControllerArgs.atLeastOne("newlyAcked", newlyAcked);
        detector.onCleanAck(highestAckedSeq);
    }

    @Override
    public boolean onNackedAck(int highestSentSeq) {
        return detector.onNackedAck(highestSentSeq);
    }

    @Override
    public void onTimeout(int twind) {
        ControllerArgs.atLeastOne("twind", twind);
        detector.onTimeout();
        model.onTimeout();
    }

    @Override
    public void setMaxCwnd(int packets) {
        maxCwnd = ControllerArgs.window("maxCwnd", packets);
    }

    @Override
    public void onRateSample(long now, RateSample rs) {
        model.onAck(now, rs);
    }

    /**
     * @return this call's packets in flight plus what the path's window leaves, but at least its fair share of the
     *     path's window (so a call whose packets were lost can resend them while the others keep the window full),
     *     1..maxCwnd
     */
    @Override
    public int sendWindow(int callInFlight) {
        int room = model.cwnd() - path.rate().inFlight();
        int fair = model.cwnd() / Math.max(1, path.sharingCalls());
        return Math.max(1, Math.min(maxCwnd, Math.max(fair, callInFlight + room)));
    }

    /** @return true: one rate sample per datagram, whatever the receiver's ack rate (see the interface) */
    @Override
    public boolean wantsAckPerDatagram() {
        return true;
    }

    @Override
    public long earliestSendNs() {
        return model.earliestSendNs();
    }

    @Override
    public void onDatagramSent(long now, int packets) {
        model.onSent(now, packets);
    }

    @Override
    public String mode() {
        return "bbr/" + model.state();
    }

    @Override
    public double bandwidthPps() {
        return model.bandwidthPps();
    }

    @Override
    public double pacingRatePps() {
        return model.pacingRatePps();
    }

    @Override
    public long minRttNs() {
        return model.minRttNs();
    }
}
