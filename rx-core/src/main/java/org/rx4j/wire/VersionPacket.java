// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

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

    /**
     * Builds a reply body shorter than the usual 65 bytes: the version string and its NUL, nothing after. A receiver
     * reads the string up to the NUL (rx-wire-facts.md §9; Debian's rxdebug prints it, checked by hand), so the reply
     * fits where only a small one may go (docs/robustness.md "Rule: unsolicited traffic, loops and amplification").
     *
     * @param version the version text (ASCII); cut to 64 bytes as in {@link #replyBody(String)}
     * @param maxBytes the largest body allowed, bytes
     * @return the body (the string's bytes and one NUL), or null when it would be longer than {@code maxBytes}
     */
    public static byte[] shortReplyBody(String version, int maxBytes) {
        byte[] text = version.getBytes(StandardCharsets.US_ASCII);
        int n = Math.min(text.length, RxConstants.VERSION_REPLY_SIZE - 1) + 1;
        return n > maxBytes ? null : Arrays.copyOf(text, n);
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
