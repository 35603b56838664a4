package org.rx4j.perf.transport;

import java.io.IOException;

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
}
