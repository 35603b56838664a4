// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import java.util.Arrays;
import org.rx4j.engine.call.Call;

/**
 * Calls ordered by their next deadline (an indexed binary min-heap): O(log n) to move one call,
 * O(1) to read the earliest deadline. Lets one event-loop timer serve every call of an engine.
 */
final class TimerQueue {
    private Call[] heap = new Call[64];
    private int size;

    /** @return the earliest deadline, ns, or {@link Long#MAX_VALUE} when no call has one */
    long earliest() {
        return size == 0 ? Long.MAX_VALUE : heap[0].deadlineNs;
    }

    /** @return the call with the earliest deadline, or null */
    Call peek() {
        return size == 0 ? null : heap[0];
    }

    /** @return number of calls with a deadline */
    int size() {
        return size;
    }

    /**
     * Inserts, moves or removes a call after its {@code deadlineNs} changed; Long.MAX_VALUE removes it.
     *
     * @param c the call
     */
    void update(Call c) {
        if (c.deadlineNs == Long.MAX_VALUE) {
            if (c.heapIndex >= 0) {
                removeAt(c.heapIndex);
            }
            return;
        }
        if (c.heapIndex < 0) {
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size * 2);
            }
            heap[size] = c;
            c.heapIndex = size++;
            siftUp(c.heapIndex);
        } else {
            siftUp(c.heapIndex);
            siftDown(c.heapIndex);
        }
    }

    private void removeAt(int i) {
        Call c = heap[i];
        c.heapIndex = -1;
        size--;
        if (i != size) {
            Call last = heap[size];
            heap[i] = last;
            last.heapIndex = i;
            siftUp(i);
            siftDown(last.heapIndex);
        }
        heap[size] = null;
    }

    private void siftUp(int i) {
        Call c = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Call p = heap[parent];
            if (p.deadlineNs - c.deadlineNs <= 0) {
                break;
            }
            heap[i] = p;
            p.heapIndex = i;
            i = parent;
        }
        heap[i] = c;
        c.heapIndex = i;
    }

    private void siftDown(int i) {
        Call c = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && heap[right].deadlineNs - heap[child].deadlineNs < 0) {
                child = right;
            }
            if (c.deadlineNs - heap[child].deadlineNs <= 0) {
                break;
            }
            heap[i] = heap[child];
            heap[i].heapIndex = i;
            i = child;
        }
        heap[i] = c;
        c.heapIndex = i;
    }
}
