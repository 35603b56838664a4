// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import org.rx4j.rpc.channel.RxChannel;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.errors.RxCodes;

/**
 * The deadline and cancellation that the calls made by a piece of code inherit, in this process only (the shape of
 * gRPC-java's {@code io.grpc.Context}; docs/embedding.md "Context that flows"). Rx carries no per-call metadata on
 * the wire (rx-wire-facts.md §1, §6: a call is its headers and its XDR stream), so a server cannot learn its client's
 * deadline; what flows is what this process knows.
 *
 * <p>While a server handler runs, its call's context is {@link #current()}: on the worker thread for the whole of a
 * blocking {@link RxCallHandler#handle}, on the event loop for an {@link RxAsyncHandler#handle} (not in the stages
 * it returns: carry it with {@link #wrap(Runnable)} or {@link #wrap(Executor)}). A client call started while a
 * context is current, in any form ({@link RxConnection}, {@link RxConnectionPool}, {@link RxChannel}, rx-gen
 * stubs), unless its {@link RxCallOptions#detached()}:
 * <ul>
 *   <li>gets the earlier of its own deadline and this context's: past it, RX_CALL_TIMEOUT (−3), as its own
 *       deadline would; a server call's deadline is the earlier of the one its handler set
 *       ({@link RxCall#setDeadline(Duration)}) and the end of its endpoint's hard dead time
 *       ({@code RxConfig.Builder.hardDeadTime}), narrowed by {@link #withTimeout(Duration)};</li>
 *   <li>ends when the handler's call ends, however it ends: aborted with RX_CALL_TIMEOUT (−3) when that call
 *       timed out, else with RX_USER_ABORT (−6), the code of a cancel (docs/errors.md).</li>
 * </ul>
 * Immutable and thread-safe; the current context is per thread.
 */
public final class RxContext {
    /** No deadline and never ended: current where no handler runs; what a detached call inherits. */
    public static final RxContext ROOT = new RxContext(null, null, System::nanoTime, Long.MAX_VALUE, null);

    private static final ThreadLocal<RxContext> CURRENT = new ThreadLocal<>();

    /** The context this one narrows, or null for {@link #ROOT} and a server call's. */
    private final RxContext parent;
    /** The server call whose end ends this context, or null (then the parent's call, if any). */
    private final RxCallContext call;
    /** The clock {@link #deadlineNs} (and a server call's deadline) is on, ns. */
    private final LongSupplier clock;
    /** This context's own deadline on {@link #clock}, ns, or {@code Long.MAX_VALUE}; a server call's is live. */
    private final long deadlineNs;
    /**
     * Where a server call's end reaches the calls made in it: not inline, since the call ends on its endpoint's event
     * loop, which may be the one the calls made run on. Null for a context of no call.
     */
    private final Executor ends;

    private RxContext(RxContext parent, RxCallContext call, LongSupplier clock, long deadlineNs, Executor ends) {
        this.parent = parent;
        this.call = call;
        this.clock = clock;
        this.deadlineNs = deadlineNs;
        this.ends = ends;
    }

    /**
     * @param call the server call's cancellation context, which also holds its deadline
     * @param clock the server endpoint's clock, ns
     * @param ends runs the ends of the calls made in it (the endpoint's callback executor)
     * @return the context of a server call, for its handler
     */
    static RxContext ofServerCall(RxCallContext call, LongSupplier clock, Executor ends) {
        return new RxContext(null, call, clock, Long.MAX_VALUE, ends);
    }

    /** @return the context current on this thread: a running handler's, one entered by {@link #run}, else ROOT */
    public static RxContext current() {
        RxContext c = CURRENT.get();
        return c == null ? ROOT : c;
    }

