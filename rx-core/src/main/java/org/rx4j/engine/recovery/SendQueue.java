// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.rx4j.wire.PacketFlags;

/**
 * The transmit side of one call: packets from the hard-ack point (tfirst) to the next seq to assign
 * (rx-wire-facts.md §3, §5, §8). Keeps per-packet transmit state for retransmission and RTT samples; the
 * loss detector ({@link LossDetector}) marks entries acked or lost, the call's sender transmits them.
 * Seqs are 32-bit Rx seqs compared wrap-safe. Not thread-safe (the engine's thread).
 *
 * <p>Ownership: each entry owns one reference to its payload until hard-acked ({@link #releaseFirst()}) or
 * dropped ({@link #releaseAll()}); every transmission sends a retained duplicate.
 */
public final class SendQueue {
    /**
     * Packets above which a call's writer is no longer told it may write (2 × the 255-packet window, plus room). One
     * write may queue more: the queue holds up to {@link #MAX_PACKETS}.
     */
    public static final int CAPACITY = 1024;
    /**
     * Most packets the queue holds: one 512 KiB write cut at the smallest packet (492 data bytes) on top of a full
     * window, or 16,356-byte packets re-cut to 492 bytes (docs/engine.md "Path MTU below one full packet"), fit.
     */
    public static final int MAX_PACKETS = 1 << 16;

    /** Per-packet transmit state. Reused: entries live in a ring. */
    public static final class Entry {
        ByteBuf payload;
        /** The body as the security class prepared it for the wire, or null (rxnull sends the payload itself). */
        ByteBuf prepared;
        /** The spare/checksum value the security class gave the packet (0 with rxnull). */
        int spare;
        int flags;
        int lastSerial;
        int firstSerial;
        long sentAtNs;
        long firstSentAtNs;
        int transmits;
        // Delivery-rate snapshot of the last transmission (draft-ietf-ccwg-bbr §4.5.2.2).
        long deliveredAtSend;
        long deliveredTimeAtSendNs;
        long firstSentTimeAtSendNs;
        boolean appLimitedAtSend;
        int txInFlight;
        long lostAtSend;
        boolean softAcked;
        boolean lost;

        void clear() {
            payload = null;
            if (prepared != null) {
                prepared.release();
                prepared = null;
            }
            spare = 0;
            flags = 0;
            lastSerial = 0;
            firstSerial = 0;
            sentAtNs = 0;
            firstSentAtNs = 0;
            transmits = 0;
            deliveredAtSend = 0;
            deliveredTimeAtSendNs = 0;
            firstSentTimeAtSendNs = 0;
            appLimitedAtSend = false;
            txInFlight = 0;
            lostAtSend = 0;
            softAcked = false;
            lost = false;
        }

        /** @return the packet's payload (still owned by the queue) */
        public ByteBuf payload() {
            return payload;
        }

        /**
         * @return the DATA body that goes on the wire: the prepared body once the security class prepared it, else
         *     the payload (still owned by the queue)
         */
        public ByteBuf wire() {
            return prepared != null ? prepared : payload;
        }

        /** @return true once the packet has its wire body ({@link #prepare}); rxnull packets never need one */
        public boolean isPrepared() {
            return prepared != null;
        }

        /** @return the spare/checksum value for the packet's header */
        public int spare() {
            return spare;
        }

        /**
         * Gives the packet the body the security class prepared from its payload (before its first transmission; a
         * re-cut packet is new and prepared again). Ownership: the queue takes {@code body} and releases it with the
         * packet.
         *
         * @param body the prepared DATA body
         * @param checksum the spare/checksum value
         */
        public void prepare(ByteBuf body, int checksum) {
            if (prepared != null) {
                prepared.release();
            }
            prepared = body;
            spare = checksum;
        }

        /** @return LAST_PACKET or 0 */
        public int flags() {
            return flags;
        }

        /** @return how often the packet was sent, 0 before its first transmission */
        public int transmits() {
            return transmits;
        }

        /** @return when the packet was first transmitted, ns (engine clock); valid once {@link #transmits()} &gt; 0 */
        public long firstSentAtNs() {
            return firstSentAtNs;
        }

        /** @return when the packet was last transmitted, ns (engine clock); valid once {@link #transmits()} &gt; 0 */
        public long lastSentAtNs() {
            return sentAtNs;
        }

        /** @return true while the peer's latest ACK soft-acked the packet */
        public boolean isSoftAcked() {
            return softAcked;
        }

