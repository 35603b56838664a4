package org.rx4j.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.RxPacket;

/**
 * Decodes each received datagram (jumbograms split into sub-packets) and hands the packets to the
 * endpoint's engine; flushes the engine's output once per read burst. A malformed datagram is counted
 * and dropped; no exception leaves this handler (design.md "transport").
 *
 * <p>Ownership: the DatagramPacket is released by this handler after decoding (SimpleChannelInboundHandler);
 * decoded DATA packets hold their own retained slices, which pass to the engine (which keeps them even when it
 * throws).
 */
final class RxInboundHandler extends SimpleChannelInboundHandler<DatagramPacket> {
    /** Datagrams this much smaller than their buffer are copied, so a held packet does not pin a 64 KiB buffer. */
    private static final int COPY_RATIO = 4;

    private final RxTransport transport;
    private final List<RxPacket> packets = new ArrayList<>();

    RxInboundHandler(RxTransport transport) {
        super(DatagramPacket.class, true);
        this.transport = transport;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket msg) {
        ByteBuf content = msg.content();
        ByteBuf source = content;
        boolean copied = false;
        // A slice (recvmmsg batch) or a mostly empty receive buffer would be pinned by the packets the call holds.
        if (content.unwrap() != null || content.capacity() > COPY_RATIO * Math.max(content.readableBytes(), 512)) {
            source = ctx.alloc().buffer(content.readableBytes());
            source.writeBytes(content, content.readerIndex(), content.readableBytes());
            copied = true;
        }
        boolean handedOver = false;
        try {
            transport.datagramsReceived++;
            DecodeError error = PacketDecoder.decode(source, packets);
            if (error != null) {
                transport.malformed.count(error);
                return;
            }
            // From here the engine owns the packets, also when it throws (e.g. a failing listener).
            handedOver = true;
            transport.engine().onDatagram(transport.now(), msg.sender(), packets);
        } catch (RuntimeException e) {
            transport.malformed.handlerErrors++;
            if (!handedOver) {
                for (RxPacket p : packets) {
                    p.release();
                }
            }
        } finally {
            packets.clear();
            if (copied) {
                source.release();
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        transport.afterWork();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // ICMP port unreachable and similar socket errors: count, keep the receive loop running.
        transport.malformed.handlerErrors++;
    }
}
