// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import io.netty.buffer.ByteBuf;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.OutboundPackets;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxConstants;

/**
 * The receive side of one call: packets held between the hard-ack point and the highest seq received
 * (rx-wire-facts.md §3 "Hard vs soft", §8). Seq numbers are the call's DATA seqs (1, 2, ...).
 *
 * <p>Ownership: the queue keeps only the payload of each DATA packet it accepted (not the packet or its header,
 * which may be the decoder's reused flyweight) and owns it until {@link #poll()} hands it to the
 * caller or {@link #releaseAll()} drops it.
 */
public final class ReceiveQueue {
    /** {@link #offer} result: stored. */
    static final int ACCEPTED = 0;
    /** {@link #offer} result: already held or consumed; released. */
    static final int DUPLICATE = 1;
    /** {@link #offer} result: beyond the receive window; released. */
    static final int EXCEEDS_WINDOW = 2;
    /** {@link #offer} result: above the seq of the LAST_PACKET accepted; released. */
    static final int BEYOND_LAST = 3;

    // Sized on demand (doubling up to 256 = the largest window) and dropped by releaseAll, so an idle or finished
    // call keeps no 1 KiB array. Indexed by seq & (slots.length - 1); every held seq lies in
    // [first, first + slots.length).
    private ByteBuf[] slots = NO_SLOTS;
    private static final ByteBuf[] NO_SLOTS = new ByteBuf[0];
    private static final byte[] NO_ACKS = new byte[0];
    private static final int MIN_SLOTS = 8;
    private static final int MAX_SLOTS = 256;
    /** firstPacket: the next seq to hand to the application; everything below is hard-acked. */
    private int first = 1;
    /** Every seq below this has been received. */
    private int next = 1;
    /** Highest seq received (0 before any). */
    private int highest;
    /** Seq of the packet carrying LAST_PACKET, 0 while unknown. */
    private int lastSeq;
    private int held;
    /** Bytes of the packets held (28-byte header + payload each): what a held server call keeps. */
    private long heldBytes;

    /**
     * Accepts one DATA packet. The first LAST_PACKET accepted holds (docs/robustness.md "Rule: the first
     * LAST_PACKET holds"): the stream ends at its seq, so a later packet above it is refused ({@link #BEYOND_LAST});
     * a LAST_PACKET flag at a lower seq than one accepted, or below a seq already received, is ignored as a flag
     * (the packet is still data), so nothing received below the stream's end is ever discarded.
     *
     * @param p the packet; ownership of its payload passes to the queue (released here unless ACCEPTED); the packet
     *     object itself is not kept
     * @param window the receive window, packets (1..255): seqs at or beyond first + window are refused
     * @return ACCEPTED, DUPLICATE, EXCEEDS_WINDOW or BEYOND_LAST
     */
    int offer(DataPacket p, int window) {
        int seq = p.header().seq();
        int offset = seq - first;
        if (offset < 0) {
            p.release();
            return DUPLICATE;
        }
        if (lastSeq != 0 && seq - lastSeq > 0) {
            p.release();
            return BEYOND_LAST;
        }
        if (offset >= window || offset >= RxConstants.MAX_ACKS) {
            p.release();
            return EXCEEDS_WINDOW;
        }
        if (offset >= slots.length) {
            grow(offset + 1);
        }
        int slot = seq & (slots.length - 1);
        if (slots[slot] != null) {
            p.release();
            return DUPLICATE;
        }
        slots[slot] = p.payload();
        held++;
        heldBytes += RxConstants.HEADER_SIZE + p.payload().readableBytes();
        if (p.header().hasFlag(PacketFlags.LAST_PACKET) && lastSeq == 0 && seq - highest >= 0) {
            lastSeq = seq;
        }
        if (seq - highest > 0) {
            highest = seq;
        }
        while (next - first < slots.length && slots[next & (slots.length - 1)] != null) {
            if (next == lastSeq) {
                next++;
                break;
            }
            next++;
        }
        return ACCEPTED;
    }

    /** Grows the slots to a power of two of at least {@code needed} entries, keeping each held packet at its seq. */
    private void grow(int needed) {
        int n = Math.max(MIN_SLOTS, slots.length);
        while (n < needed) {
            n *= 2;
        }
        n = Math.min(n, MAX_SLOTS);
        ByteBuf[] bigger = new ByteBuf[n];
        // Every held seq lies in [first, first + slots.length): move each to its slot in the bigger array.
        for (int i = 0; i < slots.length; i++) {
            int seq = first + i;
            ByteBuf b = slots[seq & (slots.length - 1)];
            if (b != null) {
                bigger[seq & (n - 1)] = b;
            }
        }
        slots = bigger;
    }

    /** @return true when a packet beyond a gap is held (some seq in [next, highest) is missing) */
    boolean hasGap() {
        return highest - next >= 0;
    }

    /**
     * Hands the next in-order packet's payload to the caller.
     *
     * @return the payload (the caller now owns it; possibly empty) or null if the next packet has not arrived
     */
    ByteBuf poll() {
        if (first == next || slots.length == 0) { // nothing in order, or released (the call ended)
            return null;
        }
        int slot = first & (slots.length - 1);
        ByteBuf p = slots[slot];
        if (p == null) { // only after releaseAll and a later offer: nothing in order is held
            return null;
        }
        slots[slot] = null;
        held--;
        heldBytes -= RxConstants.HEADER_SIZE + p.readableBytes();
        first++;
        return p;
    }

    /** @return true when in-order data is waiting for {@link #poll()} */
    boolean hasReadable() {
        return first != next && slots.length != 0;
    }

    /** @return firstPacket for ACKs: the next seq to consume */
    int first() {
        return first;
    }

    /** @return the highest seq received so far, 0 if none */
    int highest() {
        return highest;
    }

    /** @return true when every packet through LAST_PACKET has arrived */
    boolean allReceived() {
        return lastSeq != 0 && next - lastSeq > 0;
    }

    /** @return true when every packet through LAST_PACKET has been consumed */
    boolean allConsumed() {
        return lastSeq != 0 && first - lastSeq > 0;
    }

    /** @return number of packets held (received, not consumed) */
    int held() {
        return held;
    }

    /** @return bytes of the packets held (28-byte header + payload each, as they arrived) */
    long heldBytes() {
        return heldBytes;
    }

    /**
     * Builds the soft-ack array: entry i describes seq first + i, up to the highest seq held.
     *
     * @param reuse the engine's reused outgoing packets, whose soft-ack array of this length is filled, or null for
     *     a new array
     * @return an array of 0..255 entries ({@link AckPacket#ACKED} / {@link AckPacket#NACKED}): reuse's, a new one,
     *     or one shared empty array when nothing beyond firstPacket is held (never written to)
     */
    byte[] softAcks(OutboundPackets reuse) {
        int n = Math.max(0, Math.min(highest - first + 1, RxConstants.MAX_ACKS));
        if (n == 0) {
            return NO_ACKS;
        }
        byte[] acks = reuse != null ? reuse.acks(n) : new byte[n];
        int len = slots.length;
        for (int i = 0; i < n; i++) {
            acks[i] = i < len && slots[(first + i) & (len - 1)] != null ? AckPacket.ACKED : AckPacket.NACKED;
        }
        return acks;
    }

    /** Releases every held packet (call teardown). */
    void releaseAll() {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null) {
                slots[i].release();
                slots[i] = null;
            }
        }
        held = 0;
        heldBytes = 0;
        slots = NO_SLOTS; // a later offer grows them again
    }
}
