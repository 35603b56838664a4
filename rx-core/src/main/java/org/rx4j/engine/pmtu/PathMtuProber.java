// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.RxConstants;

/**
 * One call's path-MTU probing, behind one door: the padded PINGs that prove large packets and jumbograms, the probe
 * ladders that find a path narrower than the call's packets and grow it again, the evidence probes, and the re-cut of
 * packets the path drops (docs/engine.md "Packet size", "Path MTU below one full packet"). Its one owner, the call's
 * sender, tells it what happened (a transmission pass starts or ends, a datagram of new data left, a retransmission
 * timeout, an ACK, the recovery probe timer) and asks two things: whether the next new packet waits, and until when
 * the call may stay stuck on packets the path drops. Everything else it reads from, or asks of, its
 * {@link PathMtuCall}. Reads the call's {@link SendQueue} and the peer's {@link PathMtuState}. Runs on the engine's
 * thread; times are ns on the engine's clock.
 */
public final class PathMtuProber {
    /** What {@link #stuckDeadlineNs} returns while the call is not stuck on large packets. */
    public static final long NOT_STUCK = Long.MAX_VALUE;

    /** The path state of the call's peer (a connection's peer never changes). */
    private final PathMtuState state;
    private final SendQueue sq;
    private final PathMtuCall call;
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
    /**
     * The outstanding large-packet probes; made when this call first sends them: most calls never do (once per peer,
     * whichever call sends).
     */
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
     * @param call the owning call: sizes of now, probe sending, re-cuts
     * @param server true on the server side of the call
     * @param deadTimeNs the dead time, ns: how long a call stuck on packets the path drops lives on
     */
    public PathMtuProber(PathMtuState state, SendQueue sq, PathMtuCall call, boolean server, long deadTimeNs) {
        this.state = state;
        this.sq = sq;
        this.call = call;
        this.server = server;
        this.deadTimeNs = deadTimeNs;
    }

    // =====================================================================================
    // The door

    /**
     * A transmission pass starts: sends the probes that are due. Jumbograms: while the path is held to fewer
     * sub-packets than {@link PathMtuCall#jumboWant}, one PING of that jumbogram's size every
     * {@link PathMtuState#PROBE_INTERVAL_NS} (an unanswered one is superseded by the next). Large packets: when the
     * peer advertises room for packets above what is proven, a PING padded to that size, with PINGs of the common
     * wide-path sizes between ({@link LargeProbes}), repeated after {@link PathMtuCall#largeProbeQuickWaitNs}
     * {@link PathMtuState#LARGE_PROBE_QUICK_TRIES} times in all, then every {@link PathMtuState#PROBE_INTERVAL_NS};
     * once per peer, whichever of its calls is sending. Upward: while the path is held below its usual packet size,
     * a ladder from the usual size down to just above the held one every {@link PathMtuState#RAISE_INTERVAL_NS}.
     *
     * @param now current time, ns
     */
    public void beforeTransmit(long now) {
        int want = call.jumboWant();
        if (state.jumboProbeDue(now, want)) {
            jumboProbePackets = want;
            jumboProbeSerial = call.send(now, jumbogramBytes(want));
            state.onJumboProbeSent(now);
        }
        int target = call.largePacketTarget();
        if (state.largeProbeDue(now, target, call.largeProbeQuickWaitNs())) {
            if (largeProbes == null) {
                largeProbes = new LargeProbes();
            }
            largeProbes.send(now, target, state.provenPacketSize(), call);
            state.onLargeProbeSent(now);
        }
        if (state.limited()) {
            int usual = call.usualPacketSize();
            if (state.takeRaise(now, usual)) {
                sendLadder(now, false, usual, true);
            }
        }
    }

    /**
     * Whether the next new packet waits: a packet smaller than ones this call sent before must not go out while
     * larger ones are marked lost: it could arrive where they do not, and a packet the receiver holds blocks the
     * re-cut of every packet before it. Full-size packets behind full-size ones are never held (the fast path: one
     * comparison). Not held: a short last packet in the first flight on a path never proven (holding it would cost
     * every new peer's first multi-packet message a round trip).
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
     * A datagram of new data went out: its packets' sizes (the largest this call sent is verified once acknowledged)
     * and whether it was a jumbogram or held a large packet (what a timeout then blames).
     *
     * @param first the seq of its first packet
     * @param packets its sub-packets, at least 1
     */
    public void onDatagramSent(int first, int packets) {
        int lastWire = 0;
        for (int i = 0; i < packets; i++) {
            lastWire = sq.get(first + i).wire().readableBytes();
            int bytes = RxConstants.HEADER_SIZE + lastWire;
            if (bytes > largestSentPacket) {
                largestSentPacket = bytes;
                largestSentSeq = first + i;
            }
        }
        lastDatagramPackets = packets;
        lastDatagramLarge = lastWire > RxConstants.REMOTE_PACKET_SIZE - RxConstants.HEADER_SIZE;
    }

