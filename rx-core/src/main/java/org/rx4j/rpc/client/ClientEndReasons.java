// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import org.rx4j.counters.RxCounter;
import org.rx4j.engine.connection.Connection;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.wire.PacketType;

/**
 * Why a client call ended, or could not start, beyond its Rx code, from what the engine knows of the call's
 * connection (docs/errors.md "Local reasons"): a connection the server aborted as a whole (its security class refused
 * the handshake) is {@link RxException.Reason#REFUSED} and keeps the server's code; the server's −2 before any
 * CHALLENGE on a connection with a security class, or on an rxnull connection that has heard nothing but ABORTs, is
 * {@link RxException.Reason#SERVICE_NOT_OFFERED} until a {@link ServiceProbe} says more ({@link Lookup#refine}); a local
 * RX_CALL_DEAD with no ICMP
 * verdict is {@link RxException.Reason#NOT_RX} when datagrams that are not Rx came from the server's address, else
 * {@link RxException.Reason#NO_ANSWER}; a call refused because the connection was closed is
 * {@link RxException.Reason#CONNECTION_CLOSED}, because too many calls wait for a channel
 * {@link RxException.Reason#LIMIT}. Event loop only (the engine's connection state is loop-confined).
 */
public final class ClientEndReasons {
    /** A connection's reason lookup, as a call's streams and async calls ask it when the call ends. Loop only. */
    @FunctionalInterface
    public interface Lookup {
        /**
         * @param code the call's non-zero end code
         * @param remote true when the peer's ABORT ended the call
         * @return the reason, or null when the connection adds nothing (the caller's own reason applies)
         */
        RxException.Reason of(int code, boolean remote);

        /**
         * Hands {@code then} the reason to report, after learning more where the connection can: a
         * {@link RxException.Reason#SERVICE_NOT_OFFERED} becomes {@link RxException.Reason#UNKNOWN_SERVICE} or
         * {@link RxException.Reason#SECURITY_CLASS_NOT_OFFERED} once a {@link ServiceProbe} has answered (later, on
         * the loop); any other reason is handed on at once. Loop only.
         *
         * @param reason what {@link #of} said, or null
         * @param then takes the reason to report
         */
        default void refine(RxException.Reason reason, java.util.function.Consumer<RxException.Reason> then) {
            then.accept(reason);
        }
    }

    private ClientEndReasons() {
    }

    /**
     * @param c the call's engine connection
     * @param code the call's non-zero end code
     * @param remote true when the peer's ABORT ended the call
     * @return the reason, or null when the connection adds nothing
     */
    public static RxException.Reason ended(Connection c, int code, boolean remote) {
        if (c.abortCode() == code && c.abortedByPeer()) {
            return RxException.Reason.REFUSED;
        }
        if (remote && code == RxCodes.RX_INVALID_OPERATION
                && (c.securityIndex() != 0 ? !c.challenged() : onlyAbortsHeard(c))) {
            // No handler runs before a handshake: there this −2 is the server's refusal of the service or the class.
            // On rxnull a handler's −2 looks the same: the probe tells (ServiceProbe), else it is the peer's.
            return RxException.Reason.SERVICE_NOT_OFFERED;
        }
        if (remote || code != RxCodes.RX_CALL_DEAD) {
            return null;
        }
        // Garbage from the server's address: something else listens there (docs/errors.md "Local reasons").
        return c.peer().notRxDatagrams() > 0 ? RxException.Reason.NOT_RX : RxException.Reason.NO_ANSWER;
    }

    /** @return true when the server has sent nothing on {@code c} but ABORTs (a raw ABORT's connection) */
    private static boolean onlyAbortsHeard(Connection c) {
        return c.counters().get(RxCounter.PACKETS_RECEIVED, PacketType.ABORT) > 0 && !heardMoreThanAborts(c);
    }

