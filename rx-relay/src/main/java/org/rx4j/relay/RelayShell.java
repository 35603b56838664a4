// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.rx4j.relay.core.Direction;
import org.rx4j.relay.core.DirectionCounters;
import org.rx4j.relay.core.DropReason;
import org.rx4j.relay.core.FallingBehindDetector;
import org.rx4j.relay.core.ImpairmentPipeline;

/**
 * The Netty side of {@link ImpairmentRelay}: the sockets, one event loop, one timer at the earliest release time
 * of either direction, and a housekeeping tick each second (idle flows, kernel receive drops, falling-behind
 * check). Every field is touched only on the loop. Writes are flushed once per read burst or timer round, so
 * epoll sends them with sendmmsg.
 *
 * <p>Buffers: each received datagram is copied into a buffer of its exact size (the receive buffer, up to 64 KiB
 * or a recvmmsg slab, is released at once) owned by a {@link Relayed} in the pipeline; a released datagram's
 * buffer goes to the socket's write, which releases it.
 */
final class RelayShell {
    /** Largest UDP payload; the receive buffer per datagram, so none is truncated. */
    static final int MAX_DATAGRAM = 65536;
    /** Datagrams per recvmmsg call with epoll. */
    static final int RECVMMSG_BATCH = 8;
    private static final long TICK_NS = 1_000_000_000L;

    private final InetSocketAddress target;
    private final long seed;
    private final long lateThresholdNs;
    private final int maxFlows;
    private final long idleTimeoutNs;
    private final Consumer<String> warnings;
    private final TransportChoice transport;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final DatagramChannel listen;
    private final Bootstrap upstreamBootstrap;
    private final Map<InetSocketAddress, ClientFlow> flows = new HashMap<>();
    private final DirectionCounters upCounters = new DirectionCounters(Direction.UPSTREAM);
    private final DirectionCounters downCounters = new DirectionCounters(Direction.DOWNSTREAM);
    private final ImpairmentPipeline<Relayed> up;
    private final ImpairmentPipeline<Relayed> down;
    private final FallingBehindDetector detector;
    private final UdpDropProbe probe = new UdpDropProbe();
    private final ArrayList<ClientFlow> dirtyFlows = new ArrayList<>();
    private final int receiveBufferBytes;
    private boolean listenDirty;
    private long listenKernelDrops = -1;
    private final ReleaseTimer timer;
    private ScheduledFuture<?> housekeeping;
    private volatile RelayStats finalStats;
    private boolean closing;

