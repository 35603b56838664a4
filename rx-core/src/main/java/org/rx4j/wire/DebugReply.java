// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import java.util.Arrays;

/**
 * A DEBUG reply (type 8 without CLIENT_INITIATED), see rx-wire-facts.md §9. The reply does not say
 * which request it answers; the requester knows. Parse the body with {@link DebugStats#decode},
 * {@link DebugConn#decode}, {@link DebugPeer#decode} or {@link RxStatistics#decode}.
 *
 * @param header the request's header with CLIENT_INITIATED cleared
 * @param body the body (private copy, never null), bounded by the datagram
 */
public record DebugReply(RxHeader header, byte[] body) implements RxPacket {
    /** Value of both words in the reply to an unknown debug type (RX_DEBUGI_BADTYPE). */
    public static final int BAD_TYPE = -8;
    /** Bytes of the "bad type" reply body: two int32 words. */
    public static final int BAD_TYPE_SIZE = 8;

    private static final byte[] BAD_TYPE_BODY = {-1, -1, -1, -8, -1, -1, -1, -8};

    /** @throws IllegalArgumentException if the header is not DEBUG or body is null */
    public DebugReply {
        if (header.type() != PacketType.DEBUG || body == null) {
            throw new IllegalArgumentException("not a DEBUG reply: " + header);
        }
    }

    /**
     * The header a responder puts on its reply: the request's header with CLIENT_INITIATED cleared (§9).
     *
     * @param request the DEBUG request's header
     * @return the reply header
     */
    public static RxHeader replyHeader(RxHeader request) {
        return request.withFlags(request.flags() & ~PacketFlags.CLIENT_INITIATED);
    }

    /** @return a new 8-byte body holding the two big-endian words {-8, -8} (RX_DEBUGI_BADTYPE) */
    public static byte[] badTypeBody() {
        return BAD_TYPE_BODY.clone();
    }

    /**
     * The answer to a request whose debug type the responder does not know (§9).
     *
     * @param request the DEBUG request's header
     * @return a reply with the {@link #replyHeader reply header} and the {-8, -8} body
     */
    public static DebugReply badType(RxHeader request) {
        return new DebugReply(replyHeader(request), badTypeBody());
    }

    /** @return true when the body is the 8-byte {-8, -8} "bad type" answer */
    public boolean isBadType() {
        return Arrays.equals(body, BAD_TYPE_BODY);
    }

    @Override
    public int bodyLength() {
        return body.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DebugReply d && d.header.equals(header) && Arrays.equals(d.body, body);
    }

    @Override
    public int hashCode() {
        return header.hashCode() * 31 + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return header + " debugReply=" + body.length + "B";
    }
}
