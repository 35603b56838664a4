// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import io.netty.buffer.ByteBuf;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.rpc.RxCallInfo;
import org.rx4j.rpc.RxAsyncHandler;
import org.rx4j.rpc.RxStreamHandler;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.RxOpcodeHandler;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.metrics.CallMeter;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.runtime.EndpointRuntime;

/**
 * The first listener of a server call of an {@link RxService}: on the event loop, takes the 4-byte
 * big-endian opcode from the start of the request (rxgen's convention, rx-wire-facts.md §6) and hands the
 * call to the opcode's handler: a blocking one through {@link BlockingServerCall}, a non-blocking one through
 * {@link AsyncServerCall}, a streaming one through {@link AsyncStreamServerCall}. An unknown opcode aborts the call with RXGEN_OPCODE (−455); a request that ends
 * before 4 bytes with RXGEN_DECODE (−454). The opcode may arrive split over several packets.
 */
final class OpcodeReader implements CallListener {
    private final EndpointRuntime rt;
    private final RxService service;
    private final WorkerShare share;
    private final RequestPrefix opcodeBytes = new RequestPrefix(4);
    private final CallMeter meter;
    private boolean routed;

    /**
     * @param rt the endpoint's shared parts
     * @param service the service whose opcodes route the call
     * @param share the service's share of the worker pool, for blocking handlers
     * @param meter times the call; the listener that sees the call end ends it
     */
    OpcodeReader(EndpointRuntime rt, RxService service, WorkerShare share, CallMeter meter) {
        this.rt = rt;
        this.meter = meter;
        this.service = service;
        this.share = share;
    }

    @Override
    public void onData(Call c, ByteBuf b, long now) {
        if (routed || c.isDone()) {
            b.release();
            return;
        }
        ByteBuf rest = opcodeBytes.offer(b);
        if (!opcodeBytes.isFull()) {
            return;
        }
        routed = true;
        int opcode = opcodeBytes.opcode();
        meter.opcode(opcode);
        RxOpcodeHandler blocking = ApiAccess.api().blockingRoute(service, opcode);
        RxAsyncHandler async = blocking == null ? ApiAccess.api().asyncRoute(service, opcode) : null;
        RxStreamHandler stream = blocking == null && async == null ? ApiAccess.api().streamRoute(service, opcode)
                : null;
        if (blocking == null && async == null && stream == null) {
            if (rest != null) {
                rest.release();
            }
            if (rt.callLog.isTraceEnabled()) {
                CallHooks.refused(rt, c.origin(), opcode, "no handler for opcode " + opcode, RxCodes.RXGEN_OPCODE);
            }
            c.abort(now, RxCodes.RXGEN_OPCODE);
        } else if (blocking != null) {
            RxOpcodeHandler h = blocking;
            BlockingServerCall.start(rt, share, c, rest, call -> h.handle(call, opcode), opcode, now, meter);
        } else if (stream != null) {
            AsyncStreamServerCall.start(rt, c, opcode, rest, stream, now, meter);
        } else {
            AsyncServerCall.start(rt, c, opcode, rest, async, now, meter);
        }
    }

    @Override
    public void onReadComplete(Call c, long now) {
        if (!routed && !c.isDone()) { // the whole request is shorter than an opcode
            CallHooks.refused(rt, c.origin(), ApiAccess.NO_OPCODE, "request shorter than an opcode",
                    RxCodes.RXGEN_DECODE);
            c.abort(now, RxCodes.RXGEN_DECODE);
        }
    }

    @Override
    public void onWritable(Call c) {
        // Nothing is written before the opcode is known.
    }

    @Override
    public void onComplete(Call c, int errorCode) {
        // Only a call that ended before it was handed to its handler's listener comes here.
        CallHooks.endedUnrouted(rt, c.origin(), meter.opcodeOrNone(), errorCode, meter.end(errorCode, rt.now()));
        rt.tracker.callEnded();
    }
}
