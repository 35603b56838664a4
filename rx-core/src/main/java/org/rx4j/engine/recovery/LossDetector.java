// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import org.rx4j.engine.cc.DeliveryRate;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;

/**
 * Reads one ACK against a call's {@link SendQueue} (rx-wire-facts.md §3, §8): drops ACKs older than one already
 * read, frees the hard-acked packets, marks soft-acked ones, finds NACKs below an ACK (holes) and takes the one RTT
 * sample the ACK allows (Karn's rule, RFC 6298 §3). Marking the holes lost for a fast retransmit ({@link #markHolesLost}) is the
 * {@link RecoveryManager}'s decision. After {@link #onAck} the results of that ACK are read through the getters.
 *
 * <p>Pure state: no clock (the caller passes {@code now}, ns), no allocation per ACK. Not thread-safe (the
 * engine's thread).
 */
public final class LossDetector {
    private final SendQueue sq;
    private int lastAckFirst;
    private int lastAckPrev;

    private int newlyAcked;
    private int highestSoftAcked;
    private boolean holes;
    private boolean progress;
    private int rttSamples;
    private int lostAgain;
    /** Marks "no candidate" / "no sample" (send times are engine-clock ns and may be any other value). */
    public static final long NO_SAMPLE = Long.MIN_VALUE;
    private long matchedSentAtNs = NO_SAMPLE;
    private long onceSentAtNs = NO_SAMPLE;
    private long lastSampleNs = NO_SAMPLE;

    private final DeliveryRate rate;

    /** @param sq the call's send queue (shared with its sender); delivery is counted on a private estimator */
    public LossDetector(SendQueue sq) {
        this(sq, new DeliveryRate());
    }

    /**
     * @param sq the call's send queue (shared with its sender)
     * @param rate the path's delivery-rate estimator: told of every packet an ACK newly acknowledges
     */
    public LossDetector(SendQueue sq, DeliveryRate rate) {
        this.sq = sq;
        this.rate = rate;
    }

    private void delivered(long now, SendQueue.Entry e) {
        rate.onDelivered(now, e.sentAtNs, e.deliveredAtSend, e.deliveredTimeAtSendNs, e.firstSentTimeAtSendNs,
                e.appLimitedAtSend, e.txInFlight, e.lostAtSend);
    }

    /**
     * @param firstPacket the ACK's firstPacket
     * @param previousPacket the ACK's previousPacket
     * @return true when the ACK is older than one already read and must not be read as NACKs (§3, §13)
     */
    public boolean isStale(int firstPacket, int previousPacket) {
        if (firstPacket - lastAckFirst < 0 && lastAckFirst != 0) {
            return true;
        }
        return firstPacket == lastAckFirst && previousPacket - lastAckPrev < 0 && previousPacket - firstPacket >= 0;
    }

    /**
     * Reads one ACK that is not stale ({@link #isStale}): frees what it hard-acks, marks what it soft-acks,
     * notes its holes, marks lost again every retransmission still NACKed below an ACK one srtt after it was
     * resent, and feeds the ACK's RTT sample to {@code rtt}.
     *
     * @param now the ACK's arrival time, ns
     * @param a the ACK
     * @param rtt the estimator of the call's peer
     */
    public void onAck(long now, AckPacket a, RttEstimator rtt) {
        onAck(now, a, rtt, false);
    }

    /**
     * As {@link #onAck(long, AckPacket, RttEstimator)}; with {@code holesByTime} (the sender is in recovery) every
     * hole, not only a retransmission, is lost when its last transmission is one srtt older than the one this ACK
     * names.
     *
     * @param now the ACK's arrival time, ns
     * @param a the ACK
     * @param rtt the estimator of the call's peer
     * @param holesByTime true to apply the time rule to first transmissions too
     */
    public void onAck(long now, AckPacket a, RttEstimator rtt, boolean holesByTime) {
        onAck(now, a, rtt, holesByTime, false);
    }

