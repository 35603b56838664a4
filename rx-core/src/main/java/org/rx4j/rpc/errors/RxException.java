// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.errors;

import java.io.IOException;
import org.rx4j.rpc.RxEndpoint;

/**
 * A call (or connection) that ended with an Rx abort code instead of a result (see rx-wire-facts.md §6
 * and {@code docs/errors.md}). Negative codes are Rx and rxgen codes ({@link RxCodes}); positive codes
 * belong to the application or a security class.
 *
 * <p>{@link #remote()} tells who decided: {@code true} when the peer sent an ABORT packet with this code,
 * {@code false} when this side raised it (a timeout, a cancel, an XDR marshal/unmarshal failure). A local
 * error on a live call is usually also sent to the peer as an ABORT; that is the caller's job, not this class's.
 *
 * <p>Create instances with {@link #remote(int)} or {@link #local(int, String)}; the constructor is
 * protected so that higher layers may add subclasses (e.g. for timeouts) that keep {@link #code()}.
 */
public class RxException extends IOException {
    /** Serialization version. */
    private static final long serialVersionUID = 1L;

    /** The abort code, never 0. */
    private final int code;
    /** True when the peer sent the ABORT. */
    private final boolean remote;
    /** Why this side raised it (local reasons that share a wire code), or {@link Reason#OTHER}. */
    private final Reason reason;

    /**
     * Why a call failed, for the local reasons that share one wire code (OpenAFS sends RX_INVALID_OPERATION −2 for
     * an unknown service and for a handler failure alike, and rx4j uses −2 or −6 for a closing endpoint): the code
     * on the wire stays what OpenAFS sends, this tells them apart on the side that raised them.
     */
    public enum Reason {
        /** The peer sent the ABORT ({@link RxException#remote()} is true): the wire code is all that is known. */
        PEER,
        /**
         * This endpoint is closing or closed: a new call refused (−2), or a call still running when the grace
         * period of {@link RxEndpoint#close(long)} ended (−6).
         */
        ENDPOINT_CLOSING,
        /**
         * The server is known unreachable: a probe from a UDP socket connected to it got ICMP port unreachable
         * (RX_CALL_DEAD −1 at once instead of after the dead time; docs/embedding.md, "A peer that does not answer").
         */
        PEER_UNREACHABLE,
        /**
         * The server's host is known unreachable: a probe from a UDP socket connected to it got ICMP host unreachable
         * (on the local network: the host does not answer ARP or neighbour discovery; else a router says so).
         * RX_CALL_DEAD (−1) within about the neighbour resolution time (3 s on Linux) instead of after the dead time
         * (docs/embedding.md, "A peer that does not answer").
         */
        HOST_UNREACHABLE,
        /**
         * There is no route to the server: this host's routing table has none (RX_CALL_DEAD −1 at once), or a probe
         * from a UDP socket connected to it got ICMP network unreachable (docs/embedding.md, "A peer that does not
         * answer").
         */
        NO_ROUTE,
        /** A server handler threw an exception that is not an {@link RxException} (−2 on the wire). */
        HANDLER_THREW,
        /**
         * RX_CALL_DEAD (−1) raised on this side: nothing was heard from the server for the dead time (12 s by default)
         * and no probe found its port closed; a host that is down or drops packets, or a deadline-less call to a
         * server that restarted (docs/embedding.md "A peer that does not answer").
         */
        NO_ANSWER,
        /**
         * RX_CALL_DEAD (−1) raised on this side while the server's address sent datagrams that are not Rx (they were
         * counted and dropped): another service, not an Rx server, answers on that port (a wrong port or host).
         */
        NOT_RX,
        /**
         * The server refused the connection: it aborted the whole connection (an ABORT with call number 0), as a
         * security class does when it refuses the handshake (rxkad: RXKADBADTICKET, RXKADEXPIRED, RXKADUNKNOWNKEY,
         * ...). The code is the server's. The call that met the refusal has {@link RxException#remote()} true; a later
         * call on the same connection fails at once on this side with the same code (a pool opens a new connection
         * for it instead).
         */
        REFUSED,
        /**
         * The server does not serve the connection's service id with its security class, and which of the two it
         * was could not be learned: it answered the call with ABORT RX_INVALID_OPERATION (−2) before any security
         * handshake, which a server sends for an unknown service id and for a security class the service does not
         * offer alike (OpenAFS sends the same raw ABORT for both), and the rxnull probe that tells them apart
         * ({@link #UNKNOWN_SERVICE}, {@link #SECURITY_CLASS_NOT_OFFERED}) heard nothing before its deadline. Only on
         * a connection with a security class (rxkad), where no handler runs before the handshake; on an rxnull
         * connection such a probe's silence leaves {@link #PEER}. {@link RxException#remote()} is true.
         */
        SERVICE_NOT_OFFERED,
        /**
         * The server serves no such service id: a call met ABORT RX_INVALID_OPERATION (−2) before anything else on
         * its connection, and probes of the same service id with rxnull and with rxkad met the same raw ABORT
         * (docs/errors.md "Unknown service or class not offered"; a service offering only other classes reads the
         * same). {@link RxException#remote()} is true.
         */
        UNKNOWN_SERVICE,
        /**
         * The server serves the service id, but not with the connection's security class: a call met ABORT
         * RX_INVALID_OPERATION (−2) before anything else on its connection, and the server answered a probe of the
         * same service id with the other class (rxnull for an rxkad connection, rxkad for an rxnull one;
         * docs/errors.md "Unknown service or class not offered"). {@link RxException#remote()} is true.
         */
        SECURITY_CLASS_NOT_OFFERED,
        /**
         * The connection (or its pool) was closed by this side: a new call refused (−2), or a running call aborted by
         * {@code close()} (−6).
         */
        CONNECTION_CLOSED,
        /**
         * A local limit refused a new call: too many calls already wait for a channel of the connection
         * ({@code RxConfig.limits().maxPendingCalls()}), −2.
         */
        LIMIT,
        /** Any other local failure (timeouts, cancels, XDR failures, a closed connection): see the code. */
        OTHER
    }

