// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.RxPacket;

/**
 * Drives one {@link RxEngine} by hand in virtual time, for packet-level tests: the test delivers hand-made
 * packets ({@link FakePeer}) and reads back every datagram the engine sent. Outgoing packets are really
 * encoded and decoded, so what the test sees is what the wire would carry (jumbogram flags included).
 */
public final class EngineHarness implements PacketSink {
    /**
     * Marks the path to the connection's peer as having carried full-size packets of ours before: a request's first
     * packet is then cut at the full size, not at 492 bytes (docs/engine.md "Path MTU below one full packet"). For
     * tests about other things that count or measure a first call's packets.
     *
     * @param conn a client connection
     */
    public static void fullSizeProven(Connection conn) {
        conn.peer().pathMtuState().onVerified(org.rx4j.wire.RxConstants.MAX_PACKET_SIZE);
    }

    /** The fake peer's address. */
    public static final InetSocketAddress REMOTE = new InetSocketAddress("10.0.0.1", 7001);
    /** Another address of the fake peer (NAT rebinding, multi-homing). */
    public static final InetSocketAddress REMOTE2 = new InetSocketAddress("10.0.0.3", 7002);

    public static final long MS = 1_000_000L;
    public static final long S = 1_000 * MS;

    /** One datagram the engine sent. */
    public record Datagram(long at, InetSocketAddress to, List<RxPacket> packets) {
        /** @return the datagram's first packet (the only one unless it is a jumbogram) */
        public RxPacket first() {
            return packets.get(0);
        }

        int type() {
            return first().header().type();
        }
    }

    /** The engine under test; this harness is its packet sink. */
    public final RxEngine engine;
    /** The virtual clock, ns: tests move it and pass it to the engine. */
    public long now;
    /** Every datagram the engine sent, decoded, in order. */
    public final List<Datagram> sent = new ArrayList<>();
    /** The packet objects the engine handed to this sink, in order (identity only: they may be reused objects). */
    final List<RxPacket> objectsSent = new ArrayList<>();
    /** What {@link #encodesOnSend()} answers; the engine asks once, when it is built. */
    private final boolean encodesOnSend;

    /** A harness with seed 42 and the clock at 0. */
    public EngineHarness(RxConfig config) {
        this(config, 42);
    }

    /** A harness whose engine draws its epoch and connection ids from {@code seed}, the clock at 0. */
    public EngineHarness(RxConfig config, long seed) {
        this(config, seed, 0);
    }

    /** A harness whose virtual clock starts at {@code start} ns (any value: one near Long.MAX_VALUE wraps). */
    public EngineHarness(RxConfig config, long seed, long start) {
        this(config, seed, start, true);
    }

    /**
     * @param encodesOnSend true (as the transport): the engine reuses its packet objects; false: a new object per
     *     packet sent
     */
    public EngineHarness(RxConfig config, long seed, long start, boolean encodesOnSend) {
        this.encodesOnSend = encodesOnSend;
        this.now = start;
        this.engine = new RxEngine(config, this, UnpooledByteBufAllocator.DEFAULT, seed, start);
    }

    /** @return as constructed (default true): every packet is encoded before send returns */
    @Override
    public boolean encodesOnSend() {
        return encodesOnSend;
    }

    @Override
    public void send(InetSocketAddress peer, RxPacket packet) {
        objectsSent.add(packet);
        ByteBuf buf;
        try {
            buf = PacketEncoder.encode(packet, UnpooledByteBufAllocator.DEFAULT);
        } finally {
            packet.release();
        }
        record(peer, buf);
    }

    @Override
    public void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets) {
        objectsSent.addAll(packets);
        ByteBuf buf = Unpooled.buffer(PacketEncoder.jumbogramLength(packets));
        try {
            PacketEncoder.encodeJumbogram(packets, buf);
        } finally {
            for (DataPacket p : packets) {
                p.release();
            }
        }
        record(peer, buf);
    }

    private void record(InetSocketAddress peer, ByteBuf buf) {
        List<RxPacket> decoded = new ArrayList<>();
        try {
            DecodeError err = PacketDecoder.decode(buf, decoded);
            if (err != null) {
                throw new AssertionError("engine sent an undecodable datagram: " + err);
            }
        } finally {
            buf.release();
        }
        sent.add(new Datagram(now, peer, decoded));
    }

    /** Delivers packets as one datagram from {@link #REMOTE}; the engine takes them. */
    public void deliver(RxPacket... packets) {
        deliverFrom(REMOTE, packets);
    }

    /** Delivers packets as one datagram from {@code from}; the engine takes them. */
    public void deliverFrom(InetSocketAddress from, RxPacket... packets) {
        engine.onDatagram(now, from, new ArrayList<>(List.of(packets)));
    }

    /** Advances virtual time by {@code ns}, firing every engine timer due on the way. */
    public void advance(long ns) {
        advanceTo(now + ns);
    }

    /** Advances virtual time to {@code t}, firing every engine timer due on the way. */
    public void advanceTo(long t) {
        // Times compared wrap-safe, as the engine does: the clock may pass Long.MAX_VALUE.
        while (true) {
            long next = engine.nextDeadline();
            if (next == Long.MAX_VALUE || t - next < 0) {
                break;
            }
            if (next - now > 0) {
                now = next;
            }
            engine.onTimer(now);
        }
        if (t - now > 0) {
            now = t;
        }
    }

    /** Forgets what was sent so far. */
    public void clear() {
        sent.clear();
        objectsSent.clear();
    }

    /** @return every DATA packet sent so far (jumbogram sub-packets one by one) */
    public List<DataPacket> dataSent() {
        List<DataPacket> out = new ArrayList<>();
        for (Datagram d : sent) {
            for (RxPacket p : d.packets()) {
                if (p instanceof DataPacket dp) {
                    out.add(dp);
                }
            }
        }
        return out;
    }

    /** @return every ACK sent so far */
    public List<AckPacket> acksSent() {
        List<AckPacket> out = new ArrayList<>();
        for (Datagram d : sent) {
            if (d.first() instanceof AckPacket a) {
                out.add(a);
            }
        }
        return out;
    }

    /** @return every ABORT sent so far */
    public List<AbortPacket> abortsSent() {
        List<AbortPacket> out = new ArrayList<>();
        for (Datagram d : sent) {
            if (d.first() instanceof AbortPacket a) {
                out.add(a);
            }
        }
        return out;
    }

    /** @return the datagrams sent so far of one packet type */
    public List<Datagram> sentOfType(int type) {
        List<Datagram> out = new ArrayList<>();
        for (Datagram d : sent) {
            if (d.type() == type) {
                out.add(d);
            }
        }
        return out;
    }

    /** @return DATA packets sent so far with this seq */
    public List<DataPacket> dataWithSeq(int seq) {
        List<DataPacket> out = new ArrayList<>();
        for (DataPacket p : dataSent()) {
            if (p.header().seq() == seq) {
                out.add(p);
            }
        }
        return out;
    }

    /** @return a zero-filled payload of {@code n} bytes */
    public static ByteBuf bytes(int n) {
        return Unpooled.buffer(n).writeZero(n);
    }
}
