// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.RxEngine;
import org.rx4j.rpc.client.AsyncClientCall;
import org.rx4j.rpc.client.ClientEndReasons;
import org.rx4j.rpc.client.PeerUnreachable;
import org.rx4j.rpc.client.ProbeQuietTimes;
import org.rx4j.rpc.client.ServiceProbe;
import org.rx4j.rpc.client.UnreachableProbe;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.metrics.CallMeter;
import org.rx4j.rpc.metrics.StatsReader;
import org.rx4j.rpc.pool.CallerEnds;
import org.rx4j.rpc.pool.InheritedContext;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.runtime.HandlerFailures;
import org.rx4j.rpc.stats.ConnectionStats;
import org.rx4j.rpc.stream.CallStreams;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrUnmarshaller;
import org.rx4j.rpc.xdr.XdrWriter;
import org.rx4j.security.SecurityClass;
import org.rx4j.wire.RxConstants;

/**
 * A client connection to (host, port, service id, security class). Up to 4 calls run on it at once (its
 * channels); more wait for a free channel (rx-wire-facts.md §6, §7). Open several connections to the same
 * server for more parallelism (rxperf opens one per 4 threads). Thread-safe: any thread may start calls.
 *
 * <p>Three call forms:
 * <ul>
 *   <li>blocking streams: {@link #newCall()} gives an {@link RxCall} with an output and an input stream, for
 *       bulk and split calls (arguments, bulk data, results);</li>
 *   <li>request/response futures: {@link #callAsync(byte[])} sends a whole request and completes a
 *       {@link CompletableFuture} with the whole reply; no thread waits meanwhile;</li>
 *   <li>typed one-shot XDR: {@link #call(int, XdrMarshaller, XdrUnmarshaller)} (blocking) and
 *       {@link #callAsync(int, XdrMarshaller, XdrUnmarshaller)} write the opcode and the arguments and read
 *       the results, as an rxgen client stub does.</li>
 * </ul>
 * Failures surface as {@link RxException} with the abort code (docs/errors.md).
 */
public final class RxConnection implements RxCallTarget {
    /**
     * Calls one connection runs at once (its channels, rx-wire-facts.md §2); further calls wait for a free channel.
     */
    public static final int MAX_CALLS = RxConstants.MAX_CALLS;

    private final EndpointRuntime rt;
    /**
     * The engine connection new calls start on: replaced on the loop when its credentials ended
     * (docs/security.md "Ticket expiry"); read from any thread for stats and ids.
     */
    private volatile Connection connection;
    /** The connection it replaced, whose calls may still run; closed with this one. Loop-confined. */
    private Connection previous;
    private final InetSocketAddress server;
    private final SecurityClass securityClass;
    private volatile RxConnectionId id;
    /** Set by {@link #close()}: later calls fail at once instead of on the loop. */
    private volatile boolean closed;
    /**
     * Set while an unreachability probe ({@link UnreachableProbe}) is out; a call attached while it is clear starts
     * one. Loop-confined, like the calls it judges: a call is attached and its verdict applied in loop tasks, so a
     * call is either attached before the verdict (and failed by it) or finds the flag clear (and probes again).
     */
    private boolean probed;
    /**
     * Why the server is known unreachable, set on the loop only while the probe's verdict fails the connection's
     * calls (their listeners read it then), else null. Loop-written.
     */
    private volatile PeerUnreachable unreachable;
    /*
     * What every call of this connection is handed, made once: a method reference or lambda is a new object at each
     * evaluation, and rxperf's C1-only client allocates one through a VM call (docs/benchmarks.md "Per-call
     * allocations").
     */
    private final Function<RxEngine, Connection> newCallTarget = this::forNewCall;
    private final Supplier<PeerUnreachable> deadReason = () -> unreachable;
    private final ClientEndReasons.Lookup endReasons = new EndReasons();
    /**
     * The probe that tells an unknown service from a security class not offered, for the engine connection it was
     * started for (docs/errors.md "Unknown service or class not offered"), or null. Loop-confined.
     */
    private ServiceProbe serviceProbe;
    private final Runnable onAttached = this::probeOnLoop;
    private final Runnable onStalled = this::probeOnStall;

