// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import org.rx4j.rpc.errors.RxException;

/**
 * Sees every client call an endpoint starts (docs/embedding.md "Interceptors"; the shape of gRPC-java's client
 * interceptors): the service id, the opcode when the call form knows it (the typed
 * {@link RxCallTarget#call(int, org.rx4j.rpc.xdr.XdrMarshaller, org.rx4j.rpc.xdr.XdrUnmarshaller)} and
 * {@code callAsync} forms, and {@link RxConnection#newCall(RxCallOptions)} with an opcode in its options, which
 * generated split procs use), the procedure
 * name given by {@link RxEndpoint.Builder#procNames}, the server's address and the connection's security index. It may run code before the call (here) and after it (the returned
 * {@link RxCallEnd}), time it, or fail it before anything is sent. Registered with
 * {@link RxEndpoint.Builder#clientInterceptor}; interceptors run in registration order.
 *
 * <p>Runs on the thread that starts the call, before the call reaches the event loop.
 */
@FunctionalInterface
public interface RxClientInterceptor {
    /**
     * @param call what is known about the call
     * @return what to run when the call ends, or null for nothing
     * @throws RxException to fail the call: the caller gets this exception ({@code newCall} and {@code call} throw
     *     it, a {@code callAsync} future fails with it) and nothing is sent; the ends of the interceptors that
     *     admitted it still run
     */
    RxCallEnd intercept(RxCallInfo call) throws RxException;
}
