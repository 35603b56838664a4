// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.concurrent.CompletionStage;
import org.rx4j.engine.call.Call;
import org.rx4j.rpc.RxAsyncStreams;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxContext;
import org.rx4j.rpc.RxStreamHandler;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.metrics.CallMeter;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.runtime.HandlerFailures;
import org.rx4j.rpc.stream.CallStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an {@link RxStreamHandler} for one server call on the event loop: the call's streams in their non-blocking
 * form ({@link RxAsyncStreams}), no worker thread; the reply ends when the handler's stage completes, or the call
 * is aborted with the code its failure maps to ({@link HandlerFailures}).
 */
final class AsyncStreamServerCall {
    private static final Logger log = LoggerFactory.getLogger(AsyncStreamServerCall.class);

    private AsyncStreamServerCall() {
    }

    /**
     * Attaches streams to {@code call} and runs {@code handler}. Loop only. The call must already be counted in the
     * tracker; the streams end that count.
     *
     * @param rt the endpoint's shared parts
     * @param call the new server call
     * @param opcode the request's opcode
     * @param rest request bytes the loop already took after the opcode, or null; ownership passes to the streams
     * @param handler the handler
     * @param now current time, ns
     * @param meter times the call; the streams end it
     */
    static void start(EndpointRuntime rt, Call call, int opcode, ByteBuf rest, RxStreamHandler handler, long now,
            CallMeter meter) {
        RxCall rxCall = ServerCallStart.open(rt, call, rest, opcode, now, meter);
        if (rxCall == null) {
            return;
        }
        CallStreams streams = ApiAccess.api().streams(rxCall);
        RxAsyncStreams flows;
        try {
            flows = ApiAccess.api().asyncStreams(rxCall);
        } catch (IOException e) { // nothing was written: cannot fail
            call.abort(now, RxCodes.RX_INVALID_OPERATION);
            streams.release();
            return;
        }
        streams.pull(call, now);
        CompletionStage<?> stage;
        // Current while handle() runs: the calls it starts inherit the call's end (RxContext).
        RxContext previous = ApiAccess.api().enter(ApiAccess.api().ofServerCall(streams.context(), rt::now,
                rt::callback));
        try {
            stage = handler.handle(flows, opcode);
            if (stage == null) {
                throw new NullPointerException("stream handler for opcode " + opcode + " returned null");
            }
        } catch (Exception e) {
            fail(rt, streams, opcode, e);
            return;
        } finally {
            ApiAccess.api().restore(previous);
        }
        stage.whenComplete((v, t) -> {
            if (t != null) {
                rt.onLoop(e -> fail(rt, streams, opcode, t));
            } else {
                flows.finish();
            }
        });
    }

    private static void fail(EndpointRuntime rt, CallStreams streams, int opcode, Throwable t) {
        if (streams.isDone()) {
            return; // the call ended first (the client's abort, a deadline): nothing to abort
        }
        if (!(HandlerFailures.unwrap(t) instanceof RxException)) {
            log.warn("stream handler for opcode {} failed", opcode, t);
        }
        Call c = streams.engineCall();
        if (c != null) {
            c.abort(rt.now(), HandlerFailures.abortCode(t));
        }
    }
}
