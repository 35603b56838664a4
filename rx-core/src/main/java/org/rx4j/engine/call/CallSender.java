// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.cc.CongestionController;
import org.rx4j.engine.cc.CongestionControllerSupplier;
import org.rx4j.engine.cc.JumboSizer;
import org.rx4j.engine.peer.CarriedWindow;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.pmtu.PathMtuCall;
import org.rx4j.engine.pmtu.PathMtuProber;
import org.rx4j.engine.pmtu.PathMtuState;
import org.rx4j.engine.recovery.AckValidator;
import org.rx4j.engine.recovery.RecoveryManager;
import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.engine.telemetry.CallCounters;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxConstants;

/**
 * The transmit side of one {@link Call}: cuts the application's bytes into packets, sends what the windows (twind,
 * cwnd) allow with jumbogram grouping and the REQUEST_ACK policy, builds the DATA packets, applies the peer's ACK
 * trailers, and hands each ACK's body and the retransmit timeout to its {@link RecoveryManager}
 * (rx-wire-facts.md §3, §4, §5, §8). The one owner of the call's {@link PathMtuProber}: tells it what happened (a
 * pass starts or ends, a datagram left, a timeout, an ACK, the recovery probe timer) and lets it probe and re-cut
 * through {@link ProbingCall}; the packet size comes from the peer's {@link PathMtuState}; {@link PacketCutter} cuts
 * (docs/engine.md "Packet size", "Path MTU below one full packet"). Gets every collaborator in its constructor; talks
 * upward only through the call's {@link CallOutput}. Runs on the engine's thread; times are ns on the engine's
 * clock.
 */
public final class CallSender {
    private final RxConfig config;
    private final CallOutput out;
    private final SendQueue sq;
    private final CongestionController cc;
    private final JumboSizer jumbo;
    private final RecoveryManager recovery;
    private final AckScheduler acks;
    private final CallCounters stats;
    private final boolean server;
    private final PacketCutter cutter;
    private final PathMtuProber pmtu;
    private final AckIntake intake;
    private final RecoveryProbes probes;
    private final DataDatagrams datagrams;
    private final CallActivity activity;

    /** The transmit window, packets. */
    int twind;
    /** Where this call's congestion state started (carried from the peer's earlier calls or initial). */
    private final CarriedWindow.Start start;
    /** True once the peer acknowledged some of this call's DATA (it proved the path this call used). */
    private boolean acked;
    /** The most packets this call had in flight at once. */
    private int maxInFlight;
    /** When the pacer lets the next datagram leave (engine clock, ns), or NONE when not waiting for it. */
    private long pacingDeadlineNs = Deadlines.NONE;

    /**
     * Starts the send side of a new call. Its windows start from what the peer's earlier calls learned
     * ({@link CarriedWindow#start}: not after an idle longer than max(1 s, RTO), RFC 5681 §4.1; not for a server call
     * to a peer that has not proved its address); the congestion controller comes from {@code ccSupplier}.
     */
    CallSender(RxConfig config, CallOutput out, SendQueue sq, AckScheduler acks, CallActivity activity,
            CallCounters stats, ByteBufAllocator alloc, boolean server, CongestionControllerSupplier ccSupplier,
            long now) {
        this.config = config;
        this.out = out;
        this.sq = sq;
        this.acks = acks;
        this.stats = stats;
        this.activity = activity;
        this.server = server;
        Peer peer = out.peer();
        this.cutter = new PacketCutter(sq, alloc, out.dataPerPacket(peer.packetDataSize(config)));
        this.pmtu = new PathMtuProber(peer.pathMtuState(), sq, new ProbingCall(), server,
                config.timeouts().deadTimeNs());
        int peerRwind = peer.lastRwind > 0 ? peer.lastRwind : RxConfig.INITIAL_WINDOW;
        this.twind = Math.min(config.windows().maxTwind(), peerRwind);
        // A server call carries nothing to a peer that has not proved its address (docs/engine.md "Carried state").
        this.start = peer.carried.start(now, peer.rtt().rtoNs(), config.congestion().initialCwnd(),
                config.congestion().initialSsthresh(), !server || peer.isReachable(now));
        this.cc = ccSupplier.newController(Math.min(start.cwnd(), config.windows().maxTwind()), start.ssthresh(),
                config.windows().maxTwind(), peer.path);
        this.jumbo = new JumboSizer(4);
        jumbo.setMax(config.packetSize().jumboMax());
        if (start.carried()) {
            jumbo.restore(start.jumbo());
        }
        this.recovery = new RecoveryManager(sq, cc, jumbo, peer.path.rate());
        this.intake = new AckIntake(config, out, sq, recovery, stats);
        this.probes = new RecoveryProbes(config, out, sq, recovery);
        this.datagrams = new DataDatagrams(out, sq, cc, recovery, activity, stats, intake, alloc);
        peer.congestion(cc);
    }

