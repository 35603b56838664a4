// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import java.util.function.LongPredicate;
import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.RxConstants;

/**
 * One call's path-MTU probing: the padded PINGs that prove large packets and jumbograms, the probe ladders that find
 * a path narrower than the call's packets and grow it again, the evidence probes, and whether packets already sent
 * may be re-cut (docs/engine.md "Packet size", "Path MTU below one full packet"). Reads the call's
 * {@link SendQueue} and the peer's {@link PathMtuState}; sends through a {@link ProbeSender}; never cuts a packet
 * itself: the call's sender asks and does. Runs on the engine's thread; times are ns on the engine's clock.
 */
public final class PathMtuProber {
    /** The path state of the call's peer (a connection's peer never changes). */
    private final PathMtuState state;
    private final SendQueue sq;
    private final ProbeSender probes;
    private final boolean server;
    private final long deadTimeNs;
    /** The outstanding probe ladder; created with the first one (most calls never send one). */
    private ProbeLadder ladder;
    /** Sub-packets in the last datagram of new data sent (jumbogram black-hole detection). */
    private int lastDatagramPackets;
    /** True when the last datagram of new data held a packet larger than 1444 bytes (large-packet fallback). */
    private boolean lastDatagramLarge;
    /** When a timeout hit with large packets in flight and nothing was acknowledged since, ns; valid if the flag. */
    private long largeStuckSinceNs;
    private boolean largeStuck;
    /** The outstanding large-packet probes. */
    /** Made when this call first sends large probes: most calls never do (once per peer, whichever call sends). */
    private LargeProbes largeProbes;
    /** Serial of the outstanding jumbogram probe, 0 for none; the sub-packets its size stands for. */
    private int jumboProbeSerial;
    private int jumboProbePackets;
    /** Retransmission timeouts since the peer last acknowledged something new. */
    private int timeoutsWithoutProgress;
    /** Largest DATA packet this call transmitted, bytes (Rx header included), and the first seq of that size. */
    private int largestSentPacket;
    private int largestSentSeq;

    /**
     * @param state the path state of the call's peer (shared by the peer's calls)
     * @param sq the call's send queue (read only)
     * @param probes sends the padded PINGs
     * @param server true on the server side of the call
     * @param deadTimeNs the dead time, ns: how long a call stuck on packets the path drops lives on
     */
    public PathMtuProber(PathMtuState state, SendQueue sq, ProbeSender probes, boolean server,
            long deadTimeNs) {
        this.state = state;
        this.sq = sq;
        this.probes = probes;
        this.server = server;
        this.deadTimeNs = deadTimeNs;
    }

    // Before a transmission

    /**
     * While the path is held to fewer sub-packets than {@code want}, probes for jumbograms of {@code want} every
     * {@link PathMtuState#PROBE_INTERVAL_NS}; an unanswered probe is superseded by the next one.
     *
     * @param now current time, ns
     * @param want sub-packets per datagram the peer and this endpoint allow
     */
    public void maybeProbeJumbograms(long now, int want) {
        if (state.jumboProbeDue(now, want)) {
            jumboProbePackets = want;
            jumboProbeSerial = probes.send(now, jumbogramBytes(want));
            state.onJumboProbeSent(now);
        }
    }

    /** @return bytes on the wire of a jumbogram of {@code packets} full sub-packets (Rx header included) */
    static int jumbogramBytes(int packets) {
        return RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE + (packets - 1) * RxConstants.JUMBO_STRIDE;
    }

    /**
     * Large packets: when the peer advertises room for packets above what is proven, a PING padded to that size goes
     * out first, with PINGs of the common wide-path sizes between ({@link LargeProbes}); a PING_RESPONSE proves its
     * size ({@link #onPingResponse}), the largest answered wins. Unanswered, it is repeated after
     * {@code quickWaitNs} {@link PathMtuState#LARGE_PROBE_QUICK_TRIES} times in all, then every
     * {@link PathMtuState#PROBE_INTERVAL_NS}; once per peer, whichever of its calls is sending.
     *
     * @param now current time, ns
     * @param target the largest packet worth probing for toward the peer, bytes
     * @param quickWaitNs 2 srtt of now, at least the minimum RTO, ns
     */
    public void maybeProbeLargePackets(long now, int target, long quickWaitNs) {
        if (state.largeProbeDue(now, target, quickWaitNs)) {
            if (largeProbes == null) {
                largeProbes = new LargeProbes();
            }
            largeProbes.send(now, target, state.provenPacketSize(), probes);
            state.onLargeProbeSent(now);
        }
    }

