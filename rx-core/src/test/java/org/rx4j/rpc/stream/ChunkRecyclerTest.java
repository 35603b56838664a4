// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

/** The output streams' array recycler: an array comes back only when the engine released the last slice. */
class ChunkRecyclerTest {
    @Test
    void arrayComesBackWhenTheLastSliceIsReleased() {
        ChunkRecycler r = new ChunkRecycler(4);
        byte[] a = r.take();
        assertEquals(CallStreams.CHUNK, a.length);
        a[0] = 42;
        ByteBuf b = r.wrap(a, 1412 * 2);
        assertEquals(2824, b.readableBytes());
        ByteBuf packet1 = b.readRetainedSlice(1412); // as the engine cuts packets
        ByteBuf packet2 = b.readRetainedSlice(1412);
        b.release();
        assertEquals(42, packet1.getByte(0));
        packet1.release();
        assertEquals(0, r.idle(), "a slice still holds the array");
        packet2.release();
        assertEquals(1, r.idle());
        assertSame(a, r.take());
        assertEquals(0, r.idle());
    }

    @Test
    void onlyFullSizeArraysAreKeptAndAtMostCapacity() {
        ChunkRecycler r = new ChunkRecycler(2);
        r.wrap(new byte[1412], 10).release();
        assertEquals(0, r.idle(), "a small request's array is left to the GC");
        byte[] a = r.take();
        byte[] b = r.take();
        byte[] c = r.take();
        assertNotSame(a, b);
        r.wrap(a, 1).release();
        r.wrap(b, 1).release();
        r.wrap(c, 1).release();
        assertEquals(2, r.idle());
    }
}
