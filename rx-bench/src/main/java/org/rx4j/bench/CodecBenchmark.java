// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketFlyweights;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * Wire codec costs per packet: header and ACK decode, ACK encode, and jumbogram split (decode of a
 * 4- or 46-sub-packet DATA datagram into retained slices, which are released again).
 *
 * <p>Datagrams sit in pooled direct buffers, as Netty's datagram channels deliver them. Netty's leak detection
 * is off so that sampling does not add noise. Run: {@code java -jar rx-bench/target/benchmarks.jar CodecBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "-Dio.netty.leakDetection.level=disabled")
@State(Scope.Thread)
public class CodecBenchmark {
    /** Soft-ack array length of the benchmark ACK: a full 32-packet window, as in the send-jumbo capture. */
    private static final int ACKS = 32;

    private AckPacket ack;
    private ByteBuf ackDatagram;
    private ByteBuf ackOut;
    private final List<RxPacket> decoded = new ArrayList<>(RxConstants.MAX_JUMBO_PACKETS);
    /** The reused packet objects of the ...Reused variants, as the transport's decoder has one per event loop. */
    private final PacketFlyweights reuse = new PacketFlyweights();

    /** Builds the ACK datagram once per trial. */
    @Setup(Level.Trial)
    public void setUp() {
        PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
        byte[] acks = new byte[ACKS];
        for (int i = 0; i < ACKS; i++) {
            acks[i] = i % 7 == 3 ? AckPacket.NACKED : AckPacket.ACKED; // a few holes
        }
        RxHeader ackHeader = new RxHeader(0x8bc0_fdef, 0x4895_b748, 3, 0, 117, PacketType.ACK,
                PacketFlags.SLOW_START_OK, 0, 0, 0, 147);
        ack = AckPacket.of(ackHeader, 101, 132, 420, AckReason.IDLE, acks, 5692, 1444, 32, 4);
        ackDatagram = PacketEncoder.encode(ack, alloc);
        ackOut = alloc.directBuffer(PacketEncoder.encodedLength(ack));
    }

    /** Releases the buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
        ackDatagram.release();
        ackOut.release();
    }

    /** A jumbogram datagram of 1412-byte sub-packets (OpenAFS sends 4 on 1500-byte links; 46 is the 64 KiB limit). */
    @State(Scope.Thread)
    public static class Jumbogram {
        /** Sub-packets in the datagram. */
        @Param({"4", "46"})
        public int subPackets;
        ByteBuf datagram;

        /** Builds the datagram once per trial. */
        @Setup(Level.Trial)
        public void setUp() {
            PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
            Random random = new Random(1);
            List<DataPacket> packets = new ArrayList<>(subPackets);
            for (int i = 0; i < subPackets; i++) {
                int flags = PacketFlags.CLIENT_INITIATED | (i == subPackets - 1 ? 0 : PacketFlags.JUMBO_PACKET);
                RxHeader h = new RxHeader(0x8bc0_fdef, 0x4895_b748, 3, 40 + i, 200 + i, PacketType.DATA, flags, 0, 0,
                        0, 147);
                byte[] payload = new byte[RxConstants.JUMBO_BUFFER_SIZE];
                random.nextBytes(payload);
                packets.add(new DataPacket(h, alloc.heapBuffer(payload.length).writeBytes(payload)));
            }
            datagram = alloc.directBuffer(PacketEncoder.jumbogramLength(packets));
            PacketEncoder.encodeJumbogram(packets, datagram);
            packets.forEach(DataPacket::release);
        }

        /** Releases the datagram. */
        @TearDown(Level.Trial)
        public void tearDown() {
            datagram.release();
        }
    }

    /** @return the 28-byte header read from the ACK datagram */
    @Benchmark
    public RxHeader decodeHeader() {
        return RxHeader.read(ackDatagram, ackDatagram.readerIndex());
    }

    /** @return the decoded ACK (header, 32 soft acks, 4-word trailer) */
    @Benchmark
    public RxPacket decodeAck() {
        decoded.clear();
        DecodeError error = PacketDecoder.decode(ackDatagram, decoded);
        if (error != null) {
            throw new IllegalStateException(error.toString());
        }
        return decoded.get(0);
    }

    /** @return the decoded ACK, in the reused objects of one {@link PacketFlyweights} (no allocation per ACK) */
    @Benchmark
    public RxPacket decodeAckReused() {
        decoded.clear();
        DecodeError error = PacketDecoder.decode(ackDatagram, decoded, reuse);
        if (error != null) {
            throw new IllegalStateException(error.toString());
        }
        return decoded.get(0);
    }

    /** @return the output buffer after encoding the ACK into it (reused: no allocation per call) */
    @Benchmark
    public ByteBuf encodeAck() {
        ackOut.clear();
        PacketEncoder.encode(ack, ackOut);
        return ackOut;
    }

    /**
     * @param jumbogram the datagram to split
     * @return sub-packets split from the jumbogram; their retained slices are released before returning
     */
    @Benchmark
    public int splitJumbogram(Jumbogram jumbogram) {
        decoded.clear();
        DecodeError error = PacketDecoder.decode(jumbogram.datagram, decoded);
        if (error != null) {
            throw new IllegalStateException(error.toString());
        }
        int n = decoded.size();
        for (int i = 0; i < n; i++) {
            decoded.get(i).release();
        }
        return n;
    }

    /**
     * As {@link #splitJumbogram}, into the reused objects of one {@link PacketFlyweights}: only the payload slices
     * remain (which Netty recycles on its event-loop threads, not on JMH's plain ones).
     *
     * @param jumbogram the datagram to split
     * @return sub-packets split from the jumbogram; their retained slices are released before returning
     */
    @Benchmark
    public int splitJumbogramReused(Jumbogram jumbogram) {
        decoded.clear();
        DecodeError error = PacketDecoder.decode(jumbogram.datagram, decoded, reuse);
        if (error != null) {
            throw new IllegalStateException(error.toString());
        }
        int n = decoded.size();
        for (int i = 0; i < n; i++) {
            decoded.get(i).release();
        }
        return n;
    }
}