    RxConnection(EndpointRuntime rt, Connection connection, InetSocketAddress server, SecurityClass securityClass) {
        this.rt = rt;
        this.connection = connection;
        this.server = server;
        this.securityClass = securityClass;
        this.id = RxConnectionId.of(connection);
    }

    /** @return the server's address */
    public InetSocketAddress server() {
        return server;
    }

    /** @return the service id calls go to, 1..65535 */
    public int serviceId() {
        return connection.serviceId();
    }

    /** @return the connection's security class (its index is in every packet header) */
    public SecurityClass securityClass() {
        return securityClass;
    }

    /**
     * @return the connection's identity: this endpoint's epoch, the cid, service id and security index; the cid
     *     changes when a connection whose credentials ended is replaced (docs/security.md "Ticket expiry")
     */
    public RxConnectionId id() {
        return id;
    }

    Connection engineConnection() {
        return connection;
    }

    /**
     * Starts a streaming call. Write the request to {@link RxCall#output()}, then read the reply from
     * {@link RxCall#input()} (the first read ends the request), then {@link RxCall#close()} it. Returns at
     * once, without waiting for the event loop: the call is created on the loop in order before anything
     * written to it. If all 4 channels are busy the call waits for one (writes block meanwhile). With a timeout in
     * the options the call has a hard deadline ({@link RxCall#setDeadline(Duration)}): past it the call fails with
     * RX_CALL_TIMEOUT (−3). With an opcode in the options it is already written as the request's first XDR int
     * (rx-wire-facts.md §6): write the arguments next; interceptors ({@link RxCallInfo#opcode}) and the
     * per-procedure metrics see it from the start, and a call without one gives them none.
     *
     * @param options deadline and opcode ({@link RxCallOptions#DEFAULT}: neither)
     * @return the call
     * @throws RxException RX_INVALID_OPERATION (−2) if this connection was closed or the endpoint is closing. If
     *     the loop refuses the call (the connection was aborted, or too many calls already wait for a channel,
     *     {@code RxConfig.limits().maxPendingCalls()}), the call fails with RX_INVALID_OPERATION (−2) instead: its
     *     stream methods, {@link RxCall#awaitCompletion()} and {@link RxCall#completion()} report it. A
     *     {@link RxClientInterceptor} that refuses the call throws its own exception from here.
     */
    @Override
    public RxCall newCall(RxCallOptions options) throws RxException {
        long opcodeOrNone = options.opcodeOrNone();
        RxCall call = start(options, opcodeOrNone);
        return opcodeOrNone == RxCallInfo.NO_OPCODE ? call : withOpcode(call, (int) opcodeOrNone);
    }

    /** Writes the opcode; a call that cannot take it (it already failed) is released and its error thrown. */
    static RxCall withOpcode(RxCall call, int opcode) throws RxException {
        try {
            new XdrWriter(call.output(), XdrSide.CLIENT).writeInt(opcode);
            return call;
        } catch (IOException e) {
            RxException rx = e instanceof RxException r ? r
                    : RxException.local(RxCodes.RX_USER_ABORT, "interrupted while writing the opcode", e);
            call.abort(rx.code());
            call.streams().release();
            throw rx;
        }
    }

