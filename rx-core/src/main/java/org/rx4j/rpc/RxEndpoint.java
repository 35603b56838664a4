// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.engine.debug.EngineDebugResponder;
import org.rx4j.engine.debug.RttTotals;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.engine.RxEngine;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.metrics.EndpointMXBean;
import org.rx4j.rpc.metrics.StatsReader;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.server.ServiceDispatch;
import org.rx4j.rpc.stats.EndpointStats;
import org.rx4j.rpc.stats.PeerStats;
import org.rx4j.rpc.stats.ProcedureMetrics;
import org.rx4j.rpc.stats.RxEndpointMXBean;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.SecurityClassRegistry;
import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.transport.NettyTransports;
import org.rx4j.transport.RxTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An rx4j endpoint: one UDP socket serving client and server calls (as OpenAFS does), the event loop that
 * owns the socket and the protocol engine, and a worker pool for blocking service handlers. Create with
 * {@link #builder()}; register services ({@link #registerService(RxService)}) and open client connections
 * ({@link #connect}); close with {@link #close(long)}. Thread-safe.
 *
 * <p><b>Threading</b> (docs/embedding.md): packets, timers, non-blocking handlers ({@link RxAsyncHandler}) and
 * {@link RxCall#completion()} stages run on the event loop; blocking handlers on the worker pool; futures of
 * {@link RxConnection#callAsync(byte[])} complete on the callback executor; application threads drive
 * {@link RxCall} streams, which hand work to the loop. Blocking methods (streams, {@code call(...)},
 * {@link #close(long)}) must never run on the event loop: they wait for it.
 */
public final class RxEndpoint implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RxEndpoint.class);
    /** Longest wait, after the remaining calls were aborted, for handlers to return before they are interrupted. */
    private static final long HANDLER_EXIT_WAIT_MS = 1000;
    /** Shortest such wait: a handler that watches its call's context returns within it. */
    private static final long MIN_HANDLER_EXIT_WAIT_MS = 50;

    private final RxTransport transport;
    private final EndpointRuntime rt;

    /** @return the endpoint's shared RPC state (package tests read its probe record) */
    EndpointRuntime runtime() {
        return rt;
    }
    private final SecurityClassRegistry services = new SecurityClassRegistry();
    private final ObjectName mbeanName;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RxEndpoint(Builder b) throws IOException {
        RxConfig config = b.config;
        long salt = System.identityHashCode(this);
        // One clock for the endpoint (the injected one, else the loop's ticker): the RPC layer's deadlines and the
        // engine's timers must agree.
        this.transport = RxTransport.bind(config, b.bind, b.transport, b.clock, (sink, alloc, now) -> {
            RxEngine engine = new RxEngine(config, b.sinkTap == null ? sink : b.sinkTap.apply(sink), alloc,
                    System.nanoTime() ^ salt, now);
            engine.setDebugResponder(new EngineDebugResponder());
            return engine;
        });
        LongSupplier clock = transport::now;
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor workers = new ThreadPoolExecutor(b.maxWorkers, b.maxWorkers, 60, TimeUnit.SECONDS,
                // Unbounded here: each service's WorkerShare bounds what it hands the pool (share + its queue).
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "rx4j-worker-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        workers.allowCoreThreadTimeOut(true);
        for (int i = 0; i < b.minWorkers; i++) {
            workers.prestartCoreThread();
        }
        // on the loop, at the end of the unit of work that completed the call: a callback that starts the next call
        // runs after the engine has finished with the last one (its channel free again), not inside the engine's
        // completion of it, and before the unit's output is flushed
        Executor callbacks = b.callbacksOnEventLoop ? transport.loopCallbacks() : b.callbackExecutor;
        this.rt = new EndpointRuntime(transport, clock, workers, callbacks, b.busyAbortCode,
                b.maxMessageBytes, b.maxQueuedCalls);
        rt.probeUnreachable = b.probeUnreachable;
        rt.serverInterceptors = b.serverInterceptors.toArray(new RxServerInterceptor[0]);
        rt.clientInterceptors = b.clientInterceptors.toArray(new RxClientInterceptor[0]);
        rt.procNames = b.procNames;
        this.mbeanName = b.jmx ? registerMBean() : null;
        try {
            for (Consumer<RxEndpoint> service : b.services) {
                service.accept(this);
            }
        } catch (RuntimeException e) {
            close(0);
            throw e;
        }
        transport.startReading();
    }

    /** @return a builder with defaults (ephemeral port on all addresses, NIO, OpenAFS windows) */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the bound address */
    public InetSocketAddress localAddress() {
        return transport.localAddress();
    }

    /**
     * The largest Rx packet (header + data) this endpoint sends to {@code peer} once a padded PING proved the path
     * and the peer advertises room for it (docs/engine.md "Packet size"): min(maxMtu, the route's interface MTU less
     * IP and UDP headers, capped by the receive buffer / maxRwind). Any thread.
     *
     * @param peer the peer's address (resolved)
     * @return bytes, 520..65527
     */
    public int largestPacketTo(InetSocketAddress peer) {
        RxConfig c = config();
        int ifMtu = c.packetSize().peerIfMtu(transport.routeMtu(peer), peer.getAddress() instanceof Inet6Address,
                transport.effectiveReceiveBuffer(), c.windows().maxRwind());
        return c.packetSize().largestPacket(ifMtu);
    }

    /**
     * The endpoint's clock: the time every deadline of its calls is measured on (see {@link RxCall#setDeadline(long)})
     * and its protocol timers run on. Monotonic; not wall-clock time; any thread.
     *
     * @return now, ns (the clock given to {@link Builder#clock}, else the transport's event-loop clock)
     */
    public long now() {
        return rt.now();
    }

    /**
     * Tells whether a transport can run on this machine (NIO and AUTO always; epoll needs Linux x86_64 and Netty's
     * native library on the class path).
     *
     * @param kind the transport
     * @return empty when it can run, else why not
     */
    public static Optional<String> unavailabilityReason(TransportKind kind) {
        return Optional.ofNullable(NettyTransports.unavailabilityReason(Objects.requireNonNull(kind, "kind")));
    }

    /** @return the Rx tunables this endpoint runs with */
    public RxConfig config() {
        return transport.config();
    }

    /**
     * Registers a service, the one registration form. An rxgen-style service: each incoming call's opcode picks its
     * handler (blocking ones run on the worker pool, non-blocking ones on the event loop); unknown opcodes are
     * aborted with RXGEN_OPCODE (−455). A whole-stream service ({@link RxService.Builder#wholeStream}): its handler
     * gets each call's whole request stream on the worker pool, or its router serves the call on the loop. Each
     * service's blocking handlers use at most its share of the workers (all of them less one for every other
     * registered service, at least one), so one overloaded service cannot starve another; beyond its share its
     * calls queue FIFO up to {@link Builder#maxQueuedCalls}, and beyond that they are aborted with
     * {@link Builder#busyAbortCode}. With a security class other than rxnull (e.g. {@code RxkadServerSecurity}) a
     * call reaches its handler only once its connection is authenticated (docs/security.md "In the engine").
     *
     * @param service the service (its id, security class and handlers)
     * @throws IllegalArgumentException if its security class is not one of rx4j's (rxnull, rxkad)
     * @throws IllegalStateException if the (service id, security index) pair is already registered or the
     *     endpoint is closing
     */
    public void registerService(RxService service) {
        Objects.requireNonNull(service, "service");
        ServiceDispatch dispatch = service.wholeStream() == null ? new ServiceDispatch(rt, service, null)
                : service.router() == null ? new ServiceDispatch(rt, null, service.wholeStream())
                : new ServiceDispatch(rt, null, service.wholeStream(), service.prefixBytes(), service.router());
        register(service.serviceId(), service.securityClass(), dispatch);
    }

    private void register(int serviceId, SecurityClass securityClass, ServiceDispatch dispatch) {
        SecurityClass sc = Objects.requireNonNull(securityClass, "securityClass");
        PacketSecurityAccess.of(sc); // refuses, before anything is registered, a class with no packet work
        if (rt.closing) {
            throw new IllegalStateException("endpoint closing");
        }
        services.register(serviceId, sc);
        rt.services.incrementAndGet(); // every service keeps a worker of its own (WorkerShare)
        transport.submit(engine -> {
            engine.registerService(serviceId, sc, dispatch);
            return null;
        }).join();
    }

    /**
     * Opens a client connection to an rxnull service. No packet is sent before the first call.
     *
     * @param server the server's address (resolved)
     * @param serviceId 1..65535
     * @return the connection
     * @throws IllegalArgumentException if the address is unresolved or serviceId is out of range
     * @throws IllegalStateException if the endpoint is closing
     */
    public RxConnection connect(InetSocketAddress server, int serviceId) {
        return connect(server, serviceId, RxNullSecurityClass.INSTANCE);
    }

    /**
     * Opens a client connection; several connections to the same (host, port, service) are independent, each
     * with its own 4 channels. No packet is sent before the first call.
     *
     * @param server the server's address (resolved)
     * @param serviceId 1..65535
     * @param securityClass the class the connection uses (rxnull, or e.g. {@code RxkadClientSecurity}, which
     *     answers the server's CHALLENGE and protects every DATA packet)
     * @return the connection
     * @throws IllegalArgumentException if the address is unresolved, serviceId is out of range or the security class
     *     is not one of rx4j's (rxnull, rxkad)
     * @throws IllegalStateException if the endpoint is closing
     */
    public RxConnection connect(InetSocketAddress server, int serviceId, SecurityClass securityClass) {
        if (server.isUnresolved()) {
            throw new IllegalArgumentException("unresolved host: " + server.getHostString());
        }
        if (serviceId < 1 || serviceId > 0xFFFF) {
            throw new IllegalArgumentException("serviceId must be 1..65535: " + serviceId);
        }
        SecurityClass sc = Objects.requireNonNull(securityClass, "securityClass");
        PacketSecurityAccess.of(sc); // refuses a class with no packet work here, not on the event loop
        if (rt.closing) {
            throw new IllegalStateException("endpoint closing");
        }
        var conn = transport.submit(engine -> engine.connect(server, serviceId, sc)).join();
        return new RxConnection(rt, conn, server, sc);
    }

    /**
     * The endpoint's counters flattened to names, for {@code rxperf -D}: {@link #statistics()} through
     * {@link EndpointStats#toMap()} (engine totals: bytes, packets by type, resends, acks by reason, jumbograms,
     * calls; RTT over all peers in µs; connection and peer counts; transport counters), then the socket:
     * {@code socket.nio} or {@code socket.epoll} = 1 (the transport running, e.g. what {@link TransportKind#AUTO}
     * chose), {@code socket.receiveBufferBytes} (the receive buffer the kernel granted, bytes) and
     * {@code loop.schedulerSliceNs} (the scheduler slice the loop's thread runs with, ns: what the configuration asked
     * for when the kernel accepted it, else 0 for the kernel's; docs/transport.md "Scheduler slice").
     *
     * @return counter name to value, insertion-ordered
     */
    public Map<String, Long> stats() {
        Map<String, Long> m = new LinkedHashMap<>(statistics().toMap());
        m.put("socket." + transport.kind().name().toLowerCase(Locale.ROOT), 1L);
        m.put("socket.receiveBufferBytes", (long) transport.effectiveReceiveBuffer());
        m.put("loop.schedulerSliceNs", transport.schedulerSliceNs());
        return m;
    }

    /**
     * A read-only snapshot of the endpoint's counters, connections and peers, taken on the event loop.
     *
     * @return the snapshot
     */
    public EndpointStats statistics() {
        return transport.submit(engine -> StatsReader.endpoint(transport, engine)).join();
    }

    /**
     * Per-procedure call metrics of both sides since the endpoint opened (docs/embedding.md, "Metrics"): for each
     * (side, service id, opcode) that had a call end, the calls, the failures by Rx code and a latency histogram.
     * Read from live counters without the event loop, so it also works after {@link #close()}.
     *
     * @return the procedures, server side first, then by service id and opcode
     */
    public List<ProcedureMetrics> metrics() {
        return rt.metrics.snapshot();
    }

    /**
     * One procedure's entry of {@link #metrics()}, without copying the others.
     *
     * @param server true for calls this endpoint served, false for calls it made
     * @param serviceId the service id
     * @param opcode the opcode ({@link ProcedureMetrics#UNKNOWN_OPCODE} for calls without one)
     * @return the snapshot, or empty before that procedure's first call ended
     */
    public Optional<ProcedureMetrics> metrics(boolean server, int serviceId, int opcode) {
        return Optional.ofNullable(rt.metrics.find(server, serviceId, opcode));
    }

    /**
     * A procedure's name as {@link Builder#procNames} gives it: what interceptors, the call log and a metrics
     * exporter show next to the opcode.
     *
     * @param serviceId the service id
     * @param opcode the opcode
     * @return the name, or empty when the endpoint has no names or they do not know this procedure
     */
    public Optional<String> procName(int serviceId, int opcode) {
        RxProcNames names = rt.procNames;
        return names == null ? Optional.empty() : Optional.ofNullable(names.name(serviceId, opcode));
    }

    /**
     * Snapshot of one peer.
     *
     * @param address the peer's address
     * @return its stats, or empty if the endpoint does not know it
     */
    public Optional<PeerStats> peerStats(InetSocketAddress address) {
        return transport.submit(engine -> engine.peers().stream().filter(p -> p.address().equals(address))
                .findFirst().map(StatsReader::peer)).join();
    }

    /** @return the JMX name the endpoint's {@link RxEndpointMXBean} is registered under, if {@link Builder#jmx} */
    public Optional<ObjectName> mbeanName() {
        return Optional.ofNullable(mbeanName);
    }

    private ObjectName registerMBean() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("org.rx4j:type=RxEndpoint,address="
                    + ObjectName.quote(String.valueOf(localAddress())));
            server.registerMBean(new EndpointMXBean(this::statistics, this::metrics), name);
            return name;
        } catch (JMException e) {
            log.warn("cannot register the endpoint's MBean", e);
            return null;
        }
    }

    /** @return true once {@link #close(long)} has started: new calls are refused */
    public boolean isClosing() {
        return rt.closing;
    }

    /**
     * Closes gracefully. New incoming calls are aborted with RX_USER_ABORT (−6) and new outgoing calls
     * refused; calls in flight (client and server) and their blocking handlers get up to {@code graceMs} to
     * finish; then every call still running is aborted with RX_USER_ABORT (−6) (the ABORT is sent to the
     * peer) and its {@link RxCall#context()} cancelled (reason {@link RxException.Reason#ENDPOINT_CLOSING}),
     * handlers still running after a further tenth of the grace period ({@link #handlerExitWaitMs}: 50 ms to 1 s)
     * are interrupted (one WARN line), every pooled buffer the endpoint holds is released, and the socket and event
     * loop close. Blocks until done; a second call returns at once.
     * Graceful for readers: what a call received before the grace period ended stays readable (copied to the
     * heap), then reads fail with RX_USER_ABORT (−6), {@link RxException.Reason#ENDPOINT_CLOSING}; a reply read
     * to its end reads as complete and its {@link RxCall#close()} does not throw.
     *
     * @param graceMs how long calls in flight may take to finish, ms on the endpoint's clock ({@link #now()}),
     *     &gt;= 0
     * @throws IllegalStateException if called on the endpoint's event loop (e.g. from an async handler)
     */
    public void close(long graceMs) {
        if (transport.loop().inEventLoop()) {
            throw new IllegalStateException("close() waits for calls: call it from an application thread, "
                    + "not from the endpoint's event loop");
        }
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        rt.closing = true;
        long end = rt.now() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, graceMs));
        boolean idle = rt.tracker.awaitIdle(end, rt::now);
        if (!idle) {
            log.debug("closing {}: {} still running after {} ms, aborting them", localAddress(), rt.tracker.running(),
                    graceMs);
        }
        rt.graceOver = true;
        transport.submit(engine -> {
            engine.shutdown(rt.now());
            return null;
        }).join();
        rt.workers.shutdown();
        long exitWaitMs = handlerExitWaitMs(graceMs);
        try {
            if (!rt.workers.awaitTermination(exitWaitMs, TimeUnit.MILLISECONDS)) {
                // Not silent: these handlers ignored their calls' cancellation (RxCall.context()).
                log.warn("closing {}: {}", localAddress(), rt.tracker.handlersStillRunning(exitWaitMs));
                rt.workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            rt.workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        rt.tracker.releaseAll();
        if (mbeanName != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(mbeanName);
            } catch (JMException e) {
                log.debug("cannot unregister {}", mbeanName, e);
            }
        }
        transport.close();
    }

    /**
     * How long {@link #close(long)} waits, once the grace period ended and the calls still running were aborted, for
     * their handlers to return before it interrupts them: a tenth of the grace period, at least 50 ms and at most 1 s,
     * so that {@code close(graceMs)} returns within about {@code graceMs} even when a handler ignores its call's
     * cancellation (a handler that watches {@link RxCall#context()} returns within microseconds of it).
     *
     * @param graceMs the grace period, ms
     * @return the wait, ms
     */
    static long handlerExitWaitMs(long graceMs) {
        return Math.min(HANDLER_EXIT_WAIT_MS, Math.max(MIN_HANDLER_EXIT_WAIT_MS, graceMs / 10));
    }

    /** Closes with a 2-second grace period; see {@link #close(long)}. */
    @Override
    public void close() {
        close(2000);
    }

    /** Builder for {@link RxEndpoint}; not thread-safe. */
    public static final class Builder {
        private final java.util.List<Consumer<RxEndpoint>> services = new java.util.ArrayList<>();
        private RxConfig config = RxConfig.defaults();
        private InetSocketAddress bind = new InetSocketAddress(0);
        private TransportKind transport = TransportKind.NIO;
        private int minWorkers = 2;
        private int maxWorkers = 20;
        private int maxQueuedCalls = 1000;
        private int busyAbortCode = RxCodes.RX_CALL_BUSY;
        private Executor callbackExecutor = ForkJoinPool.commonPool();
        private boolean callbacksOnEventLoop;
        private int maxMessageBytes = 16 << 20;
        private boolean jmx;
        private boolean probeUnreachable = true;
        private LongSupplier clock;
        private final java.util.List<RxServerInterceptor> serverInterceptors = new java.util.ArrayList<>();
        private final java.util.List<RxClientInterceptor> clientInterceptors = new java.util.ArrayList<>();
        private RxProcNames procNames;
        /** Wraps the engine's packet sink, for package tests that record what the endpoint sends; or null. */
        private java.util.function.UnaryOperator<org.rx4j.engine.output.PacketSink> sinkTap;

        private Builder() {
        }

        /**
         * Package tests: wraps the sink the engine sends through (on the event loop), e.g. to record the order of
         * what the endpoint sends against what its handlers see.
         *
         * @param tap returns the sink the engine uses, given the transport's
         * @return this
         */
        Builder sinkTap(java.util.function.UnaryOperator<org.rx4j.engine.output.PacketSink> tap) {
            this.sinkTap = tap;
            return this;
        }

        /**
         * Adds an interceptor of every call this endpoint serves (docs/embedding.md "Interceptors"): it sees the
         * call before its handler runs and may wrap, time or refuse it. Interceptors run in the order added.
         *
         * @param interceptor the interceptor
         * @return this
         */
        public Builder serverInterceptor(RxServerInterceptor interceptor) {
            serverInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * Adds an interceptor of every call this endpoint makes (docs/embedding.md "Interceptors"): it sees the
         * call before anything is sent and may wrap, time or fail it. Interceptors run in the order added.
         *
         * @param interceptor the interceptor
         * @return this
         */
        public Builder clientInterceptor(RxClientInterceptor interceptor) {
            clientInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * Names procedures for interceptors ({@link RxCallInfo#procName()}) and the call log.
         *
         * @param names maps (service id, opcode) to a name, or null when unknown
         * @return this
         */
        public Builder procNames(RxProcNames names) {
            this.procNames = Objects.requireNonNull(names, "names");
            return this;
        }

        /**
         * Whether a client connection probes the server from a UDP socket connected to it, at its first call and
         * whenever one of its calls stalls (nothing heard from the server for 500 ms at the default dead time), so
         * that ICMP port or host unreachable, or a missing route, fails the connection's calls at once with
         * RX_CALL_DEAD (−1), reason {@link RxException.Reason#PEER_UNREACHABLE},
         * {@link RxException.Reason#HOST_UNREACHABLE} or {@link RxException.Reason#NO_ROUTE}, instead of after the
         * dead time (docs/embedding.md, "A peer that does not answer"). The probe is one Rx VERSION request; an ICMP
         * error is accepted only on that connected socket, i.e. only for the packet rx4j sent.
         *
         * @param on true to probe (default true)
         * @return this
         */
        public Builder probeUnreachable(boolean on) {
            this.probeUnreachable = on;
            return this;
        }

        /**
         * The endpoint's clock, for tests that control time: every {@code now} the RPC layer and the engine read,
         * every call deadline and the close grace period are measured on it, and the event loop's timer waits
         * (deadline − now) of real time before it looks again. It must be monotonic; a clock that stands still
         * holds every protocol timer (acks, retransmissions, deadlines) until it moves.
         *
         * @param nanos monotonic time, ns, read from any thread (default: the transport's event-loop clock)
         * @return this
         * @throws NullPointerException if nanos is null
         */
        public Builder clock(LongSupplier nanos) {
            this.clock = Objects.requireNonNull(nanos, "nanos");
            return this;
        }

        /**
         * @param c the Rx tunables: windows, hard-ACK-only, jumbograms, MTU, socket buffers, timeouts
         *     (see {@link RxConfig.Builder}); default {@link RxConfig#defaults()} (OpenAFS 1.8's values)
         * @return this
         */
        public Builder config(RxConfig c) {
            this.config = Objects.requireNonNull(c, "config");
            return this;
        }

        /**
         * @param address local address and port (port 0 = ephemeral; default all addresses, port 0)
         * @return this
         */
        public Builder bind(InetSocketAddress address) {
            this.bind = Objects.requireNonNull(address, "address");
            return this;
        }

        /**
         * @param kind NIO (default), EPOLL (Linux, native transport on the class path; see
         *     {@link RxEndpoint#unavailabilityReason(TransportKind)}) or AUTO (EPOLL where it loads, else NIO; what
         *     a server facing untrusted senders wants: docs/robustness.md "Flood")
         * @return this
         */
        public Builder transport(TransportKind kind) {
            this.transport = Objects.requireNonNull(kind, "kind");
            return this;
        }

        /**
         * Sizes the worker pool of blocking handlers (OpenAFS's min/max server processes; rxperf server -s/-S).
         * Size it to the blocking calls you serve at once: each running handler holds one thread.
         *
         * @param min worker threads kept ready, &gt;= 0 (default 2)
         * @param max most worker threads, &gt;= max(1, min) (default 20)
         * @return this
         * @throws IllegalArgumentException if the bounds are inconsistent
         */
        public Builder workers(int min, int max) {
            if (min < 0 || max < 1 || min > max) {
                throw new IllegalArgumentException("workers need 0 <= min <= max, max >= 1: " + min + ", " + max);
            }
            this.minWorkers = min;
            this.maxWorkers = max;
            return this;
        }

        /**
         * @param n calls of one service queued when its share of the workers is busy, &gt;= 1 (default 1000); beyond
         *     it new calls of that service are aborted with {@link #busyAbortCode}
         * @return this
         * @throws IllegalArgumentException if n &lt; 1
         */
        public Builder maxQueuedCalls(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxQueuedCalls must be >= 1");
            }
            this.maxQueuedCalls = n;
            return this;
        }

        /**
         * @param code abort code for calls refused when the queue is full, non-zero (default −10, OpenAFS's old
         *     RX_CALL_BUSY; rx-wire-facts.md §7)
         * @return this
         * @throws IllegalArgumentException if code is 0
         */
        public Builder busyAbortCode(int code) {
            if (code == 0) {
                throw new IllegalArgumentException("abort code 0 is not an error");
            }
            this.busyAbortCode = code;
            return this;
        }

        /**
         * Completes the futures of {@link RxConnection#callAsync(byte[])} (and the typed form) on the endpoint's
         * event loop, at the end of the unit of work that ended the call (the datagram that brought the reply, a
         * timer tick, a task), after the engine has returned from it and before its output is flushed; a completion
         * handed over outside such a unit runs as a loop task of its own. No thread hand-off and no loop task
         * between a reply and the code that reacts to it: a driver that starts the next call from the last one's
         * completion (rxperf's client) sends that call's first packets in the same flush (docs/transport.md
         * "Completions on the loop"). What runs on such a future must not block: it holds up every call of the
         * endpoint. Replaces {@link #callbackExecutor(Executor)}.
         *
         * @return this
         */
        public Builder callbacksOnEventLoop() {
            this.callbacksOnEventLoop = true;
            return this;
        }

        /**
         * Where futures of {@link RxConnection#callAsync(byte[])} complete (and so where their non-async
         * dependent stages run). Default {@link ForkJoinPool#commonPool()}; {@code Runnable::run} completes them
         * on the event loop itself, which saves a thread hop but then dependent stages must not block. A completion the
         * executor refuses (it throws, e.g. {@link java.util.concurrent.RejectedExecutionException} once shut down)
         * runs on the event loop instead, so a future never waits for an executor that is gone. Replaces
         * {@link #callbacksOnEventLoop()}.
         *
         * @param executor the executor
         * @return this
         */
        public Builder callbackExecutor(Executor executor) {
            this.callbackExecutor = Objects.requireNonNull(executor, "executor");
            this.callbacksOnEventLoop = false;
            return this;
        }

        /**
         * Largest whole message the request/response forms gather in memory: a request to an
         * {@link RxAsyncHandler} and a reply to {@link RxConnection#callAsync(byte[])}. Larger ones are aborted
         * with RX_MSGSIZE (−8). Streaming calls ({@link RxCall}) have no such limit.
         *
         * @param bytes 0.. (default 16 MiB)
         * @return this
         * @throws IllegalArgumentException if bytes is negative
         */
        public Builder maxMessageBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("maxMessageBytes must be >= 0");
            }
            this.maxMessageBytes = bytes;
            return this;
        }

        /**
         * @param on register an {@link RxEndpointMXBean} with the platform MBean server while the endpoint is
         *     open (default off)
         * @return this
         */
        public Builder jmx(boolean on) {
            this.jmx = on;
            return this;
        }

        /**
         * @return the running endpoint
         * @throws IOException if the socket cannot be bound
         */
        public RxEndpoint open() throws IOException {
            return new RxEndpoint(this);
        }

        /**
         * Registers a service before the socket reads its first packet (see
         * {@link RxEndpoint#registerService(RxService)}); services registered after {@link #open()} may miss
         * calls that arrive in between.
         *
         * @param service the service
         * @return this
         */
        public Builder service(RxService service) {
            Objects.requireNonNull(service, "service");
            services.add(e -> e.registerService(service));
            return this;
        }
    }
}
