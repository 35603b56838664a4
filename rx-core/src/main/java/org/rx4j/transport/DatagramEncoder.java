// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.Errors;
import io.netty.channel.unix.SegmentedDatagramPacket;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.ToIntFunction;
import org.rx4j.config.DebugReplies;
import org.rx4j.config.PacketSize;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.RxPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's {@link PacketSink} on the channel: encodes each packet (or jumbogram, rx-wire-facts.md §4) with
 * {@link PacketEncoder} into a pooled buffer and writes it as a {@link DatagramPacket} from its place in the
 * pipeline towards the socket. Writes are not flushed one by one: {@link #flushIfPending()} flushes once per
 * read burst, timer tick or loop iteration's handed-over tasks, except when the channel stops being writable,
 * which flushes at once so the outbound buffer cannot grow without bound.
 *
 * <p>With segmentation offload (epoll, docs/transport.md "Segmentation offload") consecutive datagrams to one
 * recipient and of one size are encoded back to back into one buffer ({@link SegmentRun}) and written as one
 * {@link SegmentedDatagramPacket}, which the kernel sends as those datagrams (UDP GSO): the run is cut when a
 * datagram differs, when it is full, and at the flush. A run of one is a plain datagram. When the kernel refuses a
 * GSO send (EIO: the device cannot checksum it; EINVAL: a segment larger than the path allows, or no GSO), its
 * datagrams are sent again one by one and the encoder stops using GSO on this socket; that is counted, not an error.
 *
 * <p>One instance per channel, loop-confined (not {@code @Sharable}); {@link PacketSink} methods may be called
 * only on the channel's event loop, after this handler was added. Owns the datagrams-sent, send-failure and
 * segmentation counters.
 *
 * <p>Ownership: the sink takes the engine's packets and releases them once encoded (also when encoding fails);
 * the encoded buffer goes to Netty with the write, which releases it once sent or failed. A run's buffer belongs to
 * the run until written (released by {@link #handlerRemoved} if the channel closes first); a GSO write holds one
 * more reference until its outcome is known, so that refused datagrams can be sent again.
 */
final class DatagramEncoder extends ChannelOutboundHandlerAdapter implements PacketSink {
    private static final Logger log = LoggerFactory.getLogger(DatagramEncoder.class);
    /** Linux errno values a refused GSO send fails with (asm-generic/errno-base.h). */
    private static final int EIO = 5;
    private static final int EINVAL = 22;

    private ChannelHandlerContext ctx;
    private boolean flushPending;
    private long datagramsSent;
    private long sendFailures;
    /** True while datagrams are gathered into GSO runs; false without offload and after the kernel refused one. */
    private boolean segmentation;
    /** The run being gathered; null when this channel has no segmentation offload. */
    private final SegmentRun run;
    private long segmentedSends;
    private long segmentationFallbacks;
    /** Told the size of each write, bytes (the loop's {@link IdleSpin}). */
    private final IntConsumer sizes;
    /** Told the size of each datagram written, bytes: a GSO run's segment size (the loop's {@link ReadsPerWakeup}). */
    private final IntConsumer datagramSizes;
    /** The MTU of the interface each peer is reached by, bytes, 0 = unknown: a snapshot of the interfaces. */
    private final ToIntFunction<InetAddress> routeMtus;
    /** The recipient {@link #segmentLimit} last looked up, and its answer. */
    private InetSocketAddress segmentLimitPeer;
    private int segmentLimit;
    /** One listener for every write (a capturing lambda per datagram would allocate on the send path). */
    private final ChannelFutureListener countSendFailure = f -> {
        if (!f.isSuccess()) {
            sendFailures++;
        }
    };

    /** An encoder that writes every datagram on its own (NIO, or offload switched off). */
    DatagramEncoder() {
        this(false);
    }

    /**
     * @param segmentationOffload true to gather runs for UDP GSO: only where the channel is epoll and
     *     {@link io.netty.channel.epoll.EpollDatagramChannel#isSegmentedDatagramPacketSupported()}
     */
    DatagramEncoder(boolean segmentationOffload) {
        this(segmentationOffload, new RouteMtus()::mtuFor);
    }

    /**
     * @param segmentationOffload as {@link #DatagramEncoder(boolean)}
     * @param routeMtus the MTU of the interface a peer's address is reached by, bytes (IP packet size), 0 = unknown
     */
    DatagramEncoder(boolean segmentationOffload, ToIntFunction<InetAddress> routeMtus) {
        this(segmentationOffload, routeMtus, bytes -> { }, bytes -> { });
    }

    /**
     * @param segmentationOffload as {@link #DatagramEncoder(boolean)}
     * @param routeMtus as {@link #DatagramEncoder(boolean, ToIntFunction)}
     * @param sizes told the UDP payload size of each write, bytes (a GSO run's whole buffer), on the loop (the loop's
     *     {@link IdleSpin})
     * @param datagramSizes told the UDP payload size of each datagram written, bytes (for a GSO run its segment size,
     *     once per run), on the loop (the loop's {@link ReadsPerWakeup})
     */
    DatagramEncoder(boolean segmentationOffload, ToIntFunction<InetAddress> routeMtus, IntConsumer sizes,
            IntConsumer datagramSizes) {
        this.sizes = sizes;
        this.datagramSizes = datagramSizes;
        this.segmentation = segmentationOffload;
        this.run = segmentationOffload ? new SegmentRun() : null;
        this.routeMtus = routeMtus;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** The receive buffer the kernel granted the socket, bytes (as asked, before its doubling); 0 until known. */
    private volatile int receiveBufferBytes;

    /** @param bytes the socket's receive buffer as granted, bytes; set once, before reading starts */
    void setReceiveBufferBytes(int bytes) {
        receiveBufferBytes = bytes;
    }

    /** @return the socket's receive buffer as granted, bytes, 0 = not known yet */
    @Override
    public int receiveBufferBytes() {
        return receiveBufferBytes;
    }

    /** @return the MTU of the local interface {@code peer} is reached by, bytes, 0 = unknown ({@link RouteMtus}) */
    @Override
    public int routeMtu(InetSocketAddress peer) {
        return peer.getAddress() == null ? 0 : routeMtus.applyAsInt(peer.getAddress());
    }

    /** Logs a warning naming the setting that would answer (the engine calls it rarely: see PacketSink). */
    @Override
    public void debugReplyWithheld(InetSocketAddress querier, DebugReplies policy, long withheld) {
        log.warn("no answer to an rxdebug query from {} ({} withheld so far): the debug-reply policy {} sends no "
                + "reply larger than three times its query to a non-loopback address; to answer, set it to ALWAYS "
                + "(rxperf: --debug-replies always; RxConfig.Builder.debugReplies)", querier, withheld, policy);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (run != null) {
            run.discard();
            run.releaseRing();
        }
    }

    /** @return true: every packet is encoded (into its own buffer or a GSO run's) before {@link #send} returns */
    @Override
    public boolean encodesOnSend() {
        return true;
    }

    @Override
    public void send(InetSocketAddress peer, RxPacket packet) {
        if (segmentation && sentInRun(peer, packet, null)) {
            return;
        }
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
        if (segmentation && sentInRun(peer, null, packets)) {
            return;
        }
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

    /**
     * Encodes one datagram (a packet, or a jumbogram's packets) into the run, when it may share a GSO send.
     *
     * <p>Ownership: when this returns true the packets were released (also when encoding failed and threw); when it
     * returns false nothing was touched and the caller encodes and releases them as without offload.
     *
     * @param packet the packet, or null for a jumbogram
     * @param jumbogram the jumbogram's packets when {@code packet} is null
     * @return true when the datagram went into the run
     */
    private boolean sentInRun(InetSocketAddress peer, RxPacket packet, List<DataPacket> jumbogram) {
        int length = packet != null ? PacketEncoder.encodedLength(packet) : PacketEncoder.jumbogramLength(jumbogram);
        ByteBuf target = runTarget(peer, length);
        if (target == null) {
            return false;
        }
        int mark = target.writerIndex();
        try {
            if (packet != null) {
                PacketEncoder.encode(packet, target);
            } else {
                PacketEncoder.encodeJumbogram(jumbogram, target);
            }
        } catch (RuntimeException e) {
            run.abandon(mark);
            throw e;
        } finally {
            if (packet != null) {
                packet.release();
            } else {
                for (DataPacket p : jumbogram) {
                    p.release();
                }
            }
        }
        appended(length);
        return true;
    }

    /**
     * Where a datagram of this length to this peer is encoded: at the end of the current run, or at the start of a
     * new one (the current run is written first when the datagram cannot join it).
     *
     * @return the run's buffer, or null when the datagram cannot share a GSO send (too large for two in one
     *     datagram's payload): it is then encoded and written on its own
     */
    private ByteBuf runTarget(InetSocketAddress peer, int length) {
        if (run.accepts(peer, length)) {
            return run.target();
        }
        writeRun();
        int most = length > segmentLimit(peer) ? 0 : SegmentRun.maxSegments(length, peer);
        return most < 2 ? null : run.start(ctx.alloc(), peer, length, most);
    }

    /**
     * The largest datagram to {@code peer} that may be a GSO segment, bytes. The kernel sends each segment as one IP
     * packet and never fragments it, so a segment larger than the route's interface carries (a jumbogram sent
     * fragmented on purpose, docs/engine.md "No IP fragments") would be refused or lost: such a datagram is written on
     * its own and the kernel fragments it. Looked up once per recipient change, not per datagram.
     *
     * @return bytes; {@link Integer#MAX_VALUE} when the route's MTU is unknown
     */
    private int segmentLimit(InetSocketAddress peer) {
        if (peer != segmentLimitPeer && !peer.equals(segmentLimitPeer)) {
            int mtu = routeMtu(peer);
            segmentLimit = mtu <= 0 ? Integer.MAX_VALUE
                    : PacketSize.udpPayload(mtu, peer.getAddress() instanceof Inet6Address);
            segmentLimitPeer = peer;
        }
        return segmentLimit;
    }

    /** Counts a datagram encoded into the run; writes the run as soon as nothing more can join it. */
    private void appended(int length) {
        run.appended(length);
        if (run.isFull()) {
            writeRun();
        }
    }

    /**
     * Writes the run, if any: one datagram as itself, more as one GSO send (or one by one once GSO was refused).
     * Loop only.
     */
    private void writeRun() {
        if (run == null || run.isEmpty()) {
            return;
        }
        int segments = run.segments();
        int segmentSize = run.segmentSize();
        InetSocketAddress peer = run.peer();
        ByteBuf buf = run.take();
        if (segments == 1) {
            write(buf, peer);
        } else if (!segmentation) {
            writeSegments(buf, segmentSize, peer);
        } else {
            datagramsSent += segments;
            segmentedSends++;
            sizes.accept(buf.readableBytes());
            datagramSizes.accept(segmentSize);
            // The extra reference outlives Netty's release of a failed write: refused datagrams are sent again.
            GsoOutcome outcome = new GsoOutcome(buf.retain(), segmentSize, peer, segments);
            ctx.write(new SegmentedDatagramPacket(buf, segmentSize, peer)).addListener(outcome);
            afterWrite();
        }
    }

    /**
     * Writes the datagrams of a run one by one, as slices of its buffer.
     *
     * <p>Ownership: takes one reference to {@code buf} and releases it; each slice holds its own until sent.
     */
    private void writeSegments(ByteBuf buf, int segmentSize, InetSocketAddress peer) {
        try {
            for (int at = buf.readerIndex(); at < buf.writerIndex(); at += segmentSize) {
                write(buf.retainedSlice(at, Math.min(segmentSize, buf.writerIndex() - at)), peer);
            }
        } finally {
            buf.release();
        }
    }

    private void write(ByteBuf buf, InetSocketAddress peer) {
        datagramsSent++;
        sizes.accept(buf.readableBytes());
        datagramSizes.accept(buf.readableBytes());
        ctx.write(new DatagramPacket(buf, peer)).addListener(countSendFailure);
        afterWrite();
    }

    private void afterWrite() {
        flushPending = true;
        if (!ctx.channel().isWritable()) {
            flushPending = false;
            ctx.flush();
        }
    }

    /**
     * @param cause why a GSO send failed
     * @return true when the kernel refused the offload itself (EIO, EINVAL) or Netty cannot send it, so the same
     *     datagrams sent one by one may pass; false for failures any datagram could meet
     */
    private static boolean isOffloadRefusal(Throwable cause) {
        if (cause instanceof UnsupportedOperationException) {
            return true;
        }
        return cause instanceof Errors.NativeIoException e
                && (e.expectedErr() == -EIO || e.expectedErr() == -EINVAL);
    }

    /** The outcome of one GSO write: releases the extra reference, or sends the datagrams again if refused. */
    private final class GsoOutcome implements ChannelFutureListener {
        private final ByteBuf buf;
        private final int segmentSize;
        private final InetSocketAddress peer;
        private final int segments;

        GsoOutcome(ByteBuf buf, int segmentSize, InetSocketAddress peer, int segments) {
            this.buf = buf;
            this.segmentSize = segmentSize;
            this.peer = peer;
            this.segments = segments;
        }

        @Override
        public void operationComplete(ChannelFuture f) {
            if (f.isSuccess()) {
                buf.release();
            } else if (isOffloadRefusal(f.cause()) && ctx.channel().isOpen()) {
                if (segmentation) {
                    segmentation = false;
                    log.info("rx4j: the kernel refused a UDP GSO send ({}); sending datagrams one by one on {}",
                            f.cause().getMessage(), ctx.channel().localAddress());
                }
                segmentationFallbacks++;
                datagramsSent -= segments; // counted again as each is written
                writeSegments(buf, segmentSize, peer);
                ctx.flush();
            } else {
                sendFailures += segments;
                buf.release();
            }
        }
    }

    /** Writes the run being gathered, then flushes the datagrams written since the last flush, if any. Loop only. */
    void flushIfPending() {
        writeRun();
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

    /** @return GSO sends written, each carrying 2..64 of the datagrams counted in {@link #datagramsSent} (loop only) */
    long segmentedSends() {
        return segmentedSends;
    }

    /** @return GSO sends the kernel refused, whose datagrams were then sent one by one (loop only) */
    long segmentationFallbacks() {
        return segmentationFallbacks;
    }

    /** @return true while runs are sent with GSO: offload asked for and not refused by the kernel (loop only) */
    boolean segmentation() {
        return segmentation;
    }
}
