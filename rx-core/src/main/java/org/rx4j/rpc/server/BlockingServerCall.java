// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import org.rx4j.engine.call.Call;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallHandler;
import org.rx4j.rpc.RxCallInfo;
import org.rx4j.rpc.RxConnectionId;
import org.rx4j.rpc.RxContext;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.metrics.CallMeter;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.stream.CallStreams;
import org.rx4j.rpc.stream.CallTracker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a blocking server handler for one call: streams on the loop side, the handler on the worker pool within
 * its service's {@link WorkerShare} (rx-wire-facts.md §7: when the service's share of the workers is busy calls
 * queue up to a limit, beyond which the call is aborted with the endpoint's busy code, as OpenAFS's busy
 * threshold does).
 */
final class BlockingServerCall {
    private static final Logger log = LoggerFactory.getLogger(BlockingServerCall.class);

    private BlockingServerCall() {
    }

    /**
     * Attaches streams to {@code call} and queues {@code body} on the worker pool. Loop only. The call must
     * already be counted in the tracker ({@link CallTracker#callStarted()}); the streams end that count.
     *
     * @param rt the endpoint's shared parts
     * @param share the service's share of the worker pool; past it the call waits there, and past its queue the
     *     call is aborted with the busy code
     * @param call the new server call
     * @param preload request bytes the loop already took from the call (after the opcode), or null;
     *     ownership passes to the streams
     * @param body the handler
     * @param opcodeOrNone the request's opcode for the interceptors, or {@link RxCallInfo#NO_OPCODE}
     * @param now current time, ns (the engine event's, or the loop's clock)
     * @param meter times the call; the streams end it
     */
    static void start(EndpointRuntime rt, WorkerShare share, Call call, ByteBuf preload, RxCallHandler body,
            long opcodeOrNone, long now, CallMeter meter) {
        RxCall rxCall = ServerCallStart.open(rt, call, preload, opcodeOrNone, now, meter);
        if (rxCall == null) {
            return;
        }
        CallStreams streams = ApiAccess.api().streams(rxCall);
        rt.tracker.handlerQueued();
        try {
            share.submit(new WorkerShare.Task() {
                @Override
                public void run() {
                    BlockingServerCall.run(rt, rxCall, body);
                }

                @Override
                public void reject() {
                    // On a worker thread: the call and its streams belong to the loop.
                    if (!rt.onLoop(engine -> refuse(rt, call, streams, opcodeOrNone))) {
                        rt.tracker.handlerDone(); // the endpoint closed: every call has ended already
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            refuse(rt, call, streams, opcodeOrNone);
            return;
        }
        if (call.isReadComplete()) {
            streams.onReadComplete(call, now); // the request ended within what the router took
        }
        // Else the engine hands the streams the rest of the request and its end, from the event that started the call.
    }

    /** Loop side: no worker will run this call's handler; it ends with the endpoint's busy code. */
    private static void refuse(EndpointRuntime rt, Call call, CallStreams streams, long opcodeOrNone) {
        rt.tracker.handlerDone();
        CallHooks.refused(rt, call.origin(), opcodeOrNone, "the service's workers and queue are full",
                rt.busyAbortCode);
        call.abort(rt.now(), rt.busyAbortCode);
        streams.release();
    }

    /** Worker side: runs the handler, ends the reply or aborts, and releases the streams once the call ends. */
    private static void run(EndpointRuntime rt, RxCall call, RxCallHandler body) {
        // Current while the handler runs: the calls it makes inherit its deadline and end (RxContext).
        RxContext previous = ApiAccess.api().enter(ApiAccess.api().ofServerCall(call.context(), rt::now, rt::callback));
        try {
            body.handle(call);
            call.output().close();
        } catch (RxException e) {
            // A no-op when the peer already aborted this call; otherwise (also for a remote abort of some other
            // call the handler made) this call ends with the code.
            call.abort(e.code());
        } catch (IOException e) {
            call.abort(RxCodes.RX_CALL_DEAD);
        } catch (Exception e) {
            if (call.context().isCancelled()) {
                // Expected: the handler gave up once its call was cancelled (e.g. interrupted by the close)
                log.debug("service handler on {} from {} ended with {} after its call was cancelled ({})",
                        call.connectionId(), call.peer(), e.toString(), call.context().cancelCode());
                return; // the call has ended already: nothing to abort
            }
            log.warn("service handler failed on {} from {}", call.connectionId(), call.peer(), e);
            ApiAccess.api().abort(call, RxCodes.RX_INVALID_OPERATION, RxException.Reason.HANDLER_THREW);
        } catch (Error e) {
            ApiAccess.api().abort(call, RxCodes.RX_INVALID_OPERATION, RxException.Reason.HANDLER_THREW);
            throw e;
        } finally {
            ApiAccess.api().restore(previous);
            rt.tracker.handlerDone();
            call.completion().whenComplete((v, t) -> ApiAccess.api().streams(call).release());
        }
    }
}
