// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import io.netty.buffer.ByteBuf;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.call.CallOrigin;
import org.rx4j.rpc.RxAsyncHandler;
import org.rx4j.rpc.RxCallContext;
import org.rx4j.rpc.RxConnectionId;
import org.rx4j.rpc.RxContext;
import org.rx4j.rpc.RxRequest;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.metrics.CallMeter;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.runtime.HandlerFailures;
import org.rx4j.rpc.stream.MessageBuffer;
import org.rx4j.rpc.stream.MessageWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server call served by an {@link RxAsyncHandler}, entirely on the event loop: gathers the request (up to
 * the endpoint's message limit, else RX_MSGSIZE −8), runs the handler when the request is complete, and
 * writes the reply as the send window allows when the handler's stage completes (on any thread; the write
 * hops to the loop).
 */
public final class AsyncServerCall implements CallListener {
    private static final Logger log = LoggerFactory.getLogger(AsyncServerCall.class);

    private final EndpointRuntime rt;
    private final int opcode;
    private final RxAsyncHandler handler;
    private final MessageBuffer request;
    private final CallMeter meter;
    private boolean handlerCalled;
    /** Cancelled when the call ends with an abort code, handler running or not. */
    private final RxCallContext context = ApiAccess.api().newCallContext();
    /** The call's interceptors and call log, or null; set when the handler is about to run. */
    private CallHooks hooks;
    /** The reply bytes not yet given to the call; null until the handler's stage completes. */
    private MessageWriter reply;

    private AsyncServerCall(EndpointRuntime rt, int opcode, RxAsyncHandler handler, CallMeter meter) {
        this.rt = rt;
        this.meter = meter;
        this.opcode = opcode;
        this.handler = handler;
        this.request = new MessageBuffer(rt.maxMessageBytes);
    }

    /**
     * Takes over {@code call} from the opcode reader. Loop only; the call is already counted in the tracker
     * and this listener ends that count.
     *
     * @param rt the endpoint's shared parts
     * @param call the server call
     * @param opcode the request's opcode
     * @param rest request bytes already taken after the opcode, or null; ownership passes here
     * @param handler the handler
     * @param now current time, ns
     * @param meter times the call; this listener ends it
     */
    static void start(EndpointRuntime rt, Call call, int opcode, ByteBuf rest, RxAsyncHandler handler, long now,
            CallMeter meter) {
        AsyncServerCall a = new AsyncServerCall(rt, opcode, handler, meter);
        ApiAccess.api().hardDeadTimeEnd(a.context, call.hardDeadTimeEnd()); // what the handler's calls inherit (RxContext)
        call.setListener(a);
        if (rest != null && !a.append(call, rest)) {
            return;
        }
        if (call.isReadComplete()) {
            a.onReadComplete(call, now); // the request ended within what the router took
        }
        // Else the engine hands it the rest of the request and its end, from the event that routed the call.
    }

    /** Keeps {@code b} (ownership passes here); aborts with RX_MSGSIZE when the request passes the limit. */
    private boolean append(Call c, ByteBuf b) {
        boolean ok = request.append(b);
        if (!ok) {
            c.abort(rt.now(), RxCodes.RX_MSGSIZE);
        }
        return ok;
    }

    @Override
    public void onData(Call c, ByteBuf b, long now) {
        if (handlerCalled || c.isDone()) {
            b.release();
            return;
        }
        append(c, b);
    }

    @Override
    public void onReadComplete(Call c, long now) {
        if (!handlerCalled && !c.isDone()) {
            handlerCalled = true;
            invoke(c);
        }
    }

    private void invoke(Call c) {
        CallOrigin origin = c.origin();
        hooks = CallHooks.server(rt, origin, opcode, context);
        if (hooks != null) {
            int refused = hooks.admit();
            if (refused != 0) { // an interceptor refused it: the handler never runs
                c.abort(rt.now(), refused);
                return;
            }
        }
        RxRequest req = new RxRequest(opcode, request.toByteArray(), origin.peer(), ApiAccess.api().connectionId(origin),
                Optional.ofNullable(origin.identity()), context);
        CompletionStage<byte[]> stage;
        // Current while handle() runs: the calls it starts inherit the call's end (RxContext).
        RxContext previous = ApiAccess.api().enter(ApiAccess.api().ofServerCall(context, rt::now, rt::callback));
        try {
            stage = handler.handle(req);
        } catch (Exception e) {
            fail(c, e);
            return;
        } finally {
            ApiAccess.api().restore(previous);
        }
        if (stage == null) {
            fail(c, new NullPointerException("async handler for opcode " + opcode + " returned null"));
            return;
        }
        stage.whenComplete((bytes, t) -> rt.onLoop(e -> reply(c, bytes, t)));
    }

    private void fail(Call c, Throwable t) {
        int code = HandlerFailures.abortCode(t);
        if (!(HandlerFailures.unwrap(t) instanceof RxException)) {
            log.warn("async handler for opcode {} failed", opcode, t);
        }
        c.abort(rt.now(), code);
    }

    private void reply(Call c, byte[] bytes, Throwable t) {
        if (c.isDone()) {
            return;
        }
        if (t != null) {
            fail(c, t);
        } else if (bytes == null) {
            fail(c, new NullPointerException("async handler for opcode " + opcode + " completed with null"));
        } else {
            reply = new MessageWriter(bytes);
            pumpReply(c);
        }
    }

    /** Writes what the window takes of the reply; its end handed to the engine completes the call's duration. */
    private void pumpReply(Call c) {
        long now = rt.now();
        if (reply.pump(c, now)) {
            meter.replyComplete(now);
        }
    }

    @Override
    public void onWritable(Call c) {
        if (reply != null) {
            pumpReply(c);
        }
    }

    @Override
    public void onComplete(Call c, int errorCode) {
        try {
            request.release(); // taken already when the handler ran; held still when the call ended before
            if (reply != null) {
                reply.release();
            }
            long durationNs = meter.end(errorCode, rt.now());
            // One reason for the context, the interceptors and the call log alike (docs/errors.md "Local reasons").
            RxException.Reason why = errorCode == 0 ? null : c.isRemoteError() ? RxException.Reason.PEER
                    : rt.graceOver ? RxException.Reason.ENDPOINT_CLOSING : null;
            ApiAccess.api().end(context, errorCode, why);
            if (hooks != null) {
                hooks.ended(errorCode, why, durationNs);
            } else { // ended before the handler ran (request too large, the client's abort): no hooks were made
                CallHooks.endedUnrouted(rt, c.origin(), opcode, errorCode, why, durationNs);
            }
        } finally {
            // Counted whatever failed above (the engine counts that): a close waits for the calls in flight.
            rt.tracker.callEnded();
        }
    }
}
