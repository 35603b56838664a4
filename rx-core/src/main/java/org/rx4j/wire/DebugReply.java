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

    /** @throws IllegalArgumentException if the header is not DEBUG or body is null */
    public DebugReply {
        if (header.type() != PacketType.DEBUG || body == null) {
            throw new IllegalArgumentException("not a DEBUG reply: " + header);
        }
    }

    /** @return true when the body is the 8-byte {-8, -8} "bad type" answer */
    public boolean isBadType() {
        return body.length == 8 && Arrays.equals(body, new byte[] {-1, -1, -1, -8, -1, -1, -1, -8});
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
