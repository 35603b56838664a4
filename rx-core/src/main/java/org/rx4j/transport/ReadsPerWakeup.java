// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

/**
 * How many reads the event loop makes per wake-up (docs/transport.md "Reads per wake-up"): one, as Netty's default
 * allocator does, or up to {@link #MAX_READS} while the loop sends a transfer, i.e. while the last datagram it wrote
 * was larger than {@link IdleSpin#SMALL_WRITE_BYTES} (a DATA datagram, not a short call's message or an ACK).
 *
 * <p>A sending loop's wake-ups bring ACKs: read one at a time, each releases a datagram or two of the window and
 * the next ACK waits behind an {@code epoll_wait}; read together, the loop takes them all, then sends what they
 * released in one flush (one GSO send where the kernel offers it), as OpenAFS's sender does after draining its
 * socket. A loop that makes short calls or receives a transfer keeps one read per wake-up: there reading on held the
 * next call's request back, or cost a read that found nothing (docs/benchmarks.md "Reads per wake-up").
 *
 * <p>One instance serves one event loop: the encoder reports each write to {@link #written(int)}, the receive
 * allocator asks {@link #readOn()}; both on that loop.
 */
final class ReadsPerWakeup {
    /** Most reads per wake-up while sending a transfer (each a recvmsg, or a recvmmsg of up to 8 datagrams). */
    static final int MAX_READS = 16;

    /** True while the last datagram written was larger than {@link IdleSpin#SMALL_WRITE_BYTES}. */
    private boolean sendingTransfer;

    /**
     * A datagram of {@code bytes} was written on this loop (a GSO run counts as its whole buffer). Loop only.
     *
     * @param bytes its UDP payload, bytes
     */
    void written(int bytes) {
        sendingTransfer = bytes > IdleSpin.SMALL_WRITE_BYTES;
    }

    /** @return true when the loop may read again in this wake-up: its last write was a transfer's DATA. Loop only. */
    boolean readOn() {
        return sendingTransfer;
    }
}
