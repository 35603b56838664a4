// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.RxEngine;
import org.rx4j.rpc.RxCallContext;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.metrics.CallMeter;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.runtime.HandlerFailures;
import org.rx4j.rpc.stream.MessageBuffer;
import org.rx4j.rpc.stream.MessageWriter;

/**
 * A request/response client call driven entirely on the event loop, so no application thread waits for
 * it: writes the request as the send window allows, gathers the reply (up to the endpoint's message limit,
 * else the call is aborted with RX_MSGSIZE −8), and completes the caller's future on the endpoint's callback
 * executor. If the caller completes the future first (cancel, {@code orTimeout}, {@code completeOnTimeout}, ...),
 * the call is aborted: RX_CALL_TIMEOUT (−3) for a {@link java.util.concurrent.TimeoutException}, the code of an
 * {@link RxException}, RX_USER_ABORT (−6) for a cancellation or a value, RX_INVALID_OPERATION (−2) for another
 * exception ({@link HandlerFailures#abortCode}).
 */
public final class AsyncClientCall implements CallListener {
    private final EndpointRuntime rt;
    private final CompletableFuture<byte[]> future = new CompletableFuture<>();
    private final MessageBuffer reply;
    /** The request bytes not yet given to the call. */
    private final MessageWriter request;
    private Call call;
    /** Set on the loop when the call has ended; read by the future's listener on any thread. */
    private volatile boolean ended;
    /** Supplies why the server is known unreachable, or null; set before the call starts. */
    private java.util.function.Supplier<PeerUnreachable> deadReason;
    /** The connection's view of why the call ended; set before the call starts. */
    private ClientEndReasons.Lookup endReasons;
    /** Run on the loop once the call is attached, or null; set before the call starts. */
    private Runnable attached;
    /** Run on the loop when the engine finds the call stalled (the connection re-probes), or null. */
    private Runnable stalled;
    /** Times the call; set before the call starts. */
    private CallMeter meter;
    /** The call's interceptors and call log, or null; set before the call starts. */
    private CallHooks hooks;
    /** Cancelled when the call ends with an abort code; set before the call starts. */
    private RxCallContext context;
    /** True when the server's ABORT ended the call: its context's reason is then PEER. Loop only. */
    private boolean peerAborted;
    /** Why the call ended beyond its code, when known ({@link ClientEndReasons}), else null. Loop only. */
    private RxException.Reason reason;

    private AsyncClientCall(EndpointRuntime rt, byte[] request) {
        this.rt = rt;
        this.request = new MessageWriter(request);
        this.reply = new MessageBuffer(rt.maxMessageBytes);
    }

    /**
     * Starts a call on {@code conn}. Any thread.
     *
     * @param rt the endpoint's shared parts
     * @param serviceId the connection's service id (the call's metrics key)
     * @param conn gives, on the loop, the client connection the call starts on
     * @param request the whole request (not copied: must not change until the future completes)
     * @param deadlineNanoTime the call's hard deadline (endpoint clock, ns), or Long.MAX_VALUE
     * @param deadReason supplies why the server is known unreachable (for an RX_CALL_DEAD's reason), or null
     * @param endReasons the connection's view of why a call ended (loop)
     * @param attached run on the loop once the call is attached to its connection (before its first packet), or null
     * @param stalled run on the loop when the call stalls ({@link CallListener#onStall}), or null
     * @param hooks the call's interceptors (already admitted it) and call log, or null
     * @param context the call's cancellation context
     * @return the reply future
     */
    public static CompletableFuture<byte[]> start(EndpointRuntime rt, int serviceId, Function<RxEngine, Connection> conn,
                                           byte[] request, long deadlineNanoTime,
                                           java.util.function.Supplier<PeerUnreachable> deadReason,
                                           ClientEndReasons.Lookup endReasons, Runnable attached, Runnable stalled,
                                           CallHooks hooks, RxCallContext context) {
        AsyncClientCall a = new AsyncClientCall(rt, request);
        a.deadReason = deadReason;
        a.endReasons = endReasons;
        a.attached = attached;
        a.stalled = stalled;
        a.hooks = hooks;
        a.context = context;
        CompletableFuture<byte[]> f = a.future;
        a.meter = rt.metrics.clientCall(serviceId, rt.now());
        a.meter.opcodeFrom(request, request.length);
        if (rt.closing) {
            a.ended(RxCodes.RX_INVALID_OPERATION, a.meter.end(RxCodes.RX_INVALID_OPERATION, rt.now()));
            f.completeExceptionally(RxException.local(RxCodes.RX_INVALID_OPERATION, RxException.Reason.ENDPOINT_CLOSING,
                    "endpoint closing", null));
            return f;
        }
        rt.tracker.callStarted();
        if (!rt.onLoop(new Begin(a, conn, deadlineNanoTime))) {
            a.request.release();
            a.ended(RxCodes.RX_INVALID_OPERATION, a.meter.end(RxCodes.RX_INVALID_OPERATION, rt.now()));
            rt.tracker.callEnded();
            f.completeExceptionally(RxException.local(RxCodes.RX_INVALID_OPERATION, RxException.Reason.ENDPOINT_CLOSING,
                    "endpoint closed", null));
            return f;
        }
        f.whenComplete(new CallerEnd(a));
        return f;
    }

