// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import java.util.ArrayDeque;
import org.rx4j.engine.call.Call;

/**
 * A client connection's calls waiting for a free channel, first in first out (rx-wire-facts.md §6: a 5th call waits
 * until one of the 4 channels frees). The queue is made with the first waiting call: most connections never need
 * it (docs/benchmarks.md "Heap per idle connection"). Engine thread only.
 */
final class WaitingCalls {
    private ArrayDeque<Call> queue;

    /** @return calls waiting */
    int size() {
        return queue == null ? 0 : queue.size();
    }

    /** @return true when no call waits */
    boolean isEmpty() {
        return queue == null || queue.isEmpty();
    }

    /** @param c a call that waits for a channel, last in line */
    void add(Call c) {
        if (queue == null) {
            queue = new ArrayDeque<>();
        }
        queue.add(c);
    }

    /** @param c a waiting call that no longer waits (aborted) */
    void remove(Call c) {
        if (queue != null) {
            queue.remove(c);
        }
    }

    /** @return the call first in line, taken out of the queue, or null */
    Call poll() {
        return queue == null ? null : queue.poll();
    }

    /**
     * Fails every waiting call with {@code code}, first in line first.
     *
     * @param now current time, ns
     * @param code the error code, non-zero
     */
    void failAll(long now, int code) {
        Call c;
        while ((c = poll()) != null) {
            c.fail(now, code);
        }
    }
}
