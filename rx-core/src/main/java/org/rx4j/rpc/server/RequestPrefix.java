// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import io.netty.buffer.ByteBuf;
import org.rx4j.engine.call.Call;

/**
 * The first bytes of a server call's request, gathered on the event loop before the call is handed to a handler
 * ({@link OpcodeReader}: the 4-byte opcode; {@link PrefixRouter}: what its router looks at). They may arrive split
 * over several packets. Loop only.
 */
final class RequestPrefix {
    private final byte[] bytes;
    private int have;

    /** @param size bytes to gather, &gt;= 4 */
    RequestPrefix(int size) {
        this.bytes = new byte[size];
    }

    /**
     * Reads from the call until the prefix is full or nothing more is readable now; buffers read whole are released.
     *
     * @param c the call
     * @param now current time, ns
     * @return the unread rest of the buffer that completed the prefix, or null; the caller owns it (releases it or
     *     hands it on)
     */
    ByteBuf fill(Call c, long now) {
        ByteBuf rest = null;
        while (have < bytes.length) {
            ByteBuf b = c.read(now);
            if (b == null) {
                break;
            }
            int n = Math.min(bytes.length - have, b.readableBytes());
            b.readBytes(bytes, have, n);
            have += n;
            if (b.isReadable()) {
                rest = b;
            } else {
                b.release();
            }
        }
        return rest;
    }

    /** @return true once every byte of the prefix is in */
    boolean isFull() {
        return have == bytes.length;
    }

    /** @return bytes gathered so far */
    int length() {
        return have;
    }

    /** @return the prefix's array (its first {@link #length()} bytes are valid); not a copy */
    byte[] bytes() {
        return bytes;
    }

    /** @return the first 4 bytes as a big-endian int: the rxgen opcode (rx-wire-facts.md §6); needs length() >= 4 */
    int opcode() {
        return ((bytes[0] & 0xFF) << 24) | ((bytes[1] & 0xFF) << 16) | ((bytes[2] & 0xFF) << 8) | (bytes[3] & 0xFF);
    }
}
