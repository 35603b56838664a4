// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.SegmentedDatagramPacket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * The datagram decoder alone in an {@code EmbeddedChannel}: well-formed datagrams come out as one
 * {@link InboundDatagram}, malformed ones are counted by reason and dropped, and every datagram read is released.
 */
@ExtendWith(LeakCheckExtension.class)
class DatagramDecoderTest {
    private static DatagramPacket datagram(ByteBuf content) {
        return new DatagramPacket(content, EngineChannel.LOCAL, EngineChannel.PEER);
    }

    /** Writes {@code content} in as a datagram; asserts nothing came out and the datagram was released. */
    private static void assertDropped(EmbeddedChannel ch, ByteBuf content) {
        assertFalse(ch.writeInbound(datagram(content)), "a malformed datagram fires nothing");
        assertEquals(0, content.refCnt(), "the dropped datagram was released");
    }

    @Test
    void malformedDatagramsAreCountedByReasonReleasedAndDropped() {
        DatagramDecoder decoder = new DatagramDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        assertDropped(ch, Unpooled.buffer(10).writeZero(10));
        // An ACK whose nAcks (200) is longer than its body.
        byte[] ack = new byte[28 + 18];
        ack[20] = (byte) PacketType.ACK;
        ack[21] = (byte) PacketFlags.CLIENT_INITIATED;
        ack[28 + 17] = (byte) 200;
        assertDropped(ch, Unpooled.copiedBuffer(ack));
        // A jumbogram cut short: JUMBO_PACKET set, no room for the next sub-packet's header.
        byte[] jumbo = new byte[28 + 1000];
        jumbo[20] = (byte) PacketType.DATA;
        jumbo[21] = (byte) (PacketFlags.CLIENT_INITIATED | PacketFlags.JUMBO_PACKET);
        assertDropped(ch, Unpooled.copiedBuffer(jumbo));

        assertEquals(3, decoder.datagramsReceived());
        assertEquals(3, decoder.malformedDatagrams());
        Map<DecodeError, Long> byReason = decoder.malformedByReason();
        assertEquals(1L, byReason.get(DecodeError.TRUNCATED_HEADER), byReason.toString());
        assertEquals(1L, byReason.get(DecodeError.TRUNCATED_JUMBOGRAM), byReason.toString());
        assertEquals(1L, byReason.getOrDefault(DecodeError.BAD_ACK_COUNT, 0L)
                + byReason.getOrDefault(DecodeError.TRUNCATED_ACK, 0L), byReason.toString());
        assertEquals(0, decoder.decoderFailures());
        assertFalse(ch.finish());
    }

    @Test
    void aWellFormedDatagramBecomesOneInboundDatagramAndItsBufferIsReleased() {
        DatagramDecoder decoder = new DatagramDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        RxHeader h = new RxHeader(0x80000001, 0x100, 1, 1, 1, PacketType.DATA,
                PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, 147);
        ByteBuf content = PacketEncoder.encode(new DataPacket(h, Unpooled.wrappedBuffer(new byte[] {7, 8})),
                UnpooledByteBufAllocator.DEFAULT);
        assertTrue(ch.writeInbound(datagram(content)));
        InboundDatagram d = ch.readInbound();
        assertNull(ch.readInbound(), "one datagram, one hand-off");
        assertEquals(EngineChannel.PEER, d.sender());
        assertEquals(1, d.packets().size());
        DataPacket p = (DataPacket) d.packets().get(0);
        assertEquals(h, p.header());
        assertEquals(2, p.payload().readableBytes());
        assertEquals(7, p.payload().getByte(p.payload().readerIndex()));
        d.release();
        assertEquals(0, content.refCnt(), "the datagram is released once its packets are");
        assertEquals(1, decoder.datagramsReceived());
        assertEquals(0, decoder.malformedDatagrams());
        assertFalse(ch.finish());
    }

    /** Counts the buffers the decoder allocates (its copies); they are unpooled heap buffers. */
    private static final class CountingAllocator extends AbstractByteBufAllocator {
        int allocated;

        CountingAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            allocated++;
            return UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            allocated++;
            return UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    /** {@code bytes} at the start of a 64 KiB receive buffer, as a datagram socket reads it. */
    private static ByteBuf inReceiveBuffer(byte[] bytes) {
        return Unpooled.buffer(RxTransport.RECEIVE_BUFFER).writeBytes(bytes);
    }

    /**
     * docs/robustness.md "Flood": only a DATA datagram is copied out of a large receive buffer (its payload outlives
     * the decode); an ACK and a datagram of an unknown type are decoded where they lie, so a flood of them allocates
     * nothing here.
     */
    @Test
    void onlyDataIsCopiedOutOfALargeReceiveBuffer() {
        DatagramDecoder decoder = new DatagramDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        CountingAllocator alloc = new CountingAllocator();
        ch.config().setAllocator(alloc);

        byte[] ack = new byte[28 + 18]; // a well-formed ACK with no soft-ack bytes and no trailer
        ack[20] = (byte) PacketType.ACK;
        ack[21] = (byte) PacketFlags.CLIENT_INITIATED;
        ByteBuf ackBuffer = inReceiveBuffer(ack);
        assertTrue(ch.writeInbound(datagram(ackBuffer)));
        InboundDatagram d = ch.readInbound();
        assertEquals(PacketType.ACK, d.packets().get(0).header().type());
        d.release();
        assertEquals(0, alloc.allocated, "an ACK is decoded in place");
        assertEquals(0, ackBuffer.refCnt());

        byte[] unknown = new byte[28 + 40];
        unknown[20] = (byte) 200;
        ByteBuf unknownBuffer = inReceiveBuffer(unknown);
        assertTrue(ch.writeInbound(datagram(unknownBuffer)));
        d = ch.readInbound();
        assertEquals(200, d.packets().get(0).header().type());
        d.release();
        assertEquals(0, alloc.allocated, "a packet of an unknown type is decoded in place");

        RxHeader h = new RxHeader(0x80000001, 0x100, 1, 1, 1, PacketType.DATA,
                PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, 147);
        ByteBuf encoded = PacketEncoder.encode(new DataPacket(h, Unpooled.wrappedBuffer(new byte[] {7, 8})),
                UnpooledByteBufAllocator.DEFAULT);
        byte[] data = new byte[encoded.readableBytes()];
        encoded.readBytes(data).release();
        ByteBuf dataBuffer = inReceiveBuffer(data);
        assertTrue(ch.writeInbound(datagram(dataBuffer)));
        d = ch.readInbound();
        assertEquals(1, alloc.allocated, "a DATA datagram is copied out of the receive buffer");
        assertEquals(0, dataBuffer.refCnt(), "its payload does not pin the receive buffer");
        DataPacket p = (DataPacket) d.packets().get(0);
        assertEquals(8, p.payload().getByte(p.payload().readerIndex() + 1));
        d.release();
        assertFalse(ch.finish());
    }

    /** No allocation per datagram: the hand-off and its DATA packet are the loop's reused objects, each time. */
    @Test
    void aSecondDatagramOnTheSameLoopReusesTheHandOffAndItsPacketObjects() {
        DatagramDecoder decoder = new DatagramDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        InboundDatagram[] hand = new InboundDatagram[2];
        DataPacket[] packet = new DataPacket[2];
        for (int i = 0; i < 2; i++) {
            RxHeader h = new RxHeader(0x80000001, 0x100, 1, 1 + i, 1 + i, PacketType.DATA,
                    PacketFlags.CLIENT_INITIATED, 0, 0, 0, 147);
            ByteBuf content = PacketEncoder.encode(new DataPacket(h, Unpooled.wrappedBuffer(new byte[] {(byte) i})),
                    UnpooledByteBufAllocator.DEFAULT);
            assertTrue(ch.writeInbound(datagram(content)));
            hand[i] = ch.readInbound();
            packet[i] = (DataPacket) hand[i].packets().get(0);
            assertEquals(h, packet[i].header(), "datagram " + i + "'s own fields");
            assertEquals(i, packet[i].payload().getByte(packet[i].payload().readerIndex()));
            hand[i].release();
        }
        assertSame(hand[0], hand[1], "one InboundDatagram per loop");
        assertSame(packet[0], packet[1], "one DATA packet object per loop and position");
        assertSame(packet[0].header(), packet[1].header());
        assertFalse(ch.finish());
    }

