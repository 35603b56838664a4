package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import io.netty.buffer.ByteBuf;
import org.rx4j.engine.cc.CongestionController;
import org.rx4j.engine.cc.JumboSizer;
import org.rx4j.engine.cc.NewRenoCongestionController;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;

/**
 * One Rx call on one channel of a {@link Connection}: the send queue with twind, congestion control and
 * retransmission, the receive queue with rwind and the ack policy, and the call's timers (rx-wire-facts.md
 * §3, §5, §6, §8). Sans-I/O: every method takes {@code now} (ns from the engine's clock) and runs on the
 * engine's thread; output goes through the engine's {@link PacketSink}. The transmit side lives in
 * {@link CallSender}, the receiver's ack policy in {@link AckScheduler}, the liveness timers in {@link CallTimers}.
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
    final CallSender sender;
    private ByteBuf partial;
    private boolean sendFinished;
    /** Bytes of DATA payload per packet. */
    final int dataSize;

    // ---- receive side
    final ReceiveQueue rq = new ReceiveQueue();
    final AckScheduler acks;
    private boolean notifyReadable;
    private boolean wasWritable = true;

    // ---- liveness
    final CallTimers timers;

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
        this.timers = new CallTimers(this, now);
        this.state = CallState.ACTIVE;
        int peerRwind = conn.peer.lastRwind > 0 ? conn.peer.lastRwind : RxConfig.INITIAL_WINDOW;
        int twind0 = Math.min(config.maxTwind(), peerRwind);
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
        this.sender = new CallSender(this, twind0);
        this.acks = new AckScheduler(this);
    }

    /** Gives a waiting (or new) client call its channel and callNumber. */
    void assignChannel(int ch, int number, long now) {
        this.channel = ch;
        this.callNumber = number;
        this.state = CallState.ACTIVE;
        this.startNs = now;
        timers.restart(now);
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
        return sender.twind;
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
        return !isDone() && !sendFinished && sq.size() < Math.min(SendQueue.CAPACITY - 2, 2 * Math.max(sender.twind, 8));
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
            acks.consumedSinceAck++;
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
        timers.callDeadlineNs = deadlineNs;
        engine.touched(this);
    }

    /** @return this call's own hard deadline (engine clock, ns), or {@code Long.MAX_VALUE} for none */
    public long deadline() {
        return timers.callDeadlineNs;
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
        timers.lastReceiveNs = now;
        timers.lastDataReceiveNs = now;
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
                acks.queueAck(AckReason.DUPLICATE, h.serial());
                engine.touched(this);
            }
            return;
        }
        if (!server && sq.lastSeq != 0 && sq.nextToSend - sq.lastSeq > 0 && sq.first - sq.next < 0) {
            // The first reply packet acks the whole request implicitly (§6.3); all of it was sent.
            sender.ackEverythingSent();
        }
        int result = rq.offer(p, config.maxRwind());
        stats.dataPacketsReceived++;
        if (result == ReceiveQueue.DUPLICATE) {
            conn.counters.duplicatesReceived++;
            acks.queueAck(AckReason.DUPLICATE, h.serial());
        } else if (result == ReceiveQueue.EXCEEDS_WINDOW) {
            acks.queueAck(AckReason.EXCEEDS_WINDOW, h.serial());
        } else {
            acks.arrivalsSinceAck++;
            if (rq.hasReadable()) {
                notifyReadable = true;
            }
            if (h.hasFlag(PacketFlags.REQUEST_ACK)) {
                acks.queueAck(AckReason.REQUESTED, h.serial());
                timers.repingIfWaiting(now);
            } else if (rq.hasGap()) {
                acks.queueAck(AckReason.OUT_OF_SEQUENCE, h.serial());
            }
        }
        if (lastInDatagram) {
            acks.endOfDatagram(now, h);
            if (notifyReadable) {
                notifyReadable = false;
                engine.notifyReadable(this);
            }
            engine.touched(this);
        }
    }

    private void onConsumed(long now) {
        if (rq.allConsumed() && !server) {
            // Client read the whole reply: the call is complete (§6.4).
            if (sendFinished) {
                succeed();
            }
            return;
        }
        acks.onConsumed(now);
    }

    /** Sends the ACK queued for this call, if any (the engine calls it once per datagram or app action). */
    void flushAck(long now) {
        acks.flushAck(now);
    }

    /**
     * Handles an ACK for this call (rx-wire-facts.md §3, §8): trailer, hard and soft acks, RTT samples,
     * congestion control, NACK-driven fast retransmit, PING answers.
     *
     * @param now current time, ns
     * @param a the ACK
     */
    void onAck(long now, AckPacket a) {
        timers.lastReceiveNs = now;
        conn.counters.acksReceived[Math.min(a.reason(), AckReason.COUNT - 1)]++;
        RxHeader h = a.header();
        sender.applyTrailer(a);
        if (timers.onPingResponse(now, a.reason(), a.serial())) {
            engine.peerReachable(this, now);
        }
        boolean requested = h.hasFlag(PacketFlags.REQUEST_ACK);
        if (!isDone()) {
            sender.processAckBody(now, a);
        }
        if (requested) {
            if (state == CallState.ERROR) {
                // A failed call answers with its ABORT, so the peer stops keeping the call alive (§2).
                sendAbort(error);
            } else {
                timers.repingIfWaiting(now);
                acks.sendAck(now, AckReason.PING_RESPONSE, h.serial(), false);
            }
        }
        afterAck(now);
    }

    /** Every packet in the transmit queue counts as acknowledged (ACKALL, §2). */
    void onAckAll(long now) {
        timers.lastReceiveNs = now;
        sender.ackEverythingSent();
        afterAck(now);
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

    /** Queues a writable event when the call became writable again (called after each transmit). */
    void checkWritable() {
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
        sender.resendDeadlineNs = NONE;
        timers.reachDeadlineNs = NONE;
        acks.ackDeadlineNs = state == CallState.DALLY ? acks.ackDeadlineNs : NONE;
    }

    /**
     * Client side: a dallying call whose final ack is still pending (delayed-ack timer armed) settles it with
     * ACKALL now, as OpenAFS does when a client connection is destroyed (rx-wire-facts.md §6.4); the server
     * then completes the call instead of holding it until its own timeouts.
     */
    void ackAllIfOwed() {
        if (!server && state == CallState.DALLY && acks.ackDeadlineNs != NONE) {
            acks.ackDeadlineNs = NONE;
            RxHeader h = conn.header(channel, callNumber, 0, conn.nextSerial(), PacketType.ACKALL, 0);
            engine.send(conn, new org.rx4j.wire.ControlPacket(h, new byte[0]));
            engine.touched(this);
        }
    }

    void sendAbort(int code) {
        RxHeader h = conn.header(channel, callNumber, 0, conn.nextSerial(), PacketType.ABORT, 0);
        engine.send(conn, new org.rx4j.wire.AbortPacket(h, code));
    }

    /** Sends what the windows allow (see {@link CallSender#transmit}). */
    void transmit(long now) {
        sender.transmit(now);
    }

    // =====================================================================================
    // Timers

    /** Recomputes {@link #deadlineNs} from the call's timers. */
    void updateDeadline() {
        deadlineNs = timers.deadline();
    }

    /** Fires every timer that is due at {@code now}. */
    void onTimer(long now) {
        timers.onTimer(now);
    }

    void startReachCheck(long now) {
        timers.startReachCheck(now);
    }

    /** The peer answered: start the PRECALL call. */
    void reachConfirmed(long now) {
        timers.reachConfirmed(now);
    }

    /** @return true when the whole reply is sent and the server waits for its acknowledgement */
    boolean replySent() {
        return sendFinished && sq.nextToSend - sq.next == 0;
    }

    CallListener listener() {
        return listener;
    }

    boolean hasPendingAck() {
        return acks.hasPendingAck();
    }

    @Override
    public String toString() {
        return "Call{" + conn + " ch=" + channel + " call=" + callNumber + " " + state
                + (error != 0 ? " error=" + error : "") + "}";
    }
}
