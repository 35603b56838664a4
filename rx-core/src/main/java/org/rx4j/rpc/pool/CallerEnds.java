// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.pool;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.rx4j.rpc.client.AsyncClientCall;
import org.rx4j.rpc.runtime.HandlerFailures;

/**
 * Carries a caller's early completion of a future the API returned down to the future of the call under it, so every
 * async form ends its call the same way whatever the caller did (docs/embedding.md "Cancellation and deadlines"):
 * {@code cancel}, {@code orTimeout} (a {@link java.util.concurrent.TimeoutException}), {@code completeExceptionally}
 * or {@code complete}/{@code completeOnTimeout} (a value). The call's own future ({@link AsyncClientCall}) turns that
 * into the abort code ({@link HandlerFailures#abortCode}; −6 for a value).
 */
public final class CallerEnds {
    private CallerEnds() {
    }

    /**
     * When {@code derived} completes while {@code underlying} has not, ends {@code underlying} the same way.
     *
     * @param derived the future the caller holds
     * @param underlying the future (or pause) of the call it was made from
     */
    public static void follow(CompletableFuture<?> derived, Future<?> underlying) {
        derived.whenComplete((v, t) -> endLike(derived, underlying));
    }

    /**
     * Ends {@code underlying} as {@code done} ended, unless it has ended already: the same exception (a cancellation
     * stays one), a cancellation for a value (a value of another type cannot be carried down) or for a future that is
     * not a {@link CompletableFuture} (a pause before a repeat). Nothing when {@code done} is not done or underlying is
     * null.
     *
     * @param done the caller's future
     * @param underlying the call's future or pause, or null
     */
    public static void endLike(CompletableFuture<?> done, Future<?> underlying) {
        if (underlying == null || underlying.isDone() || !done.isDone()) {
            return;
        }
        if (done.isCompletedExceptionally() && underlying instanceof CompletableFuture<?> cf) {
            try {
                done.join();
            } catch (RuntimeException e) { // CancellationException, or CompletionException around the cause
                cf.completeExceptionally(HandlerFailures.unwrap(e));
                return;
            }
        }
        underlying.cancel(false);
    }
}
