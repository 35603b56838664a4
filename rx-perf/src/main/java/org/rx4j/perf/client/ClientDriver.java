package org.rx4j.perf.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.rx4j.perf.protocol.RxperfClientWorkload;
import org.rx4j.perf.protocol.RxperfRequest;
import org.rx4j.perf.transport.PerfClientTransport;
import org.rx4j.perf.transport.PerfConnection;
import org.rx4j.rpc.RxConnection;

/**
 * Runs {@code -t} threads × {@code -T} calls as OpenAFS rxperf's client does (rx-wire-facts.md §10): threads
 * 0..3 share the first connection, 4..7 the second, and so on (a new connection every 4 threads, one call per
 * channel), and the timer runs from just after connection setup until all threads finish.
 *
 * <p>The first failing call stops the run: its exception is rethrown after every thread has ended, and the
 * connections are closed at once so that calls blocked in other threads end too.
 */
public final class ClientDriver {
    /** Threads per connection: a connection has 4 channels (RX_MAXCALLS). */
    public static final int THREADS_PER_CONNECTION = RxConnection.MAX_CALLS;
    /** Most threads, as OpenAFS (MAX_THREADS). */
    public static final int MAX_THREADS = 128;

    private final RxperfRequest request;
    private final int threads;
    private final int times;
    private final boolean verify;
    private final boolean recordLatency;
    private final LongSupplier nanoClock;

    /**
     * @param request what each call asks for
     * @param threads client threads, 1..128
     * @param times calls per thread, ≥ 1
     * @param verify whether to check reply payload against the pattern
     * @param recordLatency whether to record per-call latency into an HdrHistogram (rpc)
     * @param nanoClock monotonic clock in ns ({@code System::nanoTime}); read at start, end and around each call
     */
    public ClientDriver(RxperfRequest request, int threads, int times, boolean verify, boolean recordLatency,
            LongSupplier nanoClock) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads " + threads + " not in 1.." + MAX_THREADS);
        }
        if (times < 1) {
            throw new IllegalArgumentException("times " + times + " < 1");
        }
        this.request = request;
        this.threads = threads;
        this.times = times;
        this.verify = verify;
        this.recordLatency = recordLatency;
        this.nanoClock = nanoClock;
    }

    /**
     * Connections a run opens.
     *
     * @param threads client threads
     * @return {@code ceil(threads / 4)}
     */
    public static int connectionsFor(int threads) {
        return (threads + THREADS_PER_CONNECTION - 1) / THREADS_PER_CONNECTION;
    }

    /**
     * Runs the calls.
     *
     * @param transport the client endpoint
     * @param server the server address
     * @param serviceId the service (147)
     * @param moved counter of payload bytes moved, updated per chunk while the run goes (for progress lines)
     * @param onStart called with the start time (ns, from the clock) right after connection setup
     * @return the measurements
     * @throws IOException the first call failure ({@code PerfCallException} with its abort code, a protocol
     *     error, or a transport error)
     * @throws InterruptedException if interrupted while waiting for the threads (they are interrupted too)
     */
    public RunResult run(PerfClientTransport transport, InetSocketAddress server, int serviceId, LongAdder moved,
            LongConsumer onStart) throws IOException, InterruptedException {
        List<PerfConnection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < connectionsFor(threads); i++) {
                connections.add(transport.connect(server, serviceId));
            }
            return runOn(connections, moved, onStart);
        } finally {
            closeAll(connections, null);
        }
    }

    private RunResult runOn(List<PerfConnection> connections, LongAdder moved, LongConsumer onStart)
            throws IOException, InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        LongAdder calls = new LongAdder();
        Histogram[] latencies = new Histogram[threads];
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            PerfConnection connection = connections.get(t / THREADS_PER_CONNECTION);
            RxperfClientWorkload workload = new RxperfClientWorkload(request, verify, moved);
            Histogram histogram = recordLatency ? new Histogram(3) : null;
            latencies[t] = histogram;
            Thread worker = new Thread(() -> {
                try {
                    go.await();
                    for (int i = 0; i < times && failure.get() == null; i++) {
                        long begin = nanoClock.getAsLong();
                        workload.runCall(connection);
                        if (histogram != null) {
                            histogram.recordValue(Math.max(0, nanoClock.getAsLong() - begin));
                        }
                        calls.increment();
                    }
                } catch (Throwable e) {
                    if (failure.compareAndSet(null, e)) {
                        closeAll(connections, e);
                    }
                }
            }, "rxperf-client-" + t);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
        long start = nanoClock.getAsLong();
        onStart.accept(start);
        go.countDown();
        try {
            for (Thread worker : workers) {
                worker.join();
            }
        } catch (InterruptedException e) {
            workers.forEach(Thread::interrupt);
            throw e;
        }
        long end = nanoClock.getAsLong();
        rethrow(failure.get());
        Histogram merged = null;
        if (recordLatency) {
            merged = new Histogram(3);
            for (Histogram h : latencies) {
                merged.add(h);
            }
        }
        return new RunResult(end - start, calls.sum(), connections.size(), moved.sum(), merged);
    }

    private static void rethrow(Throwable failure) throws IOException, InterruptedException {
        if (failure == null) {
            return;
        }
        if (failure instanceof IOException e) {
            throw e;
        }
        if (failure instanceof InterruptedException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        throw new IOException("client thread failed", failure);
    }

    private static void closeAll(List<PerfConnection> connections, Throwable cause) {
        for (PerfConnection connection : connections) {
            try {
                connection.close();
            } catch (IOException | RuntimeException e) {
                if (cause != null && cause != e) {
                    cause.addSuppressed(e);
                }
            }
        }
    }
}
