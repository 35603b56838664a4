package org.rx4j.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.rx4j.engine.PacketSink;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.engine.RxEngine;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.RxPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One UDP socket and the {@link RxEngine} behind it, owned by one Netty event loop (design.md "transport"):
 * client and server calls share the socket, as in OpenAFS. All engine work runs on that loop; other
 * threads hand work over with {@link #execute} or {@link #submit}. Output is written as the engine
 * produces it and flushed once per read burst, timer tick or handed-over task; one event-loop timer is
 * kept at the engine's next deadline.
 */
public final class RxTransport implements PacketSink, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RxTransport.class);
    /** Receive buffer per datagram: a whole UDP payload, so jumbograms are never truncated. */
    static final int RECEIVE_BUFFER = 65536;
    /** Datagrams one recvmmsg call may return with the epoll transport. */
    static final int RECVMMSG_BATCH = 8;

    private final RxConfig config;
    private final EventLoopGroup group;
    private final Channel channel;
    private final EventLoop loop;
    private final RxEngine engine;
    private final LongSupplier clock;
    private final ByteBufAllocator alloc;
    private ScheduledFuture<?> timer;
    private long timerDeadline = Long.MAX_VALUE;
    private boolean flushPending;
    final MalformedCounters malformed = new MalformedCounters();
    long datagramsReceived;
    long datagramsSent;
    long sendFailures;
    private final int effectiveReceiveBuffer;
    private final int effectiveSendBuffer;
    /** One listener for every write (a capturing lambda per datagram would allocate on the send path). */
    private final ChannelFutureListener countSendFailure = f -> {
        if (!f.isSuccess()) {
            sendFailures++;
        }
    };

    private RxTransport(RxConfig config, InetSocketAddress bind, TransportKind kind, Consumer<RxEngine> init,
                        LongSupplier clock) throws InterruptedException {
        this.config = config;
        this.clock = clock;
        this.alloc = PooledByteBufAllocator.DEFAULT;
        this.group = NettyTransports.newEventLoopGroup(kind, "rx4j-" + kind.name().toLowerCase(java.util.Locale.ROOT));
        this.engine = new RxEngine(config, this, alloc, System.nanoTime() ^ System.identityHashCode(this),
                clock.getAsLong());
        int buffer = config.effectiveUdpBufferBytes();
        // TODO(issue 9, transport helper): replace the deprecated RCVBUF_ALLOCATOR option; suppressed here only so
        // that -Werror can be on while the transport pipeline is rewritten.
        @SuppressWarnings("deprecation")
        ChannelOption<io.netty.channel.RecvByteBufAllocator> recvAllocator = ChannelOption.RCVBUF_ALLOCATOR;
        Bootstrap b = new Bootstrap()
                .group(group)
                .channel(NettyTransports.channelClass(kind))
                .option(ChannelOption.SO_RCVBUF, buffer)
                .option(ChannelOption.SO_SNDBUF, buffer)
                .option(recvAllocator, new FixedRecvByteBufAllocator(
                        kind == TransportKind.EPOLL ? RECEIVE_BUFFER * RECVMMSG_BATCH : RECEIVE_BUFFER))
                .option(ChannelOption.ALLOCATOR, alloc)
                // Nothing is read until the owner has registered its services: see startReading().
                .option(ChannelOption.AUTO_READ, false)
                .handler(new ChannelInitializer<DatagramChannel>() {
                    @Override
                    protected void initChannel(DatagramChannel ch) {
                        ch.pipeline().addLast("rx", new RxInboundHandler(RxTransport.this));
                    }
                });
        if (kind == TransportKind.EPOLL) {
            // recvmmsg: up to RECVMMSG_BATCH whole datagrams per system call, each in its own 64 KiB slot.
            b.option(io.netty.channel.epoll.EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, RECEIVE_BUFFER);
        }
        try {
            this.channel = b.bind(bind).sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
        this.loop = channel.eventLoop();
        DatagramChannel dc = (DatagramChannel) channel;
        this.effectiveReceiveBuffer = dc.config().getReceiveBufferSize();
        this.effectiveSendBuffer = dc.config().getSendBufferSize();
        if (effectiveReceiveBuffer < buffer || effectiveSendBuffer < buffer) {
            log.warn("UDP socket buffers capped by the kernel: asked {} bytes, got receive {} / send {} "
                    + "(raise net.core.rmem_max / wmem_max)", buffer, effectiveReceiveBuffer, effectiveSendBuffer);
        }
        submit(e -> {
            e.setDebugResponder(new org.rx4j.engine.EngineDebugResponder());
            if (init != null) {
                init.accept(e);
            }
            return null;
        }).join();
    }

    /**
     * Binds a UDP socket and starts its event loop; reading starts with {@link #startReading()}.
     *
     * @param config endpoint tunables
     * @param bind local address (port 0 = ephemeral)
     * @param kind NIO or epoll
     * @param init run once on the loop before any packet is processed (e.g. to register services), may be null
     * @return the running transport
     * @throws java.io.IOException if the socket cannot be bound (the message names the address)
     * @throws IllegalStateException if the transport kind is unavailable
     */
    public static RxTransport bind(RxConfig config, InetSocketAddress bind, TransportKind kind,
                                   Consumer<RxEngine> init) throws java.io.IOException {
        return bind(config, bind, kind, init, System::nanoTime);
    }

    /**
     * As {@link #bind(RxConfig, InetSocketAddress, TransportKind, Consumer)} with an injected clock: the engine's
     * {@code now} and the timer's delays are read from it (the endpoint's clock, so that deadlines the RPC layer
     * computes and the engine's timers agree).
     *
     * @param config endpoint tunables
     * @param bind local address (port 0 = ephemeral)
     * @param kind NIO or epoll
     * @param init run once on the loop before any packet is processed, may be null
     * @param clock monotonic time, ns; read on the event loop and by {@link #now()} from any thread
     * @return the running transport
     * @throws java.io.IOException if the socket cannot be bound (the message names the address)
     * @throws IllegalStateException if the transport kind is unavailable
     */
    public static RxTransport bind(RxConfig config, InetSocketAddress bind, TransportKind kind,
                                   Consumer<RxEngine> init, LongSupplier clock) throws java.io.IOException {
        java.util.Objects.requireNonNull(clock, "clock");
        try {
            return new RxTransport(config, bind, kind, init, clock);
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

    /** @return the engine; touch it only on {@link #loop()} */
    public RxEngine engine() {
        return engine;
    }

    /** @return the event loop that owns the socket and the engine */
    public EventLoop loop() {
        return loop;
    }

    /** @return the configuration */
    public RxConfig config() {
        return config;
    }

    /** @return the current time from the transport's clock, ns */
    public long now() {
        return clock.getAsLong();
    }

    /** @return the bound local address */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** @return the receive buffer the kernel granted, bytes */
    public int effectiveReceiveBuffer() {
        return effectiveReceiveBuffer;
    }

    /**
     * Runs {@code work} on the loop, then flushes output and re-arms the timer.
     *
     * @param work the task; exceptions it throws are logged and counted, never propagated to the loop
     * @throws java.util.concurrent.RejectedExecutionException if the loop has shut down (transport closed)
     */
    public void execute(Consumer<RxEngine> work) {
        if (loop.inEventLoop()) {
            runGuarded(work);
        } else {
            loop.execute(() -> runGuarded(work));
        }
    }

    private void runGuarded(Consumer<RxEngine> work) {
        try {
            work.accept(engine);
        } catch (RuntimeException e) {
            malformed.handlerErrors++;
            log.warn("rx4j task failed", e);
        } finally {
            afterWork();
        }
    }

    /**
     * Runs {@code work} on the loop and returns its result.
     *
     * @param work the task
     * @param <T> result type
     * @return a future completed on the loop with the result or the exception
     * @throws java.util.concurrent.RejectedExecutionException if the loop has shut down (transport closed)
     */
    public <T> CompletableFuture<T> submit(Function<RxEngine, T> work) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Runnable r = () -> {
            try {
                f.complete(work.apply(engine));
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            } finally {
                afterWork();
            }
        };
        if (loop.inEventLoop()) {
            r.run();
        } else {
            loop.execute(r);
        }
        return f;
    }

    /** Flushes pending output and keeps one timer at the engine's next deadline. Loop only. */
    void afterWork() {
        if (flushPending) {
            flushPending = false;
            channel.flush();
        }
        long deadline = engine.nextDeadline();
        if (deadline == Long.MAX_VALUE) {
            return;
        }
        if (timer != null && timerDeadline - deadline <= 0 && !timer.isDone()) {
            return;
        }
        if (timer != null) {
            timer.cancel(false);
        }
        timerDeadline = deadline;
        long delay = Math.max(0, deadline - now());
        timer = loop.schedule(this::onTimer, delay, TimeUnit.NANOSECONDS);
    }

    private void onTimer() {
        timer = null;
        timerDeadline = Long.MAX_VALUE;
        try {
            engine.onTimer(now());
        } catch (RuntimeException e) {
            malformed.handlerErrors++;
            log.warn("rx4j timer failed", e);
        } finally {
            afterWork();
        }
    }

    // ---- PacketSink (loop only)

    @Override
    public void send(InetSocketAddress peer, RxPacket packet) {
        ByteBuf buf;
        try {
            buf = PacketEncoder.encode(packet, alloc);
        } finally {
            packet.release();
        }
        write(buf, peer);
    }

    @Override
    public void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets) {
        ByteBuf buf = alloc.ioBuffer(PacketEncoder.jumbogramLength(packets));
        try {
            PacketEncoder.encodeJumbogram(packets, buf);
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        } finally {
            for (DataPacket p : packets) {
                p.release();
            }
        }
        write(buf, peer);
    }

    private void write(ByteBuf buf, InetSocketAddress peer) {
        datagramsSent++;
        channel.write(new DatagramPacket(buf, peer)).addListener(countSendFailure);
        flushPending = true;
        if (!channel.isWritable()) {
            flushPending = false;
            channel.flush();
        }
    }

    /** @return datagrams read from the socket since it was bound (loop only) */
    public long datagramsReceived() {
        return datagramsReceived;
    }

    /** @return datagrams handed to the socket since it was bound (loop only) */
    public long datagramsSent() {
        return datagramsSent;
    }

    /** @return datagram writes the socket reported as failed (loop only) */
    public long sendFailures() {
        return sendFailures;
    }

    /** @return datagrams dropped because they did not decode, every reason together (loop only) */
    public long malformedDatagrams() {
        return malformed.total();
    }

    /**
     * Transport-level counters, for the stats API and {@code rxperf -D}. Loop only.
     *
     * @return datagrams received/sent, send failures and malformed datagrams by reason
     */
    public Map<String, Long> transportCounters() {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put("datagramsReceived", datagramsReceived);
        m.put("datagramsSent", datagramsSent);
        m.put("sendFailures", sendFailures);
        m.put("malformedDatagrams", malformed.total());
        for (Map.Entry<DecodeError, Long> e : malformed.snapshot().entrySet()) {
            m.put("malformed." + e.getKey().name(), e.getValue());
        }
        return m;
    }

    /**
     * Closes the socket and stops the loop (immediately; graceful call draining is the RPC layer's job).
     */
    @Override
    public void close() {
        try {
            channel.close().syncUninterruptibly();
        } finally {
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }
}
