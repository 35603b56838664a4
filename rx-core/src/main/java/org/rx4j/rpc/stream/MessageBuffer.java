// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Gathers a whole request or reply for the request/response call forms (async handlers, async client
 * calls) into one byte array, refusing to grow past a limit so that a peer cannot make this side allocate
 * more than the limit. Grows by doubling from a small start, so memory follows the bytes actually received.
 * Not thread-safe: used on one event loop.
 */
public final class MessageBuffer {
    private static final int FIRST_SIZE = 256;
    private final int maxBytes;
    private byte[] bytes = new byte[0];
    private int size;

    /** @param maxBytes the most bytes {@link #append} accepts in total, 0.. */
    public MessageBuffer(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Copies the readable bytes of {@code buf} (borrowed: its reader index moves, the caller still releases it).
     *
     * @param buf the bytes
     * @return false, copying nothing, when the total would pass the limit
     */
    public boolean append(ByteBuf buf) {
        int n = buf.readableBytes();
        if ((long) size + n > maxBytes) {
            return false;
        }
        if (size + n > bytes.length) {
            // A first append is sized exactly: a short call's whole message usually arrives in one packet, and
            // toByteArray then hands that array over without a copy.
            long grown = size == 0 ? n : Math.max((long) bytes.length * 2, FIRST_SIZE);
            bytes = Arrays.copyOf(bytes, (int) Math.min(Math.max(grown, size + n), maxBytes));
        }
        buf.readBytes(bytes, size, n);
        size += n;
        return true;
    }

    /** @return bytes gathered so far */
    int size() {
        return size;
    }

    /**
     * Takes the gathered bytes; call once, at the end: the buffer is not used after it.
     *
     * @return the gathered bytes, exactly {@link #size()} long (the buffer's own array when it is exactly full)
     */
    public byte[] toByteArray() {
        return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
    }
}
