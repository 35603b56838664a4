// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * The packet objects one event loop's decoder reuses for every datagram (no allocation per
 * packet on the engine's receive path): one {@link DataPacket} with its own {@link RxHeader} per jumbogram
 * sub-packet (up to {@value RxConstants#MAX_JUMBO_PACKETS}), one {@link AckPacket} with its header, and one
 * soft-ack array per length 0..255 (made on first use), so that a decoded ACK's {@code acks().length} is still its
 * nAcks. Only DATA and ACK packets are reused; every other type is decoded into new objects.
 *
 * <p>Give an instance to {@link PacketDecoder#decode(io.netty.buffer.ByteBuf, java.util.List, PacketFlyweights)}.
 * The next decode with the same instance overwrites the packets of the previous one, so whoever handles the
 * decoded packets must be done with the packet objects (not with a DATA payload reference, which it owns) before
 * that, and must not keep them. Not thread-safe: one instance per thread (event loop), and a decode nested inside
 * the handling of another one's packets needs an instance of its own.
 */
public final class PacketFlyweights {
    private final DataPacket[] data = new DataPacket[RxConstants.MAX_JUMBO_PACKETS];
    private final AckPacket ack = new AckPacket(new RxHeader());
    private final byte[][] acksByLength = new byte[RxConstants.MAX_ACKS + 1][];

    /** Creates the reusable packets (about 4 KiB; soft-ack arrays come later, on first use of each length). */
    public PacketFlyweights() {
        for (int i = 0; i < data.length; i++) {
            data[i] = new DataPacket(new RxHeader());
        }
    }

    /**
     * @param i sub-packet index within the datagram, 0 to {@link RxConstants#MAX_JUMBO_PACKETS} - 1
     * @return the reused DATA packet for that position (its header is filled by the decoder)
     */
    DataPacket data(int i) {
        return data[i];
    }

    /** @return the reused ACK packet (its header and body are filled by the decoder) */
    AckPacket ack() {
        return ack;
    }

    /**
     * @param n soft-ack entries, 0..255
     * @return the reused array of exactly {@code n} entries (contents left from its last use)
     */
    byte[] acks(int n) {
        byte[] a = acksByLength[n];
        if (a == null) {
            a = new byte[n];
            acksByLength[n] = a;
        }
        return a;
    }
}
