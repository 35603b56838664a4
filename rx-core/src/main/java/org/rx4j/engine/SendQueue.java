package org.rx4j.engine;

import io.netty.buffer.ByteBuf;

/**
 * The transmit side of one call: packets from the hard-ack point (tfirst) to the next seq to assign
 * (rx-wire-facts.md §3, §5, §8). Keeps per-packet transmit state for retransmission and RTT samples.
 *
 * <p>Ownership: each entry owns one reference to its payload until hard-acked ({@link #hardAck}) or
 * dropped ({@link #releaseAll()}); every transmission sends a retained duplicate.
 */
final class SendQueue {
    /** Largest number of packets the queue can hold (2 × the 255-packet window, plus room). */
    static final int CAPACITY = 1024;

    /** Per-packet transmit state. Reused: entries live in a ring. */
    static final class Entry {
        ByteBuf payload;
        int flags;
        int lastSerial;
        int firstSerial;
        long sentAtNs;
        int transmits;
        boolean softAcked;
        boolean lost;

        void clear() {
            payload = null;
            flags = 0;
            lastSerial = 0;
            firstSerial = 0;
            sentAtNs = 0;
            transmits = 0;
            softAcked = false;
            lost = false;
        }
    }

    private final Entry[] ring = new Entry[CAPACITY];
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

    /** @return packets queued and not hard-acked */
    int size() {
        return next - first;
    }

    /**
     * Appends a packet.
     *
     * @param payload the data; ownership passes to the queue
     * @param flags LAST_PACKET or 0
     * @return the seq assigned
     * @throws IllegalStateException if the queue is full (callers check {@link #size()} first)
     */
    int add(ByteBuf payload, int flags) {
        if (size() >= CAPACITY) {
            payload.release();
            throw new IllegalStateException("send queue full");
        }
        int seq = next++;
        Entry e = ring[seq & (CAPACITY - 1)];
        if (e == null) {
            e = new Entry();
            ring[seq & (CAPACITY - 1)] = e;
        }
        e.clear();
        e.payload = payload;
        e.flags = flags;
        if ((flags & org.rx4j.wire.PacketFlags.LAST_PACKET) != 0) {
            lastSeq = seq;
        }
        return seq;
    }

    /**
     * @param seq a seq in [first, next)
     * @return its entry
     */
    Entry get(int seq) {
        return ring[seq & (CAPACITY - 1)];
    }

    /** @return true when seq is queued and not yet hard-acked */
    boolean contains(int seq) {
        return seq - first >= 0 && seq - next < 0;
    }

    /**
     * Frees every packet below {@code newFirst} (clamped to what was sent).
     *
     * @param newFirst the ACK's firstPacket
     * @param visitor called for each entry before it is freed (for RTT samples and counting), may be null
     * @return number of packets freed that were neither soft-acked nor lost-and-unsent before
     */
    int hardAck(int newFirst, EntryVisitor visitor) {
        if (newFirst - nextToSend > 0) {
            newFirst = nextToSend;
        }
        int newly = 0;
        while (first - newFirst < 0) {
            Entry e = get(first);
            if (visitor != null) {
                visitor.visit(first, e);
            }
            if (!e.softAcked) {
                newly++;
                if (e.lost) {
                    lostCount--;
                } else if (e.transmits > 0) {
                    inFlight--;
                }
            }
            e.payload.release();
            e.clear();
            first++;
        }
        return newly;
    }

    /** Callback over entries being acked. */
    interface EntryVisitor {
        /**
         * @param seq the entry's seq
         * @param e the entry (still holding its payload)
         */
        void visit(int seq, Entry e);
    }

    /** @return true when the whole stream through LAST_PACKET is hard-acked */
    boolean allHardAcked() {
        return lastSeq != 0 && first - lastSeq > 0;
    }

    /** @return true when every packet through LAST_PACKET is hard- or soft-acked */
    boolean allAcked() {
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
    int markAllLost() {
        int n = 0;
        for (int s = first; s - nextToSend < 0; s++) {
            Entry e = get(s);
            if (!e.softAcked && !e.lost) {
                e.lost = true;
                n++;
            }
        }
        lostCount += n;
        inFlight = 0;
        return n;
    }

    /**
     * Marks one transmitted packet lost (NACK-driven).
     *
     * @param e its entry
     */
    void markLost(Entry e) {
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
    }

    /** Releases every payload (call teardown). */
    void releaseAll() {
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
    }
}
