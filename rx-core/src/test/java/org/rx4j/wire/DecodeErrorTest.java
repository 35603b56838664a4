// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rx4j.testing.CountingByteBufAllocator;
import org.rx4j.testing.LeakCheckExtension;

/**
 * Each {@link DecodeError} reason, and the lenient cases that are not errors (unknown types, trailer lengths,
 * trailing bytes). On error the decoder appends nothing and takes no reference to the datagram.
 */
@ExtendWith(LeakCheckExtension.class)
class DecodeErrorTest {
    private static final RxHeader ACK = header(PacketType.ACK, PacketFlags.SLOW_START_OK);

    private static RxHeader header(int type, int flags) {
        return new RxHeader(0x8000_1234, 0x4000, 1, type == PacketType.DATA ? 1 : 0, 7, type, flags, 0, 0, 0, 147);
    }

    /** A datagram of the header plus {@code body}, allocated from {@code alloc}. */
    private static ByteBuf datagram(CountingByteBufAllocator alloc, RxHeader h, byte[] body) {
        ByteBuf buf = alloc.buffer();
        h.write(buf);
        return buf.writeBytes(body);
    }

    /** Decodes and returns the error, asserting that a failed decode left nothing behind. */
    private static DecodeError decodeExpectingError(ByteBuf datagram) {
        List<RxPacket> out = new ArrayList<>();
        try {
            DecodeError error = PacketDecoder.decode(datagram, out);
            assertTrue(out.isEmpty(), "an error appends nothing");
            assertEquals(1, datagram.refCnt(), "an error takes no reference");
            return error;
        } finally {
            datagram.release();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 20, 27})
    void headerShorterThan28BytesIsTruncatedHeader(int length, CountingByteBufAllocator alloc) {
        ByteBuf buf = alloc.buffer().writeZero(length);
        assertEquals(DecodeError.TRUNCATED_HEADER, decodeExpectingError(buf));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 17})
    void ackShorterThanItsFixedPartIsTruncatedAck(int bodyLength, CountingByteBufAllocator alloc) {
        assertEquals(DecodeError.TRUNCATED_ACK, decodeExpectingError(datagram(alloc, ACK, new byte[bodyLength])));
    }

    @Test
    void nAcksBeyondTheDatagramIsBadAckCount(CountingByteBufAllocator alloc) {
        byte[] body = new byte[18 + 9];
        body[17] = 10; // claims 10 acks, 9 follow
        assertEquals(DecodeError.BAD_ACK_COUNT, decodeExpectingError(datagram(alloc, ACK, body)));
        body[17] = (byte) 255;
        assertEquals(DecodeError.BAD_ACK_COUNT, decodeExpectingError(datagram(alloc, ACK, body)));
    }

    @Test
    void nAcksExactlyFillingTheDatagramDecodes(CountingByteBufAllocator alloc) {
        byte[] body = new byte[18 + 9];
        body[17] = 9;
        AckPacket ack = decodeOne(AckPacket.class, datagram(alloc, ACK, body));
        assertEquals(9, ack.nAcks());
        assertEquals(0, ack.trailerWords());
    }

    @Test
    void abortWithoutItsCodeIsTruncatedAbort(CountingByteBufAllocator alloc) {
        RxHeader h = header(PacketType.ABORT, 0);
        assertEquals(DecodeError.TRUNCATED_ABORT, decodeExpectingError(datagram(alloc, h, new byte[3])));
    }

    @Test
    void debugRequestShorterThan8BytesIsTruncatedDebug(CountingByteBufAllocator alloc) {
        RxHeader request = header(PacketType.DEBUG, PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET);
        assertEquals(DecodeError.TRUNCATED_DEBUG, decodeExpectingError(datagram(alloc, request, new byte[7])));
        // a reply (no CLIENT_INITIATED) of any length is fine: its meaning depends on the request
        DebugReply reply = decodeOne(DebugReply.class,
                datagram(alloc, header(PacketType.DEBUG, PacketFlags.LAST_PACKET), new byte[3]));
        assertEquals(3, reply.bodyLength());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1412, 1415})
    void jumboFlagWithFewerThan1416BytesAfterIsTruncatedJumbogram(int bodyLength, CountingByteBufAllocator alloc) {
        RxHeader h = header(PacketType.DATA, PacketFlags.CLIENT_INITIATED | PacketFlags.JUMBO_PACKET);
        assertEquals(DecodeError.TRUNCATED_JUMBOGRAM, decodeExpectingError(datagram(alloc, h, new byte[bodyLength])));
    }

    @Test
    void jumboFlagOnASecondSubPacketWithTooFewBytesIsTruncatedJumbogram(CountingByteBufAllocator alloc) {
        RxHeader h = header(PacketType.DATA, PacketFlags.JUMBO_PACKET);
        byte[] body = new byte[RxConstants.JUMBO_STRIDE + 100];
        body[RxConstants.JUMBO_BUFFER_SIZE] = PacketFlags.JUMBO_PACKET; // sub-packet 2 claims a 3rd
        assertEquals(DecodeError.TRUNCATED_JUMBOGRAM, decodeExpectingError(datagram(alloc, h, body)));
    }

    @Test
    void lastPacketOnASubPacketFollowedByAnotherIsAnError(CountingByteBufAllocator alloc) {
        RxHeader h = header(PacketType.DATA, PacketFlags.JUMBO_PACKET | PacketFlags.LAST_PACKET);
        byte[] body = new byte[RxConstants.JUMBO_STRIDE + 10];
        assertEquals(DecodeError.LAST_PACKET_IN_JUMBOGRAM, decodeExpectingError(datagram(alloc, h, body)));

        // the same on the second of three sub-packets
        RxHeader ok = header(PacketType.DATA, PacketFlags.JUMBO_PACKET);
        byte[] three = new byte[2 * RxConstants.JUMBO_STRIDE + 10];
        three[RxConstants.JUMBO_BUFFER_SIZE] = (byte) (PacketFlags.JUMBO_PACKET | PacketFlags.LAST_PACKET);
        assertEquals(DecodeError.LAST_PACKET_IN_JUMBOGRAM, decodeExpectingError(datagram(alloc, ok, three)));
    }

    @Test
    void lastPacketOnTheFinalSubPacketIsFine(CountingByteBufAllocator alloc) {
        RxHeader h = header(PacketType.DATA, PacketFlags.JUMBO_PACKET);
        byte[] body = new byte[RxConstants.JUMBO_STRIDE + 10];
        body[RxConstants.JUMBO_BUFFER_SIZE] = PacketFlags.LAST_PACKET;
        ByteBuf buf = datagram(alloc, h, body);
        List<RxPacket> out = new ArrayList<>();
        try {
            assertNull(PacketDecoder.decode(buf, out));
            assertEquals(2, out.size());
            assertTrue(out.get(1).header().hasFlag(PacketFlags.LAST_PACKET));
            assertEquals(10, out.get(1).bodyLength());
        } finally {
            out.forEach(RxPacket::release);
            buf.release();
        }
    }

    @Test
    void tooManySubPacketsIsAnErrorOnlyPastThe64KiBLimit(CountingByteBufAllocator alloc) {
        // 48 sub-packets cannot fit a real datagram; the decoder still refuses them from a bigger buffer
        RxHeader h = header(PacketType.DATA, PacketFlags.JUMBO_PACKET);
        byte[] body = new byte[(RxConstants.MAX_JUMBO_PACKETS + 1) * RxConstants.JUMBO_STRIDE];
        for (int i = 1; i <= RxConstants.MAX_JUMBO_PACKETS; i++) {
            body[i * RxConstants.JUMBO_STRIDE - 4] = PacketFlags.JUMBO_PACKET;
        }
        assertEquals(DecodeError.TOO_MANY_JUMBO_PACKETS, decodeExpectingError(datagram(alloc, h, body)));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 12, 14, 99, 200, 255})
    void unknownTypesDecodeAsControlPackets(int type, CountingByteBufAllocator alloc) {
        byte[] body = {1, 2, 3};
        ControlPacket p = decodeOne(ControlPacket.class, datagram(alloc, header(type, 0), body));
        assertEquals(type, p.header().type());
        assertArrayEquals(body, p.body());
    }

    /** ACK tail of {@code tail} bytes after an empty soft-ack array: 3 pad bytes then trailer words. */
    private static AckPacket ackWithTail(CountingByteBufAllocator alloc, int tail) {
        byte[] body = new byte[18 + tail];
        for (int i = 18 + 3; i < body.length; i++) {
            body[i] = (byte) (i - 20); // word k (1-based) starts with value 4k-3
        }
        return decodeOne(AckPacket.class, datagram(alloc, ACK, body));
    }

    @Test
    void aLoneTrailerWordOrAPartialWordIsNoTrailer(CountingByteBufAllocator alloc) {
        for (int tail : new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {
            AckPacket ack = ackWithTail(alloc, tail);
            assertEquals(0, ack.trailerWords(), "tail " + tail);
            assertEquals(tail, ack.tailBytes(), "tail " + tail);
            assertEquals(0, ack.maxMTU());
        }
    }

    @Test
    void trailerWordsAreCountedByLength(CountingByteBufAllocator alloc) {
        AckPacket two = ackWithTail(alloc, 3 + 8 + 3);
        assertEquals(2, two.trailerWords());
        assertEquals(3, two.tailBytes());
        assertEquals(0x01020304, two.maxMTU());
        assertEquals(0x05060708, two.ifMTU());
        assertEquals(0, two.rwind());
        AckPacket three = ackWithTail(alloc, 3 + 12);
        assertEquals(3, three.trailerWords());
        assertEquals(0x090a0b0c, three.rwind());
        assertEquals(0, three.maxDgramPackets());
    }

    @Test
    void bytesAfterTheFourthTrailerWordAreAcceptedAndCounted(CountingByteBufAllocator alloc) {
        AckPacket ack = ackWithTail(alloc, 3 + 16 + 1000);
        assertEquals(4, ack.trailerWords());
        assertEquals(0x0d0e0f10, ack.maxDgramPackets());
        assertEquals(1000, ack.tailBytes());
        assertEquals(18 + 3 + 16 + 1000, ack.bodyLength());
    }

    private static <T extends RxPacket> T decodeOne(Class<T> type, ByteBuf datagram) {
        List<RxPacket> out = new ArrayList<>();
        try {
            assertNull(PacketDecoder.decode(datagram, out));
            assertEquals(1, out.size());
            return assertInstanceOf(type, out.get(0));
        } finally {
            out.forEach(RxPacket::release);
            datagram.release();
        }
    }
}
