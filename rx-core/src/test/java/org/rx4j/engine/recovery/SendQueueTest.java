// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.recovery.RecoveryFixture.sent;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.PacketFlags;

/** The send queue's accounting: in flight, lost, soft-acked, hard-acked. */
@ExtendWith(LeakCheckExtension.class)
class SendQueueTest {

    @Test
    void hardAckIsClampedToWhatWasSentAndCountsOnlyUnackedPackets() {
        SendQueue sq = sent(3, 0);
        sq.add(Unpooled.buffer(0), PacketFlags.LAST_PACKET);

        assertEquals(3, sq.hardAck(10), "seq 4 was never sent");
        assertEquals(4, sq.first());
        assertEquals(0, sq.inFlight());
        assertEquals(1, sq.size());
        assertFalse(sq.allHardAcked());
        sq.releaseAll();
    }

    @Test
    void aResentLostPacketIsInFlightAgain() {
        SendQueue sq = sent(2, 0);
        sq.markLost(sq.get(1));
        assertEquals(1, sq.lostCount());
        assertEquals(1, sq.inFlight());

        sq.markResent(sq.get(1));

        assertEquals(0, sq.lostCount());
        assertEquals(2, sq.inFlight());
        assertTrue(sq.hasUnacked());
        sq.releaseAll();
    }

    @Test
    void markAllLostSkipsSoftAckedPackets() {
        SendQueue sq = sent(3, 0);
        sq.markSoftAcked(sq.get(2));

        assertEquals(2, sq.markAllLost());

        assertEquals(2, sq.lostCount());
        assertEquals(0, sq.inFlight());
        assertFalse(sq.get(2).isLost());
        sq.releaseAll();
    }

    /** n packets of {@code size} bytes each holding the running byte counter (byte i of the stream = i mod 251). */
    private static SendQueue stream(int n, int size, int lastSize) {
        SendQueue sq = new SendQueue();
        int b = 0;
        for (int i = 0; i < n; i++) {
            int len = i == n - 1 ? lastSize : size;
            ByteBuf p = Unpooled.buffer(len);
            for (int j = 0; j < len; j++) {
                p.writeByte(b++ % 251);
            }
            sq.add(p, i == n - 1 ? PacketFlags.LAST_PACKET : 0);
        }
        return sq;
    }

    private static void assertStream(SendQueue sq, long bytes) {
        int b = 0;
        for (int s = sq.first(); s - sq.next() < 0; s++) {
            ByteBuf p = sq.get(s).payload();
            for (int j = 0; j < p.readableBytes(); j++) {
                assertEquals(b++ % 251, p.getUnsignedByte(p.readerIndex() + j), "byte " + (b - 1) + " of seq " + s);
            }
        }
        assertEquals(bytes, b, "bytes in the queue");
    }

    @Test
    void recutKeepsTheBytesInOrderMovesLastPacketAndCountsTheRangeAsNeverSent() {
        SendQueue sq = stream(6, 1412, 300); // 5 × 1412 + 300 bytes
        for (int s = 1; s <= 4; s++) {
            sq.get(s).recordTransmit(s, 0);
        }
        sq.markSent(4);
        sq.markLost(3);
        sq.markSoftAcked(sq.get(1)); // below the re-cut: stays

        int added = sq.recut(2, 1172, UnpooledByteBufAllocator.DEFAULT);

        // seqs 2..6 held 4 × 1412 + 300 = 5948 bytes: 5 × 1172 + 88 → 6 packets.
        assertEquals(1, added);
        assertEquals(8, sq.next());
        assertEquals(2, sq.nextToSend(), "the re-cut packets were never sent");
        assertEquals(0, sq.inFlight(), "seq 1 is soft-acked, 2..4 left the flight");
        assertEquals(0, sq.lostCount());
        assertEquals(7, sq.lastSeq());
        assertEquals(PacketFlags.LAST_PACKET, sq.get(7).flags());
        assertEquals(88, sq.get(7).payload().readableBytes());
        for (int s = 2; s <= 6; s++) {
            assertEquals(1172, sq.get(s).payload().readableBytes());
            assertEquals(0, sq.get(s).transmits());
            assertEquals(0, sq.get(s).flags());
        }
        assertEquals(1412, sq.get(1).payload().readableBytes());
        assertStream(sq, 5 * 1412 + 300);
        sq.releaseAll();
    }

    @Test
    void recutOfAnEmptyLastPacketKeepsIt() {
        SendQueue sq = stream(3, 1412, 0);
        sq.recut(2, 500, UnpooledByteBufAllocator.DEFAULT);
        // 1412 + 0 bytes: 500, 500, 412, and LAST_PACKET on the 412-byte packet.
        assertEquals(5, sq.next());
        assertEquals(4, sq.lastSeq());
        assertEquals(412, sq.get(4).payload().readableBytes());
        assertStream(sq, 2 * 1412);
        sq.releaseAll();
    }

    @Test
    void recutMayGrowTheQueueBeyondTheApplicationsCapacity() {
        SendQueue sq = stream(1000, 1412, 1412);
        sq.recut(1, 492, UnpooledByteBufAllocator.DEFAULT);
        assertTrue(sq.size() > SendQueue.CAPACITY, "size " + sq.size());
        assertEquals(sq.next() - 1, sq.lastSeq());
        assertStream(sq, 1000L * 1412);
        sq.releaseAll();
    }

    @Test
    void recutRefusesASoftAckedPacketAndARangeOutsideTheQueue() {
        SendQueue sq = stream(3, 1412, 1412);
        sq.get(1).recordTransmit(1, 0);
        sq.get(2).recordTransmit(2, 0);
        sq.markSent(2);
        sq.markSoftAcked(sq.get(2));
        assertThrows(IllegalArgumentException.class, () -> sq.recut(1, 500, UnpooledByteBufAllocator.DEFAULT));
        assertThrows(IllegalArgumentException.class, () -> sq.recut(4, 500, UnpooledByteBufAllocator.DEFAULT));
        sq.releaseAll();
    }
}
