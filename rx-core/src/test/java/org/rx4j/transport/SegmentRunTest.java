// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.testing.LeakCheckExtension;

/** The GSO batch cut: which datagrams may share one send (docs/transport.md "Segmentation offload"). */
@ExtendWith(LeakCheckExtension.class)
class SegmentRunTest {
    private static final InetSocketAddress V4 = new InetSocketAddress("127.0.0.1", 7000);
    private static final InetSocketAddress OTHER_V4 = new InetSocketAddress("127.0.0.1", 7001);
    private static final InetSocketAddress V6 = new InetSocketAddress("::1", 7000);

    @Test
    void aSendCarriesAtMost64SegmentsAndOneDatagramsPayload() {
        assertEquals(45, SegmentRun.maxSegments(1444, V4), "45 × 1444 = 64,980 <= 65,507");
        assertEquals(7, SegmentRun.maxSegments(9000, V4), "a 9,000-byte path: 7 × 9,000 = 63,000");
        assertEquals(64, SegmentRun.maxSegments(100, V4), "small datagrams: the kernel's 64-segment bound");
        assertEquals(2, SegmentRun.maxSegments(32_753, V4), "2 × 32,753 = 65,506");
        assertEquals(1, SegmentRun.maxSegments(32_754, V4), "past half the payload a send holds one: no batching");
        assertEquals(1, SegmentRun.maxSegments(65_000, V4), "the large loopback packets: never batched");
        assertEquals(2, SegmentRun.maxSegments(32_743, V6), "IPv6: 65,535 − 48 = 65,487 bytes");
        assertEquals(1, SegmentRun.maxSegments(32_744, V6));
    }

    @Test
    void aRunTakesEqualDatagramsToOnePeerAndEndsWithAShorterOne() {
        SegmentRun run = new SegmentRun();
        assertTrue(run.isEmpty());
        assertFalse(run.accepts(V4, 1444), "an empty run takes nothing: it is started");
        ByteBuf b = run.start(UnpooledByteBufAllocator.DEFAULT, V4, 1444, 3);
        b.writeZero(1444);
        run.appended(1444);
        assertTrue(run.accepts(V4, 1444));
        assertTrue(run.accepts(new InetSocketAddress("127.0.0.1", 7000), 1444), "an equal address, not the same object");
        assertFalse(run.accepts(OTHER_V4, 1444), "another recipient cuts the run");
        assertFalse(run.accepts(V4, 1445), "a longer datagram cuts the run");
        assertTrue(run.accepts(V4, 600), "a shorter one may end it");
        ByteBuf grown = run.target();
        assertEquals(SegmentRun.MAX_IPV4_PAYLOAD, grown.capacity(),
                "moved once, into a whole-run buffer of the ring, before the second datagram");
        assertEquals(1444, grown.readableBytes(), "with the first datagram's bytes");
        assertSame(grown, run.target(), "asked again for the same datagram: the same buffer");
        grown.writeZero(600);
        run.appended(600);
        assertTrue(run.isFull(), "nothing joins after a shorter datagram");
        assertFalse(run.accepts(V4, 600));
        assertEquals(2, run.segments());
        assertEquals(1444, run.segmentSize());
        assertEquals(V4, run.peer());
        ByteBuf taken = run.take();
        assertEquals(2044, taken.readableBytes());
        assertTrue(run.isEmpty());
        taken.release();
        run.releaseRing();
        assertEquals(0, taken.refCnt(), "the ring's own reference went with releaseRing");
    }

    @Test
    void aWrittenRunsBufferServesTheNextRunAndOneStillBeingWrittenDoesNot() {
        SegmentRun run = new SegmentRun();
        ByteBuf written = growTwoDatagramRun(run);
        written.release(); // the channel wrote it
        ByteBuf pending = growTwoDatagramRun(run);
        assertSame(written, pending, "free again once written: reused, not allocated");
        ByteBuf other = growTwoDatagramRun(run);
        assertNotSame(pending, other, "a buffer the channel still holds is not handed out twice");
        pending.release();
        other.release();
        run.releaseRing();
        assertEquals(0, pending.refCnt());
        assertEquals(0, other.refCnt());
        ByteBuf afterRelease = run.start(UnpooledByteBufAllocator.DEFAULT, V4, 100, 2);
        afterRelease.writeZero(100);
        run.appended(100);
        assertEquals(2 * 100, run.target().capacity(), "after releaseRing a run grows in place, as before");
        run.discard();
    }

    /** A run of two 100-byte datagrams in a ring buffer, taken: the caller owns one reference. */
    private static ByteBuf growTwoDatagramRun(SegmentRun run) {
        run.start(UnpooledByteBufAllocator.DEFAULT, V4, 100, 2).writeZero(100);
        run.appended(100);
        run.target().writeZero(100);
        run.appended(100);
        return run.take();
    }

    @Test
    void aRunIsFullAtItsMostSegmentsAndAFailedEncodingIsTakenBack() {
        SegmentRun run = new SegmentRun();
        ByteBuf b = run.start(UnpooledByteBufAllocator.DEFAULT, V4, 100, 2);
        b.writeZero(100);
        run.appended(100);
        int mark = run.target().writerIndex();
        run.target().writeZero(30); // an encoding that failed part-way
        run.abandon(mark);
        assertEquals(100, run.target().writerIndex(), "the partial datagram's bytes are gone");
        run.target().writeZero(100);
        run.appended(100);
        assertTrue(run.isFull());
        assertFalse(run.accepts(V4, 100));
        run.discard();
        run.releaseRing();
        assertTrue(run.isEmpty());
        ByteBuf first = run.start(UnpooledByteBufAllocator.DEFAULT, V4, 100, 2);
        run.abandon(first.writerIndex());
        assertTrue(run.isEmpty(), "a run whose only datagram failed is released");
        assertEquals(0, first.refCnt());
    }
}
