// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.transport.EngineChannel.MS;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.socket.DatagramPacket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DebugReply;
import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.VersionPacket;

/**
 * docs/robustness.md, Rule: nothing stale in what rx4j sends. Every buffer the engine and the transport allocate comes
 * pre-filled with 0xA5 (as a recycled pooled buffer may be), and every datagram rx4j then sends — ACKs of every reason
 * rx4j produces, PINGs, ABORTs, raw ABORTs, VERSION and DEBUG replies, DATA — has its exact length, zero pads and
 * reserved fields, and nothing stale: re-encoding what it decodes to on clean buffers gives the same bytes.
 */
@ExtendWith(LeakCheckExtension.class)
class PoisonedBufferTest {
    private static final int SVC = 147;
    private static final byte POISON = (byte) 0xA5;

    /** Hands out buffers whose every byte of capacity is 0xA5; reader and writer index 0. */
    static final class PoisonAllocator extends AbstractByteBufAllocator {
        PoisonAllocator() {
            super(false);
        }

        private static ByteBuf poison(ByteBuf b) {
            for (int i = 0; i < b.capacity(); i++) {
                b.setByte(i, POISON);
            }
            return b;
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return poison(UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity));
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return poison(UnpooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, maxCapacity));
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    private static RxHeader client(int epoch, int cid, int call, int seq, int serial, int type, int flags,
            int service) {
        return new RxHeader(epoch, cid, call, seq, serial, type, flags | PacketFlags.CLIENT_INITIATED, 0, 0, 0,
                service);
    }

    /** @return every datagram written so far, raw, copied out; the datagrams are released */
    private static List<byte[]> raw(EngineChannel ch) {
        List<byte[]> out = new ArrayList<>();
        DatagramPacket d;
        while ((d = ch.channel.readOutbound()) != null) {
            ByteBuf c = d.content();
            byte[] a = new byte[c.readableBytes()];
            c.getBytes(c.readerIndex(), a);
            out.add(a);
            d.release();
        }
        return out;
    }

    private static int expectedLength(RxPacket p) {
        return RxConstants.HEADER_SIZE + p.bodyLength();
    }

