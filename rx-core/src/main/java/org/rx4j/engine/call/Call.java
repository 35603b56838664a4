// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.counters.RxCounter;
import io.netty.buffer.ByteBuf;
import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.engine.telemetry.CallCounters;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.DataPacket;

/**
 * One Rx call on one channel of a connection (rx-wire-facts.md §3, §5, §6, §8): the application's handle and the
 * owner of the call's parts — the state machine ({@link CallLifecycle}), the send side ({@link CallSender} with its
 * recovery manager), the receive side ({@link CallReceiver} with the ack policy {@link AckScheduler}), the liveness
 * timers ({@link CallTimers}) and the handling of the peer's packets ({@link CallInbound}). The parts get what they
 * need in their constructors and raise events through the {@link CallEvents} bound to the call when it was made;
 * the call reads what its connection's calls share in the fixed {@link CallEnv} and asks the rest of the
 * {@link CallOwner} (serials, sending, a freed channel), and does not know the connection itself.
 * Sans-I/O: every method takes {@code now} (ns from the engine's clock) and runs on the engine's thread.
 *
 * <p>Application side: {@link #write}, {@link #finishSending}, {@link #read}, {@link #abort}, {@link #origin}; events
 * through the {@link CallListener}.
 */
public final class Call {
    private final CallEnv env;
    private final CallEvents events;
    private final CallOutput out;
    private final boolean server;
    private CallListener listener = CallListener.NONE;
    private final CallCounters stats = new CallCounters();
    private final CallActivity activity = new CallActivity();
    private final CallSender sender;
    private final CallReceiver receiver;
    private final AckScheduler acks;
    private final CallTimers timers;
    private final CallLifecycle life;
    private final CallInbound inbound;
    private final ReceiveQueue rq;

    // ---- the engine's bookkeeping (timer queue and touched list)
    /** The call's next deadline, ns, or Deadlines.NONE; its index in the engine's timer heap. */
    public long deadlineNs = Deadlines.NONE;
    public int heapIndex = -1;
    /** True while queued in the engine's list of touched calls. */
    public boolean dirty;
    /** True while the engine's service registry holds this server call (admitted, not started). */
    public boolean inHeldList;
    /** True once the listener was told the peer's stream is complete ({@link CallListener#onReadComplete}). */
    private boolean readCompleteTold;

    /**
     * @param env what the calls of the connection share
     * @param owner the connection's serials, sending and channels
     * @param events the call's events, bound to it by its maker ({@link ConnectionContext#newCall})
     * @param channel 0..3, or -1 for a client call that waits for a channel until {@link #assignChannel}
     * @param callNumber its number on the channel, 0 while waiting
     * @param server true for a call received by a server
     * @param now current time, ns
     */
    public Call(CallEnv env, CallOwner owner, CallEvents events, int channel, int callNumber, boolean server, long now) {
        this.env = env;
        this.out = new CallOutput(env, owner, channel, callNumber);
        this.server = server;
        activity.restart(now);
        this.rq = new ReceiveQueue();
        this.events = events;
        this.acks = new AckScheduler(env, out, rq, activity, server);
        this.sender = new CallSender(env, out, new SendQueue(), acks, activity, stats, server, now);
        this.timers = new CallTimers(env, out, activity, acks, sender, rq, server);
        this.receiver = new CallReceiver(env, rq, acks, timers, activity, stats);
        this.life = new CallLifecycle(env, out, events, sender, receiver, timers, acks, now);
        this.inbound = new CallInbound(env, life, events, out, activity, sender, receiver, acks, timers, server);
        if (channel < 0) {
            life.state = CallState.WAITING;
        }
    }

    /** Gives a waiting (or new) client call its channel and callNumber. */
    public void assignChannel(int ch, int number, long now) {
        out.channel = ch;
        out.callNumber = number;
        life.state = CallState.ACTIVE;
        life.startNs = now;
        activity.restart(now);
    }

    // =====================================================================================
    // Identity and state

    /** @return the peer's current address and the identity of the connection carrying this call */
    public CallOrigin origin() {
        return env.origin();
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
        return life.state;
    }

    /** @return 0, or the abort code that ended the call */
    public int error() {
        return life.error;
    }

    /** @return true when the error came in an ABORT from the peer, false when raised locally */
    public boolean isRemoteError() {
        return life.remoteError;
    }