    /**
     * @param code the abort code, any int except 0 (0 means "no error" on the wire)
     * @param remote true when the peer sent the ABORT
     * @param message the exception message
     * @param cause the underlying failure, or null
     * @throws IllegalArgumentException if code is 0
     */
    protected RxException(int code, boolean remote, String message, Throwable cause) {
        this(code, remote, remote ? Reason.PEER : Reason.OTHER, message, cause);
    }

    /**
     * @param code the abort code, any int except 0
     * @param remote true when the peer sent the ABORT
     * @param reason why this side raised it ({@link Reason#PEER} when remote)
     * @param message the exception message
     * @param cause the underlying failure, or null
     * @throws IllegalArgumentException if code is 0
     */
    protected RxException(int code, boolean remote, Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = java.util.Objects.requireNonNull(reason, "reason");
        if (code == 0) {
            throw new IllegalArgumentException("abort code 0 is not an error");
        }
        this.code = code;
        this.remote = remote;
    }

    /**
     * The peer aborted the call or connection with {@code code}. Message: {@code call aborted by peer:
     * RXGEN_OPCODE (-455)}.
     *
     * @param code the code from the ABORT packet body, non-zero
     * @return a new exception with {@link #remote()} true
     * @throws IllegalArgumentException if code is 0
     */
    public static RxException remote(int code) {
        return new RxException(code, true, "call aborted by peer: " + describe(code), null);
    }

