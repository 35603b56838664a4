// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.fake;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import org.rx4j.perf.transport.PerfCallException;
import org.rx4j.perf.transport.PerfCallHandler;
import org.rx4j.perf.transport.PerfEndpointOptions;
import org.rx4j.perf.transport.PerfServerTransport;
import org.rx4j.perf.transport.RxperfAbortException;
import org.rx4j.rpc.errors.RxCodes;

/**
 * The server endpoint of the in-memory transport: runs the handler for each call on a pool of maxProcs threads,
 * following the adapter contract of {@link PerfCallHandler}.
 */
public final class InMemoryServer implements PerfServerTransport {
    private final InMemoryTransportFactory factory;
    final PerfEndpointOptions options;
    private final LongAdder calls = new LongAdder();
    private final LongAdder aborted = new LongAdder();
    private ExecutorService threads;
    private PerfCallHandler handler;
    private int serviceId;
    private int port = -1;

    InMemoryServer(InMemoryTransportFactory factory, PerfEndpointOptions options) {
        this.factory = factory;
        this.options = options;
    }

    @Override
    public synchronized int start(InetSocketAddress bind, int serviceId, PerfCallHandler handler) throws IOException {
        if (this.handler != null) {
            throw new IOException("already started");
        }
        this.handler = handler;
        this.serviceId = serviceId;
        this.threads = Executors.newFixedThreadPool(options.maxProcs(), r -> {
            Thread thread = new Thread(r, "in-memory-server");
            thread.setDaemon(true);
            return thread;
        });
        this.port = factory.bind(this, bind.getPort());
        return port;
    }

    /** @return the options this endpoint was created with */
    public PerfEndpointOptions options() {
        return options;
    }

    int serviceId() {
        return serviceId;
    }

    /** @return the bound port, −1 before start */
    public int port() {
        return port;
    }

    void dispatch(InMemoryCall call) {
        calls.increment();
        threads.execute(() -> {
            try {
                handler.handle(call.request.input(), call.reply.output());
                call.reply.end();
            } catch (RxperfAbortException e) {
                aborted.increment();
                call.serverAbort(e.code());
            } catch (PerfCallException e) {
                aborted.increment();
            } catch (IOException | RuntimeException e) {
                aborted.increment();
                call.serverAbort(RxCodes.RX_USER_ABORT);
            }
        });
    }

    @Override
    public Map<String, Long> stats() {
        Map<String, Long> stats = new TreeMap<>();
        if (options.statistics()) {
            stats.put("calls.served", calls.sum());
            stats.put("calls.aborted", aborted.sum());
        }
        return stats;
    }

    @Override
    public synchronized void close() {
        if (port >= 0) {
            factory.unbind(port);
        }
        if (threads != null) {
            threads.shutdownNow();
        }
    }
}
