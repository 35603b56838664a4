package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import java.util.ArrayList;
import java.util.List;
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
}
