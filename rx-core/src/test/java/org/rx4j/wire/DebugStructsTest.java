// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The rxdebug reply structs of rx-wire-facts.md §9/§13: sizes, round trips, spare bytes, short input. */
class DebugStructsTest {
    private final Random random = new Random(42);

    private int u8() {
        return random.nextInt(256);
    }

    private int u16() {
        return random.nextInt(65536);
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private int[] ints(int n) {
        return random.ints(n).toArray();
    }

    DebugStats randomStats() {
        return new DebugStats(random.nextInt(), random.nextInt(), random.nextInt(), u8(), u8(), u8(), random.nextInt(),
                random.nextInt(), random.nextInt(), random.nextInt());
    }

    DebugConn randomConn() {
        return new DebugConn(random.nextInt(), random.nextInt(), random.nextInt(), ints(4), random.nextInt(), u16(), u8(),
                u8(), u8(), bytes(4), bytes(4), bytes(4), bytes(4), ints(DebugConn.SEC_STATS_WORDS), random.nextInt(),
                random.nextInt());
    }

    DebugPeer randomPeer() {
        return new DebugPeer(random.nextInt(), u16(), u16(), random.nextInt(), (short) u16(), u8(), u8(),
                random.nextInt(), random.nextInt(), random.nextInt(), random.nextInt(), random.nextInt(),
                random.nextInt(), random.nextInt(), random.nextInt(), random.nextInt(), random.nextInt(),
                random.nextInt(), u16(), u16(), u16(), u16(), u16(), u16(), u16(), u16(), random.nextLong(),
                random.nextLong());
    }

    RxStatistics randomStatistics() {
        return new RxStatistics(ints(RxStatistics.WORDS));
    }

    /** encode writes exactly {@code size} bytes, decode(encode(x)) == x, and short bodies decode to null. */
    private <T> void assertStructContract(int size, T value, Function<T, byte[]> toBody, Function<byte[], T> decode) {
        byte[] body = toBody.apply(value);
        assertEquals(size, body.length);
        assertEquals(value, decode.apply(body));
        assertEquals(value.hashCode(), decode.apply(body).hashCode());
        // bytes after the struct are ignored
        assertEquals(value, decode.apply(Arrays.copyOf(body, size + 13)));
        // short input never throws
        assertNull(decode.apply(null));
        for (int n = 0; n < size; n++) {
            assertNull(decode.apply(Arrays.copyOf(body, n)), "length " + n);
        }
    }

    @Test
    void debugStatsIs56BytesAndRoundTrips() {
        for (int i = 0; i < 200; i++) {
            assertStructContract(DebugStats.SIZE, randomStats(), DebugStats::toBody, DebugStats::decode);
        }
    }

    @Test
    void debugStatsWritesItsFieldsAtTheDocumentedOffsetsAndZeroSpares() {
        byte[] body = new DebugStats(1, 2, 3, 4, 5, DebugStats.VERSION, 6, 7, 8, 9).toBody();
        ByteBuf b = Unpooled.wrappedBuffer(body);
        assertEquals(1, b.getInt(0));
        assertEquals(2, b.getInt(4));
        assertEquals(3, b.getInt(8));
        assertEquals(4, b.getByte(12));
        assertEquals(5, b.getByte(13));
        assertEquals(0x53, b.getByte(14));
        assertEquals(0, b.getByte(15));
        assertEquals(6, b.getInt(16));
        assertEquals(7, b.getInt(20));
        assertEquals(8, b.getInt(24));
        assertEquals(9, b.getInt(28));
        assertAllZero(body, 32, 56);
        // spare bytes in a received struct are ignored
        body[15] = 9;
        body[40] = 9;
        assertEquals(DebugStats.decode(new DebugStats(1, 2, 3, 4, 5, 'S', 6, 7, 8, 9).toBody()),
                DebugStats.decode(body));
    }

    @Test
    void debugConnIs176BytesAndRoundTrips() {
        for (int i = 0; i < 200; i++) {
            assertStructContract(DebugConn.SIZE, randomConn(), DebugConn::toBody, DebugConn::decode);
        }
    }

    @Test
    void debugConnWritesItsFieldsAtTheDocumentedOffsetsAndZeroSpares() {
        int[] sec = new int[DebugConn.SEC_STATS_WORDS];
        sec[0] = 0x0102_0304;
        sec[18] = 0x0a0b_0c0d;
        DebugConn c = new DebugConn(0x7f000001, 0x1000, 17, new int[] {1, 2, 3, 4}, -5, 7009, 0x21, 1, 2,
                new byte[] {1, 2, 3, 4}, new byte[] {5, 6, 7, 8}, new byte[] {9, 10, 11, 12},
                new byte[] {13, 14, 15, 16}, sec, 0xCAFE, 1444);
        byte[] body = c.toBody();
        ByteBuf b = Unpooled.wrappedBuffer(body);
        assertEquals(0x7f000001, b.getInt(0));
        assertEquals(0x1000, b.getInt(4));
        assertEquals(17, b.getInt(8));
        assertEquals(1, b.getInt(12));
        assertEquals(4, b.getInt(24));
        assertEquals(-5, b.getInt(28));
        assertEquals(7009, b.getUnsignedShort(32));
        assertEquals(0x21, b.getByte(34));
        assertEquals(1, b.getByte(35));
        assertEquals(2, b.getByte(36));
        assertAllZero(body, 37, 40);
        assertEquals(1, b.getByte(40));
        assertEquals(5, b.getByte(44));
        assertEquals(9, b.getByte(48));
        assertEquals(13, b.getByte(52));
        assertEquals(0x0102_0304, b.getInt(56));
        assertEquals(0x0a0b_0c0d, b.getInt(128));
        assertEquals(0xCAFE, b.getInt(132));
        assertEquals(1444, b.getInt(136));
        assertAllZero(body, 140, 176);
        assertEquals(3, c.callNumber(2));
        assertEquals(16, c.callOther()[3]);
    }

    @Test
    void secStatsPutTypeAndLevelInTheFirstBytesThenFlagsExpiryAndCountersAsWords() {
        int[] sec = DebugConn.secStats(3, 2, 0x0a, 0xF000_0001L, 5, 6, 0x1_0000_0007L, 8);
        DebugConn c = new DebugConn(0, 1, 0, new int[4], 0, 0, 0, 1, 2, new byte[4], new byte[4], new byte[4],
                new byte[4], sec, 0, 0);
        byte[] body = c.toBody();
        ByteBuf b = Unpooled.wrappedBuffer(body);
        // struct rx_securityObjectStats at 56: char type, char level, 10 spare chars, then 32-bit words.
        assertEquals(3, b.getByte(56));
        assertEquals(2, b.getByte(57));
        assertAllZero(body, 58, 68);
        assertEquals(0x0a, b.getInt(68));
        assertEquals(0xF000_0001, b.getInt(72));
        assertEquals(5, b.getInt(76));
        assertEquals(6, b.getInt(80));
        assertEquals(7, b.getInt(84), "a counter keeps its low 32 bits, as OpenAFS's do");
        assertEquals(8, b.getInt(88));
        assertAllZero(body, 92, 132);
        DebugConn back = DebugConn.decode(body);
        assertEquals(3, back.secStatsType());
        assertEquals(2, back.secStatsLevel());
        assertEquals(0x0a, back.secStatsFlags());
        assertEquals(0xF000_0001L, back.secStatsExpires());
        assertArrayEquals(new long[] {5, 6, 7, 8}, back.secStatsCounters());
        assertThrows(IllegalArgumentException.class, () -> DebugConn.secStats(256, 0, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void debugConnKeepsItsArraysPrivate() {
        int[] calls = {1, 2, 3, 4};
        byte[] state = {0, 0, 0, 0};
        DebugConn c = new DebugConn(0, 0, 0, calls, 0, 0, 0, 0, 0, state, state, state, state,
                new int[DebugConn.SEC_STATS_WORDS], 0, 0);
        calls[0] = 99;
        state[0] = 99;
        c.callNumber()[1] = 99;
        assertEquals(1, c.callNumber(0));
        assertEquals(2, c.callNumber(1));
        assertEquals(0, c.callState(0));
        assertThrows(IllegalArgumentException.class, () -> new DebugConn(0, 0, 0, new int[3], 0, 0, 0, 0, 0, state,
                state, state, state, new int[DebugConn.SEC_STATS_WORDS], 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new DebugConn(0, 0, 0, calls, 0, 70000, 0, 0, 0, state,
                state, state, state, new int[DebugConn.SEC_STATS_WORDS], 0, 0));
    }

    @Test
    void debugPeerIs132BytesAndRoundTrips() {
        for (int i = 0; i < 200; i++) {
            assertStructContract(DebugPeer.SIZE, randomPeer(), DebugPeer::toBody, DebugPeer::decode);
        }
    }

    @Test
    void debugPeerWritesItsFieldsAtTheOffsetsOfSection13() {
        DebugPeer p = new DebugPeer(0x7f000001, 7009, 1444, 11, -2, 3, 4, 5, 6, 24000, 8, 9, 10, 142, 12, 13, 14, 15,
                1444, 5692, 4, 5, 1444, 32, 3, 77, 0x1_0000_0002L, 300732);
        byte[] body = p.toBody();
        ByteBuf b = Unpooled.wrappedBuffer(body);
        assertEquals(0x7f000001, b.getInt(0));
        assertEquals(7009, b.getUnsignedShort(4));
        assertEquals(1444, b.getUnsignedShort(6));
        assertEquals(11, b.getInt(8));
        assertEquals(-2, b.getShort(12));
        assertEquals(24000, b.getInt(24));
        assertEquals(8, b.getInt(28));
        assertEquals(9, b.getInt(32));
        assertEquals(142, b.getInt(40));
        assertEquals(12, b.getInt(44));
        assertEquals(1444, b.getUnsignedShort(60));
        assertEquals(5692, b.getUnsignedShort(62));
        assertEquals(4, b.getUnsignedShort(64));
        assertEquals(5, b.getUnsignedShort(66));
        assertEquals(1444, b.getUnsignedShort(68));
        assertEquals(32, b.getUnsignedShort(70));
        assertEquals(3, b.getUnsignedShort(72));
        assertEquals(77, b.getUnsignedShort(74));
        assertEquals(1, b.getInt(76));
        assertEquals(2, b.getInt(80));
        assertEquals(0, b.getInt(84));
        assertEquals(300732, b.getInt(88));
        assertAllZero(body, 92, 132);
    }

    @Test
    void rxStatisticsIs71WordsWithNamedIndices() {
        for (int i = 0; i < 200; i++) {
            assertStructContract(RxStatistics.SIZE, randomStatistics(), RxStatistics::toBody, RxStatistics::decode);
        }
        assertEquals(284, RxStatistics.SIZE);
        int[] v = new int[RxStatistics.WORDS];
        for (int i = 0; i < v.length; i++) {
            v[i] = 1000 + i;
        }
        RxStatistics s = new RxStatistics(v);
        assertEquals(1000, s.packetRequests());
        assertEquals(1011, s.packetsRead(PacketType.DATA));
        assertEquals(1023, s.packetsRead(PacketType.VERSION));
        assertEquals(1028, s.packetsSent(PacketType.DATA));
        assertEquals(1040, s.packetsSent(PacketType.VERSION));
        assertEquals(1024, s.dataPacketsRead());
        assertEquals(1027, s.spuriousPacketsRead());
        assertEquals(1041, s.ackPacketsSent());
        assertEquals(1045, s.dataPacketsSent());
        assertEquals(1048, s.ignoreAckedPacket());
        assertEquals(1049 * 1_000_000L + 1050, s.totalRttMicros());
        assertEquals(1051 * 1_000_000L + 1052, s.minRttMicros());
        assertEquals(1053 * 1_000_000L + 1054, s.maxRttMicros());
        assertEquals(1055, s.nRttSamples());
        assertEquals(1056, s.nServerConns());
        assertEquals(1060, s.nFreeCallStructs());
        assertEquals(1063, s.ignorePacketDally());
        assertThrows(IndexOutOfBoundsException.class, () -> s.packetsRead(0));
        assertThrows(IndexOutOfBoundsException.class, () -> s.packetsSent(14));
        assertThrows(IllegalArgumentException.class, () -> new RxStatistics(new int[70]));
        v[0] = -1;
        assertEquals(1000, s.packetRequests(), "values are copied in");
    }

    @Test
    void endMarkers() {
        assertTrue(DebugConn.end().isEnd());
        assertEquals(-1, DebugConn.decode(DebugConn.end().toBody()).cid());
        assertFalse(DebugConn.decode(new byte[DebugConn.SIZE]).isEnd());
        assertFalse(DebugPeer.decode(new byte[DebugPeer.SIZE]).isEnd());
        assertTrue(DebugPeer.end().isEnd());
        assertEquals(-1, DebugPeer.decode(DebugPeer.end().toBody()).host());
    }

    @Test
    void badTypeReplyIsTwoMinusEightWordsWithTheRequestHeaderLessClientInitiated() {
        RxHeader request = new RxHeader(999, 0, 101, 0, 0, PacketType.DEBUG,
                PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, 0);
        DebugReply reply = DebugReply.badType(request);
        assertTrue(reply.isBadType());
        assertEquals(PacketFlags.LAST_PACKET, reply.header().flags());
        assertEquals(101, reply.header().callNumber());
        assertEquals(DebugReply.BAD_TYPE_SIZE, reply.bodyLength());
        ByteBuf b = Unpooled.wrappedBuffer(reply.body());
        assertEquals(DebugReply.BAD_TYPE, b.getInt(0));
        assertEquals(DebugReply.BAD_TYPE, b.getInt(4));
        reply.body()[0] = 0; // the body is the reply's own copy, not the shared constant
        assertTrue(DebugReply.badType(request).isBadType());
        assertFalse(new DebugReply(reply.header(), new byte[8]).isBadType());
        assertArrayEquals(DebugReply.badTypeBody(), DebugReply.badType(request).body());
    }

    private static void assertAllZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            assertEquals(0, b[i], "byte " + i);
        }
    }
}
