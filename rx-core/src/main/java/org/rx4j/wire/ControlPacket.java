// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import java.util.Arrays;

/**
 * A packet whose body rx4j keeps opaque: BUSY, ACKALL, CHALLENGE, RESPONSE, PARAMS, and any type
 * rx4j does not know (the engine answers unknown types with RX_PROTOCOL_ERROR, rx-wire-facts.md §2).
 * Security classes parse CHALLENGE/RESPONSE bodies themselves.
 *
 * @param header the header
 * @param body the body bytes after the header (a private copy; never null), bounded by the datagram
 */
public record ControlPacket(RxHeader header, byte[] body) implements RxPacket {

    /** @throws IllegalArgumentException if {@code body} is null or the type has its own packet class */
    public ControlPacket {
        if (body == null) {
            throw new IllegalArgumentException("body is null");
        }
        switch (header.type()) {
            case PacketType.DATA, PacketType.ACK, PacketType.ABORT, PacketType.DEBUG, PacketType.VERSION ->
                    throw new IllegalArgumentException("type has its own packet class: " + header);
            default -> {
            }
        }
    }

    @Override
    public int bodyLength() {
        return body.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ControlPacket c && c.header.equals(header) && Arrays.equals(c.body, body);
    }

    @Override
    public int hashCode() {
        return header.hashCode() * 31 + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return header + " body=" + body.length + "B";
    }
}