    /*
     * The three objects every call makes are classes, not lambdas: a capturing lambda is allocated through a VM call
     * in code compiled by C1 alone, as rxperf's client runs (docs/benchmarks.md "Per-call allocations").
     */

    /** The loop task that starts the call. */
    private static final class Begin implements Consumer<RxEngine> {
        private final AsyncClientCall call;
        private final Function<RxEngine, Connection> conn;
        private final long deadlineNanoTime;

        Begin(AsyncClientCall call, Function<RxEngine, Connection> conn, long deadlineNanoTime) {
            this.call = call;
            this.conn = conn;
            this.deadlineNanoTime = deadlineNanoTime;
        }

        @Override
        public void accept(RxEngine engine) {
            call.begin(engine, conn, deadlineNanoTime);
        }
    }

    /** Aborts the call when its caller completed the future first: a cancel, orTimeout or completeOnTimeout. */
    private static final class CallerEnd implements BiConsumer<byte[], Throwable> {
        private final AsyncClientCall call;

        CallerEnd(AsyncClientCall call) {
            this.call = call;
        }

        @Override
        public void accept(byte[] value, Throwable t) {
            if (!call.ended) {
                int code = t == null ? RxCodes.RX_USER_ABORT : HandlerFailures.abortCode(t);
                call.rt.onLoop(e -> call.abortFromCaller(code));
            }
        }
    }

    /** Completes the future with the reply, on the callback executor. */
    private static final class Completion implements Runnable {
        private final CompletableFuture<byte[]> future;
        private final byte[] reply;

        Completion(CompletableFuture<byte[]> future, byte[] reply) {
            this.future = future;
            this.reply = reply;
        }

        @Override
        public void run() {
            future.complete(reply);
        }
    }

    private void begin(RxEngine engine, Function<RxEngine, Connection> conn, long deadlineNanoTime) {
        long now = rt.now();
        if (future.isDone()) {
            end(callerCode()); // cancelled before it reached the loop: never on the wire
            return;
        }
        ClientEndReasons.Refusal refusal = null;
        try {
            Connection target = conn.apply(engine);
            try {
                call = engine.newCall(now, target, this);
            } catch (IllegalStateException e) { // closed, refused by the server, too many calls waiting
                refusal = ClientEndReasons.startRefused(target, e);
            }
        } catch (IllegalStateException e) { // a replacement connection got no fresh credentials
            refusal = new ClientEndReasons.Refusal(RxCodes.RX_INVALID_OPERATION, RxException.Reason.OTHER,
                    e.getMessage());
        }
        if (refusal != null) {
            reason = refusal.reason() == RxException.Reason.OTHER ? null : refusal.reason();
            end(refusal.code());
            // On the callback executor, as every other completion: dependent stages must not run on the loop.
            RxException refused = refusal.exception();
            rt.callback(() -> future.completeExceptionally(refused));
            return;
        }
        if (deadlineNanoTime != Long.MAX_VALUE) {
            call.setDeadline(now, deadlineNanoTime);
        }
        if (attached != null) {
            attached.run();
        }
        if (!call.isDone()) {
            request.pump(call, now);
        }
    }

    private void abortFromCaller(int code) {
        if (call != null && !call.isDone()) {
            call.abort(rt.now(), code);
        }
    }

    @Override
    public void onStall(Call c, long now) {
        if (stalled != null) {
            stalled.run();
        }
    }

    @Override
    public void onWritable(Call c) {
        request.pump(c, rt.now());
    }

    @Override
    public boolean wantsData(Call c) {
        return !c.isDone();
    }

