// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.testing.CountingByteBufAllocator;
import org.rx4j.testing.LeakCheckExtension;

/**
 * The reused packet objects (docs/benchmarks.md "Allocation per packet"): decoding into a {@link PacketFlyweights}
 * yields packets equal to a plain decode's, in the same objects datagram after datagram; an {@link OutboundPackets} ACK
 * or DATA packet encodes to the bytes of the equivalent new object, in the same object every time. Deterministic:
 * object identity and bytes, never timing.
 */
@ExtendWith(LeakCheckExtension.class)
class PacketFlyweightsTest {
    private static final int HEADER_FIELDS_ACK = PacketType.ACK;

    private static ByteBuf encode(RxPacket p, CountingByteBufAllocator alloc) {
        try {
            return PacketEncoder.encode(p, alloc);
        } finally {
            p.release();
        }
    }

    private static ByteBuf encodeJumbogram(List<DataPacket> packets, CountingByteBufAllocator alloc) {
        ByteBuf wire = alloc.buffer(PacketEncoder.jumbogramLength(packets));
        try {
            PacketEncoder.encodeJumbogram(packets, wire);
        } finally {
            packets.forEach(DataPacket::release);
        }
        return wire;
    }

    /** Decodes {@code wire} plainly and into {@code reuse}; asserts both give equal packets; releases all. */
    private static List<RxPacket> assertSameAsPlain(ByteBuf wire, PacketFlyweights reuse, String context) {
        List<RxPacket> plain = new ArrayList<>();
        List<RxPacket> reused = new ArrayList<>();
        try {
            assertNull(PacketDecoder.decode(wire, plain), context);
            assertNull(PacketDecoder.decode(wire, reused, reuse), context);
            assertEquals(plain, reused, context);
            assertEquals(0, wire.readerIndex(), "decode must not move the datagram's indexes");
            return new ArrayList<>(reused);
        } finally {
            plain.forEach(RxPacket::release);
            reused.forEach(RxPacket::release);
            wire.release();
        }
    }

    @Test
    void aReusedDecodeEqualsAPlainDecodeForEveryKindOfPacket(CountingByteBufAllocator alloc) {
        Random random = new Random(10);
        RandomPackets gen = new RandomPackets(random, alloc);
        PacketFlyweights reuse = new PacketFlyweights();
        for (int i = 0; i < 5_000; i++) {
            if (i % 10 == 9) {
                int k = 2 + random.nextInt(RxConstants.MAX_FULL_JUMBO_PACKETS - 1);
                assertSameAsPlain(encodeJumbogram(gen.jumbogram(k, random.nextInt(1413)), alloc), reuse,
                        "jumbogram " + i + " k=" + k);
            } else {
                assertSameAsPlain(encode(gen.any(2000), alloc), reuse, "packet " + i);
            }
        }
    }

    @Test
    void dataAndAckPacketsAreTheSameObjectsDatagramAfterDatagram(CountingByteBufAllocator alloc) {
        RandomPackets gen = new RandomPackets(new Random(11), alloc);
        PacketFlyweights reuse = new PacketFlyweights();

        RxPacket d1 = assertSameAsPlain(encode(gen.data(100), alloc), reuse, "data 1").get(0);
        DataPacket second = gen.data(100);
        RxHeader secondHeader = second.header();
        RxPacket d2 = assertSameAsPlain(encode(second, alloc), reuse, "data 2").get(0);
        assertSame(d1, d2, "the second DATA packet is the first's object");
        assertSame(d1.header(), d2.header());
        assertEquals(secondHeader, d2.header(), "holding the second packet's fields");

        List<RxPacket> jumbo = assertSameAsPlain(encodeJumbogram(gen.jumbogram(3, 10), alloc), reuse, "jumbogram");
        assertSame(d1, jumbo.get(0), "sub-packet 0 is slot 0");
        assertNotSame(jumbo.get(0), jumbo.get(1), "each sub-packet has its own slot");
        assertNotSame(jumbo.get(1).header(), jumbo.get(2).header());

        AckPacket a1 = (AckPacket) assertSameAsPlain(encode(gen.ack(5, 4), alloc), reuse, "ack 1").get(0);
        byte[] array = a1.acks();
        AckPacket a2 = (AckPacket) assertSameAsPlain(encode(gen.ack(5, 2), alloc), reuse, "ack 2").get(0);
        assertSame(a1, a2, "the second ACK is the first's object");
        assertSame(array, a2.acks(), "with the same 5-entry soft-ack array");
        AckPacket a3 = (AckPacket) assertSameAsPlain(encode(gen.ack(7, 0), alloc), reuse, "ack 3").get(0);
        assertEquals(7, a3.nAcks(), "another length has its own array");

        RxPacket abort = assertSameAsPlain(encode(gen.abort(), alloc), reuse, "abort").get(0);
        RxPacket abort2 = assertSameAsPlain(encode(gen.abort(), alloc), reuse, "abort 2").get(0);
        assertNotSame(abort, abort2, "other types are new objects");
    }

