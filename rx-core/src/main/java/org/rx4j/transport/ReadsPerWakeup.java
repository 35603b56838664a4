// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.util.function.BooleanSupplier;

/**
 * How many datagrams the event loop reads per wake-up (docs/transport.md "Reads per wake-up"): those of one read (one
 * datagram, one GRO read's segments or one recvmmsg batch of up to 8), or up to {@link #MAX_DATAGRAMS} over several
 * reads while the loop sends a transfer and receives none: while the last datagram it wrote was larger than
 * {@link IdleSpin#SMALL_WRITE_BYTES} (a DATA datagram, not a short call's message or an ACK) and it has read no such
 * datagram since; or after a datagram whose sender likely has more in the socket (the engine's
 * {@link org.rx4j.engine.RxEngine#lastSenderLikelyHasMore}: an OpenAFS peer with several calls in progress, or in the
 * middle of a reply longer than one window).
 *
 * <p>A sending loop's wake-ups bring ACKs: read one read at a time, each released a datagram or two of the window and
 * the next ACK waited behind an {@code epoll_wait}; read together, the DATA they release leaves in the burst's flush
 * (docs/benchmarks.md "Reads per wake-up"). A loop that receives a transfer stops reading on at its first DATA
 * datagram, so that its ACKs do not wait for a long burst, unless the engine expects more: OpenAFS sends each
 * datagram of its window on its own, and past a reply's first window its next ones are in flight behind it, so one
 * wake-up reads and acknowledges them together; a loop that makes short calls never starts: there reading on cost a
 * read that found nothing for each wake-up.
 *
 * <p>One instance serves one event loop: the encoder reports each datagram written to {@link #written(int)}, the
 * decoder each datagram read to {@link #read(int)}, the receive allocator asks {@link #readOn()}; all on that loop.
 */
final class ReadsPerWakeup {
    /**
     * Most datagrams one wake-up reads while reading on: Netty counts every datagram (each recvmmsg slot, each GRO
     * segment) against it, so 16 single reads, or two recvmmsg batches of 8.
     */
    static final int MAX_DATAGRAMS = 16;

    /** True while the loop sends a transfer: its last datagram written was DATA, and no DATA was read since. */
    private boolean sendingTransfer;
    /** Asked after each datagram: whether its sender likely has another one waiting; never, until set. */
    private BooleanSupplier senderHasMore = () -> false;

    /**
     * Sets what says, after a datagram, whether its sender likely has another one in the socket (the engine's view:
     * {@link org.rx4j.engine.RxEngine#lastSenderLikelyHasMore}). Set once, on the loop, when the engine exists.
     *
     * @param senderHasMore asked on the loop after each datagram read while the loop sends no transfer, when Netty's
     *     read loop decides whether to read again
     */
    void readOnWhenSenderHasMore(BooleanSupplier senderHasMore) {
        this.senderHasMore = senderHasMore;
    }

    /**
     * A datagram of {@code bytes} was written on this loop (for a GSO run: its segment size). Loop only.
     *
     * @param bytes its UDP payload, bytes
     */
    void written(int bytes) {
        sendingTransfer = bytes > IdleSpin.SMALL_WRITE_BYTES;
    }

    /**
     * A datagram of {@code bytes} was read on this loop; a DATA datagram ends reading on until the next one written.
     * Loop only.
     *
     * @param bytes its UDP payload, bytes
     */
    void read(int bytes) {
        if (bytes > IdleSpin.SMALL_WRITE_BYTES) {
            sendingTransfer = false;
        }
    }

    /**
     * @return true when the loop may read again in this wake-up: it sends a transfer and receives none, or the
     *     datagram it just read came from a sender that likely has another one waiting. Loop only.
     */
    boolean readOn() {
        return sendingTransfer || senderHasMore.getAsBoolean();
    }
}
