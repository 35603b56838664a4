// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.config.RxConfig;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckReason;

/**
 * The liveness timers of one {@link Call}: keepalive PING, dead time, idle dead time (for a server call also while
 * its sent data waits for acknowledgement), hard dead time, the call's own deadline, and the server's reachability
 * PING (rx-wire-facts.md §6.2, §8). Computes the call's
 * next deadline and fires whatever is due; the retransmit and delayed-ack timers it fires belong to
 * {@link CallSender} and {@link AckScheduler}. The call's state and start time come in as arguments; a timer
 * that ends the call is returned as an abort code for the call to act on. Runs on the engine's thread; times
 * are ns on the engine's clock.
 */
public final class CallTimers {
    private final RxConfig config;
    private final CallOutput out;
    private final CallActivity activity;
    private final AckScheduler acks;
    private final CallSender sender;
    private final ReceiveQueue rq;
    private final boolean server;

    private long reachDeadlineNs = Deadlines.NONE;
    /** The application's hard deadline for this call (engine clock, ns), or NONE. */
    long callDeadlineNs = Deadlines.NONE;
    private int reachPingSerial;
    private long reachPingSentNs;
    /** True when the last reachability PING was withheld because the peer had not sent as many bytes as the PING. */
    private boolean reachPingWithheld;
    /** The peer's reply credit when the PING was withheld: only a packet that raised it may bring the PING. */
    private long withheldAtCredit;
    /** When this client call last reported a stall (engine clock, ns), or NONE. */
    private long stallToldNs = Deadlines.NONE;
    /** Set by {@link #onTimer} when a stall is due, cleared by {@link #takeStall}. */
    private boolean stallDue;

    CallTimers(RxConfig config, CallOutput out, CallActivity activity, AckScheduler acks, CallSender sender,
            ReceiveQueue rq, boolean server) {
        this.config = config;
        this.out = out;
        this.activity = activity;
        this.acks = acks;
        this.sender = sender;
        this.rq = rq;
        this.server = server;
    }

    /**
     * @param state the call's state
     * @param startNs when the call started, ns
     * @return the earliest time any of the call's timers is due, ns, or NONE
     */
    long deadline(CallState state, long startNs) {
        if (state == CallState.DALLY) {
            return acks.ackDeadlineNs();
        }
        if (state == CallState.ERROR) {
            return Deadlines.NONE;
        }
        if (state == CallState.WAITING) {
            // Not on the wire yet: no keepalive, dead-time or retransmit timer; only the call's own deadline.
            return callDeadlineNs;
        }
        long d = Deadlines.earlier(sender.resendDeadlineNs(), acks.ackDeadlineNs());
        d = Deadlines.earlier(d, sender.pacingDeadlineNs());
        d = Deadlines.earlier(d, callDeadlineNs);
        d = Deadlines.earlier(d, reachDeadlineNs);
        if (state == CallState.PRECALL) {
            d = Deadlines.earlier(d, startNs + config.timeouts().deadTimeNs());
        }
        d = Deadlines.earlier(d, activity.lastSendNs + keepaliveNs());
        d = Deadlines.earlier(d, activity.lastReceiveNs + config.timeouts().deadTimeNs());
        d = Deadlines.earlier(d, sender.largeStuckDeadlineNs());
        d = Deadlines.earlier(d, sender.recoveryProbeDeadlineNs());
        if (state == CallState.ACTIVE) {
            d = Deadlines.earlier(d, stallDeadlineNs());
        }
        long idle = idleDeadNs();
        if (idle > 0) {
            d = Deadlines.earlier(d, activity.lastDataReceiveNs + idle);
        }
        if (waitingForSendProgress()) {
            d = Deadlines.earlier(d, activity.sendProgressNs + config.timeouts().serverIdleDeadTimeNs());
        }
        if (config.timeouts().hardDeadTimeNs() > 0) {
            d = Deadlines.earlier(d, startNs + config.timeouts().hardDeadTimeNs());
        }
        return d;
    }

    /**
     * @param startNs when the call started, ns
     * @return when the hard dead time ends the call, ns, or {@link Deadlines#NONE} when it is off
     */
    long hardDeadTimeEnd(long startNs) {
        long hard = config.timeouts().hardDeadTimeNs();
        return hard > 0 ? startNs + hard : Deadlines.NONE;
    }