    /** @return true once the call succeeded or failed */
    public boolean isDone() {
        return life.isDone();
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

    /** @return a one-line dump of the send side's state, for diagnostics */
    String debugState(long now) {
        return sender.debugState(now) + " deadline=" + (deadlineNs == Deadlines.NONE ? -1 : (deadlineNs - now) / 1000)
                + "us state=" + life.state;
    }

    /**
     * @return the congestion controller's name and phase with its model, for statistics, e.g.
     *     "bbr/PROBE_BW_CRUISE bw=8123 pkt/s pacing=8042 pkt/s minRtt=10.0 ms" or "newreno/congestion-avoidance"
     */
    public String congestionMode() {
        org.rx4j.engine.cc.CongestionController cc = sender.congestion();
        if (cc.bandwidthPps() <= 0) {
            return cc.mode();
        }
        return String.format(java.util.Locale.ROOT, "%s bw=%.0f pkt/s pacing=%.0f pkt/s minRtt=%.1f ms", cc.mode(),
                cc.bandwidthPps(), cc.pacingRatePps(), cc.minRttNs() / 1e6);
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
     * queued); the queue itself holds at most {@code SendQueue.MAX_PACKETS} (65,536) packets, so one write of up to
     * 512 KiB always fits even at the smallest packet size (492 bytes, a narrow path).
     *
     * <p>Ownership: takes {@code data} (released by the call, also on error).
     *
     * @param now current time, ns
     * @param data the bytes to send (readable region)
     * @throws IllegalStateException if the call is done, sending was finished, or the send queue is full
     */
    public void write(long now, ByteBuf data) {
        if (isDone() || life.sendFinished) {
            data.release();
            if (isDone()) {
                throw new IllegalStateException("call ended: " + AbortCodes.name(life.error));
            }
            throw new IllegalStateException("sending already finished");
        }
        sender.append(data);
        life.transmit(now);
        events.touched(now);
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
        if (isDone() || life.sendFinished || !sender.flushPartial()) {
            return;
        }
        life.transmit(now);
        events.touched(now);
    }

    /**
     * Ends this call's outgoing stream: the last packet carries LAST_PACKET (a zero-length packet when
     * nothing is left to send, §6).
     *
     * @param now current time, ns
     */
    public void finishSending(long now) {
        if (life.sendFinished || isDone()) {
            return;
        }
        life.sendFinished = true;
        if (server && life.state == CallState.ACTIVE) {
            life.state = CallState.HOLD;
        }
        sender.finish();
        life.transmit(now);
        if (!server && receiver.isReadComplete()) {
            life.succeed(now); // the whole reply was already read
        }
        events.touched(now);
    }

    /**
     * Appends the stream's last bytes and ends it in one step: everything goes to one transmission, so a short last
     * packet rides in the last jumbogram with the full packets before it (rx-wire-facts.md §4) instead of following
     * them alone, as it does after {@link #write} then {@link #finishSending(long)} when the window already sent the
     * full ones (docs/engine.md "Jumbogram size").
     *
     * <p>Ownership: takes {@code data} (released by the call, also on error).
     *
     * @param now current time, ns
     * @param data the last bytes to send (readable region; may be empty)
     * @throws IllegalStateException if the call is done or sending was finished
     */
    public void finishSending(long now, ByteBuf data) {
        if (isDone() || life.sendFinished) {
            data.release();
            if (isDone()) {
                throw new IllegalStateException("call ended: " + AbortCodes.name(life.error));
            }
            throw new IllegalStateException("sending already finished");
        }
        sender.append(data);
        finishSending(now);
    }

    /**
     * @return true when the application may write more: the call is active, sending is not finished and
     *     fewer than 2 × twind packets wait to be acknowledged (OpenAFS's writer rule, §5)
     */
    public boolean isWritable() {
        return life.isWritable();
    }

    /** @return packets queued for sending and not yet hard-acked */
    public int queuedPackets() {
        return sender.queued();
    }

    /**
     * Takes the next in-order bytes the peer sent. Consuming a packet advances the hard ack (firstPacket)
     * and may send an ACK. The engine reads this way for the listener ({@link CallListener#onData}); the application
     * calls it from a task of its own for what its listener left in the call, never from inside an event.
     *
     * <p>Ownership: the caller owns and must release the returned buffer.
     *
     * @param now current time, ns
     * @return a non-empty buffer, or null when nothing is readable now (see {@link #isReadComplete()})
     */
    public ByteBuf read(long now) {
        while (true) {
            ByteBuf payload = rq.poll(); // straight from the queue: one step fewer on the application's read
            if (payload == null) {
                return null;
            }
            acks.countConsumed();
            env.counters().add(RxCounter.PAYLOAD_BYTES_DELIVERED, payload.readableBytes());
            if (receiver.isReadComplete() && !server) {
                // Client read the whole reply: the call is complete (§6.4).
                if (life.sendFinished) {
                    life.succeed(now);
                }
            } else if (acks.onConsumed(now)) {
                events.touched(now);
            }
            if (payload.isReadable()) {
                return payload;
            }
            payload.release();
        }
    }

    /**
     * Hands the readable bytes to the listener while it wants them, then, once, the end of the stream (the engine's
     * event queue calls it for a readable or new-call event): the listener gets the bytes and never reads them itself.
     *
     * @param now the draining entry point's time, ns
     */
    public void deliver(long now) {
        ByteBuf b;
        // The listener is read again each time: a router may hand the call to another listener in onData.
        while (listener.wantsData(this) && (b = read(now)) != null) {
            listener.onData(this, b, now);
        }
        if (!readCompleteTold && life.error == 0 && receiver.isReadComplete()) {
            readCompleteTold = true;
            listener.onReadComplete(this, now);
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
        try {
            if (life.state != CallState.WAITING) {
                // A waiting call was never on the wire: no channel, no callNumber, so no ABORT (one with callNumber 0
                // would end the whole connection at the peer, §6.5); its end takes it out of the waiting queue.
                out.sendAbort(code);
            }
        } finally {
            // Ended even when the ABORT could not be sent: a call left running would meet its deadline again at once.
            life.fail(now, code);
            events.touched(now);
        }
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
        events.touched(now);
    }

    /** @return this call's own hard deadline (engine clock, ns), or {@code Long.MAX_VALUE} for none */
    public long deadline() {
        return timers.callDeadlineNs;
    }

    /**
     * @return when the endpoint-wide hard dead time ends this call (its start + {@code hardDeadTime}, engine clock,
     *     ns; rx-wire-facts.md §8), or {@code Long.MAX_VALUE} when that setting is off
     */
    public long hardDeadTimeEnd() {
        return timers.hardDeadTimeEnd(life.startNs);
    }

    // =====================================================================================
    // For the connection, the dispatcher and the engine's queues

    /**
     * @return the part that takes the peer's DATA, ACK, ACKALL and ABORT packets for this call: the dispatcher hands
     *     them to it directly (one step fewer per packet than through the call)
     */
    public CallInbound inbound() {
        return inbound;
    }

    /** Ends the call as failed with {@code code}; nothing is sent. */
    public void fail(long now, int code) {
        life.fail(now, code);
    }

    /** Ends the call successfully (DALLY). */
    public void succeed(long now) {
        life.succeed(now);
    }

    /** Sends ABORT for this call with {@code code}. */
    public void sendAbort(int code) {
        out.sendAbort(code);
    }

    /** A waiting call got its channel: it sends what the windows allow, and the application may write. */
    public void startedAfterWaiting(long now) {
        life.transmit(now);
        events.touched(now);
        events.writable();
    }

    /**
     * Client side: a dallying call whose final ack is still pending (delayed-ack timer armed) settles it with
     * ACKALL now, as OpenAFS does when a client connection is destroyed (rx-wire-facts.md §6.4).
     */
    public void ackAllIfOwed(long now) {
        if (!server && life.state == CallState.DALLY && acks.ackDeadlineNs() != Deadlines.NONE) {
            acks.cancelDelayedAck();
            out.sendAckAll();
            events.touched(now);
        }
    }

    /** Sends the ACK queued for this call, if any (the engine calls it once per datagram or app action). */
    public void flushAck(long now) {
        acks.flushAck(now);
    }

    /** Recomputes {@link #deadlineNs} from the call's timers. */
    public void updateDeadline() {
        deadlineNs = timers.deadline(life.state, life.startNs);
    }

    /** Fires every timer that is due at {@code now}; one that ends the call aborts it. */
    public void onTimer(long now) {
        int code = timers.onTimer(now, life.state, life.startNs);
        if (code == 0 && timers.takeStall()) {
            events.stalled();
        }
        if (code != 0) {
            abort(now, code);
        } else if (life.maySend()) {
            long pace = sender.pacingDeadlineNs();
            if (pace != Deadlines.NONE && now - pace >= 0) {
                life.transmit(now); // the pacer lets the next datagram go
            } else {
                life.checkWritable(); // a retransmission timeout may have transmitted
            }
        }
    }

    /**
     * Server: holds a newly admitted call in PRECALL until it may start (its request's first packet arrived and, with
     * checkReach, its peer proved reachable); PINGs the peer when its reachability is unknown (§6.2). Until that peer
     * answers, the call sends nothing but the PING (its output is muted: no more than three times what the peer sent).
     *
     * @param now current time, ns
     * @param pingPeer true to send the reachability PING
     */
    public void hold(long now, boolean pingPeer) {
        life.state = CallState.PRECALL;
        if (pingPeer) {
            out.muted = true;
            timers.sendReachPing(now);
        }
    }

    /** @return true when packet 1 of the peer's stream has arrived (and not yet been read) or was read */
    public boolean hasFirstPacket() {
        return receiver.hasFirstPacket();
    }

    /** @return DATA packets the call holds in its receive queue (not yet read by the application) */
    public int heldPackets() {
        return receiver.heldPackets();
    }

    /** @return bytes of those packets (28-byte header + payload each) */
    public long heldBytes() {
        return receiver.heldBytes();
    }

    /** The peer proved reachable: no more reachability PINGs for this call. */
    public void stopReachPings() {
        timers.stopReachCheck();
        out.muted = false;
    }

    /** The PRECALL call may start (first packet here, peer reachable): it becomes ACTIVE. */
    public void reachConfirmed() {
        stopReachPings();
        if (life.state == CallState.PRECALL) {
            life.state = CallState.ACTIVE;
        }
    }

    /** @return true when the whole reply is sent and the server waits for its acknowledgement */
    public boolean replySent() {
        return life.sendFinished && sender.allSent();
    }

    /** @return how often the peer acknowledged something new (tests' stall detector) */
    public long ackProgress() {
        return inbound.ackProgress;
    }

    public CallListener listener() {
        return listener;
    }

    @Override
    public String toString() {
        return "Call{" + env.origin() + " ch=" + out.channel + " call=" + out.callNumber + " " + life.state
                + (life.error != 0 ? " error=" + life.error : "") + "}";
    }
}
