// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.pool;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxContext;
import org.rx4j.rpc.channel.RxChannel;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.EndpointRuntime;

/**
 * Where every client call form resolves its {@link RxCallOptions} against the {@link RxContext} it inherits
 * (docs/embedding.md "Context that flows"): the deadline ({@link RxConnection}, {@link RxConnectionPool} and
 * {@link RxChannel} all compute theirs here) and the end (each call a connection starts is linked here), so no form
 * can miss either.
 */
public final class InheritedContext {
    private InheritedContext() {
    }

    /**
     * @param rt the calling endpoint's shared parts (its clock)
     * @param options the call's options
     * @return the earlier of the options' timeout from now and the inherited context's deadline, on the endpoint's
     *     clock, ns; {@code Long.MAX_VALUE} for none
     * @throws IllegalArgumentException if the options' timeout is not positive
     */
    public static long deadline(EndpointRuntime rt, RxCallOptions options) {
        Duration timeout = ApiAccess.api().timeoutOrNull(options);
        long own = timeout == null ? Long.MAX_VALUE : rt.deadlineFromNow(timeout);
        long inherited = ApiAccess.api().deadlineOn(ApiAccess.api().context(options), rt.now());
        if (own == Long.MAX_VALUE) {
            return inherited;
        }
        if (inherited == Long.MAX_VALUE) {
            return own;
        }
        return own - inherited < 0 ? own : inherited; // wrap-safe on a nanosecond clock
    }

    /**
     * Ends a streaming or blocking call when the handler's call it was made in ends ({@link RxContext}); the link
     * goes once the call ends.
     *
     * @param options the call's options (their context)
     * @param call the call just started
     */
    public static void link(RxCallOptions options, RxCall call) {
        RxContext context = ApiAccess.api().context(options);
        if (!ApiAccess.api().endsWithCall(context)) {
            return; // nothing to end it: no listener, no completion stage on every call made outside a handler
        }
        Runnable unlink = ApiAccess.api().onEnd(context, call::abort);
        call.completion().whenComplete((v, t) -> unlink.run());
    }

    /**
     * Ends an async call when the handler's call it was made in ends: its future fails with the code (the call's
     * future turns that into its abort, as a caller's {@code completeExceptionally} does).
     *
     * @param options the call's options (their context)
     * @param call the call's future, as its form returns it
     */
    public static void link(RxCallOptions options, CompletableFuture<?> call) {
        RxContext context = ApiAccess.api().context(options);
        if (!ApiAccess.api().endsWithCall(context)) {
            return;
        }
        Runnable unlink = ApiAccess.api().onEnd(context, code -> call.completeExceptionally(RxException.local(code,
                "the handler's call this call was made in ended", null)));
        call.whenComplete((v, t) -> unlink.run());
    }
}