    @Test
    void everyPacketSentFromPoisonedBuffersIsExactAndClean() {
        RxConfig config = RxConfig.defaults();
        List<byte[]> sent = new ArrayList<>();
        try (EngineChannel ch = new EngineChannel(config, new PoisonAllocator())) {
            ch.handler.run(e -> e.setDebugResponder(new org.rx4j.engine.debug.EngineDebugResponder()));
            ch.handler.run(e -> e.registerService(SVC, 0, call -> call.setListener(new CallListener() {
                @Override
                public void onReadable(Call c, long now) {
                    ByteBuf b;
                    while ((b = c.read(ch.now())) != null) {
                        b.release();
                    }
                    if (c.isReadComplete()) {
                        c.write(ch.now(), Unpooled.copiedBuffer(new byte[3000]));
                        c.finishSending(ch.now());
                    }
                }

                @Override
                public void onWritable(Call c) {
                }

                @Override
                public void onComplete(Call c, int errorCode) {
                }
            })));
            int epoch = 0x80000123;
            int cid = 0x400;
            int serial = 1;
            // seq 1 of a 3-packet request: reachability PING (+ REQUESTED ack).
            ch.receive(EngineChannel.data(client(epoch, cid, 1, 1, serial++, PacketType.DATA,
                    PacketFlags.REQUEST_ACK, SVC), new byte[1412]));
            sent.addAll(raw(ch));
            AckPacket ping = null;
            for (byte[] b : sent) {
                RxPacket p = decodeOne(b);
                if (p instanceof AckPacket a && a.reason() == AckReason.PING) {
                    ping = a;
                }
            }
            assertTrue(ping != null, "reachability PING sent");
            ch.receive(AckPacket.of(client(epoch, cid, 1, 0, serial++, PacketType.ACK, PacketFlags.SLOW_START_OK,
                    SVC), 1, 1, ping.header().serial(), AckReason.PING_RESPONSE, new byte[0], 1444, 1444, 32, 1));
            // A duplicate, a packet beyond the window, seq 3 before 2 (out of sequence), a client PING.
            ch.receive(EngineChannel.data(client(epoch, cid, 1, 1, serial++, PacketType.DATA, 0, SVC),
                    new byte[1412]));
            ch.receive(EngineChannel.data(client(epoch, cid, 1, 400, serial++, PacketType.DATA, 0, SVC),
                    new byte[1412]));
            ch.receive(EngineChannel.data(client(epoch, cid, 1, 3, serial++, PacketType.DATA,
                    PacketFlags.LAST_PACKET, SVC), new byte[10]));
            ch.receive(AckPacket.of(client(epoch, cid, 1, 0, serial++, PacketType.ACK,
                    PacketFlags.REQUEST_ACK | PacketFlags.SLOW_START_OK, SVC), 1, 0, 0, AckReason.PING, new byte[0],
                    1444, 1444, 32, 1));
            ch.receive(EngineChannel.data(client(epoch, cid, 1, 2, serial++, PacketType.DATA, 0, SVC),
                    new byte[1412]));
            sent.addAll(raw(ch));
            // Time passes: delayed / idle acks, keepalive PINGs, resends of the reply.
            for (int i = 0; i < 30; i++) {
                ch.advance(200 * MS);
                sent.addAll(raw(ch));
            }
            // An unknown opcode type on a call of another channel, an unknown service, connectionless queries.
            ch.receive(new ControlPacket(client(epoch, cid | 1, 5, 0, serial++, 14, 0, SVC), new byte[0]));
            ch.receive(EngineChannel.data(client(epoch, cid + 4, 1, 1, 1, PacketType.DATA, 0, 999), new byte[4]));
            ch.receive(new VersionPacket(client(0, 0, 0, 0, 0, PacketType.VERSION, 0, 0), new byte[0]));
            for (int type : new int[] {DebugRequest.GETSTATS, DebugRequest.GETALLCONN, DebugRequest.GETCONN,
                DebugRequest.GETPEER, DebugRequest.RXSTATS, 77}) {
                ch.receive(new DebugRequest(client(0, 0, 0, 0, 0, PacketType.DEBUG, 0, 0), type, 0, 0));
            }
            sent.addAll(raw(ch));
        }
        Set<Integer> types = new TreeSet<>();
        Set<Integer> reasons = new TreeSet<>();
        for (byte[] b : sent) {
            RxPacket p = decodeOne(b);
            types.add(p.header().type());
            assertEquals(0, p.header().userStatus(), "userStatus only as set: " + p.header());
            if (p instanceof AckPacket a) {
                reasons.add(a.reason());
                assertEquals(0, a.tailBytes(), "no probe padding on a plain ACK");
                int pad = RxConstants.HEADER_SIZE + RxConstants.ACK_FIXED_SIZE + a.nAcks();
                for (int i = 0; i < RxConstants.ACK_PAD_SIZE; i++) {
                    assertEquals(0, b[pad + i], "ACK pad byte " + i);
                }
                for (int i = 0; i < a.nAcks(); i++) {
                    assertTrue(a.ackByte(i) <= 1, "soft-ack entries are 0 or 1");
                }
            }
            if (p instanceof DebugReply || p instanceof VersionPacket) {
                for (int i = RxConstants.HEADER_SIZE; i + 3 < b.length; i++) {
                    assertTrue(!(b[i] == POISON && b[i + 1] == POISON && b[i + 2] == POISON && b[i + 3] == POISON),
                            "stale 0xA5 bytes at " + i + " of a " + p.getClass().getSimpleName());
                }
            }
            assertEquals(expectedLength(p), b.length, "exact length of " + p.header());
            ByteBuf clean = PacketEncoder.encode(p, UnpooledByteBufAllocator.DEFAULT);
            byte[] again = new byte[clean.readableBytes()];
            clean.readBytes(again);
            clean.release();
            p.release();
            assertArrayEquals(again, b, "the datagram re-encodes to the same bytes: " + types);
        }
        assertTrue(types.containsAll(Set.of(PacketType.DATA, PacketType.ACK, PacketType.ABORT, PacketType.VERSION,
                PacketType.DEBUG)), "types sent: " + types);
        assertTrue(reasons.containsAll(Set.of(AckReason.PING, AckReason.PING_RESPONSE, AckReason.DUPLICATE,
                AckReason.EXCEEDS_WINDOW, AckReason.OUT_OF_SEQUENCE)), "ACK reasons sent: " + reasons);
    }

    /** Decodes one sent datagram (no jumbograms are sent in this test); the caller releases the packet. */
    private static RxPacket decodeOne(byte[] b) {
        List<RxPacket> out = new ArrayList<>();
        ByteBuf buf = Unpooled.wrappedBuffer(b);
        try {
            assertEquals(null, PacketDecoder.decode(buf, out));
        } finally {
            buf.release();
        }
        assertEquals(1, out.size(), "one packet per datagram");
        RxPacket p = out.get(0);
        if (p instanceof DataPacket d) {
            // Keep the payload alive past the wrapped buffer's release: copy it.
            RxPacket copy = new DataPacket(d.header(), Unpooled.copiedBuffer(d.payload()));
            d.release();
            return copy;
        }
        if (p instanceof AbortPacket) {
            return p;
        }
        return p;
    }
}