    /**
     * As {@link #onAck(long, AckPacket, RttEstimator, boolean)}; with {@code afterTimeout} (the sender's
     * retransmission timer fired and nothing was acknowledged since) a retransmission this ACK does not acknowledge
     * is lost again by the same time rule even with no ACK above it: the lone packet a timeout resends (often the
     * call's last) has none, and an ACK that a later transmission (a recovery probe) triggered shows it missing.
     *
     * @param now the ACK's arrival time, ns
     * @param a the ACK
     * @param rtt the estimator of the call's peer
     * @param holesByTime true to apply the time rule to first transmissions too
     * @param afterTimeout true while the sender recovers from a retransmission timeout
     */
    public void onAck(long now, AckPacket a, RttEstimator rtt, boolean holesByTime, boolean afterTimeout) {
        int first = a.firstPacket();
        int prev = a.previousPacket();
        // Remembered clamped to what was sent: an ACK beyond that (a broken or hostile peer) must not make
        // every later, correct ACK look older and be ignored.
        int sentEnd = sq.nextToSend;
        lastAckFirst = first - sentEnd > 0 ? sentEnd : first;
        lastAckPrev = prev - sentEnd >= 0 ? sentEnd - 1 : prev;
        boolean timingAck = timesATransmission(a);
        int ackSerial = a.serial();
        int firstBefore = sq.first;
        rttSamples = 0;
        lostAgain = 0;
        matchedSentAtNs = NO_SAMPLE;
        onceSentAtNs = NO_SAMPLE;
        int newly = 0;
        int end = sq.clampToSent(first);
        while (sq.first - end < 0) {
            SendQueue.Entry e = sq.get(sq.first);
            // Entries soft-acked by an earlier ACK are not newly acknowledged: only the transmission the ACK
            // names may be timed from them (they may have waited a whole recovery behind a hole).
            if (timingAck) {
                consider(e, ackSerial, !e.softAcked);
            }
            if (!e.softAcked && e.transmits > 0) {
                delivered(now, e);
            }
            newly += sq.releaseFirst();
        }
        int highestSoft = 0;
        boolean nackBelow = false;
        boolean seenAck = false;
        // Walk from the top so a NACK is a hole only when an ACK lies above it.
        for (int i = a.nAcks() - 1; i >= 0; i--) {
            int seq = first + i;
            if (!sq.contains(seq) || seq - sq.nextToSend >= 0) {
                continue;
            }
            SendQueue.Entry e = sq.get(seq);
            if (a.isAcked(i)) {
                if (!seenAck) {
                    highestSoft = seq;
                }
                seenAck = true;
                if (timingAck) {
                    consider(e, ackSerial, !e.softAcked);
                }
                if (!e.softAcked) {
                    delivered(now, e);
                    sq.markSoftAcked(e);
                    newly++;
                }
            } else if (e.softAcked) {
                // The receiver dropped a packet it had soft-acked: resend it (§3).
                sq.markLost(seq);
                nackBelow = true;
            } else if (seenAck) {
                nackBelow = true;
                // A retransmission sent at least one RTT ago is still a hole below an ACK that a later
                // transmission triggered: it was lost again. Resend it now rather than after the RTO
                // (the idea of RFC 8985's time-based detection, applied to retransmissions).
                markLostAgain(now, e, seq, ackSerial, rtt, holesByTime);
            } else if (afterTimeout) {
                markLostAgain(now, e, seq, ackSerial, rtt, false);
            }
        }
        if (afterTimeout) {
            // Packets beyond the ACK's soft-ack range: the receiver has none of them.
            int from = first + a.nAcks();
            for (int seq = from - sq.first < 0 ? sq.first : from; seq - sq.nextToSend < 0; seq++) {
                markLostAgain(now, sq.get(seq), seq, ackSerial, rtt, false);
            }
        }
        takeSample(now, rtt);
        this.newlyAcked = newly;
        this.highestSoftAcked = highestSoft;
        this.holes = nackBelow;
        this.progress = newly > 0 || sq.first != firstBefore;
    }

    /**
     * The time rule (see {@link #onAck(long, AckPacket, RttEstimator, boolean, boolean)}): a retransmission (with
     * {@code firstTransmissionsToo}, any transmitted packet) that an ACK triggered by a later transmission does not
     * acknowledge, sent at least one srtt ago, was lost again; it is marked lost and counted.
     */
    private void markLostAgain(long now, SendQueue.Entry e, int seq, int ackSerial, RttEstimator rtt,
            boolean firstTransmissionsToo) {
        if ((e.transmits > 1 || firstTransmissionsToo) && !e.lost && !e.softAcked && ackSerial != 0
                && ackSerial - e.lastSerial > 0 && now - e.sentAtNs >= rtt.srttNs()) {
            sq.markLost(seq);
            lostAgain++;
        }
    }

