// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import org.rx4j.rpc.errors.RxException;

/**
 * Sees every server call of an endpoint before its handler runs (docs/embedding.md "Interceptors"; the shape of
 * gRPC-java's server interceptors): the service id, the opcode and procedure name when known, the caller's address
 * and proven identity. It may run code before the handler (here) and after the call (the returned
 * {@link RxCallEnd}), time the call, or refuse it. Registered with {@link RxEndpoint.Builder#serverInterceptor};
 * interceptors run in registration order and their ends in the same order.
 *
 * <p>Runs on the endpoint's event loop once the call is routed (for an {@link RxService}: once its opcode arrived),
 * before a blocking handler is queued for a worker or an async handler is called: it must not block.
 */
@FunctionalInterface
public interface RxServerInterceptor {
    /**
     * @param call what is known about the call
     * @return what to run when the call ends, or null for nothing
     * @throws RxException to refuse the call: it is aborted with {@link RxException#code()} (the ABORT goes to the
     *     caller) and its handler never runs; the ends of the interceptors that admitted it still run
     */
    RxCallEnd intercept(RxCallInfo call) throws RxException;
}