    @Test
    void otherMessagesPassThroughUntouched() {
        EmbeddedChannel ch = new EmbeddedChannel(new DatagramDecoder());
        ByteBuf other = Unpooled.buffer(1).writeByte(1);
        assertTrue(ch.writeInbound(other));
        assertSame(other, ch.readInbound());
        assertEquals(1, other.refCnt());
        other.release();
        assertFalse(ch.finish());
    }

    @Test
    void oneSharableDecoderServesSeveralChannelsAndAddsUpTheirCounts() {
        DatagramDecoder decoder = new DatagramDecoder();
        EmbeddedChannel a = new EmbeddedChannel(decoder);
        EmbeddedChannel b = new EmbeddedChannel(decoder);
        assertDropped(a, Unpooled.buffer(3).writeZero(3));
        assertDropped(b, Unpooled.buffer(3).writeZero(3));
        assertEquals(2, decoder.malformedByReason().get(DecodeError.TRUNCATED_HEADER));
        assertFalse(a.finish());
        assertFalse(b.finish());
    }

    @Test
    void aGroReadIsSplitIntoItsDatagramsEachCountedAndCheckedAlone() {
        DatagramDecoder decoder = new DatagramDecoder();
        List<Integer> seqs = new ArrayList<>();
        List<Integer> payloads = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(decoder, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                InboundDatagram d = (InboundDatagram) msg; // the flyweight: read it here, before the next one
                for (RxPacket p : d.packets()) {
                    seqs.add(p.header().seq());
                    payloads.add(((DataPacket) p).payload().readableBytes());
                }
                d.release();
            }
        });
        // Four 128-byte segments as one GRO read: DATA 1, a jumbogram cut short, DATA 3, and DATA 4 shorter.
        ByteBuf read = Unpooled.directBuffer(4 * 128);
        writeData(read, 1, 100);
        byte[] cutJumbogram = new byte[128];
        cutJumbogram[20] = (byte) PacketType.DATA;
        cutJumbogram[21] = (byte) (PacketFlags.CLIENT_INITIATED | PacketFlags.JUMBO_PACKET);
        read.writeBytes(cutJumbogram);
        writeData(read, 3, 100);
        writeData(read, 4, 40);
        assertFalse(ch.writeInbound(new SegmentedDatagramPacket(read, 128, EngineChannel.LOCAL, EngineChannel.PEER)));
        assertEquals(List.of(1, 3, 4), seqs, "one hand-off per segment, in order; the bad one dropped");
        assertEquals(List.of(100, 100, 40), payloads, "no packet runs into the next segment");
        assertEquals(4, decoder.datagramsReceived(), "each segment counts as a datagram");
        assertEquals(Map.of(DecodeError.TRUNCATED_JUMBOGRAM, 1L), decoder.malformedByReason(),
                "the bad segment is counted alone");
        assertEquals(0, read.refCnt(), "the read is released once its packets are");
        assertFalse(ch.finish());
    }

    private static void writeData(ByteBuf out, int seq, int payloadBytes) {
        RxHeader h = new RxHeader(0x80000001, 0x100, 1, seq, seq, PacketType.DATA, PacketFlags.CLIENT_INITIATED, 0, 0,
                0, 147);
        DataPacket p = new DataPacket(h, Unpooled.buffer(payloadBytes).writeZero(payloadBytes));
        PacketEncoder.encode(p, out);
        p.release();
    }
}