    /**
     * @param options the call's options: its deadline, and the context it inherits ({@link InheritedContext})
     * @param opcodeOrNone the request's opcode when the call form knows it (for the interceptors), or
     *     {@link RxCallInfo#NO_OPCODE}
     */
    private RxCall start(RxCallOptions options, long opcodeOrNone) throws RxException {
        long deadlineNanoTime = InheritedContext.deadline(rt, options);
        CallStreams streams = new CallStreams(rt, false);
        CallHooks hooks = CallHooks.client(rt, this, opcodeOrNone, streams.context()); // may refuse the call
        streams.hooks(hooks);
        CallMeter meter = rt.metrics.clientCall(serviceId(), rt.now());
        if (opcodeOrNone != RxCallInfo.NO_OPCODE) {
            meter.opcode((int) opcodeOrNone); // counted under its opcode even when no byte of it is ever sent
        }
        if (rt.closing || closed) {
            // Refused before it reaches the loop, yet a call the application made: counted and logged as the async
            // form's refusals are.
            long durationNs = meter.end(RxCodes.RX_INVALID_OPERATION, rt.now());
            RxException.Reason why = rt.closing ? RxException.Reason.ENDPOINT_CLOSING
                    : RxException.Reason.CONNECTION_CLOSED;
            if (hooks != null) {
                hooks.ended(RxCodes.RX_INVALID_OPERATION, why, durationNs);
            }
            throw RxException.local(RxCodes.RX_INVALID_OPERATION, why,
                    rt.closing ? "endpoint closing" : "connection closed", null);
        }
        streams.meter(meter);
        streams.deadReason(deadReason);
        streams.onStalled(onStalled);
        streams.endReasons(endReasons);
        rt.tracker.callStarted();
        rt.tracker.opened(streams);
        // No round trip: the loop runs this before any write the caller hands over next (tasks run in order).
        boolean queued = rt.onLoop(engine -> {
            long now = rt.now();
            Call c;
            Connection target;
            try {
                target = forNewCall(engine);
            } catch (RuntimeException e) { // IllegalStateException: a replacement got no fresh credentials
                streams.failToStart(new ClientEndReasons.Refusal(RxCodes.RX_INVALID_OPERATION,
                        RxException.Reason.OTHER, e.getMessage()));
                return;
            }
            try {
                c = engine.newCall(now, target, streams);
            } catch (RuntimeException e) { // IllegalStateException: connection gone, too many calls waiting
                streams.failToStart(ClientEndReasons.startRefused(target, e));
                return;
            }
            streams.attach(c);
            if (deadlineNanoTime != Long.MAX_VALUE) {
                c.setDeadline(now, deadlineNanoTime);
            }
            probeOnLoop();
        });
        if (!queued) {
            long durationNs = meter.end(RxCodes.RX_INVALID_OPERATION, rt.now());
            if (hooks != null) {
                hooks.ended(RxCodes.RX_INVALID_OPERATION, RxException.Reason.ENDPOINT_CLOSING, durationNs);
            }
            rt.tracker.callEnded();
            rt.tracker.released(streams);
            throw RxException.local(RxCodes.RX_INVALID_OPERATION, RxException.Reason.ENDPOINT_CLOSING,
                    "endpoint closed", null);
        }
        RxCall call = new RxCall(streams, false, server, id, null);
        InheritedContext.link(options, call);
        return call;
    }

    /**
     * Sends a whole request and completes the future with the whole reply, without blocking any thread.
     * The future completes on the endpoint's callback executor ({@link RxEndpoint.Builder#callbackExecutor}).
     * Cancelling it, or completing it with a value ({@code completeOnTimeout}), aborts the call with RX_USER_ABORT
     * (−6); completing it by {@code orTimeout} aborts it with RX_CALL_TIMEOUT (−3), by another
     * {@code completeExceptionally} with that exception's code ({@link RxException#code()}, else −2). With a
     * timeout in the options, past it the call is aborted by the engine (ABORT −3 to the server) and the future
     * fails with RX_CALL_TIMEOUT (−3); with an opcode, it is sent as an XDR int before {@code request}.
     *
     * @param request the whole request (not copied: must not change until the future completes)
     * @param options deadline and opcode ({@link RxCallOptions#DEFAULT}: neither)
     * @return the reply; exceptionally an {@link RxException} with the abort code (RX_MSGSIZE −8 for a reply
     *     over {@link RxEndpoint.Builder#maxMessageBytes}, RX_INVALID_OPERATION −2 if the connection is closed,
     *     a refusing {@link RxClientInterceptor}'s own exception)
     */
    @Override
    public CompletableFuture<byte[]> callAsync(byte[] request, RxCallOptions options) {
        long opcodeOrNone = options.opcodeOrNone();
        byte[] whole = request;
        if (opcodeOrNone != RxCallInfo.NO_OPCODE) { // rare: a raw request after a library-written opcode
            whole = new byte[request.length + 4];
            ByteBuffer.wrap(whole).putInt((int) opcodeOrNone).put(request);
        }
        return startAsync(whole, options, opcodeOrNone);
    }

