// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.rx4j.rpc.errors.RxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether one call was cancelled, for the code serving it (docs/embedding.md "Cancellation"): a call is cancelled
 * when it ends with an abort code instead of completing, whoever ended it: the peer's ABORT (a client's cancel,
 * deadline or {@code conn.close()}), this side's {@link RxCall#abort}, a deadline, the peer going silent past the
 * dead time, or the endpoint's close once its grace period is over. A blocking handler reads it from
 * {@link RxCall#context()}, an interceptor from {@link RxCallInfo#context()}; its streams then throw
 * {@link RxException} with the same code, so a handler blocked in a read or write wakes with that exception, and
 * one blocked elsewhere (a lock, another service) registers {@link #onCancel(Runnable)} to be woken. A call that
 * completes normally is never cancelled. Thread-safe.
 */
public final class RxCallContext {
    private static final Logger log = LoggerFactory.getLogger(RxCallContext.class);

    private final Object lock = new Object();
    private int code;
    private RxException.Reason reason = RxException.Reason.OTHER;
    private boolean ended;
    /** Listeners not run yet; allocated by the first {@link #onCancel}. Guarded by lock. */
    private List<Runnable> listeners;
    /** Run with the end code on any end, cancelled or not ({@link #onEnd}); null until the first. Guarded by lock. */
    private List<IntConsumer> enders;
    /**
     * The call's own hard deadline on its endpoint's clock, ns, or {@code Long.MAX_VALUE} for none: what a server
     * call's {@link RxContext} hands the calls its handler makes (docs/embedding.md "Context that flows").
     */
    private volatile long deadlineNs = Long.MAX_VALUE;
    /** When the endpoint's hard dead time ends the call (endpoint clock, ns), or {@code Long.MAX_VALUE} for none. */
    private volatile long hardDeadTimeEndNs = Long.MAX_VALUE;

    RxCallContext() {
    }

    /** @return true once the call ended with an abort code */
    public boolean isCancelled() {
        synchronized (lock) {
            return code != 0;
        }
    }

    /**
     * @return the abort code the call ended with (RX_USER_ABORT −6 for a cancel or the endpoint's close,
     *     RX_CALL_TIMEOUT −3 for a deadline, RX_CALL_DEAD −1 for a silent peer, ...; docs/errors.md), or 0 while
     *     the call is not cancelled
     */
    public int cancelCode() {
        synchronized (lock) {
            return code;
        }
    }

    /**
     * @return why the call was cancelled, as {@link RxException#reason()} says for the same end:
     *     {@link RxException.Reason#PEER} when the peer's ABORT ended it (a client's cancel, deadline or close, as
     *     its code tells), {@link RxException.Reason#ENDPOINT_CLOSING} for this endpoint's close; this side's other
     *     reasons when it knows them; {@link RxException.Reason#OTHER} otherwise and while not cancelled
     */
    public RxException.Reason cancelReason() {
        synchronized (lock) {
            return reason;
        }
    }

    /**
     * Runs {@code listener} once when the call is cancelled: on the thread that cancels it, usually the endpoint's
     * event loop, so it must not block (count down a latch, complete a future, interrupt a thread it owns); at once
     * on this thread when the call is already cancelled; never when the call completes normally. A listener that
     * throws is logged at WARN and does not stop the others.
     *
     * @param listener what to run
     */
    public void onCancel(Runnable listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        synchronized (lock) {
            if (code == 0 && !ended) {
                if (listeners == null) {
                    listeners = new ArrayList<>(2);
                }
                listeners.add(listener);
                return;
            }
            if (code == 0) {
                return; // completed normally: never cancelled
            }
        }
        run(listener);
    }

    /**
     * @return the earlier of the call's own hard deadline and the end of the endpoint's hard dead time (endpoint
     *     clock, ns, compared wrap-safe), or {@code Long.MAX_VALUE} for neither
     */
    long deadlineNs() {
        long own = deadlineNs;
        long hard = hardDeadTimeEndNs;
        if (own == Long.MAX_VALUE) {
            return hard;
        }
        return hard == Long.MAX_VALUE || own - hard < 0 ? own : hard;
    }

    /** @param endNs when the endpoint's hard dead time ends the call (endpoint clock, ns), or Long.MAX_VALUE */
    void hardDeadTimeEnd(long endNs) {
        this.hardDeadTimeEndNs = endNs;
    }

    /** @param deadlineNs the call's hard deadline (endpoint clock, ns), or {@code Long.MAX_VALUE} for none */
    void deadlineNs(long deadlineNs) {
        this.deadlineNs = deadlineNs;
    }

    /**
     * Runs {@code listener} with the end code (0 for a normal completion) when the call ends, however it ends; at
     * once on this thread when it has ended already. For the calls a handler makes, which end with it whether it was
     * cancelled or completed ({@link RxContext}). Must not block.
     *
     * @param listener what to run
     * @return removes the listener (when the call it would end ended first); idempotent
     */
    Runnable onEnd(IntConsumer listener) {
        int endedWith;
        synchronized (lock) {
            if (!ended) {
                if (enders == null) {
                    enders = new ArrayList<>(2);
                }
                enders.add(listener);
                return () -> {
                    synchronized (lock) {
                        if (enders != null) {
                            enders.remove(listener);
                        }
                    }
                };
            }
            endedWith = code;
        }
        listener.accept(endedWith);
        return () -> { };
    }

    /**
     * The call ended: cancels this context when {@code errorCode} is an abort code and runs its listeners on this
     * thread, else drops them. Idempotent: only the first end counts.
     *
     * @param errorCode 0 for a completed call, else the abort code
     * @param why this side's reason, or null for {@link RxException.Reason#OTHER}
     */
    void end(int errorCode, RxException.Reason why) {
        List<Runnable> toRun;
        List<IntConsumer> toEnd;
        synchronized (lock) {
            if (ended) {
                return;
            }
            ended = true;
            code = errorCode;
            if (why != null && errorCode != 0) {
                reason = why;
            }
            toRun = errorCode != 0 ? listeners : null;
            listeners = null;
            toEnd = enders;
            enders = null;
        }
        if (toRun != null) {
            for (Runnable r : toRun) {
                run(r);
            }
        }
        if (toEnd != null) {
            for (IntConsumer c : toEnd) {
                run(() -> c.accept(errorCode));
            }
        }
    }

    private static void run(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            log.warn("call cancellation listener failed", e);
        }
    }
}
