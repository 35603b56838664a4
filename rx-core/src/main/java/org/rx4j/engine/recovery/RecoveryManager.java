// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import org.rx4j.engine.cc.CongestionController;
import org.rx4j.engine.cc.DeliveryRate;
import org.rx4j.engine.cc.RateSample;
import org.rx4j.engine.cc.JumboSizer;
import org.rx4j.wire.AckPacket;

/**
 * What a call's sender does about loss (rx-wire-facts.md §8): per ACK it asks the {@link LossDetector} what was
 * acked and lost, tells the congestion controller and the jumbogram sizer, marks the holes lost when the controller
 * calls for a fast retransmit, and keeps the retransmission timer (RTO); on a timeout it backs off the RTO and
 * marks everything in flight lost. The sender then transmits what the windows allow.
 *
 * <p>Pure state: no clock (the caller passes {@code now}, ns), no allocation per ACK. Not thread-safe (the
 * engine's thread).
 */
public final class RecoveryManager {
    /** {@link #onAck} result bit: the ACK was older than one already read and was ignored. */
    public static final int IGNORED = 1;
    /** {@link #onAck} result bit: the ACK acknowledged something new or moved tfirst. */
    public static final int PROGRESS = 2;
    /** {@link #onAck} result bit: the controller entered fast recovery and the holes were marked lost. */
    public static final int FAST_RETRANSMIT = 4;
    /** A timer that is not armed. */
    public static final long NONE = Long.MAX_VALUE;

    private final SendQueue sq;
    private final LossDetector loss;
    private final CongestionController cc;
    private final JumboSizer jumbo;
    private long resendDeadlineNs = NONE;
    private long lostRetransmissions;
    private final DeliveryRate rate;
    private int reportedInFlight;
    /** True from a retransmission timeout that marked packets lost until an ACK acknowledges something new. */
    private boolean afterTimeout;

    /**
     * @param sq the call's send queue
     * @param cc the call's congestion controller
     * @param jumbo the call's jumbogram sizer
     */
    public RecoveryManager(SendQueue sq, CongestionController cc, JumboSizer jumbo) {
        this(sq, cc, jumbo, new DeliveryRate());
    }

    /**
     * @param sq the call's send queue
     * @param cc the call's congestion controller
     * @param jumbo the call's jumbogram sizer
     * @param rate the path's delivery-rate estimator (shared by all calls to the peer)
     */
    public RecoveryManager(SendQueue sq, CongestionController cc, JumboSizer jumbo, DeliveryRate rate) {
        this.sq = sq;
        this.rate = rate;
        this.loss = new LossDetector(sq, rate);
        this.cc = cc;
        this.jumbo = jumbo;
    }

    /** Tells the path's estimator how this call's packets in flight changed since the last call. */
    public void syncInFlight() {
        int now = sq.inFlight;
        rate.addInFlight(now - reportedInFlight);
        reportedInFlight = now;
    }

    /** @return the path's delivery-rate estimator */
    public DeliveryRate rate() {
        return rate;
    }