    /**
     * How long a client call may hear nothing from the server while its data waits for acknowledgement before it is
     * reported stalled: the dead time / 24 (500 ms at the default 12 s), long against a loopback or LAN round trip
     * and well before the dead time, so that ICMP from a probe can end the call near when OpenAFS's error-queue
     * reading does (docs/embedding.md "A peer that does not answer").
     *
     * @param config the endpoint's settings
     * @return ns, at least 1
     */
    static long stallNs(RxConfig config) {
        return Math.max(config.timeouts().deadTimeNs() / 24, 1);
    }

    /**
     * @return when this client call is next reported stalled, ns, or NONE (server calls never are): {@link #stallNs}
     *     after the last packet heard while data waits for acknowledgement, else a keepalive interval later (the
     *     PING sent meanwhile went unanswered), and at most once per keepalive interval while the silence lasts
     */
    private long stallDeadlineNs() {
        if (server) {
            return Deadlines.NONE;
        }
        long quiet = sender.hasTransmittedUnacked() ? stallNs(config) : keepaliveNs() + stallNs(config);
        long at = activity.lastReceiveNs + quiet;
        if (stallToldNs != Deadlines.NONE && stallToldNs - activity.lastReceiveNs >= 0) {
            long again = stallToldNs + keepaliveNs();
            if (again - at > 0) {
                at = again;
            }
        }
        return at;
    }

    /** @return true once after {@link #onTimer} found the call stalled ({@link CallListener#onStall}) */
    boolean takeStall() {
        boolean due = stallDue;
        stallDue = false;
        return due;
    }

    private long keepaliveNs() {
        return Math.max(config.timeouts().deadTimeNs() / 6, 1);
    }

    private long idleDeadNs() {
        return server ? config.timeouts().serverIdleDeadTimeNs() : config.timeouts().clientIdleDeadTimeNs();
    }

    /**
     * Fires every timer that is due at {@code now}.
     *
     * @param now current time, ns
     * @param state the call's state
     * @param startNs when the call started, ns
     * @return 0, or the abort code the call must end with: RX_CALL_TIMEOUT (−3, its deadline, hard dead time, idle
     *     dead time, or a server call's idle dead time without send progress) or RX_CALL_DEAD (−1, dead time, a
     *     PRECALL call not started within dead time, or large packets the path stopped carrying, see
     *     {@link CallSender#stuckOnLargePackets})
     */
    int onTimer(long now, CallState state, long startNs) {
        if (state == CallState.DALLY) {
            if (acks.ackDeadlineNs() != Deadlines.NONE && now - acks.ackDeadlineNs() >= 0) {
                acks.sendAck(now, AckReason.DELAY, 0, false);
            }
            return 0;
        }
        if (state == CallState.ERROR) {
            return 0;
        }
        if (callDeadlineNs != Deadlines.NONE && now - callDeadlineNs >= 0) {
            return AbortCodes.RX_CALL_TIMEOUT;
        }
        if (state == CallState.WAITING) {
            return 0;
        }
        if (config.timeouts().hardDeadTimeNs() > 0 && now - (startNs + config.timeouts().hardDeadTimeNs()) >= 0) {
            return AbortCodes.RX_CALL_TIMEOUT;
        }
        if (now - (activity.lastReceiveNs + config.timeouts().deadTimeNs()) >= 0 || sender.stuckOnLargePackets(now)) {
            return AbortCodes.RX_CALL_DEAD;
        }
        if (state == CallState.PRECALL && now - (startNs + config.timeouts().deadTimeNs()) >= 0) {
            // Admitted but never started (no packet 1, or a peer that never answers the reachability PING): however
            // much it sends, it ends at dead time (docs/robustness.md "Rule: a call gets a handler only after packet 1,
            // from a reachable peer" and "Rule: half-reachable clients").
            return AbortCodes.RX_CALL_DEAD;
        }
        if (state == CallState.ACTIVE && !server && now - stallDeadlineNs() >= 0) {
            stallToldNs = now;
            stallDue = true;
        }
        long idle = idleDeadNs();
        if (idle > 0 && now - (activity.lastDataReceiveNs + idle) >= 0 && waitingForData()) {
            return AbortCodes.RX_CALL_TIMEOUT;
        }
        if (idle > 0 && now - (activity.lastDataReceiveNs + idle) >= 0) {
            activity.lastDataReceiveNs = now; // not waiting for data: restart the idle clock
        }
        long idleDeadNs = config.timeouts().serverIdleDeadTimeNs();
        if (waitingForSendProgress() && now - (activity.sendProgressNs + idleDeadNs) >= 0) {
            // Sending, and the peer acknowledged nothing new for the idle dead time however much it answered
            // PINGs or soft-acked (docs/robustness.md "Rule: progress, not activity, keeps a server call alive").
            return AbortCodes.RX_CALL_TIMEOUT;
        }
        if (reachDeadlineNs != Deadlines.NONE && now - reachDeadlineNs >= 0) {
            if (activity.lastReceiveNs - reachPingSentNs > 0) {
                sendReachPing(now);
            } else {
                // Nothing heard since the last PING: asking again would make one datagram earn a stream of replies
                // (docs/robustness.md "Rule: unsolicited traffic, loops and amplification"). The peer's next packet
                // lets the retry go out.
                reachDeadlineNs = now + config.reachability().reachRetryNs();
            }
        }
        if (sender.resendDeadlineNs() != Deadlines.NONE && now - sender.resendDeadlineNs() >= 0) {
            sender.onResendTimeout(now);
        }
        long probe = sender.recoveryProbeDeadlineNs();
        if (probe != Deadlines.NONE && now - probe >= 0) {
            sender.onRecoveryProbeTimer(now);
        }
        if (acks.ackDeadlineNs() != Deadlines.NONE && now - acks.ackDeadlineNs() >= 0) {
            acks.sendAck(now, AckReason.DELAY, 0, false);
        }
        if (now - (activity.lastSendNs + keepaliveNs()) >= 0) {
            acks.sendAck(now, AckReason.PING, 0, true);
        }
        return 0;
    }