    /**
     * Whether an ACK may time the DATA transmission its serial names: not a DELAY ack (it waited at the receiver) nor a
     * PING_RESPONSE (its serial names a PING, and the packets it newly acknowledges may have waited for the
     * receiver's ack rate; docs/engine.md "Receiver ACK policy"), and not serial 0.
     *
     * @param a the ACK
     * @return true when {@code now −} the named transmission's send time is an RTT sample (Karn's rule, RFC 6298 §3)
     */
    public static boolean timesATransmission(AckPacket a) {
        return a.serial() != 0 && a.reason() != AckReason.DELAY && a.reason() != AckReason.PING_RESPONSE;
    }

    /**
     * Notes a packet this ACK newly acknowledges as a candidate for the ACK's one RTT sample (Karn's rule,
     * RFC 6298 §3): the transmission the ACK's serial names, timed from that very transmission; failing that,
     * the latest-sent packet this ACK newly acknowledges that was transmitted exactly once (so its send time is
     * unambiguous). The named transmission is used even when an earlier ACK acknowledged its packet (a duplicate
     * arrival still triggers this ACK at once).
     */
    private void consider(SendQueue.Entry e, int ackSerial, boolean newly) {
        if (e.lastSerial == ackSerial) {
            matchedSentAtNs = e.sentAtNs;
        } else if (e.firstSerial == ackSerial) {
            matchedSentAtNs = e.firstSentAtNs;
        } else if (newly && e.transmits == 1 && (onceSentAtNs == NO_SAMPLE || e.sentAtNs - onceSentAtNs > 0)) {
            onceSentAtNs = e.sentAtNs;
        }
    }

    /** Feeds the ACK's one sample, if it has one, to the estimator. */
    private void takeSample(long now, RttEstimator rtt) {
        long sentAt = matchedSentAtNs != NO_SAMPLE ? matchedSentAtNs : onceSentAtNs;
        lastSampleNs = NO_SAMPLE;
        if (sentAt != NO_SAMPLE && now - sentAt >= 0) {
            lastSampleNs = now - sentAt;
            rtt.onSample(lastSampleNs);
            rttSamples = 1;
        }
    }

    /** @return the RTT sample the last ACK gave, ns, or {@link #NO_SAMPLE} */
    public long lastSampleNs() {
        return lastSampleNs;
    }

    /**
     * Fast retransmit: marks lost every sent packet in [{@code from}, {@code below}) that is neither soft-acked nor
     * already lost.
     *
     * @param from the ACK's firstPacket
     * @param below the highest soft-acked seq of the ACK
     */
    public void markHolesLost(int from, int below) {
        for (int s = from; s - below < 0; s++) {
            if (sq.contains(s)) {
                SendQueue.Entry e = sq.get(s);
                if (!e.softAcked && !e.lost && e.transmits > 0) {
                    sq.markLost(s);
                }
            }
        }
    }

    /** @return packets the last ACK acknowledged for the first time (hard or soft) */
    public int newlyAcked() {
        return newlyAcked;
    }

    /** @return the highest seq the last ACK soft-acked, 0 for none */
    public int highestSoftAcked() {
        return highestSoftAcked;
    }

    /** @return true when the last ACK showed a NACK below an ACK, or dropped a soft-acked packet */
    public boolean sawHoles() {
        return holes;
    }

    /** @return true when the last ACK acknowledged something new or moved tfirst */
    public boolean madeProgress() {
        return progress;
    }

    /**
     * @return retransmissions the last ACK showed lost again (still NACKed below an ACK at least one srtt after
     *     they were resent); they are marked lost and wait for their next resend
     */
    public int lostAgain() {
        return lostAgain;
    }

    /** @return RTT samples the last ACK gave: 0 or 1 */
    public int rttSamples() {
        return rttSamples;
    }
}