    @Test
    void outboundPacketsEncodeAsTheirNewEquivalentsInTheSameObjects(CountingByteBufAllocator alloc) {
        OutboundPackets out = new OutboundPackets();
        AckPacket first = null;
        for (int n : new int[] {0, 3, 3, 255}) {
            RxHeader h = out.header(OutboundPackets.ACK_SLOT, 0x8000_0001, 0x40 | 2, 7, 0, 100 + n, HEADER_FIELDS_ACK,
                    PacketFlags.SLOW_START_OK, 0, 0, 0, 52);
            byte[] soft = out.acks(n);
            for (int i = 0; i < n; i++) {
                soft[i] = (i & 1) == 0 ? AckPacket.ACKED : AckPacket.NACKED;
            }
            AckPacket reused = out.ack(h, 10, 10 + n, 99, AckReason.REQUESTED, soft, 1444, 1444, 32, 4);
            AckPacket fresh = AckPacket.of(h.copy(), 10, 10 + n, 99, AckReason.REQUESTED, soft.clone(), 1444, 1444,
                    32, 4);
            assertEquals(fresh, reused);
            ByteBuf a = PacketEncoder.encode(reused, alloc);
            ByteBuf b = PacketEncoder.encode(fresh, alloc);
            try {
                assertEquals(b, a, "same wire bytes, nAcks " + n);
            } finally {
                a.release();
                b.release();
            }
            if (first == null) {
                first = reused;
            }
            assertSame(first, reused, "one ACK object for every ACK");
        }

        RxHeader dh = out.header(1, 1, 4, 7, 3, 55, PacketType.DATA, 0, 0, 0, 0, 52);
        ByteBuf payload = alloc.buffer(4).writeInt(42);
        DataPacket d = out.data(1, dh, payload);
        DataPacket fresh = new DataPacket(dh.copy(), payload.retainedSlice());
        try {
            assertEquals(fresh, d);
            assertSame(dh, d.header());
        } finally {
            d.release();
            fresh.release();
        }
        assertEquals(0, payload.refCnt(), "the reused DATA packet released the reference it was given");

        assertThrows(IllegalArgumentException.class,
                () -> out.header(0, 1, 1, 1, 1, 1, PacketType.ACK, 0, 0, 0, 0, 0), "an ACK in a DATA slot");
        assertThrows(IllegalArgumentException.class,
                () -> out.header(OutboundPackets.ACK_SLOT, 1, 1, 1, 1, 1, PacketType.DATA, 0, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class,
                () -> out.header(OutboundPackets.ACK_SLOT, 1, 1, 1, 1, 1, PacketType.ACK, 256, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> out.data(0, dh, null), "slot 1's header is not slot 0's");
        assertThrows(IllegalArgumentException.class, () -> out.ack(dh, 1, 1, 1, 1, new byte[0], 0, 0, 0, 0));
        assertArrayEquals(new byte[0], out.acks(0));
    }
}
