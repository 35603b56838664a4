// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A few direct buffers of one size, each reused once nothing but the ring holds it. For buffers above the pooled
 * allocator's thread cache (64 KiB receive buffers, whole GSO runs), whose every allocation and release otherwise
 * goes through the pool's arena (docs/robustness.md "Flood", docs/benchmarks.md "Per-call allocations").
 *
 * <p>Ownership: the ring holds one reference to each buffer it made; a buffer is free when that is its only one.
 * {@link #take} gives the caller one more reference, released as with any buffer. {@link #releaseAll} gives the
 * ring's references up; a buffer still in use is then freed by its last holder. Loop-confined.
 */
final class BufferRing {
    private final ByteBuf[] ring;
    private final int bufferSize;
    private boolean released;

    /**
     * @param ringSize buffers kept, &gt;= 1
     * @param bufferSize bytes per buffer
     */
    BufferRing(int ringSize, int bufferSize) {
        this.ring = new ByteBuf[ringSize];
        this.bufferSize = bufferSize;
    }

    /** @return bytes per buffer of the ring */
    int bufferSize() {
        return bufferSize;
    }

    /**
     * A free ring buffer, cleared; the ring makes its buffers from {@code alloc} as they are first needed.
     *
     * @param alloc the channel's allocator
     * @return the buffer with one reference for the caller, or null when every buffer is in use or the ring was
     *     released
     */
    ByteBuf take(ByteBufAllocator alloc) {
        if (released) {
            return null;
        }
        for (int i = 0; i < ring.length; i++) {
            ByteBuf b = ring[i];
            if (b == null) {
                b = alloc.ioBuffer(bufferSize, bufferSize);
                ring[i] = b;
            }
            if (b.refCnt() == 1) {
                return b.clear().retain();
            }
        }
        return null;
    }

    /** Gives up the ring's reference to each of its buffers (the channel closed); later {@link #take}s return null. */
    void releaseAll() {
        released = true;
        for (int i = 0; i < ring.length; i++) {
            if (ring[i] != null) {
                ring[i].release();
                ring[i] = null;
            }
        }
    }
}
