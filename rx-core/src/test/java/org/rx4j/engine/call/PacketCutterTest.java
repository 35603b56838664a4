// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.testing.LeakCheckExtension;

/** {@link PacketCutter#growUnsent}: packets queued at a small size are joined once a larger one is proven. */
@ExtendWith(LeakCheckExtension.class)
class PacketCutterTest {
    private final SendQueue sq = new SendQueue();
    private final PacketCutter cutter = new PacketCutter(sq, UnpooledByteBufAllocator.DEFAULT, 1412);

    private static ByteBuf bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i % 251);
        }
        return Unpooled.wrappedBuffer(b);
    }

    @Test
    void unsentPacketsAreJoinedAtTheLargerSizeAndKeepEveryByte() {
        try {
            cutter.append(bytes(10_000), 1412, 1412); // 7 packets of 1412, 116 bytes left partial
            assertEquals(8, sq.next(), "seqs 1..7 queued");
            sq.markSent(1);
            assertFalse(cutter.growUnsent(1412), "the size did not grow");
            assertTrue(cutter.growUnsent(8000));
            assertEquals(1412, sq.get(1).payload().readableBytes(), "the packet sent keeps its size");
            assertEquals(8000, sq.get(2).payload().readableBytes());
            assertEquals(6 * 1412 - 8000, sq.get(3).payload().readableBytes());
            assertEquals(4, sq.next(), "six unsent packets became two");
            assertFalse(cutter.growUnsent(8000), "joined once per growth");
            cutter.finish();
            long pos = 0;
            for (int s = 1; s < sq.next(); s++) {
                ByteBuf p = sq.get(s).payload();
                for (int i = 0; i < p.readableBytes(); i++, pos++) {
                    assertEquals((byte) (pos % 251), p.getByte(p.readerIndex() + i), "byte " + pos);
                }
            }
            assertEquals(10_000, pos, "every byte, in order");
        } finally {
            cutter.release();
            sq.releaseAll();
        }
    }

    @Test
    void seqOneAndShortFlushedPacketsStayAsTheyAre() {
        try {
            cutter.append(bytes(5000), 1412, 1412);
            assertFalse(cutter.growUnsent(8000), "seq 1 not sent yet: left alone");
            sq.markSent(1);
            assertFalse(cutter.growUnsent(8000), "the growth was seen already");
            cutter.append(bytes(10), 8000, 8000);
            assertTrue(cutter.flushPartial(), "a short packet, flushed");
            cutter.append(bytes(10), 8000, 8000);
            assertTrue(cutter.flushPartial());
            int queued = sq.next();
            assertFalse(cutter.growUnsent(8000), "short flushed packets are not joined without a growth");
            assertEquals(queued, sq.next());
        } finally {
            cutter.release();
            sq.releaseAll();
        }
    }
}
