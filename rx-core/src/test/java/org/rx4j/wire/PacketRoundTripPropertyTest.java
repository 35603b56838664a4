// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rx4j.testing.CountingByteBufAllocator;
import org.rx4j.testing.LeakCheckExtension;

/**
 * Property: for random valid packets of every type, {@code decode(encode(p))} equals {@code p} (a jumbogram
 * decodes to its sub-packets), and the encoded length is what {@link PacketEncoder#encodedLength} promised.
 * Seeded, so a failure names its seed and repeats.
 */
@ExtendWith(LeakCheckExtension.class)
class PacketRoundTripPropertyTest {
    private static final int ITERATIONS = 20_000;

    /** Encodes, checks the length, decodes, asserts equality, and releases everything it made. */
    private static void assertRoundTrip(RxPacket packet, CountingByteBufAllocator alloc, String context) {
        ByteBuf wire = PacketEncoder.encode(packet, alloc);
        List<RxPacket> decoded = new ArrayList<>();
        try {
            assertEquals(PacketEncoder.encodedLength(packet), wire.readableBytes(), context);
            assertNull(PacketDecoder.decode(wire, decoded), context);
            assertEquals(List.of(packet), decoded, context);
            assertEquals(0, wire.readerIndex(), "decode must not move the datagram's indexes");
        } finally {
            decoded.forEach(RxPacket::release);
            wire.release();
            packet.release();
        }
    }

    private static void forEachRandom(long seed, CountingByteBufAllocator alloc,
                                      Function<RandomPackets, RxPacket> generator) {
        RandomPackets gen = new RandomPackets(new Random(seed), alloc);
        for (int i = 0; i < ITERATIONS; i++) {
            RxPacket p = generator.apply(gen);
            assertRoundTrip(p, alloc, "seed " + seed + " iteration " + i + ": " + p);
        }
        alloc.assertAllReleased();
    }

    @Test
    void data(CountingByteBufAllocator alloc) {
        forEachRandom(1, alloc, g -> g.data(RxConstants.MAX_PACKET_SIZE));
    }