    private CompletableFuture<byte[]> startAsync(byte[] request, RxCallOptions options, long opcodeOrNone) {
        CallHooks hooks;
        RxCallContext context = new RxCallContext();
        try {
            hooks = CallHooks.client(rt, this, opcodeOrNone, context);
        } catch (RxException e) {
            return CompletableFuture.failedFuture(e);
        }
        return startAsync(request, options, hooks, context);
    }

    /** The one start of every async form: the deadline and the end inherited ({@link InheritedContext}). */
    private CompletableFuture<byte[]> startAsync(byte[] request, RxCallOptions options, CallHooks hooks,
            RxCallContext context) {
        CompletableFuture<byte[]> f = AsyncClientCall.start(rt, serviceId(), newCallTarget, request,
                InheritedContext.deadline(rt, options), deadReason, endReasons, onAttached, onStalled, hooks, context);
        InheritedContext.link(options, f);
        return f;
    }

    /**
     * Loop, when one of this connection's calls ended with a non-zero code: why, beyond the code
     * ({@link ClientEndReasons}); a local RX_USER_ABORT after {@link #close()} is the close's.
     */
    private RxException.Reason endReason(int code, boolean remote) {
        RxException.Reason r = ClientEndReasons.ended(connection, code, remote);
        if (r == null && previous != null) {
            r = ClientEndReasons.ended(previous, code, remote);
        }
        if (r == null && !remote && closed && code == RxCodes.RX_USER_ABORT) {
            r = RxException.Reason.CONNECTION_CLOSED;
        }
        return r;
    }

    /** This connection's view of why its calls ended ({@link ClientEndReasons.Lookup}). Loop only. */
    private final class EndReasons implements ClientEndReasons.Lookup {
        @Override
        public RxException.Reason of(int code, boolean remote) {
            return endReason(code, remote);
        }

