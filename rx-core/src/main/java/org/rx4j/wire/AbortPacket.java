// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * An ABORT packet: the body is one big-endian int32 error code (see rx-wire-facts.md §2, §6).
 * callNumber 0 in the header aborts every call on the connection.
 *
 * @param header the header; type must be {@link PacketType#ABORT}
 * @param code the Rx, rxgen or application error code (negative codes are Rx's, see {@link AbortCodes})
 * @param extraBytes body bytes after the code that a lenient decoder accepted; written back as zeros, &gt;= 0
 */
public record AbortPacket(RxHeader header, int code, int extraBytes) implements RxPacket {

    /** @throws IllegalArgumentException if the header is not an ABORT or extraBytes is negative */
    public AbortPacket {
        if (header.type() != PacketType.ABORT) {
            throw new IllegalArgumentException("not an ABORT header: " + header);
        }
        if (extraBytes < 0) {
            throw new IllegalArgumentException("extraBytes < 0");
        }
    }

    /**
     * @param header the header; type must be ABORT
     * @param code the error code
     */
    public AbortPacket(RxHeader header, int code) {
        this(header, code, 0);
    }

    @Override
    public int bodyLength() {
        return 4 + extraBytes;
    }
}