        /** @return true while the packet is marked lost and waits for its retransmission */
        public boolean isLost() {
            return lost;
        }

        /**
         * Records the path's delivery-rate state at this transmission (call just before {@link #recordTransmit}).
         *
         * @param rate the path's estimator; its send clocks restart when nothing is in flight
         * @param now the send time, ns
         */
        public void snapshot(org.rx4j.engine.cc.DeliveryRate rate, long now) {
            rate.onSend(now);
            deliveredAtSend = rate.delivered();
            deliveredTimeAtSendNs = rate.deliveredTimeNs();
            firstSentTimeAtSendNs = rate.firstSentTimeNs();
            appLimitedAtSend = rate.isAppLimited();
            txInFlight = rate.inFlight() + 1;
            lostAtSend = rate.lost();
        }

        /**
         * Records one transmission of the packet.
         *
         * @param serial the DATA packet's serial
         * @param now the send time, ns
         */
        public void recordTransmit(int serial, long now) {
            if (transmits == 0) {
                firstSerial = serial;
                firstSentAtNs = now;
            }
            lastSerial = serial;
            sentAtNs = now;
            transmits++;
        }
    }

    // Sized on demand (doubling up to MAX_PACKETS) and dropped again by releaseAll: an idle or finished call keeps
    // no 4 KiB ring (docs/benchmarks.md "Heap per idle connection"). Indexed by seq & (ring.length - 1).
    private Entry[] ring = NO_ENTRIES;
    private static final Entry[] NO_ENTRIES = new Entry[0];
    private static final int MIN_RING = 8;
    /** tfirst: lowest seq not hard-acked. */
    int first = 1;
    /** Next seq to assign to a new packet. */
    int next = 1;
    /** Lowest seq never transmitted. */
    int nextToSend = 1;
    /** Packets transmitted, neither acked (hard or soft) nor marked lost. */
    int inFlight;
    /** Packets marked lost and waiting for retransmission. */
    int lostCount;
    /** Seq of the packet carrying LAST_PACKET, 0 until the application finishes sending. */
    int lastSeq;
    /** Payload bytes of the packets hard-acked so far. */
    private long releasedBytes;
    /** Packets ever marked lost (NACK or timeout), cumulative. */
    long lostMarks;
    /** Loss events: runs of adjacent packets marked lost, one per timeout; cumulative. */
    long lossEvents;

    /** @return tfirst: the lowest seq not hard-acked */
    public int first() {
        return first;
    }

    /** @return the next seq a new packet gets */
    public int next() {
        return next;
    }

    /** @return the lowest seq never transmitted */
    public int nextToSend() {
        return nextToSend;
    }

    /** @return packets transmitted and neither acked (hard or soft) nor marked lost */
    public int inFlight() {
        return inFlight;
    }

    /** @return packets marked lost and waiting for retransmission */
    public int lostCount() {
        return lostCount;
    }

    /** @return the seq of the packet carrying LAST_PACKET, 0 until the application finishes sending */
    public int lastSeq() {
        return lastSeq;
    }

    /** @return packets ever marked lost on this queue (NACKs and timeouts), cumulative */
    public long lostMarks() {
        return lostMarks;
    }

    /** @return packets queued and not hard-acked */
    public int size() {
        return next - first;
    }

    /** @return true when something was sent that is not hard-acked, or a lost packet waits (the RTO runs) */
    public boolean hasUnacked() {
        return inFlight > 0 || lostCount > 0 || first != nextToSend;
    }

    /**
     * Appends a packet.
     *
     * @param payload the data; ownership passes to the queue
     * @param flags LAST_PACKET or 0
     * @return the seq assigned
     * @throws IllegalStateException if the queue holds {@link #MAX_PACKETS} packets (callers write only while
     *     fewer than {@link #CAPACITY} wait)
     */
    public int add(ByteBuf payload, int flags) {
        if (size() >= MAX_PACKETS) {
            payload.release();
            throw new IllegalStateException("send queue full");
        }
        return addUnchecked(payload, flags);
    }

    /**
     * @param seq a seq in [first, next)
     * @return its entry
     */
    public Entry get(int seq) {
        return ring[seq & (ring.length - 1)];
    }

    /** Resizes the ring to {@code n} entries (a power of two above the queued count), keeping every entry at its seq. */
    private void growTo(int n) {
        if (n > MAX_PACKETS) {
            throw new IllegalStateException("send queue ring above " + MAX_PACKETS);
        }
        Entry[] bigger = new Entry[n];
        for (int s = first; s - next < 0; s++) {
            bigger[s & (n - 1)] = get(s);
        }
        ring = bigger;
    }

