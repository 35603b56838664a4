// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * Rx packet type codes carried in header byte 20 (see rx-wire-facts.md §2).
 *
 * <p>Types are plain {@code int}s rather than an enum because a datagram may carry any byte value:
 * an unknown type still decodes (as a {@link ControlPacket}) so that the engine can answer it with
 * RX_PROTOCOL_ERROR as OpenAFS does.
 */
public final class PacketType {
    /** DATA: a slice of a call's request or reply stream. */
    public static final int DATA = 1;
    /** ACK: hard/soft acknowledgement, PING and PING_RESPONSE (§3). */
    public static final int ACK = 2;
    /** BUSY: server tells the client its channel is busy (no body). */
    public static final int BUSY = 3;
    /** ABORT: int32 error code; callNumber 0 aborts the whole connection. */
    public static final int ABORT = 4;
    /** ACKALL: everything in the transmit queue counts as acknowledged (no body). */
    public static final int ACKALL = 5;
    /** CHALLENGE: security-class challenge from server to client (callNumber 0). */
    public static final int CHALLENGE = 6;
    /** RESPONSE: security-class response from client to server (callNumber 0). */
    public static final int RESPONSE = 7;
    /** DEBUG: connectionless rxdebug request or reply (§9). */
    public static final int DEBUG = 8;
    /** PARAMS (three variants, 9..11): ignored by every current implementation. */
    public static final int PARAMS = 9;
    /** VERSION: connectionless version request (1 byte) or reply (65 bytes) (§9). */
    public static final int VERSION = 13;

    private PacketType() {
    }

    /**
     * Human-readable name of a type code, for logs and {@code rxperf -D}.
     *
     * @param type the header's type byte, 0..255
     * @return the OpenAFS name ("DATA", "ACK", ...) or {@code "type<N>"} for an unknown code
     */
    public static String name(int type) {
        return switch (type) {
            case DATA -> "DATA";
            case ACK -> "ACK";
            case BUSY -> "BUSY";
            case ABORT -> "ABORT";
            case ACKALL -> "ACKALL";
            case CHALLENGE -> "CHALLENGE";
            case RESPONSE -> "RESPONSE";
            case DEBUG -> "DEBUG";
            case 9, 10, 11 -> "PARAMS";
            case VERSION -> "VERSION";
            default -> "type" + type;
        };
    }

    /**
     * Whether a type code is one rx4j understands (1..11 and 13).
     *
     * @param type the header's type byte
     * @return true for the types of §2 table
     */
    public static boolean isKnown(int type) {
        return (type >= DATA && type <= 11) || type == VERSION;
    }
}
