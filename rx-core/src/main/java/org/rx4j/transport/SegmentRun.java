// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.Inet6Address;
import java.net.InetSocketAddress;

/**
 * The datagrams {@link DatagramEncoder} gathers for one UDP GSO send: consecutive datagrams to one recipient, all of
 * one size except that the last may be shorter, encoded one after the other into one buffer (docs/transport.md
 * "Segmentation offload"). The kernel cuts that buffer back into datagrams of {@link #segmentSize()} bytes, so the
 * receiver sees exactly the datagrams the engine emitted, in order.
 *
 * <p>The cut: a datagram joins the run when it goes to the run's recipient, is no longer than the run's segment size,
 * the run has not ended with a shorter one, and the run then stays within {@link #maxSegments}: at most
 * {@link #MAX_SEGMENTS} segments and at most one UDP datagram's payload in all (the kernel refuses larger sends).
 *
 * <p>A run that grows past its first datagram moves into one of a few whole-run buffers the run keeps for reuse
 * ({@link #RING}), each free again once the channel has written and released it: grown in place, the buffer was
 * reallocated by the pool at every window's first burst (a size beyond the pool's thread cache), which profiled as
 * half of a 1 MiB reply's first transmission (docs/benchmarks.md "Per-call allocations").
 *
 * <p>Ownership: the run owns its buffer until {@link #take()} hands it to the caller; {@link #discard()} releases it.
 * The ring holds one reference to each of its buffers (a buffer is free when that is its only one) until
 * {@link #releaseRing()}. Loop-confined, like the encoder.
 */
final class SegmentRun {
    /** Most segments one GSO send may carry: the kernel's UDP_MAX_SEGMENTS (64 since Linux 4.18). */
    static final int MAX_SEGMENTS = 64;
    /** Largest UDP payload over IPv4, bytes: 65,535 − 20 (IPv4 header) − 8 (UDP header). */
    static final int MAX_IPV4_PAYLOAD = 65_535 - 28;
    /** Largest UDP payload over IPv6 counted as rx-wire-facts.md §5 does, bytes: 65,535 − 48 (IPv6 + UDP headers). */
    static final int MAX_IPV6_PAYLOAD = 65_535 - 48;

    /** Whole-run buffers kept for reuse: a flush seldom holds more runs than this. */
    static final int RING = 4;

    private final BufferRing ring = new BufferRing(RING, MAX_IPV4_PAYLOAD);
    private ByteBufAllocator alloc;
    private ByteBuf buf;
    private InetSocketAddress peer;
    private int segmentSize;
    private int segments;
    private int maxSegments;
    /** True once a datagram shorter than the segment size joined: the kernel allows that only last. */
    private boolean ended;

    /**
     * The most datagrams of one size one GSO send to this recipient may carry.
     *
     * @param segmentSize bytes per datagram, &gt; 0
     * @param peer the recipient (its address family sets the payload limit)
     * @return min({@link #MAX_SEGMENTS}, payload limit / segmentSize); 1 or 0 when batching cannot help
     */
    static int maxSegments(int segmentSize, InetSocketAddress peer) {
        int payload = peer.getAddress() instanceof Inet6Address ? MAX_IPV6_PAYLOAD : MAX_IPV4_PAYLOAD;
        return Math.min(MAX_SEGMENTS, payload / segmentSize);
    }

    /** @return true when the run holds no datagram */
    boolean isEmpty() {
        return buf == null;
    }

    /** @return true when no further datagram can join: the most segments, or a shorter last one */
    boolean isFull() {
        return ended || segments >= maxSegments;
    }

    /**
     * @param to the next datagram's recipient
     * @param length the next datagram's length, bytes
     * @return true when it may join this run (see the class comment); false when the run is empty
     */
    boolean accepts(InetSocketAddress to, int length) {
        return buf != null && !ended && segments < maxSegments && length <= segmentSize
                && (to == peer || to.equals(peer));
    }

    /**
     * Starts a run with its first datagram's buffer. The run must be empty ({@link #take()} the last one first).
     *
     * @param alloc allocator of the run's buffer
     * @param to the recipient
     * @param length the first datagram's length, bytes: the run's segment size
     * @param most the most segments, from {@link #maxSegments}, &gt;= 2
     * @return the buffer to encode the first datagram into (owned by the run)
     */
    ByteBuf start(ByteBufAllocator alloc, InetSocketAddress to, int length, int most) {
        // Sized for the first datagram only: a run that stays a single datagram (a reply, an ACK) costs what a
        // datagram of its own did; the second datagram moves it into a whole-run buffer (target()).
        this.alloc = alloc;
        buf = alloc.ioBuffer(length);
        peer = to;
        segmentSize = length;
        segments = 0;
        maxSegments = most;
        ended = false;
        return buf;
    }

    /**
     * The buffer to encode the next accepted datagram into, grown to the whole run's size before the second.
     *
     * @return the run's buffer (owned by the run); the datagram goes after its written bytes
     */
    ByteBuf target() {
        int size = segmentSize * maxSegments;
        if (segments == 1 && buf.capacity() < size) {
            ByteBuf whole = size <= ring.bufferSize() ? ring.take(alloc) : null;
            if (whole == null) {
                buf.capacity(size);
            } else {
                whole.writeBytes(buf, buf.readerIndex(), buf.readableBytes());
                buf.release();
                buf = whole;
            }
        }
        return buf;
    }

    /** Gives up the ring's buffers (the channel closed); a buffer still being written goes with its write. */
    void releaseRing() {
        ring.releaseAll();
    }

    /**
     * Takes back a datagram whose encoding failed part-way: the buffer's written bytes return to {@code mark}, and a
     * run left without datagrams releases its buffer.
     *
     * @param mark the buffer's writer index before the failed datagram
     */
    void abandon(int mark) {
        buf.writerIndex(mark);
        if (segments == 0) {
            discard();
        }
    }

    /**
     * Records one datagram encoded at the end of the buffer.
     *
     * @param length its length, bytes (&lt;= the segment size; a shorter one ends the run)
     */
    void appended(int length) {
        segments++;
        if (length < segmentSize) {
            ended = true;
        }
    }

    /** @return datagrams in the run */
    int segments() {
        return segments;
    }

    /** @return the run's segment size: its first datagram's length, bytes */
    int segmentSize() {
        return segmentSize;
    }

    /** @return the run's recipient */
    InetSocketAddress peer() {
        return peer;
    }

    /**
     * Ends the run and hands its buffer over; the run is empty afterwards.
     *
     * @return the buffer holding {@link #segments()} datagrams back to back (the caller owns and releases it)
     */
    ByteBuf take() {
        ByteBuf b = buf;
        buf = null;
        peer = null;
        return b;
    }

    /** Releases the run's buffer, if any (the channel closed before it was written). */
    void discard() {
        ByteBuf b = take();
        if (b != null) {
            b.release();
        }
    }
}
