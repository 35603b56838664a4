// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import org.rx4j.engine.call.Call;
import org.rx4j.engine.ServiceHandler;
import org.rx4j.rpc.RxCallHandler;
import org.rx4j.rpc.RxCallInfo;
import org.rx4j.rpc.RxCallRouter;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.metrics.CallMeter;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.runtime.EndpointRuntime;

/**
 * The engine-facing side of one registered service: told of each new server call on the event loop, it
 * counts the call for graceful close and hands it to an {@link OpcodeReader} (an {@link RxService}) or
 * to a blocking {@link RxCallHandler} (a service without opcode dispatch), first through a {@link PrefixRouter}
 * when the service has an {@link RxCallRouter} that may serve small calls on the loop; blocking handlers run within
 * the service's {@link WorkerShare}. While the endpoint is
 * closing, new calls are aborted with RX_USER_ABORT (−6).
 */
public final class ServiceDispatch implements ServiceHandler {
    private final EndpointRuntime rt;
    private final RxService service;
    private final RxCallHandler whole;
    private final int prefixBytes;
    private final RxCallRouter router;
    private final WorkerShare share;

    /**
     * @param rt the endpoint's shared parts
     * @param service the opcode-dispatched service, or null
     * @param whole the handler of the whole request when {@code service} is null
     */
    public ServiceDispatch(EndpointRuntime rt, RxService service, RxCallHandler whole) {
        this(rt, service, whole, 0, null);
    }

    /**
     * @param rt the endpoint's shared parts
     * @param service the opcode-dispatched service, or null
     * @param whole the handler of the whole request when {@code service} is null
     * @param prefixBytes request bytes {@code router} sees, ≥ 4 (ignored without a router)
     * @param router chooses loop or worker per call for {@code whole}'s service, or null (always the worker)
     */
    public ServiceDispatch(EndpointRuntime rt, RxService service, RxCallHandler whole, int prefixBytes,
                    RxCallRouter router) {
        this.rt = rt;
        this.service = service;
        this.whole = whole;
        this.prefixBytes = prefixBytes;
        this.router = router;
        this.share = new WorkerShare(rt, rt.services, rt.workers.getMaximumPoolSize(), rt.maxQueuedCalls);
    }

    @Override
    public void onNewCall(Call call) {
        rt.tracker.callStarted();
        CallMeter meter = rt.metrics.serverCall(call.origin().serviceId(), rt.now());
        if (rt.closing) {
            call.setListener(new OpcodeReader(rt, service, share, meter));
            CallHooks.refused(rt, call.origin(), ApiAccess.NO_OPCODE, "endpoint closing", RxCodes.RX_USER_ABORT);
            call.abort(rt.now(), RxCodes.RX_USER_ABORT);
            return;
        }
        if (service != null) {
            call.setListener(new OpcodeReader(rt, service, share, meter));
        } else if (router != null) {
            call.setListener(new PrefixRouter(rt, share, whole, prefixBytes, router, meter));
        } else {
            BlockingServerCall.start(rt, share, call, null, whole, ApiAccess.NO_OPCODE, rt.now(), meter);
        }
    }
}
