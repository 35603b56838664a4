// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

/**
 * A hash index from primitive {@code long} keys to values: open addressing with linear probing and backward-shift
 * deletion, so a lookup boxes nothing and allocates nothing (no boxed map keys on the packet path: docs/benchmarks.md
 * "Allocation per packet"). The {@link ConnectionTable} keeps its insertion-ordered maps for iteration and uses this
 * for the per-packet lookups. Not thread-safe; null values are not stored.
 *
 * @param <V> the value type
 */
final class LongIndex<V> {
    private static final int MIN_CAPACITY = 16;

    private long[] keys = new long[MIN_CAPACITY];
    private Object[] values = new Object[MIN_CAPACITY];
    private int size;

    /** @return entries held */
    int size() {
        return size;
    }

    private static int hash(long key) {
        long h = key * 0x9E37_79B9_7F4A_7C15L; // Fibonacci hashing spreads consecutive cids
        return (int) (h ^ (h >>> 32));
    }

    /**
     * @param key the key
     * @return the value stored for {@code key}, or null
     */
    @SuppressWarnings("unchecked")
    V get(long key) {
        int mask = keys.length - 1;
        for (int i = hash(key) & mask; values[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return (V) values[i];
            }
        }
        return null;
    }

    /**
     * Stores {@code value} for {@code key}, replacing any earlier value.
     *
     * @param key the key
     * @param value the value, not null
     * @throws NullPointerException if {@code value} is null
     */
    void put(long key, V value) {
        if (value == null) {
            throw new NullPointerException("value");
        }
        if (2 * (size + 1) > keys.length) {
            resize(2 * keys.length);
        }
        int mask = keys.length - 1;
        int i = hash(key) & mask;
        while (values[i] != null) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    /**
     * Removes the entry for {@code key}, if any.
     *
     * @param key the key
     */
    void remove(long key) {
        int mask = keys.length - 1;
        int i = hash(key) & mask;
        while (values[i] != null && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (values[i] == null) {
            return;
        }
        // Backward shift: move later entries of the probe run into the hole so no lookup stops early.
        int hole = i;
        for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
            int home = hash(keys[j]) & mask;
            // The entry at j may move to the hole when its home is not cyclically within (hole, j].
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        keys[hole] = 0;
        values[hole] = null;
        size--;
        if (keys.length > MIN_CAPACITY && 8 * size < keys.length) {
            resize(keys.length / 2);
        }
    }

    private void resize(int capacity) {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[capacity];
        values = new Object[capacity];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                reinsert(oldKeys[i], oldValues[i]);
            }
        }
    }

    private void reinsert(long key, Object value) {
        int mask = keys.length - 1;
        int i = hash(key) & mask;
        while (values[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }
}
