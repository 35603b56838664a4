// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Reuses the {@link CallStreams#CHUNK}-byte gathering arrays of output streams: an application's written bytes are
 * copied into such an array (the one copy an {@link java.io.OutputStream} needs, since the caller may reuse its
 * array at once), handed to the engine as a heap {@link ByteBuf}, and come back here when the engine releases the
 * last slice of it (every packet carved from it acknowledged or dropped). A bulk writer then cycles through a few
 * arrays instead of allocating one per {@link CallStreams#CHUNK} bytes written (those arrays were two thirds of
 * the loopback transfer's allocation, docs/benchmarks.md "Allocation end to end"). Holds at most {@code capacity}
 * arrays; more are left to the GC, as is an array whose buffer is never released (nothing leaks: the buffers are
 * unpooled heap memory). Thread-safe: arrays are taken on application threads and returned on the event loop.
 */
public final class ChunkRecycler {
    private final ArrayBlockingQueue<byte[]> free;

    /** @param capacity most idle arrays kept, ≥ 1 (each {@link CallStreams#CHUNK} bytes) */
    public ChunkRecycler(int capacity) {
        this.free = new ArrayBlockingQueue<>(capacity);
    }

    /** @return an array of exactly {@link CallStreams#CHUNK} bytes, reused when one is idle; contents undefined */
    byte[] take() {
        byte[] a = free.poll();
        return a != null ? a : new byte[CallStreams.CHUNK];
    }

    /**
     * Wraps {@code used} bytes of {@code array} for the engine; when the buffer's reference count reaches 0 a
     * {@link CallStreams#CHUNK}-byte array comes back to this recycler (other sizes are dropped).
     *
     * @param array the gathering array (ownership passes to the buffer)
     * @param used readable bytes from index 0, 1..array.length
     * @return a buffer with refCnt 1; whoever ends up holding it releases it
     */
    ByteBuf wrap(byte[] array, int used) {
        ByteBuf b = new RecyclingBuf(array);
        b.setIndex(0, used);
        return b;
    }

    /** @return idle arrays now held (for tests) */
    int idle() {
        return free.size();
    }

    /** A heap buffer over a gathering array that gives the array back when it is deallocated. */
    private final class RecyclingBuf extends UnpooledHeapByteBuf {
        RecyclingBuf(byte[] array) {
            super(UnpooledByteBufAllocator.DEFAULT, array, array.length);
        }

        @Override
        protected void freeArray(byte[] array) {
            if (array.length == CallStreams.CHUNK) {
                free.offer(array); // a full recycler drops it
            }
        }
    }
}
