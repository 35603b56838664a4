// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;

/**
 * Encodes Rx packets into datagrams (see rx-wire-facts.md §1-§4, §9). Stateless.
 *
 * <p>Sends strictly: every pad byte, the ACK tail padding and the jumbo header's spare byte are
 * written as zero whatever a decoded packet saw there.
 */
public final class PacketEncoder {
    private PacketEncoder() {
    }

    /**
     * @param packet any packet
     * @return the datagram length it encodes to: 28 + body bytes
     */
    public static int encodedLength(RxPacket packet) {
        return RxConstants.HEADER_SIZE + packet.bodyLength();
    }

    /**
     * Encodes one packet into a new buffer from {@code alloc}.
     *
     * <p>Ownership: the packet is not released (a DATA payload's readable bytes are copied without
     * being consumed); the caller owns the returned buffer.
     *
     * @param packet the packet; a DATA packet must not carry JUMBO_PACKET (use {@link #encodeJumbogram})
     * @param alloc allocator for the datagram buffer
     * @return a buffer holding exactly the datagram
     * @throws IllegalArgumentException for a lone DATA packet with JUMBO_PACKET set
     */
    public static ByteBuf encode(RxPacket packet, ByteBufAllocator alloc) {
        ByteBuf out = alloc.ioBuffer(encodedLength(packet));
        boolean ok = false;
        try {
            encode(packet, out);
            ok = true;
            return out;
        } finally {
            if (!ok) {
                out.release();
            }
        }
    }

    /**
     * Appends one packet (header and body) at {@code out}'s writer index.
     *
     * @param packet the packet; not released
     * @param out destination; not released
     * @throws IllegalArgumentException for a lone DATA packet with JUMBO_PACKET set
     */
    public static void encode(RxPacket packet, ByteBuf out) {
        packet.header().write(out);
        if (packet instanceof DataPacket d) {
            if (d.header().hasFlag(PacketFlags.JUMBO_PACKET)) {
                throw new IllegalArgumentException("JUMBO_PACKET on a lone DATA packet: " + d.header());
            }
            ByteBuf p = d.payload();
            out.writeBytes(p, p.readerIndex(), p.readableBytes());
        } else if (packet instanceof AckPacket a) {
            writeAckBody(a, out);
        } else if (packet instanceof AbortPacket a) {
            out.writeInt(a.code());
            out.writeZero(a.extraBytes());
        } else if (packet instanceof DebugRequest d) {
            out.writeInt(d.debugType());
            out.writeInt(d.index());
            out.writeZero(d.extraBytes());
        } else if (packet instanceof DebugReply d) {
            out.writeBytes(d.body());
        } else if (packet instanceof VersionPacket v) {
            out.writeBytes(v.body());
        } else if (packet instanceof ControlPacket c) {
            out.writeBytes(c.body());
        }
    }

    private static void writeAckBody(AckPacket a, ByteBuf out) {
        out.writeShort(a.bufferSpace());
        out.writeShort(a.maxSkew());
        out.writeInt(a.firstPacket());
        out.writeInt(a.previousPacket());
        out.writeInt(a.serial());
        out.writeByte(a.reason());
        out.writeByte(a.acks().length);
        out.writeBytes(a.acks());
        int words = a.trailerWords();
        if (words > 0) {
            out.writeZero(RxConstants.ACK_PAD_SIZE);
            out.writeInt(a.maxMTU());
            out.writeInt(a.ifMTU());
            if (words >= 3) {
                out.writeInt(a.rwind());
            }
            if (words >= 4) {
                out.writeInt(a.maxDgramPackets());
            }
        }
        out.writeZero(a.tailBytes());
    }

    /**
     * Length of the jumbogram that {@link #encodeJumbogram} builds.
     *
     * @param packets 1..{@link RxConstants#MAX_JUMBO_PACKETS} DATA packets
     * @return 28 + (k-1)·1416 + the last payload's length, bytes
     */
    public static int jumbogramLength(List<DataPacket> packets) {
        int k = packets.size();
        return RxConstants.HEADER_SIZE + (k - 1) * RxConstants.JUMBO_STRIDE
                + packets.get(k - 1).payload().readableBytes();
    }

    /**
     * Joins DATA packets of one call into one jumbogram datagram (§4): the first packet's header, then
     * each payload, with a 4-byte jumbo header (flags, 0, spare) before every sub-packet after the first.
     * JUMBO_PACKET is set on every sub-packet but the last and cleared on the last. A single packet
     * encodes as a plain DATA packet.
     *
     * <p>Ownership: the packets are not released and their payloads are not consumed.
     *
     * @param packets 1..{@link RxConstants#MAX_JUMBO_PACKETS} DATA packets with consecutive seq and serial;
     *     every payload but the last exactly 1412 bytes, and no LAST_PACKET before the last; the datagram
     *     (see {@link #jumbogramLength}) at most {@link RxConstants#MAX_DATAGRAM_SIZE} bytes
     * @param out destination; not released
     * @throws IllegalArgumentException if the packets break any of those rules
     */
    public static void encodeJumbogram(List<DataPacket> packets, ByteBuf out) {
        int k = packets.size();
        if (k < 1 || k > RxConstants.MAX_JUMBO_PACKETS) {
            throw new IllegalArgumentException("jumbogram needs 1.." + RxConstants.MAX_JUMBO_PACKETS
                    + " packets: " + k);
        }
        if (jumbogramLength(packets) > RxConstants.MAX_DATAGRAM_SIZE) {
            throw new IllegalArgumentException("jumbogram longer than " + RxConstants.MAX_DATAGRAM_SIZE + " bytes");
        }
        RxHeader first = packets.get(0).header();
        for (int i = 0; i < k; i++) {
            DataPacket p = packets.get(i);
            RxHeader h = p.header();
            boolean last = i == k - 1;
            if (h.seq() != first.seq() + i || h.serial() != first.serial() + i) {
                throw new IllegalArgumentException("seq/serial not consecutive at sub-packet " + i);
            }
            if (!last && p.payload().readableBytes() != RxConstants.JUMBO_BUFFER_SIZE) {
                throw new IllegalArgumentException("non-final sub-packet must hold exactly 1412 bytes");
            }
            if (!last && h.hasFlag(PacketFlags.LAST_PACKET)) {
                throw new IllegalArgumentException("LAST_PACKET before the final sub-packet");
            }
            int flags = last ? h.flags() & ~PacketFlags.JUMBO_PACKET : h.flags() | PacketFlags.JUMBO_PACKET;
            if (i == 0) {
                first.withFlags(flags).write(out);
            } else {
                out.writeByte(flags);
                out.writeByte(0);
                out.writeShort(h.spare());
            }
            ByteBuf payload = p.payload();
            out.writeBytes(payload, payload.readerIndex(), payload.readableBytes());
        }
    }
}
