package org.rx4j.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A VERSION request (1-byte body) or reply (65-byte NUL-padded version string), see rx-wire-facts.md §9.
 * Connectionless: epoch 999, cid 0, serial 0; a request has CLIENT_INITIATED set.
 *
 * @param header the header; type must be {@link PacketType#VERSION}
 * @param body the body bytes (private copy, never null), bounded by the datagram
 */
public record VersionPacket(RxHeader header, byte[] body) implements RxPacket {

    /** @throws IllegalArgumentException if the header is not VERSION or body is null */
    public VersionPacket {
        if (header.type() != PacketType.VERSION || body == null) {
            throw new IllegalArgumentException("not a VERSION packet: " + header);
        }
    }

    /**
     * Builds the 65-byte reply body for a version string.
     *
     * @param version the version text (ASCII); cut to 64 bytes so the body always ends with a NUL
     * @return a 65-byte NUL-padded body
     */
    public static byte[] replyBody(String version) {
        byte[] text = version.getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[RxConstants.VERSION_REPLY_SIZE];
        System.arraycopy(text, 0, body, 0, Math.min(text.length, RxConstants.VERSION_REPLY_SIZE - 1));
        return body;
    }

    /** @return the body read as a NUL-terminated ASCII string (everything up to the first NUL) */
    public String versionString() {
        int end = 0;
        while (end < body.length && body[end] != 0) {
            end++;
        }
        return new String(body, 0, end, StandardCharsets.US_ASCII);
    }

    @Override
    public int bodyLength() {
        return body.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VersionPacket v && v.header.equals(header) && Arrays.equals(v.body, body);
    }

    @Override
    public int hashCode() {
        return header.hashCode() * 31 + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return header + " version=\"" + versionString() + "\"";
    }
}
