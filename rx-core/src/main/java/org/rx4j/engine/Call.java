package org.rx4j.engine;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.engine.cc.CongestionController;
import org.rx4j.engine.cc.JumboSizer;
import org.rx4j.engine.cc.NewRenoCongestionController;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * One Rx call on one channel of a {@link Connection}: the send queue with twind, congestion control and
 * retransmission, the receive queue with rwind and the ack policy, and the call's timers (rx-wire-facts.md
 * §3, §5, §6, §8). Sans-I/O: every method takes {@code now} (ns from the engine's clock) and runs on the
 * engine's thread; output goes through the engine's {@link PacketSink}.
 *
 * <p>Application side: {@link #write}, {@link #finishSending}, {@link #read}, {@link #abort}; events
 * through the {@link CallListener}.
 */
public final class Call {
    static final long NONE = Long.MAX_VALUE;

    final Connection conn;
    final RxEngine engine;
    final RxConfig config;
    int channel;
    int callNumber;
    final boolean server;
    private CallListener listener = CallListener.NONE;
    CallState state;
    int error;
    private boolean remoteError;
    long startNs;
    final CallCounters stats = new CallCounters();

    // ---- send side
    final SendQueue sq = new SendQueue();
    final CongestionController cc;
    final JumboSizer jumbo;
    private int twind;
    private boolean seenSlowStartOk;
    private ByteBuf partial;
    private boolean sendFinished;
    private int lastAckFirst;
    private int lastAckPrev;
    private int rttProbeSerial;
    private long resendDeadlineNs = NONE;
    private final int dataSize;
    private final List<DataPacket> batch = new ArrayList<>(46);

    // ---- receive side
    final ReceiveQueue rq = new ReceiveQueue();
    private int pendingAckReason;
    private int pendingAckSerial;
    private int arrivalsSinceAck;
    private int consumedSinceAck;
    private int advertisedFirst = 1;
    private long ackDeadlineNs = NONE;
    private boolean notifyReadable;
    private boolean wasWritable = true;

    // ---- liveness
    private long lastSendNs;
    private long lastReceiveNs;
    private long lastDataReceiveNs;
    private long reachDeadlineNs = NONE;
    /** The application's hard deadline for this call (engine clock, ns), or NONE. */
    private long callDeadlineNs = NONE;
    private int reachPingSerial;
    private long reachPingSentNs;

    // ---- timer heap
    /** Bumped whenever the peer acknowledges something new (hard or soft); read by tests' stall detector. */
    long ackProgress;
    long deadlineNs = NONE;
    int heapIndex = -1;
    boolean dirty;

    Call(Connection conn, int channel, int callNumber, boolean server, long now) {
        this.conn = conn;
        this.engine = conn.engine;
        this.config = engine.config();
        this.channel = channel;
        this.callNumber = callNumber;
        this.server = server;
        this.startNs = now;
        this.lastReceiveNs = now;
        this.lastDataReceiveNs = now;
        this.lastSendNs = now;
        this.state = CallState.ACTIVE;
        int peerRwind = conn.peer.lastRwind > 0 ? conn.peer.lastRwind : RxConfig.INITIAL_WINDOW;
        this.twind = Math.min(config.maxTwind(), peerRwind);
        Peer peer = conn.peer;
        // Start from what the peer's last sending call learned, unless that is stale (RFC 5681 §4.1 restart).
        boolean fresh = peer.savedCwnd > 0 && now - peer.savedAtNs < Math.max(1_000_000_000L, peer.rtt().rtoNs());
        int cwnd0 = fresh ? Math.max(config.initialCwnd(), peer.savedCwnd) : config.initialCwnd();
        int ssthresh0 = fresh ? Math.max(2, peer.savedSsthresh) : config.initialSsthresh();
        this.cc = new NewRenoCongestionController(Math.min(cwnd0, config.maxTwind()), ssthresh0, config.maxTwind());
        this.jumbo = new JumboSizer(4);
        this.jumbo.setMax(config.jumboMax());
        if (fresh) {
            this.jumbo.restore(peer.savedJumboSize);
        }
        this.dataSize = config.packetDataSize();
    }

    /** Gives a waiting (or new) client call its channel and callNumber. */
    void assignChannel(int ch, int number, long now) {
        this.channel = ch;
        this.callNumber = number;
        this.state = CallState.ACTIVE;
        this.startNs = now;
        this.lastReceiveNs = now;
        this.lastDataReceiveNs = now;
        this.lastSendNs = now;
    }

    // =====================================================================================
    // Identity and state

    /** @return the connection carrying this call */
    public Connection connection() {
        return conn;
    }

    /** @return the channel, 0..3 */
    public int channel() {
        return channel;
    }

    /** @return the call's callNumber on its channel */
    public int callNumber() {
        return callNumber;
    }

    /** @return true for a call received by a server */
    public boolean isServer() {
        return server;
    }

    /** @return the life-cycle state */
    public CallState state() {
        return state;
    }

    /** @return 0, or the abort code that ended the call */
    public int error() {
        return error;
    }

    /** @return true when the error came in an ABORT from the peer, false when raised locally */
    public boolean isRemoteError() {
        return remoteError;
    }

    /** @return true once the call succeeded or failed */
    public boolean isDone() {
        return state == CallState.DALLY || state == CallState.ERROR;
    }

    /** @return this call's own counters */
    public CallCounters counters() {
        return stats;
    }

    /** @return the current transmit window, packets */
    public int twind() {
        return twind;
    }

    /** @return the current congestion window, packets */
    public int cwnd() {
        return cc.cwnd();
    }

    /**
     * Sets the receiver of this call's events; the engine calls it on its own thread.
     *
     * @param l the listener (not null)
     */
    public void setListener(CallListener l) {
        this.listener = l == null ? CallListener.NONE : l;
    }

    // =====================================================================================
    // Application API

    /**
     * Appends bytes to this call's outgoing stream. Full packets are cut without copying (retained
     * slices); a partial packet waits for more bytes or {@link #finishSending}.
     *
     * <p>Flow control is the caller's: write while {@link #isWritable()} holds (at most 2 × twind packets
     * queued); the queue itself holds at most 1024 packets of {@code RxConfig.packetDataSize()} bytes.
     *
     * <p>Ownership: takes {@code data} (released by the call, also on error).
     *
     * @param now current time, ns
     * @param data the bytes to send (readable region)
     * @throws IllegalStateException if the call is done, sending was finished, or the send queue is full
     */
    public void write(long now, ByteBuf data) {
        engine.clock(now);
        if (isDone() || sendFinished) {
            data.release();
            if (isDone()) {
                throw new IllegalStateException("call ended: " + AbortCodes.name(error));
            }
            throw new IllegalStateException("sending already finished");
        }
        try {
            if (partial != null) {
                int n = Math.min(partial.writableBytes(), data.readableBytes());
                partial.writeBytes(data, n);
                if (!partial.isWritable()) {
                    sq.add(partial, 0);
                    partial = null;
                }
            }
            while (data.readableBytes() >= dataSize) {
                sq.add(data.readRetainedSlice(dataSize), 0);
            }
            if (data.isReadable()) {
                partial = engine.alloc().buffer(dataSize, dataSize);
                partial.writeBytes(data);
            }
        } finally {
            data.release();
        }
        transmit(now);
        engine.touched(this);
    }

    /**
     * Sends the bytes of a partly filled packet now, as a DATA packet shorter than the packet size, instead of
     * keeping them until more bytes or {@link #finishSending} arrive. For interactive streams; bulk writers
     * need not call it. Receivers read DATA packets of any length; a short packet is only ever the last
     * sub-packet of a jumbogram (rx-wire-facts.md §4). A no-op when nothing is buffered or the call is done.
     *
     * @param now current time, ns
     */
    public void flush(long now) {
        engine.clock(now);
        if (isDone() || sendFinished || partial == null || !partial.isReadable()) {
            return;
        }
        sq.add(partial, 0);
        partial = null;
        transmit(now);
        engine.touched(this);
    }

    /**
     * Ends this call's outgoing stream: the last packet carries LAST_PACKET (a zero-length packet when
     * nothing is left to send, §6).
     *
     * @param now current time, ns
     */
    public void finishSending(long now) {
        engine.clock(now);
        if (sendFinished || isDone()) {
            return;
        }
        sendFinished = true;
        if (server && state == CallState.ACTIVE) {
            state = CallState.HOLD;
        }
        ByteBuf last = partial != null ? partial : engine.alloc().buffer(0, 0);
        partial = null;
        sq.add(last, PacketFlags.LAST_PACKET);
        transmit(now);
        if (!server && rq.allConsumed()) {
            succeed(); // the whole reply was already read
        }
        engine.touched(this);
    }

    /**
     * @return true when the application may write more: the call is active, sending is not finished and
     *     fewer than 2 × twind packets wait to be acknowledged (OpenAFS's writer rule, §5)
     */
    public boolean isWritable() {
        return !isDone() && !sendFinished && sq.size() < Math.min(SendQueue.CAPACITY - 2, 2 * Math.max(twind, 8));
    }

    /** @return packets queued for sending and not yet hard-acked */
    public int queuedPackets() {
        return sq.size();
    }

    /**
     * Takes the next in-order bytes the peer sent. Consuming a packet advances the hard ack (firstPacket)
     * and may send an ACK.
     *
     * <p>Ownership: the caller owns and must release the returned buffer.
     *
     * @param now current time, ns
     * @return a non-empty buffer, or null when nothing is readable now (see {@link #isReadComplete()})
     */
    public ByteBuf read(long now) {
        engine.clock(now);
        while (true) {
            DataPacket p = rq.poll();
            if (p == null) {
                return null;
            }
            consumedSinceAck++;
            onConsumed(now);
            ByteBuf payload = p.payload();
            if (payload.isReadable()) {
                return payload;
            }
            payload.release();
        }
    }

    /** @return true when the peer's whole stream (through LAST_PACKET) has been read */
    public boolean isReadComplete() {
        return rq.allConsumed();
    }

    /** @return true when {@link #read} would return data now */
    public boolean isReadable() {
        return rq.hasReadable();
    }

    /**
     * Aborts the call: sends ABORT with {@code code} and fails the call locally with that code.
     * A no-op on a finished call.
     *
     * @param now current time, ns
     * @param code the abort code (e.g. {@link AbortCodes#RX_USER_ABORT})
     */
    public void abort(long now, int code) {
        engine.clock(now);
        if (isDone()) {
            return;
        }
        if (state == CallState.WAITING) {
            // Never on the wire: no channel, no callNumber, so no ABORT (one with callNumber 0 would end the
            // whole connection at the peer, §6.5).
            conn.waiting.remove(this);
            fail(code);
            engine.touched(this);
            return;
        }
        sendAbort(code);
        fail(code);
        engine.touched(this);
    }

    /**
     * Sets this call's own hard deadline: at {@code deadlineNs} a call that has not finished is aborted with
     * RX_CALL_TIMEOUT (−3), as the endpoint-wide hard dead time does (rx-wire-facts.md §8), and the ABORT is
     * sent to the peer. A call still waiting for a channel just fails with −3 and sends nothing. A deadline
     * already past fires on the next timer run. A no-op on a finished call.
     *
     * @param now current time, ns
     * @param deadlineNs absolute deadline on the engine's clock, ns; {@code Long.MAX_VALUE} for none
     */
    public void setDeadline(long now, long deadlineNs) {
        engine.clock(now);
        if (isDone()) {
            return;
        }
        this.callDeadlineNs = deadlineNs;
        engine.touched(this);
    }

    /** @return this call's own hard deadline (engine clock, ns), or {@code Long.MAX_VALUE} for none */
    public long deadline() {
        return callDeadlineNs;
    }

    // =====================================================================================
    // Receive path (called by the engine)

    /**
     * Handles one DATA packet (one sub-packet of a datagram).
     *
     * @param now current time, ns
     * @param p the packet; ownership passes to the call
     * @param lastInDatagram true for the datagram's last sub-packet
     */
    void onData(long now, DataPacket p, boolean lastInDatagram) {
        lastReceiveNs = now;
        lastDataReceiveNs = now;
        RxHeader h = p.header();
        if (isDone()) {
            p.release();
            if (state == CallState.ERROR) {
                if (lastInDatagram) {
                    sendAbort(error);
                }
            } else if (lastInDatagram) {
                // Dallying: the peer missed our final ack; tell it everything arrived. Touched so the
                // engine flushes the ack once the datagram is processed (nothing else touches a done call).
                queueAck(AckReason.DUPLICATE, h.serial());
                engine.touched(this);
            }
            return;
        }
        if (!server && sq.lastSeq != 0 && sq.nextToSend - sq.lastSeq > 0 && sq.first - sq.next < 0) {
            // The first reply packet acks the whole request implicitly (§6.3); all of it was sent.
            ackEverythingSent();
        }
        int result = rq.offer(p, config.maxRwind());
        stats.dataPacketsReceived++;
        if (result == ReceiveQueue.DUPLICATE) {
            conn.counters.duplicatesReceived++;
            queueAck(AckReason.DUPLICATE, h.serial());
        } else if (result == ReceiveQueue.EXCEEDS_WINDOW) {
            queueAck(AckReason.EXCEEDS_WINDOW, h.serial());
        } else {
            arrivalsSinceAck++;
            if (rq.hasReadable()) {
                notifyReadable = true;
            }
            if (h.hasFlag(PacketFlags.REQUEST_ACK)) {
                queueAck(AckReason.REQUESTED, h.serial());
                repingIfWaiting(now);
            } else if (rq.hasGap()) {
                queueAck(AckReason.OUT_OF_SEQUENCE, h.serial());
            }
        }
        if (lastInDatagram) {
            pendingAckSerial = pendingAckReason != 0 ? pendingAckSerial : h.serial();
            lastTriggerSerial = h.serial();
            burstEnded = !h.hasFlag(PacketFlags.MORE_PACKETS);
            afterDatagram(now);
        }
    }

    private int lastTriggerSerial;
    /** The last datagram received ended the sender's burst (no MORE_PACKETS): the sender now waits for acks. */
    private boolean burstEnded;

    private void queueAck(int reason, int serial) {
        // One ACK per datagram: keep the most urgent reason (REQUESTED beats the rest).
        if (pendingAckReason == 0 || reason == AckReason.REQUESTED
                || (pendingAckReason != AckReason.REQUESTED && reason != AckReason.DUPLICATE)) {
            pendingAckReason = reason;
            pendingAckSerial = serial;
        }
    }

    /** Decides the one ACK a received datagram earns (rx-wire-facts.md §8 receiver policy, hard-ACK-only mode). */
    private void afterDatagram(long now) {
        if (pendingAckReason == 0) {
            if (config.hardAckOnly()) {
                if (windowNearlyClosed()) {
                    pendingAckReason = AckReason.DELAY;
                    pendingAckSerial = lastTriggerSerial;
                } else if (rq.allReceived()) {
                    scheduleAck(now, lastAckDelay());
                } else if (arrivalsSinceAck > 0) {
                    scheduleAck(now, config.softAckDelayNs());
                }
            } else if (arrivalsSinceAck > config.softAckRate()) {
                pendingAckReason = AckReason.IDLE;
                pendingAckSerial = lastTriggerSerial;
            } else if (rq.allReceived() && !server) {
                scheduleAck(now, lastAckDelay());
            } else {
                scheduleAck(now, config.softAckDelayNs());
            }
        }
        if (notifyReadable) {
            notifyReadable = false;
            engine.notifyReadable(this);
        }
        engine.touched(this);
    }

    private long lastAckDelay() {
        // The peer's RTO may be as short as minRto + slack; ack the last packet before it fires.
        return Math.min(config.lastAckDelayNs(), config.softAckDelayNs());
    }

    private boolean windowNearlyClosed() {
        int window = config.maxRwind();
        int used = rq.highest() + 1 - advertisedFirst;
        return rq.first() != advertisedFirst && used >= window - Math.min(config.hardAckInterval(), window / 2);
    }

    /**
     * Hard-ACK-only mode: the application has read everything up to the end of the sender's burst. A
     * window-limited sender sends its next burst only when acks open its window, so a hard ack held back
     * for the interval here would hide up to interval-1 packets from the sender for an extra round trip.
     */
    private boolean burstConsumed() {
        return burstEnded && !rq.hasReadable();
    }

    /** @return how long a short burst tail waits for the next burst: a quarter RTT once one is measured */
    private long burstTailDelay() {
        if (conn.peer.rtt().samples() == 0) {
            return config.hardAckDelayNs();
        }
        return Math.min(config.hardAckDelayNs(), conn.peer.rtt().srttNs() / 4);
    }

    private void onConsumed(long now) {
        if (rq.allConsumed() && !server) {
            // Client read the whole reply: the call is complete (§6.4).
            if (sendFinished) {
                succeed();
            }
            return;
        }
        boolean ackNow;
        long delay = config.hardAckDelayNs();
        if (config.hardAckOnly()) {
            int interval = config.hardAckInterval();
            ackNow = consumedSinceAck >= interval || windowNearlyClosed()
                    || (burstConsumed() && 2 * consumedSinceAck > interval);
            if (!ackNow && burstConsumed()) {
                // A short tail: let the sender's next burst (already on its way if the sender is window-limited)
                // join it, so each ack covers more than half an interval and bursts do not fragment.
                delay = burstTailDelay();
            }
        } else {
            ackNow = consumedSinceAck > config.hardAckRate();
        }
        if (ackNow) {
            pendingAckReason = AckReason.DELAY;
            pendingAckSerial = 0;
            engine.touched(this);
        } else if (ackDeadlineNs == NONE || delay < config.hardAckDelayNs()) {
            scheduleAck(now, delay);
            engine.touched(this);
        }
    }

    private void scheduleAck(long now, long delay) {
        long at = now + delay;
        if (ackDeadlineNs == NONE || at - ackDeadlineNs < 0) {
            ackDeadlineNs = at;
        }
    }

    /** Sends the ACK queued for this call, if any (the engine calls it once per datagram or app action). */
    void flushAck(long now) {
        if (pendingAckReason != 0) {
            sendAck(now, pendingAckReason, pendingAckSerial, false);
        }
    }

    /**
     * Sends an ACK describing the receive queue.
     *
     * @param reason the reason code
     * @param serial the triggering packet's serial (0 for DELAY and PING)
     * @param requestAck true to set REQUEST_ACK (PINGs)
     */
    void sendAck(long now, int reason, int serial, boolean requestAck) {
        if (reason == AckReason.DELAY) {
            serial = 0;
        }
        int flags = PacketFlags.SLOW_START_OK | (requestAck ? PacketFlags.REQUEST_ACK : 0);
        RxHeader h = conn.header(channel, callNumber, 0, conn.nextSerial(), PacketType.ACK, flags);
        int first = rq.first();
        AckPacket ack = AckPacket.of(h, first, rq.highest(), serial, reason, rq.softAcks(),
                config.advertisedMaxMtu(), config.ifMtu(), config.maxRwind(), config.jumboMax());
        advertisedFirst = first;
        arrivalsSinceAck = 0;
        consumedSinceAck = 0;
        pendingAckReason = 0;
        pendingAckSerial = 0;
        ackDeadlineNs = NONE;
        conn.counters.acksSent[reason]++;
        lastSendNs = now;
        engine.send(conn, ack);
    }

    /**
     * Handles an ACK for this call (rx-wire-facts.md §3, §8): trailer, hard and soft acks, RTT samples,
     * congestion control, NACK-driven fast retransmit, PING answers.
     *
     * @param now current time, ns
     * @param a the ACK
     */
    void onAck(long now, AckPacket a) {
        lastReceiveNs = now;
        conn.counters.acksReceived[Math.min(a.reason(), AckReason.COUNT - 1)]++;
        RxHeader h = a.header();
        if (a.hasTrailer()) {
            conn.peer.applyTrailer(a.trailerWords(), a.maxMTU(), a.ifMTU(), a.maxDgramPackets(), config.jumboMax());
            if (a.trailerWords() >= 3) {
                int rwind = Math.max(1, Math.min(a.rwind(), RxConstants.MAX_ACKS));
                conn.peer.lastRwind = rwind;
                int t = Math.min(config.maxTwind(), rwind);
                twind = a.trailerWords() >= 4 ? t : Math.min(twind, t);
            }
        }
        if (h.hasFlag(PacketFlags.SLOW_START_OK)) {
            seenSlowStartOk = true;
        }
        if (a.reason() == AckReason.PING_RESPONSE && reachPingSerial != 0 && a.serial() == reachPingSerial) {
            conn.peer.rtt().onSample(now - reachPingSentNs);
            reachPingSerial = 0;
            engine.peerReachable(this, now);
        }
        boolean requested = h.hasFlag(PacketFlags.REQUEST_ACK);
        if (!isDone()) {
            processAckBody(now, a);
        }
        if (requested) {
            if (state == CallState.ERROR) {
                // A failed call answers with its ABORT, so the peer stops keeping the call alive (§2).
                sendAbort(error);
            } else {
                repingIfWaiting(now);
                sendAck(now, AckReason.PING_RESPONSE, h.serial(), false);
            }
        }
        afterAck(now);
    }

    private void processAckBody(long now, AckPacket a) {
        int first = a.firstPacket();
        int prev = a.previousPacket();
        // Ignore ACKs older than one already processed (§3, §13): never read them as NACKs.
        if (first - lastAckFirst < 0 && lastAckFirst != 0) {
            conn.counters.acksIgnored++;
            return;
        }
        if (first == lastAckFirst && prev - lastAckPrev < 0 && prev - first >= 0) {
            conn.counters.acksIgnored++;
            return;
        }
        // Remembered clamped to what was sent: an ACK beyond that (a broken or hostile peer) must not make
        // every later, correct ACK look older and be ignored.
        int sentEnd = sq.nextToSend;
        lastAckFirst = first - sentEnd > 0 ? sentEnd : first;
        lastAckPrev = prev - sentEnd >= 0 ? sentEnd - 1 : prev;
        boolean timingAck = a.serial() != 0 && a.reason() != AckReason.DELAY;
        int ackSerial = a.serial();
        int firstBefore = sq.first;
        int newly = sq.hardAck(first, timingAck ? (seq, e) -> sample(now, e, ackSerial) : null);
        int highestSoft = 0;
        boolean nackBelow = false;
        boolean seenAck = false;
        int n = a.nAcks();
        // Walk from the top so a NACK is a hole only when an ACK lies above it.
        for (int i = n - 1; i >= 0; i--) {
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
                if (!e.softAcked) {
                    if (e.lost) {
                        e.lost = false;
                        sq.lostCount--;
                    } else {
                        sq.inFlight--;
                    }
                    e.softAcked = true;
                    newly++;
                    if (timingAck) {
                        sample(now, e, ackSerial);
                    }
                }
            } else if (e.softAcked) {
                // The receiver dropped a packet it had soft-acked: resend it (§3).
                sq.markLost(e);
                nackBelow = true;
            } else if (seenAck) {
                nackBelow = true;
            }
        }
        if (newly > 0 || sq.first != firstBefore) {
            ackProgress++;
        }
        int highestSent = sq.nextToSend - 1;
        if (nackBelow) {
            jumbo.onNack();
            if (cc.onNackedAck(highestSent)) {
                conn.counters.fastRetransmits++;
                for (int s = first; s - highestSoft < 0; s++) {
                    if (sq.contains(s)) {
                        SendQueue.Entry e = sq.get(s);
                        if (!e.softAcked && !e.lost && e.transmits > 0) {
                            sq.markLost(e);
                        }
                    }
                }
            }
        }
        if (newly > 0) {
            if (!nackBelow) {
                cc.onAck(newly, Math.max(first - 1, highestSoft), highestSent);
                jumbo.onCleanAck(newly);
            }
            // Soft-acked packets still count: if the hard ack that frees them is lost (or the receiver holds
            // them), only this timer's PING makes the receiver tell us where it stands (§8).
            resendDeadlineNs = sq.inFlight > 0 || sq.lostCount > 0 || sq.first != sq.nextToSend
                    ? now + conn.peer.rtt().rtoNs() : NONE;
        }
        if (rttProbeSerial != 0 && ackSerial - rttProbeSerial >= 0 && ackSerial != 0) {
            rttProbeSerial = 0;
        }
    }

    private void sample(long now, SendQueue.Entry e, int ackSerial) {
        if (e.transmits == 1 || e.lastSerial == ackSerial || e.firstSerial == ackSerial) {
            long rtt = now - e.sentAtNs;
            if (rtt >= 0) {
                conn.peer.rtt().onSample(rtt);
                stats.rttSamples++;
            }
        }
    }

    /** Every packet in the transmit queue counts as acknowledged (ACKALL, §2). */
    void onAckAll(long now) {
        lastReceiveNs = now;
        ackEverythingSent();
        afterAck(now);
    }

    /** Everything sent counts as hard-acked: an ACKALL, or (client) the first reply packet (§2, §6.3). */
    private void ackEverythingSent() {
        sq.hardAck(sq.nextToSend, null);
        resendDeadlineNs = NONE;
        ackProgress++;
    }

    /**
     * After an ACK or ACKALL: a server call whose whole reply is acked completes (§6.4); a call still running
     * sends what the windows now allow ({@link #transmit} ends by checking writability).
     */
    private void afterAck(long now) {
        if (server && !isDone() && sendFinished && sq.allAcked()) {
            succeed();
        }
        if (!isDone()) {
            transmit(now);
        }
        engine.touched(this);
    }

    private void checkWritable() {
        boolean w = isWritable();
        if (w && !wasWritable) {
            engine.notifyWritable(this);
        }
        wasWritable = w;
    }

    /** The peer sent ABORT for this call (or its connection): fail with the code, send nothing. */
    void onAbort(int code) {
        if (isDone()) {
            return;
        }
        remoteError = true;
        fail(code);
        engine.touched(this);
    }

    /**
     * Ends the call as failed, releases its buffers and tells the listener (once).
     *
     * @param code the abort code
     */
    void fail(int code) {
        if (isDone()) {
            return;
        }
        state = CallState.ERROR;
        error = code == 0 ? AbortCodes.RX_PROTOCOL_ERROR : code;
        releaseBuffers();
        conn.counters.callsFailed++;
        engine.callEnded(this);
    }

    /** Marks the call finished successfully (DALLY) and tells the listener. */
    void succeed() {
        if (isDone()) {
            return;
        }
        state = CallState.DALLY;
        releaseBuffers();
        conn.counters.callsSucceeded++;
        engine.callEnded(this);
    }

    /** Leaves this call's congestion state to the peer for its next call (it sent enough to have learned some). */
    private void saveCongestionState() {
        if (stats.dataPacketsSent >= 8) {
            Peer peer = conn.peer;
            peer.savedCwnd = cc.cwnd();
            peer.savedSsthresh = cc.ssthresh();
            peer.savedJumboSize = jumbo.size();
            peer.savedAtNs = engine.lastNow();
        }
    }

    private void releaseBuffers() {
        saveCongestionState();
        sq.releaseAll();
        rq.releaseAll();
        if (partial != null) {
            partial.release();
            partial = null;
        }
        resendDeadlineNs = NONE;
        reachDeadlineNs = NONE;
        ackDeadlineNs = state == CallState.DALLY ? ackDeadlineNs : NONE;
    }

    /**
     * Client side: a dallying call whose final ack is still pending (delayed-ack timer armed) settles it with
     * ACKALL now, as OpenAFS does when a client connection is destroyed (rx-wire-facts.md §6.4); the server
     * then completes the call instead of holding it until its own timeouts.
     */
    void ackAllIfOwed() {
        if (!server && state == CallState.DALLY && ackDeadlineNs != NONE) {
            ackDeadlineNs = NONE;
            RxHeader h = conn.header(channel, callNumber, 0, conn.nextSerial(), PacketType.ACKALL, 0);
            engine.send(conn, new org.rx4j.wire.ControlPacket(h, new byte[0]));
            engine.touched(this);
        }
    }

    void sendAbort(int code) {
        RxHeader h = conn.header(channel, callNumber, 0, conn.nextSerial(), PacketType.ABORT, 0);
        engine.send(conn, new org.rx4j.wire.AbortPacket(h, code));
    }

    // =====================================================================================
    // Transmit path

    /**
     * Sends what the windows allow: lost packets first (one per datagram, REQUEST_ACK), then new packets,
     * joined into jumbograms when the peer accepts them (rx-wire-facts.md §4, §5, §8).
     */
    void transmit(long now) {
        if (state != CallState.ACTIVE && state != CallState.HOLD) {
            return;
        }
        int cwnd = cc.cwnd();
        if (sq.lostCount > 0) {
            for (int s = sq.first; s - sq.nextToSend < 0 && sq.lostCount > 0 && sq.inFlight < cwnd; s++) {
                SendQueue.Entry e = sq.get(s);
                if (e.lost) {
                    e.lost = false;
                    sq.lostCount--;
                    conn.counters.resends++;
                    conn.peer.counters().resends++;
                    stats.resends++;
                    batch.add(dataPacket(now, s, e, PacketFlags.REQUEST_ACK));
                    sq.inFlight++;
                    engine.sendData(conn, batch);
                }
            }
        }
        int limit = sq.first + twind;
        int maxJumbo = jumboLimit();
        while (sq.nextToSend - sq.next < 0 && sq.nextToSend - limit < 0 && sq.inFlight < cwnd) {
            int room = Math.min(Math.min(cwnd - sq.inFlight, limit - sq.nextToSend), sq.next - sq.nextToSend);
            int k = 1;
            int max = Math.min(room, Math.min(maxJumbo, jumbo.size()));
            // Every sub-packet but the last holds exactly 1412 bytes and no LAST_PACKET (§4).
            while (k < max && sq.get(sq.nextToSend + k - 1).payload.readableBytes() == RxConstants.JUMBO_BUFFER_SIZE
                    && (sq.get(sq.nextToSend + k - 1).flags & PacketFlags.LAST_PACKET) == 0) {
                k++;
            }
            int lastSeqOfDgram = sq.nextToSend + k - 1;
            boolean moreAfter = lastSeqOfDgram + 1 - sq.next < 0 && lastSeqOfDgram + 1 - limit < 0
                    && sq.inFlight + k < cwnd;
            SendQueue.Entry lastEntry = sq.get(lastSeqOfDgram);
            boolean isLast = (lastEntry.flags & PacketFlags.LAST_PACKET) != 0;
            boolean requestAck = !isLast && (cwnd <= 2 || (!seenSlowStartOk && (lastSeqOfDgram & 1) == 1)
                    || rttProbeSerial == 0);
            for (int i = 0; i < k; i++) {
                int seq = sq.nextToSend + i;
                int flags = 0;
                boolean lastOfDgram = i == k - 1;
                if (!lastOfDgram || moreAfter) {
                    flags |= PacketFlags.MORE_PACKETS;
                }
                if (lastOfDgram && requestAck) {
                    flags |= PacketFlags.REQUEST_ACK;
                }
                batch.add(dataPacket(now, seq, sq.get(seq), flags));
            }
            if (requestAck) {
                rttProbeSerial = conn.lastSerial();
            }
            sq.nextToSend += k;
            sq.inFlight += k;
            if (k > 1) {
                conn.counters.jumbogramsSent++;
            }
            engine.sendData(conn, batch);
        }
        if ((sq.inFlight > 0 || sq.lostCount > 0) && resendDeadlineNs == NONE) {
            resendDeadlineNs = now + conn.peer.rtt().rtoNs();
        }
        // Any DATA we send carries our ack state implicitly only for the reply; a pending delayed ack
        // for the request is no longer needed once reply data flows (§8).
        if (server && sq.nextToSend != 1 && ackDeadlineNs != NONE && rq.allReceived()) {
            ackDeadlineNs = NONE;
        }
        checkWritable();
    }

    private int jumboLimit() {
        if (config.jumboMax() <= 1 || conn.peer.maxDgramPackets <= 1 || dataSize != RxConstants.JUMBO_BUFFER_SIZE) {
            return 1;
        }
        int byMtu = (conn.peer.maxMtu - RxConstants.REMOTE_PACKET_SIZE) / RxConstants.JUMBO_STRIDE + 1;
        return Math.max(1, Math.min(conn.peer.maxDgramPackets, Math.min(byMtu, config.jumboMax())));
    }

    private DataPacket dataPacket(long now, int seq, SendQueue.Entry e, int extraFlags) {
        int serial = conn.nextSerial();
        if (e.transmits == 0) {
            e.firstSerial = serial;
        }
        e.lastSerial = serial;
        e.sentAtNs = now;
        e.transmits++;
        stats.dataPacketsSent++;
        lastSendNs = now;
        RxHeader h = conn.header(channel, callNumber, seq, serial, PacketType.DATA, e.flags | extraFlags);
        return new DataPacket(h, e.payload.retainedDuplicate());
    }

    // =====================================================================================
    // Timers

    /** Recomputes {@link #deadlineNs} from the call's timers. */
    void updateDeadline() {
        if (isDone()) {
            deadlineNs = state == CallState.DALLY ? ackDeadlineNs : NONE;
            return;
        }
        if (state == CallState.WAITING) {
            // Not on the wire yet: no keepalive, dead-time or retransmit timer; only the call's own deadline.
            deadlineNs = callDeadlineNs;
            return;
        }
        long d = TimerQueue.earlier(resendDeadlineNs, ackDeadlineNs);
        d = TimerQueue.earlier(d, callDeadlineNs);
        d = TimerQueue.earlier(d, reachDeadlineNs);
        d = TimerQueue.earlier(d, lastSendNs + keepaliveNs());
        d = TimerQueue.earlier(d, lastReceiveNs + config.deadTimeNs());
        long idle = idleDeadNs();
        if (idle > 0) {
            d = TimerQueue.earlier(d, lastDataReceiveNs + idle);
        }
        if (config.hardDeadTimeNs() > 0) {
            d = TimerQueue.earlier(d, startNs + config.hardDeadTimeNs());
        }
        deadlineNs = d;
    }

    private long keepaliveNs() {
        return Math.max(config.deadTimeNs() / 6, 1);
    }

    private long idleDeadNs() {
        return server ? config.serverIdleDeadTimeNs() : config.clientIdleDeadTimeNs();
    }

    /** Fires every timer that is due at {@code now}. */
    void onTimer(long now) {
        if (state == CallState.DALLY) {
            if (ackDeadlineNs != NONE && now - ackDeadlineNs >= 0) {
                sendAck(now, AckReason.DELAY, 0, false);
            }
            return;
        }
        if (isDone()) {
            return;
        }
        if (callDeadlineNs != NONE && now - callDeadlineNs >= 0) {
            abort(now, AbortCodes.RX_CALL_TIMEOUT);
            return;
        }
        if (state == CallState.WAITING) {
            return;
        }
        if (config.hardDeadTimeNs() > 0 && now - (startNs + config.hardDeadTimeNs()) >= 0) {
            abort(now, AbortCodes.RX_CALL_TIMEOUT);
            return;
        }
        if (now - (lastReceiveNs + config.deadTimeNs()) >= 0) {
            sendAbort(AbortCodes.RX_CALL_DEAD);
            fail(AbortCodes.RX_CALL_DEAD);
            return;
        }
        long idle = idleDeadNs();
        if (idle > 0 && now - (lastDataReceiveNs + idle) >= 0 && waitingForData()) {
            abort(now, AbortCodes.RX_CALL_TIMEOUT);
            return;
        }
        if (idle > 0 && now - (lastDataReceiveNs + idle) >= 0) {
            lastDataReceiveNs = now; // not waiting for data: restart the idle clock
        }
        if (reachDeadlineNs != NONE && now - reachDeadlineNs >= 0) {
            sendReachPing(now);
        }
        if (resendDeadlineNs != NONE && now - resendDeadlineNs >= 0) {
            onResendTimeout(now);
        }
        if (ackDeadlineNs != NONE && now - ackDeadlineNs >= 0) {
            sendAck(now, AckReason.DELAY, 0, false);
        }
        if (now - (lastSendNs + keepaliveNs()) >= 0) {
            sendAck(now, AckReason.PING, 0, true);
        }
    }

    private boolean waitingForData() {
        return !rq.allReceived() && !rq.hasReadable();
    }

    private void onResendTimeout(long now) {
        conn.counters.timeouts++;
        conn.peer.rtt().backoff();
        if (sq.inFlight > 0 || sq.lostCount > 0) {
            sq.markAllLost();
            cc.onTimeout(twind);
            jumbo.onTimeout();
            resendDeadlineNs = NONE;
            transmit(now);
        } else if (sq.size() > 0 && sq.nextToSend != sq.first) {
            // Everything sent is soft-acked but not hard-acked: ask where the receiver stands.
            sendAck(now, AckReason.PING, 0, true);
        }
        resendDeadlineNs = (sq.inFlight > 0 || sq.lostCount > 0 || sq.first != sq.nextToSend)
                ? now + conn.peer.rtt().rtoNs() : NONE;
    }

    // =====================================================================================
    // Reachability (server side, §6.2)

    void startReachCheck(long now) {
        state = CallState.PRECALL;
        sendReachPing(now);
    }

    private void sendReachPing(long now) {
        reachPingSentNs = now;
        sendAck(now, AckReason.PING, 0, true);
        reachPingSerial = conn.lastSerial();
        reachDeadlineNs = now + config.reachRetryNs();
    }

    /**
     * A PRECALL call heard a packet asking for an ack (a PING or a resent DATA): the peer is alive and waiting
     * for our window to move. If our reachability PING or its answer was lost, ask again now rather than
     * after the 2 s retry, which would stall the peer that long (§6.2). At most once per minimum RTO.
     */
    private void repingIfWaiting(long now) {
        if (state == CallState.PRECALL && reachPingSerial != 0 && now - reachPingSentNs >= config.minRtoNs()) {
            sendReachPing(now);
        }
    }

    /** The peer answered: start the PRECALL call. */
    void reachConfirmed(long now) {
        reachDeadlineNs = NONE;
        reachPingSerial = 0;
        if (state == CallState.PRECALL) {
            state = CallState.ACTIVE;
        }
    }

    /** @return true when the whole reply is sent and the server waits for its acknowledgement */
    boolean replySent() {
        return sendFinished && sq.nextToSend - sq.next == 0;
    }

    CallListener listener() {
        return listener;
    }

    boolean hasPendingAck() {
        return pendingAckReason != 0;
    }

    @Override
    public String toString() {
        return "Call{" + conn + " ch=" + channel + " call=" + callNumber + " " + state
                + (error != 0 ? " error=" + error : "") + "}";
    }
}
