// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import org.rx4j.perf.transport.PerfServerTransport;

/** How long {@code rxperf server} serves after starting. Tests return at once; production waits for shutdown. */
@FunctionalInterface
public interface ServerLifetime {
    /**
     * Blocks while the server should keep serving.
     *
     * @param server the started server
     * @throws InterruptedException if interrupted while waiting
     */
    void await(PerfServerTransport server) throws InterruptedException;

    /**
     * Serves until the JVM shuts down (Ctrl-C, SIGTERM); a shutdown hook closes the server.
     *
     * @return the lifetime
     */
    static ServerLifetime untilShutdown() {
        return server -> {
            CountDownLatch forever = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.close();
                } catch (IOException e) {
                    System.err.println("rxperf: closing the server failed: " + e.getMessage());
                }
            }, "rxperf-shutdown"));
            forever.await();
        };
    }
}
