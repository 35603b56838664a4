// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;

/**
 * The first LAST_PACKET accepted holds (docs/robustness.md "Rule: the first LAST_PACKET holds"): a later LAST
 * flag at a lower seq is ignored as a flag, DATA above the accepted LAST is dropped and counted, and nothing below
 * it is discarded. Packet level, frozen clock: each packet is delivered by hand to a server call.
 */
class FirstLastPacketTest {
    private static final int SVC = 147;
    private final FakePeer client = FakePeer.client(0x80000010, 0x20, SVC);
    private EngineHarness h;
    private final ByteArrayOutputStream read = new ByteArrayOutputStream();
    private boolean readComplete;

    private void init() {
        h = new EngineHarness(RxConfig.builder().checkReach(false).build());
        h.engine.registerService(SVC, 0, call -> {
            call.setListener(new CallListener() {
                @Override
                public void onData(Call c, ByteBuf b, long now) {
                    byte[] bytes = new byte[b.readableBytes()];
                    b.readBytes(bytes);
                    read.writeBytes(bytes);
                    b.release();
                }

                @Override
                public void onReadComplete(Call c, long now) {
                    readComplete |= c.isReadComplete();
                }

                @Override
                public void onWritable(Call c) {
                }

                @Override
                public void onComplete(Call c, int errorCode) {
                }
            });
        });
    }

    /** Packet {@code seq} of call 1: 100 bytes, each the seq's value, so the stream shows which packets it holds. */
    private DataPacket packet(int seq, int flags) {
        byte[] b = new byte[100];
        Arrays.fill(b, (byte) seq);
        return new DataPacket(client.header(0, 1, seq, PacketType.DATA, flags), Unpooled.wrappedBuffer(b));
    }

    private void deliver(int seq, int flags) {
        h.deliver(packet(seq, flags));
        h.advance(MS);
    }

    private static byte[] stream(int... seqs) {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        for (int seq : seqs) {
            for (int i = 0; i < 100; i++) {
                s.write(seq);
            }
        }
        return s.toByteArray();
    }

    @Test
    void aLaterLastAtALowerSeqDoesNotShortenTheStream() {
        init();
        deliver(3, PacketFlags.LAST_PACKET);
        deliver(2, PacketFlags.LAST_PACKET);
        deliver(1, 0);
        deliver(2, 0);
        assertTrue(readComplete, "the stream ended");
        assertArrayEquals(stream(1, 2, 3), read.toByteArray(), "packet 3, accepted first with LAST, is kept");
        assertEquals(0, h.engine.totals().get(RxCounter.DATA_BEYOND_LAST));
    }

    @Test
    void dataAboveTheAcceptedLastIsDroppedAndCounted() {
        init();
        deliver(1, 0);
        deliver(2, PacketFlags.LAST_PACKET);
        deliver(3, 0);
        deliver(4, PacketFlags.LAST_PACKET);
        assertTrue(readComplete);
        assertArrayEquals(stream(1, 2), read.toByteArray());
        assertEquals(2, h.engine.totals().get(RxCounter.DATA_BEYOND_LAST), "packets 3 and 4 counted");
        assertEquals(0, h.engine.totals().get(RxCounter.DUPLICATES_RECEIVED), "counted apart from duplicates");
    }

    @Test
    void aLastBelowDataAlreadyHeldIsOnlyData() {
        init();
        deliver(1, 0);
        deliver(3, 0);
        deliver(2, PacketFlags.LAST_PACKET);
        assertFalse(readComplete, "packet 3 was received: a LAST at 2 cannot end the stream");
        assertArrayEquals(stream(1, 2, 3), read.toByteArray(), "nothing received is discarded");
        deliver(4, PacketFlags.LAST_PACKET);
        assertTrue(readComplete);
        assertArrayEquals(stream(1, 2, 3, 4), read.toByteArray());
    }
}
