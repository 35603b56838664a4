package org.rx4j.rpc;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.rx4j.engine.Call;
import org.rx4j.engine.CallListener;
import org.rx4j.engine.Connection;
import org.rx4j.engine.RxEngine;

/**
 * A request/response client call driven entirely on the event loop, so no application thread waits for
 * it: writes the request as the send window allows, gathers the reply (up to the endpoint's message limit,
 * else the call is aborted with RX_MSGSIZE −8), and completes the caller's future on the endpoint's callback
 * executor. If the caller completes the future first (cancel, {@code orTimeout}, ...), the call is aborted:
 * RX_USER_ABORT (−6) for a cancellation, RX_CALL_TIMEOUT (−3) for a timeout.
 */
final class AsyncClientCall implements CallListener {
    private final EndpointRuntime rt;
    private final CompletableFuture<byte[]> future = new CompletableFuture<>();
    private final MessageBuffer reply;
    /** The request bytes not yet given to the call. */
    private final MessageWriter request;
    private Call call;
    /** Set on the loop when the call has ended; read by the future's listener on any thread. */
    private volatile boolean ended;
    /** Supplies why the server is known unreachable, or null; set before the call starts. */
    private java.util.function.Supplier<String> deadReason;
    /** Run on the loop once the call is attached, or null; set before the call starts. */
    private Runnable attached;
    /** Times the call; set before the call starts. */
    private CallMeter meter;

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
     * @param attached run on the loop once the call is attached to its connection (before its first packet), or null
     * @return the reply future
     */
    static CompletableFuture<byte[]> start(EndpointRuntime rt, int serviceId, Function<RxEngine, Connection> conn,
                                           byte[] request,
                                           long deadlineNanoTime, java.util.function.Supplier<String> deadReason,
                                           Runnable attached) {
        AsyncClientCall a = new AsyncClientCall(rt, request);
        a.deadReason = deadReason;
        a.attached = attached;
        CompletableFuture<byte[]> f = a.future;
        if (rt.closing) {
            f.completeExceptionally(RxException.local(RxCodes.RX_INVALID_OPERATION, RxException.Reason.ENDPOINT_CLOSING,
                    "endpoint closing", null));
            return f;
        }
        rt.tracker.callStarted();
        a.meter = rt.metrics.clientCall(serviceId, rt.now());
        a.meter.opcodeFrom(request, request.length);
        if (!rt.onLoop(e -> a.begin(e, conn, deadlineNanoTime))) {
            a.request.release();
            a.meter.end(RxCodes.RX_INVALID_OPERATION, rt.now());
            rt.tracker.callEnded();
            f.completeExceptionally(RxException.local(RxCodes.RX_INVALID_OPERATION, RxException.Reason.ENDPOINT_CLOSING,
                    "endpoint closed", null));
            return f;
        }
        f.whenComplete((v, t) -> {
            if (t != null && !a.ended) {
                int code = HandlerFailures.abortCode(t);
                rt.onLoop(e -> a.abortFromCaller(code));
            }
        });
        return f;
    }

    private void begin(RxEngine engine, Function<RxEngine, Connection> conn, long deadlineNanoTime) {
        long now = rt.now();
        if (future.isDone()) {
            // cancelled before it reached the loop: never on the wire
            end(HandlerFailures.abortCode(future.handle((v, t) -> t).join()));
            return;
        }
        try {
            call = engine.newCall(now, conn.apply(engine), this);
        } catch (IllegalStateException e) {
            end(RxCodes.RX_INVALID_OPERATION);
            // On the callback executor, as every other completion: dependent stages must not run on the loop.
            RxException closed = RxException.local(RxCodes.RX_INVALID_OPERATION, e.getMessage());
            rt.callback(() -> future.completeExceptionally(closed));
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
    public void onWritable(Call c) {
        request.pump(c, rt.now());
    }

    @Override
    public void onReadable(Call c, long now) {
        ByteBuf b;
        while (!c.isDone() && (b = c.read(now)) != null) {
            boolean ok;
            try {
                ok = reply.append(b);
            } finally {
                b.release();
            }
            if (!ok) {
                c.abort(now, RxCodes.RX_MSGSIZE);
                return;
            }
        }
    }

    @Override
    public void onComplete(Call c, int errorCode) {
        end(errorCode);
        if (errorCode == 0) {
            byte[] bytes = reply.toByteArray();
            rt.callback(() -> future.complete(bytes));
        } else {
            String dead = errorCode == RxCodes.RX_CALL_DEAD && !c.isRemoteError() ? deadReason.get() : null;
            // A local end after the close's grace period is the close's abort (RxEndpoint.close sets graceOver
            // before shutting the engine down), as the blocking API reports it.
            RxException e = dead != null
                    ? RxException.local(errorCode, RxException.Reason.PEER_UNREACHABLE, dead, null)
                    : c.isRemoteError() ? RxException.remote(errorCode)
                    : rt.graceOver ? RxException.local(errorCode, RxException.Reason.ENDPOINT_CLOSING,
                            "the endpoint closed before the call ended", null)
                    : RxException.local(errorCode, errorCode == RxCodes.RX_MSGSIZE
                            ? "reply larger than " + rt.maxMessageBytes + " bytes" : null);
            rt.callback(() -> future.completeExceptionally(e));
        }
    }

    /** @param code 0 or the Rx code the call ended with, for its meter */
    private void end(int code) {
        ended = true;
        meter.end(code, rt.now());
        request.release();
        rt.tracker.callEnded();
    }
}
