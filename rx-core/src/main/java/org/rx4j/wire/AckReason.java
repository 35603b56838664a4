// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * ACK reason codes (ACK body byte 16), see rx-wire-facts.md §3 and §8.
 */
public final class AckReason {
    /** The peer set REQUEST_ACK. */
    public static final int REQUESTED = 1;
    /** A DATA packet arrived that was already received. */
    public static final int DUPLICATE = 2;
    /** A DATA packet arrived beyond a gap. */
    public static final int OUT_OF_SEQUENCE = 3;
    /** A DATA packet arrived beyond the receive window and was dropped. */
    public static final int EXCEEDS_WINDOW = 4;
    /** No buffer space (not sent by OpenAFS 1.8). */
    public static final int NOSPACE = 5;
    /** A PING (REQUEST_ACK is set on it); must be answered with PING_RESPONSE. */
    public static final int PING = 6;
    /** Answer to a PING; its serial field is the PING's header serial. */
    public static final int PING_RESPONSE = 7;
    /** Sent by a delayed-ack timer or for hard-ack progress; serial 0. */
    public static final int DELAY = 8;
    /** Soft-ack rate ack sent on packet arrival. */
    public static final int IDLE = 9;
    /** Number of reason slots (index 0 unused), for per-reason counter arrays. */
    public static final int COUNT = 10;

    private AckReason() {
    }

    /**
     * Name of a reason code, as OpenAFS and Wireshark print it.
     *
     * @param reason the ACK body's reason byte, 0..255
     * @return the name, or {@code "reason<N>"} for an unknown code
     */
    public static String name(int reason) {
        return switch (reason) {
            case REQUESTED -> "requested";
            case DUPLICATE -> "duplicate";
            case OUT_OF_SEQUENCE -> "out_of_sequence";
            case EXCEEDS_WINDOW -> "exceeds_window";
            case NOSPACE -> "nospace";
            case PING -> "ping";
            case PING_RESPONSE -> "ping_response";
            case DELAY -> "delay";
            case IDLE -> "idle";
            default -> "reason" + reason;
        };
    }
}
