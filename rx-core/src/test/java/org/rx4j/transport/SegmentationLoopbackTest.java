// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.unix.IntegerUnixChannelOption;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.engine.RxEngine;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * UDP GSO and GRO on real loopback sockets (docs/transport.md "Segmentation offload"): runs of equal-size datagrams
 * leave as GSO sends and arrive as the same Rx packets, in order, at a NIO receiver and at an epoll receiver reading
 * with GRO; a kernel refusing GSO costs a fallback, not the datagrams. Skipped where epoll or GSO is unavailable.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class SegmentationLoopbackTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);
    /** A 1444-byte datagram: the Ethernet-size packet (28-byte header + 1416 bytes). */
    private static final int FULL_PAYLOAD = 1416;
    /** Linux SOL_SOCKET / SO_NO_CHECK: a socket without UDP checksums, on which the kernel refuses GSO (EINVAL). */
    private static final IntegerUnixChannelOption SO_NO_CHECK = new IntegerUnixChannelOption("SO_NO_CHECK", 1, 11);

    /** Collects the sequence numbers and lengths of the Rx packets the decoder fires; releases them. */
    private static final class Collector extends ChannelInboundHandlerAdapter {
        private final List<Integer> seqs = new ArrayList<>();
        private final List<Integer> payloadBytes = new ArrayList<>();
        /** One permit per packet collected. */
        private final Semaphore arrived = new Semaphore(0);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof InboundDatagram d) {
                synchronized (this) {
                    for (RxPacket p : d.packets()) {
                        seqs.add(p.header().seq());
                        payloadBytes.add(((DataPacket) p).payload().readableBytes());
                    }
                }
                arrived.release(d.packets().size());
                d.release();
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        synchronized List<Integer> seqs() {
            return new ArrayList<>(seqs);
        }

        synchronized List<Integer> payloadBytes() {
            return new ArrayList<>(payloadBytes);
        }
    }

    private static void assumeGso() {
        assumeTrue(NettyTransports.isAvailable(TransportKind.EPOLL), "epoll transport unavailable here");
        assumeTrue(NettyTransports.segmentationOffload(TransportKind.EPOLL, true),
                "the kernel or Netty's native library has no UDP GSO (UDP_SEGMENT)");
    }

    private static DataPacket data(int seq, int payloadBytes) {
        RxHeader h = new RxHeader(0x80000001, 0x100, 1, seq, seq, PacketType.DATA, PacketFlags.CLIENT_INITIATED, 0,
                0, 0, 147);
        return new DataPacket(h, Unpooled.buffer(payloadBytes).writeZero(payloadBytes));
    }

    /** A receiver: decoder and collector on a NIO or an epoll (GRO) socket, with the transport's receive buffers. */
    private static final class Receiver implements AutoCloseable {
        final Collector collector = new Collector();
        final DatagramDecoder decoder = new DatagramDecoder();
        final EventLoopGroup group;
        final Channel channel;
        final ReusingRecvByteBufAllocator buffers;
        /** Packets {@link #await} has waited for so far. */
        private int awaited;

        Receiver(TransportKind kind) throws InterruptedException {
            group = NettyTransports.newEventLoopGroup(kind, "test-receiver");
            boolean epoll = kind == TransportKind.EPOLL;
            buffers = RxTransport.receiveAllocator(kind, epoll, () -> false);
            Bootstrap b = new Bootstrap().group(group).channel(NettyTransports.channelClass(kind))
                    .option(ChannelOption.SO_RCVBUF, 4 << 20)
                    .option(ChannelOption.RECVBUF_ALLOCATOR, buffers)
                    .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .handler(new io.netty.channel.ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(decoder, collector);
                        }
                    });
            if (epoll) {
                b.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, RxTransport.RECEIVE_BUFFER);
            }
            channel = b.bind(LOOPBACK).sync().channel();
            if (epoll) {
                assertTrue(NettyTransports.enableReceiveOffload(channel), "UDP_GRO set");
            }
        }

        InetSocketAddress address() {
            return (InetSocketAddress) channel.localAddress();
        }

        /** Waits until {@code n} packets (in all) arrived or 10 s passed; the collected sequence numbers. */
        List<Integer> await(int n) throws InterruptedException {
            int missing = n - awaited;
            if (collector.arrived.tryAcquire(missing, 10, TimeUnit.SECONDS)) {
                awaited = n;
            }
            return collector.seqs();
        }

        @Override
        public void close() {
            channel.close().syncUninterruptibly();
            group.submit(buffers::releaseAll).syncUninterruptibly();
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }

    /** A GSO sender on its own epoll transport; {@link #send} runs one unit of work on its loop. */
    private static final class Sender implements AutoCloseable {
        final RxTransport transport;
        private org.rx4j.engine.output.PacketSink sink;

        Sender(RxConfig config) throws Exception {
            transport = RxTransport.bind(config, LOOPBACK, TransportKind.EPOLL, (s, alloc, now) -> {
                sink = s;
                return new RxEngine(config, s, alloc, 1, now);
            });
        }

        /** Sends DATA packets seq 1..n to {@code to}, full size except the last ({@code lastPayload} bytes). */
        void send(InetSocketAddress to, int n, int lastPayload) {
            transport.submit(e -> {
                for (int i = 1; i <= n; i++) {
                    sink.send(to, data(i, i == n ? lastPayload : FULL_PAYLOAD));
                }
                return null;
            }).join(); // the unit of work ends with the flush: the runs are written there
        }

        long counter(RxCounter c) {
            return transport.submit(e -> {
                RxCounters t = new RxCounters(RxCounter.Scope.ENDPOINT);
                transport.addCountersTo(t);
                return t.get(c);
            }).join();
        }

        @Override
        public void close() {
            transport.close();
        }
    }

    private static List<Integer> oneTo(int n) {
        List<Integer> l = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            l.add(i);
        }
        return l;
    }

    private static void sendsAndReceives(TransportKind receiverKind) throws Exception {
        assumeGso();
        try (Receiver receiver = new Receiver(receiverKind); Sender sender = new Sender(RxConfig.defaults())) {
            assertTrue(sender.transport.submit(e -> sender.transport.segmentationOffload()).join());
            // 100 datagrams: runs of 45 (45 × 1444 = 64,980 bytes), 45 and 10, the last one shorter.
            sender.send(receiver.address(), 100, 700);
            assertEquals(oneTo(100), receiver.await(100), "every datagram arrives once, in order");
            List<Integer> sizes = receiver.collector.payloadBytes();
            assertEquals(FULL_PAYLOAD, (int) sizes.get(98));
            assertEquals(700, (int) sizes.get(99), "the shorter last segment stays its own size");
            assertEquals(100, sender.counter(RxCounter.DATAGRAMS_SENT));
            assertEquals(3, sender.counter(RxCounter.SEGMENTED_SENDS), "100 datagrams in 3 GSO sends");
            assertEquals(0, sender.counter(RxCounter.SEGMENTATION_FALLBACKS));
            assertEquals(100, receiver.decoder.datagramsReceived(), "each datagram counted as one");
            assertEquals(0, receiver.decoder.malformedDatagrams());
        }
    }

    @Test
    void aGsoSendArrivesAsItsDatagramsAtANioReceiver() throws Exception {
        sendsAndReceives(TransportKind.NIO);
    }

    @Test
    void aGsoSendArrivesAsItsDatagramsAtAnEpollReceiverReadingWithGro() throws Exception {
        sendsAndReceives(TransportKind.EPOLL);
    }

    @Test
    void withOffloadSwitchedOffEveryDatagramIsWrittenOnItsOwn() throws Exception {
        assumeGso();
        try (Receiver receiver = new Receiver(TransportKind.NIO);
             Sender sender = new Sender(RxConfig.builder().segmentationOffload(false).build())) {
            assertFalse(sender.transport.submit(e -> sender.transport.segmentationOffload()).join());
            assertFalse(sender.transport.receiveOffload());
            sender.send(receiver.address(), 20, FULL_PAYLOAD);
            assertEquals(oneTo(20), receiver.await(20));
            assertEquals(0, sender.counter(RxCounter.SEGMENTED_SENDS));
        }
    }

    @Test
    void withReceiveOffloadOffTheSocketStillSendsWithGsoButReadsWithoutGro() throws Exception {
        assumeGso();
        try (Receiver receiver = new Receiver(TransportKind.NIO);
             Sender sender = new Sender(RxConfig.builder().receiveOffload(false).build())) {
            assertTrue(sender.transport.submit(e -> sender.transport.segmentationOffload()).join());
            assertFalse(sender.transport.receiveOffload(), "recvmmsg batches, no GRO");
            assertFalse(sender.transport.channel().config().getOption(EpollChannelOption.UDP_GRO),
                    "UDP_GRO never set on the socket");
            sender.send(receiver.address(), 20, FULL_PAYLOAD);
            assertEquals(oneTo(20), receiver.await(20));
            assertTrue(sender.counter(RxCounter.SEGMENTED_SENDS) >= 1, "the run left as a GSO send");
        }
    }

    @Test
    void aKernelRefusingGsoGetsTheDatagramsOneByOneAndNoMoreGso() throws Exception {
        assumeGso();
        try (Receiver receiver = new Receiver(TransportKind.NIO); Sender sender = new Sender(RxConfig.defaults())) {
            // No UDP checksums on the sending socket: Linux then refuses every GSO send with EINVAL.
            setOption(sender, SO_NO_CHECK, 1);
            sender.send(receiver.address(), 10, FULL_PAYLOAD);
            assertEquals(oneTo(10), receiver.await(10), "the refused run's datagrams arrive, in order");
            assertEquals(1, sender.counter(RxCounter.SEGMENTATION_FALLBACKS));
            assertEquals(1, sender.counter(RxCounter.SEGMENTED_SENDS), "the refused send was the only GSO send");
            assertEquals(10, sender.counter(RxCounter.DATAGRAMS_SENT), "each datagram counted once");
            assertEquals(0, sender.counter(RxCounter.SEND_FAILURES));
            assertFalse(sender.transport.submit(e -> sender.transport.segmentationOffload()).join());
            sender.send(receiver.address(), 10, FULL_PAYLOAD);
            assertEquals(20, receiver.await(20).size(), "later runs go one by one");
            assertEquals(1, sender.counter(RxCounter.SEGMENTED_SENDS));
        }
    }

    @Test
    void nioHasNoOffloadAndStaysTheFallback() throws Exception {
        RxConfig config = RxConfig.defaults();
        try (RxTransport t = RxTransport.bind(config, LOOPBACK, TransportKind.NIO,
                (s, alloc, now) -> new RxEngine(config, s, alloc, 1, now))) {
            assertFalse(t.submit(e -> t.segmentationOffload()).join());
            assertFalse(t.receiveOffload());
        }
    }

    private static void setOption(Sender sender, IntegerUnixChannelOption option, int value) {
        assertTrue(sender.transport.channel().config().setOption(option, value), option.name());
    }
}
