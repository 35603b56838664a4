package org.rx4j.wire;

import io.netty.buffer.ByteBuf;

/**
 * The 28-byte Rx packet header (see rx-wire-facts.md §1). Immutable; all fields are kept exactly as
 * they appear on the wire so that a decoded header re-encodes to the same bytes.
 *
 * <p>Wire layout (big-endian): epoch 0..3, cid 4..7, callNumber 8..11, seq 12..15, serial 16..19,
 * type 20, flags 21, userStatus 22, securityIndex 23, spare/checksum 24..25, serviceId 26..27.
 *
 * @param epoch the client's Rx instance identifier; bit 31 set = any-address lookup (§7)
 * @param cid connection id (bits 31..2) plus channel (bits 1..0)
 * @param callNumber per-channel call counter; 0 = connection-level packet
 * @param seq DATA sequence number within one direction of a call (1, 2, ...); 0 for other types
 * @param serial per-connection, per-direction packet serial; 0 only for connectionless packets
 * @param type packet type, 0..255 ({@link PacketType})
 * @param flags flag bits, 0..255 ({@link PacketFlags})
 * @param userStatus per-call application status byte, 0..255
 * @param securityIndex security class index, 0..255 (0 = rxnull)
 * @param spare the 16-bit spare/checksum field at offset 24, 0..65535
 * @param serviceId the 16-bit destination service id at offset 26, 0..65535
 */
public record RxHeader(int epoch, int cid, int callNumber, int seq, int serial, int type, int flags,
                       int userStatus, int securityIndex, int spare, int serviceId) {

    /**
     * Validates the byte-sized and short-sized fields.
     *
     * @throws IllegalArgumentException if type, flags, userStatus or securityIndex is outside 0..255, or
     *     spare or serviceId outside 0..65535
     */
    public RxHeader {
        checkByte("type", type);
        checkByte("flags", flags);
        checkByte("userStatus", userStatus);
        checkByte("securityIndex", securityIndex);
        checkShort("spare", spare);
        checkShort("serviceId", serviceId);
    }

    private static void checkByte(String name, int v) {
        if ((v & ~0xFF) != 0) {
            throw new IllegalArgumentException(name + " must be 0..255: " + v);
        }
    }

    private static void checkShort(String name, int v) {
        if ((v & ~0xFFFF) != 0) {
            throw new IllegalArgumentException(name + " must be 0..65535: " + v);
        }
    }

    /**
     * Reads a header at {@code index} without moving the buffer's indexes.
     *
     * @param buf a buffer with at least 28 readable bytes from {@code index}; not released
     * @param index absolute index of the header's first byte
     * @return the decoded header
     * @throws IndexOutOfBoundsException if fewer than 28 bytes are available (callers check first)
     */
    public static RxHeader read(ByteBuf buf, int index) {
        return new RxHeader(
                buf.getInt(index),
                buf.getInt(index + 4),
                buf.getInt(index + 8),
                buf.getInt(index + 12),
                buf.getInt(index + 16),
                buf.getUnsignedByte(index + 20),
                buf.getUnsignedByte(index + 21),
                buf.getUnsignedByte(index + 22),
                buf.getUnsignedByte(index + 23),
                buf.getUnsignedShort(index + 24),
                buf.getUnsignedShort(index + 26));
    }

    /**
     * Appends the 28 header bytes at the buffer's writer index.
     *
     * @param out the destination; its writer index advances by 28; not released
     */
    public void write(ByteBuf out) {
        out.writeInt(epoch);
        out.writeInt(cid);
        out.writeInt(callNumber);
        out.writeInt(seq);
        out.writeInt(serial);
        out.writeByte(type);
        out.writeByte(flags);
        out.writeByte(userStatus);
        out.writeByte(securityIndex);
        out.writeShort(spare);
        out.writeShort(serviceId);
    }

    /** @return the channel, 0..3 (cid bits 1..0) */
    public int channel() {
        return cid & RxConstants.CHANNEL_MASK;
    }

    /** @return the connection id: cid with the channel bits cleared */
    public int connectionId() {
        return cid & RxConstants.CID_MASK;
    }

    /**
     * @param bit a {@link PacketFlags} constant
     * @return true when the flag is set
     */
    public boolean hasFlag(int bit) {
        return PacketFlags.has(flags, bit);
    }

    /** @return true when CLIENT_INITIATED is set (the packet comes from the connection's client side) */
    public boolean isClientInitiated() {
        return hasFlag(PacketFlags.CLIENT_INITIATED);
    }

    /**
     * @param newSeq the seq of the copy
     * @param newSerial the serial of the copy
     * @param newFlags the flags of the copy, 0..255
     * @return a copy with seq, serial and flags replaced
     */
    public RxHeader withSeqSerialFlags(int newSeq, int newSerial, int newFlags) {
        return new RxHeader(epoch, cid, callNumber, newSeq, newSerial, type, newFlags, userStatus, securityIndex,
                spare, serviceId);
    }

    /**
     * @param newSerial the serial of the copy
     * @return a copy with only the serial replaced
     */
    public RxHeader withSerial(int newSerial) {
        return new RxHeader(epoch, cid, callNumber, seq, newSerial, type, flags, userStatus, securityIndex,
                spare, serviceId);
    }

    /**
     * @param newFlags the flags of the copy, 0..255
     * @return a copy with only the flags replaced
     */
    public RxHeader withFlags(int newFlags) {
        return new RxHeader(epoch, cid, callNumber, seq, serial, type, newFlags, userStatus, securityIndex,
                spare, serviceId);
    }

    @Override
    public String toString() {
        return PacketType.name(type) + "{epoch=" + Integer.toUnsignedString(epoch, 16) + " cid="
                + Integer.toUnsignedString(cid, 16) + " call=" + Integer.toUnsignedString(callNumber)
                + " seq=" + Integer.toUnsignedString(seq) + " serial=" + Integer.toUnsignedString(serial)
                + " flags=0x" + Integer.toHexString(flags) + " us=" + userStatus + " sec=" + securityIndex
                + " spare=" + spare + " svc=" + serviceId + "}";
    }
}
