package org.rx4j.engine;

import io.netty.buffer.ByteBuf;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;

/**
 * One Rx call on one channel of a {@link Connection} (rx-wire-facts.md §3, §5, §6, §8): its life cycle and the
 * application API. Owns its parts: the transmit side ({@link CallSender} with its recovery manager), the receive
 * side ({@link ReceiveQueue} and the ack policy {@link AckScheduler}) and the liveness timers ({@link CallTimers});
 * talks upward only through the {@link CallContext} its connection passed down. Sans-I/O: every method takes
 * {@code now} (ns from the engine's clock) and runs on the engine's thread.
 *
 * <p>Application side: {@link #write}, {@link #finishSending}, {@link #read}, {@link #abort}; events
 * through the {@link CallListener}.
 */
public final class Call {
    static final long NONE = Long.MAX_VALUE;

    private final CallContext ctx;
    private final CallOutput out;
    private final boolean server;
    private CallListener listener = CallListener.NONE;
    CallState state;
    private int error;
    private boolean remoteError;
    private long startNs;
    private final CallCounters stats = new CallCounters();
    private final CallActivity activity = new CallActivity();

    private final SendQueue sq = new SendQueue();
    private final CallSender sender;
    private boolean sendFinished;
    private final ReceiveQueue rq = new ReceiveQueue();
    private final AckScheduler acks;
    private final CallTimers timers;
    private final CallReceiver receiver;
    private boolean wasWritable = true;

    // ---- engine bookkeeping
    /** Bumped whenever the peer acknowledges something new (hard or soft); read by tests' stall detector. */
    long ackProgress;
    /** The call's place in the engine's timer queue: its next deadline (ns, or NONE) and heap index. */
    long deadlineNs = NONE;
    int heapIndex = -1;
    /** True while queued in the engine's list of touched calls. */
    boolean dirty;

    /**
     * @param ctx the owner's narrow interface
     * @param channel 0..3, or -1 for a call waiting for a channel
     * @param callNumber its number on the channel, 0 while waiting
     * @param server true for a call received by a server
     * @param now current time, ns
     */
    Call(CallContext ctx, int channel, int callNumber, boolean server, long now) {
        this.ctx = ctx;
        this.out = new CallOutput(ctx, channel, callNumber);
        this.server = server;
        this.startNs = now;
        this.state = CallState.ACTIVE;
        activity.restart(now);
        RxConfig config = ctx.config();
        this.acks = new AckScheduler(config, out, rq, activity, server);
        this.sender = new CallSender(config, out, sq, acks, activity, stats, ctx.alloc(), server,
                ctx.congestionControl(), now);
        this.timers = new CallTimers(config, out, activity, acks, sender, rq, server);
        this.receiver = new CallReceiver(rq, acks, timers, activity, stats, out);
    }

    /** Gives a waiting (or new) client call its channel and callNumber. */
    void assignChannel(int ch, int number, long now) {
        out.channel = ch;
        out.callNumber = number;
        this.state = CallState.ACTIVE;
        this.startNs = now;
        activity.restart(now);
    }

    // =====================================================================================
    // Identity and state

    /** @return the connection carrying this call */
    public Connection connection() {
        return ctx.connection();
    }

    /** @return the channel, 0..3 (-1 while waiting for one) */
    public int channel() {
        return out.channel;
    }

    /** @return the call's callNumber on its channel */
    public int callNumber() {
        return out.callNumber;
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
        return sender.congestion().cwnd();
    }

    /**
     * Sets the receiver of this call's events; the engine calls it on its own thread.
     *
     * @param l the listener (null for none)
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
        if (isDone() || sendFinished) {
            data.release();
            if (isDone()) {
                throw new IllegalStateException("call ended: " + AbortCodes.name(error));
            }
            throw new IllegalStateException("sending already finished");
        }
        sender.append(data);
        transmit(now);
        ctx.touched(this, now);
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
        if (isDone() || sendFinished || !sender.flushPartial()) {
            return;
        }
        transmit(now);
        ctx.touched(this, now);
    }

    /**
     * Ends this call's outgoing stream: the last packet carries LAST_PACKET (a zero-length packet when
     * nothing is left to send, §6).
     *
     * @param now current time, ns
     */
    public void finishSending(long now) {
        if (sendFinished || isDone()) {
            return;
        }
        sendFinished = true;
        if (server && state == CallState.ACTIVE) {
            state = CallState.HOLD;
        }
        sender.finish();
        transmit(now);
        if (!server && rq.allConsumed()) {
            succeed(now); // the whole reply was already read
        }
        ctx.touched(this, now);
    }