        @Override
        public void refine(RxException.Reason reason, java.util.function.Consumer<RxException.Reason> then) {
            if (reason != RxException.Reason.SERVICE_NOT_OFFERED) {
                then.accept(reason);
                return;
            }
            Connection refused = connection;
            if (serviceProbe == null || serviceProbe.refused() != refused) {
                serviceProbe = ServiceProbe.of(refused, rt.transport.loopCallbacks(), rt::now);
            }
            ServiceProbe probe = serviceProbe;
            RxException.Reason unprobed = probe.unanswered();
            // At the end of the unit of loop work that ended the call: the probe's connection and call are made
            // once the engine has returned from delivering this call's end, not inside it.
            try {
                rt.transport.loopCallbacks().execute(() -> {
                    if (!rt.onLoop(engine -> probe.whenKnown(engine, rt.now(), then))) {
                        then.accept(unprobed); // the endpoint has closed: nothing more to learn
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                then.accept(unprobed); // the loop has shut down: nothing more to learn
            }
        }
    }

    /**
     * Loop: the engine connection a new call starts on ({@link RxEngine#connectionForNewCall}), kept for the calls
     * after it; the one it replaces keeps its calls in flight.
     *
     * @throws IllegalStateException if a replacement could not get fresh credentials
     */
    private Connection forNewCall(RxEngine engine) {
        Connection current = engine.connectionForNewCall(connection);
        if (current != connection) {
            previous = connection;
            connection = current;
            id = RxConnectionId.of(current);
        }
        return current;
    }

    /**
     * Loop, right after a call of this connection is attached: unless a probe is already out for this connection or
     * the server answered one within the last second ({@link ProbeQuietTimes}), probes whether anything listens at
     * the server's port (a connected UDP socket, {@link UnreachableProbe}). If ICMP says not (port, host or network
     * unreachable), or no route leads there, every call of this connection still running fails at once with
     * RX_CALL_DEAD (−1), reason {@link RxException.Reason#PEER_UNREACHABLE}, {@link RxException.Reason#HOST_UNREACHABLE}
     * or {@link RxException.Reason#NO_ROUTE}; the connection stays usable, and a later call probes again (a
     * server that came back is then simply called). Started, judged and cleared on the loop: a probe started from
     * the caller's thread raced the loop (a call attached while the verdict was being applied waited out the dead
     * time; a call started just after it found the finished probe still marked out), seen as ClosedPortTest hangs.
     */
    private void probeOnLoop() {
        if (!rt.probeUnreachable || probed || !rt.probes.due(server, rt.now())) {
            return;
        }
        probe();
    }

    /**
     * Loop, when one of this connection's calls stalled (the engine heard nothing from the server for a while,
     * {@code CallListener.onStall}): probes again unless a probe is already out, whether or not the server answered
     * one lately, so that a server that died during a call, or whose host or network became unreachable, fails the
     * call by ICMP instead of the dead time (docs/embedding.md, "A peer that does not answer").
     */
    private void probeOnStall() {
        if (!rt.probeUnreachable || probed) {
            return;
        }
        probe();
    }

    private void probe() {
        probed = true;
        rt.probes.started();
        UnreachableProbe.start(rt, server, new UnreachableProbe.Outcome() {
            @Override
            public void answered() {
                rt.probes.answered(server, rt.now());
            }

            @Override
            public void unreachable(PeerUnreachable verdict) {
                rt.onLoop(engine -> { // on the loop already: runs here, before done()
                    unreachable = verdict;
                    try {
                        engine.abortCalls(rt.now(), connection, RxCodes.RX_CALL_DEAD);
                    } finally {
                        unreachable = null;
                    }
                });
            }

            @Override
            public void done() {
                probed = false;
            }
        });
    }

    /**
     * One rxgen-style call, blocking: writes {@code opcode} (XDR int) and the arguments, reads the results.
     * Failures abort the call as an rxgen stub does: marshalling fails with RXGEN_CC_MARSHAL (−450),
     * unmarshalling with RXGEN_CC_UNMARSHAL (−451) (a hostile length fails this way, never with an
     * OutOfMemoryError); the server's abort arrives as a remote {@link RxException}. With a timeout in the options
     * the engine enforces a hard deadline: past it the call is aborted (ABORT −3 to the server) and this method
     * throws RX_CALL_TIMEOUT (−3).
     *
     * @param opcode the operation
     * @param arguments writes the arguments (client side)
     * @param results reads the results (client side); bytes after what it reads are discarded
     * @param options the deadline; no opcode
     * @param <T> the result type
     * @return what {@code results} returned
     * @throws RxException with the abort code
     * @throws IOException if interrupted (the call is then cancelled with −6)
     * @throws IllegalArgumentException if the options carry an opcode
     */
    @Override
    public <T> T call(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results, RxCallOptions options)
            throws IOException {
        options.requireNoOpcode("call(opcode, arguments, results, options)");
        return typed(start(options, opcode), opcode, arguments, results);
    }

    private <T> T typed(RxCall call, int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results)
            throws IOException {
        boolean marshalled = false;
        try {
            XdrWriter w = new XdrWriter(call.output(), XdrSide.CLIENT);
            w.writeInt(opcode);
            arguments.marshal(w);
            marshalled = true;
            call.output().close();
            T value = results.unmarshal(new XdrReader(call.input(), XdrSide.CLIENT));
            call.close();
            return value;
        } catch (IOException | RuntimeException e) {
            if (!(e instanceof RxException rx && rx.remote())) {
                call.abort(e instanceof RxException rx ? rx.code()
                        : e instanceof InterruptedIOException ? RxCodes.RX_USER_ABORT
                        : marshalled ? RxCodes.RXGEN_CC_UNMARSHAL : RxCodes.RXGEN_CC_MARSHAL);
            }
            call.streams().release();
            throw e;
        }
    }

    /**
     * One rxgen-style call without blocking: the client interceptors run, then the arguments are marshalled on the
     * calling thread, the results unmarshalled on the callback executor. Errors as
     * {@link #call(int, XdrMarshaller, XdrUnmarshaller, RxCallOptions)} (RXGEN_CC_MARSHAL −450 fails the future
     * before anything is sent, and is counted, logged and given to the interceptors' ends as any call's end;
     * RXGEN_CC_UNMARSHAL −451 for bad results). Ending the returned future early ends the call as
     * {@link #callAsync(byte[], RxCallOptions)} says: cancel or {@code completeOnTimeout} aborts it with
     * RX_USER_ABORT (−6), {@code orTimeout} with RX_CALL_TIMEOUT (−3); a timeout in the options is a hard deadline
     * enforced by the engine (ABORT −3 to the server, the future fails with −3).
     *
     * @param opcode the operation
     * @param arguments writes the arguments
     * @param results reads the results from the whole reply
     * @param options the deadline; no opcode
     * @param <T> the result type
     * @return the results' future; exceptionally an {@link RxException} with the abort code
     * @throws IllegalArgumentException if the options carry an opcode
     */
    @Override
    public <T> CompletableFuture<T> callAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results,
                                              RxCallOptions options) {
        options.requireNoOpcode("callAsync(opcode, arguments, results, options)");
        return typedAsync(opcode, arguments, results, options);
    }

    private <T> CompletableFuture<T> typedAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results,
                                                RxCallOptions options) {
        RxCallContext context = new RxCallContext();
        CallHooks hooks;
        try {
            hooks = CallHooks.client(rt, this, opcode, context); // interceptors first, as the blocking form's
        } catch (RxException e) {
            return CompletableFuture.failedFuture(e);
        }
        long startNs = rt.now();
        byte[] request;
        try {
            request = XdrMarshaller.toBytes(XdrSide.CLIENT, w -> {
                w.writeInt(opcode);
                arguments.marshal(w);
            });
        } catch (IOException | RuntimeException e) {
            marshalFailed(opcode, startNs, e instanceof RxException rx ? rx.code() : RxCodes.RXGEN_CC_MARSHAL,
                    hooks, context);
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<byte[]> raw = startAsync(request, options, hooks, context);
        CompletableFuture<T> typed = new CompletableFuture<>();
        raw.whenComplete((bytes, t) -> {
            if (t != null) {
                typed.completeExceptionally(HandlerFailures.unwrap(t));
                return;
            }
            try {
                typed.complete(results.unmarshal(new XdrReader(new ByteArrayInputStream(bytes), XdrSide.CLIENT)));
            } catch (IOException | RuntimeException e) {
                typed.completeExceptionally(e);
            }
        });
        CallerEnds.follow(typed, raw);
        return typed;
    }

    /**
     * An async typed call whose arguments failed to marshal never reaches the engine: it still ends as every call the
     * application sees does (docs/embedding.md "Metrics", "Call logs"): one metrics entry under its opcode, its
     * context's end, its interceptors' ends and its log line.
     */
    private void marshalFailed(int opcode, long startNs, int code, CallHooks hooks, RxCallContext context) {
        long durationNs = rt.metrics.clientCallEnded(serviceId(), opcode, startNs, code, rt.now());
        context.end(code, null);
        if (hooks != null) {
            hooks.ended(code, durationNs);
        }
    }

    /**
     * A read-only snapshot of this connection's counters, read on the event loop.
     *
     * @return the snapshot
     */
    public ConnectionStats stats() {
        return rt.transport.submit(engine -> StatsReader.connection(connection)).join();
    }

    /**
     * Closes the connection (and the one it replaced when its credentials ended); their unfinished calls are aborted
     * with RX_USER_ABORT (−6). Returns at once.
     */
    @Override
    public void close() {
        closed = true;
        rt.onLoop(engine -> {
            engine.closeConnection(rt.now(), connection);
            if (previous != null) {
                engine.closeConnection(rt.now(), previous);
            }
        });
    }
}
