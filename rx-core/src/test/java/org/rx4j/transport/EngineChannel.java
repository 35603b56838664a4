// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.rx4j.config.RxConfig;
import org.rx4j.config.DebugReplies;
import org.rx4j.engine.RxEngine;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * The transport's pipeline (decoder, encoder, engine handler) on an {@link EmbeddedChannel} with frozen time:
 * tests write datagrams in, read encoded datagrams out, and move the clock with {@link #advance}. The engine
 * runs on the channel's ticker, as in {@link RxTransport} without an injected clock.
 */
final class EngineChannel implements AutoCloseable {
    /** The remote end every datagram comes from and goes to. */
    static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 7001);
    /** This end's address, as the receiver of inbound datagrams. */
    static final InetSocketAddress LOCAL = new InetSocketAddress("127.0.0.1", 7000);
    static final long MS = 1_000_000L;

    /** Counts flushes reaching the socket end of the pipeline. */
    static final class FlushCounter extends ChannelOutboundHandlerAdapter {
        int flushes;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes++;
            ctx.flush();
        }
    }

    /**
     * The engine's sink: the encoder, except that the next {@link #failures} sends release what they are given and
     * throw (an engine failure inside an entry point, which the handler counts by the entry point it broke).
     */
    final class Sink implements PacketSink {
        int failures;

        @Override
        public void send(InetSocketAddress peer, RxPacket packet) {
            if (failures > 0) {
                failures--;
                packet.release();
                throw new IllegalStateException("a failing sink");
            }
            encoder.send(peer, packet);
        }

        @Override
        public void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets) {
            if (failures > 0) {
                failures--;
                packets.forEach(DataPacket::release);
                throw new IllegalStateException("a failing sink");
            }
            encoder.sendJumbogram(peer, packets);
        }

        @Override
        public boolean encodesOnSend() {
            return encoder.encodesOnSend();
        }

        @Override
        public int routeMtu(InetSocketAddress peer) {
            return encoder.routeMtu(peer);
        }

        @Override
        public int receiveBufferBytes() {
            return encoder.receiveBufferBytes();
        }

        @Override
        public void debugReplyWithheld(InetSocketAddress querier, DebugReplies policy, long withheld) {
            encoder.debugReplyWithheld(querier, policy, withheld);
        }
    }

    final FlushCounter flushes = new FlushCounter();
    final DatagramDecoder decoder = new DatagramDecoder();
    final DatagramEncoder encoder = new DatagramEncoder();
    final EmbeddedChannel channel = new EmbeddedChannel();
    final EngineHandler handler;
    final LongSupplier clock;
    final Sink sink = new Sink();

    EngineChannel(RxConfig config) {
        this(config, null);
    }

    /** A channel whose pipeline and engine allocate from {@code alloc} (null: the channel's default). */
    EngineChannel(RxConfig config, io.netty.buffer.ByteBufAllocator alloc) {
        this(config, alloc, EngineHandler.FLUSH_EVERY);
    }

    /** A channel whose handler flushes every {@code flushEvery} datagrams inside a read burst (GRO: never). */
    EngineChannel(RxConfig config, io.netty.buffer.ByteBufAllocator alloc, int flushEvery) {
        if (alloc != null) {
            channel.config().setAllocator(alloc);
        }
        channel.freezeTime();
        channel.pipeline().addLast("flushes", flushes).addLast("decoder", decoder).addLast("encoder", encoder);
        clock = EngineHandler.clock(channel.eventLoop(), null);
        RxEngine engine = new RxEngine(config, sink, channel.alloc(), 42, clock.getAsLong());
        handler = new EngineHandler(engine, encoder, clock, flushEvery);
        channel.pipeline().addLast("engine", handler);
    }

    long now() {
        return handler.now();
    }

    /** Moves the frozen clock forward and runs the timers now due. */
    void advance(long ns) {
        channel.advanceTimeBy(ns, TimeUnit.NANOSECONDS);
        channel.runPendingTasks();
    }

    /** Encodes {@code packet} (released) and writes it in as a datagram from {@link #PEER}. */
    void receive(RxPacket packet) {
        ByteBuf buf = PacketEncoder.encode(packet, channel.alloc());
        packet.release();
        channel.writeInbound(new DatagramPacket(buf, LOCAL, PEER));
    }

    /** Writes {@code datagram} (ownership passes in) as one datagram from {@link #PEER}, whatever its bytes. */
    void receiveRaw(ByteBuf datagram) {
        channel.writeInbound(new DatagramPacket(datagram, LOCAL, PEER));
    }

    /** Writes {@code packets} in as one read burst: one datagram each, then one read-complete. */
    void receiveBurst(RxPacket... packets) {
        Object[] datagrams = new Object[packets.length];
        for (int i = 0; i < packets.length; i++) {
            datagrams[i] = new DatagramPacket(PacketEncoder.encode(packets[i], channel.alloc()), LOCAL, PEER);
            packets[i].release();
        }
        channel.writeInbound(datagrams);
    }

    /** @return every datagram written so far, decoded; the datagrams are released, DATA payloads too */
    List<RxPacket> sent() {
        List<RxPacket> all = new ArrayList<>();
        DatagramPacket d;
        while ((d = channel.readOutbound()) != null) {
            try {
                if (!PEER.equals(d.recipient())) {
                    throw new AssertionError("datagram to " + d.recipient());
                }
                List<RxPacket> packets = new ArrayList<>();
                if (PacketDecoder.decode(d.content(), packets) != null) {
                    throw new AssertionError("the encoder wrote a datagram that does not decode");
                }
                for (RxPacket p : packets) {
                    all.add(p);
                    p.release();
                }
            } finally {
                d.release();
            }
        }
        return all;
    }

    /** @return a DATA packet with a copy of {@code payload} */
    static DataPacket data(RxHeader h, byte[] payload) {
        return new DataPacket(h, Unpooled.copiedBuffer(payload));
    }

    /** Ends every call (releasing what the engine holds) and drops what is still queued on the channel. */
    @Override
    public void close() {
        handler.run(e -> e.shutdown(now()));
        channel.finishAndReleaseAll();
    }
}
