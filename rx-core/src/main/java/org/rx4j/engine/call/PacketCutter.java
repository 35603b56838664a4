// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.wire.PacketFlags;

/**
 * Cuts one call's outgoing bytes into DATA packets on its {@link SendQueue}: full packets as retained slices of the
 * application's buffer, the rest in a partial packet filled by the next write, the last packet (LAST_PACKET) at the
 * end (rx-wire-facts.md §5, §6). The size is the peer's packet size when the bytes are written (docs/engine.md
 * "Packet size"); when the path turns out narrower, packets never transmitted are re-cut, and the sender re-cuts
 * transmitted ones where its prober says that is safe ("Path MTU below one full packet"). Runs on the engine's
 * thread.
 */
final class PacketCutter {
    private final SendQueue sq;
    private final ByteBufAllocator alloc;
    /** Bytes of DATA payload per packet cut from now on; packets already cut keep theirs unless re-cut. */
    private int dataSize;
    /**
     * At least the data bytes of every queued packet never transmitted (an upper bound, bytes): when the peer's
     * packet size falls below it, {@link #recutUnsent} looks for packets to re-cut.
     */
    private int unsentCutMax;
    /** True when this call's first packet was cut smaller than {@link #dataSize} on an unproven path. */
    private boolean firstCutSmall;
    private ByteBuf partial;
    /** The packet size {@link #growUnsent} was last asked with, bytes: joins happen only when it grows. */
    private int sizeLastAsked;

    /**
     * @param sq the call's send queue
     * @param alloc allocates partial packets and re-cut ones
     * @param dataSize the peer's data bytes per packet when the call starts
     */
    PacketCutter(SendQueue sq, ByteBufAllocator alloc, int dataSize) {
        this.sq = sq;
        this.alloc = alloc;
        this.dataSize = dataSize;
        this.sizeLastAsked = dataSize;
    }

    /**
     * Queues the application's bytes. Ownership: takes {@code data} (released here).
     *
     * @param data the bytes
     * @param size the peer's data bytes per packet now
     * @param firstSize data bytes for the call's first packet: below {@code size} on a path that never carried a
     *     full-size packet of ours (a client's request, so the server hears of the call and can answer the probes)
     */
    void append(ByteBuf data, int size, int firstSize) {
        // A partial packet cut at the old size fills to its own capacity and is queued as it is.
        dataSize = size;
        try {
            if (partial != null) {
                int n = Math.min(partial.writableBytes(), data.readableBytes());
                partial.writeBytes(data, n);
                if (!partial.isWritable()) {
                    queueUnsent(partial, 0);
                    partial = null;
                }
            }
            if (sq.next() == 1 && partial == null && data.isReadable() && firstSize < dataSize) {
                firstCutSmall = true;
                if (data.readableBytes() >= firstSize) {
                    sq.add(data.readRetainedSlice(firstSize), 0);
                } else {
                    partial = alloc.buffer(firstSize, firstSize);
                    partial.writeBytes(data);
                }
            }
            unsentCutMax = Math.max(unsentCutMax, dataSize);
            while (data.readableBytes() >= dataSize) {
                sq.add(data.readRetainedSlice(dataSize), 0);
            }
            if (data.isReadable()) {
                partial = alloc.buffer(dataSize, dataSize);
                partial.writeBytes(data);
            }
        } finally {
            data.release();
        }
    }

    /**
     * Queues a packet that was cut earlier (the partial one): when the peer's packet size fell below it meanwhile, it
     * is re-cut at once (never transmitted, so always safe). Ownership: takes {@code payload}.
     */
    private void queueUnsent(ByteBuf payload, int flags) {
        int bytes = payload.readableBytes();
        int seq = sq.add(payload, flags);
        if (bytes > dataSize) {
            sq.recut(seq, dataSize, alloc);
        }
        unsentCutMax = Math.max(unsentCutMax, Math.min(dataSize, bytes));
    }

    /** @return true when the partly filled packet was queued as a short packet; false when none holds bytes */
    boolean flushPartial() {
        if (partial == null || !partial.isReadable()) {
            return false;
        }
        queueUnsent(partial, 0);
        partial = null;
        return true;
    }

    /** Queues the last packet (LAST_PACKET): the partial packet, or an empty one (§6). */
    void finish() {
        ByteBuf last = partial != null ? partial : alloc.buffer(0, 0);
        partial = null;
        queueUnsent(last, PacketFlags.LAST_PACKET);
    }

    /** Releases the partial packet (call teardown); the send queue is the caller's to release. */
    void release() {
        if (partial != null) {
            partial.release();
            partial = null;
        }
    }

    /**
     * Packets never transmitted that are larger than the peer's packet size now (the path was found narrower, or a
     * large-packet proof was withdrawn) are re-cut before they go out. Always safe: the receiver has never seen
     * their seqs.
     *
     * @param max the peer's data bytes per packet now
     */
    void recutUnsent(int max) {
        if (max >= unsentCutMax) {
            return;
        }
        dataSize = Math.min(dataSize, max);
        unsentCutMax = max;
        int s = sq.nextToSend();
        while (s - sq.next() < 0 && sq.get(s).payload().readableBytes() <= max) {
            s++; // the first packet never sent that is larger than max
        }
        if (s != sq.next()) {
            sq.recut(s, max, alloc);
        }
    }

    /**
     * Packets never transmitted that were cut smaller than the peer's packet size now (a larger size was proven while
     * they waited in the queue) are joined into packets of that size before they go out, so the rest of the call
     * travels in fewer datagrams (docs/engine.md "Packet size"). Always safe, as for {@link #recutUnsent}: the receiver
     * has never seen their seqs. Only when the size grew since the last time asked: packets the application cut short
     * with a flush after that stay as they are. Seq 1 is left alone until it went out: it stays small until the path
     * carried a full-size packet of ours.
     *
     * @param max the peer's data bytes per packet now
     * @return true when packets were joined
     */
    boolean growUnsent(int max) {
        boolean grew = max > sizeLastAsked;
        sizeLastAsked = max;
        int from = sq.nextToSend();
        if (!grew || from == 1 || sq.next() - from < 2 || sq.get(from).payload().readableBytes() >= max) {
            return false;
        }
        sq.recut(from, max, alloc);
        dataSize = Math.max(dataSize, max);
        unsentCutMax = Math.max(unsentCutMax, max);
        return true;
    }

    /**
     * Re-cuts every packet from {@code from} on at {@code max} data bytes: the caller checked that the receiver
     * holds none of them ({@link org.rx4j.engine.pmtu.PathMtuProber#onAck}).
     *
     * @param from the first seq to re-cut
     * @param max data bytes per packet
     */
    void recut(int from, int max) {
        sq.recut(from, max, alloc);
        dataSize = Math.min(dataSize, max);
        unsentCutMax = max; // every packet never sent is now at most max (those below from were already)
    }

    /** @return data bytes per packet cut from now on */
    int dataSize() {
        return dataSize;
    }

    /** @return true when this call's first packet was cut small on a path not proven at full size */
    boolean firstCutSmall() {
        return firstCutSmall;
    }
}