    private RelayShell(ImpairmentRelay.Builder b, TransportChoice transport, EventLoopGroup group)
            throws IOException {
        this.target = b.target;
        this.seed = b.seed != null ? b.seed : ThreadLocalRandom.current().nextLong();
        this.lateThresholdNs = b.lateThresholdNs;
        this.maxFlows = b.maxFlows;
        this.idleTimeoutNs = b.idleTimeoutNs;
        this.warnings = b.warnings;
        this.transport = transport;
        this.group = group;
        // Distinct, reproducible streams per direction from one seed.
        this.up = new ImpairmentPipeline<>(b.upstream, seed * 0x9E3779B97F4A7C15L + 1, Relayed.OPS, upCounters,
                b.maxPendingBytes);
        this.down = new ImpairmentPipeline<>(b.downstream, seed * 0x9E3779B97F4A7C15L + 2, Relayed.OPS,
                downCounters, b.maxPendingBytes);
        this.detector = new FallingBehindDetector(TICK_NS, lateThresholdNs);
        Bootstrap base = new Bootstrap()
                .group(group)
                .channel(transport.channelClass())
                .option(ChannelOption.SO_RCVBUF, b.socketBufferBytes)
                .option(ChannelOption.SO_SNDBUF, b.socketBufferBytes)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(4 << 20, 16 << 20))
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT);
        if (transport == TransportChoice.EPOLL) {
            base.option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_DATAGRAM * RECVMMSG_BATCH))
                    .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, MAX_DATAGRAM);
        } else {
            base.option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_DATAGRAM));
        }
        this.upstreamBootstrap = base.clone();
        ChannelFuture bound = base.clone().handler(new RelayHandlers.Listen(this)).bind(b.listen);
        bound.awaitUninterruptibly();
        if (!bound.isSuccess()) {
            Throwable cause = bound.cause();
            throw new IOException("cannot bind UDP " + describe(b.listen) + ": " + cause.getMessage(), cause);
        }
        this.listen = (DatagramChannel) bound.channel();
        this.loop = listen.eventLoop();
        this.receiveBufferBytes = listen.config().getReceiveBufferSize();
        this.timer = new ReleaseTimer(loop, this::onTimer);
        loop.execute(() -> housekeeping = loop.scheduleAtFixedRate(this::tick, TICK_NS, TICK_NS,
                TimeUnit.NANOSECONDS));
    }

    static RelayShell start(ImpairmentRelay.Builder b) throws IOException {
        TransportChoice resolved = b.transport.resolve();
        EventLoopGroup group = resolved.newGroup();
        try {
            return new RelayShell(b, resolved, group);
        } catch (IOException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    InetSocketAddress listenAddress() {
        return listen.localAddress();
    }

    InetSocketAddress target() {
        return target;
    }

    long seed() {
        return seed;
    }

    String transport() {
        return transport.name().toLowerCase(java.util.Locale.ROOT);
    }

    int receiveBufferBytes() {
        return receiveBufferBytes;
    }

    DirectionCounters upstreamCounters() {
        return upCounters;
    }

    DirectionCounters downstreamCounters() {
        return downCounters;
    }

    private static long now() {
        return System.nanoTime();
    }

    // ---- upstream: client -> target

    /** A client datagram (the payload is copied; the caller releases the packet). */
    void onClientDatagram(InetSocketAddress sender, ByteBuf content) {
        if (closing) {
            return;
        }
        long now = now();
        int bytes = content.readableBytes();
        ClientFlow flow = flows.get(sender);
        if (flow == null) {
            if (flows.size() >= maxFlows) {
                upCounters.received(bytes);
                upCounters.dropped(DropReason.RELAY_FLOWS);
                return;
            }
            flow = openFlow(sender, now);
        }
        flow.lastActiveNs = now;
        up.offer(now, new Relayed(copy(content), flow), bytes);
        if (up.nextReleaseNs() <= now) {
            drainUp(now);
        }
    }

    private ClientFlow openFlow(InetSocketAddress client, long now) {
        ClientFlow flow = new ClientFlow(client, now);
        flows.put(client, flow);
        InetSocketAddress local = new InetSocketAddress(0);
        ChannelFuture bound = upstreamBootstrap.clone().handler(new RelayHandlers.Upstream(this, flow)).bind(local);
        flow.channel = (DatagramChannel) bound.channel();
        bound.addListener(f -> {
            if (!f.isSuccess()) {
                warnings.accept("relay: cannot open an upstream socket for " + describe(client) + ": "
                        + f.cause().getMessage());
                closeFlow(flow);
                flows.remove(client);
                return;
            }
            flow.ready = true;
            if (flow.closed) {
                return;
            }
            ByteBuf held;
            while ((held = flow.heldWhileBinding.poll()) != null) {
                writeUp(flow, held);
            }
            flushAll();
        });
        return flow;
    }

    private void drainUp(long now) {
        Relayed r;
        while ((r = up.pollDue(now)) != null) {
            checkLate(upCounters, now - up.polledReleaseNs());
            ClientFlow flow = r.flow;
            if (flow.closed) {
                r.payload.release();
                upCounters.dropped(DropReason.RELAY_SOCKET);
            } else if (!flow.ready) {
                if (flow.heldWhileBinding.size() >= ClientFlow.MAX_HELD_WHILE_BINDING) {
                    r.payload.release();
                    upCounters.dropped(DropReason.RELAY_SOCKET);
                } else {
                    flow.heldWhileBinding.add(r.payload);
                }
            } else {
                writeUp(flow, r.payload);
            }
        }
    }

    private void writeUp(ClientFlow flow, ByteBuf payload) {
        DatagramChannel ch = flow.channel;
        if (!ch.isWritable()) {
            payload.release();
            upCounters.dropped(DropReason.RELAY_SOCKET);
            return;
        }
        upCounters.sent(payload.readableBytes());
        ch.write(new DatagramPacket(payload, target), ch.voidPromise());
        if (!flow.dirty) {
            flow.dirty = true;
            dirtyFlows.add(flow);
        }
    }

    // ---- downstream: target -> client

    /** A target datagram for {@code flow} (the payload is copied; the caller releases the packet). */
    void onServerDatagram(ClientFlow flow, ByteBuf content) {
        if (closing || flow.closed) {
            return;
        }
        long now = now();
        flow.lastActiveNs = now;
        down.offer(now, new Relayed(copy(content), flow), content.readableBytes());
        if (down.nextReleaseNs() <= now) {
            drainDown(now);
        }
    }

    private void drainDown(long now) {
        Relayed r;
        while ((r = down.pollDue(now)) != null) {
            checkLate(downCounters, now - down.polledReleaseNs());
            if (!listen.isWritable()) {
                r.payload.release();
                downCounters.dropped(DropReason.RELAY_SOCKET);
                continue;
            }
            downCounters.sent(r.payload.readableBytes());
            listen.write(new DatagramPacket(r.payload, r.flow.client), listen.voidPromise());
            listenDirty = true;
        }
    }

    // ---- shared

    private void checkLate(DirectionCounters counters, long lateNs) {
        if (lateNs > lateThresholdNs) {
            counters.late(lateNs);
        }
    }

    private ByteBuf copy(ByteBuf content) {
        int n = content.readableBytes();
        ByteBuf c = listen.alloc().directBuffer(n, n);
        c.writeBytes(content, content.readerIndex(), n);
        return c;
    }

    private void flushAll() {
        if (listenDirty) {
            listenDirty = false;
            listen.flush();
        }
        for (int i = 0; i < dirtyFlows.size(); i++) {
            ClientFlow f = dirtyFlows.get(i);
            f.dirty = false;
            if (!f.closed) {
                f.channel.flush();
            }
        }
        dirtyFlows.clear();
    }

    /** End of a read burst: one flush per touched socket, then the timer at the earliest release. */
    void endOfBurst() {
        flushAll();
        armTimer();
    }

    private void armTimer() {
        if (!closing) {
            timer.arm(Math.min(up.nextReleaseNs(), down.nextReleaseNs()), now());
        }
    }

    private void onTimer() {
        long now = now();
        drainUp(now);
        drainDown(now);
        flushAll();
        armTimer();
    }

    /** Once a second: idle flows, kernel receive drops, the falling-behind check. */
    private void tick() {
        long now = now();
        Map<Integer, Long> kernel = probe.dropsByPort();
        Long listenDrops = kernel.get(listenAddress().getPort());
        if (listenDrops != null) {
            if (listenKernelDrops >= 0 && listenDrops > listenKernelDrops) {
                upCounters.dropped(DropReason.RELAY_RECEIVE, listenDrops - listenKernelDrops);
            }
            listenKernelDrops = listenDrops;
        }
        for (Iterator<ClientFlow> it = flows.values().iterator(); it.hasNext(); ) {
            ClientFlow f = it.next();
            if (f.ready && !f.closed) {
                Long d = kernel.get(f.channel.localAddress().getPort());
                if (d != null) {
                    if (d > f.kernelDrops) {
                        downCounters.dropped(DropReason.RELAY_RECEIVE, d - f.kernelDrops);
                    }
                    f.kernelDrops = d;
                }
            }
            if (now - f.lastActiveNs > idleTimeoutNs) {
                closeFlow(f);
                it.remove();
            }
        }
        String warning = detector.check(now, upCounters.snapshot(up.pending()),
                downCounters.snapshot(down.pending()));
        if (warning != null) {
            warnings.accept(warning);
        }
    }

    private void closeFlow(ClientFlow f) {
        f.closed = true;
        f.releaseHeld();
        if (f.channel != null) {
            f.channel.close();
        }
    }

    private RelayStats snapshot() {
        return new RelayStats(upCounters.snapshot(up.pending()), downCounters.snapshot(down.pending()),
                flows.size(), detector.warnings());
    }

    RelayStats stats() {
        RelayStats done = finalStats;
        if (done != null) {
            return done;
        }
        if (loop.inEventLoop()) {
            return snapshot();
        }
        try {
            return loop.submit(this::snapshot).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading relay stats", e);
        } catch (ExecutionException | java.util.concurrent.RejectedExecutionException e) {
            RelayStats again = finalStats;
            if (again != null) {
                return again;
            }
            throw new IllegalStateException("relay stats unavailable: " + e.getMessage(), e);
        }
    }

    void close() {
        if (finalStats != null || loop.isShuttingDown()) {
            return;
        }
        try {
            loop.submit(() -> {
                if (closing) {
                    return;
                }
                closing = true;
                timer.cancel();
                if (housekeeping != null) {
                    housekeeping.cancel(false);
                }
                flushAll();
                finalStats = snapshot();
                up.clear();
                down.clear();
                for (ClientFlow f : flows.values()) {
                    closeFlow(f);
                }
                flows.clear();
                listen.close();
            }).syncUninterruptibly();
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    static String describe(InetSocketAddress a) {
        String host = a.getHostString();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