    /**
     * @return true when the application may write more: the call is active, sending is not finished and
     *     fewer than 2 × twind packets wait to be acknowledged (OpenAFS's writer rule, §5)
     */
    public boolean isWritable() {
        return !isDone() && !sendFinished
                && sq.size() < Math.min(SendQueue.CAPACITY - 2, 2 * Math.max(sender.twind, 8));
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
        while (true) {
            DataPacket p = receiver.poll();
            if (p == null) {
                return null;
            }
            if (receiver.isReadComplete() && !server) {
                // Client read the whole reply: the call is complete (§6.4).
                if (sendFinished) {
                    succeed(now);
                }
            } else if (acks.onConsumed(now)) {
                ctx.touched(this, now);
            }
            ByteBuf payload = p.payload();
            if (payload.isReadable()) {
                return payload;
            }
            payload.release();
        }
    }

    /** @return true when the peer's whole stream (through LAST_PACKET) has been read */
    public boolean isReadComplete() {
        return receiver.isReadComplete();
    }

    /** @return true when {@link #read} would return data now */
    public boolean isReadable() {
        return receiver.isReadable();
    }

    /**
     * Aborts the call: sends ABORT with {@code code} and fails the call locally with that code.
     * A no-op on a finished call.
     *
     * @param now current time, ns
     * @param code the abort code (e.g. {@link AbortCodes#RX_USER_ABORT})
     */
    public void abort(long now, int code) {
        if (isDone()) {
            return;
        }
        if (state == CallState.WAITING) {
            // Never on the wire: no channel, no callNumber, so no ABORT (one with callNumber 0 would end the
            // whole connection at the peer, §6.5).
            ctx.leaveWaiting(this);
        } else {
            sendAbort(code);
        }
        fail(now, code);
        ctx.touched(this, now);
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
        if (isDone()) {
            return;
        }
        timers.callDeadlineNs = deadlineNs;
        ctx.touched(this, now);
    }

    /** @return this call's own hard deadline (engine clock, ns), or {@code Long.MAX_VALUE} for none */
    public long deadline() {
        return timers.callDeadlineNs;
    }

    // =====================================================================================
    // Packets from the peer (called by the connection's dispatcher)

    /**
     * Handles one DATA packet (one sub-packet of a datagram).
     *
     * @param now current time, ns
     * @param p the packet; ownership passes to the call
     * @param lastInDatagram true for the datagram's last sub-packet
     */
    void onData(long now, DataPacket p, boolean lastInDatagram) {
        receiver.heardData(now);
        if (state == CallState.ERROR) {
            p.release();
            if (lastInDatagram) {
                sendAbort(error);
            }
            return;
        }
        if (state == CallState.DALLY) {
            if (receiver.onDataWhileDallying(p, lastInDatagram)) {
                // The peer missed our final ack: the engine flushes the DUPLICATE ack after the datagram.
                ctx.touched(this, now);
            }
            return;
        }
        if (!server && sq.lastSeq() != 0 && sq.nextToSend() - sq.lastSeq() > 0 && sq.first() - sq.next() < 0) {
            // The first reply packet acks the whole request implicitly (§6.3); all of it was sent.
            ackEverythingSent();
        }
        if (receiver.onData(now, p, lastInDatagram, state == CallState.PRECALL)) {
            ctx.readable(this);
        }
        if (lastInDatagram) {
            ctx.touched(this, now);
        }
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
        activity.lastReceiveNs = now;
        ctx.counters().acksReceived[Math.min(a.reason(), AckReason.COUNT - 1)]++;
        RxHeader h = a.header();
        sender.applyTrailer(a);
        if (timers.onPingResponse(now, a.reason(), a.serial())) {
            ctx.peerReachable(now);
        }
        boolean requested = h.hasFlag(PacketFlags.REQUEST_ACK);
        if (!isDone() && sender.processAckBody(now, a)) {
            ackProgress++;
        }
        if (requested) {
            if (state == CallState.ERROR) {
                // A failed call answers with its ABORT, so the peer stops keeping the call alive (§2).
                sendAbort(error);
            } else {
                timers.repingIfWaiting(now, state == CallState.PRECALL);
                acks.sendAck(now, AckReason.PING_RESPONSE, h.serial(), false);
            }
        }
        afterAck(now);
    }

    /** Every packet in the transmit queue counts as acknowledged (ACKALL, §2). */
    void onAckAll(long now) {
        activity.lastReceiveNs = now;
        ackEverythingSent();
        afterAck(now);
    }