    /**
     * Hands this call's congestion state on to the peer's next calls, once the peer acknowledged some of its DATA
     * ({@link CarriedWindow#save}; docs/engine.md "Carried state").
     *
     * @param now current time, ns
     */
    void saveCongestionState(long now) {
        Peer peer = out.peer();
        peer.carried.save(now, peer.rtt().rtoNs(), start, acked, cc.cwnd(), cc.ssthresh(), jumbo.size(), maxInFlight);
    }

    // =====================================================================================
    // Application bytes

    /**
     * Queues the application's bytes at the peer's packet size now; a client's first packet is cut small on a path
     * that never carried a full-size packet of ours ({@link PathMtuState#firstPacketData}). Ownership: takes
     * {@code data} (released by the cutter).
     */
    void append(ByteBuf data) {
        Peer peer = out.peer();
        int payload = peer.packetDataSize(config);
        int size = out.dataPerPacket(payload);
        cutter.append(data, size, server ? size : out.dataPerPacket(peer.pathMtuState().firstPacketData(payload)));
    }

    /** @return true when the partly filled packet was queued as a short packet; false when none holds bytes */
    boolean flushPartial() {
        return cutter.flushPartial();
    }

    /** Queues the last packet (LAST_PACKET): the partial packet, or an empty one (§6). */
    void finish() {
        cutter.finish();
    }

    /** Releases every queued packet and the partial one, and stops the retransmit timer (call teardown). */
    void release() {
        sq.releaseAll();
        recovery.syncInFlight();
        pacingDeadlineNs = Deadlines.NONE;
        cc.close();
        cutter.release();
        recovery.cancel();
        probes.cancel();
        datagrams.release();
    }

    // =====================================================================================
    // Transmission

    /**
     * Sends what the windows allow: lost packets first (one per datagram, REQUEST_ACK), then new packets,
     * joined into jumbograms when the peer accepts them (rx-wire-facts.md §4, §5, §8). The caller checks
     * that the call is ACTIVE or HOLD.
     */
    void transmit(long now) {
        Peer peer = out.peer();
        pmtu.beforeTransmit(now);
        int size = out.dataPerPacket(peer.packetDataSize(config));
        cutter.recutUnsent(size);
        cutter.growUnsent(size);
        int cwnd = Math.min(cc.sendWindow(sq.inFlight()), peer.bufferedPacketLimit(RxConstants.HEADER_SIZE + size));
        pacingDeadlineNs = Deadlines.NONE;
        boolean paced = false;
        if (sq.lostCount() > 0) {
            int pathMtu = peer.pathMtu();
            for (int s = sq.first(); s - sq.nextToSend() < 0 && sq.lostCount() > 0 && sq.inFlight() < cwnd; s++) {
                SendQueue.Entry e = sq.get(s);
                // A packet larger than the path is known to carry is not resent: it cannot arrive, and its re-cut
                // waits for a probe answer well after its last copy (PathMtuProber.onAck).
                if (e.isLost() && RxConstants.HEADER_SIZE + e.wire().readableBytes() <= pathMtu) {
                    if (pacedOut(now)) {
                        paced = true;
                        break;
                    }
                    datagrams.resend(now, s, e);
                }
            }
        }
        int limit = sq.first() + twind;
        int maxJumbo = jumboLimit();
        while (!paced && sq.nextToSend() - sq.next() < 0 && sq.nextToSend() - limit < 0 && sq.inFlight() < cwnd) {
            if (pacedOut(now)) {
                paced = true;
                break;
            }
            int nextToSend = sq.nextToSend();
            if (pmtu.holdsBack(nextToSend)) {
                break;
            }
            if (nextToSend == sq.first()) {
                activity.sendProgressNs = now; // nothing was in flight: the wait for an acknowledgement starts now
            }
            int room = Math.min(Math.min(cwnd - sq.inFlight(), limit - nextToSend), sq.next() - nextToSend);
            int want = Math.min(maxJumbo, jumbo.size());
            if (waitsToFillJumbogram(room, want, nextToSend)) {
                break;
            }
            int k = datagrams.prepareDatagram(nextToSend, Math.min(room, want));
            if (k < 1) {
                break; // the security class refused: CallLifecycle aborts the connection
            }
            int lastSeqOfDgram = nextToSend + k - 1;
            boolean moreAfter = lastSeqOfDgram + 1 - sq.next() < 0 && lastSeqOfDgram + 1 - limit < 0
                    && sq.inFlight() + k < cwnd;
            if (moreAfter) {
                // MORE_PACKETS only when another datagram follows in this pass (rx-wire-facts.md §4), not a held one
                int after = lastSeqOfDgram + 1;
                int roomAfter = Math.min(Math.min(cwnd - sq.inFlight() - k, limit - after), sq.next() - after);
                moreAfter = !waitsToFillJumbogram(roomAfter, want, after);
            }
            boolean isLast = (sq.get(lastSeqOfDgram).flags() & PacketFlags.LAST_PACKET) != 0;
            boolean probe = !isLast && (cwnd <= 2 || (!intake.seenSlowStartOk() && (lastSeqOfDgram & 1) == 1)
                    || intake.wantsRttProbe(now));
            boolean requestAck = probe || (!isLast && cc.wantsAckPerDatagram());
            int serial = datagrams.sendNew(now, nextToSend, k, moreAfter, requestAck);
            pmtu.onDatagramSent(nextToSend, k);
            if (probe) {
                intake.onRttProbeSent(serial, now);
            }
        }
        maxInFlight = Math.max(maxInFlight, sq.inFlight());
        pmtu.afterSending(now, cutter.firstCutSmall());
        if (!paced && sq.nextToSend() - sq.next() == 0 && sq.lostCount() == 0 && sq.inFlight() < cwnd) {
            // Nothing left to send with room in the window: rate samples from now on are application-limited.
            recovery.rate().markAppLimited();
        }
        recovery.armIfIdle(now, peer.rtt());
        // Any DATA we send carries our ack state implicitly only for the reply; a pending delayed ack
        // for the request is no longer needed once reply data flows (§8).
        if (server && sq.nextToSend() != 1) {
            acks.cancelDelayedAckIfAllReceived();
        }
    }

