// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import org.rx4j.engine.call.CallOrigin;
import org.rx4j.engine.connection.Connection;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.stream.CallStreams;
import org.rx4j.security.CallerIdentity;

/** The one {@link ApiAccess}: forwards to the package-private members it names. Installed when initialised. */
final class ApiBridge extends ApiAccess {
    static {
        ApiAccess.install(new ApiBridge());
    }

    private ApiBridge() {
    }

    @Override
    public RxCallContext newCallContext() {
        return new RxCallContext();
    }

    @Override
    public void end(RxCallContext context, int errorCode, RxException.Reason why) {
        context.end(errorCode, why);
    }

    @Override
    public void hardDeadTimeEnd(RxCallContext context, long endNs) {
        context.hardDeadTimeEnd(endNs);
    }

    @Override
    public void deadlineNs(RxCallContext context, long deadlineNs) {
        context.deadlineNs(deadlineNs);
    }

    @Override
    public RxCallInfo newCallInfo(boolean server, int serviceId, long opcodeOrNone, String procName,
            InetSocketAddress peer, RxConnectionId connectionId, CallerIdentity identity, RxCallContext context) {
        return new RxCallInfo(server, serviceId, opcodeOrNone, procName, peer, connectionId, identity, context);
    }

    @Override
    public RxConnectionId connectionId(Connection c) {
        return RxConnectionId.of(c);
    }

    @Override
    public RxConnectionId connectionId(CallOrigin o) {
        return RxConnectionId.of(o);
    }

    @Override
    public RxContext ofServerCall(RxCallContext call, LongSupplier clock, Executor ends) {
        return RxContext.ofServerCall(call, clock, ends);
    }

    @Override
    public RxContext enter(RxContext context) {
        return context.enter();
    }

    @Override
    public void restore(RxContext previous) {
        RxContext.restore(previous);
    }

    @Override
    public Runnable onEnd(RxContext context, IntConsumer ended) {
        return context.onEnd(ended);
    }

    @Override
    public boolean endsWithCall(RxContext context) {
        return context.endsWithCall();
    }

    @Override
    public long deadlineOn(RxContext context, long now) {
        return context.deadlineOn(now);
    }

    @Override
    public RxContext context(RxCallOptions options) {
        return options.context();
    }

    @Override
    public Duration timeoutOrNull(RxCallOptions options) {
        return options.timeoutOrNull();
    }

    @Override
    public RxCall newCall(CallStreams streams, boolean server, InetSocketAddress peer, RxConnectionId connectionId,
            CallerIdentity identity) {
        return new RxCall(streams, server, peer, connectionId, identity);
    }

    @Override
    public CallStreams streams(RxCall call) {
        return call.streams();
    }

    @Override
    public void abort(RxCall call, int code, RxException.Reason reason) {
        call.abort(code, reason);
    }

    @Override
    public RxOpcodeHandler blockingRoute(RxService service, int opcode) {
        RxService.Route r = service.route(opcode);
        return r == null ? null : r.blocking();
    }

    @Override
    public RxAsyncHandler asyncRoute(RxService service, int opcode) {
        RxService.Route r = service.route(opcode);
        return r == null ? null : r.async();
    }

    @Override
    public RxStreamHandler streamRoute(RxService service, int opcode) {
        RxService.Route r = service.route(opcode);
        return r == null ? null : r.stream();
    }

    @Override
    public RxAsyncStreams asyncStreams(RxCall call) throws java.io.IOException {
        return call.async();
    }

    @Override
    public LatencyStats latencyStats(long[] counts, long totalNs, long maxNs) {
        return new LatencyStats(counts, totalNs, maxNs);
    }

    @Override
    public EndpointRuntime runtime(RxEndpoint endpoint) {
        return endpoint.runtime();
    }

    @Override
    public RxCallOptions bound(RxCallOptions options) {
        return options.bound();
    }

    @Override
    public RxCallOptions withTimeoutOrNone(RxCallOptions options, Duration left) {
        return options.withTimeoutOrNone(left);
    }

    @Override
    public void requireNoOpcode(RxCallOptions options, String form) {
        options.requireNoOpcode(form);
    }
}
