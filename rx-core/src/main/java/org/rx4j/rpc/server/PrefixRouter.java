// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.rpc.RxAsyncHandler;
import org.rx4j.rpc.RxCallHandler;
import org.rx4j.rpc.RxCallInfo;
import org.rx4j.rpc.RxCallRouter;
import org.rx4j.rpc.metrics.CallMeter;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.runtime.HandlerFailures;

/**
 * The first listener of a server call of a routed whole-stream service: on the event loop, gathers the first
 * {@code prefixBytes} of the request (or the whole request when shorter), asks the {@link RxCallRouter}, and
 * hands the call with every byte taken so far to an {@link AsyncServerCall} (opcode = the first 4 bytes) or to a
 * {@link BlockingServerCall} running the service's blocking handler. The prefix may arrive split over several
 * packets. Loop only.
 */
final class PrefixRouter implements CallListener {
    private static final int OPCODE_BYTES = 4;

    private final EndpointRuntime rt;
    private final WorkerShare share;
    private final RxCallHandler blocking;
    private final RxCallRouter router;
    private final RequestPrefix prefix;
    private final CallMeter meter;
    private boolean routed;

    /**
     * @param rt the endpoint's shared parts
     * @param share the service's share of the worker pool, for the blocking handler
     * @param blocking the service's blocking handler
     * @param prefixBytes request bytes the router sees, ≥ 4
     * @param router the router
     * @param meter times the call; the listener that sees the call end ends it
     */
    PrefixRouter(EndpointRuntime rt, WorkerShare share, RxCallHandler blocking, int prefixBytes,
                 RxCallRouter router, CallMeter meter) {
        this.rt = rt;
        this.meter = meter;
        this.share = share;
        this.blocking = blocking;
        this.router = router;
        this.prefix = new RequestPrefix(prefixBytes);
    }

    @Override
    public void onReadable(Call c, long now) {
        if (routed || c.isDone()) {
            return;
        }
        ByteBuf rest = prefix.fill(c, now);
        boolean whole = rest == null && c.isReadComplete();
        if (!prefix.isFull() && !whole) {
            return; // more of the prefix to come
        }
        routed = true;
        RxAsyncHandler async = null;
        if (prefix.length() >= OPCODE_BYTES) {
            meter.opcode(prefix.opcode());
            try {
                async = router.route(prefix.bytes(), prefix.length(), whole);
            } catch (Exception e) {
                if (rest != null) {
                    rest.release();
                }
                c.abort(now, HandlerFailures.abortCode(e));
                return;
            }
        }
        if (async != null) {
            AsyncServerCall.start(rt, c, prefix.opcode(), taken(OPCODE_BYTES, rest), async, now, meter);
        } else {
            long opcode = prefix.length() >= OPCODE_BYTES ? prefix.opcode() : ApiAccess.NO_OPCODE;
            BlockingServerCall.start(rt, share, c, taken(0, rest), blocking, opcode, now, meter);
        }
    }

    /** The bytes taken from the call from {@code from} on, or null if none; ownership of {@code rest} moves in. */
    private ByteBuf taken(int from, ByteBuf rest) {
        if (prefix.length() <= from) {
            return rest;
        }
        ByteBuf head = Unpooled.wrappedBuffer(prefix.bytes(), from, prefix.length() - from);
        return rest == null ? head : Unpooled.wrappedBuffer(head, rest);
    }

    @Override
    public void onWritable(Call c) {
        // Nothing is written before the call is routed.
    }

    @Override
    public void onComplete(Call c, int errorCode) {
        // Only a call that ended before it was routed (or whose router threw) comes here.
        CallHooks.endedUnrouted(rt, c.origin(), meter.opcodeOrNone(), errorCode, meter.end(errorCode, rt.now()));
        rt.tracker.callEnded();
    }
}