    /**
     * Whether the next jumbogram waits for the next ACK rather than leave with fewer sub-packets than the jumbo size:
     * when the congestion window has reached twind (the peer's receive window binds), the windows leave room for
     * fewer than {@code want} packets, twind holds two full jumbograms, at least {@code want} packets are queued and
     * at least {@code want} are sent and not hard-acked (their ACK, or the hard ack once the receiver reads them,
     * opens the window again), and no loss is being repaired (there new data brings the ACKs that find a lost
     * retransmission). Without it, at a full window each ACK of a receiver that acknowledges every datagram
     * (OpenAFS) opens the window by the size of the datagram it acknowledges, so one short jumbogram makes every
     * later one short: 3-packet jumbograms where 4 are allowed, a third more datagrams for the same bytes
     * (docs/engine.md "Jumbogram size").
     *
     * @param room packets the windows and the queue allow in this datagram
     * @param want the jumbo size now (sub-packets), capped by what the peer and the path accept
     * @param nextToSend the first seq of the datagram
     * @return true to send nothing more until an ACK arrives
     */
    private boolean waitsToFillJumbogram(int room, int want, int nextToSend) {
        return want > 1 && room < want && cc.cwnd() >= twind && twind >= 2 * want && sq.next() - nextToSend >= want
                && nextToSend - sq.first() >= want && sq.lostCount() == 0 && !cc.inRecovery()
                && !recovery.afterTimeout();
    }

    /** @return true when the pacer holds the next datagram; then {@link #pacingDeadlineNs} says until when */
    private boolean pacedOut(long now) {
        long t = cc.earliestSendNs();
        if (t != Long.MIN_VALUE && t - now > 0) {
            pacingDeadlineNs = t;
            return true;
        }
        return false;
    }

    /** @return a one-line dump of the send side's state, for diagnostics */
    String debugState(long now) {
        return "first=" + sq.first() + " nextToSend=" + sq.nextToSend() + " next=" + sq.next() + " inFlight="
                + sq.inFlight() + " lost=" + sq.lostCount() + " cwnd=" + cc.cwnd() + " sendWindow="
                + cc.sendWindow(sq.inFlight()) + " twind=" + twind + " resendIn="
                + (recovery.resendDeadlineNs() == RecoveryManager.NONE ? -1 : (recovery.resendDeadlineNs() - now) / 1000)
                + "us pacingIn=" + (pacingDeadlineNs == Deadlines.NONE ? -1 : (pacingDeadlineNs - now) / 1000)
                + "us pathInFlight=" + recovery.rate().inFlight() + " " + cc.mode();
    }

