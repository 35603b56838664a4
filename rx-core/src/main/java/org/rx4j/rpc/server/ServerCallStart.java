// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import io.netty.buffer.ByteBuf;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallOrigin;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.metrics.CallMeter;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.stream.CallStreams;

/**
 * The start every stream-served server call shares, blocking ({@link BlockingServerCall}) or async
 * ({@link AsyncStreamServerCall}): the call's streams attached as its listener, the server interceptors' admission,
 * and the application's {@link RxCall}. Event loop only.
 */
final class ServerCallStart {
    private ServerCallStart() {
    }

    /**
     * Opens the streams of a new server call and asks the interceptors to admit it.
     *
     * @param rt the endpoint's shared parts
     * @param call the new server call
     * @param preload request bytes the loop already took from the call (after the opcode), or null; ownership passes
     *     to the streams
     * @param opcodeOrNone the request's opcode for the interceptors, or {@code RxCallInfo.NO_OPCODE}
     * @param now current time, ns
     * @param meter times the call; the streams end it
     * @return the application's call (its streams: {@code ApiAccess.api().streams(call)}), or null when an
     *     interceptor refused it: the call is then aborted with the interceptor's code and its streams released
     */
    static RxCall open(EndpointRuntime rt, Call call, ByteBuf preload, long opcodeOrNone, long now, CallMeter meter) {
        CallStreams streams = new CallStreams(rt, true);
        // What the handler's calls inherit, until it sets a deadline of its own.
        ApiAccess.api().hardDeadTimeEnd(streams.context(), call.hardDeadTimeEnd());
        streams.meter(meter);
        streams.attach(call);
        rt.tracker.opened(streams);
        if (preload != null) {
            streams.preload(preload);
        }
        call.setListener(streams);
        CallOrigin origin = call.origin();
        CallHooks hooks = CallHooks.server(rt, origin, opcodeOrNone, streams.context());
        if (hooks != null) {
            streams.hooks(hooks);
            int refused = hooks.admit();
            if (refused != 0) { // an interceptor refused it: the handler never runs
                call.abort(now, refused);
                streams.release();
                return null;
            }
        }
        return ApiAccess.api().newCall(streams, true, origin.peer(), ApiAccess.api().connectionId(origin),
                origin.identity());
    }
}
