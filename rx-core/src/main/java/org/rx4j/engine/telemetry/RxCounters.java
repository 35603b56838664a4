// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.telemetry;

import org.rx4j.counters.RxCounter;
import org.rx4j.wire.PacketType;

/**
 * The values of the {@link RxCounter}s of one connection, one peer or the endpoint itself (design.md "Counters
 * without contention"): one plain {@code long} slot per counter and label, no atomics, written and read only on the
 * engine's thread. A connection's or a peer's object holds the {@link RxCounter.Scope#CONNECTION} counters only
 * (the enum declares them first); the endpoint's own object and every total hold them all. Totals are summed on
 * demand with {@link #addTo}; the RPC layer copies a total into its immutable {@code CounterStats}.
 */
public final class RxCounters {
    private static final RxCounter[] ALL = RxCounter.values();
    /** First slot of each counter, by ordinal. */
    private static final int[] FIRST = new int[ALL.length];
    /** Whether a slot combines by maximum ({@link RxCounter.Kind#MAXIMUM}) rather than by sum. */
    private static final boolean[] MAX_SLOT;
    /** Slots of the connection-scoped counters, which lead the enum. */
    private static final int CONNECTION_SLOTS;
    private static final int ALL_SLOTS;

    static {
        int n = 0;
        int connectionSlots = -1;
        for (RxCounter c : ALL) {
            if (c.scope() == RxCounter.Scope.ENDPOINT && connectionSlots < 0) {
                connectionSlots = n;
            } else if (c.scope() == RxCounter.Scope.CONNECTION && connectionSlots >= 0) {
                throw new IllegalStateException(c + ": connection-scoped counters must precede the endpoint's");
            }
            FIRST[c.ordinal()] = n;
            n += width(c);
        }
        ALL_SLOTS = n;
        CONNECTION_SLOTS = connectionSlots < 0 ? n : connectionSlots;
        MAX_SLOT = new boolean[n];
        for (RxCounter c : ALL) {
            for (int i = 0; i < width(c); i++) {
                MAX_SLOT[FIRST[c.ordinal()] + i] = c.kind() == RxCounter.Kind.MAXIMUM;
            }
        }
    }

    private final long[] slots;

    /**
     * @param scope {@link RxCounter.Scope#CONNECTION} for a connection's or a peer's counters (the endpoint's
     *     counters then throw ArrayIndexOutOfBoundsException), {@link RxCounter.Scope#ENDPOINT} for all
     */
    public RxCounters(RxCounter.Scope scope) {
        this.slots = new long[scope == RxCounter.Scope.CONNECTION ? CONNECTION_SLOTS : ALL_SLOTS];
    }

    private static int width(RxCounter c) {
        return Math.max(1, c.labels().size());
    }

    public static int typeSlot(int type) {
        return type >= 0 && type < 15 ? type : 15;
    }

    /**
     * Counts one occurrence.
     *
     * @param c the counter (its first label for a labelled one)
     */
    public void increment(RxCounter c) {
        slots[FIRST[c.ordinal()]]++;
    }

    /**
     * Adds to a counter.
     *
     * @param c the counter
     * @param n what to add, in the counter's unit
     */
    public void add(RxCounter c, long n) {
        slots[FIRST[c.ordinal()]] += n;
    }

    /**
     * Counts one occurrence under a label.
     *
     * @param c a labelled counter
     * @param label index into {@link RxCounter#labels()} (a packet type or ACK reason code, a decode error's
     *     ordinal); the caller keeps it in range, an index past the labels counts under the next counter
     */
    public void increment(RxCounter c, int label) {
        slots[FIRST[c.ordinal()] + label]++;
    }

    /**
     * Adds under a label.
     *
     * @param c a labelled counter
     * @param label index into {@link RxCounter#labels()}
     * @param n what to add, in the counter's unit
     */
    public void add(RxCounter c, int label, long n) {
        slots[FIRST[c.ordinal()] + label] += n;
    }

    /**
     * Raises a {@link RxCounter.Kind#MAXIMUM} counter to {@code value} if that is larger.
     *
     * @param c the counter
     * @param value the value seen
     */
    public void raiseTo(RxCounter c, long value) {
        int i = FIRST[c.ordinal()];
        slots[i] = Math.max(slots[i], value);
    }

    /**
     * @param c the counter
     * @return its value; a labelled counter's sum over its labels; 0 for an endpoint counter in a connection's or
     *     a peer's object
     */
    public long get(RxCounter c) {
        int first = FIRST[c.ordinal()];
        if (first >= slots.length) {
            return 0;
        }
        long n = 0;
        for (int i = 0; i < width(c); i++) {
            n += slots[first + i];
        }
        return n;
    }

    /**
     * @param c a labelled counter
     * @param label index into {@link RxCounter#labels()}
     * @return the count under that label; 0 for an endpoint counter in a connection's or a peer's object
     * @throws IndexOutOfBoundsException if label is outside the counter's labels
     */
    public long get(RxCounter c, int label) {
        if (label < 0 || label >= width(c)) {
            throw new IndexOutOfBoundsException(c + " label " + label);
        }
        int i = FIRST[c.ordinal()] + label;
        return i < slots.length ? slots[i] : 0;
    }

    /**
     * Adds every counter of this object into {@code total} (an accumulator, not this object), each by its
     * {@link RxCounter#kind()}: sums, and the largest value for a maximum.
     *
     * @param total holds every counter this object holds (an endpoint-scoped total holds all)
     */
    public void addTo(RxCounters total) {
        long[] into = total.slots;
        for (int i = 0; i < slots.length; i++) {
            into[i] = MAX_SLOT[i] ? Math.max(into[i], slots[i]) : into[i] + slots[i];
        }
    }

    /**
     * Counts one received packet of a connection (or its peer): its bytes; DATA per datagram in packetsReceived (as
     * OpenAFS's rx_stats counts them) and per sub-packet in dataPacketsReceived; every other type under its
     * {@link #typeSlot}; a jumbogram once, with its last sub-packet.
     *
     * @param type the packet type code
     * @param bytes header + body, bytes
     * @param lastInDatagram true for the datagram's last packet
     * @param jumbogram true when the datagram held several packets
     */
    public void countReceived(int type, int bytes, boolean lastInDatagram, boolean jumbogram) {
        add(RxCounter.BYTES_RECEIVED, bytes);
        if (jumbogram && lastInDatagram) {
            increment(RxCounter.JUMBOGRAMS_RECEIVED);
        }
        if (type != PacketType.DATA) {
            increment(RxCounter.PACKETS_RECEIVED, typeSlot(type));
        } else {
            increment(RxCounter.DATA_PACKETS_RECEIVED);
            if (lastInDatagram) {
                increment(RxCounter.PACKETS_RECEIVED, PacketType.DATA);
            }
        }
    }
}