    @Test
    void ackWithEveryTrailerShape(CountingByteBufAllocator alloc) {
        forEachRandom(2, alloc, RandomPackets::ack);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 3, 4})
    void ackWithZeroTo255AcksForEachTrailerLength(int trailerWords, CountingByteBufAllocator alloc) {
        RandomPackets gen = new RandomPackets(new Random(20 + trailerWords), alloc);
        for (int nAcks = 0; nAcks <= RxConstants.MAX_ACKS; nAcks++) {
            AckPacket ack = gen.ack(nAcks, trailerWords);
            assertEquals(nAcks, ack.nAcks());
            assertRoundTrip(ack, alloc, "nAcks " + nAcks + " words " + trailerWords);
        }
    }

    @Test
    void abort(CountingByteBufAllocator alloc) {
        forEachRandom(3, alloc, RandomPackets::abort);
    }

    @Test
    void busyAckAllChallengeResponseParamsAndUnknownTypesAsControlPackets(CountingByteBufAllocator alloc) {
        forEachRandom(4, alloc, RandomPackets::control);
    }

    @Test
    void debugRequest(CountingByteBufAllocator alloc) {
        forEachRandom(5, alloc, RandomPackets::debugRequest);
    }

    @Test
    void debugReply(CountingByteBufAllocator alloc) {
        forEachRandom(6, alloc, RandomPackets::debugReply);
    }

    @Test
    void version(CountingByteBufAllocator alloc) {
        forEachRandom(7, alloc, RandomPackets::version);
    }

    @Test
    void mixedPacketsAlsoReencodeToTheSameBytes(CountingByteBufAllocator alloc) {
        RandomPackets gen = new RandomPackets(new Random(8), alloc);
        for (int i = 0; i < ITERATIONS; i++) {
            RxPacket p = gen.any(2000);
            ByteBuf wire = PacketEncoder.encode(p, alloc);
            List<RxPacket> decoded = new ArrayList<>();
            try {
                assertNull(PacketDecoder.decode(wire, decoded));
                ByteBuf again = PacketEncoder.encode(decoded.get(0), alloc);
                try {
                    assertEquals(wire, again, "iteration " + i + ": " + p);
                } finally {
                    again.release();
                }
            } finally {
                decoded.forEach(RxPacket::release);
                wire.release();
                p.release();
            }
        }
    }

    /** Jumbograms of 2..46 sub-packets with a random (possibly full or empty) last sub-packet. */
    @Test
    void jumbogramsOfTwoTo46SubPackets(CountingByteBufAllocator alloc) {
        Random random = new Random(9);
        RandomPackets gen = new RandomPackets(random, alloc);
        for (int i = 0; i < 2_000; i++) {
            int k = 2 + random.nextInt(RxConstants.MAX_FULL_JUMBO_PACKETS - 1);
            int last = switch (i % 3) {
                case 0 -> RxConstants.JUMBO_BUFFER_SIZE;
                case 1 -> 0;
                default -> random.nextInt(RxConstants.JUMBO_BUFFER_SIZE + 1);
            };
            assertJumbogramRoundTrip(gen.jumbogram(k, last), alloc, "iteration " + i + " k=" + k);
        }
    }

    @Test
    void largestJumbogramsFitTheDatagramLimit(CountingByteBufAllocator alloc) {
        RandomPackets gen = new RandomPackets(new Random(10), alloc);
        assertEquals(47, RxConstants.MAX_JUMBO_PACKETS);
        assertEquals(46, RxConstants.MAX_FULL_JUMBO_PACKETS);

        List<DataPacket> fullest = gen.jumbogram(46, RxConstants.JUMBO_BUFFER_SIZE);
        assertEquals(65_160, PacketEncoder.jumbogramLength(fullest)); // fits IPv4's 65,507-byte UDP payload
        assertJumbogramRoundTrip(fullest, alloc, "46 full sub-packets");

        int maxLast = RxConstants.MAX_DATAGRAM_SIZE - RxConstants.HEADER_SIZE - 46 * RxConstants.JUMBO_STRIDE;
        assertEquals(371, maxLast);
        List<DataPacket> most = gen.jumbogram(RxConstants.MAX_JUMBO_PACKETS, maxLast);
        assertEquals(RxConstants.MAX_DATAGRAM_SIZE, PacketEncoder.jumbogramLength(most));
        assertJumbogramRoundTrip(most, alloc, "47 sub-packets");

        List<DataPacket> tooLong = gen.jumbogram(RxConstants.MAX_JUMBO_PACKETS, maxLast + 1);
        ByteBuf out = alloc.buffer();
        try {
            assertThrows(IllegalArgumentException.class, () -> PacketEncoder.encodeJumbogram(tooLong, out));
        } finally {
            out.release();
            tooLong.forEach(DataPacket::release);
        }
    }

    private static void assertJumbogramRoundTrip(List<DataPacket> packets, CountingByteBufAllocator alloc,
                                                 String context) {
        ByteBuf wire = alloc.buffer(PacketEncoder.jumbogramLength(packets));
        List<RxPacket> decoded = new ArrayList<>();
        try {
            PacketEncoder.encodeJumbogram(packets, wire);
            assertEquals(PacketEncoder.jumbogramLength(packets), wire.readableBytes(), context);
            assertNull(PacketDecoder.decode(wire, decoded), context);
            assertEquals(packets, decoded, context);
            for (RxPacket p : decoded) {
                // each sub-packet holds its own reference to the datagram
                assertInstanceOf(DataPacket.class, p);
            }
            assertEquals(1 + packets.size(), wire.refCnt());
        } finally {
            decoded.forEach(RxPacket::release);
            assertEquals(1, wire.refCnt(), context);
            wire.release();
            packets.forEach(DataPacket::release);
        }
        assertTrue(wire.refCnt() == 0);
    }
}
