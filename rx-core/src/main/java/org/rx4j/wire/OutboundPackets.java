// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;

/**
 * The packets an engine fills in place for everything it sends on its hot paths (no allocation per packet sent,
 * docs/benchmarks.md "Allocation per packet"): one ACK (header, body, and a soft-ack array per length 0..255, made on
 * first use) and one DATA packet with its header per jumbogram position ({@value RxConstants#MAX_JUMBO_PACKETS}). Only
 * for a packet sink that is done with the packet objects when its send returns (it encoded them); a DATA payload
 * reference is still handed over and released by the sink as usual.
 *
 * <p>Each {@link #header} call for a slot overwrites the packet of that slot, so the previous one must have been
 * sent by then: the ACK slot is reused per ACK, DATA slot {@code i} per datagram for its {@code i}-th sub-packet.
 * Not thread-safe: one instance per engine (event loop). Wire bytes are those of the equivalent new objects
 * ({@link AckPacket#of}, {@link DataPacket#DataPacket}).
 */
public final class OutboundPackets {
    /** The slot of the ACK; DATA slots are 0 to ACK_SLOT - 1 (one per jumbogram position). */
    public static final int ACK_SLOT = RxConstants.MAX_JUMBO_PACKETS;

    private final RxHeader[] headers = new RxHeader[ACK_SLOT + 1];
    private final DataPacket[] data = new DataPacket[ACK_SLOT];
    private final AckPacket ack;
    private final byte[][] acksByLength = new byte[RxConstants.MAX_ACKS + 1][];

    /** Creates the reusable packets (about 4 KiB; soft-ack arrays come on first use of each length). */
    public OutboundPackets() {
        for (int i = 0; i < headers.length; i++) {
            headers[i] = new RxHeader();
        }
        for (int i = 0; i < data.length; i++) {
            data[i] = new DataPacket(headers[i]);
        }
        ack = new AckPacket(headers[ACK_SLOT]);
    }

    /**
     * Fills the reused header of a slot (the same checks as {@link RxHeader#RxHeader}).
     *
     * @param slot {@link #ACK_SLOT} for an ACK (type must be ACK), or below it for the DATA sub-packet at that position
     *     of the next datagram (type must be DATA)
     * @param epoch see {@link RxHeader#epoch()}
     * @param cid see {@link RxHeader#cid()}
     * @param callNumber see {@link RxHeader#callNumber()}
     * @param seq see {@link RxHeader#seq()}
     * @param serial see {@link RxHeader#serial()}
     * @param type {@link PacketType#ACK} or {@link PacketType#DATA}, matching the slot
     * @param flags flag bits, 0..255
     * @param userStatus 0..255
     * @param securityIndex 0..255
     * @param spare 0..65535
     * @param serviceId 0..65535
     * @return the slot's header, valid until the slot's next use
     * @throws IllegalArgumentException if the type does not match the slot or a field is out of range
     * @throws ArrayIndexOutOfBoundsException if the slot is outside 0..ACK_SLOT
     */
    public RxHeader header(int slot, int epoch, int cid, int callNumber, int seq, int serial, int type, int flags,
                           int userStatus, int securityIndex, int spare, int serviceId) {
        if (type != (slot == ACK_SLOT ? PacketType.ACK : PacketType.DATA)) {
            throw new IllegalArgumentException(PacketType.name(type) + " in slot " + slot);
        }
        RxHeader.checkByte("flags", flags);
        RxHeader.checkByte("userStatus", userStatus);
        RxHeader.checkByte("securityIndex", securityIndex);
        RxHeader.checkShort("spare", spare);
        RxHeader.checkShort("serviceId", serviceId);
        RxHeader h = headers[slot];
        h.set(epoch, cid, callNumber, seq, serial, type, flags, userStatus, securityIndex, spare, serviceId);
        return h;
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
     * @param h the ACK slot's header, from {@link #header}
     * @param firstPacket first seq not yet consumed
     * @param previousPacket seq of the last DATA received
     * @param serial serial of the triggering packet, or 0
     * @param reason the {@link AckReason}, 0..255
     * @param acks soft-ack array, 0..255 entries (usually from {@link #acks}); not copied
     * @param maxMTU advertised largest accepted packet, bytes
     * @param ifMTU advertised interface MTU, bytes
     * @param rwind advertised receive window, packets
     * @param maxDgramPackets advertised jumbogram sub-packet limit
     * @return the reused ACK, valid until the ACK slot's next use
     * @throws IllegalArgumentException if h is not the ACK slot's header, reason is out of range or acks is null or
     *     longer than 255
     */
    public AckPacket ack(RxHeader h, int firstPacket, int previousPacket, int serial, int reason, byte[] acks,
                         int maxMTU, int ifMTU, int rwind, int maxDgramPackets) {
        if (h != headers[ACK_SLOT]) {
            throw new IllegalArgumentException("not this OutboundPackets' ACK header");
        }
        if ((reason & ~0xFF) != 0 || acks == null || acks.length > RxConstants.MAX_ACKS) {
            throw new IllegalArgumentException("reason out of range or bad soft-ack array");
        }
        ack.set(0, 0, firstPacket, previousPacket, serial, reason, acks, 4, maxMTU, ifMTU, rwind, maxDgramPackets,
                0);
        return ack;
    }

    /**
     * @param slot the DATA slot (below {@link #ACK_SLOT}) whose header {@code h} is
     * @param h that slot's header, from {@link #header}
     * @param payload the data bytes; the packet owns this reference, as with {@link DataPacket#DataPacket}
     * @return the reused DATA packet of that slot, valid until the slot's next use
     * @throws IllegalArgumentException if h is not that slot's header
     * @throws ArrayIndexOutOfBoundsException if the slot is not a DATA slot
     */
    public DataPacket data(int slot, RxHeader h, ByteBuf payload) {
        DataPacket p = data[slot];
        if (p.header() != h) {
            throw new IllegalArgumentException("not the header of DATA slot " + slot);
        }
        p.payload(payload);
        return p;
    }
}
