// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.rx4j.perf.protocol.RxperfClientWorkload;
import org.rx4j.perf.protocol.RxperfRequest;
import org.rx4j.perf.transport.PerfClientTransport;
import org.rx4j.perf.transport.PerfConnection;
import org.rx4j.rpc.RxConnection;

/**
 * Runs {@code -t} threads × {@code -T} calls (or calls for {@code --time} seconds) as OpenAFS rxperf's client does (rx-wire-facts.md §10): threads
 * 0..3 share the first connection, 4..7 the second, and so on (a new connection every 4 threads, one call per
 * channel), and the timer runs from just after connection setup until all threads finish.
 *
 * <p>A run is counted ({@code -T} calls per thread) or timed ({@code --time}/{@code --omit}, see
 * {@link RunSchedule}); a timed run's figures (calls, payload bytes, latency, elapsed time, CPU time) cover only
 * the measured window after the omitted leading seconds. Process CPU time ({@link CpuClock}) is read at the start
 * of the measured window and at the end: with an omit, at the end of the first call that ends after the omit
 * boundary (up to one call's CPU time is missed).
 *
 * <p>The first failing call stops the run: its exception is rethrown after every thread has ended, and the
 * connections are closed at once so that calls blocked in other threads end too.
 *
 * <p>An RPC, SEND or RECV run with payloads of at most {@link #ASYNC_CALL_MAX_BYTES} each way, on a transport that
 * supports {@link PerfConnection#callAsync}, runs without client threads: {@code -t} call chains (thread t's chain
 * on connection t / 4, as above) each keep one whole call outstanding and start the next from the completion of the
 * last, on the transport's event loop; the calls, bytes, latencies and failures are counted as a thread would.
 */
public final class ClientDriver {
    /** Threads per connection: a connection has 4 channels (RX_MAXCALLS). */
    public static final int THREADS_PER_CONNECTION = RxConnection.MAX_CALLS;
    /** Most threads, as OpenAFS (MAX_THREADS). */
    public static final int MAX_THREADS = 128;
    private static final long NOT_READ = Long.MIN_VALUE;
    /**
     * Most payload bytes per direction of an RPC, SEND or RECV run driven by async calls (the reply is gathered
     * whole on the loop). RECV replies above 64 KiB used to go to a client thread with the call's stream; once a
     * reader's own pull of a reply's end told the call's end at once (docs/transport.md "Flushes"), gathering on the
     * loop was faster toward OpenAFS's C server (loopback, 5 alternating rounds, 100 MiB: 1 MiB calls 477 against
     * 613 ms on a thread, 256 KiB 621 against 725, 128 KiB 619 against 732; docs/benchmarks.md "The latest idle run").
     */
    public static final int ASYNC_CALL_MAX_BYTES = 1 << 20;

    private final RxperfRequest request;
    private final int threads;
    private final RunSchedule schedule;
    private final boolean verify;
    private final boolean recordLatency;
    private final LongSupplier nanoClock;
    private final CpuClock cpuClock;
    /** Run every command on threads, never as async call chains ({@code --threaded}). */
    private boolean threaded;

    /**
     * A counted run ({@code -T}) with the system's CPU clock.
     *
     * @param request what each call asks for
     * @param threads client threads, 1..128
     * @param times calls per thread, ≥ 1
     * @param verify whether to check reply payload against the pattern
     * @param recordLatency whether to record per-call latency into an HdrHistogram (rpc)
     * @param nanoClock monotonic clock in ns ({@code System::nanoTime}); read at start, end and around each call
     * @throws IllegalArgumentException if threads or times are out of range
     */
    public ClientDriver(RxperfRequest request, int threads, int times, boolean verify, boolean recordLatency,
            LongSupplier nanoClock) {
        this(request, threads, RunSchedule.calls(times), verify, recordLatency, nanoClock, CpuClock.system());
    }