    /** @return true when seq is queued and not yet hard-acked */
    public boolean contains(int seq) {
        return seq - first >= 0 && seq - next < 0;
    }

    /**
     * Records that {@code k} new packets from {@link #nextToSend()} on were transmitted.
     *
     * @param k packets, >= 1
     */
    public void markSent(int k) {
        nextToSend += k;
        inFlight += k;
    }

    /**
     * A lost packet is being retransmitted: it is in flight again.
     *
     * @param e its entry (marked lost)
     */
    public void markResent(Entry e) {
        e.lost = false;
        lostCount--;
        inFlight++;
    }

    /** @return payload bytes of every packet hard-acked so far (freed by {@link #releaseFirst()}), bytes */
    public long releasedBytes() {
        return releasedBytes;
    }

    /**
     * Frees the packet at tfirst (hard-acked) and advances tfirst by one.
     *
     * @return 1 when the packet was neither soft-acked nor lost-and-unsent before (newly acked), else 0
     */
    int releaseFirst() {
        Entry e = get(first);
        releasedBytes += e.payload.readableBytes();
        int newly = 0;
        if (!e.softAcked) {
            newly = 1;
            if (e.lost) {
                lostCount--;
            } else if (e.transmits > 0) {
                inFlight--;
            }
        }
        e.payload.release();
        e.clear();
        first++;
        return newly;
    }

    /**
     * Frees every packet below {@code newFirst} (clamped to what was sent): an ACKALL or an implicit ack.
     *
     * @param newFirst the new tfirst
     * @return packets freed that were neither soft-acked nor lost-and-unsent before
     */
    public int hardAck(int newFirst) {
        int end = clampToSent(newFirst);
        int newly = 0;
        while (first - end < 0) {
            newly += releaseFirst();
        }
        return newly;
    }

    /** @return {@code seq}, or {@link #nextToSend()} when seq lies beyond what was sent */
    int clampToSent(int seq) {
        return seq - nextToSend > 0 ? nextToSend : seq;
    }

    /** @return true when the whole stream through LAST_PACKET is hard-acked */
    public boolean allHardAcked() {
        return lastSeq != 0 && first - lastSeq > 0;
    }

    /** @return true when every packet through LAST_PACKET is hard- or soft-acked */
    public boolean allAcked() {
        if (lastSeq == 0 || nextToSend - lastSeq <= 0) {
            return false;
        }
        for (int s = first; s - next < 0; s++) {
            if (!get(s).softAcked) {
                return false;
            }
        }
        return true;
    }

    /**
     * Marks every transmitted packet that is not soft-acked as lost (retransmission timeout).
     *
     * @return packets newly marked
     */
    public int markAllLost() {
        int n = 0;
        for (int s = first; s - nextToSend < 0; s++) {
            Entry e = get(s);
            if (!e.softAcked && !e.lost) {
                e.lost = true;
                n++;
            }
        }
        lostCount += n;
        lostMarks += n;
        if (n > 0) {
            lossEvents++;
        }
        inFlight = 0;
        return n;
    }

    /**
     * Marks one transmitted packet soft-acked (a lost one stops waiting for its retransmission).
     *
     * @param e its entry, not soft-acked yet
     */
    void markSoftAcked(Entry e) {
        if (e.lost) {
            e.lost = false;
            lostCount--;
        } else {
            inFlight--;
        }
        e.softAcked = true;
    }

    /**
     * Marks one transmitted packet lost (NACK-driven), counting a new loss event unless a neighbour is already lost
     * (a lost jumbogram or burst is one event, as the draft-ietf-ccwg-bbr loss-event count wants).
     *
     * @param seq its seq, in [first, nextToSend)
     */
    public void markLost(int seq) {
        Entry e = get(seq);
        if (e.lost || e.transmits == 0) {
            return;
        }
        boolean joins = (contains(seq - 1) && get(seq - 1).lost) || (contains(seq + 1) && get(seq + 1).lost);
        if (!joins) {
            lossEvents++;
        }
        markLost(e);
    }

    /** @return loss events so far (runs of adjacent packets marked lost; a timeout counts one), cumulative */
    public long lossEvents() {
        return lossEvents;
    }

    /**
     * Marks one transmitted packet lost (NACK-driven); counts no loss event (see {@link #markLost(int)}).
     *
     * @param e its entry
     */
    public void markLost(Entry e) {
        if (e.lost || e.transmits == 0) {
            return;
        }
        if (e.softAcked) {
            e.softAcked = false;
        } else {
            inFlight--;
        }
        e.lost = true;
        lostCount++;
        lostMarks++;
    }