    /**
     * While the path is held below its usual packet size, probes upward every
     * {@link PathMtuState#RAISE_INTERVAL_NS}: a ladder from the usual size down to just above the held one.
     *
     * @param now current time, ns
     * @param usual the usual packet size toward the peer, bytes
     */
    public void maybeRaise(long now, int usual) {
        if (state.takeRaise(now, usual)) {
            sendLadder(now, false, usual, true);
        }
    }

    /**
     * A client request sent whole without a full-size packet, to a peer whose path has not carried one of ours: one
     * PING padded to the full size (at most one per {@link PathMtuState#PROBE_INTERVAL_NS} per peer) proves it, so
     * later requests' first packets are cut at the full size again. A request with full-size packets proves the path
     * through their acks instead.
     *
     * @param now current time, ns
     * @param full the full packet size toward the peer, bytes (header + data)
     * @param firstCutSmall true when this call's first packet was cut small
     */
    public void maybeVerifyFullSize(long now, int full, boolean firstCutSmall) {
        if (server || !firstCutSmall || sq.lastSeq() - 1 <= 0 || sq.nextToSend() - sq.lastSeq() <= 0
                || sq.first() == 1) {
            // Only a request whose first packet was cut small, more than one packet long, sent whole, and whose
            // packet 1 the server consumed (its call runs: a call still held in PRECALL answers no PING).
            return;
        }
        if (largestSentPacket >= full
                || (ladder != null && ladder.downwardWithin(now, PathMtuState.PROBE_INTERVAL_NS))) {
            return;
        }
        if (state.takeVerifyProbe(now, full)) {
            sendLadder(now, false, full, false);
        }
    }

    // Transmissions

