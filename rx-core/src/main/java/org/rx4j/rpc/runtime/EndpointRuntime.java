// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.runtime;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.rx4j.engine.RxEngine;
import org.rx4j.rpc.RxClientInterceptor;
import org.rx4j.rpc.RxProcNames;
import org.rx4j.rpc.RxServerInterceptor;
import org.rx4j.rpc.client.ProbeQuietTimes;
import org.rx4j.rpc.client.UnreachableProbe;
import org.rx4j.rpc.metrics.CallMetrics;
import org.rx4j.rpc.server.WorkerShare;
import org.rx4j.rpc.stream.CallStreams;
import org.rx4j.rpc.stream.CallTracker;
import org.rx4j.rpc.stream.ChunkRecycler;
import org.rx4j.transport.RxTransport;

/**
 * What the RPC classes of one endpoint share: the transport (event loop and engine), the endpoint's clock, the
 * worker pool for blocking handlers, the executor that completes async futures, the limits, the call tracker and the
 * closing flag. Thread-safe; its fields are fixed at construction except {@link #closing}.
 */
public final class EndpointRuntime {
    public final RxTransport transport;
    /** The endpoint's clock, ns: every {@code now} the RPC layer hands the engine and every deadline it computes. */
    private final LongSupplier clock;
    public final ThreadPoolExecutor workers;
    final Executor callbackExecutor;
    public final int busyAbortCode;
    public final int maxMessageBytes;
    /** Most blocking handlers of one service waiting for its share of the workers ({@link WorkerShare}). */
    public final int maxQueuedCalls;
    /** Services registered so far: each keeps at least one worker of its own ({@link WorkerShare#cap()}). */
    public final AtomicInteger services = new AtomicInteger();
    public final CallTracker tracker = new CallTracker();
    /** Per-procedure calls, errors and latency, client and server side (docs/embedding.md, "Metrics"). */
    public final CallMetrics metrics = new CallMetrics();
    /**
     * Output streams' gathering arrays, reused once the engine has released them: up to 16 idle arrays
     * (16 × {@link CallStreams#CHUNK} ≈ 720 KB), about a full 255-packet send window and the streams' own two
     * chunks in flight.
     */
    public final ChunkRecycler chunks = new ChunkRecycler(16);
    /** Set once a graceful close starts: new incoming calls are refused, new outgoing calls too. */
    public volatile boolean closing;
    /**
     * Set when a graceful close's grace period is over and the engine aborts what still runs: a call ended by that
     * keeps the data it already received for its reader (graceful: the application gets what arrived in time).
     */
    public volatile boolean graceOver;
    /** Probe a server's port with a connected UDP socket on a connection's first call ({@link UnreachableProbe}). */
    public volatile boolean probeUnreachable = true;
    /** Interceptors of incoming calls, in registration order ({@link CallHooks}); set before the first call. */
    public volatile RxServerInterceptor[] serverInterceptors = {};
    /** Interceptors of outgoing calls, in registration order ({@link CallHooks}); set before the first call. */
    public volatile RxClientInterceptor[] clientInterceptors = {};
    /**
     * The call log (docs/embedding.md "Call logs"): {@link CallHooks#CALLS} unless a test captures it; set before the
     * first call.
     */
    public volatile org.slf4j.Logger callLog = CallHooks.CALLS;
    /** Names procedures for interceptors and the call log, or null. */
    public volatile RxProcNames procNames;
    /** Which servers answered a probe lately, so that they are not probed again for a while. */
    public final ProbeQuietTimes probes = new ProbeQuietTimes();
    /** Streams whose application thread is to be woken at the end of this unit of loop work. Loop only. */
    private final java.util.ArrayList<CallStreams> toWake = new java.util.ArrayList<>();

    public EndpointRuntime(RxTransport transport, LongSupplier clock, ThreadPoolExecutor workers, Executor callbackExecutor,
                    int busyAbortCode, int maxMessageBytes, int maxQueuedCalls) {
        this.transport = transport;
        this.clock = clock;
        this.workers = workers;
        this.callbackExecutor = callbackExecutor;
        this.busyAbortCode = busyAbortCode;
        this.maxMessageBytes = maxMessageBytes;
        this.maxQueuedCalls = maxQueuedCalls;
        transport.afterWork(this::wakeAll);
    }

    /**
     * Asks for {@code s}'s waiting application thread to be woken once the loop ends its current unit of work
     * (read burst, task or timer tick), so a reader or writer wakes once per burst, not once per packet. Loop only.
     *
     * @param s the streams; listed once however often asked before the wake-up
     */
    public void wakeLater(CallStreams s) {
        toWake.add(s);
    }

    /** Wakes every thread asked for since the last unit of work ended. Loop only (the transport's after-work hook). */
    private void wakeAll() {
        int n = toWake.size();
        if (n == 0) {
            return;
        }
        for (int i = 0; i < n; i++) {
            toWake.get(i).wakeNow();
        }
        toWake.clear();
    }

    /** @return the endpoint's clock now, ns (the same clock the engine's timers run on) */
    public long now() {
        return clock.getAsLong();
    }

    /**
     * @param timeout a positive duration
     * @return the endpoint clock's now + timeout, ns,, never {@code Long.MAX_VALUE} (which means "none")
     * @throws IllegalArgumentException if timeout is zero or negative
     */
    public long deadlineFromNow(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException e) {
            nanos = Long.MAX_VALUE / 2;
        }
        long d = now() + Math.min(nanos, Long.MAX_VALUE / 2);
        return d == Long.MAX_VALUE ? d - 1 : d;
    }

    /**
     * Hands loop work over like {@link RxTransport#execute}, but reports instead of throwing when the loop is
     * already shut down (the endpoint closed; every call has ended by then).
     *
     * @param work the task, run on the event loop
     * @return false when the loop refused the task
     */
    public boolean onLoop(java.util.function.Consumer<RxEngine> work) {
        try {
            transport.execute(work);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Runs {@code r} on the callback executor (completing an application's future), or right here when the
     * executor refuses it: a {@link RejectedExecutionException}, or any other exception an application's executor
     * throws (a closed one may throw {@link IllegalStateException}); a future left uncompleted would wait forever.
     *
     * @param r the completion
     */
    public void callback(Runnable r) {
        try {
            callbackExecutor.execute(r);
        } catch (RuntimeException e) { // RejectedExecutionException, or an application executor's own refusal
            r.run();
        }
    }
}
