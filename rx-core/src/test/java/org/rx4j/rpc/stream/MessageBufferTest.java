// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A whole message gathered from packets: the first copied at once, the rest kept as buffers and copied once, every
 * buffer released whatever the end.
 */
class MessageBufferTest {
    /** A packet's payload: {@code n} bytes counting on from {@code first}, in a direct buffer as the decoder hands it. */
    private static ByteBuf packet(int first, int n) {
        ByteBuf b = Unpooled.directBuffer(n + 28);
        b.writeZero(28); // the header the decoder has read past
        for (int i = 0; i < n; i++) {
            b.writeByte(first + i);
        }
        b.readerIndex(28);
        return b;
    }

    private static byte[] counting(int n) {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) {
            a[i] = (byte) i;
        }
        return a;
    }

    @Test
    void packetsComeBackAsOneArrayOfTheExactSizeAndAreReleased() {
        MessageBuffer m = new MessageBuffer(1 << 20);
        List<ByteBuf> held = new ArrayList<>();
        int at = 0;
        for (int n : new int[] {65_479, 65_479, 118}) { // a 128 KiB reply and its cookie, as three packets
            ByteBuf p = packet(at, n);
            held.add(p);
            assertTrue(m.append(p));
            at += n;
        }
        assertEquals(at, m.size());
        assertEquals(0, held.get(0).refCnt(), "the first packet is copied at once");
        assertEquals(1, held.get(1).refCnt(), "kept, not copied, until the message is whole");
        assertEquals(0, held.get(2).refCnt(), "a small packet is copied at once");
        byte[] whole = m.toByteArray();
        assertArrayEquals(counting(at), whole);
        held.forEach(p -> assertEquals(0, p.refCnt()));
        assertThrows(IllegalStateException.class, m::toByteArray);
    }

    @Test
    void aOnePacketMessageIsThatPacketsBytes() {
        MessageBuffer m = new MessageBuffer(100);
        ByteBuf p = packet(0, 8);
        assertTrue(m.append(p));
        assertEquals(0, p.refCnt());
        assertArrayEquals(counting(8), m.toByteArray());
    }

    @Test
    void anEmptyMessageIsAnEmptyArray() {
        MessageBuffer m = new MessageBuffer(10);
        ByteBuf empty = Unpooled.directBuffer(4);
        assertTrue(m.append(empty));
        assertEquals(0, empty.refCnt());
        assertEquals(0, m.toByteArray().length);
    }

    @Test
    void aPacketPastTheLimitIsRefusedAndReleasedAndTheRestIsKept() {
        int keep = MessageBuffer.KEEP_MIN;
        MessageBuffer m = new MessageBuffer(3 * keep);
        ByteBuf first = packet(0, 100);
        ByteBuf second = packet(100, keep);
        ByteBuf third = packet(100 + keep, 2 * keep);
        assertTrue(m.append(first));
        assertTrue(m.append(second));
        assertFalse(m.refused());
        assertFalse(m.append(third));
        assertTrue(m.refused(), "the message is incomplete");
        assertEquals(0, third.refCnt());
        assertEquals(1, second.refCnt());
        assertEquals(100 + keep, m.size());
        m.release();
        assertEquals(0, second.refCnt());
    }

    @Test
    void releaseLetsEveryBufferGoAndRefusesLaterPackets() {
        MessageBuffer m = new MessageBuffer(1 << 20);
        int keep = MessageBuffer.KEEP_MIN;
        ByteBuf a = packet(0, 10);
        ByteBuf b = packet(10, keep);
        ByteBuf c = packet(10 + keep, keep);
        assertTrue(m.append(a));
        assertTrue(m.append(b));
        assertTrue(m.append(c));
        m.release();
        m.release(); // again: nothing left to release
        assertEquals(0, b.refCnt());
        assertEquals(0, c.refCnt());
        ByteBuf late = packet(10 + 2 * keep, 10);
        assertFalse(m.append(late), "a packet after the call ended is not kept");
        assertEquals(0, late.refCnt());
        assertFalse(m.refused(), "ended, not over the limit");
    }

    @Test
    void tinyPacketsAreCopiedNotKeptSoAPeerCannotMakeThisSideHoldManyBuffers() {
        MessageBuffer m = new MessageBuffer(1 << 20);
        List<ByteBuf> sent = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            ByteBuf p = packet(i, 1);
            sent.add(p);
            assertTrue(m.append(p));
        }
        sent.forEach(p -> assertEquals(0, p.refCnt()));
        assertArrayEquals(counting(10_000), m.toByteArray());
    }

    @Test
    void smallAndLargePacketsMixedKeepTheirOrder() {
        int keep = MessageBuffer.KEEP_MIN;
        MessageBuffer m = new MessageBuffer(1 << 20);
        int at = 0;
        for (int n : new int[] {7, 100, keep, 200, 300, 2 * keep, 1, keep + 1, 5}) {
            assertTrue(m.append(packet(at, n)));
            at += n;
        }
        assertArrayEquals(counting(at), m.toByteArray());
    }

    @Test
    void manyPacketsKeepTheirOrder() {
        MessageBuffer m = new MessageBuffer(2 << 20);
        int at = 0;
        for (int i = 0; i < 743; i++) { // a 1 MiB reply from OpenAFS, 1,412 bytes per packet
            int n = Math.min(1412, (1 << 20) + 4 - at);
            assertTrue(m.append(packet(at, n)));
            at += n;
        }
        assertArrayEquals(counting((1 << 20) + 4), m.toByteArray());
    }
}