    /**
     * Handles the hard and soft acks of one ACK: RTT samples, congestion control, fast retransmit, and the
     * retransmission timer (restarted when something new was acked) (§3, §8).
     *
     * @param now the ACK's arrival time, ns
     * @param a the ACK
     * @param rtt the estimator of the call's peer (samples go in, the RTO comes out)
     * @return a mask of {@link #IGNORED}, {@link #PROGRESS}, {@link #FAST_RETRANSMIT}
     */
    public int onAck(long now, AckPacket a, RttEstimator rtt) {
        int first = a.firstPacket();
        if (loss.isStale(first, a.previousPacket())) {
            return IGNORED;
        }
        long lostBefore = sq.lostMarks;
        long eventsBefore = sq.lossEvents;
        rate.beginAck();
        loss.onAck(now, a, rtt, cc.inRecovery(), afterTimeout);
        lostRetransmissions += loss.lostAgain();
        int result = loss.madeProgress() ? PROGRESS : 0;
        if (loss.madeProgress()) {
            afterTimeout = false;
        }
        int newly = loss.newlyAcked();
        int highestSoft = loss.highestSoftAcked();
        int highestSent = sq.nextToSend - 1;
        if (loss.sawHoles()) {
            jumbo.onNack();
            if (cc.onNackedAck(highestSent)) {
                result |= FAST_RETRANSMIT;
                loss.markHolesLost(first, highestSoft);
            }
        }
        if (newly > 0) {
            if (!loss.sawHoles()) {
                cc.onAck(newly, Math.max(first - 1, highestSoft), highestSent);
                jumbo.onCleanAck(newly);
            }
            // Soft-acked packets still count: if the hard ack that frees them is lost (or the receiver holds
            // them), only this timer's PING makes the receiver tell us where it stands (§8).
            resendDeadlineNs = sq.hasUnacked() ? now + rtt.rtoNs() : NONE;
        }
        int newlyLost = (int) (sq.lostMarks - lostBefore);
        rate.onLost(newlyLost);
        syncInFlight();
        long sample = loss.lastSampleNs();
        RateSample rs = rate.endAck(newlyLost, sample == LossDetector.NO_SAMPLE ? -1 : sample, rtt.minRttNs());
        rs.newLossEvents = (int) (sq.lossEvents - eventsBefore);
        cc.onRateSample(now, rs);
        return result;
    }

    /**
     * @return true from a retransmission timeout that marked packets lost until an ACK acknowledges something new
     *     (the sender then probes the path between the backed-off timeouts, see {@code CallSender})
     */
    public boolean afterTimeout() {
        return afterTimeout;
    }

    /** @return retransmissions found lost again by ACKs (resent before the RTO), since the call started */
    public long lostRetransmissions() {
        return lostRetransmissions;
    }

    /** @return the RTT sample of the last ACK, ns, or {@link LossDetector#NO_SAMPLE} */
    public long lastRttSampleNs() {
        return loss.lastSampleNs();
    }

    /** @return RTT samples the last ACK given to {@link #onAck} produced */
    public int rttSamplesOfLastAck() {
        return loss.rttSamples();
    }

    /**
     * The retransmission timer fired: backs off the RTO; when packets are in flight or lost, marks every
     * unacked packet lost and collapses the windows (§8).
     *
     * @param twind the call's transmit window, packets, >= 1
     * @param rtt the estimator of the call's peer
     * @return true when packets were marked for retransmission; false when everything sent is soft-acked
     */
    public boolean onTimeout(int twind, RttEstimator rtt) {
        rtt.backoff();
        if (sq.inFlight > 0 || sq.lostCount > 0) {
            rate.onLost(sq.markAllLost());
            syncInFlight();
            cc.onTimeout(twind);
            jumbo.onTimeout();
            resendDeadlineNs = NONE;
            afterTimeout = true;
            return true;
        }
        return false;
    }

    /**
     * Restarts the retransmission timer after a timeout was handled, or disarms it when nothing is unacked.
     *
     * @param now current time, ns
     * @param rtt the estimator of the call's peer
     */
    public void rearm(long now, RttEstimator rtt) {
        resendDeadlineNs = sq.hasUnacked() ? now + rtt.rtoNs() : NONE;
    }

    /**
     * Arms the retransmission timer after a transmission, unless it runs already or nothing is in flight or lost.
     *
     * @param now current time, ns
     * @param rtt the estimator of the call's peer
     */
    public void armIfIdle(long now, RttEstimator rtt) {
        if ((sq.inFlight > 0 || sq.lostCount > 0) && resendDeadlineNs == NONE) {
            resendDeadlineNs = now + rtt.rtoNs();
        }
    }

    /** Everything sent counts as hard-acked (an ACKALL, or the first reply packet, §2, §6.3); the timer stops. */
    public void onAckAll() {
        sq.hardAck(sq.nextToSend);
        syncInFlight();
        resendDeadlineNs = NONE;
        afterTimeout = false;
    }

    /** Stops the retransmission timer (call teardown). */
    public void cancel() {
        resendDeadlineNs = NONE;
        afterTimeout = false;
    }

    /** @return when the retransmission timer fires, ns, or {@link #NONE} */
    public long resendDeadlineNs() {
        return resendDeadlineNs;
    }
}