    /**
     * A context whose deadline is {@code timeout} from now or this one's, whichever is earlier, and which ends with
     * this one; for a handler (async ones have no deadline of their own) or a client that is not a handler.
     *
     * @param timeout the time left from now, positive
     * @return the narrower context (enter it with {@link #run} or {@link #call})
     * @throws IllegalArgumentException if timeout is zero or negative
     * @throws NullPointerException if timeout is null
     */
    public RxContext withTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException e) {
            nanos = Long.MAX_VALUE / 2;
        }
        long d = clock.getAsLong() + Math.min(nanos, Long.MAX_VALUE / 2);
        return new RxContext(this, null, clock, d == Long.MAX_VALUE ? d - 1 : d, null);
    }

    /**
     * @return the time left before this context's deadline (zero once past), or empty for none; measured now on the
     *     clock of the endpoint that set it
     */
    public Optional<Duration> timeRemaining() {
        long ns = remainingNs();
        return ns == Long.MAX_VALUE ? Optional.empty() : Optional.of(Duration.ofNanos(Math.max(0, ns)));
    }

    /** @return true once the handler's call this context belongs to ended with an abort code; never for ROOT */
    public boolean isCancelled() {
        RxContext c = ofCall();
        return c != null && c.call.isCancelled();
    }

    /**
     * @return the abort code the handler's call ended with (as {@link RxCallContext#cancelCode()}), or 0 while it
     *     is not cancelled
     */
    public int cancelCode() {
        RxContext c = ofCall();
        return c == null ? 0 : c.call.cancelCode();
    }

    /**
     * Runs {@code task} on this thread with this context current, then restores the one before.
     *
     * @param task what to run; its exceptions propagate
     */
    public void run(Runnable task) {
        RxContext previous = enter();
        try {
            task.run();
        } finally {
            restore(previous);
        }
    }

    /**
     * Calls {@code task} on this thread with this context current, then restores the one before.
     *
     * @param task what to call
     * @param <T> its result type
     * @return what it returned
     * @throws Exception what it threw
     */
    public <T> T call(Callable<T> task) throws Exception {
        RxContext previous = enter();
        try {
            return task.call();
        } finally {
            restore(previous);
        }
    }

    /**
     * @param task a task to run later, e.g. an async handler's continuation
     * @return a task that runs {@code task} with this context current, on whatever thread runs it
     */
    public Runnable wrap(Runnable task) {
        Objects.requireNonNull(task, "task");
        return () -> run(task);
    }

    /**
     * @param executor where tasks run, e.g. the executor of an async handler's {@code thenApplyAsync} stages
     * @return an executor that runs every task given to it on {@code executor} with this context current
     */
    public Executor wrap(Executor executor) {
        Objects.requireNonNull(executor, "executor");
        return task -> executor.execute(wrap(task));
    }

    /** Makes this context current on this thread; {@link #restore} with what it returns. */
    RxContext enter() {
        RxContext previous = CURRENT.get();
        CURRENT.set(this);
        return previous;
    }

    /** @param previous what {@link #enter()} returned */
    static void restore(RxContext previous) {
        // set(null), not remove(): a removed entry is re-created by the next call's get() and dropped again by its
        // restore, each a new map entry with its weak reference, on every call an event loop serves; a null value
        // holds nothing, and current() reads it as ROOT.
        CURRENT.set(previous);
    }

    /** @return true when this context ends with a server call, so that {@link #onEnd} may ever run its listener */
    boolean endsWithCall() {
        return ofCall() != null;
    }

    /**
     * @param now the calling endpoint's clock now, ns
     * @return this context's deadline moved to that clock (at least {@code now}: a past deadline fires at once), ns,
     *     or {@code Long.MAX_VALUE} for none
     */
    long deadlineOn(long now) {
        long ns = remainingNs();
        if (ns == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        long d = now + Math.max(0, Math.min(ns, Long.MAX_VALUE / 2));
        return d == Long.MAX_VALUE ? d - 1 : d;
    }

    /**
     * Runs {@code ended} with the code to end a call made in this context when the handler's call ends: −3 if that
     * call timed out, else −6; soon if it has ended already; never for a context of no call. It runs on the server
     * endpoint's callback executor.
     *
     * @param ended takes the abort code for the call made in this context
     * @return removes the listener once the call made ended first
     */
    Runnable onEnd(IntConsumer ended) {
        RxContext c = ofCall();
        if (c == null) {
            return () -> { };
        }
        return c.call.onEnd(code -> c.ends.execute(() -> ended.accept(
                code == RxCodes.RX_CALL_TIMEOUT ? RxCodes.RX_CALL_TIMEOUT : RxCodes.RX_USER_ABORT)));
    }

    /** @return the ns left before the earliest deadline along the chain (may be negative), or Long.MAX_VALUE */
    private long remainingNs() {
        long left = Long.MAX_VALUE;
        for (RxContext c = this; c != null; c = c.parent) {
            long d = c.call != null ? c.call.deadlineNs() : c.deadlineNs;
            if (d != Long.MAX_VALUE) {
                left = Math.min(left, d - c.clock.getAsLong());
            }
        }
        return left;
    }

    /** @return the context along the chain that belongs to a server call, or null */
    private RxContext ofCall() {
        for (RxContext c = this; c != null; c = c.parent) {
            if (c.call != null) {
                return c;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "RxContext[" + (this == ROOT ? "root" : "remaining=" + timeRemaining().map(Duration::toString)
                .orElse("none") + ", cancelled=" + isCancelled()) + "]";
    }
}
