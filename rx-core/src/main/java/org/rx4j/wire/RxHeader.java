// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;

/**
 * The 28-byte Rx packet header (see rx-wire-facts.md §1). All fields are kept exactly as they appear on the wire,
 * so that a decoded header re-encodes to the same bytes.
 *
 * <p>A value class: an instance made by the constructor, {@link #read} or a {@code with...} copy never changes. The
 * one exception is a header owned by a {@link PacketFlyweights} (no allocation per packet on the engine's
 * path): the decoder and the engine's ACK builder overwrite those in place, on one event-loop thread,
 * for the next packet. Code that gets packets from such a decoder must not keep the header (or the packet) beyond
 * handling it; copy what it needs.
 *
 * <p>Wire layout (big-endian): epoch 0..3, cid 4..7, callNumber 8..11, seq 12..15, serial 16..19,
 * type 20, flags 21, userStatus 22, securityIndex 23, spare/checksum 24..25, serviceId 26..27.
 */
public final class RxHeader {
    private int epoch;
    private int cid;
    private int callNumber;
    private int seq;
    private int serial;
    private int type;
    private int flags;
    private int userStatus;
    private int securityIndex;
    private int spare;
    private int serviceId;

    /**
     * Validates the byte-sized and short-sized fields.
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
     * @throws IllegalArgumentException if type, flags, userStatus or securityIndex is outside 0..255, or
     *     spare or serviceId outside 0..65535
     */
    public RxHeader(int epoch, int cid, int callNumber, int seq, int serial, int type, int flags,
                    int userStatus, int securityIndex, int spare, int serviceId) {
        checkByte("type", type);
        checkByte("flags", flags);
        checkByte("userStatus", userStatus);
        checkByte("securityIndex", securityIndex);
        checkShort("spare", spare);
        checkShort("serviceId", serviceId);
        set(epoch, cid, callNumber, seq, serial, type, flags, userStatus, securityIndex, spare, serviceId);
    }

    /** A blank header (every field 0) for a {@link PacketFlyweights} slot. */
    RxHeader() {
    }

    /** Overwrites every field without checks (flyweights only; callers pass in-range values). */
    void set(int epoch, int cid, int callNumber, int seq, int serial, int type, int flags, int userStatus,
             int securityIndex, int spare, int serviceId) {
        this.epoch = epoch;
        this.cid = cid;
        this.callNumber = callNumber;
        this.seq = seq;
        this.serial = serial;
        this.type = type;
        this.flags = flags;
        this.userStatus = userStatus;
        this.securityIndex = securityIndex;
        this.spare = spare;
        this.serviceId = serviceId;
    }

    /** Overwrites every field with the 28 bytes at {@code index} (flyweights only; see {@link #read}). */
    void load(ByteBuf buf, int index) {
        set(buf.getInt(index), buf.getInt(index + 4), buf.getInt(index + 8), buf.getInt(index + 12),
                buf.getInt(index + 16), buf.getUnsignedByte(index + 20), buf.getUnsignedByte(index + 21),
                buf.getUnsignedByte(index + 22), buf.getUnsignedByte(index + 23), buf.getUnsignedShort(index + 24),
                buf.getUnsignedShort(index + 26));
    }

    /** @return the client's Rx instance identifier; bit 31 set = any-address lookup (§7) */
    public int epoch() {
        return epoch;
    }

    /** @return connection id (bits 31..2) plus channel (bits 1..0) */
    public int cid() {
        return cid;
    }

    /** @return per-channel call counter; 0 = connection-level packet */
    public int callNumber() {
        return callNumber;
    }

    /** @return DATA sequence number within one direction of a call (1, 2, ...); 0 for other types */
    public int seq() {
        return seq;
    }

    /** @return per-connection, per-direction packet serial; 0 only for connectionless packets */
    public int serial() {
        return serial;
    }

    /** @return packet type, 0..255 ({@link PacketType}) */
    public int type() {
        return type;
    }

    /** @return flag bits, 0..255 ({@link PacketFlags}) */
    public int flags() {
        return flags;
    }

    /** @return per-call application status byte, 0..255 */
    public int userStatus() {
        return userStatus;
    }

    /** @return security class index, 0..255 (0 = rxnull) */
    public int securityIndex() {
        return securityIndex;
    }

    /** @return the 16-bit spare/checksum field at offset 24, 0..65535 */
    public int spare() {
        return spare;
    }

    /** @return the 16-bit destination service id at offset 26, 0..65535 */
    public int serviceId() {
        return serviceId;
    }

    static void checkByte(String name, int v) {
        if ((v & ~0xFF) != 0) {
            throw new IllegalArgumentException(name + " must be 0..255: " + v);
        }
    }

    static void checkShort(String name, int v) {
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

    /** @return a fresh, never-changing copy (of a flyweight header, for code that keeps it) */
    public RxHeader copy() {
        return new RxHeader(epoch, cid, callNumber, seq, serial, type, flags, userStatus, securityIndex, spare,
                serviceId);
    }

    /** Equal when every wire field is equal (as the record this class was). */
    @Override
    public boolean equals(Object o) {
        return o instanceof RxHeader h && h.epoch == epoch && h.cid == cid && h.callNumber == callNumber
                && h.seq == seq && h.serial == serial && h.type == type && h.flags == flags
                && h.userStatus == userStatus && h.securityIndex == securityIndex && h.spare == spare
                && h.serviceId == serviceId;
    }

    @Override
    public int hashCode() {
        int h = epoch;
        h = 31 * h + cid;
        h = 31 * h + callNumber;
        h = 31 * h + seq;
        h = 31 * h + serial;
        h = 31 * h + type;
        h = 31 * h + flags;
        h = 31 * h + userStatus;
        h = 31 * h + securityIndex;
        h = 31 * h + spare;
        return 31 * h + serviceId;
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
