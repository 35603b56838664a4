// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.pool;

import java.util.List;

/**
 * The failures of a call's attempts as one exception, for pools and channels that repeat a call (docs/embedding.md
 * "Pools", "Channels"): the last attempt's failure carries the earlier ones.
 */
public final class AttemptFailures {
    private AttemptFailures() {
    }

    /**
     * The last attempt's failure carries the earlier attempts' failures as its suppressed exceptions, oldest first,
     * so a caller sees how many attempts were made ({@code getSuppressed().length + 1}) and why each failed.
     *
     * @param <E> the failure's type
     * @param last the last attempt's failure
     * @param earlier the earlier attempts' failures, oldest first, or null
     * @return {@code last}, with the earlier failures attached as suppressed (but not {@code last} itself)
     */
    public static <E extends Throwable> E withEarlier(E last, List<Throwable> earlier) {
        if (earlier != null) {
            for (Throwable t : earlier) {
                if (t != last) {
                    last.addSuppressed(t);
                }
            }
        }
        return last;
    }
}
