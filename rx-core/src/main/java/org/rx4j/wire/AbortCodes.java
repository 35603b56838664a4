// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * The Rx and rxgen error codes carried in ABORT packets and surfaced to applications
 * (src/rx/rx.h and src/rxgen/rxgen_consts.h facts, see rx-wire-facts.md §6). Applications use positive codes.
 */
public final class AbortCodes {
    /** Nothing heard from the peer for the dead time. */
    public static final int RX_CALL_DEAD = -1;
    /** Unknown service or security index (raw abort), or an operation not allowed. */
    public static final int RX_INVALID_OPERATION = -2;
    /** Idle dead time or hard dead time exceeded, or a per-call deadline passed. */
    public static final int RX_CALL_TIMEOUT = -3;
    /** End of file (unused on the wire). */
    public static final int RX_EOF = -4;
    /** The peer broke the protocol (e.g. an unknown packet type on a call). */
    public static final int RX_PROTOCOL_ERROR = -5;
    /** The application cancelled the call. */
    public static final int RX_USER_ABORT = -6;
    /** Address in use (local only). */
    public static final int RX_ADDRINUSE = -7;
    /** Message too large. */
    public static final int RX_MSGSIZE = -8;
    /** Historical (removed before OpenAFS 1.8): call idle too long. Older peers may still send it. */
    public static final int RX_CALL_IDLE = -9;
    /** Historical (removed before OpenAFS 1.8): channel busy. Older peers may still send it. */
    public static final int RX_CALL_BUSY = -10;
    /** Server restarting. */
    public static final int RX_RESTARTING = -100;
    /** rxgen: client could not marshal arguments. */
    public static final int RXGEN_CC_MARSHAL = -450;
    /** rxgen: client could not unmarshal results. */
    public static final int RXGEN_CC_UNMARSHAL = -451;
    /** rxgen: server could not marshal results. */
    public static final int RXGEN_SS_MARSHAL = -452;
    /** rxgen: server could not unmarshal arguments. */
    public static final int RXGEN_SS_UNMARSHAL = -453;
    /** rxgen: decode error. */
    public static final int RXGEN_DECODE = -454;
    /** rxgen: unknown opcode. */
    public static final int RXGEN_OPCODE = -455;
    /** rxgen: server could not free XDR results. */
    public static final int RXGEN_SS_XDRFREE = -456;
    /** rxgen: client could not free XDR results. */
    public static final int RXGEN_CC_XDRFREE = -457;

    private AbortCodes() {
    }

    /**
     * Symbolic name of a code.
     *
     * @param code an abort code
     * @return the OpenAFS constant name, or {@code "error <code>"} for application and unknown codes
     */
    public static String name(int code) {
        return switch (code) {
            case RX_CALL_DEAD -> "RX_CALL_DEAD";
            case RX_INVALID_OPERATION -> "RX_INVALID_OPERATION";
            case RX_CALL_TIMEOUT -> "RX_CALL_TIMEOUT";
            case RX_EOF -> "RX_EOF";
            case RX_PROTOCOL_ERROR -> "RX_PROTOCOL_ERROR";
            case RX_USER_ABORT -> "RX_USER_ABORT";
            case RX_ADDRINUSE -> "RX_ADDRINUSE";
            case RX_MSGSIZE -> "RX_MSGSIZE";
            case RX_CALL_IDLE -> "RX_CALL_IDLE";
            case RX_CALL_BUSY -> "RX_CALL_BUSY";
            case RX_RESTARTING -> "RX_RESTARTING";
            case RXGEN_CC_MARSHAL -> "RXGEN_CC_MARSHAL";
            case RXGEN_CC_UNMARSHAL -> "RXGEN_CC_UNMARSHAL";
            case RXGEN_SS_MARSHAL -> "RXGEN_SS_MARSHAL";
            case RXGEN_SS_UNMARSHAL -> "RXGEN_SS_UNMARSHAL";
            case RXGEN_DECODE -> "RXGEN_DECODE";
            case RXGEN_OPCODE -> "RXGEN_OPCODE";
            case RXGEN_SS_XDRFREE -> "RXGEN_SS_XDRFREE";
            case RXGEN_CC_XDRFREE -> "RXGEN_CC_XDRFREE";
            default -> "error " + code;
        };
    }
}
