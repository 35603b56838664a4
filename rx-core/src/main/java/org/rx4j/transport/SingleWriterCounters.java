// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A fixed set of {@code long} counters that one thread (the transport's event loop) increments and any thread
 * may read (so that no counter on the data path is a shared atomic). An increment is a plain load
 * and an opaque store — no lock-prefixed read-modify-write, no {@code LongAdder} cells — so counting a datagram
 * costs what counting into a plain field costs. A read is an opaque load: a value the writer really stored (a
 * 64-bit value is never torn), possibly missing the increments of the last moments, as a {@code LongAdder} sum
 * read during updates would.
 *
 * <p>Single writer: every {@link #increment} of one instance must come from one thread at a time (the loop that
 * owns the channel); increments from two threads at once would lose counts. Reads are thread-safe.
 */
final class SingleWriterCounters {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] slots;

    /**
     * @param size number of counters, &gt;= 1; all start at 0
     * @throws NegativeArraySizeException if size is negative
     */
    SingleWriterCounters(int size) {
        slots = new long[size];
    }

    /**
     * Adds one to a counter. Writer thread only.
     *
     * @param i the counter, 0..size-1
     * @throws ArrayIndexOutOfBoundsException if i is out of range
     */
    void increment(int i) {
        SLOTS.setOpaque(slots, i, slots[i] + 1);
    }

    /**
     * @param i the counter, 0..size-1
     * @return its value as last stored by the writer; any thread
     * @throws ArrayIndexOutOfBoundsException if i is out of range
     */
    long get(int i) {
        return (long) SLOTS.getOpaque(slots, i);
    }

    /** @return the number of counters */
    int size() {
        return slots.length;
    }
}
