package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckReason;

/**
 * The liveness timers of one {@link Call}: keepalive PING, dead time, idle dead time, hard dead time, the
 * call's own deadline, and the server's reachability PING (rx-wire-facts.md §6.2, §8). Computes the call's
 * next deadline and fires whatever is due; the retransmit and delayed-ack timers it fires belong to
 * {@link CallSender} and {@link AckScheduler}. Runs on the engine's thread; times are ns on the engine's clock.
 */
final class CallTimers {
    private final Call call;
    private final RxConfig config;

    long lastSendNs;
    long lastReceiveNs;
    long lastDataReceiveNs;
    long reachDeadlineNs = Call.NONE;
    /** The application's hard deadline for this call (engine clock, ns), or NONE. */
    long callDeadlineNs = Call.NONE;
    int reachPingSerial;
    long reachPingSentNs;

    CallTimers(Call call, long now) {
        this.call = call;
        this.config = call.config;
        restart(now);
    }

    /** Restarts the send/receive clocks (a new call, or a waiting call given its channel). */
    void restart(long now) {
        this.lastReceiveNs = now;
        this.lastDataReceiveNs = now;
        this.lastSendNs = now;
    }

    /** @return the earliest time any of the call's timers is due, ns, or NONE */
    long deadline() {
        if (call.isDone()) {
            return call.state == CallState.DALLY ? call.acks.ackDeadlineNs : Call.NONE;
        }
        if (call.state == CallState.WAITING) {
            // Not on the wire yet: no keepalive, dead-time or retransmit timer; only the call's own deadline.
            return callDeadlineNs;
        }
        long d = TimerQueue.earlier(call.sender.resendDeadlineNs, call.acks.ackDeadlineNs);
        d = TimerQueue.earlier(d, callDeadlineNs);
        d = TimerQueue.earlier(d, reachDeadlineNs);
        d = TimerQueue.earlier(d, lastSendNs + keepaliveNs());
        d = TimerQueue.earlier(d, lastReceiveNs + config.deadTimeNs());
        long idle = idleDeadNs();
        if (idle > 0) {
            d = TimerQueue.earlier(d, lastDataReceiveNs + idle);
        }
        if (config.hardDeadTimeNs() > 0) {
            d = TimerQueue.earlier(d, call.startNs + config.hardDeadTimeNs());
        }
        return d;
    }

    private long keepaliveNs() {
        return Math.max(config.deadTimeNs() / 6, 1);
    }

    private long idleDeadNs() {
        return call.server ? config.serverIdleDeadTimeNs() : config.clientIdleDeadTimeNs();
    }

    /** Fires every timer that is due at {@code now}. */
    void onTimer(long now) {
        AckScheduler acks = call.acks;
        if (call.state == CallState.DALLY) {
            if (acks.ackDeadlineNs != Call.NONE && now - acks.ackDeadlineNs >= 0) {
                acks.sendAck(now, AckReason.DELAY, 0, false);
            }
            return;
        }
        if (call.isDone()) {
            return;
        }
        if (callDeadlineNs != Call.NONE && now - callDeadlineNs >= 0) {
            call.abort(now, AbortCodes.RX_CALL_TIMEOUT);
            return;
        }
        if (call.state == CallState.WAITING) {
            return;
        }
        if (config.hardDeadTimeNs() > 0 && now - (call.startNs + config.hardDeadTimeNs()) >= 0) {
            call.abort(now, AbortCodes.RX_CALL_TIMEOUT);
            return;
        }
        if (now - (lastReceiveNs + config.deadTimeNs()) >= 0) {
            call.sendAbort(AbortCodes.RX_CALL_DEAD);
            call.fail(AbortCodes.RX_CALL_DEAD);
            return;
        }
        long idle = idleDeadNs();
        if (idle > 0 && now - (lastDataReceiveNs + idle) >= 0 && waitingForData()) {
            call.abort(now, AbortCodes.RX_CALL_TIMEOUT);
            return;
        }
        if (idle > 0 && now - (lastDataReceiveNs + idle) >= 0) {
            lastDataReceiveNs = now; // not waiting for data: restart the idle clock
        }
        if (reachDeadlineNs != Call.NONE && now - reachDeadlineNs >= 0) {
            sendReachPing(now);
        }
        CallSender sender = call.sender;
        if (sender.resendDeadlineNs != Call.NONE && now - sender.resendDeadlineNs >= 0) {
            sender.onResendTimeout(now);
        }
        if (acks.ackDeadlineNs != Call.NONE && now - acks.ackDeadlineNs >= 0) {
            acks.sendAck(now, AckReason.DELAY, 0, false);
        }
        if (now - (lastSendNs + keepaliveNs()) >= 0) {
            acks.sendAck(now, AckReason.PING, 0, true);
        }
    }

    private boolean waitingForData() {
        return !call.rq.allReceived() && !call.rq.hasReadable();
    }

    // =====================================================================================
    // Reachability (server side, §6.2)

    void startReachCheck(long now) {
        call.state = CallState.PRECALL;
        sendReachPing(now);
    }

    private void sendReachPing(long now) {
        reachPingSentNs = now;
        call.acks.sendAck(now, AckReason.PING, 0, true);
        reachPingSerial = call.conn.lastSerial();
        reachDeadlineNs = now + config.reachRetryNs();
    }

    /**
     * A PRECALL call heard a packet asking for an ack (a PING or a resent DATA): the peer is alive and waiting
     * for our window to move. If our reachability PING or its answer was lost, ask again now rather than
     * after the 2 s retry, which would stall the peer that long (§6.2). At most once per minimum RTO.
     */
    void repingIfWaiting(long now) {
        if (call.state == CallState.PRECALL && reachPingSerial != 0 && now - reachPingSentNs >= config.minRtoNs()) {
            sendReachPing(now);
        }
    }

    /**
     * An ACK arrived: when it answers our reachability PING, take its RTT sample and tell the engine the peer
     * is reachable.
     *
     * @return true when it did answer the PING
     */
    boolean onPingResponse(long now, int reason, int serial) {
        if (reason == AckReason.PING_RESPONSE && reachPingSerial != 0 && serial == reachPingSerial) {
            call.conn.peer.rtt().onSample(now - reachPingSentNs);
            reachPingSerial = 0;
            return true;
        }
        return false;
    }

    /** The peer answered: start the PRECALL call. */
    void reachConfirmed(long now) {
        reachDeadlineNs = Call.NONE;
        reachPingSerial = 0;
        if (call.state == CallState.PRECALL) {
            call.state = CallState.ACTIVE;
        }
    }
}
