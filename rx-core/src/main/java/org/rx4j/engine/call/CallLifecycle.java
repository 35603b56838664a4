// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.counters.RxCounter;
import org.rx4j.wire.AbortCodes;

/**
 * The state machine of one {@link Call} (rx-wire-facts.md §6): its {@link CallState}, the abort code that ended it,
 * whether sending is finished, ending the call (releasing its buffers, counting it, raising the ended event once),
 * and transmitting only in the states that may send, with the writable event when the window reopens. Gets its
 * collaborators in its constructor and raises events through the call's {@link CallEvents}. Engine thread only.
 */
public final class CallLifecycle {
    private final CallEnv env;
    private final CallOutput out;
    private final CallEvents events;
    private final CallSender sender;
    private final CallReceiver receiver;
    private final CallTimers timers;
    private final AckScheduler acks;

    CallState state = CallState.ACTIVE;
    int error;
    boolean remoteError;
    /** When the call started (got its channel), ns. */
    long startNs;
    boolean sendFinished;
    private boolean wasWritable = true;

    CallLifecycle(CallEnv env, CallOutput out, CallEvents events, CallSender sender, CallReceiver receiver, CallTimers timers,
            AckScheduler acks, long now) {
        this.env = env;
        this.out = out;
        this.events = events;
        this.sender = sender;
        this.receiver = receiver;
        this.timers = timers;
        this.acks = acks;
        this.startNs = now;
    }

    /** @return true once the call succeeded or failed */
    boolean isDone() {
        return state == CallState.DALLY || state == CallState.ERROR;
    }

    /** @return true in the states that may transmit DATA (ACTIVE, HOLD) */
    boolean maySend() {
        return state == CallState.ACTIVE || state == CallState.HOLD;
    }

    /** @return true when the application may write more (OpenAFS's writer rule, §5) */
    boolean isWritable() {
        return !isDone() && !sendFinished && sender.hasWriteRoom();
    }

    /** Ends the call as failed with {@code code} (0 reads as RX_PROTOCOL_ERROR); a no-op once done. */
    void fail(long now, int code) {
        end(now, CallState.ERROR, code == 0 ? AbortCodes.RX_PROTOCOL_ERROR : code);
    }

    /** Ends the call successfully (DALLY); a no-op once done. */
    void succeed(long now) {
        end(now, CallState.DALLY, 0);
    }

    /** Moves to DALLY or ERROR, releases the call's buffers, counts it, and raises the ended event (once). */
    private void end(long now, CallState endState, int code) {
        if (isDone()) {
            return;
        }
        state = endState;
        error = code;
        sender.saveCongestionState(now);
        sender.release();
        receiver.release();
        timers.cancelReach();
        if (endState == CallState.ERROR) {
            acks.cancelDelayedAck(); // a dallying call keeps its final ack's timer
            env.counters().increment(RxCounter.CALLS_FAILED);
        } else {
            env.counters().increment(RxCounter.CALLS_SUCCEEDED);
        }
        events.ended(now);
    }

    /**
     * Sends what the windows allow (see {@link CallSender#transmit}), then notes a regained writability; when the
     * security class refused to prepare a packet, aborts the connection instead.
     */
    void transmit(long now) {
        if (!maySend()) {
            return;
        }
        sender.transmit(now);
        if (out.securityFailure != 0) {
            out.abortConnection(now); // the class refused to prepare a packet: this call ends with the connection
            return;
        }
        checkWritable();
    }

    /** Raises the writable event when the call became writable again since the last check. */
    void checkWritable() {
        boolean w = isWritable();
        if (w && !wasWritable) {
            events.writable();
        }
        wasWritable = w;
    }
}
