// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;

/** The receive queue after teardown: a listener that still asks for data gets none, and nothing throws. */
class ReceiveQueueTest {
    private static DataPacket data(int seq, ByteBuf payload) {
        return new DataPacket(new RxHeader(1, 4, 1, seq, seq, PacketType.DATA, 0, 0, 0, 0, 1), payload);
    }

    @Test
    void releasedQueueHandsOutNothingThoughPacketsWereInOrder() {
        ReceiveQueue rq = new ReceiveQueue();
        ByteBuf one = Unpooled.buffer(4).writeInt(1);
        ByteBuf two = Unpooled.buffer(4).writeInt(2);
        assertEquals(ReceiveQueue.ACCEPTED, rq.offer(data(1, one), 32));
        assertEquals(ReceiveQueue.ACCEPTED, rq.offer(data(2, two), 32));
        assertTrue(rq.hasReadable());
        rq.releaseAll(); // the call ended (an abort) while both were readable
        assertEquals(0, one.refCnt());
        assertEquals(0, two.refCnt());
        assertFalse(rq.hasReadable());
        assertNull(rq.poll(), "a listener still reading after the end gets nothing");
    }

    @Test
    void aPacketOfferedAfterReleaseIsNotHandedOutOutOfOrder() {
        ReceiveQueue rq = new ReceiveQueue();
        ByteBuf one = Unpooled.buffer(4).writeInt(1);
        ByteBuf two = Unpooled.buffer(4).writeInt(2);
        rq.offer(data(1, one), 32);
        rq.offer(data(2, two), 32);
        rq.releaseAll();
        ByteBuf three = Unpooled.buffer(4).writeInt(3);
        rq.offer(data(3, three), 32);
        assertNull(rq.poll());
        rq.releaseAll();
        assertEquals(0, three.refCnt());
    }
}
