// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.errors;

import org.rx4j.wire.AbortCodes;

/**
 * The Rx and rxgen abort codes an application sees in {@link RxException#code()} and may send itself (rx-wire-facts.md
 * §6). Each constant is the wire catalog's value ({@code org.rx4j.wire.AbortCodes}, the one catalog), re-exported so
 * that applications need no internal package. Negative codes are Rx and rxgen codes; applications use positive codes.
 */
public final class RxCodes {
    /** Nothing heard from the peer for the dead time. (-1) */
    public static final int RX_CALL_DEAD = AbortCodes.RX_CALL_DEAD;
    /** Unknown service or security index (raw abort), or an operation not allowed. (-2) */
    public static final int RX_INVALID_OPERATION = AbortCodes.RX_INVALID_OPERATION;
    /** Idle dead time or hard dead time exceeded, or a per-call deadline passed. (-3) */
    public static final int RX_CALL_TIMEOUT = AbortCodes.RX_CALL_TIMEOUT;
    /** End of file (unused on the wire). (-4) */
    public static final int RX_EOF = AbortCodes.RX_EOF;
    /** The peer broke the protocol (e.g. an unknown packet type on a call). (-5) */
    public static final int RX_PROTOCOL_ERROR = AbortCodes.RX_PROTOCOL_ERROR;
    /** The application cancelled the call. (-6) */
    public static final int RX_USER_ABORT = AbortCodes.RX_USER_ABORT;
    /** Address in use (local only). (-7) */
    public static final int RX_ADDRINUSE = AbortCodes.RX_ADDRINUSE;
    /** Message too large. (-8) */
    public static final int RX_MSGSIZE = AbortCodes.RX_MSGSIZE;
    /** Historical (removed before OpenAFS 1.8): call idle too long. Older peers may still send it. (-9) */
    public static final int RX_CALL_IDLE = AbortCodes.RX_CALL_IDLE;
    /** Historical (removed before OpenAFS 1.8): channel busy. Older peers may still send it. (-10) */
    public static final int RX_CALL_BUSY = AbortCodes.RX_CALL_BUSY;
    /** Server restarting. (-100) */
    public static final int RX_RESTARTING = AbortCodes.RX_RESTARTING;
    /** rxgen: client could not marshal arguments. (-450) */
    public static final int RXGEN_CC_MARSHAL = AbortCodes.RXGEN_CC_MARSHAL;
    /** rxgen: client could not unmarshal results. (-451) */
    public static final int RXGEN_CC_UNMARSHAL = AbortCodes.RXGEN_CC_UNMARSHAL;
    /** rxgen: server could not marshal results. (-452) */
    public static final int RXGEN_SS_MARSHAL = AbortCodes.RXGEN_SS_MARSHAL;
    /** rxgen: server could not unmarshal arguments. (-453) */
    public static final int RXGEN_SS_UNMARSHAL = AbortCodes.RXGEN_SS_UNMARSHAL;
    /** rxgen: decode error. (-454) */
    public static final int RXGEN_DECODE = AbortCodes.RXGEN_DECODE;
    /** rxgen: unknown opcode. (-455) */
    public static final int RXGEN_OPCODE = AbortCodes.RXGEN_OPCODE;
    /** rxgen: server could not free XDR results. (-456) */
    public static final int RXGEN_SS_XDRFREE = AbortCodes.RXGEN_SS_XDRFREE;
    /** rxgen: client could not free XDR results. (-457) */
    public static final int RXGEN_CC_XDRFREE = AbortCodes.RXGEN_CC_XDRFREE;

    private RxCodes() {
    }

    /**
     * Symbolic name of a code.
     *
     * @param code an abort code
     * @return the OpenAFS constant name (e.g. {@code RXGEN_OPCODE}), or {@code "error <code>"} for application and
     *     unknown codes
     */
    public static String name(int code) {
        return AbortCodes.name(code);
    }
}
