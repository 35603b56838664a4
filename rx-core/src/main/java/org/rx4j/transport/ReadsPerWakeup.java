// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

/**
 * How many datagrams the event loop reads per wake-up (docs/transport.md "Reads per wake-up"): those of one read (one
 * datagram, one GRO read's segments or one recvmmsg batch of up to 8), or up to {@link #MAX_DATAGRAMS} over several
 * reads while the loop sends a transfer and receives none: while the last datagram it wrote was larger than
 * {@link IdleSpin#SMALL_WRITE_BYTES} (a DATA datagram, not a short call's message or an ACK) and it has read no such
 * datagram since.
 *
 * <p>A sending loop's wake-ups bring ACKs: read one read at a time, each released a datagram or two of the window and
 * the next ACK waited behind an {@code epoll_wait}; read together, the DATA they release leaves in the burst's flush
 * (docs/benchmarks.md "Reads per wake-up"). A loop that receives a transfer stops reading on at its first DATA
 * datagram, so that its ACKs do not wait for a long burst; a loop that makes short calls never starts: there reading
 * on cost a read that found nothing for each wake-up.
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

    /** @return true when the loop may read again in this wake-up (it sends a transfer and receives none). Loop only. */
    boolean readOn() {
        return sendingTransfer;
    }
}
