// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.engine.RxEngine;
import org.rx4j.wire.DecodeError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One UDP socket, its Netty event loop and the pipeline that connects it to an {@link RxEngine} (design.md
 * "transport", docs/transport.md): client and server calls share the socket, as in OpenAFS. This class only
 * binds, starts reading, hands work over to the loop and closes; the pipeline does the rest:
 * {@link DatagramDecoder} → {@link EngineHandler} inbound, the engine's output through {@link DatagramEncoder}.
 *
 * <p>The engine is built by the caller's {@link EngineFactory} on the loop and never handed out: other threads
 * reach it only inside work passed to {@link #execute} or {@link #submit}, which runs on the loop. Output is
 * flushed once per read burst, timer tick, or loop iteration's handed-over tasks (docs/transport.md "Flushes"); one
 * event-loop timer is kept at the engine's next deadline.
 */
public final class RxTransport implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RxTransport.class);

    static {
        NettyMachineId.ensure(); // before Netty's first channel: no MAC look-up, no WARN without a NIC
    }
    /** Receive buffer per datagram, bytes: a whole UDP payload, so jumbograms are never truncated. */
    static final int RECEIVE_BUFFER = 65536;
    /** Datagrams one recvmmsg call may return with the epoll transport. */
    static final int RECVMMSG_BATCH = 8;
    /** Receive buffers kept for reuse: Netty's NIO read loop takes up to 16 datagrams before it decodes the first. */
    static final int RECEIVE_RING = 16;

    private final RxConfig config;
    private final EventLoopGroup group;
    private final Channel channel;
    private final EventLoop loop;
    private final LongSupplier clock;
    private final DatagramDecoder decoder;
    private final DatagramEncoder encoder;
    private final EngineHandler engineHandler;
    /** Made once: {@link #loopCallbacks()} hands the same executor to every caller. */
    private final Executor loopCallbacks = this::runCallback;
    private final int effectiveReceiveBuffer;
    private final int effectiveSendBuffer;
    private final ReusingRecvByteBufAllocator receiveBuffers;
    /** The transport running: NIO or EPOLL ({@link TransportKind#AUTO} resolved). */
    private final TransportKind kind;
    /** True when the socket reads with UDP GRO (docs/transport.md "Segmentation offload"). */
    private final boolean receiveOffload;
    /** The loop thread's scheduler slice (docs/transport.md "Scheduler slice"). */
    private final SchedulerSlice slice;

    private RxTransport(RxConfig config, InetSocketAddress bind, TransportKind asked, LongSupplier injectedClock,
                        EngineFactory engines) throws InterruptedException {
        this.config = config;
        TransportKind kind = NettyTransports.resolve(asked);
        this.kind = kind;
        boolean offload = NettyTransports.segmentationOffload(kind, config.socketBuffers().segmentationOffload());
        IdleSpin idle = new IdleSpin(config.socketBuffers().idleSpinNs());
        ReadsPerWakeup reads = new ReadsPerWakeup();
        this.decoder = new DatagramDecoder(bytes -> {
            idle.read(bytes);
            reads.read(bytes);
        });
        this.encoder = new DatagramEncoder(offload, new RouteMtus()::mtuFor, idle::written, reads::written);
        this.slice = new SchedulerSlice(config.socketBuffers().schedulerSliceNs());
        this.group = NettyTransports.newEventLoopGroup(kind, "rx4j-" + kind.name().toLowerCase(Locale.ROOT), idle,
                slice);
        int sendBuffer = config.effectiveUdpBufferBytes();
        int receiveBuffer = config.effectiveReceiveBufferBytes();
        boolean groAsked = offload && config.socketBuffers().receiveOffload();
        ReusingRecvByteBufAllocator buffers = receiveAllocator(kind, groAsked, reads::readOn);
        Bootstrap b = new Bootstrap()
                .group(group)
                .channel(NettyTransports.channelClass(kind))
                .option(ChannelOption.SO_RCVBUF, receiveBuffer)
                .option(ChannelOption.SO_SNDBUF, sendBuffer)
                .option(ChannelOption.RECVBUF_ALLOCATOR, buffers)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                // Nothing is read until the owner has registered its services: see startReading().
                .option(ChannelOption.AUTO_READ, false)
                .handler(new ChannelInitializer<DatagramChannel>() {
                    @Override
                    protected void initChannel(DatagramChannel ch) {
                        // The engine handler joins once the engine exists, before reading starts.
                        ch.pipeline().addLast("decoder", decoder).addLast("encoder", encoder);
                    }
                });
        if (kind == TransportKind.EPOLL) {
            // recvmmsg: up to RECVMMSG_BATCH whole datagrams per system call, each in its own 64 KiB slot (with GRO a
            // buffer holds one slot, which makes Netty use recvmsg).
            b.option(io.netty.channel.epoll.EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, RECEIVE_BUFFER);
        }
        try {
            this.channel = b.bind(bind).sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
        this.loop = channel.eventLoop();
        this.receiveOffload = groAsked && NettyTransports.enableReceiveOffload(channel);
        if (groAsked && !receiveOffload) {
            // No GRO in this kernel: back to recvmmsg batches (nothing was read yet, the ring is still empty).
            buffers = receiveAllocator(kind, false, reads::readOn);
            channel.config().setRecvByteBufAllocator(buffers);
        }
        this.receiveBuffers = buffers;
        this.clock = EngineHandler.clock(loop, injectedClock);
        try {
            this.engineHandler = loop.submit(() -> {
                // The loop's pool arena takes its first chunk here, at bind, not inside the first call, which paid
                // for it (and, on JDK 24 or later, for linking Netty's native malloc): set-up, as OpenAFS's rx_Init
                // allocates its packets (docs/benchmarks.md, "The first call").
                channel.alloc().directBuffer(RECEIVE_BUFFER).release();
                RxEngine engine = Objects.requireNonNull(engines.create(encoder, channel.alloc(), clock.getAsLong()),
                        "the engine factory returned null");
                reads.readOnWhenSenderHasMore(engine::lastSenderLikelyHasMore);
                EngineHandler h = new EngineHandler(engine, encoder, clock,
                        receiveOffload ? Integer.MAX_VALUE : EngineHandler.FLUSH_EVERY);
                channel.pipeline().addLast("engine", h);
                h.afterWork(); // arm the timer at the engine's first deadline (the idle-connection reaper)
                return h;
            }).sync().getNow();
        } catch (InterruptedException e) {
            closeChannelAndLoop();
            throw e;
        } catch (RuntimeException e) {
            closeChannelAndLoop();
            throw new EngineSetupFailure(e);
        }
        DatagramChannel dc = (DatagramChannel) channel;
        // Linux doubles a socket buffer size for its bookkeeping and reports the doubled figure; the JDK's NIO socket
        // halves it back, Netty's epoll socket does not. Halved here too, so both compare with what was asked.
        int reported = kind == TransportKind.EPOLL ? 2 : 1;
        this.effectiveReceiveBuffer = dc.config().getReceiveBufferSize() / reported;
        this.effectiveSendBuffer = dc.config().getSendBufferSize() / reported;
        encoder.setReceiveBufferBytes(effectiveReceiveBuffer); // before reading starts: no peer exists yet
        if (effectiveReceiveBuffer < receiveBuffer || effectiveSendBuffer < sendBuffer) {
            // Only a size the owner asked for is worth a warning; the defaults are requests the kernel may cap.
            String capped = "UDP socket buffers capped by the kernel: asked receive {} / send {} bytes, got {} / {} "
                    + "(raise net.core.rmem_max / wmem_max)";
            if (config.socketBuffers().udpBufferBytes() > 0) {
                log.warn(capped, receiveBuffer, sendBuffer, effectiveReceiveBuffer, effectiveSendBuffer);
            } else {
                log.debug(capped, receiveBuffer, sendBuffer, effectiveReceiveBuffer, effectiveSendBuffer);
            }
        }
    }

    /**
     * The receive buffers of a socket (docs/transport.md "Who owns which ByteBuf"), reading on within a wake-up while
     * {@code readOn} says so ({@link ReadsPerWakeup}).
     *
     * @param kind the transport, resolved
     * @param gro true when the epoll socket reads with UDP GRO: Netty 4.2 reports a GRO read's segment size only
     *     from recvmsg, not from recvmmsg (whose reads would then hand the decoder several datagrams as one), so
     *     each buffer holds one 64 KiB read, which makes Netty use recvmsg
     * @param readOn asked after each read of a wake-up: true to read again
     * @return 64 KiB buffers for NIO or GRO, 8 × 64 KiB recvmmsg batches for epoll without GRO
     */
    static ReusingRecvByteBufAllocator receiveAllocator(TransportKind kind, boolean gro, BooleanSupplier readOn) {
        boolean batches = kind == TransportKind.EPOLL && !gro;
        return new ReusingRecvByteBufAllocator(batches ? RECEIVE_BUFFER * RECVMMSG_BATCH : RECEIVE_BUFFER,
                RECEIVE_RING, readOn);
    }

    /**
     * Binds a UDP socket, starts its event loop and builds the engine on it, running on the loop's ticker;
     * reading starts with {@link #startReading()}. Same as {@link #bind(RxConfig, InetSocketAddress,
     * TransportKind, LongSupplier, EngineFactory)} with a null clock.
     *
     * @param config endpoint tunables (socket buffer sizes)
     * @param bind local address (port 0 = ephemeral)
     * @param kind NIO, EPOLL or AUTO (epoll where it loads, else NIO)
     * @param engines builds the engine, once, on the loop
     * @return the running transport
     * @throws java.io.IOException if the socket cannot be bound (the message names the address)
     * @throws IllegalStateException if the transport kind is unavailable
     * @throws RuntimeException what {@code engines} threw (the socket is closed again)
     */
    public static RxTransport bind(RxConfig config, InetSocketAddress bind, TransportKind kind,
                                   EngineFactory engines) throws java.io.IOException {
        return bind(config, bind, kind, null, engines);
    }

    /**
     * Binds a UDP socket, starts its event loop and builds the engine on it; reading starts with
     * {@link #startReading()}.
     *
     * @param config endpoint tunables (socket buffer sizes)
     * @param bind local address (port 0 = ephemeral)
     * @param kind NIO, EPOLL or AUTO (epoll where it loads, else NIO)
     * @param clock the engine's clock, monotonic ns, read on the loop and by {@link #now()}; null for the event
     *     loop's Netty {@link io.netty.util.concurrent.Ticker} (whose origin is not {@link System#nanoTime()}'s)
     * @param engines builds the engine, once, on the loop
     * @return the running transport
     * @throws java.io.IOException if the socket cannot be bound (the message names the address)
     * @throws IllegalStateException if the transport kind is unavailable
     * @throws RuntimeException what {@code engines} threw (the socket is closed again)
     */
    public static RxTransport bind(RxConfig config, InetSocketAddress bind, TransportKind kind, LongSupplier clock,
                                   EngineFactory engines) throws java.io.IOException {
        Objects.requireNonNull(engines, "engines");
        try {
            return new RxTransport(config, bind, kind, clock, engines);
        } catch (EngineSetupFailure e) {
            throw (RuntimeException) e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while binding " + describe(bind));
        } catch (RuntimeException e) {
            if (e instanceof IllegalStateException) {
                throw e;
            }
            throw new java.io.IOException("cannot bind UDP " + describe(bind) + ": " + e.getMessage(), e);
        } catch (Exception e) {
            throw new java.io.IOException("cannot bind UDP " + describe(bind) + ": " + e.getMessage(), e);
        }
    }

    /** Carries the engine factory's exception out of the constructor, so bind() does not report it as a bind error. */
    private static final class EngineSetupFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        EngineSetupFailure(RuntimeException cause) {
            super(cause);
        }
    }

    /**
     * Starts reading datagrams. Binding does not read, so that services registered right after binding
     * are in place before the first packet is processed (a call arriving earlier would be refused with
     * the unknown-service ABORT −2).
     */
    public void startReading() {
        channel.config().setAutoRead(true);
    }

    /** @return "host:port" ("[v6]:port" for IPv6), without Java's "name/address" form */
    static String describe(InetSocketAddress a) {
        String host = a.getHostString();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    /** @return the event loop that owns the socket and the engine (e.g. to ask {@code inEventLoop()}) */
    public EventLoop loop() {
        return loop;
    }

    /** @return the configuration the socket was bound with */
    public RxConfig config() {
        return config;
    }

    /**
     * The engine's clock: the one injected at {@link #bind}, else the event loop's ticker. The RPC layer reads
     * time here so that it and the engine share one clock.
     *
     * @return the current time, ns (monotonic; the origin is the clock's own); any thread
     */
    public long now() {
        return clock.getAsLong();
    }

    /** @return the socket's channel, for tests in this package that set socket options the library does not */
    Channel channel() {
        return channel;
    }

    /** @return the bound local address */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** @return the transport running: NIO or EPOLL (what {@link TransportKind#AUTO} resolved to) */
    public TransportKind kind() {
        return kind;
    }

    /**
     * @return true when runs of equal-size datagrams to one peer leave as one UDP GSO send (epoll, offload on in
     *     the configuration, the kernel has GSO and has not refused it since); loop only
     */
    public boolean segmentationOffload() {
        return encoder.segmentation();
    }

    /** @return true when the socket reads with UDP GRO: several datagrams of one sender per read (epoll only) */
    public boolean receiveOffload() {
        return receiveOffload;
    }

    /**
     * @return the scheduler slice the loop's thread runs with, ns: the configuration's
     *     {@code SocketBuffers.schedulerSliceNs} when the kernel accepted it, else 0 (the kernel's own; none was asked
     *     for, or this JVM or system cannot ask: docs/transport.md "Scheduler slice")
     */
    public long schedulerSliceNs() {
        return slice.appliedNs();
    }

    /**
     * @return the receive buffer the kernel granted, bytes, as asked (Linux reserves twice this for its bookkeeping);
     *     the same figure on NIO and epoll
     */
    public int effectiveReceiveBuffer() {
        return effectiveReceiveBuffer;
    }

    /**
     * @param peer a peer's address
     * @return the MTU of the local interface the route to {@code peer} leaves by, bytes (IP packet size), 0 = unknown
     *     (docs/transport.md "Packet size and the route")
     */
    public int routeMtu(InetSocketAddress peer) {
        return encoder.routeMtu(peer);
    }

    /**
     * An executor for an application's callbacks on this transport's loop: one handed over on the loop while a
     * datagram, a timer tick or a task is being handled runs at the end of that unit of work, inside the same read
     * (a reply's completion starts the next call before the read's output is flushed; docs/transport.md
     * "Completions on the loop"); any other is queued as a loop task.
     *
     * @return the executor; usable from any thread
     * @throws java.util.concurrent.RejectedExecutionException from its {@code execute} once the loop has shut down
     */
    public Executor loopCallbacks() {
        return loopCallbacks;
    }

    /** {@link #loopCallbacks()}'s work: at the running unit's end, else a loop task. */
    private void runCallback(Runnable r) {
        if (!loop.inEventLoop() || !engineHandler.runAtUnitEnd(r)) {
            loop.execute(r);
        }
    }

    /**
     * Runs {@code work} on the loop with the engine, then flushes output and re-arms the timer. Called on the loop
     * from inside the engine's own work (a listener answering a call), it runs at once and the output leaves with the
     * rest of that read burst or task (docs/transport.md "Flushes"). The engine must not escape {@code work}: it is
     * loop-confined.
     *
     * @param work the task; a RuntimeException it throws is logged and counted as a task failure
     *     ({@code taskFailures}), never propagated to the loop
     * @throws java.util.concurrent.RejectedExecutionException if the loop has shut down (transport closed)
     */
    public void execute(Consumer<RxEngine> work) {
        if (loop.inEventLoop()) {
            engineHandler.run(work);
        } else {
            loop.execute(() -> engineHandler.run(work));
        }
    }

    /**
     * Runs {@code work} on the loop with the engine and returns its result; then flushes output and re-arms the
     * timer. The engine must not escape {@code work}: it is loop-confined.
     *
     * @param work the task
     * @param <T> result type
     * @return a future completed on the loop with the result or the exception (not counted as a task failure)
     * @throws java.util.concurrent.RejectedExecutionException if the loop has shut down (transport closed)
     */
    public <T> CompletableFuture<T> submit(Function<RxEngine, T> work) {
        CompletableFuture<T> f = new CompletableFuture<>();
        if (loop.inEventLoop()) {
            engineHandler.call(work, f);
        } else {
            loop.execute(() -> engineHandler.call(work, f));
        }
        return f;
    }

    /**
     * Sets work run on the loop at the end of every read burst and timer tick, and once after the handed-over tasks
     * of a loop iteration (before output is flushed): the RPC layer wakes its blocked application threads there, once
     * per burst rather than once per packet. Replaces an earlier hook; any thread (it takes effect from the loop's next
     * unit of work).
     *
     * @param hook the work, or null for none; a RuntimeException it throws is logged and counted as a task failure
     * @throws java.util.concurrent.RejectedExecutionException if the loop has shut down (transport closed)
     */
    public void afterWork(Runnable hook) {
        execute(engine -> engineHandler.afterWorkHook(hook));
    }

    /** @return datagrams read from the socket since it was bound */
    public long datagramsReceived() {
        return decoder.datagramsReceived();
    }

    /** @return datagrams handed to the socket since it was bound (loop only) */
    public long datagramsSent() {
        return encoder.datagramsSent();
    }

    /** @return datagram writes the socket reported as failed (loop only) */
    public long sendFailures() {
        return encoder.sendFailures();
    }

    /** @return datagrams dropped because they did not decode, every reason together */
    public long malformedDatagrams() {
        return decoder.malformedDatagrams();
    }

    /**
     * Adds the transport's counters ({@link RxCounter#DATAGRAMS_RECEIVED} to {@link RxCounter#SEGMENTATION_FALLBACKS},
     * malformed datagrams by {@link DecodeError} and
     * those the decoder threw on) to an endpoint snapshot, each read from the handler that owns it.
     * Loop only.
     *
     * @param into an endpoint-scoped snapshot being taken ({@code RxEngine.totals()})
     */
    public void addCountersTo(RxCounters into) {
        into.add(RxCounter.DATAGRAMS_RECEIVED, decoder.datagramsReceived());
        into.add(RxCounter.DATAGRAMS_SENT, encoder.datagramsSent());
        into.add(RxCounter.SEND_FAILURES, encoder.sendFailures());
        into.add(RxCounter.ENGINE_FAILURES, engineHandler.datagramFailures());
        into.add(RxCounter.TASK_FAILURES, engineHandler.taskFailures());
        into.add(RxCounter.TIMER_FAILURES, engineHandler.timerFailures());
        into.add(RxCounter.SOCKET_ERRORS, engineHandler.socketErrors());
        into.add(RxCounter.SEGMENTED_SENDS, encoder.segmentedSends());
        into.add(RxCounter.SEGMENTATION_FALLBACKS, encoder.segmentationFallbacks());
        for (Map.Entry<DecodeError, Long> e : decoder.malformedByReason().entrySet()) {
            into.add(RxCounter.MALFORMED_DATAGRAMS, e.getKey().ordinal(), e.getValue());
        }
        into.add(RxCounter.MALFORMED_DATAGRAMS, DecodeError.values().length, decoder.decoderFailures());
    }

    /**
     * Closes the socket and stops the loop (immediately; graceful call draining is the RPC layer's job).
     */
    @Override
    public void close() {
        closeChannelAndLoop();
    }

    private void closeChannelAndLoop() {
        try {
            channel.close().syncUninterruptibly();
            if (!channel.eventLoop().isShuttingDown()) { // (closed before: the ring is gone already)
                // On the loop, after the close: no read runs while the ring lets its buffers go.
                channel.eventLoop().submit(receiveBuffers::releaseAll).syncUninterruptibly();
            }
        } finally {
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }
}
