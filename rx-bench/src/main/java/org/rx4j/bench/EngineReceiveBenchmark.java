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
import org.rx4j.engine.RxEngine;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketFlyweights;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.DataPacket;

/**
 * The engine's DATA receive path and ACK send path, per DATA packet: a server call receives an endless request
 * stream of full 1412-byte DATA packets, one datagram each, in windows of {@value #WINDOW}; the service reads and
 * releases every packet as it becomes readable, and the engine sends the ACKs it owes (to a {@link DiscardSink},
 * not encoded). Each datagram is decoded from one reused pooled buffer whose seq and serial are patched in place,
 * into the reused packet objects of one {@link PacketFlyweights}, as the transport's decoder delivers it; the
 * benchmark threads are {@link EventLoopThreadExecutor}'s, like the event loop; the virtual clock advances 10 µs
 * per packet and the engine's timers (delayed ACKs) run after each window.
 *
 * <ul>
 *   <li>{@link #dataReceive}: packets without REQUEST_ACK: ACKs as the receiver's policy picks them.</li>
 *   <li>{@link #ackSend}: every packet has REQUEST_ACK: one ACK (reason REQUESTED) sent per packet; the difference
 *       to {@link #dataReceive} is the ACK send path.</li>
 * </ul>
 *
 * <p>Scores are per DATA packet (ns/op; with {@code -prof gc}, B/op is bytes allocated per packet; the goal is 0,
 * docs/benchmarks.md "Allocation per packet"). Run: {@code java -jar rx-bench/target/benchmarks.jar
 * EngineReceiveBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled", "-Djmh.executor=CUSTOM",
        "-Djmh.executor.class=org.rx4j.bench.EventLoopThreadExecutor"})
@State(Scope.Thread)
public class EngineReceiveBenchmark {
    /** DATA packets per window (one benchmark invocation). */
    static final int WINDOW = 32;
    private static final int SERVICE = 1;
    private static final int EPOCH = 0x8bc0_fdef;
    private static final int CID = 0x4895_b740;
    private static final long STEP_NS = 10_000;
    private static final InetSocketAddress CLIENT = new InetSocketAddress("10.0.0.1", 7001);

    private final DiscardSink sink = new DiscardSink();
    private final List<RxPacket> decoded = new ArrayList<>(RxConstants.MAX_JUMBO_PACKETS);
    /** The decoder's reused DATA/ACK objects, as the transport's decoder has one per event loop. */
    private final PacketFlyweights reuse = new PacketFlyweights();
    private RxEngine engine;
    private ByteBuf datagram;
    private long now;
    private int seq;
    private int serial;
    private long bytesRead;

    /** Builds the server engine, its reading service and the DATA datagram template. */
    @Setup(Level.Trial)
    public void setUp() {
        engine = new RxEngine(RxConfig.defaults(), sink, PooledByteBufAllocator.DEFAULT, 1, now);
        CallListener reader = new CallListener() {
            @Override
            public void onReadable(Call call, long now) {
                ByteBuf b;
                while ((b = call.read(now)) != null) {
                    bytesRead += b.readableBytes();
                    b.release();
                }
            }

            @Override
            public void onWritable(Call call) {
            }

            @Override
            public void onComplete(Call call, int errorCode) {
            }
        };
        engine.registerService(SERVICE, 0, call -> call.setListener(reader));
        RxHeader h = new RxHeader(EPOCH, CID, 1, 1, 1, PacketType.DATA, PacketFlags.CLIENT_INITIATED, 0, 0, 0,
                SERVICE);
        ByteBuf payload = PooledByteBufAllocator.DEFAULT.heapBuffer(RxConstants.JUMBO_BUFFER_SIZE)
                .writeZero(RxConstants.JUMBO_BUFFER_SIZE);
        DataPacket p = new DataPacket(h, payload);
        datagram = PooledByteBufAllocator.DEFAULT.directBuffer(PacketEncoder.encodedLength(p));
        PacketEncoder.encode(p, datagram);
        p.release();
        // The first DATA makes the server check that the client is reachable (a PING): answer it, so that the
        // call starts and the service reads (rx-wire-facts.md §6.2).
        window(PacketFlags.CLIENT_INITIATED);
        if (sink.lastPingSerial == 0) {
            throw new IllegalStateException("no reachability PING");
        }
        RxHeader ah = new RxHeader(EPOCH, CID, 1, 0, ++serial, PacketType.ACK, PacketFlags.CLIENT_INITIATED, 0, 0,
                0, SERVICE);
        decoded.clear();
        decoded.add(AckPacket.of(ah, 1, 0, sink.lastPingSerial, AckReason.PING_RESPONSE, new byte[0], 1444, 1444,
                32, 1));
        engine.onDatagram(now, CLIENT, decoded);
        window(PacketFlags.CLIENT_INITIATED);
        if (bytesRead == 0) {
            throw new IllegalStateException("the service read nothing");
        }
    }

    /** Releases the template datagram. */
    @TearDown(Level.Trial)
    public void tearDown() {
        engine.shutdown(now);
        datagram.release();
    }

    private void window(int flags) {
        for (int i = 0; i < WINDOW; i++) {
            seq++;
            serial++;
            datagram.setInt(datagram.readerIndex() + 12, seq);
            datagram.setInt(datagram.readerIndex() + 16, serial);
            datagram.setByte(datagram.readerIndex() + 21, flags);
            decoded.clear();
            DecodeError error = PacketDecoder.decode(datagram, decoded, reuse);
            if (error != null) {
                throw new IllegalStateException(error.toString());
            }
            now += STEP_NS;
            engine.onDatagram(now, CLIENT, decoded);
        }
        if (now - engine.nextDeadline() >= 0) {
            engine.onTimer(now);
        }
    }

    /** @return bytes the service has read so far (keeps the work observable) */
    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public long dataReceive() {
        window(PacketFlags.CLIENT_INITIATED);
        return bytesRead;
    }

    /** @return ACKs sent so far: one per packet, as every packet asks for one */
    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public long ackSend() {
        window(PacketFlags.CLIENT_INITIATED | PacketFlags.REQUEST_ACK);
        return sink.sent[PacketType.ACK];
    }
}
