// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;
import java.util.function.BooleanSupplier;

/**
 * The socket's receive-buffer allocator: buffers of one fixed size (64 KiB, or a 512 KiB recvmmsg batch) taken from a
 * small ring the allocator owns and reused once nothing else holds them, instead of a new pooled buffer per read.
 * Buffers that large are above the pooled allocator's thread cache, so each allocation and release went through the
 * arena's lock: under a datagram flood that was about a third of the read loop (docs/robustness.md "Flood", JFR).
 * A buffer is free when its reference count is 1 (only the ring's); {@link DatagramDecoder} releases the datagram
 * once decoded and copies small datagrams out (so held packets rarely pin a ring buffer). When every ring buffer is
 * in use a plain pooled buffer is returned, as before.
 *
 * <p>Ownership: the ring holds one reference to each of its buffers; {@link #allocate}'s caller gets one more, which
 * it releases as with any receive buffer. {@link #releaseAll} gives the ring's references up (channel closed).
 * Event-loop thread only, except {@link #releaseAll}, which runs after the channel has closed.
 */
final class ReusingRecvByteBufAllocator implements RecvByteBufAllocator {
    private final FixedRecvByteBufAllocator fixed;
    private final BufferRing ring;
    private final BooleanSupplier readOn;

    /**
     * An allocator whose handle lets Netty's read loop go on within a wake-up only while {@code readOn} says so.
     *
     * @param bufferSize bytes per receive buffer
     * @param ringSize buffers kept for reuse, &gt;= 1 (an epoll wake-up's read holds one until decoded, an NIO
     *     wake-up's reads one each until all are decoded; the rest serve while slices of earlier ones are held;
     *     docs/transport.md "Reads per wake-up")
     * @param readOn asked after each read of a wake-up: true to read again (up to {@link
     *     ReadsPerWakeup#MAX_DATAGRAMS} datagrams while the socket has more), false to end the wake-up's reading
     */
    ReusingRecvByteBufAllocator(int bufferSize, int ringSize, BooleanSupplier readOn) {
        this.fixed = new FixedRecvByteBufAllocator(bufferSize);
        // The cap when reading on; readOn, not this, keeps every other wake-up at one read (Netty's fixed-size
        // allocator would stop after one datagram by default).
        this.fixed.maxMessagesPerRead(ReadsPerWakeup.MAX_DATAGRAMS);
        this.ring = new BufferRing(ringSize, bufferSize);
        this.readOn = readOn;
    }

    @Override
    @SuppressWarnings("deprecation") // RecvByteBufAllocator's own signature: Handle is deprecated for ExtendedHandle
    public Handle newHandle() {
        return new ReusingHandle((ExtendedHandle) fixed.newHandle());
    }

    /**
     * A receive buffer: a free ring buffer, cleared, or a new one from {@code alloc} when none is free.
     *
     * <p>Ownership: the caller owns one reference to the returned buffer.
     *
     * @param alloc the channel's allocator
     * @return a buffer with {@code bufferSize} writable bytes
     */
    ByteBuf allocate(ByteBufAllocator alloc) {
        ByteBuf b = ring.take(alloc);
        return b != null ? b : alloc.ioBuffer(ring.bufferSize(), ring.bufferSize());
    }

    /** Releases the ring's reference to each of its buffers (a buffer still in use is freed by its last holder). */
    void releaseAll() {
        ring.releaseAll();
    }

    /** Netty's fixed-size handle, except that buffers come from the ring and reading on is gated by readOn. */
    private final class ReusingHandle implements ExtendedHandle {
        private final ExtendedHandle delegate;

        ReusingHandle(ExtendedHandle delegate) {
            this.delegate = delegate;
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            return ReusingRecvByteBufAllocator.this.allocate(alloc);
        }

        @Override
        public int guess() {
            return delegate.guess();
        }

        @Override
        public void reset(ChannelConfig config) {
            delegate.reset(config);
        }

        @Override
        public void incMessagesRead(int numMessages) {
            delegate.incMessagesRead(numMessages);
        }

        @Override
        public void lastBytesRead(int bytes) {
            delegate.lastBytesRead(bytes);
        }

        @Override
        public int lastBytesRead() {
            return delegate.lastBytesRead();
        }

        @Override
        public void attemptedBytesRead(int bytes) {
            delegate.attemptedBytesRead(bytes);
        }

        @Override
        public int attemptedBytesRead() {
            return delegate.attemptedBytesRead();
        }

        @Override
        public boolean continueReading() {
            return readOn.getAsBoolean() && delegate.continueReading();
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return readOn.getAsBoolean() && delegate.continueReading(maybeMoreDataSupplier);
        }

        @Override
        public void readComplete() {
            delegate.readComplete();
        }
    }
}