    /**
     * A transmission pass ended, or everything sent was acknowledged at once: a client request sent whole without a
     * full-size packet, to a peer whose path has not carried one of ours, gets one PING padded to the full size (at
     * most one per {@link PathMtuState#PROBE_INTERVAL_NS} per peer), so later requests' first packets are cut at the
     * full size again. A request with full-size packets proves the path through their acks instead.
     *
     * @param now current time, ns
     * @param firstCutSmall true when this call's first packet was cut small
     */
    public void afterSending(long now, boolean firstCutSmall) {
        if (server || !firstCutSmall || sq.lastSeq() - 1 <= 0 || sq.nextToSend() - sq.lastSeq() <= 0
                || sq.first() == 1) {
            // Only a request whose first packet was cut small, more than one packet long, sent whole, and whose
            // packet 1 the server consumed (its call runs: a call still held in PRECALL answers no PING).
            return;
        }
        int full = call.fullPacketSize();
        if (largestSentPacket >= full
                || (ladder != null && ladder.downwardWithin(now, PathMtuState.PROBE_INTERVAL_NS))) {
            return;
        }
        if (state.takeVerifyProbe(now, full)) {
            sendLadder(now, false, full, false);
        }
    }

    /**
     * A retransmission timeout. After jumbograms the path is held to single packets (a black hole for them); after
     * large packets new data goes back to the default size, and the call counts as stuck on large packets until
     * something is acknowledged or they are re-cut. When the call resends: with packets larger than 520 bytes lost
     * (the first timeout for packets above 1444 bytes, the second in a row without progress for default-size ones)
     * while the peer was heard from after they first left, a downward probe ladder goes out instead of the resend
     * (at most one per {@link PathMtuState#PROBE_INTERVAL_NS} per peer); when the path is already known to be
     * narrower, one PING of the known size asks the receiver what it holds. The lost packets are not resent with the
     * ladder: their last transmission must lie well before the PING that asks about them.
     *
     * @param now current time, ns
     * @param resending true when the call resends (or probes for) what it has in flight now
     * @return true when a ladder went out (the caller sends no data now)
     */
    public boolean onTimeout(long now, boolean resending) {
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
        return resending && probeDownward(now);
    }

    /**
     * An ACK arrived (after the call's recovery read it). A PING_RESPONSE to the jumbogram or a large-packet probe
     * proves the path carries datagrams of its size; one that acknowledged something new shows the path carries what
     * this call sends after all (the largest packet sent is verified once the ACK covers it); an answer to a probe of
     * the outstanding ladder teaches the peer's path state, and then the call's packets larger than the peer's packet
     * size now are re-cut through {@link PathMtuCall#recut} where that is safe: the receiver assembles by seq and Rx
     * cannot split a seq after transmission, so a seq the receiver may hold, or may still receive, must never be sent
     * again with other bytes. Packets never transmitted are always safe. A transmitted one is safe only when all of
     * these hold for it and for every transmitted packet after it: (1) the answer shows it not held (at or above
     * firstPacket, not soft-acked) and our own state has it not soft-acked; (2) its last transmission went out at
     * least {@link PathMtuCall#recutMarginNs} before the ladder, so a copy still on its way would have had to be
     * overtaken by a datagram sent that much later; (3) it is larger than what the probes show the path carries now,
     * so its copies were dropped by the path rather than delayed. Condition 3 for every packet is what keeps a
     * transmitted LAST_PACKET that may still arrive from being renumbered: the receiver keeps the first LAST it
     * accepts (docs/engine.md "One DATA packet's way"). When that fails the call counts as stuck on large packets
     * ({@link #stuckDeadlineNs}).
     *
     * @param now current time, ns
     * @param a the ACK (not consumed)
     * @param progress true when the ACK acknowledged something new for this call's recovery
     */
    public void onAck(long now, AckPacket a, boolean progress) {
        if (a.reason() == AckReason.PING_RESPONSE) {
            int proven = largeProbes == null ? 0 : largeProbes.answered(a.reason(), a.serial());
            if (proven != 0) {
                state.onLargeProven(proven);
            }
            if (jumboProbeSerial != 0 && a.serial() == jumboProbeSerial) {
                state.onJumboProven(jumboProbePackets, call.jumboWant());
                jumboProbeSerial = 0;
            }
        }
        if (progress) {
            largeStuck = false;
            timeoutsWithoutProgress = 0;
            if (largestSentSeq != 0 && holds(a, largestSentSeq)) {
                state.onVerified(largestSentPacket);
            }
        }
        if (ladder == null || !ladder.onAnswer(now, a, state)) {
            return;
        }
        int max = call.packetDataSize();
        int from = recutFrom(now, a, max, call.recutMarginNs());
        if (from == sq.next()) {
            return;
        }
        boolean transmitted = from - sq.nextToSend() < 0;
        call.recut(from, max, transmitted);
        if (transmitted) {
            largestSentPacket = 0;
            largestSentSeq = 0;
            largeStuck = false;
            lastDatagramLarge = false;
        }
    }

