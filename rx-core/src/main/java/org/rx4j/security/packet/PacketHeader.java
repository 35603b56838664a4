// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.packet;

/**
 * The fields of a received packet's 28-byte Rx header that a security class checks (rx-wire-facts.md §1), as the
 * security SPI's own type: a security class needs nothing from the wire codec.
 *
 * <p>Borrowed, like the SPI's buffers: the engine keeps one instance per connection and refills it from each decoded
 * DATA header before {@link PacketSecurity#checkIncoming}, so receiving allocates no header object per packet. A
 * class reads it during the call and keeps neither the instance nor a reference to it afterwards (copy the fields
 * it needs). Not thread-safe; the engine touches it only on its event loop.
 */
public final class PacketHeader {
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

    /** An all-zero header, to be {@link #set} before use. */
    public PacketHeader() {
    }

    /**
     * A header with the given fields (tests, and classes checking a header of their own making).
     *
     * @param epoch the connection's epoch
     * @param cid the connection id with the channel in its low 2 bits
     * @param callNumber the call number on that channel
     * @param seq the DATA packet's sequence number (1-based)
     * @param serial the packet serial number
     * @param type the packet type (3 = DATA)
     * @param flags the header flags
     * @param userStatus the user-status byte
     * @param securityIndex the security class index
     * @param spare the spare/checksum field as received, 0..65535
     * @param serviceId the service id, 0..65535
     */
    public PacketHeader(int epoch, int cid, int callNumber, int seq, int serial, int type, int flags, int userStatus,
                        int securityIndex, int spare, int serviceId) {
        set(epoch, cid, callNumber, seq, serial, type, flags, userStatus, securityIndex, spare, serviceId);
    }

    /**
     * Refills every field (the engine, for the next received packet).
     *
     * @param epoch see {@link #epoch()}
     * @param cid see {@link #cid()}
     * @param callNumber see {@link #callNumber()}
     * @param seq see {@link #seq()}
     * @param serial see {@link #serial()}
     * @param type see {@link #type()}
     * @param flags see {@link #flags()}
     * @param userStatus see {@link #userStatus()}
     * @param securityIndex see {@link #securityIndex()}
     * @param spare see {@link #spare()}
     * @param serviceId see {@link #serviceId()}
     * @return this header
     */
    public PacketHeader set(int epoch, int cid, int callNumber, int seq, int serial, int type, int flags,
                            int userStatus, int securityIndex, int spare, int serviceId) {
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
        return this;
    }

    /** @return the connection's epoch */
    public int epoch() {
        return epoch;
    }

    /** @return the connection id with the channel in its low 2 bits */
    public int cid() {
        return cid;
    }

    /** @return the call number on the packet's channel */
    public int callNumber() {
        return callNumber;
    }

    /** @return the DATA packet's sequence number (1-based) */
    public int seq() {
        return seq;
    }

    /** @return the packet serial number */
    public int serial() {
        return serial;
    }

    /** @return the packet type (3 = DATA) */
    public int type() {
        return type;
    }

    /** @return the header flags */
    public int flags() {
        return flags;
    }

    /** @return the user-status byte */
    public int userStatus() {
        return userStatus;
    }

    /** @return the security class index */
    public int securityIndex() {
        return securityIndex;
    }

    /** @return the spare/checksum field as received, 0..65535 */
    public int spare() {
        return spare;
    }

    /** @return the service id, 0..65535 */
    public int serviceId() {
        return serviceId;
    }

    /** @return the channel, 0..3 (the low 2 bits of the cid) */
    public int channel() {
        return cid & 3;
    }

    /** @return the fields, for logs (no secret is in a header) */
    @Override
    public String toString() {
        return "PacketHeader[epoch=" + epoch + ", cid=" + cid + ", callNumber=" + callNumber + ", seq=" + seq
                + ", serial=" + serial + ", type=" + type + ", flags=" + flags + ", userStatus=" + userStatus
                + ", securityIndex=" + securityIndex + ", spare=" + spare + ", serviceId=" + serviceId + "]";
    }
}