    private void ackEverythingSent() {
        sender.ackEverythingSent();
        ackProgress++;
    }

    /**
     * After an ACK or ACKALL: a server call whose whole reply is acked completes (§6.4); a call still running
     * sends what the windows now allow.
     */
    private void afterAck(long now) {
        if (server && !isDone() && sendFinished && sq.allAcked()) {
            succeed(now);
        }
        if (!isDone()) {
            transmit(now);
        }
        ctx.touched(this, now);
    }

    /** The peer sent ABORT for this call (or its connection): fail with the code, send nothing. */
    void onAbort(long now, int code) {
        if (isDone()) {
            return;
        }
        remoteError = true;
        fail(now, code);
        ctx.touched(this, now);
    }

    // =====================================================================================
    // Life cycle

    /**
     * Ends the call as failed, releases its buffers and tells the listener (once).
     *
     * @param now current time, ns
     * @param code the abort code
     */
    void fail(long now, int code) {
        if (isDone()) {
            return;
        }
        state = CallState.ERROR;
        error = code == 0 ? AbortCodes.RX_PROTOCOL_ERROR : code;
        releaseBuffers(now);
        ctx.counters().callsFailed++;
        ctx.ended(this, now);
    }

    /** Marks the call finished successfully (DALLY) and tells the listener. */
    void succeed(long now) {
        if (isDone()) {
            return;
        }
        state = CallState.DALLY;
        releaseBuffers(now);
        ctx.counters().callsSucceeded++;
        ctx.ended(this, now);
    }

    private void releaseBuffers(long now) {
        sender.saveCongestionState(now);
        sender.release();
        receiver.release();
        timers.cancelReach();
        if (state != CallState.DALLY) {
            acks.cancelDelayedAck();
        }
    }

    /**
     * Client side: a dallying call whose final ack is still pending (delayed-ack timer armed) settles it with
     * ACKALL now, as OpenAFS does when a client connection is destroyed (rx-wire-facts.md §6.4); the server
     * then completes the call instead of holding it until its own timeouts.
     */
    void ackAllIfOwed(long now) {
        if (!server && state == CallState.DALLY && acks.ackDeadlineNs() != NONE) {
            acks.cancelDelayedAck();
            out.send(new ControlPacket(out.header(0, PacketType.ACKALL, 0), new byte[0]));
            ctx.touched(this, now);
        }
    }

    void sendAbort(int code) {
        out.send(new AbortPacket(out.header(0, PacketType.ABORT, 0), code));
    }

    /** Sends what the windows allow (see {@link CallSender#transmit}), then notes a regained writability. */
    void transmit(long now) {
        if (state != CallState.ACTIVE && state != CallState.HOLD) {
            return;
        }
        sender.transmit(now);
        checkWritable();
    }

    /** Queues a writable event when the call became writable again (called after each transmit). */
    private void checkWritable() {
        boolean w = isWritable();
        if (w && !wasWritable) {
            ctx.writable(this);
        }
        wasWritable = w;
    }

    // =====================================================================================
    // Timers

    /** Recomputes {@link #deadlineNs} from the call's timers. */
    void updateDeadline() {
        deadlineNs = timers.deadline(state, startNs);
    }

    /** Fires every timer that is due at {@code now}; one that ends the call aborts it. */
    void onTimer(long now) {
        int code = timers.onTimer(now, state, startNs);
        if (code != 0) {
            abort(now, code);
        } else if (state == CallState.ACTIVE || state == CallState.HOLD) {
            checkWritable(); // a retransmission timeout may have transmitted
        }
    }

    /** Server: holds the new call in PRECALL and PINGs the peer, whose reachability is unknown (§6.2). */
    void startReachCheck(long now) {
        state = CallState.PRECALL;
        timers.sendReachPing(now);
    }

    /** The peer answered: start the PRECALL call. */
    void reachConfirmed() {
        timers.stopReachCheck();
        if (state == CallState.PRECALL) {
            state = CallState.ACTIVE;
        }
    }

    /** @return true when the whole reply is sent and the server waits for its acknowledgement */
    boolean replySent() {
        return sendFinished && sq.nextToSend() - sq.next() == 0;
    }

    CallListener listener() {
        return listener;
    }

    boolean hasPendingAck() {
        return acks.hasPendingAck();
    }

    @Override
    public String toString() {
        return "Call{" + ctx.connection() + " ch=" + out.channel + " call=" + out.callNumber + " " + state
                + (error != 0 ? " error=" + error : "") + "}";
    }
}
