// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * Decodes one UDP datagram into Rx packets (see rx-wire-facts.md §1-§4, §9 and §13). Stateless.
 *
 * <p>Receives leniently: pad bytes, the jumbo header's spare byte and bytes beyond the fields a body
 * needs are accepted whatever their value. Never throws for any input, never reads past the
 * datagram, and never allocates more than the datagram's own size.
 */
public final class PacketDecoder {
    /** The soft-ack array of every decoded ACK with nAcks 0 (never written to). */
    private static final byte[] NO_ACKS = new byte[0];

    private PacketDecoder() {
    }

    /**
     * Decodes a datagram. A jumbogram yields one {@link DataPacket} per sub-packet, with seq and
     * serial rising by one per sub-packet and flags and spare taken from each jumbo header (§4).
     * A packet of an unknown type decodes as a {@link ControlPacket}; it is not an error (§2).
     *
     * <p>Ownership: {@code datagram} is neither released nor moved (its indexes are untouched); every
     * {@link DataPacket} appended holds its own retained slice of it, which the receiver of {@code out}
     * must release. On error nothing is appended.
     *
     * @param datagram the UDP payload, readable bytes = the datagram
     * @param out where the decoded packets are appended, in wire order
     * @return {@code null} on success, otherwise the reason the datagram is malformed
     */
    public static DecodeError decode(ByteBuf datagram, List<RxPacket> out) {
        return decode(datagram, out, null);
    }

    /**
     * As {@link #decode(ByteBuf, List)}, but DATA and ACK packets (and their headers and soft-ack arrays) are the
     * reused objects of {@code reuse} (nothing allocated per DATA or ACK packet but a DATA
     * payload's retained slice). They stay valid until the next decode with the same {@code reuse}; the receiver
     * of {@code out} owns each DATA payload reference as before but must not keep the packet objects. Other
     * packet types are new objects. Wire meaning and errors are exactly those of {@link #decode(ByteBuf, List)}.
     *
     * @param datagram the UDP payload, readable bytes = the datagram; neither released nor moved
     * @param out where the decoded packets are appended, in wire order
     * @param reuse the reused packets, or null for new objects (then the same as {@link #decode(ByteBuf, List)})
     * @return {@code null} on success, otherwise the reason the datagram is malformed
     */
    public static DecodeError decode(ByteBuf datagram, List<RxPacket> out, PacketFlyweights reuse) {
        int start = datagram.readerIndex();
        int end = datagram.writerIndex();
        if (end - start < RxConstants.HEADER_SIZE) {
            return DecodeError.TRUNCATED_HEADER;
        }
        int body = start + RxConstants.HEADER_SIZE;
        int bodyLength = end - body;
        int type = datagram.getUnsignedByte(start + RxConstants.HEADER_TYPE_OFFSET);
        if (type == PacketType.DATA) {
            return decodeData(datagram, start, body, end, out, reuse);
        }
        if (type == PacketType.ACK) {
            return decodeAck(datagram, start, body, end, out, reuse);
        }
        RxHeader header = RxHeader.read(datagram, start);
        switch (type) {
            case PacketType.ABORT:
                if (bodyLength < 4) {
                    return DecodeError.TRUNCATED_ABORT;
                }
                out.add(new AbortPacket(header, datagram.getInt(body), bodyLength - 4));
                return null;
            case PacketType.DEBUG:
                if (header.isClientInitiated()) {
                    if (bodyLength < DebugRequest.SIZE) {
                        return DecodeError.TRUNCATED_DEBUG;
                    }
                    out.add(new DebugRequest(header, datagram.getInt(body), datagram.getInt(body + 4),
                            bodyLength - DebugRequest.SIZE));
                } else {
                    out.add(new DebugReply(header, copy(datagram, body, bodyLength)));
                }
                return null;
            case PacketType.VERSION:
                out.add(new VersionPacket(header, copy(datagram, body, bodyLength)));
                return null;
            default:
                out.add(new ControlPacket(header, copy(datagram, body, bodyLength)));
                return null;
        }
    }

    private static byte[] copy(ByteBuf buf, int index, int length) {
        byte[] bytes = new byte[length];
        buf.getBytes(index, bytes);
        return bytes;
    }

