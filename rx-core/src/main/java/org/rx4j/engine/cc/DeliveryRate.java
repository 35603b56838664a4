// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

/**
 * Delivery-rate estimation for one path (draft-ietf-ccwg-bbr §4.5, after draft-cheng-iccrg-delivery-rate-estimation):
 * counts packets delivered and lost, and turns the per-packet snapshots taken at send time ({@link #delivered()},
 * {@link #deliveredTimeNs()}, {@link #firstSentTimeNs()}, {@link #isAppLimited()}, {@link #lost()}) into one
 * {@link RateSample} per ACK. Shared by every call to a peer, so the rate is the peer's total. Packets; times in ns on
 * the engine's clock. Allocation-free; not thread-safe (the engine's thread).
 *
 * <p>Use per ACK: {@link #beginAck}, then {@link #onDelivered} for each packet the ACK newly acknowledges (with the
 * packet's snapshot), then {@link #endAck}.
 */
public final class DeliveryRate {
    private long delivered;
    private long deliveredTimeNs;
    private long firstSentTimeNs;
    private long appLimitedUntil;
    private long lost;
    /** Packets in flight on this path, all calls together; kept by the calls' recovery managers. */
    private int inFlight;

    private final RateSample rs = new RateSample();
    private boolean haveCandidate;
    private long candPriorTimeNs;
    private long candSendElapsedNs;

    /** @return packets delivered on the path so far (snapshot at send) */
    public long delivered() {
        return delivered;
    }

    /** @return when {@link #delivered()} last grew, ns (snapshot at send) */
    public long deliveredTimeNs() {
        return deliveredTimeNs;
    }

    /** @return send time of the packet most recently delivered, ns (snapshot at send) */
    public long firstSentTimeNs() {
        return firstSentTimeNs;
    }

    /** @return true while the path is application-limited (snapshot at send) */
    public boolean isAppLimited() {
        return appLimitedUntil != 0;
    }

    /** @return packets marked lost on the path so far (snapshot at send) */
    public long lost() {
        return lost;
    }

    /** @return packets in flight on the path, all calls together */
    public int inFlight() {
        return inFlight;
    }

    /**
     * A packet is about to be sent: when nothing is in flight, the send and delivery clocks restart here (so idle
     * time does not count as delivery time).
     *
     * @param now send time, ns
     */
    public void onSend(long now) {
        if (inFlight == 0) {
            firstSentTimeNs = now;
            deliveredTimeNs = now;
        }
    }

    /**
     * @param delta change of one call's packets in flight (may be negative)
     */
    public void addInFlight(int delta) {
        inFlight = Math.max(0, inFlight + delta);
    }

    /** @param n packets newly marked lost, >= 0 */
    public void onLost(int n) {
        lost += n;
    }

    /**
     * The sender has nothing to send while the window has room: samples taken until what is in flight now is
     * delivered are marked application-limited.
     */
    public void markAppLimited() {
        appLimitedUntil = Math.max(delivered + inFlight, 1);
    }

    /** Starts the sample of one ACK. */
    public void beginAck() {
        haveCandidate = false;
        rs.delivered = 0;
        rs.intervalNs = 0;
        rs.newlyAcked = 0;
        rs.newlyLost = 0;
        rs.newLossEvents = 0;
        rs.rttNs = -1;
    }

    /**
     * One packet the ACK newly acknowledges, with the snapshot taken when it was (last) sent.
     *
     * @param now the ACK's arrival, ns
     * @param sentAtNs the packet's (last) send time, ns
     * @param pDelivered {@link #delivered()} at its send
     * @param pDeliveredTimeNs {@link #deliveredTimeNs()} at its send
     * @param pFirstSentTimeNs {@link #firstSentTimeNs()} at its send
     * @param pAppLimited {@link #isAppLimited()} at its send
     * @param pTxInFlight packets in flight at its send
     * @param pLost {@link #lost()} at its send
     */
    public void onDelivered(long now, long sentAtNs, long pDelivered, long pDeliveredTimeNs, long pFirstSentTimeNs,
            boolean pAppLimited, int pTxInFlight, long pLost) {
        delivered++;
        deliveredTimeNs = now;
        rs.newlyAcked++;
        // The sample comes from the most recently sent packet: the one with the largest delivered snapshot.
        if (!haveCandidate || pDelivered >= rs.priorDelivered) {
            haveCandidate = true;
            rs.priorDelivered = pDelivered;
            candPriorTimeNs = pDeliveredTimeNs;
            rs.appLimited = pAppLimited;
            rs.txInFlight = pTxInFlight;
            rs.lostSinceSend = pLost;
            candSendElapsedNs = sentAtNs - pFirstSentTimeNs;
            firstSentTimeNs = sentAtNs;
        }
    }

    /**
     * Finishes the ACK's sample.
     *
     * @param newlyLost packets the ACK newly marked lost (already counted by {@link #onLost})
     * @param rttNs the ACK's RTT sample, ns, or -1
     * @param minRttNs the path's min RTT, ns (an interval below it is not a valid sample), or 0 for unknown
     * @return the sample (reused: read it before the next ACK)
     */
    public RateSample endAck(int newlyLost, long rttNs, long minRttNs) {
        if (appLimitedUntil != 0 && delivered > appLimitedUntil) {
            appLimitedUntil = 0;
        }
        rs.newlyLost = newlyLost;
        rs.rttNs = rttNs;
        rs.inFlight = inFlight;
        rs.totalDelivered = delivered;
        if (haveCandidate) {
            rs.lostSinceSend = lost - rs.lostSinceSend;
            long ackElapsed = deliveredTimeNs - candPriorTimeNs;
            long interval = Math.max(candSendElapsedNs, ackElapsed);
            rs.delivered = delivered - rs.priorDelivered;
            // An interval shorter than the min RTT would overstate the rate (ACK compression, §4.5.2.4).
            if (interval <= 0 || (minRttNs > 0 && interval < minRttNs)) {
                rs.delivered = 0;
                rs.intervalNs = 0;
            } else {
                rs.intervalNs = interval;
            }
        } else {
            rs.lostSinceSend = 0;
        }
        return rs;
    }
}
