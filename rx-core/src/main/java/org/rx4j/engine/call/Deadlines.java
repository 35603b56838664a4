// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

/**
 * Deadlines on the engine's nanosecond clock: the "no deadline" value and the wrap-safe earlier-of-two, shared by
 * the call's timers and the engine's timer queue.
 */
public final class Deadlines {
    /** No deadline. */
    public static final long NONE = Long.MAX_VALUE;

    private Deadlines() {
    }

    /**
     * The earlier of two deadlines, compared wrap-safe ({@code a - b}): a nanosecond clock may pass
     * {@link Long#MAX_VALUE}, where {@link Math#min} would pick the wrong one.
     *
     * @param a a deadline, ns, or {@link #NONE}
     * @param b another, likewise
     * @return the earlier one; {@link #NONE} only when both are none
     */
    public static long earlier(long a, long b) {
        if (a == NONE) {
            return b;
        }
        if (b == NONE) {
            return a;
        }
        return a - b <= 0 ? a : b;
    }
}
