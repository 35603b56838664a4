// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import org.rx4j.rpc.errors.RxException;

/**
 * Blocking handler of one opcode of an {@link RxService} (rxgen's convention: a request starts with a 4-byte
 * big-endian opcode, rx-wire-facts.md §6). The opcode has been read already: {@link RxCall#input()} starts
 * with the arguments.
 *
 * <p>Threading: runs on the endpoint's worker pool ({@link RxEndpoint.Builder#workers}), never on an event
 * loop, so it may block, stream bulk data and take its time. Writes the results to {@link RxCall#output()};
 * returning closes the output (LAST_PACKET). Errors as for {@link RxCallHandler}: an {@link RxException} aborts
 * with its code (XDR failures carry RXGEN_SS_UNMARSHAL −453 / RXGEN_SS_MARSHAL −452), another
 * {@link java.io.IOException} with RX_CALL_DEAD (−1), anything else with RX_INVALID_OPERATION (−2).
 */
@FunctionalInterface
public interface RxOpcodeHandler {
    /**
     * @param call the server call: streams, caller address ({@link RxCall#peer()}) and connection identity
     *     ({@link RxCall#connectionId()}); valid until this method returns
     * @param opcode the request's opcode (signed 32-bit, as rxgen reads it)
     * @throws Exception to abort the call (RxException: its code)
     */
    void handle(RxCall call, int opcode) throws Exception;
}
