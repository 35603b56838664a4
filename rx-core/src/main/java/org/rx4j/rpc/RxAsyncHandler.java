// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.util.concurrent.CompletionStage;
import org.rx4j.rpc.errors.RxException;

/**
 * Non-blocking handler of one opcode of an {@link RxService}, for small request/response operations that
 * need no thread: it gets the whole request at once and completes a stage with the whole reply.
 *
 * <p>Threading: {@link #handle} runs <b>on the connection's event loop</b>, which also carries every other
 * call of the endpoint: it must not block, sleep or do long work (hand that to an executor and complete the
 * stage from there). The stage may complete on any thread; the reply is then written on the event loop.
 *
 * <p>Errors: a stage completed exceptionally, or an exception thrown by {@code handle}, aborts the call:
 * an {@link RxException} with its code (use {@link RxException#local} with the application's code), a
 * {@link java.util.concurrent.CancellationException} with RX_USER_ABORT (−6), anything else with
 * RX_INVALID_OPERATION (−2). A request larger than {@link RxEndpoint.Builder#maxMessageBytes} is aborted with
 * RX_MSGSIZE (−8) before the handler runs.
 */
@FunctionalInterface
public interface RxAsyncHandler {
    /**
     * @param request the opcode, the arguments (the request after the opcode) and the caller's identity
     * @return a stage completed with the reply bytes (the results; may be empty, not null); the bytes are
     *     sent as they are and must not change afterwards
     * @throws Exception to abort the call
     */
    CompletionStage<byte[]> handle(RxRequest request) throws Exception;
}