    /**
     * Re-cuts the packets from {@code from} on into packets of at most {@code dataSize} bytes, numbered from
     * {@code from} (path MTU below the packets' size: docs/engine.md "Path MTU below one full packet"). The bytes and
     * their order are unchanged, LAST_PACKET moves to the new last packet, and every re-cut packet counts as never
     * transmitted; {@link #nextToSend()} becomes {@code from} when it was above it.
     *
     * <p>Safety is the caller's: the receiver assembles by seq, so no packet from {@code from} on may be held by it
     * or still be on its way to it (the caller checks; see {@code CallSender}). No packet in the range may be
     * soft-acked. A rare path: it allocates (one buffer per new packet, the bytes are copied).
     *
     * <p>Ownership: releases the queue's references to the old payloads; the new ones belong to the queue.
     *
     * @param from first seq to re-cut, in [first, next)
     * @param dataSize bytes of data per new packet, &gt;= 1
     * @param alloc where the new packets' buffers come from
     * @return packets in the queue after the re-cut minus before (negative when short packets were merged)
     * @throws IllegalArgumentException if {@code from} is outside [first, next) or a packet in the range is
     *     soft-acked
     */
    public int recut(int from, int dataSize, ByteBufAllocator alloc) {
        if (from - first < 0 || from - next >= 0 || dataSize < 1) {
            throw new IllegalArgumentException("recut from " + from + " outside [" + first + ", " + next + ")");
        }
        int n = next - from;
        for (int i = 0; i < n; i++) {
            if (get(from + i).softAcked) {
                throw new IllegalArgumentException("recut over soft-acked seq " + (from + i));
            }
        }
        ByteBuf[] old = new ByteBuf[n];
        int lastFlags = 0;
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            Entry e = get(from + i);
            if (e.lost) {
                lostCount--;
            } else if (e.transmits > 0) {
                inFlight--;
            }
            old[i] = e.payload;
            bytes += e.payload.readableBytes();
            lastFlags = e.flags;
            e.clear();
        }
        int before = size();
        next = from;
        if (nextToSend - from > 0) {
            nextToSend = from;
        }
        if (lastSeq != 0 && lastSeq - from >= 0) {
            lastSeq = 0;
        }
        boolean finished = (lastFlags & PacketFlags.LAST_PACKET) != 0;
        int src = 0;
        int srcOffset = 0;
        do {
            int len = (int) Math.min(dataSize, bytes);
            ByteBuf p = alloc.buffer(len, len);
            while (p.isWritable()) {
                ByteBuf o = old[src];
                int take = Math.min(p.writableBytes(), o.readableBytes() - srcOffset);
                p.writeBytes(o, o.readerIndex() + srcOffset, take);
                srcOffset += take;
                if (srcOffset == o.readableBytes()) {
                    src++;
                    srcOffset = 0;
                }
            }
            bytes -= len;
            addUnchecked(p, bytes == 0 && finished ? PacketFlags.LAST_PACKET : 0);
        } while (bytes > 0);
        for (ByteBuf o : old) {
            o.release();
        }
        return size() - before;
    }

    /**
     * Appends a packet without {@link #add}'s refusal of a full queue: a re-cut has released its old packets already,
     * so a full queue there is an error ({@link #growTo} throws), not a refusal.
     *
     * @return the seq assigned
     */
    private int addUnchecked(ByteBuf payload, int flags) {
        if (size() >= ring.length) {
            growTo(Math.max(MIN_RING, 2 * ring.length));
        }
        int seq = next++;
        int mask = ring.length - 1;
        Entry e = ring[seq & mask];
        if (e == null) {
            e = new Entry();
            ring[seq & mask] = e;
        }
        e.clear();
        e.payload = payload;
        e.flags = flags;
        if ((flags & PacketFlags.LAST_PACKET) != 0) {
            lastSeq = seq;
        }
        return seq;
    }

    /** Releases every payload (call teardown). */
    public void releaseAll() {
        for (int s = first; s - next < 0; s++) {
            Entry e = get(s);
            if (e.payload != null) {
                e.payload.release();
            }
            e.clear();
        }
        first = next;
        nextToSend = next;
        inFlight = 0;
        lostCount = 0;
        ring = NO_ENTRIES; // nothing is queued any more: give the ring back (a later add grows it again)
    }
}
