package org.rx4j.wire;

/**
 * One ACK packet (header, body and a soft-ack array per length 0..255) that an engine fills in place for every
 * ACK it sends (issue 10, target 9: no allocation per ACK sent), for a packet sink that is done with a packet when
 * its send returns (it encoded it). Each {@link #header} call overwrites the previous ACK, so the previous one
 * must be fully handled by then. Not thread-safe: one instance per engine (event loop).
 *
 * <p>Use: {@link #header} (or the engine's own header builder calling it), then {@link #acks} for the soft-ack
 * array if any, then {@link #ack} with that header; wire bytes are those of {@link AckPacket#of} with the same
 * arguments.
 */
public final class OutboundAck {
    private final RxHeader header = new RxHeader();
    private final AckPacket ack = new AckPacket(header);
    private final byte[][] acksByLength = new byte[RxConstants.MAX_ACKS + 1][];

    /**
     * Fills the reused header (same checks as {@link RxHeader#RxHeader}, type must be ACK).
     *
     * @param epoch see {@link RxHeader#epoch()}
     * @param cid see {@link RxHeader#cid()}
     * @param callNumber see {@link RxHeader#callNumber()}
     * @param seq see {@link RxHeader#seq()} (0 for an ACK)
     * @param serial see {@link RxHeader#serial()}
     * @param type must be {@link PacketType#ACK}
     * @param flags flag bits, 0..255
     * @param userStatus 0..255
     * @param securityIndex 0..255
     * @param spare 0..65535
     * @param serviceId 0..65535
     * @return the reused header, valid until the next call
     * @throws IllegalArgumentException if type is not ACK or a field is out of range
     */
    public RxHeader header(int epoch, int cid, int callNumber, int seq, int serial, int type, int flags,
                           int userStatus, int securityIndex, int spare, int serviceId) {
        if (type != PacketType.ACK) {
            throw new IllegalArgumentException("not an ACK: " + PacketType.name(type));
        }
        RxHeader.checkByte("flags", flags);
        RxHeader.checkByte("userStatus", userStatus);
        RxHeader.checkByte("securityIndex", securityIndex);
        RxHeader.checkShort("spare", spare);
        RxHeader.checkShort("serviceId", serviceId);
        header.set(epoch, cid, callNumber, seq, serial, type, flags, userStatus, securityIndex, spare, serviceId);
        return header;
    }

    /**
     * @param n soft-ack entries, 0..255
     * @return the reused array of exactly {@code n} entries for the next ACK's soft acks (contents left from its
     *     last use: the caller writes every entry)
     * @throws ArrayIndexOutOfBoundsException if n is outside 0..255
     */
    public byte[] acks(int n) {
        byte[] a = acksByLength[n];
        if (a == null) {
            a = new byte[n];
            acksByLength[n] = a;
        }
        return a;
    }

    /**
     * Fills the reused ACK as {@link AckPacket#of} would build it: zero bufferSpace and maxSkew, a 4-word trailer,
     * no padding.
     *
     * @param h the header from {@link #header} of this instance
     * @param firstPacket first seq not yet consumed
     * @param previousPacket seq of the last DATA received
     * @param serial serial of the triggering packet, or 0
     * @param reason the {@link AckReason}, 0..255
     * @param acks soft-ack array, 0..255 entries (usually from {@link #acks}); not copied
     * @param maxMTU advertised largest accepted packet, bytes
     * @param ifMTU advertised interface MTU, bytes
     * @param rwind advertised receive window, packets
     * @param maxDgramPackets advertised jumbogram sub-packet limit
     * @return the reused ACK, valid until the next {@link #header} call
     * @throws IllegalArgumentException if h is not this instance's header, reason is out of range or acks is
     *     null or longer than 255
     */
    public AckPacket ack(RxHeader h, int firstPacket, int previousPacket, int serial, int reason, byte[] acks,
                         int maxMTU, int ifMTU, int rwind, int maxDgramPackets) {
        if (h != header) {
            throw new IllegalArgumentException("not this OutboundAck's header");
        }
        if ((reason & ~0xFF) != 0 || acks == null || acks.length > RxConstants.MAX_ACKS) {
            throw new IllegalArgumentException("reason out of range or bad soft-ack array");
        }
        ack.set(0, 0, firstPacket, previousPacket, serial, reason, acks, 4, maxMTU, ifMTU, rwind, maxDgramPackets,
                0);
        return ack;
    }
}