    @Override
    public void onData(Call c, ByteBuf b, long now) {
        if (!reply.append(b) && !c.isDone()) { // the reply keeps b, or releases it when refused
            c.abort(now, RxCodes.RX_MSGSIZE);
        }
    }

    /**
     * Completes the future with the call's end; if that fails (the application's call log threw while the call
     * ended, or a bug in this layer), the future fails instead with RX_INVALID_OPERATION (−2) and the failure as its
     * cause, so that no caller waits forever, and the failure is rethrown for the engine to count
     * ({@code LISTENER_FAILURES}).
     */
    @Override
    public void onComplete(Call c, int errorCode) {
        try {
            complete(c, errorCode);
        } catch (RuntimeException e) {
            if (!ended) {
                try {
                    end(RxCodes.RX_INVALID_OPERATION);
                } catch (RuntimeException again) {
                    e.addSuppressed(again);
                }
            }
            RxException failed = RxException.local(RxCodes.RX_INVALID_OPERATION,
                    "rx4j failed ending the call: " + e, e);
            rt.callback(() -> future.completeExceptionally(failed));
            throw e;
        }
    }

    private void complete(Call c, int errorCode) {
        if (errorCode == 0 && reply.refused()) {
            // The engine ends a client call when the reply's last packet is read, before onData sees it: a last
            // packet past the limit ends a call that succeeded on the wire with an incomplete reply.
            completed(c, RxCodes.RX_MSGSIZE, null);
            return;
        }
        peerAborted = errorCode != 0 && c.isRemoteError();
        PeerUnreachable dead = errorCode == RxCodes.RX_CALL_DEAD && !c.isRemoteError() ? deadReason.get() : null;
        if (errorCode == 0 || dead != null) {
            reason = dead != null ? dead.reason() : null;
            completed(c, errorCode, dead);
            return;
        }
        // A refusal of the service or the class waits for the probe that tells which (ServiceProbe).
        endReasons.refine(endReasons.of(errorCode, c.isRemoteError()), r -> {
            reason = r;
            completed(c, errorCode, null);
        });
    }

    /**
     * Ends the call and completes the future, once its reason is known.
     *
     * @param dead why the server is known unreachable (an RX_CALL_DEAD's reason), or null
     */
    private void completed(Call c, int errorCode, PeerUnreachable dead) {
        byte[] bytes = errorCode == 0 ? reply.toByteArray() : null; // before end() releases what is left
        end(errorCode);
        if (errorCode == 0) {
            rt.callback(new Completion(future, bytes));
        } else {
            // A local end after the close's grace period is the close's abort (RxEndpoint.close sets graceOver
            // before shutting the engine down), as the blocking API reports it.
            RxException e = dead != null
                    ? RxException.local(errorCode, dead.reason(), dead.message(), null)
                    : c.isRemoteError() ? ClientEndReasons.remote(errorCode, reason)
                    : rt.graceOver ? RxException.local(errorCode, RxException.Reason.ENDPOINT_CLOSING,
                            "the endpoint closed before the call ended", null)
                    : reason != null ? RxException.local(errorCode, reason, ClientEndReasons.detail(reason), null)
                    : RxException.local(errorCode, errorCode == RxCodes.RX_MSGSIZE
                            ? "reply larger than " + rt.maxMessageBytes + " bytes" : null);
            rt.callback(() -> future.completeExceptionally(e));
        }
    }

    /** @return the abort code matching how the caller completed the future (done already), −6 for a value */
    private int callerCode() {
        try {
            future.join();
            return RxCodes.RX_USER_ABORT;
        } catch (RuntimeException e) { // CancellationException, CompletionException
            return HandlerFailures.abortCode(e);
        }
    }

    /**
     * Cancels the context when {@code code} is an abort code and ends the hooks.
     *
     * @param durationNs the call's duration as its meter recorded it, ns
     */
    private void ended(int code, long durationNs) {
        RxException.Reason why = ClientEndReasons.isRemote(reason) ? reason : peerAborted ? RxException.Reason.PEER
                : code != 0 && rt.graceOver ? RxException.Reason.ENDPOINT_CLOSING : reason;
        ApiAccess.api().end(context, code, why);
        if (hooks != null) {
            hooks.ended(code, why, durationNs);
        }
    }

    /** @param code 0 or the Rx code the call ended with, for its meter, context and hooks */
    private void end(int code) {
        ended = true;
        long durationNs = meter.end(code, rt.now());
        request.release();
        reply.release(); // a reply taken by toByteArray is released already
        rt.tracker.callEnded();
        ended(code, durationNs);
    }
}
