// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.transport;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * A client Rx connection to one server and service (rx-wire-facts.md §7), with the rxnull security class at
 * index 0 (§11). It carries at most 4 calls at a time (one per channel, RX_MAXCALLS); rxperf gives each
 * connection at most 4 threads, so {@link #newCall()} need not queue, but may block if it must.
 * Safe for use by several threads at once.
 */
public interface PerfConnection extends AutoCloseable {
    /**
     * Starts a new call on a free channel (callNumber + 1 on that channel). Nothing is sent until the first
     * request bytes or {@link PerfCall#finishRequest()}.
     *
     * @return the new call, owned by the caller, who must {@link PerfCall#close()} it
     * @throws IOException if the connection or transport is closed or failed
     */
    PerfCall newCall() throws IOException;

    /**
     * Closes the connection; calls still in progress are aborted. Idempotent.
     *
     * @throws IOException if the transport fails while closing
     */
    @Override
    void close() throws IOException;

    /**
     * Whether {@link #callAsync} works on this connection (the transport can drive a whole request/response call
     * from its event loop without a waiting thread).
     *
     * @return false unless the transport overrides it
     */
    default boolean supportsAsync() {
        return false;
    }

    /**
     * Starts one call that sends {@code request} whole, ends the request and gathers the whole reply, driven by
     * the transport (no thread waits). The future may complete on the transport's event loop: what runs on it
     * must not block.
     *
     * @param request the whole request (not copied: must not change until the future completes)
     * @return the whole reply; completed exceptionally with {@link PerfCallException} (the abort code) when the call
     *     fails or was aborted, or with IOException when the connection is closed
     * @throws UnsupportedOperationException if {@link #supportsAsync()} is false
     */
    default CompletableFuture<byte[]> callAsync(byte[] request) {
        throw new UnsupportedOperationException("no async calls on this transport");
    }
}
