package org.rx4j.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.rx4j.engine.Call;
import org.rx4j.engine.RxConfig;
import org.rx4j.engine.RxCounters;
import org.rx4j.transport.RxTransport;
import org.rx4j.transport.TransportKind;
import org.rx4j.wire.AbortCodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An rx4j endpoint: one UDP socket serving client and server calls (as OpenAFS does), its event loop,
 * and a worker pool for blocking service handlers. Create with {@link #builder()}. Thread-safe.
 */
public final class RxEndpoint implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RxEndpoint.class);

    private final RxTransport transport;
    private final ThreadPoolExecutor workers;
    private final int busyAbortCode;
    private final AtomicInteger activeHandlers = new AtomicInteger();
    private volatile boolean closing;

    private RxEndpoint(Builder b) throws IOException {
        this.transport = RxTransport.bind(b.config, b.bind, b.transport, null);
        this.busyAbortCode = b.busyAbortCode;
        AtomicInteger n = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(b.maxWorkers, b.maxWorkers, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(b.maxQueuedCalls), r -> {
                    Thread t = new Thread(r, "rx4j-worker-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        workers.allowCoreThreadTimeOut(true);
        for (int i = 0; i < b.minWorkers; i++) {
            workers.prestartCoreThread();
        }
    }

    /** @return a builder with defaults (ephemeral port on all addresses, NIO, OpenAFS windows) */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the bound address */
    public InetSocketAddress localAddress() {
        return transport.localAddress();
    }

    /** @return the underlying transport (event loop, engine) */
    public RxTransport transport() {
        return transport;
    }

    /**
     * Registers a service. Each incoming call runs {@code handler} on the worker pool; when all workers
     * are busy and the queue is full, the call is aborted with the builder's busy code.
     *
     * @param serviceId 1..65535
     * @param securityIndex 0 (rxnull)
     * @param handler the blocking handler
     */
    public void registerService(int serviceId, int securityIndex, RxCallHandler handler) {
        transport.submit(engine -> {
            engine.registerService(serviceId, securityIndex, call -> dispatch(call, handler));
            return null;
        }).join();
    }

    private void dispatch(Call call, RxCallHandler handler) {
        CallStreams streams = new CallStreams(transport);
        streams.attach(call);
        call.setListener(streams);
        if (closing) {
            call.abort(transport.now(), AbortCodes.RX_USER_ABORT);
            return;
        }
        RxCall rxCall = new RxCall(streams, true, call.connection().peer().address());
        try {
            workers.execute(() -> runHandler(rxCall, handler));
        } catch (RejectedExecutionException e) {
            call.abort(transport.now(), busyAbortCode);
        }
    }

    private void runHandler(RxCall call, RxCallHandler handler) {
        activeHandlers.incrementAndGet();
        try {
            handler.handle(call);
            call.output().close();
        } catch (RxException e) {
            if (!e.remote()) {
                call.abort(e.code());
            }
        } catch (IOException e) {
            call.abort(AbortCodes.RX_CALL_DEAD);
        } catch (Exception e) {
            log.warn("service handler failed", e);
            call.abort(AbortCodes.RX_INVALID_OPERATION);
        } finally {
            activeHandlers.decrementAndGet();
            call.completion().whenComplete((v, t) -> {
                try {
                    call.close();
                } catch (IOException ignored) {
                    // the failure was already reported to the peer
                }
            });
        }
    }

    /**
     * Opens a client connection.
     *
     * @param server the server's address
     * @param serviceId 1..65535
     * @param securityIndex 0 (rxnull)
     * @return the connection
     */
    public RxConnection connect(InetSocketAddress server, int serviceId, int securityIndex) {
        if (server.isUnresolved()) {
            throw new IllegalArgumentException("unresolved host: " + server.getHostString());
        }
        var conn = transport.submit(engine -> engine.connect(server, serviceId, securityIndex)).join();
        return new RxConnection(transport, conn, server);
    }

    /**
     * A snapshot of the endpoint's counters: engine totals (packets, bytes, acks by reason, resends,
     * jumbograms, calls), RTT of the peers, and transport counters.
     *
     * @return counter name to value, insertion-ordered
     */
    public Map<String, Long> stats() {
        return transport.submit(engine -> {
            RxCounters t = engine.totals();
            Map<String, Long> m = new LinkedHashMap<>(t.toMap());
            long samples = 0;
            long sum = 0;
            long min = Long.MAX_VALUE;
            long max = 0;
            for (var p : engine.peers()) {
                var rtt = p.rtt();
                if (rtt.samples() > 0) {
                    samples += rtt.samples();
                    sum += rtt.meanRttNs() * rtt.samples();
                    min = Math.min(min, rtt.minRttNs());
                    max = Math.max(max, rtt.maxRttNs());
                }
            }
            m.put("rttSamples", samples);
            m.put("rttMinUs", samples == 0 ? 0 : min / 1000);
            m.put("rttMeanUs", samples == 0 ? 0 : sum / samples / 1000);
            m.put("rttMaxUs", max / 1000);
            m.put("connections", (long) engine.clientConnections().size() + engine.serverConnections().size());
            m.put("peers", (long) engine.peers().size());
            m.putAll(transport.transportCounters());
            return m;
        }).join();
    }

    /**
     * Closes gracefully: new incoming calls are refused, calls in flight get up to {@code graceMs} to
     * finish, then every remaining call is aborted with RX_USER_ABORT (−6), buffers are released and the
     * socket closes.
     *
     * @param graceMs how long to wait for calls in flight, ms
     */
    public void close(long graceMs) {
        closing = true;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMs);
        while (System.nanoTime() < end && (activeHandlers.get() > 0 || hasActiveCalls())) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        transport.submit(engine -> {
            engine.shutdown(transport.now());
            return null;
        }).join();
        workers.shutdownNow();
        transport.close();
    }

    private boolean hasActiveCalls() {
        return transport.submit(engine -> {
            for (var c : engine.clientConnections()) {
                for (int ch = 0; ch < 4; ch++) {
                    var call = c.call(ch);
                    if (call != null && !call.isDone()) {
                        return true;
                    }
                }
            }
            for (var c : engine.serverConnections()) {
                for (int ch = 0; ch < 4; ch++) {
                    var call = c.call(ch);
                    if (call != null && !call.isDone()) {
                        return true;
                    }
                }
            }
            return false;
        }).join();
    }

    /** Closes with a 2-second grace period; see {@link #close(long)}. */
    @Override
    public void close() {
        close(2000);
    }

    /** Builder for {@link RxEndpoint}. */
    public static final class Builder {
        private RxConfig config = RxConfig.defaults();
        private InetSocketAddress bind = new InetSocketAddress(0);
        private TransportKind transport = TransportKind.NIO;
        private int minWorkers = 2;
        private int maxWorkers = 20;
        private int maxQueuedCalls = 1000;
        private int busyAbortCode = AbortCodes.RX_CALL_BUSY;

        private Builder() {
        }

        /** @param c the Rx tunables @return this */
        public Builder config(RxConfig c) {
            this.config = c;
            return this;
        }

        /** @param address local address and port (0 = ephemeral) @return this */
        public Builder bind(InetSocketAddress address) {
            this.bind = address;
            return this;
        }

        /** @param kind NIO or EPOLL @return this */
        public Builder transport(TransportKind kind) {
            this.transport = kind;
            return this;
        }

        /**
         * @param min worker threads kept ready (rxperf server -s), &gt;= 0
         * @param max most worker threads (rxperf server -S), &gt;= max(1, min)
         * @return this
         */
        public Builder workers(int min, int max) {
            if (min < 0 || max < 1 || min > max) {
                throw new IllegalArgumentException("workers need 0 <= min <= max, max >= 1: " + min + ", " + max);
            }
            this.minWorkers = min;
            this.maxWorkers = max;
            return this;
        }

        /** @param n calls queued when all workers are busy, &gt;= 1 @return this */
        public Builder maxQueuedCalls(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxQueuedCalls must be >= 1");
            }
            this.maxQueuedCalls = n;
            return this;
        }

        /** @param code abort code for calls refused when the queue is full @return this */
        public Builder busyAbortCode(int code) {
            this.busyAbortCode = code;
            return this;
        }

        /**
         * @return the running endpoint
         * @throws IOException if the socket cannot be bound
         */
        public RxEndpoint open() throws IOException {
            return new RxEndpoint(this);
        }
    }
}
