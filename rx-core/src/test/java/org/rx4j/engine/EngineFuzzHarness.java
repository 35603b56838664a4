// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.debug.EngineDebugResponder;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.testing.CountingByteBufAllocator;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.RxPacket;

/**
 * The stateful fuzzer's endpoint (docs/robustness.md "Fuzzing"): one server {@link RxEngine} with an echo service, fed
 * datagrams as the transport would (decode, drop what does not decode, hand the rest to the engine) and moved in
 * virtual time; after every input it checks the invariants: no exception left the engine or was swallowed inside
 * it, counters consistent, tables within their limits; {@link #close()} shuts the engine down and checks that every
 * buffer it or the inputs allocated was released. Also records a live session to mutate ({@link #recordSession}).
 */
final class EngineFuzzHarness implements PacketSink, AutoCloseable {
    static final InetSocketAddress CLIENT = SimNetwork.CLIENT;
    static final int SVC = 147;

    final CountingByteBufAllocator alloc = new CountingByteBufAllocator();
    final RxEngine engine;
    final RxConfig config;
    long now;
    long datagramsIn;
    long malformed;
    long datagramsOut;

    EngineFuzzHarness(RxConfig config, long seed) {
        this.config = config;
        this.engine = new RxEngine(config, this, alloc, seed, 0);
        engine.setDebugResponder(new EngineDebugResponder());
        engine.registerService(SVC, 0, call -> call.setListener(new CallListener() {
            private boolean replied;

            @Override
            public void onData(Call c, ByteBuf b, long now) {
                b.release();
            }

            @Override
            public void onReadComplete(Call c, long now) {
                if (c.isReadComplete() && !replied) {
                    replied = true;
                    c.write(now, alloc.buffer(3000).writeZero(3000));
                    c.finishSending(now);
                }
            }

            @Override
            public void onWritable(Call c) {
            }

            @Override
            public void onComplete(Call c, int errorCode) {
            }
        }));
    }

    @Override
    public void send(InetSocketAddress peer, RxPacket packet) {
        datagramsOut++;
        ByteBuf b = PacketEncoder.encode(packet, alloc);
        packet.release();
        b.release();
    }

    @Override
    public void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets) {
        datagramsOut++;
        ByteBuf b = alloc.buffer(PacketEncoder.jumbogramLength(packets));
        PacketEncoder.encodeJumbogram(packets, b);
        packets.forEach(DataPacket::release);
        b.release();
    }

    /**
     * Feeds one datagram, then advances the clock and checks the invariants.
     *
     * @param bytes the datagram (copied into a buffer of the counting allocator)
     * @param from its source address
     * @param advanceNs virtual time to let pass afterwards, ns (timers fire on the way)
     */
    void feed(byte[] bytes, InetSocketAddress from, long advanceNs) {
        datagramsIn++;
        ByteBuf buf = alloc.heapBuffer(Math.max(1, bytes.length)).writeBytes(bytes);
        List<RxPacket> packets = new ArrayList<>();
        try {
            if (PacketDecoder.decode(buf, packets) != null) {
                malformed++;
            } else {
                engine.onDatagram(now, from, packets);
            }
        } finally {
            buf.release();
        }
        advance(advanceNs);
        checkInvariants();
    }

    void advance(long ns) {
        long end = now + ns;
        while (true) {
            long next = engine.nextDeadline();
            if (next == Long.MAX_VALUE || next - end > 0) {
                break;
            }
            now = Math.max(now, next);
            engine.onTimer(now);
        }
        now = end;
    }

    void checkInvariants() {
        if (engine.totals().get(RxCounter.INTERNAL_ERRORS) != 0) {
            throw new AssertionError("a packet's handling threw inside the engine", engine.lastInternalError());
        }
        RxCounters t = engine.totals();
        if (t.get(RxCounter.CALLS_SUCCEEDED) > t.get(RxCounter.CALLS_STARTED)) {
            throw new AssertionError("more calls succeeded than began: " + t.get(RxCounter.CALLS_SUCCEEDED) + " > "
                    + t.get(RxCounter.CALLS_STARTED));
        }
        if (engine.serverConnections().size() > config.limits().maxConnections()) {
            throw new AssertionError("connection table over its limit: " + engine.serverConnections().size());
        }
        if (t.get(RxCounter.ACKS_REJECTED) < 0 || t.get(RxCounter.TRAILERS_CLAMPED) < 0 || t.get(RxCounter.BYTES_RECEIVED) < 0) {
            throw new AssertionError("negative counter");
        }
        for (Connection c : engine.serverConnections()) {
            for (int ch = 0; ch < 4; ch++) {
                Call call = c.call(ch);
                if (call != null && (call.queuedPackets() < 0 || call.twind() < 1)) {
                    throw new AssertionError("call state out of range: " + call);
                }
            }
        }
    }

    /** Ends every call and checks that no buffer is left. */
    @Override
    public void close() {
        engine.shutdown(now);
        advance(60_000_000_000L);
        checkInvariants();
        alloc.assertAllReleased();
    }

    /**
     * Records the client's datagrams of a short live session in the simulator (a bulk call each way and small
     * RPCs, with loss so retransmissions and NACKs occur), encoded as the wire carries them.
     *
     * @param seed the simulation's seed
     * @return the client → server datagrams in send order
     */
    static List<byte[]> recordSession(long seed) {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(),
                LinkModel.delay(1_000_000L).withLoss(0.02), LinkModel.delay(1_000_000L).withLoss(0.02), seed);
        net.server().engine.registerService(SVC, 0, new SimApps.BulkServer(net));
        List<byte[]> out = new ArrayList<>();
        net.sendTap = (t, fromClient, packets) -> {
            if (!fromClient) {
                return;
            }
            ByteBuf b;
            if (packets.size() > 1) {
                List<DataPacket> data = new ArrayList<>();
                for (RxPacket p : packets) {
                    data.add((DataPacket) p);
                }
                b = Unpooled.buffer(PacketEncoder.jumbogramLength(data));
                PacketEncoder.encodeJumbogram(data, b);
            } else {
                b = PacketEncoder.encode(packets.get(0), Unpooled.buffer().alloc());
            }
            byte[] a = new byte[b.readableBytes()];
            b.readBytes(a);
            b.release();
            out.add(a);
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        net.allowStalls = true;
        for (long[] sizes : new long[][] {{400_000, 20_000}, {10, 10}, {30_000, 0}, {0, 200_000}, {10, 10}}) {
            SimApps.BulkClient c = new SimApps.BulkClient(net, sizes[0], sizes[1]);
            c.start(conn);
            net.runUntil(() -> c.done, 120_000_000_000L);
        }
        net.shutdown();
        return out;
    }
}
