// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import org.rx4j.rpc.errors.RxException;

/**
 * Serves one incoming call of a service without opcode dispatch
 * ({@link RxService.Builder#wholeStream(RxCallHandler)}): the handler sees
 * the whole request stream, opcode included if there is one.
 *
 * <p>Threading: runs on the endpoint's worker pool, never on an event loop, so it may block. Reads the
 * request from {@link RxCall#input()}, writes the reply to {@link RxCall#output()}; returning closes the
 * output (LAST_PACKET). Throwing {@link RxException} aborts the call with its code; an
 * {@link java.io.IOException} that is not an RxException (e.g. an interrupt) aborts it with RX_CALL_DEAD (−1);
 * any other exception with RX_INVALID_OPERATION (−2). As rxgen servers do, applications should throw
 * RxException with their own (positive) code.
 */
@FunctionalInterface
public interface RxCallHandler {
    /**
     * @param call the server call; valid until this method returns
     * @throws Exception to abort the call (RxException: its code)
     */
    void handle(RxCall call) throws Exception;
}
