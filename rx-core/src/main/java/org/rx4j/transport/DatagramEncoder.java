package org.rx4j.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.util.List;
import org.rx4j.engine.PacketSink;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.RxPacket;

/**
 * The engine's {@link PacketSink} on the channel: encodes each packet (or jumbogram, rx-wire-facts.md §4) with
 * {@link PacketEncoder} into a pooled buffer and writes it as a {@link DatagramPacket} from its place in the
 * pipeline towards the socket. Writes are not flushed one by one: {@link #flushIfPending()} flushes once per
 * read burst, timer tick or handed-over task, except when the channel stops being writable, which flushes at
 * once so the outbound buffer cannot grow without bound.
 *
 * <p>One instance per channel, loop-confined (not {@code @Sharable}); {@link PacketSink} methods may be called
 * only on the channel's event loop, after this handler was added. Owns the datagrams-sent and send-failure
 * counters.
 *
 * <p>Ownership: the sink takes the engine's packets and releases them once encoded (also when encoding fails);
 * the encoded buffer goes to Netty with the write, which releases it once sent or failed.
 */
final class DatagramEncoder extends ChannelOutboundHandlerAdapter implements PacketSink {
    private ChannelHandlerContext ctx;
    private boolean flushPending;
    private long datagramsSent;
    private long sendFailures;
    /** One listener for every write (a capturing lambda per datagram would allocate on the send path). */
    private final ChannelFutureListener countSendFailure = f -> {
        if (!f.isSuccess()) {
            sendFailures++;
        }
    };

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** The MTU of the interface each peer is reached by, from a snapshot of the interfaces. */
    private final RouteMtus routeMtus = new RouteMtus();

    /** @return the MTU of the local interface {@code peer} is reached by, bytes, 0 = unknown ({@link RouteMtus}) */
    @Override
    public int routeMtu(InetSocketAddress peer) {
        return peer.getAddress() == null ? 0 : routeMtus.mtuFor(peer.getAddress());
    }

    /** @return true: every packet is encoded into its own buffer before {@link #send} returns */
    @Override
    public boolean encodesOnSend() {
        return true;
    }

    @Override
    public void send(InetSocketAddress peer, RxPacket packet) {
        ByteBuf buf;
        try {
            buf = PacketEncoder.encode(packet, ctx.alloc());
        } finally {
            packet.release();
        }
        write(buf, peer);
    }

    @Override
    public void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets) {
        ByteBuf buf = null;
        try {
            buf = ctx.alloc().ioBuffer(PacketEncoder.jumbogramLength(packets));
            PacketEncoder.encodeJumbogram(packets, buf);
        } catch (RuntimeException e) {
            if (buf != null) {
                buf.release();
            }
            throw e;
        } finally {
            for (DataPacket p : packets) {
                p.release();
            }
        }
        write(buf, peer);
    }

    private void write(ByteBuf buf, InetSocketAddress peer) {
        datagramsSent++;
        ctx.write(new DatagramPacket(buf, peer)).addListener(countSendFailure);
        flushPending = true;
        if (!ctx.channel().isWritable()) {
            flushPending = false;
            ctx.flush();
        }
    }

    /** Flushes the datagrams written since the last flush, if any. Loop only. */
    void flushIfPending() {
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        }
    }

    /** @return datagrams handed to the channel since this handler was added (loop only) */
    long datagramsSent() {
        return datagramsSent;
    }

    /** @return datagram writes the channel reported as failed (loop only) */
    long sendFailures() {
        return sendFailures;
    }
}
