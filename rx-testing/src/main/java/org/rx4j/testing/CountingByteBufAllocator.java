// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ByteBufAllocator} that remembers every buffer it hands out, so a test can assert that all of
 * them were released ({@code refCnt() == 0}). Cheap enough for a fuzz loop of millions of datagrams when
 * {@link #assertAllReleased()} is called regularly (it forgets the buffers it checked).
 *
 * <p>Not thread-safe: one allocator per test thread. Buffers are allocated by the delegate, so slices and
 * retained duplicates count against their parent buffer.
 */
public final class CountingByteBufAllocator implements ByteBufAllocator {
    private final ByteBufAllocator delegate;
    private final List<ByteBuf> allocated = new ArrayList<>();
    private long totalAllocated;

    /** Wraps an unpooled heap allocator without Netty's own leak detection (fast for fuzz loops). */
    public CountingByteBufAllocator() {
        this(new UnpooledByteBufAllocator(false, true));
    }

    /** @param delegate the allocator that really allocates; its buffers are tracked here */
    public CountingByteBufAllocator(ByteBufAllocator delegate) {
        this.delegate = delegate;
    }

    private <T extends ByteBuf> T track(T buf) {
        allocated.add(buf);
        totalAllocated++;
        return buf;
    }

    /** @return buffers allocated since construction, count (not reset by the checks) */
    public long totalAllocated() {
        return totalAllocated;
    }

    /** @return the tracked buffers whose reference count is still above zero */
    public List<ByteBuf> unreleased() {
        List<ByteBuf> open = new ArrayList<>();
        for (ByteBuf b : allocated) {
            if (b.refCnt() != 0) {
                open.add(b);
            }
        }
        return open;
    }

    /**
     * Asserts that every buffer allocated since the last check has been released, then forgets them.
     *
     * @throws AssertionError naming how many buffers are still referenced (they stay tracked)
     */
    public void assertAllReleased() {
        List<ByteBuf> open = unreleased();
        if (!open.isEmpty()) {
            allocated.retainAll(open);
            throw new AssertionError(open.size() + " of the buffers from " + getClass().getSimpleName()
                    + " leaked (refCnt > 0), first: " + open.get(0) + " refCnt=" + open.get(0).refCnt());
        }
        allocated.clear();
    }

    @Override
    public ByteBuf buffer() {
        return track(delegate.buffer());
    }

    @Override
    public ByteBuf buffer(int initialCapacity) {
        return track(delegate.buffer(initialCapacity));
    }

    @Override
    public ByteBuf buffer(int initialCapacity, int maxCapacity) {
        return track(delegate.buffer(initialCapacity, maxCapacity));
    }

    @Override
    public ByteBuf ioBuffer() {
        return track(delegate.ioBuffer());
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity) {
        return track(delegate.ioBuffer(initialCapacity));
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) {
        return track(delegate.ioBuffer(initialCapacity, maxCapacity));
    }

    @Override
    public ByteBuf heapBuffer() {
        return track(delegate.heapBuffer());
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity) {
        return track(delegate.heapBuffer(initialCapacity));
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity, int maxCapacity) {
        return track(delegate.heapBuffer(initialCapacity, maxCapacity));
    }

    @Override
    public ByteBuf directBuffer() {
        return track(delegate.directBuffer());
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity) {
        return track(delegate.directBuffer(initialCapacity));
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
        return track(delegate.directBuffer(initialCapacity, maxCapacity));
    }

    @Override
    public CompositeByteBuf compositeBuffer() {
        return track(delegate.compositeBuffer());
    }

    @Override
    public CompositeByteBuf compositeBuffer(int maxNumComponents) {
        return track(delegate.compositeBuffer(maxNumComponents));
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer() {
        return track(delegate.compositeHeapBuffer());
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
        return track(delegate.compositeHeapBuffer(maxNumComponents));
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer() {
        return track(delegate.compositeDirectBuffer());
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
        return track(delegate.compositeDirectBuffer(maxNumComponents));
    }

    @Override
    public boolean isDirectBufferPooled() {
        return delegate.isDirectBufferPooled();
    }

    @Override
    public int calculateNewCapacity(int minNewCapacity, int maxCapacity) {
        return delegate.calculateNewCapacity(minNewCapacity, maxCapacity);
    }
}
