// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.crypto.Fcrypt;

/**
 * rxkad's protection levels and what each adds to a DATA packet's payload (docs/security.md "Levels"). This enum is
 * the one place that knows the security header and padding of a level: {@link #preparedLength} is the payload a
 * packet carries for some user data, {@link #maxUserData} the user data that fits in a payload.
 */
public enum RxkadLevel {
    /** Only the 16-bit header checksum; the payload travels as it is. */
    CLEAR(0, 0),
    /** A 4-byte security header; the payload's first 8 bytes are fcrypt-encrypted (padded to 8 if shorter). */
    AUTH(1, 4),
    /** An 8-byte security header; the whole payload, padded to a multiple of 8, is fcrypt-PCBC-encrypted. */
    CRYPT(2, 8);

    private final int wire;
    private final int headerSize;

    RxkadLevel(int wire, int headerSize) {
        this.wire = wire;
        this.headerSize = headerSize;
    }

    /** @return the level's number on the wire (CHALLENGE, RESPONSE): 0, 1 or 2 */
    public int wire() {
        return wire;
    }

    /** @return bytes of security header in front of the user data in each DATA packet: 0, 4 or 8 */
    public int headerSize() {
        return headerSize;
    }

    /**
     * The payload a DATA packet carries for {@code userLength} bytes of user data: the security header plus the
     * user data, padded to 8 bytes at least (auth) or to a multiple of 8 (crypt).
     *
     * @param userLength bytes of user data, 0..65535 (the sealed header word holds 16 bits of length)
     * @return bytes of payload after the Rx header
     * @throws IllegalArgumentException if {@code userLength} is outside 0..65535
     */
    public int preparedLength(int userLength) {
        if (userLength < 0 || userLength > 0xffff) {
            throw new IllegalArgumentException("user data length must be 0..65535, got " + userLength);
        }
        return switch (this) {
            case CLEAR -> userLength;
            case AUTH -> Math.max(Fcrypt.BLOCK_SIZE, userLength + headerSize);
            case CRYPT -> (userLength + headerSize + Fcrypt.BLOCK_SIZE - 1) & -Fcrypt.BLOCK_SIZE;
        };
    }

    /**
     * The most user data whose {@link #preparedLength} fits in {@code maxPayload}: the payload less the security
     * header and, at crypt, less the padding to a multiple of 8. (OpenAFS reserves header plus a maximum trailer
     * of the same size instead, 8 bytes at auth and 16 at crypt; either choice interoperates, since a receiver
     * takes the real length from the sealed header word.)
     *
     * @param maxPayload bytes available after the Rx header, at least 8
     * @return bytes of user data, 0..65535
     * @throws IllegalArgumentException if {@code maxPayload} is below 8
     */
    public int maxUserData(int maxPayload) {
        if (maxPayload < Fcrypt.BLOCK_SIZE) {
            throw new IllegalArgumentException("payload must be at least 8 bytes, got " + maxPayload);
        }
        int fit = switch (this) {
            case CLEAR, AUTH -> maxPayload - headerSize;
            case CRYPT -> (maxPayload & -Fcrypt.BLOCK_SIZE) - headerSize;
        };
        return Math.min(fit, 0xffff);
    }

    /**
     * @param wire a level number from a CHALLENGE or RESPONSE
     * @return the level
     * @throws SecurityAbortException with {@link RxkadCodes#RXKADLEVELFAIL} if {@code wire} is not 0, 1 or 2
     */
    public static RxkadLevel ofWire(int wire) throws SecurityAbortException {
        return switch (wire) {
            case 0 -> CLEAR;
            case 1 -> AUTH;
            case 2 -> CRYPT;
            default -> throw new SecurityAbortException(RxkadCodes.RXKADLEVELFAIL, "rxkad level " + wire
                    + " is not clear (0), auth (1) or crypt (2)");
        };
    }
}
