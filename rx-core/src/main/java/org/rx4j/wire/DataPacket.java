package org.rx4j.wire;

import io.netty.buffer.ByteBuf;

/**
 * A DATA packet: header plus a slice of a call's stream (see rx-wire-facts.md §2, §4).
 *
 * <p>Ownership: the packet owns one reference to {@code payload}. The holder calls {@link #release()}
 * exactly once, or hands the packet (or the payload) on and documents that.
 *
 * @param header the header; type must be {@link PacketType#DATA}
 * @param payload the data bytes (readable region), 0..65,507 bytes
 */
public record DataPacket(RxHeader header, ByteBuf payload) implements RxPacket {

    /** @throws IllegalArgumentException if the header's type is not DATA */
    public DataPacket {
        if (header.type() != PacketType.DATA) {
            throw new IllegalArgumentException("not a DATA header: " + header);
        }
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
}
