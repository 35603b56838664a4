// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * A decoded Rx packet: the header plus a typed body (see rx-wire-facts.md §2).
 *
 * <p>Only {@link DataPacket} holds a reference-counted buffer; every other body is a plain value.
 * Whoever holds a packet must call {@link #release()} exactly once when done with it (a no-op for
 * value packets), or hand the packet on and say so.
 */
public sealed interface RxPacket permits DataPacket, AckPacket, AbortPacket, ControlPacket, DebugRequest,
        DebugReply, VersionPacket {

    /** @return the packet's 28-byte header */
    RxHeader header();

    /**
     * Bytes of the body (everything after the header) when encoded on its own.
     *
     * @return the body length in bytes, &gt;= 0
     */
    int bodyLength();

    /**
     * Releases the buffers the packet holds; a no-op for packets that hold none.
     */
    default void release() {
    }
}
