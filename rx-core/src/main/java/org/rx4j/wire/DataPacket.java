// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;

/**
 * A DATA packet: header plus a slice of a call's stream (see rx-wire-facts.md §2, §4).
 *
 * <p>Ownership: the packet owns one reference to {@code payload}. The holder calls {@link #release()}
 * exactly once, or hands the packet (or the payload) on and documents that.
 *
 * <p>A value class like the record it was, except for the packets a {@link PacketFlyweights} owns: the decoder
 * overwrites those (header and payload reference) for the next datagram on the same event loop (no
 * allocation per packet). Whoever handles such a packet takes its payload reference but must not keep the packet or its
 * header.
 */
public final class DataPacket implements RxPacket {
    private final RxHeader header;
    private ByteBuf payload;

    /**
     * @param header the header; type must be {@link PacketType#DATA}
     * @param payload the data bytes (readable region), 0..65,507 bytes; the packet owns one reference
     * @throws IllegalArgumentException if the header's type is not DATA
     */
    public DataPacket(RxHeader header, ByteBuf payload) {
        if (header.type() != PacketType.DATA) {
            throw new IllegalArgumentException("not a DATA header: " + header);
        }
        this.header = header;
        this.payload = payload;
    }

    /** A flyweight slot: {@code header} is the slot's own, filled by the decoder with each packet. */
    DataPacket(RxHeader header) {
        this.header = header;
    }

    /** @param payload the next packet's payload reference (flyweights only) */
    void payload(ByteBuf payload) {
        this.payload = payload;
    }

    /** @return the header */
    @Override
    public RxHeader header() {
        return header;
    }

    /** @return the data bytes (readable region), 0..65,507 bytes */
    public ByteBuf payload() {
        return payload;
    }

    @Override
    public int bodyLength() {
        return payload.readableBytes();
    }

    /** Releases the payload reference this packet owns. */
    @Override
    public void release() {
        payload.release();
    }

    /** Equal when the headers are equal and the payloads' readable bytes are equal (as the record was). */
    @Override
    public boolean equals(Object o) {
        return o instanceof DataPacket d && d.header.equals(header) && d.payload.equals(payload);
    }

    @Override
    public int hashCode() {
        return header.hashCode() * 31 + payload.hashCode();
    }

    @Override
    public String toString() {
        return "DataPacket[header=" + header + ", payload=" + payload + "]";
    }
}