    private boolean waitingForData() {
        return !rq.allReceived() && !rq.hasReadable();
    }

    /**
     * @return true for a server call with an idle dead time whose transmitted data waits for an acknowledgement
     *     (its window is full, or its last packets are out): {@link CallActivity#sendProgressNs} then bounds it
     */
    private boolean waitingForSendProgress() {
        return server && config.timeouts().serverIdleDeadTimeNs() > 0 && sender.hasTransmittedUnacked();
    }

    // =====================================================================================
    // Reachability (server side, §6.2)

    /**
     * Sends the reachability PING (again) and arms its retry; the call is in PRECALL. The retry goes out only when the
     * peer was heard from since the previous PING, so each datagram of an unproven peer earns at most one reply
     * (docs/robustness.md "Rule: unsolicited traffic, loops and amplification").
     */
    void sendReachPing(long now) {
        reachPingSentNs = now;
        if (acks.sendReachPing(now)) {
            reachPingSerial = out.lastSerial();
            reachPingWithheld = false;
        } else {
            // The peer has not yet sent as many bytes as the PING (no amplification): its next packet tries again.
            reachPingSerial = 0;
            reachPingWithheld = true;
            withheldAtCredit = out.peer().replyCredit();
        }
        reachDeadlineNs = now + config.reachability().reachRetryNs();
    }

    /**
     * A PRECALL call heard a packet asking for an ack (a PING or a resent DATA): the peer is alive and waiting for our
     * window to move. If our reachability PING or its answer was lost, ask again now rather than after the 2 s retry,
     * which would stall the peer that long (§6.2). At most once per minimum RTO; a PING withheld for want of the peer's
     * bytes is tried again with every packet that added to them.
     *
     * @param now current time, ns
     * @param precall true when the call is in PRECALL
     */
    void repingIfWaiting(long now, boolean precall) {
        boolean paid = reachPingWithheld && out.peer().replyCredit() > withheldAtCredit;
        if (precall && (paid || reachPingSerial != 0 && now - reachPingSentNs >= config.rto().minRtoNs())) {
            sendReachPing(now);
        }
    }

    /**
     * An ACK arrived: when it answers our reachability PING, take its RTT sample.
     *
     * @return true when it did answer the PING (the peer is reachable)
     */
    boolean onPingResponse(long now, int reason, int serial) {
        if (reason == AckReason.PING_RESPONSE && reachPingSerial != 0 && serial == reachPingSerial) {
            out.peer().rtt().onSample(now - reachPingSentNs);
            reachPingSerial = 0;
            return true;
        }
        return false;
    }

    /** The peer answered (or the call ended): no more reachability PINGs. */
    void stopReachCheck() {
        reachDeadlineNs = Deadlines.NONE;
        reachPingSerial = 0;
        reachPingWithheld = false;
    }

    /** Call teardown: the reachability retry stops. */
    void cancelReach() {
        reachDeadlineNs = Deadlines.NONE;
        reachPingWithheld = false;
    }
}