    /**
     * Keeps a packet smaller than ones this call sent before from going out while larger ones are marked lost: it
     * could arrive where they do not, and a packet the receiver holds blocks the re-cut of every packet before it.
     * Full-size packets behind full-size ones are never held (the fast path: one comparison). Not held: a short last
     * packet in the first flight on a path never proven (holding it would cost every new peer's first multi-packet
     * message a round trip).
     *
     * @param seq the next new packet, never transmitted
     * @return true when it must wait
     */
    public boolean holdsBack(int seq) {
        int size = sq.get(seq).payload().readableBytes();
        if (RxConstants.HEADER_SIZE + size >= largestSentPacket || sq.nextToSend() == sq.first()) {
            return false;
        }
        if (sq.lostCount() > 0) {
            for (int s = sq.first(); s - sq.nextToSend() < 0; s++) {
                SendQueue.Entry e = sq.get(s);
                if (e.isLost() && e.payload().readableBytes() > size) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A new DATA packet is transmitted.
     *
     * @param seq its seq
     * @param bytes its size, Rx header included, bytes
     */
    public void onPacketSent(int seq, int bytes) {
        if (bytes > largestSentPacket) {
            largestSentPacket = bytes;
            largestSentSeq = seq;
        }
    }

    /**
     * A datagram of new data went out.
     *
     * @param packets its sub-packets
     * @param lastPayloadBytes data bytes of its last packet
     */
    public void onDatagramSent(int packets, int lastPayloadBytes) {
        lastDatagramPackets = packets;
        lastDatagramLarge = lastPayloadBytes > RxConstants.REMOTE_PACKET_SIZE - RxConstants.HEADER_SIZE;
    }

    // Timeouts

    /**
     * A retransmission timeout. After jumbograms the path is held to single packets (a black hole for them); after
     * large packets new data goes back to the default size, and the call counts as stuck on large packets until
     * something is acknowledged or they are re-cut.
     *
     * @param now current time, ns
     */
    public void onTimeout(long now) {
        timeoutsWithoutProgress++;
        if (lastDatagramPackets > 1) {
            state.holdToSinglePackets(now);
            lastDatagramPackets = 1;
        }
        if (lastDatagramLarge) {
            markStuck(now);
            state.onLargeFailed(now);
            lastDatagramLarge = false;
        }
    }

    /**
     * After a retransmission timeout: with packets larger than 520 bytes lost (the first timeout for packets above
     * 1444 bytes, the second in a row without progress for default-size ones) while the peer was heard from after
     * they first left, sends a downward probe ladder instead of resending them (at most one per
     * {@link PathMtuState#PROBE_INTERVAL_NS} per peer); when the path is already known to be narrower, one PING of
     * the known size asks the receiver what it holds. The lost packets are not resent with the ladder: their last
     * transmission must lie well before the PING that asks about them.
     *
     * @param now current time, ns
     * @param heardSince whether a packet came from the peer after a time (ns)
     * @return true when a ladder went out (the caller sends no data now)
     */
    public boolean probeDownward(long now, LongPredicate heardSince) {
        if (sq.nextToSend() == sq.first()) {
            return false;
        }
        int failing = 0;
        long firstLostSentNs = 0;
        for (int s = sq.first(); s - sq.nextToSend() < 0; s++) {
            SendQueue.Entry e = sq.get(s);
            if (e.isLost()) {
                if (failing == 0) {
                    firstLostSentNs = e.firstSentAtNs();
                }
                failing = Math.max(failing, RxConstants.HEADER_SIZE + e.payload().readableBytes());
            }
        }
        if (!server && sq.first() == 1 && sq.get(1).isLost()
                && sq.get(1).payload().readableBytes() > PathMtuState.FIRST_PACKET_DATA) {
            // The request's first packet may be too large for the path: then the server never hears of this call
            // and cannot answer its probes. The next call's first packet is cut small again.
            state.forgetVerified();
        }
        // Packets above 1444 bytes (a large size the path carried before) are suspect at the first timeout, default
        // ones at the second in a row (plain loss is the likelier cause). A black hole for large datagrams, not a
        // silent peer: the peer was heard after the lost data first left; a silent peer gets the usual resends.
        int needed = failing > RxConstants.REMOTE_PACKET_SIZE ? 1 : 2;
        if (failing <= RxConstants.MIN_PACKET_SIZE || timeoutsWithoutProgress < needed) {
            return false;
        }
        if (!heardSince.test(firstLostSentNs)) {
            return false; // the recovery probes ask a receiver with nothing to say to speak
        }
        if (state.pathMtu() < failing) {
            sendLadder(now, true, state.pathMtu(), false);
        } else if (state.ladderAllowed(now)) {
            sendLadder(now, true, failing, true);
        } else {
            return false;
        }
        state.onLadderSent(now);
        return true;
    }

    /**
     * When packets larger than the path is known to carry wait for their re-cut, the recovery probe is a PING padded
     * to the known size: its answer both proves the size and says what the receiver holds, the evidence
     * {@link #recutFrom} needs.
     *
     * @param now current time, ns
     * @return true when it went out (instead of the plain PING)
     */
    public boolean evidenceProbe(long now) {
        int pathMtu = state.pathMtu();
        if (pathMtu == Integer.MAX_VALUE) {
            return false;
        }
        if (firstLargerThan(sq, sq.first(), sq.nextToSend(), pathMtu - RxConstants.HEADER_SIZE) != sq.nextToSend()) {
            sendLadder(now, true, pathMtu, false);
            return true;
        }
        return false;
    }

    private void sendLadder(long now, boolean down, int top, boolean steps) {
        if (ladder == null) {
            ladder = new ProbeLadder();
        }
        ladder.send(now, down, top, steps, state.pathMtu(), probes);
    }

    // Answers

    /**
     * An ACK arrived: a PING_RESPONSE to the jumbogram or the large-packet probe proves the path carries datagrams of
     * its size.
     *
     * @param reason the ACK's reason
     * @param serial the serial it acknowledges
     * @param jumboWant sub-packets per datagram the peer and this endpoint allow
     */
    public void onPingResponse(int reason, int serial, int jumboWant) {
        int proven = largeProbes == null ? 0 : largeProbes.answered(reason, serial);
        if (proven != 0) {
            state.onLargeProven(proven);
        }
        if (jumboProbeSerial != 0 && reason == AckReason.PING_RESPONSE && serial == jumboProbeSerial) {
            state.onJumboProven(jumboProbePackets, jumboWant);
            jumboProbeSerial = 0;
        }
    }

    /**
     * An ACK arrived: when it answers a probe of the outstanding ladder, the peer's path state learns from it, and
     * the caller should ask {@link #recutFrom} next.
     *
     * @param now current time, ns
     * @param a the ACK (not consumed)
     * @return true when {@code a} answered a ladder probe
     */
    public boolean onLadderAnswer(long now, AckPacket a) {
        return ladder != null && ladder.onAnswer(now, a, state);
    }

    /**
     * Which of this call's packets larger than {@code max} may be re-cut, after a ladder probe's answer {@code a}. The
     * receiver assembles by seq and Rx cannot split a seq after transmission, so a seq the receiver may hold, or may
     * still receive, must never be sent again with other bytes. Packets never transmitted are always safe. A
     * transmitted one is safe only when all of these hold for it and for every transmitted packet after it: (1) the
     * answer shows it not held (at or above firstPacket, not soft-acked) and our own state has it not soft-acked;
     * (2) its last transmission went out at least {@code marginNs} before the ladder, so a copy still on its way would
     * have had to be overtaken by a datagram sent that much later; (3) it is larger than {@code max}, what the
     * probes show the path carries now, so its copies were dropped by the path rather than delayed. Condition 3 for
     * every packet is what keeps a transmitted LAST_PACKET that may still arrive from being renumbered: the receiver
     * keeps the first LAST it accepts (docs/engine.md "One DATA packet's way"). When that fails the call counts as
     * stuck on large packets ({@link #mustEnd}).
     *
     * @param now current time, ns
     * @param a the PING_RESPONSE (the receiver's state when the probe arrived)
     * @param max the peer's data bytes per packet now
     * @param marginNs max(srtt, minimum RTO) + the RTO slack, ns
     * @return the first seq to re-cut from at {@code max}; {@code sq.next()} when none is re-cut
     */
    public int recutFrom(long now, AckPacket a, int max, long marginNs) {
        int from = firstLargerThan(sq, sq.first(), sq.next(), max);
        if (from == sq.next()) {
            return from;
        }
        for (int s = from; s - sq.nextToSend() < 0; s++) {
            SendQueue.Entry e = sq.get(s);
            // Condition 3 for each: a sent packet the path carries (a short LAST, say) may be late, not lost.
            if (e.isSoftAcked() || holds(a, s) || ladder.sentNs() - e.lastSentAtNs() < marginNs
                    || e.payload().readableBytes() <= max) {
                markStuck(now);
                return sq.next();
            }
        }
        return from;
    }

    /**
     * The caller re-cut from the seq {@link #recutFrom} gave.
     *
     * @param transmitted true when packets already transmitted were re-cut: the call is no longer stuck
     */
    public void onRecut(boolean transmitted) {
        if (transmitted) {
            largestSentPacket = 0;
            largestSentSeq = 0;
            largeStuck = false;
            lastDatagramLarge = false;
        }
    }

    /**
     * An ACK acknowledged something new: the path carries what this call sends after all; the largest packet sent
     * is verified once the ACK covers it.
     *
     * @param a the ACK (not consumed)
     */
    public void onProgress(AckPacket a) {
        largeStuck = false;
        timeoutsWithoutProgress = 0;
        if (largestSentSeq != 0 && holds(a, largestSentSeq)) {
            state.onVerified(largestSentPacket);
        }
    }

    // Stuck on packets the path drops

    private void markStuck(long now) {
        if (!largeStuck) {
            largeStuck = true;
            largeStuckSinceNs = now;
        }
    }

    /**
     * A route whose MTU shrank under packets already sent that cannot be re-cut: they are resent as they are and
     * never arrive, while the small ACKs and PINGs keep the call from its dead time. Such a call must end (RX_CALL_DEAD)
     * once a timeout with large packets in flight, or a re-cut found unsafe, was followed by a dead time with nothing
     * acknowledged.
     *
     * @param now current time, ns
     * @return true when the call must end
     */
    public boolean mustEnd(long now) {
        return largeStuck && now - (largeStuckSinceNs + deadTimeNs) >= 0;
    }

    /** @return true while the call counts as stuck on large packets (its dead time runs) */
    public boolean stuckOnLargePackets() {
        return largeStuck;
    }

    /** @return when {@link #mustEnd} turns true (engine clock, ns); valid while {@link #stuckOnLargePackets} */
    public long stuckDeadlineNs() {
        return largeStuckSinceNs + deadTimeNs;
    }

    // Helpers

    /** @return true when the ACK says the receiver holds {@code seq} (hard-acked, or soft-acked in its bitmap) */
    static boolean holds(AckPacket a, int seq) {
        int i = seq - a.firstPacket();
        return i < 0 || (i < a.nAcks() && a.isAcked(i));
    }

    /**
     * @param sq a send queue
     * @param from the first seq to look at
     * @param end the seq after the last one to look at
     * @param max payload bytes
     * @return the first seq in [from, end) whose payload is larger than {@code max}, or {@code end} when none is
     */
    public static int firstLargerThan(SendQueue sq, int from, int end, int max) {
        int s = from;
        while (s - end < 0 && sq.get(s).payload().readableBytes() <= max) {
            s++;
        }
        return s;
    }
}
