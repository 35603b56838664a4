// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.util.concurrent.CompletionStage;
import org.rx4j.rpc.errors.RxException;

/**
 * Non-blocking handler of one opcode of an {@link RxService} whose data is streamed (rxgen's split procs: arguments,
 * bulk data, results), without a thread per call: it gets the call's {@link RxAsyncStreams} positioned after the
 * opcode, receives and sends on them, and completes a stage when its side is done.
 *
 * <p>Threading: {@link #handle} runs <b>on the connection's event loop</b>, as do the streams' signals: it must not
 * block (see {@link RxAsyncHandler}). The stage may complete on any thread.
 *
 * <p>Ending: when the stage completes normally the reply ends (LAST_PACKET) after every send made before; when it
 * completes exceptionally, or {@code handle} throws, the call is aborted as {@link RxAsyncHandler} says (an
 * {@link RxException} with its code, a cancellation with RX_USER_ABORT −6, anything else with RX_INVALID_OPERATION
 * −2). The handler sees the call end early (the client's cancel or deadline, a dead peer, the endpoint's close)
 * through {@link RxCall#context()}, failing receives and sends, and a sent publisher's cancelled subscription.
 */
@FunctionalInterface
public interface RxStreamHandler {
    /**
     * @param streams the call's streams after the opcode; {@link RxAsyncStreams#call()} gives the caller's address,
     *     identity and cancellation context
     * @param opcode the request's opcode
     * @return a stage completed once this side's data was sent (its value is ignored)
     * @throws Exception to abort the call
     */
    CompletionStage<?> handle(RxAsyncStreams streams, int opcode) throws Exception;
}
