// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import java.util.Arrays;

/**
 * Datagrams waiting for their release time: a binary min-heap on (release time, arrival order), so equal times
 * leave in arrival order. Arrays, no allocation per datagram once grown. Sans-I/O, one thread.
 *
 * @param <T> the datagram handle
 */
final class DelayLine<T> {
    private long[] releaseNs = new long[64];
    private long[] order = new long[64];
    private int[] bytes = new int[64];
    private Object[] items = new Object[64];
    private int size;
    private long nextOrder;
    private long totalBytes;

    /** @return datagrams waiting */
    int size() {
        return size;
    }

    /** @return bytes waiting */
    long bytes() {
        return totalBytes;
    }

    /** @return the earliest release time, ns, or {@link Long#MAX_VALUE} when empty */
    long peekReleaseNs() {
        return size == 0 ? Long.MAX_VALUE : releaseNs[0];
    }

    /** @return the byte count of the earliest datagram; only when not empty */
    int peekBytes() {
        return bytes[0];
    }

    void add(long release, T item, int itemBytes) {
        if (size == releaseNs.length) {
            int n = size * 2;
            releaseNs = Arrays.copyOf(releaseNs, n);
            order = Arrays.copyOf(order, n);
            bytes = Arrays.copyOf(bytes, n);
            items = Arrays.copyOf(items, n);
        }
        long seq = nextOrder++;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(release, seq, parent)) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        put(i, release, seq, itemBytes, item);
        totalBytes += itemBytes;
    }

    /** Removes and returns the earliest datagram; only when not empty. */
    @SuppressWarnings("unchecked")
    T poll() {
        T top = (T) items[0];
        totalBytes -= bytes[0];
        int last = --size;
        long r = releaseNs[last];
        long s = order[last];
        int b = bytes[last];
        Object it = items[last];
        items[last] = null;
        if (last > 0) {
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= last) {
                    break;
                }
                if (child + 1 < last && lessAt(child + 1, child)) {
                    child++;
                }
                if (!less(releaseNs[child], order[child], r, s)) {
                    break;
                }
                move(child, i);
                i = child;
            }
            put(i, r, s, b, it);
        }
        return top;
    }

    private boolean less(long r, long s, int at) {
        return less(r, s, releaseNs[at], order[at]);
    }

    private boolean lessAt(int a, int b) {
        return less(releaseNs[a], order[a], releaseNs[b], order[b]);
    }

    private static boolean less(long r1, long s1, long r2, long s2) {
        return r1 < r2 || (r1 == r2 && s1 < s2);
    }

    private void move(int from, int to) {
        put(to, releaseNs[from], order[from], bytes[from], items[from]);
    }

    private void put(int at, long r, long s, int b, Object item) {
        releaseNs[at] = r;
        order[at] = s;
        bytes[at] = b;
        items[at] = item;
    }
}
