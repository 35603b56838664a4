// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.transport;

import java.io.IOException;
import org.rx4j.rpc.errors.RxCodes;

/**
 * A call ended with an Rx abort code instead of completing: the peer sent an ABORT, or the transport gave up on
 * the call locally (for example RX_CALL_DEAD, −1, when nothing was heard from the peer for the dead time).
 * Thrown by the streams and methods of {@link PerfCall}, and by a server's request stream when the client aborted.
 * Codes are those of rx-wire-facts.md §6 (negative: Rx and rxgen; positive: the application's own).
 */
public class PerfCallException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int code;
    private final Kind kind;

    /** Who ended the call and how, for the codes that mean different things (rxperf's exit codes). */
    public enum Kind {
        /** The peer sent an ABORT with the code. */
        ABORTED_BY_PEER,
        /**
         * The server's port answered with ICMP port unreachable (nothing listens there): RX_CALL_DEAD at once rather
         * than after the dead time.
         */
        PORT_UNREACHABLE,
        /**
         * The server's host answered with ICMP host unreachable (on the local network: it does not answer ARP or
         * neighbour discovery): RX_CALL_DEAD within seconds rather than after the dead time.
         */
        HOST_UNREACHABLE,
        /** No route leads to the server (routing table, or ICMP network unreachable): RX_CALL_DEAD at once. */
        NO_ROUTE,
        /** Nothing was heard from the server for the dead time (RX_CALL_DEAD raised on this side). */
        NO_ANSWER,
        /** Any other failure raised on this side, or not known. */
        OTHER
    }

    /**
     * Creates the exception with the standard message {@code call aborted with code N (NAME)}.
     *
     * @param code the abort code carried by the ABORT packet or set locally
     */
    public PerfCallException(int code) {
        this(code, "call aborted with code " + code + " (" + RxCodes.name(code) + ")");
    }

    /**
     * Creates the exception with a specific message.
     *
     * @param code the abort code
     * @param message a one-line description for the user
     */
    public PerfCallException(int code, String message) {
        this(code, message, Kind.OTHER);
    }

    /**
     * Creates the exception with a specific message and what ended the call.
     *
     * @param code the abort code
     * @param message a one-line description for the user
     * @param kind who ended the call and how
     */
    public PerfCallException(int code, String message, Kind kind) {
        super(message);
        this.code = code;
        this.kind = java.util.Objects.requireNonNull(kind, "kind");
    }

    /**
     * Who ended the call and how.
     *
     * @return the kind; {@link Kind#OTHER} when the transport did not say
     */
    public Kind kind() {
        return kind;
    }

    /**
     * The abort code of the call.
     *
     * @return the code (rx-wire-facts.md §6), e.g. −1 for RX_CALL_DEAD or rxperf's protocol rejection
     */
    public int code() {
        return code;
    }
}
