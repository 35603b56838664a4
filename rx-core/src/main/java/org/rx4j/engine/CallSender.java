package org.rx4j.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.cc.CongestionController;
import org.rx4j.engine.cc.CongestionControllerSupplier;
import org.rx4j.engine.cc.JumboSizer;
import org.rx4j.engine.recovery.AckValidator;
import org.rx4j.engine.recovery.LossDetector;
import org.rx4j.engine.recovery.RecoveryManager;
import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.OutboundPackets;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * The transmit side of one {@link Call}: cuts the application's bytes into packets, sends what the windows (twind,
 * cwnd) allow with jumbogram grouping and the REQUEST_ACK policy, builds the DATA packets, applies the peer's ACK
 * trailers, and hands each ACK's body and the retransmit timeout to its {@link RecoveryManager}
 * (rx-wire-facts.md §3, §4, §5, §8). Also the packet size: large-packet and jumbogram probes, and on a path narrower
 * than its packets the probe ladder, the re-cut and the upward probes (docs/engine.md "Path MTU below one full
 * packet", issue 12 rule 12). Gets every collaborator in its constructor; talks upward only through the
 * call's {@link CallOutput}. Runs on the engine's thread; times are ns on the engine's clock.
 */
final class CallSender {
    private final RxConfig config;
    private final CallOutput out;
    private final SendQueue sq;
    private final CongestionController cc;
    private final JumboSizer jumbo;
    /** {@link SendQueue#releasedBytes()} when last added to the counters, bytes. */
    private long countedAckedBytes;
    /** Serial of the last DATA transmission (0: none, or already sampled) and when it left, ns. */
    private int lastDataSerial;
    private long lastDataSentNs;
    private final RecoveryManager recovery;
    private final AckScheduler acks;
    private final CallActivity activity;
    private final CallCounters stats;
    private final ByteBufAllocator alloc;
    private final boolean server;
    /**
     * Bytes of DATA payload per packet cut from now on: {@link Peer#packetDataSize} (docs/engine.md "Packet size").
     * Packets already cut keep their size unless the path turns out narrower (issue 12 rule 12: re-cut).
     */
    private int dataSize;
    /**
     * At least the data bytes of every queued packet never transmitted (an upper bound, bytes): when the peer's
     * packet size falls below it, {@link #recutUnsent} looks for packets to re-cut.
     */
    private int unsentCutMax;

    /** The transmit window, packets. */
    int twind;
    private boolean seenSlowStartOk;
    private int rttProbeSerial;
    /** Sub-packets in the last datagram of new data sent (path-MTU black-hole detection). */
    private int lastDatagramPackets;
    /** True when the last datagram of new data held a packet larger than 1444 bytes (large-packet fallback). */
    private boolean lastDatagramLarge;
    /** When a timeout hit with large packets in flight and nothing was acknowledged since, ns; valid if the flag. */
    private long largeStuckSinceNs;
    private boolean largeStuck;
    /** Serial of the outstanding large-packet probe, 0 for none, and the packet size it stands for, bytes. */
    private int largeProbeSerial;
    private int largeProbeBytes;
    /** Serial of the outstanding path-MTU probe, 0 for none; the sub-packets its size stands for. */
    private int mtuProbeSerial;
    private int mtuProbePackets;
    /** Data bytes of a client's first packet on a path not yet proven at full size: RX_MIN_PACKET_SIZE − 28 (§5). */
    static final int FIRST_PACKET_DATA = RxConstants.MIN_PACKET_SIZE - RxConstants.HEADER_SIZE;
    /** How often a path held to single packets is probed again for jumbograms, ns. */
    static final long MTU_PROBE_INTERVAL_NS = 5_000_000_000L;
    /**
     * Large-packet probes repeated after 2 srtt before falling back to {@link #MTU_PROBE_INTERVAL_NS}: the first
     * probe often reaches a server call still in PRECALL, which answers no PING (issue 12 rule 6), or is lost.
     */
    static final int LARGE_PROBE_QUICK_TRIES = 3;
    /**
     * Packet sizes (Rx header included, bytes) a probe ladder tries when a path drops this call's packets
     * (issue 12 rule 12): each below the failing size is one padded PING, sent largest first in one burst. 1232 is
     * an IPv6 path of the minimum MTU (1280 − 40 − 8), 576 and 520 IPv4's minimum and Rx's smallest packet (§5).
     */
    static final int[] PMTU_STEPS = {8192, 4096, 2048, 1444, 1400, 1360, 1320, 1280, 1240, 1232, 1200, 1150, 1100,
        1050, 1000, 900, 800, 700, 600, 576, 520};
    /** How long a path held below its usual packet size waits before probing upward again, ns. */
    static final long PMTU_RAISE_INTERVAL_NS = 10_000_000_000L;
    /** The outstanding probe ladder: its sizes (largest first, bytes), count, first serial and send time (ns). */
    private int[] ladderSizes;
    private int ladderCount;
    private int ladderFirstSerial;
    private long ladderSentNs;
    /** Probes of the ladder's first size (the failing or usual one) at its start: 2 for a downward ladder. */
    private int ladderTops;
    /** True for a downward ladder (packets lost), false for an upward one (re-growth). */
    private boolean ladderDown;
    /** Largest size of the outstanding ladder answered so far, bytes (0 for none). */
    private int ladderBest;
    /** The peer's {@link Peer#pathMtu} before the outstanding downward ladder, bytes. */
    private int pathMtuBeforeLadder;
    /** True when this (client) call's first packet was cut at {@link #FIRST_PACKET_DATA} on an unproven path. */
    private boolean firstCutSmall;
    /** Retransmission timeouts since the peer last acknowledged something new. */
    private int timeoutsWithoutProgress;
    /** Largest DATA packet this call transmitted, bytes (Rx header included), and the first seq of that size. */
    private int largestSentPacket;
    private int largestSentSeq;
    /** When the outstanding RTT probe was sent, ns. */
    private long rttProbeSentNs;
    private ByteBuf partial;
    /** The packets of one datagram on their way to the sink; allocated on first send, dropped at teardown. */
    private List<DataPacket> batch;
    /** When the pacer lets the next datagram leave (engine clock, ns), or NONE when not waiting for it. */
    private long pacingDeadlineNs = Deadlines.NONE;
    /** When the next recovery probe goes out (engine clock, ns), or NONE; see {@link #onRecoveryProbeTimer}. */
    private long probeDeadlineNs = Deadlines.NONE;
    /**
     * Recovery probes (see {@link #onRecoveryProbeTimer}): at most this many per dead time, so the probe interval is
     * at least dead time / 48 (250 ms with the default 12 s) and a silent peer gets at most 48 small PINGs from a
     * call before it fails at the dead time.
     */
    static final int RECOVERY_PROBES_PER_DEAD_TIME = 48;

    /**
     * Starts the send side of a new call. Its windows start from what the peer's last sending call learned,
     * unless that is stale (RFC 5681 §4.1 restart); the congestion controller comes from {@code ccSupplier}.
     */
    CallSender(RxConfig config, CallOutput out, SendQueue sq, AckScheduler acks, CallActivity activity,
            CallCounters stats, ByteBufAllocator alloc, boolean server, CongestionControllerSupplier ccSupplier,
            long now) {
        this.config = config;
        this.out = out;
        this.sq = sq;
        this.acks = acks;
        this.activity = activity;
        this.stats = stats;
        this.alloc = alloc;
        this.server = server;
        Peer peer = out.peer();
        this.dataSize = peer.packetDataSize(config);
        int peerRwind = peer.lastRwind > 0 ? peer.lastRwind : RxConfig.INITIAL_WINDOW;
        this.twind = Math.min(config.maxTwind(), peerRwind);
        boolean fresh = peer.savedCwnd > 0 && now - peer.savedAtNs < Math.max(1_000_000_000L, peer.rtt().rtoNs());
        int cwnd0 = fresh ? Math.max(config.initialCwnd(), peer.savedCwnd) : config.initialCwnd();
        int ssthresh0 = fresh ? Math.max(2, peer.savedSsthresh) : config.initialSsthresh();
        this.cc = ccSupplier.newController(Math.min(cwnd0, config.maxTwind()), ssthresh0, config.maxTwind(),
                peer.path);
        this.jumbo = new JumboSizer(4);
        jumbo.setMax(config.jumboMax());
        if (fresh) {
            jumbo.restore(peer.savedJumboSize);
        }
        this.recovery = new RecoveryManager(sq, cc, jumbo, peer.path.rate());
        peer.congestion(cc);
    }

    /** Leaves this call's congestion state to the peer for its next call, if it sent enough to have learned some. */
    void saveCongestionState(long now) {
        if (stats.dataPacketsSent >= 8) {
            Peer peer = out.peer();
            peer.savedCwnd = cc.cwnd();
            peer.savedSsthresh = cc.ssthresh();
            peer.savedJumboSize = jumbo.size();
            peer.savedAtNs = now;
        }
    }

    // =====================================================================================
    // Application bytes

    /**
     * Queues the application's bytes: full packets as retained slices, the rest in a partial packet.
     * Ownership: takes {@code data} (released here).
     */
    void append(ByteBuf data) {
        // A partial packet cut at the old size fills to its own capacity and is queued as it is.
        Peer peer = out.peer();
        dataSize = peer.packetDataSize(config);
        try {
            if (partial != null) {
                int n = Math.min(partial.writableBytes(), data.readableBytes());
                partial.writeBytes(data, n);
                if (!partial.isWritable()) {
                    queueUnsent(partial, 0);
                    partial = null;
                }
            }
            if (!server && sq.next() == 1 && partial == null && data.isReadable()
                    && peer.verifiedPacketSize < RxConstants.HEADER_SIZE + dataSize) {
                // A request's first packet on a path that never carried a full-size packet of ours fits every path
                // (520 bytes, §5): the server then holds the call and answers the probes that find the path's
                // MTU, so packets cut too large can be re-cut (docs/engine.md "Path MTU below one full packet").
                int first = Math.min(dataSize, FIRST_PACKET_DATA);
                firstCutSmall = first < dataSize;
                if (data.readableBytes() >= first) {
                    sq.add(data.readRetainedSlice(first), 0);
                } else {
                    partial = alloc.buffer(first, first);
                    partial.writeBytes(data);
                }
            }
            unsentCutMax = Math.max(unsentCutMax, dataSize);
            while (data.readableBytes() >= dataSize) {
                sq.add(data.readRetainedSlice(dataSize), 0);
            }
            if (data.isReadable()) {
                partial = alloc.buffer(dataSize, dataSize);
                partial.writeBytes(data);
            }
        } finally {
            data.release();
        }
    }

    /**
     * Queues a packet that was cut earlier (the partial one): when the peer's packet size fell below it meanwhile
     * (issue 12 rule 12), it is re-cut at once — never transmitted, so always safe.
     *
     * <p>Ownership: takes {@code payload}.
     */
    private void queueUnsent(ByteBuf payload, int flags) {
        int bytes = payload.readableBytes();
        int seq = sq.add(payload, flags);
        if (bytes > dataSize) {
            sq.recut(seq, dataSize, alloc);
        }
        unsentCutMax = Math.max(unsentCutMax, Math.min(dataSize, bytes));
    }

    /** @return true when the partly filled packet was queued as a short packet; false when none holds bytes */
    boolean flushPartial() {
        if (partial == null || !partial.isReadable()) {
            return false;
        }
        queueUnsent(partial, 0);
        partial = null;
        return true;
    }

    /** Queues the last packet (LAST_PACKET): the partial packet, or an empty one (§6). */
    void finish() {
        ByteBuf last = partial != null ? partial : alloc.buffer(0, 0);
        partial = null;
        queueUnsent(last, PacketFlags.LAST_PACKET);
    }

    /** Releases every queued packet and the partial one, and stops the retransmit timer (call teardown). */
    void release() {
        sq.releaseAll();
        recovery.syncInFlight();
        pacingDeadlineNs = Deadlines.NONE;
        cc.close();
        if (partial != null) {
            partial.release();
            partial = null;
        }
        recovery.cancel();
        probeDeadlineNs = Deadlines.NONE;
        batch = null; // an ended call keeps no 46-slot list (heap per idle connection)
    }

    // =====================================================================================
    // Transmission

    /**
     * Client, after the first datagram of a call: when that datagram is smaller than the server's smallest
     * reachability PING (a bare ACK, 46 bytes) and nothing was heard from the server for the reachability TTL, a
     * PING follows it (one at a time per server: {@link Peer#takeTinyRequestPing}). A server that answers an unproven peer with no more bytes than it sent (docs/robustness.md
     * rule 6) can then afford its PING at once instead of waiting for this call's first retransmission.
     *
     * @param now current time, ns
     * @param k sub-packets in the datagram just sent
     */
    private void pingWithTinyFirstDatagram(long now, int k) {
        int bytes = RxConstants.HEADER_SIZE + sq.get(1).payload().readableBytes();
        if (k == 1 && bytes < RxConstants.HEADER_SIZE + RxConstants.ACK_FIXED_SIZE
                && out.peer().takeTinyRequestPing(now, config.reachTtlNs())) {
            acks.sendAck(now, AckReason.PING, 0, true);
        }
    }

    /**
     * Sends what the windows allow: lost packets first (one per datagram, REQUEST_ACK), then new packets,
     * joined into jumbograms when the peer accepts them (rx-wire-facts.md §4, §5, §8). The caller checks
     * that the call is ACTIVE or HOLD.
     */
    void transmit(long now) {
        if (batch == null) {
            batch = new ArrayList<>(RxConstants.MAX_JUMBO_PACKETS);
        }
        RxCounters counters = out.counters();
        maybeReprobe(now);
        maybeProbeLargePackets(now);
        maybeRaisePathMtu(now);
        recutUnsent();
        int cwnd = cc.sendWindow(sq.inFlight());
        pacingDeadlineNs = Deadlines.NONE;
        boolean paced = false;
        if (sq.lostCount() > 0) {
            int pathMtu = out.peer().pathMtu;
            for (int s = sq.first(); s - sq.nextToSend() < 0 && sq.lostCount() > 0 && sq.inFlight() < cwnd; s++) {
                SendQueue.Entry e = sq.get(s);
                // A packet larger than the path is known to carry is not resent: it cannot arrive, and its re-cut
                // waits for a probe answer well after its last copy (recutAfterProbe).
                if (e.isLost() && RxConstants.HEADER_SIZE + e.payload().readableBytes() <= pathMtu) {
                    if (pacedOut(now)) {
                        paced = true;
                        break;
                    }
                    sq.markResent(e);
                    counters.resends++;
                    out.peer().counters().resends++;
                    stats.resends++;
                    batch.add(dataPacket(now, 0, s, e, PacketFlags.REQUEST_ACK));
                    out.sendData(batch);
                    cc.onDatagramSent(now, 1);
                    recovery.syncInFlight();
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
            if (holdBehindLargerPackets(nextToSend)) {
                break;
            }
            if (nextToSend == sq.first()) {
                activity.sendProgressNs = now; // nothing was in flight: the wait for an acknowledgement starts now
            }
            int room = Math.min(Math.min(cwnd - sq.inFlight(), limit - nextToSend), sq.next() - nextToSend);
            int k = 1;
            int max = Math.min(room, Math.min(maxJumbo, jumbo.size()));
            // Every sub-packet but the last holds exactly 1412 bytes and no LAST_PACKET (§4).
            while (k < max && sq.get(nextToSend + k - 1).payload().readableBytes() == RxConstants.JUMBO_BUFFER_SIZE
                    && (sq.get(nextToSend + k - 1).flags() & PacketFlags.LAST_PACKET) == 0) {
                k++;
            }
            int lastSeqOfDgram = nextToSend + k - 1;
            boolean moreAfter = lastSeqOfDgram + 1 - sq.next() < 0 && lastSeqOfDgram + 1 - limit < 0
                    && sq.inFlight() + k < cwnd;
            boolean isLast = (sq.get(lastSeqOfDgram).flags() & PacketFlags.LAST_PACKET) != 0;
            boolean probe = !isLast && (cwnd <= 2 || (!seenSlowStartOk && (lastSeqOfDgram & 1) == 1)
                    || rttProbeSerial == 0 || probeOverdue(now));
            boolean requestAck = probe || (!isLast && cc.wantsAckPerDatagram());
            for (int i = 0; i < k; i++) {
                int seq = nextToSend + i;
                int flags = 0;
                boolean lastOfDgram = i == k - 1;
                if (!lastOfDgram || moreAfter) {
                    flags |= PacketFlags.MORE_PACKETS;
                }
                if (lastOfDgram && requestAck) {
                    flags |= PacketFlags.REQUEST_ACK;
                }
                SendQueue.Entry e = sq.get(seq);
                int size = RxConstants.HEADER_SIZE + e.payload().readableBytes();
                if (size > largestSentPacket) {
                    largestSentPacket = size;
                    largestSentSeq = seq;
                }
                batch.add(dataPacket(now, i, seq, e, flags));
            }
            if (probe) {
                rttProbeSerial = out.lastSerial();
                rttProbeSentNs = now;
            }
            sq.markSent(k);
            lastDatagramPackets = k;
            lastDatagramLarge = sq.get(lastSeqOfDgram).payload().readableBytes()
                    > RxConstants.REMOTE_PACKET_SIZE - RxConstants.HEADER_SIZE;
            recovery.syncInFlight();
            if (k > 1) {
                counters.jumbogramsSent++;
            }
            out.sendData(batch);
            cc.onDatagramSent(now, k);
            if (!server && nextToSend == 1) {
                pingWithTinyFirstDatagram(now, k);
            }
        }
        maybeVerifyFullSize(now);
        if (!paced && sq.nextToSend() - sq.next() == 0 && sq.lostCount() == 0 && sq.inFlight() < cwnd) {
            // Nothing left to send with room in the window: rate samples from now on are application-limited.
            recovery.rate().markAppLimited();
        }
        recovery.armIfIdle(now, out.peer().rtt());
        // Any DATA we send carries our ack state implicitly only for the reply; a pending delayed ack
        // for the request is no longer needed once reply data flows (§8).
        if (server && sq.nextToSend() != 1) {
            acks.cancelDelayedAckIfAllReceived();
        }
    }

    /**
     * @return true when the RTT probe has gone unanswered for two srtt (at least the minimum RTO): its ACK was lost,
     *     or a receiver's hard ack for consumed data (serial 0) went out instead; probe again rather than never
     */
    private boolean probeOverdue(long now) {
        long srtt = out.peer().rtt().srttNs();
        return rttProbeSerial != 0 && now - rttProbeSentNs >= Math.max(2 * srtt, config.minRtoNs());
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
        return Math.min(uncappedJumboLimit(), out.peer().pathJumboCap);
    }

    /** @return sub-packets per datagram the peer and this endpoint allow, before the path-MTU cap */
    private int uncappedJumboLimit() {
        Peer peer = out.peer();
        if (config.jumboMax() <= 1 || peer.maxDgramPackets <= 1 || dataSize != RxConstants.JUMBO_BUFFER_SIZE) {
            return 1;
        }
        int byMtu = (peer.maxMtu - RxConstants.REMOTE_PACKET_SIZE) / RxConstants.JUMBO_STRIDE + 1;
        return Math.max(1, Math.min(peer.maxDgramPackets, Math.min(byMtu, config.jumboMax())));
    }

    /** @return bytes on the wire of a jumbogram of {@code packets} full sub-packets (Rx header included) */
    private static int jumbogramBytes(int packets) {
        return RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE + (packets - 1) * RxConstants.JUMBO_STRIDE;
    }

    /**
     * Path-MTU black hole (issue 12 rule 12): a retransmission timeout while jumbograms were being sent holds the
     * peer to single packets (which always fit: 1444 bytes); {@link #maybeReprobe} then sends a PING padded to the
     * jumbogram's size every {@link #MTU_PROBE_INTERVAL_NS}, and its PING_RESPONSE lifts the cap
     * ({@link #onPingResponse}). On a merely lossy path jumbograms are held back for one interval.
     */
    private void onTimeoutWithJumbograms(long now) {
        if (lastDatagramPackets > 1) {
            Peer peer = out.peer();
            peer.pathJumboCap = 1;
            // No probe at once: its PING_RESPONSE would hard-ack packets sent an RTO ago and feed the RTT
            // estimator samples of that age. The first probe goes out one interval later (maybeReprobe).
            peer.nextMtuProbeNs = now + MTU_PROBE_INTERVAL_NS;
            lastDatagramPackets = 1;
        }
    }

    /** While the path is held to single packets, probes again for jumbograms every {@link #MTU_PROBE_INTERVAL_NS}. */
    private void maybeReprobe(long now) {
        Peer peer = out.peer();
        int want = uncappedJumboLimit();
        // An unanswered probe is simply superseded by the next one.
        if (peer.pathJumboCap < want && now - peer.nextMtuProbeNs >= 0) {
            sendMtuProbe(now, want);
        }
    }

    private void sendMtuProbe(long now, int packets) {
        mtuProbePackets = packets;
        mtuProbeSerial = acks.sendMtuProbe(now, jumbogramBytes(packets));
        out.peer().nextMtuProbeNs = now + MTU_PROBE_INTERVAL_NS;
    }

    /**
     * An ACK arrived: a PING_RESPONSE to the path-MTU probe or to the large-packet probe proves the path carries
     * datagrams of its size.
     *
     * @param reason the ACK's reason
     * @param serial the serial it acknowledges
     */
    void onPingResponse(int reason, int serial) {
        if (largeProbeSerial != 0 && reason == AckReason.PING_RESPONSE && serial == largeProbeSerial) {
            Peer peer = out.peer();
            peer.provenPacketSize = Math.max(peer.provenPacketSize, largeProbeBytes);
            peer.verifiedPacketSize = Math.max(peer.verifiedPacketSize, largeProbeBytes);
            peer.largeProbeTries = 0;
            largeProbeSerial = 0;
        }
        if (mtuProbeSerial != 0 && reason == AckReason.PING_RESPONSE && serial == mtuProbeSerial) {
            Peer peer = out.peer();
            peer.pathJumboCap = mtuProbePackets >= uncappedJumboLimit() ? Integer.MAX_VALUE
                    : Math.max(peer.pathJumboCap, mtuProbePackets);
            mtuProbeSerial = 0;
        }
    }

    /**
     * Large packets (docs/engine.md "Packet size"): when the peer advertises room for packets larger than 1444
     * bytes (its maxMTU and ifMTU) and our own ifMtu allows them, a PING padded to that size goes out first; its
     * PING_RESPONSE proves the path and raises {@link Peer#provenPacketSize}, and data cut from then on uses it.
     * Unanswered (lost, or a path whose MTU is smaller drops it), the data stays at the default size and the probe
     * is repeated after 2 srtt (at least the minimum RTO) {@link #LARGE_PROBE_QUICK_TRIES} times in all, then every
     * {@link #MTU_PROBE_INTERVAL_NS}; once per peer, whichever of its calls is sending.
     */
    private void maybeProbeLargePackets(long now) {
        Peer peer = out.peer();
        int target = peer.largePacketTarget(config);
        if (target <= peer.provenPacketSize) {
            return;
        }
        // The wait is judged with the srtt of now: the first probe goes out before the first RTT sample.
        long wait = peer.largeProbeTries < LARGE_PROBE_QUICK_TRIES
                ? Math.max(2 * peer.rtt().srttNs(), config.minRtoNs()) : MTU_PROBE_INTERVAL_NS;
        if (!peer.largeProbeSent || now - peer.lastLargeProbeNs >= wait) {
            largeProbeBytes = target;
            largeProbeSerial = acks.sendMtuProbe(now, target);
            peer.largeProbeSent = true;
            peer.largeProbeTries++;
            peer.lastLargeProbeNs = now;
        }
    }

    /**
     * A retransmission timeout while large packets were in flight: new data goes back to the default size and the
     * path is probed again one interval later (a route whose MTU shrank). Packets already sent keep their size until
     * a probe ladder shows they may be re-cut ({@link #recutAfterProbe}); unsent ones are re-cut before they go out.
     */
    private void onTimeoutWithLargePackets(long now) {
        if (lastDatagramLarge) {
            if (!largeStuck) {
                largeStuck = true;
                largeStuckSinceNs = now;
            }
            Peer peer = out.peer();
            peer.provenPacketSize = RxConstants.REMOTE_PACKET_SIZE;
            peer.largeProbeSent = true;
            peer.largeProbeTries = LARGE_PROBE_QUICK_TRIES; // the path just failed: no quick retries
            peer.lastLargeProbeNs = now;
            lastDatagramLarge = false;
        }
    }

    /**
     * @param slot the packet's position in its datagram (0-based): with a sink that encodes on send, the packet is the
     *     engine's reused one for that position (docs/engine.md "Known gaps"), else a new one
     */
    private DataPacket dataPacket(long now, int slot, int seq, SendQueue.Entry e, int extraFlags) {
        OutboundPackets reuse = out.reusablePackets();
        RxHeader h = out.header(reuse, slot, seq, PacketType.DATA, e.flags() | extraFlags);
        e.snapshot(recovery.rate(), now);
        e.recordTransmit(h.serial(), now);
        lastDataSerial = h.serial();
        lastDataSentNs = now;
        stats.dataPacketsSent++;
        activity.lastSendNs = now;
        // The send queue's own buffer with one more reference, not a duplicate: no buffer object per transmission
        // (docs/engine.md "Known gaps"). PacketSink implementations read payloads without moving their indexes.
        ByteBuf payload = e.payload().retain();
        return reuse == null ? new DataPacket(h, payload) : reuse.data(slot, h, payload);
    }

    /** The retransmit timer fired: back off the RTO, then resend everything in flight or PING (§8). */
    void onResendTimeout(long now) {
        out.counters().timeouts++;
        timeoutsWithoutProgress++;
        onTimeoutWithJumbograms(now);
        onTimeoutWithLargePackets(now);
        if (recovery.onTimeout(twind, out.peer().rtt())) {
            if (!probeDownward(now)) {
                transmit(now);
            }
            probeDeadlineNs = now + recoveryProbeIntervalNs();
        } else if (sq.size() > 0 && sq.nextToSend() != sq.first()) {
            // Everything sent is soft-acked but not hard-acked: ask where the receiver stands.
            acks.sendAck(now, AckReason.PING, 0, true);
        }
        recovery.rearm(now, out.peer().rtt());
    }

    // =====================================================================================
    // Path MTU below the packets' size (issue 12 rule 12, docs/engine.md "Path MTU below one full packet")

    /**
     * A retransmission timeout with packets larger than the smallest Rx packet (520 bytes) lost — the first for
     * packets above 1444 bytes, the second in a row without progress for default-size ones — while the peer was heard
     * from after they first left (the recovery probes make a live receiver with nothing to say speak): instead of
     * resending them once more, sends a probe ladder (two PINGs padded to the
     * failing size, one to each smaller {@link #PMTU_STEPS} size, largest first; at most one per
     * {@link #MTU_PROBE_INTERVAL_NS} per peer) whose answers say what the path carries ({@link #onLadderAnswer}). When the path is already known to be narrower, one PING of the known
     * size asks the receiver what it holds (the evidence a re-cut needs). The lost packets are not resent with the
     * ladder: their last transmission must lie well before the PING that asks about them.
     *
     * @param now current time, ns
     * @return true when a ladder went out (the caller sends no data now)
     */
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
        Peer peer = out.peer();
        if (!server && sq.first() == 1 && sq.get(1).isLost()
                && sq.get(1).payload().readableBytes() > FIRST_PACKET_DATA) {
            // The request's first packet may be too large for the path: then the server never hears of this call
            // and cannot answer its probes. The next call's first packet is cut small again (append).
            peer.verifiedPacketSize = 0;
        }
        // Packets above 1444 bytes (a large size the path carried before) are suspect at the first timeout, default
        // ones at the second in a row (plain loss is the likelier cause). A black hole for large datagrams, not a
        // silent peer: the peer was heard after the lost data first left (ACKs of earlier packets, its PINGs); a
        // silent peer gets the usual resends until its dead time.
        int needed = failing > RxConstants.REMOTE_PACKET_SIZE ? 1 : 2;
        if (failing <= RxConstants.MIN_PACKET_SIZE || timeoutsWithoutProgress < needed) {
            return false;
        }
        if (!peer.heardSince(firstLostSentNs)) {
            return false; // the recovery probes (onRecoveryProbeTimer) ask a receiver with nothing to say to speak
        }
        if (peer.pathMtu < failing) {
            // The path is known to be narrower: one PING of that size asks the receiver what it holds.
            sendLadder(now, true, peer.pathMtu, false);
        } else if (!peer.ladderSent || now - peer.lastLadderNs >= MTU_PROBE_INTERVAL_NS) {
            sendLadder(now, true, failing, true);
        } else {
            return false; // a full ladder at most once per interval per peer: on a lossy path timeouts are common
        }
        peer.ladderSent = true;
        peer.lastLadderNs = now;
        return true;
    }

    /**
     * Sends a probe ladder: a PING padded to {@code top} bytes (two for a full downward ladder) and, with
     * {@code steps}, one padded to each {@link #PMTU_STEPS} size below it — down to 520 bytes for a downward ladder, down to just above the peer's
     * {@link Peer#pathMtu} for an upward one — largest first. Answers arrive through {@link #onLadderAnswer}.
     *
     * @param now current time, ns
     * @param down true for a downward ladder (packets lost), false for an upward one (re-growth)
     * @param top the first probe's size, bytes (Rx header included)
     * @param steps true to add the smaller steps
     */
    private void sendLadder(long now, boolean down, int top, boolean steps) {
        Peer peer = out.peer();
        int floor = down ? RxConstants.MIN_PACKET_SIZE - 1 : peer.pathMtu;
        if (ladderSizes == null) {
            ladderSizes = new int[PMTU_STEPS.length + 2];
        }
        int n = 0;
        ladderSizes[n++] = top;
        if (down && steps) {
            // The failing size twice: one lost probe must not pass for the path's verdict on a lossy path.
            ladderSizes[n++] = top;
        }
        ladderTops = n;
        if (steps) {
            for (int step : PMTU_STEPS) {
                if (step < top && step > floor) {
                    ladderSizes[n++] = step;
                }
            }
        }
        ladderCount = n;
        ladderDown = down;
        ladderBest = 0;
        pathMtuBeforeLadder = peer.pathMtu;
        ladderSentNs = now;
        for (int i = 0; i < n; i++) {
            int serial = acks.sendMtuProbe(now, ladderSizes[i]);
            if (i == 0) {
                ladderFirstSerial = serial;
            }
        }
    }

    /**
     * A client request sent whole without a full-size packet, to a peer whose path has not carried one of ours
     * ({@link Peer#verifiedPacketSize}): one PING padded to the full size (at most one per
     * {@link #MTU_PROBE_INTERVAL_NS} per peer) proves it, so later requests' first packets are cut at the full size
     * again instead of at 492 bytes (docs/engine.md "Path MTU below one full packet"). A request with full-size
     * packets proves the path through their acks instead.
     */
    private void maybeVerifyFullSize(long now) {
        if (server || !firstCutSmall || sq.lastSeq() - 1 <= 0 || sq.nextToSend() - sq.lastSeq() <= 0
                || sq.first() == 1) {
            // Only a request whose first packet was cut small, more than one packet long, sent whole, and whose
            // packet 1 the server consumed (its call runs: a call still held in PRECALL answers no PING).
            return;
        }
        Peer peer = out.peer();
        int full = RxConstants.HEADER_SIZE + peer.packetDataSize(config);
        if (peer.verifiedPacketSize >= full || largestSentPacket >= full || peer.pathMtu != Integer.MAX_VALUE
                || (peer.verifyProbeSent && now - peer.lastVerifyProbeNs < MTU_PROBE_INTERVAL_NS)
                || (ladderDown && ladderCount > 0 && now - ladderSentNs < MTU_PROBE_INTERVAL_NS)) {
            return;
        }
        peer.verifyProbeSent = true;
        peer.lastVerifyProbeNs = now;
        sendLadder(now, false, full, false);
    }

    /**
     * While the path is held below its usual packet size, probes upward every {@link #PMTU_RAISE_INTERVAL_NS}: a
     * ladder from the usual size down to just above the held one; its answers raise {@link Peer#pathMtu}.
     */
    private void maybeRaisePathMtu(long now) {
        Peer peer = out.peer();
        if (peer.pathMtu == Integer.MAX_VALUE || now - peer.nextPmtuRaiseNs < 0) {
            return;
        }
        int usual = peer.usualPacketSize(config);
        if (usual <= peer.pathMtu) {
            peer.pathMtu = Integer.MAX_VALUE;
            return;
        }
        peer.nextPmtuRaiseNs = now + PMTU_RAISE_INTERVAL_NS;
        sendLadder(now, false, usual, true);
    }

    /**
     * Keeps a packet smaller than ones this call sent before from going out while larger ones are marked lost (after
     * a timeout, or NACKs): it could arrive where they do not, and a packet the receiver holds blocks the re-cut of
     * every packet before it (renumbering would change its bytes, see {@link #recutAfterProbe}). Full-size packets
     * behind full-size ones are never held (the fast path: one comparison). Not held: a short last packet in the
     * first flight on a path never proven (holding it would cost every new peer's first multi-packet message a
     * round trip); see docs/engine.md "Path MTU below one full packet" for what that leaves.
     *
     * @param seq the next new packet, never transmitted
     * @return true when it must wait
     */
    private boolean holdBehindLargerPackets(int seq) {
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
     * Packets never transmitted that are larger than the peer's packet size now (the path was found narrower, or a
     * large-packet proof was withdrawn) are re-cut before they go out. Always safe: the receiver has never seen
     * their seqs.
     */
    private void recutUnsent() {
        int max = out.peer().packetDataSize(config);
        if (max >= unsentCutMax) {
            return;
        }
        dataSize = Math.min(dataSize, max);
        unsentCutMax = max;
        int s = firstLargerThan(sq.nextToSend(), sq.next(), max);
        if (s != sq.next()) {
            sq.recut(s, max, alloc);
        }
    }

    /**
     * @param from the first seq to look at
     * @param end the seq after the last one to look at
     * @param max payload bytes
     * @return the first seq in [from, end) whose payload is larger than {@code max}, or {@code end} when none is
     */
    private int firstLargerThan(int from, int end, int max) {
        int s = from;
        while (s - end < 0 && sq.get(s).payload().readableBytes() <= max) {
            s++;
        }
        return s;
    }

    /**
     * An ACK arrived that the call's sender read: when it is the PING_RESPONSE to a probe of the outstanding ladder,
     * the probe's size passed the path. A downward ladder sets {@link Peer#pathMtu} to the largest size answered
     * (unless the failing size itself was: then the path is not the cause), an upward one raises it (lifts it when
     * the usual size passed). Then packets larger than the peer's packet size now are re-cut
     * ({@link #recutAfterProbe}).
     *
     * @param now current time, ns
     * @param a the ACK (not consumed)
     */
    void onLadderAnswer(long now, AckPacket a) {
        int i = a.serial() - ladderFirstSerial;
        if (ladderCount == 0 || a.reason() != AckReason.PING_RESPONSE || i < 0 || i >= ladderCount) {
            return;
        }
        Peer peer = out.peer();
        int size = ladderSizes[i];
        peer.verifiedPacketSize = Math.max(peer.verifiedPacketSize, size);
        if (ladderDown) {
            if (i < ladderTops && ladderCount > ladderTops) {
                // The failing size passed: loss, not the path's MTU; smaller answers change nothing.
                ladderBest = Integer.MAX_VALUE;
                peer.pathMtu = pathMtuBeforeLadder;
            } else if (size > ladderBest) {
                // Largest first: the first answer is usually the largest that passed; a larger one arriving
                // later (reordered) raises it again.
                ladderBest = size;
                if (size < pathMtuBeforeLadder) {
                    peer.pathMtu = size;
                    peer.nextPmtuRaiseNs = now + PMTU_RAISE_INTERVAL_NS;
                }
            }
        } else if (size > ladderBest) {
            ladderBest = size;
            peer.pathMtu = i < ladderTops ? Integer.MAX_VALUE : Math.max(peer.pathMtu, size);
        }
        recutAfterProbe(now, a);
    }

    /**
     * Re-cuts this call's packets that are larger than the peer's packet size now, from the lowest such seq on,
     * when that is safe. The receiver assembles by seq and Rx cannot split a seq after transmission, so a seq the
     * receiver may hold, or may still receive, must never be sent again with other bytes. Packets never transmitted
     * are always safe. A transmitted one is re-cut only when all of these hold for it and for every transmitted
     * packet after it: (1) the receiver's answer {@code a} to a probe shows it not held (at or above firstPacket,
     * not soft-acked) and our own state has it not soft-acked; (2) its last transmission went out at least
     * max(srtt, minimum RTO) + the RTO slack before that probe, so a copy still on its way would have had to be
     * overtaken by a datagram sent that much later; (3) it is larger than what the probes show the path carries
     * now, so its copies were dropped by the path rather than delayed. Condition 3 for every packet is what keeps a
     * transmitted LAST_PACKET that may still arrive from being renumbered: the receiver keeps the first LAST it
     * accepts (docs/engine.md "One DATA packet's way"). Otherwise the call keeps its packets, and
     * ends with RX_CALL_DEAD one dead time later if nothing is acknowledged ({@link #stuckOnLargePackets}).
     *
     * @param now current time, ns
     * @param a the PING_RESPONSE (the receiver's state when the probe arrived)
     */
    private void recutAfterProbe(long now, AckPacket a) {
        int max = out.peer().packetDataSize(config);
        int from = firstLargerThan(sq.first(), sq.next(), max);
        if (from == sq.next()) {
            return;
        }
        long margin = Math.max(out.peer().rtt().srttNs(), config.minRtoNs()) + config.rtoSlackNs();
        for (int s = from; s - sq.nextToSend() < 0; s++) {
            SendQueue.Entry e = sq.get(s);
            // A transmitted packet the path carries (condition 3 fails: a short last packet, say) may have been
            // delayed rather than dropped; a LAST_PACKET among them would end the receiver's stream below the
            // re-cut one (docs/robustness.md "Rule 14: the first LAST_PACKET holds").
            if (e.isSoftAcked() || holds(a, s) || ladderSentNs - e.lastSentAtNs() < margin
                    || e.payload().readableBytes() <= max) {
                if (!largeStuck) {
                    largeStuck = true;
                    largeStuckSinceNs = now;
                }
                return;
            }
        }
        boolean sent = from - sq.nextToSend() < 0;
        sq.recut(from, max, alloc);
        recovery.syncInFlight();
        dataSize = Math.min(dataSize, max);
        unsentCutMax = max; // every packet never sent is now at most max (those below from were already)
        if (sent) {
            largestSentPacket = 0;
            largestSentSeq = 0;
            largeStuck = false;
            lastDatagramLarge = false;
            stats.recuts++;
        }
    }

    /** @return true when the ACK says the receiver holds {@code seq} (hard-acked, or soft-acked in its bitmap) */
    private static boolean holds(AckPacket a, int seq) {
        int i = seq - a.firstPacket();
        return i < 0 || (i < a.nAcks() && a.isAcked(i));
    }

    /**
     * The recovery probe timer fired. From a retransmission timeout until an ACK acknowledges something new, the
     * path is asked between the backed-off timeouts: one PING (an ACK packet of reason PING, REQUEST_ACK; about 60
     * bytes) every {@link #recoveryProbeIntervalNs}. A loss burst that swallowed the retransmission or its ACK then
     * costs probes rather than doublings of the RTO: the first PING_RESPONSE to get through either acknowledges the
     * data (the ACK was lost) or shows the retransmission missing, and {@code LossDetector} then marks it lost
     * again so it is resent at once. Data retransmissions keep the RTO's doubling (rx-wire-facts.md §8; issue 12
     * rule 12: bounded, backed-off resends); only the small probes keep a fixed pace. Issue 11 target 4,
     * docs/engine.md "Recovery from a timeout".
     *
     * @param now current time, ns
     */
    void onRecoveryProbeTimer(long now) {
        if (!recovery.afterTimeout() || !sq.hasUnacked()) {
            probeDeadlineNs = Deadlines.NONE;
            return;
        }
        if (!evidenceProbe(now)) {
            acks.sendAck(now, AckReason.PING, 0, true);
        }
        probeDeadlineNs = now + recoveryProbeIntervalNs();
    }

    /**
     * When packets larger than the path is known to carry wait for their re-cut, the recovery probe is a PING padded
     * to the known size: its answer both proves the size and says what the receiver holds, the evidence
     * {@link #recutAfterProbe} needs (issue 12 rule 12).
     *
     * @param now current time, ns
     * @return true when it went out (instead of the plain PING)
     */
    private boolean evidenceProbe(long now) {
        int pathMtu = out.peer().pathMtu;
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
     * @return when the next recovery probe goes out (engine clock, ns), or {@link Deadlines#NONE} when the sender is
     *     not recovering from a timeout
     */
    long recoveryProbeDeadlineNs() {
        return recovery.afterTimeout() ? probeDeadlineNs : Deadlines.NONE;
    }

    /**
     * @return the recovery probe interval, ns: the peer's RTO without backoff (the path's own time scale), at least
     *     dead time / {@link #RECOVERY_PROBES_PER_DEAD_TIME}
     */
    private long recoveryProbeIntervalNs() {
        return Math.max(out.peer().rtt().baseRtoNs(), config.deadTimeNs() / RECOVERY_PROBES_PER_DEAD_TIME);
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
        return largeStuck && now - (largeStuckSinceNs + config.deadTimeNs()) >= 0;
    }

    /** @return when {@link #stuckOnLargePackets} turns true (engine clock, ns), or {@link Deadlines#NONE} */
    long largeStuckDeadlineNs() {
        return largeStuck ? largeStuckSinceNs + config.deadTimeNs() : Deadlines.NONE;
    }

    /** @return when the retransmit timer fires (engine clock, ns), or {@link Deadlines#NONE} */
    long resendDeadlineNs() {
        return recovery.resendDeadlineNs();
    }

    // =====================================================================================
    // ACK processing

    /**
     * Applies an ACK's trailer (peer MTU, rwind, jumbogram size) and its SLOW_START_OK flag (§3). Values outside
     * their range are clamped (rwind read unsigned into 1..255, so the window never closes) and counted in
     * {@code trailersClamped} (docs/robustness.md rule 1).
     */
    void applyTrailer(AckPacket a) {
        Peer peer = out.peer();
        if (a.hasTrailer()) {
            boolean clamped = peer.applyTrailer(a.trailerWords(), a.maxMTU(), a.ifMTU(), a.maxDgramPackets(),
                    config.jumboMax());
            if (a.trailerWords() >= 3) {
                long advertised = Integer.toUnsignedLong(a.rwind());
                clamped |= advertised < 1 || advertised > RxConstants.MAX_ACKS;
                int rwind = (int) Math.max(1, Math.min(advertised, RxConstants.MAX_ACKS));
                peer.lastRwind = rwind;
                int t = Math.min(config.maxTwind(), rwind);
                twind = a.trailerWords() >= 4 ? t : Math.min(twind, t);
            }
            if (clamped) {
                out.counters().trailersClamped++;
            }
        }
        if (a.header().hasFlag(PacketFlags.SLOW_START_OK)) {
            seenSlowStartOk = true;
        }
    }

    /**
     * Checks an ACK against what this call transmitted (docs/robustness.md rule 2).
     *
     * @param a the ACK (not consumed)
     * @return {@link AckValidator#OK} or why the ACK is out of range
     */
    int checkAck(AckPacket a) {
        return AckValidator.check(a, sq);
    }

    /** @return true when something transmitted is not hard-acked yet (an ACKALL has something to acknowledge) */
    boolean hasTransmittedUnacked() {
        return sq.nextToSend() - sq.first() > 0;
    }

    /**
     * Hard and soft acks, RTT samples, congestion control and fast retransmit for one ACK (§3, §8), through
     * the recovery manager; counts what it reports.
     *
     * @return true when the ACK acknowledged something new or moved tfirst
     */
    boolean processAckBody(long now, AckPacket a) {
        int hardAcked = sq.first();
        int result = recovery.onAck(now, a, out.peer().rtt());
        if (sq.first() != hardAcked) {
            activity.sendProgressNs = now; // firstPacket moved: progress (soft acks alone are not)
        }
        RxCounters counters = out.counters();
        countHardAcked(counters);
        if ((result & RecoveryManager.IGNORED) != 0) {
            counters.acksIgnored++;
            return false;
        }
        stats.rttSamples += recovery.rttSamplesOfLastAck();
        if ((result & RecoveryManager.FAST_RETRANSMIT) != 0) {
            counters.fastRetransmits++;
        }
        if ((result & RecoveryManager.PROGRESS) != 0) {
            largeStuck = false; // the path carries what this call sends after all
            timeoutsWithoutProgress = 0;
            if (largestSentSeq != 0 && holds(a, largestSentSeq)) {
                Peer peer = out.peer();
                peer.verifiedPacketSize = Math.max(peer.verifiedPacketSize, largestSentPacket);
            }
        }
        int ackSerial = a.serial();
        if (rttProbeSerial != 0 && ackSerial - rttProbeSerial >= 0 && ackSerial != 0) {
            rttProbeSerial = 0;
        }
        return (result & RecoveryManager.PROGRESS) != 0;
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
     * whose first packet was cut small may then prove the path at full size ({@link #maybeVerifyFullSize}).
     *
     * @param now current time, ns
     */
    void ackEverythingSent(long now) {
        recovery.onAckAll();
        activity.sendProgressNs = now;
        countHardAcked(out.counters());
        out.peer().rtt().clearBackoff(); // the peer has all of it: the path delivers again
        maybeVerifyFullSize(now);
    }

    /**
     * A finished call's ACK that names its last DATA transmission and may time it
     * ({@link LossDetector#timesATransmission}): one RTT sample, timed from that transmission, so Karn's rule holds. A client
     * call ends on its reply's first packet, which the server sends before its ACK of a retransmitted request; without
     * this a client whose requests are answered by replies never got a sample and kept OpenAFS's 3.2 s initial RTO
     * for every lost request (docs/robustness.md "Flood").
     *
     * @param now current time, ns
     * @param a the ACK (not taken)
     */
    void sampleAfterEnd(long now, AckPacket a) {
        if (lastDataSerial == 0 || a.serial() != lastDataSerial || !LossDetector.timesATransmission(a)) {
            return;
        }
        out.peer().rtt().onSample(now - lastDataSentNs);
        stats.rttSamples++;
        lastDataSerial = 0;
    }

    /** Adds the payload bytes hard-acked since the last count to the connection's payloadBytesAcked. */
    private void countHardAcked(RxCounters counters) {
        long released = sq.releasedBytes();
        counters.payloadBytesAcked += released - countedAckedBytes;
        countedAckedBytes = released;
    }

    /** @return the call's congestion controller */
    CongestionController congestion() {
        return cc;
    }
}