    /**
     * The call's recovery probe timer fired (a PING is due). When packets larger than the path is known to carry
     * wait for their re-cut, the probe is a PING padded to the known size: its answer both proves the size and says
     * what the receiver holds, the evidence a re-cut needs ({@link #onAck}).
     *
     * @param now current time, ns
     * @return true when that PING went out (the caller sends no plain PING)
     */
    public boolean onRecoveryProbe(long now) {
        int pathMtu = state.pathMtu();
        if (pathMtu == Integer.MAX_VALUE) {
            return false;
        }
        if (firstLargerThan(sq.first(), sq.nextToSend(), pathMtu - RxConstants.HEADER_SIZE) != sq.nextToSend()) {
            sendLadder(now, true, pathMtu, false);
            return true;
        }
        return false;
    }

    /**
     * A route whose MTU shrank under packets already sent that cannot be re-cut: they are resent as they are and
     * never arrive, while the small ACKs and PINGs keep the call from its dead time. Such a call must end
     * (RX_CALL_DEAD) once a timeout with large packets in flight, or a re-cut found unsafe, was followed by a dead
     * time with nothing acknowledged.
     *
     * @return when the call must end for it (engine clock, ns), or {@link #NOT_STUCK} while it is not stuck
     */
    public long stuckDeadlineNs() {
        return largeStuck ? largeStuckSinceNs + deadTimeNs : NOT_STUCK;
    }

    // =====================================================================================
    // Behind the door

    /** @return bytes on the wire of a jumbogram of {@code packets} full sub-packets (Rx header included) */
    static int jumbogramBytes(int packets) {
        return RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE + (packets - 1) * RxConstants.JUMBO_STRIDE;
    }

    /** {@link #onTimeout}'s downward probe: true when a ladder (or the one PING of the known size) went out. */
    private boolean probeDownward(long now) {
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
        if (!call.heardSince(firstLostSentNs)) {
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

    private void sendLadder(long now, boolean down, int top, boolean steps) {
        if (ladder == null) {
            ladder = new ProbeLadder();
        }
        ladder.send(now, down, top, steps, state.pathMtu(), call);
    }

    /**
     * {@link #onAck}'s re-cut decision after a ladder probe's answer {@code a}; marks the call stuck when a re-cut is
     * needed but not safe.
     *
     * @return the first seq to re-cut from at {@code max}; {@code sq.next()} when none is re-cut
     */
    private int recutFrom(long now, AckPacket a, int max, long marginNs) {
        int from = firstLargerThan(sq.first(), sq.next(), max);
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

    private void markStuck(long now) {
        if (!largeStuck) {
            largeStuck = true;
            largeStuckSinceNs = now;
        }
    }

    /** @return true when the ACK says the receiver holds {@code seq} (hard-acked, or soft-acked in its bitmap) */
    static boolean holds(AckPacket a, int seq) {
        int i = seq - a.firstPacket();
        return i < 0 || (i < a.nAcks() && a.isAcked(i));
    }

    /** @return the first seq in [from, end) whose payload is larger than {@code max} bytes, or {@code end} */
    private int firstLargerThan(int from, int end, int max) {
        int s = from;
        while (s - end < 0 && sq.get(s).payload().readableBytes() <= max) {
            s++;
        }
        return s;
    }
}
