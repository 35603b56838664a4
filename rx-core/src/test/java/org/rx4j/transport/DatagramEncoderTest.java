// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import io.netty.channel.unix.SegmentedDatagramPacket;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * The encoder side in an {@code EmbeddedChannel}: packets become datagrams to the peer, written but not flushed
 * until the unit of work ends, and the engine's packets are released once encoded.
 */
@ExtendWith(LeakCheckExtension.class)
class DatagramEncoderTest {
    /**
     * The refused-GSO tests build Netty's {@link Errors.NativeIoException}, whose class reads errno constants from the
     * epoll native library: load it here, or those tests pass only after another test class has loaded it.
     */
    @BeforeAll
    static void loadTheNativeTransport() {
        Epoll.ensureAvailability();
    }

    /** Counts flushes passing towards the socket. */
    private static final class FlushCounter extends ChannelOutboundHandlerAdapter {
        int flushes;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes++;
            ctx.flush();
        }
    }

    private static DataPacket data(int seq, int flags, int payloadBytes) {
        RxHeader h = new RxHeader(0x80000001, 0x100, 1, seq, seq, PacketType.DATA,
                PacketFlags.CLIENT_INITIATED | flags, 0, 0, 0, 147);
        return new DataPacket(h, Unpooled.buffer(payloadBytes).writeZero(payloadBytes));
    }

    @Test
    void writesAreFlushedOncePerUnitOfWork() {
        FlushCounter counter = new FlushCounter();
        DatagramEncoder encoder = new DatagramEncoder();
        EmbeddedChannel ch = new EmbeddedChannel(counter, encoder);
        DataPacket a = data(1, 0, 10);
        DataPacket b = data(2, PacketFlags.LAST_PACKET, 5);
        encoder.send(EngineChannel.PEER, a);
        encoder.send(EngineChannel.PEER, b);
        assertEquals(0, a.payload().refCnt(), "the sink released the engine's packet once encoded");
        assertEquals(0, b.payload().refCnt());
        assertNull(ch.readOutbound(), "nothing is flushed before the work ends");
        encoder.flushIfPending();
        encoder.flushIfPending();
        assertEquals(1, counter.flushes, "two datagrams, one flush; nothing pending, no flush");
        assertEquals(2, encoder.datagramsSent());
        List<Integer> seqs = new ArrayList<>();
        DatagramPacket d;
        while ((d = ch.readOutbound()) != null) {
            assertEquals(EngineChannel.PEER, d.recipient());
            List<RxPacket> packets = new ArrayList<>();
            assertNull(PacketDecoder.decode(d.content(), packets));
            for (RxPacket p : packets) {
                seqs.add(p.header().seq());
                p.release();
            }
            d.release();
        }
        assertEquals(List.of(1, 2), seqs);
        assertEquals(0, encoder.sendFailures());
        assertFalse(ch.finish());
    }

    @Test
    void aJumbogramIsOneDatagram() {
        DatagramEncoder encoder = new DatagramEncoder();
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        List<DataPacket> jumbo = List.of(data(1, 0, 1412), data(2, PacketFlags.LAST_PACKET, 100));
        encoder.sendJumbogram(EngineChannel.PEER, jumbo);
        encoder.flushIfPending();
        DatagramPacket d = ch.readOutbound();
        assertNull(ch.readOutbound());
        List<RxPacket> packets = new ArrayList<>();
        assertNull(PacketDecoder.decode(d.content(), packets));
        assertEquals(2, packets.size());
        assertEquals(2, packets.get(1).header().seq());
        packets.forEach(RxPacket::release);
        d.release();
        assertEquals(1, encoder.datagramsSent());
        assertFalse(ch.finish());
    }

    /** Fails every GSO write with {@code cause}, as a kernel refusing it would; passes other writes on. */
    private static final class GsoRefuser extends ChannelOutboundHandlerAdapter {
        private final Throwable cause;

        GsoRefuser(Throwable cause) {
            this.cause = cause;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof SegmentedDatagramPacket) {
                ReferenceCountUtil.release(msg);
                promise.setFailure(cause);
            } else {
                ctx.write(msg, promise);
            }
        }
    }

    /** @return the sequence numbers in one written datagram's content (decoded, then released) */
    private static List<Integer> seqsOf(ByteBuf content) {
        List<RxPacket> packets = new ArrayList<>();
        assertNull(PacketDecoder.decode(content, packets));
        List<Integer> seqs = new ArrayList<>();
        for (RxPacket p : packets) {
            seqs.add(p.header().seq());
            p.release();
        }
        return seqs;
    }

    @Test
    void equalDatagramsToOnePeerLeaveAsOneGsoSendCutByPeerAndSize() {
        DatagramEncoder encoder = new DatagramEncoder(true);
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        for (int seq = 1; seq <= 4; seq++) {
            encoder.send(EngineChannel.PEER, data(seq, 0, 1416));
        }
        encoder.send(EngineChannel.PEER, data(5, 0, 300)); // shorter: ends the run as its last segment
        encoder.send(EngineChannel.PEER, data(6, 0, 1416));
        encoder.send(EngineChannel.LOCAL, data(7, 0, 1416)); // another peer: cuts the run
        assertNull(ch.readOutbound(), "written, not flushed: the last run is still gathering");
        encoder.flushIfPending();
        SegmentedDatagramPacket run = ch.readOutbound();
        assertEquals(1444, run.segmentSize());
        assertEquals(EngineChannel.PEER, run.recipient());
        ByteBuf content = run.content();
        assertEquals(4 * 1444 + 328, content.readableBytes());
        for (int i = 0; i < 5; i++) {
            int at = content.readerIndex() + i * 1444;
            assertEquals(List.of(i + 1), seqsOf(content.slice(at, Math.min(1444, content.writerIndex() - at))));
        }
        run.release();
        DatagramPacket sixth = ch.readOutbound();
        assertFalse(sixth instanceof SegmentedDatagramPacket, "a run of one is a plain datagram");
        assertEquals(List.of(6), seqsOf(sixth.content()));
        sixth.release();
        DatagramPacket seventh = ch.readOutbound();
        assertEquals(EngineChannel.LOCAL, seventh.recipient());
        seventh.release();
        assertNull(ch.readOutbound());
        assertEquals(7, encoder.datagramsSent(), "each segment counts as a datagram");
        assertEquals(1, encoder.segmentedSends());
        assertFalse(ch.finish());
    }

    @Test
    void aGsoRunOfSmallDatagramsReportsItsSegmentSizeNotItsBuffer() {
        List<Integer> writes = new ArrayList<>();
        List<Integer> datagrams = new ArrayList<>();
        DatagramEncoder encoder = new DatagramEncoder(true, address -> 0, writes::add, datagrams::add);
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        for (int seq = 1; seq <= 20; seq++) {
            encoder.send(EngineChannel.PEER, data(seq, 0, 100)); // 20 short messages to one peer: one GSO run
        }
        encoder.flushIfPending();
        SegmentedDatagramPacket run = ch.readOutbound();
        run.release();
        assertEquals(List.of(20 * 128), writes, "IdleSpin hears the whole buffer");
        assertEquals(List.of(128), datagrams, "ReadsPerWakeup hears one datagram's size");
        ReadsPerWakeup reads = new ReadsPerWakeup();
        datagrams.forEach(reads::written);
        assertFalse(reads.readOn(), "short messages in one run are not a transfer's DATA");
        encoder.send(EngineChannel.PEER, data(21, 0, 1416));
        encoder.flushIfPending();
        DatagramPacket one = ch.readOutbound();
        one.release();
        assertEquals(1444, datagrams.get(datagrams.size() - 1), "a datagram alone reports its own size");
        assertFalse(ch.finish());
    }

    @Test
    void aRunIsWrittenWhenFullAndLargeDatagramsAreNeverHeld() {
        DatagramEncoder encoder = new DatagramEncoder(true);
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        for (int seq = 1; seq <= 46; seq++) {
            encoder.send(EngineChannel.PEER, data(seq, 0, 1416));
        }
        encoder.send(EngineChannel.PEER, data(47, 0, 40_000));
        encoder.flushIfPending();
        SegmentedDatagramPacket full = ch.readOutbound();
        assertEquals(45 * 1444, full.content().readableBytes(), "45 segments: 64,980 of 65,507 bytes");
        full.release();
        DatagramPacket alone = ch.readOutbound();
        assertEquals(List.of(46), seqsOf(alone.content()), "the 46th started the next run, alone");
        alone.release();
        DatagramPacket large = ch.readOutbound();
        assertEquals(40_028, large.content().readableBytes(), "too large to share a send: written on its own");
        large.release();
        assertNull(ch.readOutbound());
        assertFalse(ch.finish());
    }

    @Test
    void aDatagramLargerThanTheRouteCarriesIsNeverAGsoSegment() {
        // On a 1500-byte route a 5,692-byte datagram (a jumbogram sent fragmented on purpose) cannot be a segment:
        // the kernel sends segments unfragmented, so it would be lost. It leaves on its own; 1,444-byte ones batch.
        DatagramEncoder encoder = new DatagramEncoder(true, address -> 1500);
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        for (int seq = 1; seq <= 3; seq++) {
            encoder.send(EngineChannel.PEER, data(seq, 0, 5664));
        }
        for (int seq = 4; seq <= 6; seq++) {
            encoder.send(EngineChannel.PEER, data(seq, 0, 1416));
        }
        encoder.flushIfPending();
        for (int seq = 1; seq <= 3; seq++) {
            DatagramPacket alone = ch.readOutbound();
            assertFalse(alone instanceof SegmentedDatagramPacket, "datagram " + seq + " is larger than 1,472 bytes");
            assertEquals(5692, alone.content().readableBytes());
            alone.release();
        }
        SegmentedDatagramPacket run = ch.readOutbound();
        assertEquals(1444, run.segmentSize());
        assertEquals(3 * 1444, run.content().readableBytes());
        run.release();
        assertNull(ch.readOutbound());
        assertEquals(1, encoder.segmentedSends());
        assertFalse(ch.finish());
    }

    @Test
    void aRefusedGsoSendIsSentAgainDatagramByDatagramAndGsoStops() {
        DatagramEncoder encoder = new DatagramEncoder(true);
        EmbeddedChannel ch = new EmbeddedChannel(new GsoRefuser(new Errors.NativeIoException("sendmmsg", -5)),
                encoder);
        for (int seq = 1; seq <= 3; seq++) {
            encoder.send(EngineChannel.PEER, data(seq, 0, 1416));
        }
        encoder.flushIfPending();
        List<Integer> seqs = new ArrayList<>();
        DatagramPacket d;
        while ((d = ch.readOutbound()) != null) {
            assertFalse(d instanceof SegmentedDatagramPacket);
            seqs.addAll(seqsOf(d.content()));
            d.release();
        }
        assertEquals(List.of(1, 2, 3), seqs, "the refused datagrams, one by one, in order");
        assertEquals(1, encoder.segmentationFallbacks());
        assertEquals(3, encoder.datagramsSent(), "counted once each");
        assertEquals(0, encoder.sendFailures());
        assertFalse(encoder.segmentation(), "no GSO on this socket any more");
        encoder.send(EngineChannel.PEER, data(4, 0, 1416));
        encoder.send(EngineChannel.PEER, data(5, 0, 1416));
        encoder.flushIfPending();
        for (int seq = 4; seq <= 5; seq++) {
            DatagramPacket plain = ch.readOutbound();
            assertEquals(List.of(seq), seqsOf(plain.content()));
            plain.release();
        }
        assertEquals(1, encoder.segmentedSends());
        assertFalse(ch.finish());
    }

    @Test
    void anotherFailureOfAGsoSendIsASendFailureOfEachDatagram() {
        DatagramEncoder encoder = new DatagramEncoder(true);
        EmbeddedChannel ch = new EmbeddedChannel(new GsoRefuser(new Errors.NativeIoException("sendmmsg", -105)),
                encoder); // ENOBUFS: any datagram could meet it
        for (int seq = 1; seq <= 3; seq++) {
            encoder.send(EngineChannel.PEER, data(seq, 0, 1416));
        }
        encoder.flushIfPending();
        assertNull(ch.readOutbound());
        assertEquals(3, encoder.sendFailures());
        assertEquals(0, encoder.segmentationFallbacks());
        assertTrue(encoder.segmentation(), "GSO stays on");
        assertFalse(ch.finish());
    }

    @Test
    void aRunStillGatheringWhenTheChannelClosesIsReleased() {
        DatagramEncoder encoder = new DatagramEncoder(true);
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        DataPacket p = data(1, 0, 1416);
        encoder.send(EngineChannel.PEER, p);
        assertEquals(0, p.payload().refCnt(), "the engine's packet is released once encoded into the run");
        assertFalse(ch.finish(), "closing the channel removes the encoder, which releases the run");
    }
}