    /** @return when the pacer lets this call's next datagram leave (engine clock, ns), or {@link Deadlines#NONE} */
    long pacingDeadlineNs() {
        return pacingDeadlineNs;
    }

    private int jumboLimit() {
        return Math.min(uncappedJumboLimit(), out.peer().pathMtuState().jumboCap());
    }

    /** @return sub-packets per datagram the peer and this endpoint allow, before the path-MTU cap */
    private int uncappedJumboLimit() {
        Peer peer = out.peer();
        if (peer.jumboLimit() <= 1 || peer.maxDgramPackets <= 1
                || out.security().preparedLength(cutter.dataSize()) != RxConstants.JUMBO_BUFFER_SIZE) {
            return 1;
        }
        int byMtu = (peer.maxMtu - RxConstants.REMOTE_PACKET_SIZE) / RxConstants.JUMBO_STRIDE + 1;
        return Math.max(1, Math.min(peer.maxDgramPackets, Math.min(byMtu, peer.jumboLimit())));
    }

    /** The retransmit timer fired: back off the RTO, then resend everything in flight or PING (§8). */
    void onResendTimeout(long now) {
        out.timedOut(sq.first(), sq.nextToSend());
        boolean resending = recovery.onTimeout(twind, out.peer().rtt());
        // The recovery reads nothing of the prober's: the prober hears of the timeout once the flight is marked lost.
        boolean ladderSent = pmtu.onTimeout(now, resending);
        if (resending) {
            if (!ladderSent) {
                transmit(now);
            }
            probes.onTimeout(now);
        } else if (sq.size() > 0 && sq.nextToSend() != sq.first()) {
            // Everything sent is soft-acked but not hard-acked: ask where the receiver stands.
            acks.sendAck(now, AckReason.PING, 0, true);
        }
        recovery.rearm(now, out.peer().rtt());
    }

    /**
     * An ACK arrived, after {@link #processAckBody} (or {@link #sampleAfterEnd} for a finished call) read it: the
     * call's prober learns from it what probes it answers and whether the path carries what this call sends, and
     * may re-cut packets ({@link PathMtuProber#onAck}). It describes the path even after the call ended.
     *
     * @param now current time, ns
     * @param a the ACK (not consumed)
     * @param progress what {@link #processAckBody} returned; false for a finished call
     */
    void onAckForPathMtu(long now, AckPacket a, boolean progress) {
        pmtu.onAck(now, a, progress);
    }

    /**
     * The recovery probe timer fired ({@link RecoveryProbes}): when a probe is due, the prober's PING of the path's
     * known size ({@link PathMtuProber#onRecoveryProbe}) or else a plain PING.
     */
    void onRecoveryProbeTimer(long now) {
        if (probes.onTimer(now) && !pmtu.onRecoveryProbe(now)) {
            acks.sendAck(now, AckReason.PING, 0, true);
        }
    }

    /** @return when the next recovery probe goes out (engine clock, ns), or {@link Deadlines#NONE} */
    long recoveryProbeDeadlineNs() {
        return probes.deadlineNs();
    }

    /**
     * A route whose MTU shrank under packets already sent that cannot be re-cut (the receiver never heard of the call,
     * or holds a later packet): they are resent as they are and never arrive, while the small ACKs and PINGs keep the
     * call from its dead time. Such a call ends with RX_CALL_DEAD once a retransmission timeout with large packets in
     * flight, or a re-cut found unsafe, was followed by a dead time with nothing acknowledged (docs/engine.md
     * "Packet size", "Path MTU below one full packet").
     *
     * @param now current time, ns
     * @return true when the call must end
     */
    boolean stuckOnLargePackets(long now) {
        long deadline = pmtu.stuckDeadlineNs();
        return deadline != PathMtuProber.NOT_STUCK && now - deadline >= 0;
    }

    /** @return when {@link #stuckOnLargePackets} turns true (engine clock, ns), or {@link Deadlines#NONE} */
    long largeStuckDeadlineNs() {
        long deadline = pmtu.stuckDeadlineNs();
        return deadline == PathMtuProber.NOT_STUCK ? Deadlines.NONE : deadline;
    }

    /** @return when the retransmit timer fires (engine clock, ns), or {@link Deadlines#NONE} */
    long resendDeadlineNs() {
        return recovery.resendDeadlineNs();
    }

