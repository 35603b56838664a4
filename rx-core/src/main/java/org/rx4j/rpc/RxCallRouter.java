// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import org.rx4j.rpc.errors.RxException;

/**
 * Chooses, from the first bytes of a request, whether a call of a whole-stream service (one built with
 * {@link RxService.Builder#wholeStream(RxCallHandler, int, RxCallRouter)}) is served on the event loop by
 * an {@link RxAsyncHandler} or, as usual, by the service's blocking {@link RxCallHandler} on the worker pool. A
 * small request/response call routed to the loop is answered without a thread hand-off (rxperf's small rpc
 * calls); a streaming one (a large transfer) keeps its worker thread and its flow control.
 *
 * <p>Threading: runs <b>on the event loop</b>, once per call: it must not block and should only look at the
 * bytes it is given.
 *
 * <p>An async handler chosen here gets the whole request gathered in memory (up to
 * {@link RxEndpoint.Builder#maxMessageBytes}, else the call is aborted with RX_MSGSIZE −8), as an
 * {@link RxRequest} whose opcode is the request's first 4 bytes (big-endian) and whose arguments are the rest;
 * choose it only for requests known from the prefix to be small. A request shorter than 4 bytes always goes to
 * the blocking handler without asking the router. Errors: an exception thrown here aborts the call with
 * RX_INVALID_OPERATION (−2) (or an {@link RxException}'s code).
 */
@FunctionalInterface
public interface RxCallRouter {
    /**
     * @param prefix the request's first bytes: {@code length} bytes from index 0 (read-only, only valid during
     *     this call)
     * @param length bytes in {@code prefix}: the registered prefix size, or fewer (≥ 4) when the whole request is
     *     shorter
     * @param wholeRequest whether {@code prefix} holds the whole request (the client has finished sending)
     * @return the handler to serve this call on the event loop, or null for the service's blocking handler
     * @throws Exception to abort the call
     */
    RxAsyncHandler route(byte[] prefix, int length, boolean wholeRequest) throws Exception;
}
