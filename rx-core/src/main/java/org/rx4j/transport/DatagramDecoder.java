// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.SegmentedDatagramPacket;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxPacket;

/**
 * First inbound handler: decodes each received {@link DatagramPacket} with {@link PacketDecoder} (a jumbogram
 * becomes its sub-packets, rx-wire-facts.md §4) and fires one {@link InboundDatagram} (the thread's reused flyweight) down the pipeline. A
 * malformed datagram is counted under its {@link DecodeError} reason and dropped (design.md "Hostile input");
 * nothing is fired for it and no exception leaves this handler. Other messages pass through untouched.
 *
 * <p>{@code @Sharable}: it keeps no per-channel state, only counters, so one instance may serve several channels
 * of one event loop; the counters then add up over all of them (the transport uses one instance per socket). The
 * counters are plain single-writer counters ({@link SingleWriterCounters}: no shared atomic per
 * datagram): only the loop that runs the channels writes them, any thread may read them.
 *
 * <p>Ownership: this handler releases every {@code DatagramPacket} it reads, decoded or dropped. DATA packets
 * in the fired {@link InboundDatagram} hold their own retained slices, which belong to the next handler. A
 * small DATA datagram in a large or shared receive buffer is first copied, so a packet the engine keeps does not
 * pin a 64 KiB (or, with recvmmsg, 512 KiB) buffer; other types are decoded in place (nothing keeps their bytes).
 *
 * <p>A UDP GRO read (several datagrams of one sender, each {@code segmentSize} bytes but the last) reaches this
 * handler already split: Netty 4.2's epoll channel fires one {@code DatagramPacket} per segment, each a slice of the
 * read. Should a {@link SegmentedDatagramPacket} arrive whole, it is split here, each segment counted, decoded and
 * fired as its own datagram (docs/transport.md "Segmentation offload"); decoded as one, its first packet would carry
 * the others as payload.
 */
@ChannelHandler.Sharable
final class DatagramDecoder extends ChannelInboundHandlerAdapter {
    /** Datagrams this much smaller than their buffer are copied, so a held packet does not pin the buffer. */
    private static final int COPY_RATIO = 4;
    /** Below this many bytes a datagram is never worth copying for the ratio alone. */
    private static final int COPY_FLOOR = 512;

    /** Slot 0: datagrams read. */
    private final SingleWriterCounters received = new SingleWriterCounters(1);
    private final MalformedCounters malformed = new MalformedCounters();
    /** Fired for each datagram that did not decode (loop only: the decoder serves one channel). */
    private final NotRxDatagram notRx = new NotRxDatagram();
    /** Told each datagram's size, bytes, as read (the loop's {@link IdleSpin}). */
    private final IntConsumer sizes;

    /** A decoder that reports datagram sizes to nobody. */
    DatagramDecoder() {
        this(bytes -> { });
    }

    /**
     * @param sizes told the UDP payload size of each datagram read, bytes, on the loop (the loop's
     *     {@link IdleSpin})
     */
    DatagramDecoder(IntConsumer sizes) {
        this.sizes = sizes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof DatagramPacket datagram)) {
            ctx.fireChannelRead(msg);
            return;
        }
        sizes.accept(datagram.content().readableBytes());
        if (datagram instanceof SegmentedDatagramPacket segmented && segmented.segmentSize() > 0) {
            try {
                readSegments(ctx, segmented);
            } finally {
                datagram.release();
            }
            return;
        }
        InboundDatagram decoded;
        try {
            received.increment(0);
            decoded = decode(ctx, datagram.content(), datagram.sender());
        } finally {
            datagram.release();
        }
        fire(ctx, decoded, datagram.sender());
    }

    /** Counts, decodes and fires each segment of a GRO read; the content's indices frame one segment at a time. */
    private void readSegments(ChannelHandlerContext ctx, SegmentedDatagramPacket segmented) {
        ByteBuf content = segmented.content();
        int end = content.writerIndex();
        int size = segmented.segmentSize();
        for (int at = content.readerIndex(); at < end; at += size) {
            content.setIndex(at, Math.min(end, at + size));
            received.increment(0);
            fire(ctx, decode(ctx, content, segmented.sender()), segmented.sender());
        }
    }

    /**
     * Fires a decoded datagram down the pipeline; for null (it did not decode, counted and dropped) the
     * {@link NotRxDatagram} event naming its sender.
     */
    private void fire(ChannelHandlerContext ctx, InboundDatagram decoded, InetSocketAddress sender) {
        if (decoded == null) {
            ctx.fireUserEventTriggered(notRx.from(sender));
            return;
        }
        decoded.inUse(true);
        try {
            ctx.fireChannelRead(decoded);
        } finally {
            decoded.inUse(false);
        }
    }

    /**
     * @param content one datagram's bytes (readable), not released here
     * @param sender who sent it
     * @return the decoded datagram, or null when it was counted and dropped; never throws a RuntimeException
     */
    private InboundDatagram decode(ChannelHandlerContext ctx, ByteBuf content, InetSocketAddress sender) {
        ByteBuf source = content;
        boolean copied = false;
        InboundDatagram decoded = InboundDatagram.acquire();
        List<RxPacket> packets = decoded.packets();
        try {
            if (content.readableBytes() < RxConstants.HEADER_SIZE) {
                // Shorter than a header (a quarter of a random-bytes flood): dropped before it is copied.
                malformed.count(DecodeError.TRUNCATED_HEADER);
                return null;
            }
            // A slice (recvmmsg batch) or a mostly empty receive buffer would be pinned by the packets a call holds.
            // Only DATA payloads outlive the decode (every other type is read into objects of its own), so nothing
            // else is copied: not the peer's ACKs, not a flood of garbage (docs/robustness.md "Flood").
            if (isData(content)
                    && (content.unwrap() != null
                        || content.capacity() > COPY_RATIO * Math.max(content.readableBytes(), COPY_FLOOR))) {
                source = ctx.alloc().buffer(content.readableBytes());
                copied = true;
                source.writeBytes(content, content.readerIndex(), content.readableBytes());
            }
            DecodeError error = PacketDecoder.decode(source, packets, decoded.flyweights());
            if (error != null) {
                malformed.count(error);
                return null;
            }
            decoded.sender(sender);
            return decoded;
        } catch (RuntimeException e) {
            malformed.countDecoderFailure();
            for (RxPacket p : packets) {
                p.release();
            }
            packets.clear();
            return null;
        } finally {
            if (copied) {
                source.release();
            }
        }
    }

    /** @return true when the datagram's header says DATA (its type byte, rx-wire-facts.md §3); at least a header */
    private static boolean isData(ByteBuf content) {
        return content.getUnsignedByte(content.readerIndex() + RxConstants.HEADER_TYPE_OFFSET) == PacketType.DATA;
    }

    /** @return datagrams read (well-formed or not) since this handler was created; any thread */
    long datagramsReceived() {
        return received.get(0);
    }

    /** @return datagrams dropped because they did not decode, every reason together, plus decoder failures */
    long malformedDatagrams() {
        return malformed.total();
    }

    /** @return datagrams the decoder itself threw on (counted in {@link #malformedDatagrams()} too) */
    long decoderFailures() {
        return malformed.decoderFailures();
    }

    /** @return malformed datagrams by reason, only reasons seen */
    Map<DecodeError, Long> malformedByReason() {
        return malformed.snapshot();
    }
}