    /**
     * @param c a connection
     * @return true when the server sent something other than an ABORT on {@code c} (a DATA packet, an ACK, a
     *     CHALLENGE, ...), or challenged it
     */
    static boolean heardMoreThanAborts(Connection c) {
        return c.challenged() || c.counters().get(RxCounter.DATA_PACKETS_RECEIVED) > 0
                || c.counters().get(RxCounter.PACKETS_RECEIVED)
                        > c.counters().get(RxCounter.PACKETS_RECEIVED, PacketType.ABORT);
    }

    /**
     * @param reason a reason {@link #ended} gave, or null
     * @return true for a reason of the server's own ABORT ({@link RxException.Reason#REFUSED},
     *     {@link RxException.Reason#SERVICE_NOT_OFFERED}, {@link RxException.Reason#UNKNOWN_SERVICE},
     *     {@link RxException.Reason#SECURITY_CLASS_NOT_OFFERED}): a remote end keeps it instead of
     *     {@link RxException.Reason#PEER}
     */
    public static boolean isRemote(RxException.Reason reason) {
        return reason == RxException.Reason.REFUSED || reason == RxException.Reason.SERVICE_NOT_OFFERED
                || reason == RxException.Reason.UNKNOWN_SERVICE || reason == RxException.Reason.SECURITY_CLASS_NOT_OFFERED;
    }

    /**
     * @param code the server's abort code
     * @param reason what {@link #ended} said, or null
     * @return the exception of a call the server's ABORT ended
     */
    public static RxException remote(int code, RxException.Reason reason) {
        if (reason == RxException.Reason.REFUSED) {
            return RxException.remote(code, reason, "the server refused the connection");
        }
        if (reason != null && isRemote(reason)) {
            return RxException.remote(code, reason, detail(reason));
        }
        return RxException.remote(code);
    }

    /**
     * @param reason a reason {@link #ended} gave
     * @return what it means, for the exception's message, or null when the reason says enough
     */
    public static String detail(RxException.Reason reason) {
        return switch (reason) {
            case SERVICE_NOT_OFFERED -> "the server does not offer this service with this security class"
                    + " (unknown service id, or a class the service does not accept; a probe heard nothing)";
            case UNKNOWN_SERVICE -> "the server serves no such service id (refused with rxnull and with rxkad alike)";
            case SECURITY_CLASS_NOT_OFFERED -> "the server serves this service id, but not with this security class"
                    + " (it answered a probe with the other class)";
            case NO_ANSWER -> "nothing heard from the server for the dead time";
            case NOT_RX -> "the server's address answered with datagrams that are not Rx (another service there?)";
            default -> null;
        };
    }

    /**
     * Why a call could not start: the code and reason it fails with, and the detail for its message.
     *
     * @param code the non-zero code
     * @param reason the local reason
     * @param detail what happened, for humans
     */
    public record Refusal(int code, RxException.Reason reason, String detail) {
        /** @return the local exception saying so */
        RxException exception() {
            return RxException.local(code, reason, detail, null);
        }
    }

    /**
     * Why the engine would not start a call on {@code c} ({@code RxEngine.newCall} threw).
     *
     * @param c the engine connection the call was to start on
     * @param e what the engine threw (IllegalStateException)
     * @return the server's code with {@link RxException.Reason#REFUSED} for a connection the server aborted; else
     *     RX_INVALID_OPERATION (−2) with {@link RxException.Reason#CONNECTION_CLOSED} for a closed connection,
     *     {@link RxException.Reason#LIMIT} for too many waiting calls
     */
    public static Refusal startRefused(Connection c, RuntimeException e) {
        int code = c.abortCode();
        if (code != 0) {
            return c.abortedByPeer()
                    ? new Refusal(code, RxException.Reason.REFUSED,
                            "the server refused this connection earlier (open a new one)")
                    : new Refusal(code, RxException.Reason.OTHER, "this side aborted the connection earlier");
        }
        if (c.isClosed()) {
            return new Refusal(RxCodes.RX_INVALID_OPERATION, RxException.Reason.CONNECTION_CLOSED, "connection closed");
        }
        return new Refusal(RxCodes.RX_INVALID_OPERATION, RxException.Reason.LIMIT, e.getMessage());
    }
}
