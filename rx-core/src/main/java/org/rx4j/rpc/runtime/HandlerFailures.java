// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.runtime;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;

/**
 * Maps what a handler or a future failed with to the abort code the call ends with (docs/errors.md):
 * an {@link RxException} keeps its code, a cancellation is RX_USER_ABORT (−6), a {@link TimeoutException}
 * RX_CALL_TIMEOUT (−3), anything else RX_INVALID_OPERATION (−2), as the blocking handlers do.
 */
public final class HandlerFailures {
    private HandlerFailures() {
    }

    /**
     * @param t the failure; {@link CompletionException} and {@link ExecutionException} wrappers are unwrapped
     * @return the abort code, never 0
     */
    public static int abortCode(Throwable t) {
        Throwable cause = unwrap(t);
        if (cause instanceof RxException rx) {
            return rx.code();
        }
        if (cause instanceof CancellationException) {
            return RxCodes.RX_USER_ABORT;
        }
        if (cause instanceof TimeoutException) {
            return RxCodes.RX_CALL_TIMEOUT;
        }
        return RxCodes.RX_INVALID_OPERATION;
    }

    /**
     * @param t a failure, possibly wrapped
     * @return the innermost cause below {@link CompletionException}/{@link ExecutionException} wrappers
     */
    public static Throwable unwrap(Throwable t) {
        Throwable c = t;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }
}