    /**
     * The peer ended the call or connection with {@code code}, for a reason the side that saw it can tell (e.g.
     * {@link Reason#REFUSED}: a connection ABORT). Message: {@code call aborted by peer (refused): RXKADBADTICKET
     * (19270407): <message>: <detail>}.
     *
     * @param code the code from the ABORT packet body, non-zero
     * @param reason why, as far as this side knows ({@link Reason#PEER} gives {@link #remote(int)}'s message)
     * @param detail what happened, for humans; may be null
     * @return a new exception with {@link #remote()} true and {@link #reason()} {@code reason}
     * @throws IllegalArgumentException if code is 0
     */
    public static RxException remote(int code, Reason reason, String detail) {
        return new RxException(code, true, reason, message("call aborted by peer", reason, code, detail), null);
    }

    /**
     * This side ended the call with {@code code}. Message: {@code call aborted locally:
     * RXGEN_SS_UNMARSHAL (-453): <detail>}.
     *
     * @param code the code this side reports (and may send in an ABORT), non-zero
     * @param detail what went wrong, for humans; may be null
     * @return a new exception with {@link #remote()} false
     * @throws IllegalArgumentException if code is 0
     */
    public static RxException local(int code, String detail) {
        return local(code, detail, null);
    }

    /**
     * As {@link #local(int, String)}, keeping the underlying failure.
     *
     * @param code the abort code, non-zero
     * @param detail what went wrong; may be null
     * @param cause the underlying failure; may be null
     * @return a new exception with {@link #remote()} false
     * @throws IllegalArgumentException if code is 0
     */
    public static RxException local(int code, String detail, Throwable cause) {
        return local(code, Reason.OTHER, detail, cause);
    }

    /**
     * This side ended the call with {@code code} for {@code reason}. Message: {@code call aborted locally
     * (endpoint closing): RX_USER_ABORT (-6): <detail>}.
     *
     * @param code the abort code, non-zero
     * @param reason why (not {@link Reason#PEER})
     * @param detail what went wrong; may be null
     * @param cause the underlying failure; may be null
     * @return a new exception with {@link #remote()} false and {@link #reason()} {@code reason}
     * @throws IllegalArgumentException if code is 0 or reason is PEER
     */
    public static RxException local(int code, Reason reason, String detail, Throwable cause) {
        if (reason == Reason.PEER) {
            throw new IllegalArgumentException("a local failure cannot have reason PEER");
        }
        return new RxException(code, false, reason, message("call aborted locally", reason, code, detail), cause);
    }

    /** {@code <who> (<reason>): <code described>: <detail>}, the reason left out when it adds nothing. */
    private static String message(String who, Reason reason, int code, String detail) {
        String message = who;
        if (reason != Reason.OTHER && reason != Reason.PEER) {
            message += " (" + reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ")";
        }
        message += ": " + describe(code);
        if (detail != null && !detail.isEmpty()) {
            message += ": " + detail;
        }
        return message;
    }

    /**
     * @return why the call failed: {@link Reason#PEER} for a remote abort, else the local reason that the wire
     *     code alone does not tell (e.g. {@link Reason#ENDPOINT_CLOSING} for −2 or −6 from a closing endpoint)
     */
    public Reason reason() {
        return reason;
    }

    /** @return the Rx abort code (negative: Rx/rxgen, positive: application or security class), never 0 */
    public int code() {
        return code;
    }

    /**
     * @return the OpenAFS constant name of {@link #code()} (e.g. {@code RXGEN_OPCODE}), the name from a registered
     *     com_err table ({@link RxErrorTables}, e.g. {@code VL_NOENT}), or {@code "error <code>"} for other codes
     */
    public String codeName() {
        return RxErrorTables.name(code);
    }

    /** @return true when the peer sent the ABORT, false when this side raised the error */
    public boolean remote() {
        return remote;
    }

    /**
     * "NAME (code)" for Rx/rxgen codes, "NAME (code): message" for codes of a registered com_err table
     * ({@link RxErrorTables}), "error code" otherwise.
     */
    private static String describe(int code) {
        return RxErrorTables.describe(code);
    }
}