    /**
     * @param request what each call asks for
     * @param threads client threads, 1..128
     * @param schedule counted ({@code -T}) or timed ({@code --time}/{@code --omit})
     * @param verify whether to check reply payload against the pattern
     * @param recordLatency whether to record per-call latency into an HdrHistogram (rpc)
     * @param nanoClock monotonic clock in ns ({@code System::nanoTime}); read at start, end and around each call
     * @param cpuClock the process CPU clock, read at the start of the measured window and at the end
     * @throws IllegalArgumentException if threads is out of range
     */
    public ClientDriver(RxperfRequest request, int threads, RunSchedule schedule, boolean verify,
            boolean recordLatency, LongSupplier nanoClock, CpuClock cpuClock) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads " + threads + " not in 1.." + MAX_THREADS);
        }
        this.request = request;
        this.threads = threads;
        this.schedule = Objects.requireNonNull(schedule, "schedule");
        this.verify = verify;
        this.recordLatency = recordLatency;
        this.nanoClock = nanoClock;
        this.cpuClock = Objects.requireNonNull(cpuClock, "cpuClock");
    }

    /**
     * Chooses threads with streams for every command ({@code --threaded}); by default an RPC, SEND or RECV run
     * within {@link #ASYNC_CALL_MAX_BYTES} is driven as async call chains when the transport supports them. Call
     * before {@link #run}.
     *
     * @param on true for threads only
     * @return this
     */
    public ClientDriver threaded(boolean on) {
        this.threaded = on;
        return this;
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
            boolean async = !threaded && RxperfClientWorkload.fitsWholeCall(request, ASYNC_CALL_MAX_BYTES)
                    && connections.stream().allMatch(PerfConnection::supportsAsync);
            return async ? runAsync(connections, moved, onStart) : runOn(connections, moved, onStart);
        } finally {
            closeAll(connections, null);
        }
    }

    private RunResult runOn(List<PerfConnection> connections, LongAdder moved, LongConsumer onStart)
            throws IOException, InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        LongAdder counted = new LongAdder();
        LongAdder omitted = new LongAdder();
        FirstCallTimer first = new FirstCallTimer(nanoClock);
        // process CPU ns at the start of the measured window; NOT_READ until then (written once, by CAS)
        AtomicLong cpuAtWindow = new AtomicLong(NOT_READ);
        long[] startCell = new long[1];    // written before go.countDown(), read after go.await()
        Histogram[] latencies = new Histogram[threads];
        long[] maxLater = new long[threads];    // each worker writes its own cell; read after join()
        Arrays.fill(maxLater, -1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            PerfConnection connection = connections.get(t / THREADS_PER_CONNECTION);
            RxperfClientWorkload workload = new RxperfClientWorkload(request, verify, moved);
            Histogram histogram = recordLatency ? new Histogram(3) : null;
            latencies[t] = histogram;
            int index = t;
            Thread worker = new Thread(() -> {
                try {
                    go.await();
                    long start = startCell[0];
                    long done = 0;
                    while (failure.get() == null && another(done, start)) {
                        long begin = nanoClock.getAsLong();
                        workload.runCall(connection);
                        // a counted run without latency reads the clock only at begin (as before --time)
                        boolean endRead = histogram != null || schedule.isTimed();
                        long end = endRead ? nanoClock.getAsLong() : begin;
                        first.callEnded(endRead, end);
                        done++;
                        if (schedule.counts(start, end)) {
                            if (histogram != null) {
                                histogram.recordValue(Math.max(0, end - begin));
                                if (done > 1) {
                                    maxLater[index] = Math.max(maxLater[index], Math.max(0, end - begin));
                                }
                            }
                            counted.increment();
                            if (cpuAtWindow.get() == NOT_READ) {
                                cpuAtWindow.compareAndSet(NOT_READ, cpuClock.processCpuNanos());
                            }
                        } else {
                            omitted.increment();
                        }
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
        startCell[0] = start;
        if (schedule.omitNanos() == 0) {
            cpuAtWindow.set(cpuClock.processCpuNanos());
        }
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
        long cpuEnd = cpuClock.processCpuNanos();
        rethrow(failure.get());
        Histogram merged = null;
        long slowestLater = -1;
        if (recordLatency) {
            merged = new Histogram(3);
            for (Histogram h : latencies) {
                merged.add(h);
            }
            for (long m : maxLater) {
                slowestLater = Math.max(slowestLater, m);
            }
        }
        long cpuStart = cpuAtWindow.get();
        long cpuNanos = cpuStart == NOT_READ || cpuStart < 0 || cpuEnd < 0 ? -1 : Math.max(0, cpuEnd - cpuStart);
        long payload = schedule.isTimed() ? counted.sum() * request.payloadBytesPerCall() : moved.sum();
        return new RunResult(end - schedule.windowStart(start), counted.sum(), connections.size(), payload, merged,
                cpuNanos, omitted.sum(), slowestLater, first.nanosAfter(start));
    }

    /**
     * The async form of {@link #runOn}: one chain of calls per {@code -t} "thread", started here and continued from
     * each call's completion; the caller waits for all chains to end.
     */
    private RunResult runAsync(List<PerfConnection> connections, LongAdder moved, LongConsumer onStart)
            throws IOException, InterruptedException {
        AsyncRun run = new AsyncRun(connections, moved);
        long start = nanoClock.getAsLong();
        run.start = start;
        if (schedule.omitNanos() == 0) {
            run.cpuAtWindow.set(cpuClock.processCpuNanos());
        }
        onStart.accept(start);
        for (Chain chain : run.chains) {
            chain.next();
        }
        try {
            run.ended.await();
        } catch (InterruptedException e) {
            run.fail(e);
            throw e;
        }
        long end = nanoClock.getAsLong();
        long cpuEnd = cpuClock.processCpuNanos();
        rethrow(run.failure.get());
        Histogram merged = null;
        long counted = 0;
        long omitted = 0;
        long slowestLater = -1;
        for (Chain chain : run.chains) {
            counted += chain.counted;
            omitted += chain.omitted;
            slowestLater = Math.max(slowestLater, chain.maxLater);
            if (recordLatency) {
                if (merged == null) {
                    merged = new Histogram(3);
                }
                merged.add(chain.histogram);
            }
        }
        long cpuStart = run.cpuAtWindow.get();
        long cpuNanos = cpuStart == NOT_READ || cpuStart < 0 || cpuEnd < 0 ? -1 : Math.max(0, cpuEnd - cpuStart);
        long payload = schedule.isTimed() ? counted * request.payloadBytesPerCall() : moved.sum();
        return new RunResult(end - schedule.windowStart(start), counted, connections.size(), payload, merged,
                cpuNanos, omitted, slowestLater, run.first.nanosAfter(start));
    }

    /** The shared state of one async run. */
    private final class AsyncRun {
        final List<PerfConnection> connections;
        final List<Chain> chains = new ArrayList<>();
        final CountDownLatch ended;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        /** Process CPU ns at the start of the measured window; NOT_READ until then (written once, by CAS). */
        final AtomicLong cpuAtWindow = new AtomicLong(NOT_READ);
        /** When the run's first call ended. */
        final FirstCallTimer first = new FirstCallTimer(nanoClock);
        /** The run's start (ns); written before the first call starts, read in completions after it. */
        volatile long start;

        AsyncRun(List<PerfConnection> connections, LongAdder moved) {
            this.connections = connections;
            this.ended = new CountDownLatch(threads);
            for (int t = 0; t < threads; t++) {
                chains.add(new Chain(this, connections.get(t / THREADS_PER_CONNECTION),
                        new RxperfClientWorkload(request, verify, moved)));
            }
        }

        /** Records the first failure and closes the connections so that the other chains' calls end too. */
        void fail(Throwable e) {
            if (failure.compareAndSet(null, e)) {
                closeAll(connections, e);
            }
        }
    }

    /**
     * One {@code -t} "thread" of an async run: calls one after another, the next started from the last one's
     * completion (so its fields are only touched by one call at a time; the future's completion orders them).
     */
    private final class Chain {
        private final AsyncRun run;
        private final PerfConnection connection;
        private final RxperfClientWorkload workload;
        private final byte[] wholeRequest;
        final Histogram histogram;
        /** The slowest counted call after this chain's first, ns; -1 until there is one. */
        long maxLater = -1;
        /** When the chain's call in flight started (ns); one call at a time, ordered by its future's completion. */
        private long begin;
        /** Made once per chain: a lambda per call is an allocation through a VM call in the C1-only client. */
        private final BiConsumer<byte[], Throwable> onReply = this::completed;
        long done;
        long counted;
        long omitted;

        Chain(AsyncRun run, PerfConnection connection, RxperfClientWorkload workload) {
            this.run = run;
            this.connection = connection;
            this.workload = workload;
            this.wholeRequest = workload.wholeRequest();
            this.histogram = recordLatency ? new Histogram(3) : null;
        }

        /** Starts the next call, or ends the chain when the schedule is done or the run failed. */
        void next() {
            if (run.failure.get() != null || !another(done, run.start)) {
                run.ended.countDown();
                return;
            }
            begin = nanoClock.getAsLong();
            CompletableFuture<byte[]> call;
            try {
                call = connection.callAsync(wholeRequest);
            } catch (RuntimeException e) {
                end(e);
                return;
            }
            call.whenComplete(onReply);
        }

        private void completed(byte[] reply, Throwable t) {
            if (t != null) {
                end(t instanceof CompletionException && t.getCause() != null ? t.getCause() : t);
                return;
            }
            try {
                workload.checkWholeReply(reply);
            } catch (IOException | RuntimeException e) {
                end(e);
                return;
            }
            boolean endRead = histogram != null || schedule.isTimed();
            long end = endRead ? nanoClock.getAsLong() : begin;
            run.first.callEnded(endRead, end);
            done++;
            if (schedule.counts(run.start, end)) {
                if (histogram != null) {
                    histogram.recordValue(Math.max(0, end - begin));
                    if (done > 1) {
                        maxLater = Math.max(maxLater, Math.max(0, end - begin));
                    }
                }
                counted++;
                if (run.cpuAtWindow.get() == NOT_READ) {
                    run.cpuAtWindow.compareAndSet(NOT_READ, cpuClock.processCpuNanos());
                }
            } else {
                omitted++;
            }
            next();
        }

        private void end(Throwable failure) {
            run.fail(failure);
            run.ended.countDown();
        }
    }

    /** Whether a thread starts another call; a counted run does not read the clock for it. */
    private boolean another(long done, long start) {
        return schedule.startAnother(done, start, schedule.isTimed() ? nanoClock.getAsLong() : start);
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