    // =====================================================================================
    // ACK processing

    /** Applies an ACK's trailer and its SLOW_START_OK flag ({@link AckIntake#applyTrailer}). */
    void applyTrailer(AckPacket a) {
        twind = intake.applyTrailer(a, twind);
    }

    /** @return {@link AckValidator#OK} or why the ACK is out of range of what this call transmitted */
    int checkAck(AckPacket a) {
        return intake.check(a);
    }

    /** @return true when something transmitted is not hard-acked yet (an ACKALL has something to acknowledge) */
    boolean hasTransmittedUnacked() {
        return sq.nextToSend() - sq.first() > 0;
    }

    /** @return true when the ACK acknowledged something new or moved tfirst ({@link AckIntake#onAckBody}) */
    boolean processAckBody(long now, AckPacket a) {
        int hardAcked = sq.first();
        boolean newlyAcked = intake.onAckBody(now, a);
        activity.sendProgressNs = sq.first() != hardAcked ? now : activity.sendProgressNs; // soft acks: no progress
        acked |= newlyAcked;
        return newlyAcked;
    }

    /** @return true when fewer than 2 × twind packets wait to be acknowledged (OpenAFS's writer rule, §5) */
    boolean hasWriteRoom() {
        return sq.size() < Math.min(SendQueue.CAPACITY - 2, 2 * Math.max(twind, 8));
    }

    /** @return true when the whole stream (through LAST_PACKET) was sent and some of it is not hard-acked */
    boolean requestFullySent() {
        return sq.lastSeq() != 0 && sq.nextToSend() - sq.lastSeq() > 0 && sq.first() - sq.next() < 0;
    }

    /** @return true when every packet through LAST_PACKET is hard- or soft-acked */
    boolean allAcked() {
        return sq.allAcked();
    }

    /** @return true when the stream is finished and every packet of it was sent */
    boolean allSent() {
        return sq.nextToSend() - sq.next() == 0;
    }

    /** @return packets queued and not yet hard-acked */
    int queued() {
        return sq.size();
    }

    /**
     * Everything sent counts as hard-acked: an ACKALL, or (client) the first reply packet (§2, §6.3). A client request
     * whose first packet was cut small may then prove the path at full size ({@link PathMtuProber#afterSending}).
     *
     * @param now current time, ns
     */
    void ackEverythingSent(long now) {
        intake.onAckAll();
        acked |= sq.nextToSend() != 1;
        activity.sendProgressNs = now;
        pmtu.afterSending(now, cutter.firstCutSmall());
    }

    /** A finished call's ACK may time its last DATA transmission ({@link AckIntake#sampleAfterEnd}). */
    void sampleAfterEnd(long now, AckPacket a) {
        intake.sampleAfterEnd(now, a);
    }

    /** @return the call's congestion controller */
    CongestionController congestion() {
        return cc;
    }

    /**
     * What this call's {@link PathMtuProber} reads of the call and its peer, each value the one of now, and the
     * probes and re-cuts it asks for (docs/engine.md "Path MTU below one full packet").
     */
    private final class ProbingCall implements PathMtuCall {
        @Override
        public int send(long now, int datagramBytes) {
            return acks.sendMtuProbe(now, datagramBytes);
        }

        @Override
        public int jumboWant() {
            return uncappedJumboLimit();
        }

        @Override
        public int largePacketTarget() {
            return out.peer().largePacketTarget(config);
        }

        @Override
        public long largeProbeQuickWaitNs() {
            return Math.max(2 * out.peer().rtt().srttNs(), config.rto().minRtoNs());
        }

        @Override
        public int usualPacketSize() {
            return out.peer().usualPacketSize(config);
        }

        @Override
        public int fullPacketSize() {
            return RxConstants.HEADER_SIZE + out.peer().packetDataSize(config);
        }

        @Override
        public int packetDataSize() {
            return out.dataPerPacket(out.peer().packetDataSize(config));
        }

        @Override
        public long recutMarginNs() {
            return Math.max(out.peer().rtt().srttNs(), config.rto().minRtoNs()) + config.rto().rtoSlackNs();
        }

        @Override
        public boolean heardSince(long t) {
            return out.peer().heardSince(t);
        }

        @Override
        public void recut(int from, int max, boolean transmitted) {
            cutter.recut(from, max);
            recovery.syncInFlight();
            if (transmitted) {
                stats.recuts++;
            }
        }
    }
}
