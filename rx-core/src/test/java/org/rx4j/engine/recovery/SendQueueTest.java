package org.rx4j.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.recovery.RecoveryFixture.sent;

import io.netty.buffer.Unpooled;
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
}
