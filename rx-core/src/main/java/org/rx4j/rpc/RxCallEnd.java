// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.stats.ProcedureMetrics;

/**
 * What an interceptor runs when a call it admitted ends ({@link RxServerInterceptor}, {@link RxClientInterceptor}):
 * the "after" half of a wrap, for timing, logging or releasing what the "before" half set up. Runs once per call on
 * the endpoint's event loop, or on the thread that gave up the call before it reached the loop: it must not block.
 */
@FunctionalInterface
public interface RxCallEnd {
    /**
     * @param code 0 when the call completed, else its abort code (docs/errors.md)
     * @param durationNs the call's duration, ns on the endpoint's clock, the same as its metrics record
     *     ({@link ProcedureMetrics#latency()}): a client call from its start to its end, a server call from its
     *     arrival to its reply's end handed to the engine (or to its failure, if it failed before that)
     */
    void ended(int code, long durationNs);

    /**
     * As {@link #ended(int, long)}, with which of the causes sharing the code it was (docs/errors.md "Local
     * reasons"); the endpoint calls this one. By default it forgets the reason and calls {@link #ended(int, long)}.
     *
     * @param code 0 when the call completed, else its abort code
     * @param reason the end's reason ({@link RxException#reason()} of the exception the application gets), or null
     *     for a completed call or when no reason is known (a call the server refused before routing it)
     * @param durationNs the call's duration, ns on the endpoint's clock (as {@link #ended(int, long)})
     */
    default void ended(int code, RxException.Reason reason, long durationNs) {
        ended(code, durationNs);
    }
}
