// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.RxEngine;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlyweights;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * The engine's ACK receive path with the send path that feeds it, per DATA packet: a client call streams an
 * endless request; each invocation writes {@value #WINDOW} full packets (1412 bytes, retained slices of one pooled
 * buffer), lets the engine send what its windows allow (to a {@link DiscardSink}, not encoded), and then delivers
 * one ACK datagram from the server that hard-acks everything sent so far (firstPacket = last seq + 1, no soft acks,
 * a 4-word trailer with rwind 64) — "the engine receives an ACK for a window of outstanding packets". The ACK is
 * decoded from one reused pooled buffer patched in place, into the reused objects of one {@link PacketFlyweights}
 * as the transport's decoder does; the benchmark threads are {@link EventLoopThreadExecutor}'s, like the event
 * loop.
 *
 * <p>Scores are per DATA packet sent and acknowledged (with {@code -prof gc}, B/op is bytes allocated per packet;
 * the goal is 0, docs/benchmarks.md "Allocation per packet"). Run: {@code java -jar rx-bench/target/benchmarks.jar
 * EngineAckBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled", "-Djmh.executor=CUSTOM",
        "-Djmh.executor.class=org.rx4j.bench.EventLoopThreadExecutor"})
@State(Scope.Thread)
public class EngineAckBenchmark {
    /** DATA packets written per invocation. */
    static final int WINDOW = 32;
    private static final int SERVICE = 1;
    private static final long STEP_NS = 50_000;
    private static final InetSocketAddress SERVER = new InetSocketAddress("10.0.0.2", 7000);

    private final DiscardSink sink = new DiscardSink();
    private final List<RxPacket> decoded = new ArrayList<>(1);
    /** The decoder's reused DATA/ACK objects, as the transport's decoder has one per event loop. */
    private final PacketFlyweights reuse = new PacketFlyweights();
    private RxEngine engine;
    private Call call;
    private ByteBuf data;
    private ByteBuf ack;
    private long now;
    private int serverSerial;

    /** Builds the client engine, its call and the ACK datagram template. */
    @Setup(Level.Trial)
    public void setUp() {
        engine = new RxEngine(RxConfig.defaults(), sink, PooledByteBufAllocator.DEFAULT, 1, now);
        Connection conn = engine.connect(SERVER, SERVICE, 0);
        call = engine.newCall(now, conn, CallListener.NONE);
        data = PooledByteBufAllocator.DEFAULT.directBuffer(WINDOW * RxConstants.JUMBO_BUFFER_SIZE)
                .writeZero(WINDOW * RxConstants.JUMBO_BUFFER_SIZE);
        // Learn the call's wire identity from its first packet.
        write();
        RxHeader h = new RxHeader(sink.lastDataEpoch, sink.lastDataCid, sink.lastDataCallNumber, 0, 1, PacketType.ACK,
                0, 0, 0, 0, SERVICE);
        AckPacket a = AckPacket.of(h, 1, 1, 1, AckReason.REQUESTED, new byte[0], 1444, 1444, 64, 1);
        ack = PooledByteBufAllocator.DEFAULT.directBuffer(PacketEncoder.encodedLength(a));
        PacketEncoder.encode(a, ack);
        acknowledge();
    }

    /** Ends the call and releases the buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
        engine.shutdown(now);
        data.release();
        ack.release();
    }

    private void write() {
        // Keep the send queue bounded (the engine refuses more than 1024 queued packets).
        if (call.queuedPackets() <= 2 * WINDOW) {
            call.write(now, data.retainedSlice());
        }
    }

    private void acknowledge() {
        int base = ack.readerIndex();
        int body = base + RxConstants.HEADER_SIZE;
        ack.setInt(base + 16, ++serverSerial);
        ack.setInt(body + 4, sink.lastDataSeq + 1); // firstPacket: everything sent is hard-acked
        ack.setInt(body + 8, sink.lastDataSeq); // previousPacket
        ack.setInt(body + 12, sink.lastDataSerial); // the serial that triggered it: an RTT sample
        decoded.clear();
        DecodeError error = PacketDecoder.decode(ack, decoded, reuse);
        if (error != null) {
            throw new IllegalStateException(error.toString());
        }
        now += STEP_NS;
        engine.onDatagram(now, SERVER, decoded);
    }

    /** @return DATA packets sent so far */
    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public long ackReceive() {
        write();
        acknowledge();
        if (now - engine.nextDeadline() >= 0) {
            engine.onTimer(now);
        }
        return sink.sent[PacketType.DATA];
    }
}
