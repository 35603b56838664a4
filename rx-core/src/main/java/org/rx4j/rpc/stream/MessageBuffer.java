// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Arrays;

/**
 * Gathers a whole request or reply for the request/response call forms (async handlers, async client
 * calls) and hands it over as one byte array, refusing to take more than a limit so that a peer cannot make
 * this side hold much more than the limit. The first packet is copied at once into an array of its size, which is
 * the whole message of a short call and is handed over as it is; the later packets' buffers are kept as they
 * arrive and copied once, with the first array, into an array of the message's exact size when the message is
 * complete. Rx does not say a message's size before its last packet, and an array grown by doubling copied and
 * zeroed up to four times the message (a 128 KiB reply in three packets made arrays of 64, 128 and 256 KiB, then a
 * fourth of 128 KiB to trim; docs/benchmarks.md "Whole messages copied once"). Packets under {@link #KEEP_MIN}
 * bytes are copied into a heap buffer that grows by doubling instead, as before: a kept buffer costs its objects
 * besides its bytes, so a peer sending 1-byte packets would otherwise make this side hold many times the limit
 * (OpenAFS's packets, 1,412 bytes, are kept).
 *
 * <p>Ownership: {@link #append} takes the buffer it is given; {@link #toByteArray} and {@link #release} release
 * every buffer held. Whoever makes a {@code MessageBuffer} calls one of them when the call ends, whatever the end.
 * Not thread-safe: used on one event loop.
 */
public final class MessageBuffer {
    /** The smallest packet payload kept as its buffer, bytes; smaller ones are copied into {@link #tail}. */
    static final int KEEP_MIN = 1024;
    private static final byte[] EMPTY = new byte[0];
    private static final ByteBuf[] NONE = new ByteBuf[0];
    private final int maxBytes;
    /** The first packet's bytes, copied at once: a short call's whole message, handed over as it is. */
    private byte[] first = EMPTY;
    /** The packets after the first, kept until the message is complete. */
    private ByteBuf[] parts = NONE;
    private int count;
    /** A heap buffer gathering small packets, the last of {@link #parts} while they keep coming; else null. */
    private ByteBuf tail;
    private int size;
    private boolean released;
    private boolean refused;

    /** @param maxBytes the most bytes {@link #append} accepts in total, 0.. */
    public MessageBuffer(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Keeps the readable bytes of {@code buf}.
     *
     * @param buf the bytes; ownership passes here (kept, or released at once when refused or empty)
     * @return false, keeping nothing of {@code buf}, when the total would pass the limit or the buffer was
     *     already released or taken
     */
    public boolean append(ByteBuf buf) {
        int n = buf.readableBytes();
        try {
            if (released || (long) size + n > maxBytes) {
                refused |= !released;
                return false;
            }
            if (n == 0) {
                return true;
            }
            if (size == 0) {
                first = ByteBufUtil.getBytes(buf);
            } else if (n < KEEP_MIN) {
                if (tail == null) {
                    tail = Unpooled.buffer(n, maxBytes); // grows by doubling: a lone small packet costs its own size
                    add(tail);
                }
                tail.writeBytes(buf);
            } else {
                tail = null; // a later small packet starts a new one after this
                add(buf.retain());
            }
            size += n;
            return true;
        } finally {
            buf.release();
        }
    }

    private void add(ByteBuf part) {
        if (count == parts.length) {
            parts = count == 0 ? new ByteBuf[4] : Arrays.copyOf(parts, count * 2);
        }
        parts[count++] = part;
    }

    /** @return true when a packet was refused for passing the limit: the message is incomplete */
    public boolean refused() {
        return refused;
    }

    /** @return bytes gathered so far */
    int size() {
        return size;
    }

    /**
     * Takes the gathered bytes, releasing the buffers held; call once, at the end: the buffer is not used after it.
     *
     * @return the gathered bytes, exactly {@link #size()} long
     * @throws IllegalStateException if already taken or released
     */
    public byte[] toByteArray() {
        if (released) {
            throw new IllegalStateException("message already taken or released");
        }
        if (count == 0) {
            released = true;
            return first;
        }
        byte[] bytes = new byte[size];
        System.arraycopy(first, 0, bytes, 0, first.length);
        int at = first.length;
        for (int i = 0; i < count; i++) {
            ByteBuf part = parts[i];
            int n = part.readableBytes();
            part.getBytes(part.readerIndex(), bytes, at, n);
            at += n;
        }
        release();
        return bytes;
    }

    /** Releases the buffers held, if any; later appends are refused. Idempotent. */
    public void release() {
        for (int i = 0; i < count; i++) {
            parts[i].release();
            parts[i] = null;
        }
        count = 0;
        tail = null;
        first = EMPTY;
        released = true;
    }
}