    private static DecodeError decodeData(ByteBuf datagram, int start, int body, int end, List<RxPacket> out,
                                          PacketFlyweights reuse) {
        // Validate the whole chain before slicing anything, so that an error appends nothing.
        int count = 1;
        int pos = body;
        int flags = datagram.getUnsignedByte(start + 21);
        while ((flags & PacketFlags.JUMBO_PACKET) != 0) {
            if (end - pos < RxConstants.JUMBO_STRIDE) {
                return DecodeError.TRUNCATED_JUMBOGRAM;
            }
            if ((flags & PacketFlags.LAST_PACKET) != 0) {
                return DecodeError.LAST_PACKET_IN_JUMBOGRAM;
            }
            if (++count > RxConstants.MAX_JUMBO_PACKETS) {
                return DecodeError.TOO_MANY_JUMBO_PACKETS;
            }
            pos += RxConstants.JUMBO_BUFFER_SIZE;
            flags = datagram.getUnsignedByte(pos);
            pos += RxConstants.JUMBO_HEADER_SIZE;
        }
        RxHeader header;
        if (reuse == null) {
            header = RxHeader.read(datagram, start);
        } else {
            header = reuse.data(0).header();
            header.load(datagram, start);
        }
        if (count == 1) {
            out.add(dataPacket(reuse, 0, header, datagram.retainedSlice(body, end - body)));
            return null;
        }
        pos = body;
        for (int i = 0; i < count; i++) {
            boolean last = i == count - 1;
            int length = last ? end - pos : RxConstants.JUMBO_BUFFER_SIZE;
            out.add(dataPacket(reuse, i, header, datagram.retainedSlice(pos, length)));
            if (!last) {
                int jumbo = pos + RxConstants.JUMBO_BUFFER_SIZE;
                int seq = header.seq() + 1;
                int serial = header.serial() + 1;
                int subFlags = datagram.getUnsignedByte(jumbo);
                int spare = datagram.getUnsignedShort(jumbo + 2);
                if (reuse == null) {
                    header = new RxHeader(header.epoch(), header.cid(), header.callNumber(), seq, serial,
                            PacketType.DATA, subFlags, 0, header.securityIndex(), spare, header.serviceId());
                } else {
                    RxHeader next = reuse.data(i + 1).header();
                    next.set(header.epoch(), header.cid(), header.callNumber(), seq, serial, PacketType.DATA,
                            subFlags, 0, header.securityIndex(), spare, header.serviceId());
                    header = next;
                }
                pos = jumbo + RxConstants.JUMBO_HEADER_SIZE;
            }
        }
        return null;
    }

    /** @return a new DATA packet, or slot {@code i} of {@code reuse} (whose header is {@code header}) given payload */
    private static DataPacket dataPacket(PacketFlyweights reuse, int i, RxHeader header, ByteBuf payload) {
        if (reuse == null) {
            return new DataPacket(header, payload);
        }
        DataPacket p = reuse.data(i);
        p.payload(payload);
        return p;
    }

    private static DecodeError decodeAck(ByteBuf datagram, int start, int body, int end, List<RxPacket> out,
                                         PacketFlyweights reuse) {
        if (end - body < RxConstants.ACK_FIXED_SIZE) {
            return DecodeError.TRUNCATED_ACK;
        }
        int nAcks = datagram.getUnsignedByte(body + 17);
        int acksStart = body + RxConstants.ACK_FIXED_SIZE;
        if (end - acksStart < nAcks) {
            return DecodeError.BAD_ACK_COUNT;
        }
        // A pure hard ack (nAcks 0) shares one empty array: no allocation for it.
        byte[] acks;
        if (nAcks == 0) {
            acks = NO_ACKS;
        } else if (reuse == null) {
            acks = copy(datagram, acksStart, nAcks);
        } else {
            acks = reuse.acks(nAcks);
            datagram.getBytes(acksStart, acks);
        }
        int tail = end - acksStart - nAcks;
        int words = tail < RxConstants.ACK_PAD_SIZE ? 0 : Math.min(4, (tail - RxConstants.ACK_PAD_SIZE) / 4);
        if (words == 1) {
            words = 0; // a lone word is no trailer
        }
        int trailer = acksStart + nAcks + RxConstants.ACK_PAD_SIZE;
        int tailBytes = words == 0 ? tail : tail - RxConstants.ACK_PAD_SIZE - 4 * words;
        AckPacket a;
        if (reuse != null) {
            a = reuse.ack();
            a.header().load(datagram, start);
        } else {
            a = new AckPacket(RxHeader.read(datagram, start)); // the fields below are in range by the checks above
        }
        a.set(datagram.getUnsignedShort(body),
                datagram.getUnsignedShort(body + 2),
                datagram.getInt(body + 4),
                datagram.getInt(body + 8),
                datagram.getInt(body + 12),
                datagram.getUnsignedByte(body + 16),
                acks,
                words,
                words >= 1 ? datagram.getInt(trailer) : 0,
                words >= 2 ? datagram.getInt(trailer + 4) : 0,
                words >= 3 ? datagram.getInt(trailer + 8) : 0,
                words >= 4 ? datagram.getInt(trailer + 12) : 0,
                tailBytes);
        out.add(a);
        return null;
    }
}
