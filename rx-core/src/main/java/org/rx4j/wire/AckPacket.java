// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import java.util.Arrays;

/**
 * An ACK packet body (see rx-wire-facts.md §3): an 18-byte fixed part, the soft-ack array, 3 pad
 * bytes and a trailer of 0, 2, 3 or 4 big-endian words (maxMTU, ifMTU, rwind, maxDgramPackets).
 *
 * <p>Offsets after the header: bufferSpace 0 (u16), maxSkew 2 (u16), firstPacket 4, previousPacket 8,
 * serial 12, reason 16 (u8), nAcks 17 (u8), acks 18.., pad, trailer.
 *
 * <p>A value class like the record it was, except for the ACKs a {@link PacketFlyweights} owns: the decoder and
 * the engine's ACK builder overwrite those in place for the next ACK on the same event loop (no allocation per ACK),
 * and their {@code acks} array is the flyweights' array of that length. Code handling such an ACK must not keep
 * it, its header or its array.
 */
public final class AckPacket implements RxPacket {
    /** Value of a soft-ack array entry that acknowledges the packet. */
    public static final byte ACKED = 1;
    /** Value of a soft-ack array entry that does not (a NACK). */
    public static final byte NACKED = 0;

    private final RxHeader header;
    private int bufferSpace;
    private int maxSkew;
    private int firstPacket;
    private int previousPacket;
    private int serial;
    private int reason;
    private byte[] acks;
    private int trailerWords;
    private int maxMTU;
    private int ifMTU;
    private int rwind;
    private int maxDgramPackets;
    private int tailBytes;

    /**
     * Builds an ACK from its fields.
     *
     * @param header the header; type must be {@link PacketType#ACK}
     * @param bufferSpace u16, always 0 from OpenAFS
     * @param maxSkew u16, always 0 from OpenAFS
     * @param firstPacket seq of the first packet not yet consumed: everything below is hard-acked
     * @param previousPacket seq of the last DATA received
     * @param serial serial of the packet that triggered this ACK; 0 for DELAY acks and PINGs
     * @param reason {@link AckReason} code, 0..255
     * @param acks soft-ack array, 0..255 entries; {@code acks[i]} (bit 0) acks seq firstPacket+i; never null
     * @param trailerWords how many trailer words are present: 0, 2, 3 or 4
     * @param maxMTU trailer word 1: largest packet (header + data) the sender accepts, bytes (0 if absent)
     * @param ifMTU trailer word 2: the sender's interface MTU less IP/UDP overhead, bytes (0 if absent)
     * @param rwind trailer word 3: the sender's receive window, packets (0 if absent)
     * @param maxDgramPackets trailer word 4: most jumbogram sub-packets accepted (0 if absent)
     * @param tailBytes bytes after the trailer (MTU-probe padding), or, with no trailer, after the soft-ack
     *     array; written back as zeros, &gt;= 0
     * @throws IllegalArgumentException if the header is not an ACK, a u16/u8 field is out of range,
     *     acks is null or longer than 255, trailerWords is not 0/2/3/4, a trailer word beyond trailerWords
     *     is not 0, or tailBytes is negative
     */
    public AckPacket(RxHeader header, int bufferSpace, int maxSkew, int firstPacket, int previousPacket,
                     int serial, int reason, byte[] acks, int trailerWords, int maxMTU, int ifMTU, int rwind,
                     int maxDgramPackets, int tailBytes) {
        if (header.type() != PacketType.ACK) {
            throw new IllegalArgumentException("not an ACK header: " + header);
        }
        if ((bufferSpace & ~0xFFFF) != 0 || (maxSkew & ~0xFFFF) != 0 || (reason & ~0xFF) != 0) {
            throw new IllegalArgumentException("bufferSpace/maxSkew/reason out of range");
        }
        if (acks == null || acks.length > RxConstants.MAX_ACKS) {
            throw new IllegalArgumentException("acks must be 0..255 entries");
        }
        if (trailerWords != 0 && trailerWords != 2 && trailerWords != 3 && trailerWords != 4) {
            throw new IllegalArgumentException("trailerWords must be 0, 2, 3 or 4: " + trailerWords);
        }
        if (tailBytes < 0) {
            throw new IllegalArgumentException("tailBytes < 0");
        }
        // Words the trailer does not carry are 0, so that a packet equals what its bytes decode to.
        if ((trailerWords < 2 && (maxMTU | ifMTU) != 0) || (trailerWords < 3 && rwind != 0)
                || (trailerWords < 4 && maxDgramPackets != 0)) {
            throw new IllegalArgumentException("trailer words beyond trailerWords=" + trailerWords + " must be 0");
        }
        this.header = header;
        set(bufferSpace, maxSkew, firstPacket, previousPacket, serial, reason, acks, trailerWords, maxMTU, ifMTU,
                rwind, maxDgramPackets, tailBytes);
    }

    /** A flyweight slot: {@code header} is the slot's own; every body field is set before each use. */
    AckPacket(RxHeader header) {
        this.header = header;
        this.acks = new byte[0];
    }

    /** Overwrites every body field without checks (flyweights only; callers pass valid values). */
    void set(int bufferSpace, int maxSkew, int firstPacket, int previousPacket, int serial, int reason, byte[] acks,
             int trailerWords, int maxMTU, int ifMTU, int rwind, int maxDgramPackets, int tailBytes) {
        this.bufferSpace = bufferSpace;
        this.maxSkew = maxSkew;
        this.firstPacket = firstPacket;
        this.previousPacket = previousPacket;
        this.serial = serial;
        this.reason = reason;
        this.acks = acks;
        this.trailerWords = trailerWords;
        this.maxMTU = maxMTU;
        this.ifMTU = ifMTU;
        this.rwind = rwind;
        this.maxDgramPackets = maxDgramPackets;
        this.tailBytes = tailBytes;
    }

    /** @return the header (type ACK) */
    @Override
    public RxHeader header() {
        return header;
    }

    /** @return u16, always 0 from OpenAFS */
    public int bufferSpace() {
        return bufferSpace;
    }

    /** @return u16, always 0 from OpenAFS */
    public int maxSkew() {
        return maxSkew;
    }

    /** @return seq of the first packet not yet consumed: everything below is hard-acked */
    public int firstPacket() {
        return firstPacket;
    }

    /** @return seq of the last DATA received */
    public int previousPacket() {
        return previousPacket;
    }

    /** @return serial of the packet that triggered this ACK; 0 for DELAY acks and PINGs */
    public int serial() {
        return serial;
    }

    /** @return {@link AckReason} code, 0..255 */
    public int reason() {
        return reason;
    }

    /** @return the soft-ack array, 0..255 entries, never null; {@code acks[i]} (bit 0) acks seq firstPacket+i */
    public byte[] acks() {
        return acks;
    }

    /** @return how many trailer words are present: 0, 2, 3 or 4 */
    public int trailerWords() {
        return trailerWords;
    }

    /** @return trailer word 1: largest packet (header + data) the sender accepts, bytes (0 if absent) */
    public int maxMTU() {
        return maxMTU;
    }

    /** @return trailer word 2: the sender's interface MTU less IP/UDP overhead, bytes (0 if absent) */
    public int ifMTU() {
        return ifMTU;
    }

    /** @return trailer word 3: the sender's receive window, packets (0 if absent) */
    public int rwind() {
        return rwind;
    }

    /** @return trailer word 4: most jumbogram sub-packets accepted (0 if absent) */
    public int maxDgramPackets() {
        return maxDgramPackets;
    }

    /** @return bytes after the trailer (or after the soft-ack array without one), written back as zeros */
    public int tailBytes() {
        return tailBytes;
    }

    /**
     * Builds an ACK as rx4j sends it: zero bufferSpace and maxSkew, a full 4-word trailer, no padding.
     *
     * @param header the ACK header
     * @param firstPacket first seq not yet consumed
     * @param previousPacket seq of the last DATA received
     * @param serial serial of the triggering packet, or 0
     * @param reason the {@link AckReason}
     * @param acks soft-ack array (not copied: the caller gives up ownership)
     * @param maxMTU advertised largest accepted packet, bytes
     * @param ifMTU advertised interface MTU, bytes
     * @param rwind advertised receive window, packets
     * @param maxDgramPackets advertised jumbogram sub-packet limit
     * @return the packet
     */
    public static AckPacket of(RxHeader header, int firstPacket, int previousPacket, int serial, int reason,
                               byte[] acks, int maxMTU, int ifMTU, int rwind, int maxDgramPackets) {
        return new AckPacket(header, 0, 0, firstPacket, previousPacket, serial, reason, acks, 4, maxMTU, ifMTU,
                rwind, maxDgramPackets, 0);
    }

    /** @return number of soft-ack entries (nAcks) */
    public int nAcks() {
        return acks.length;
    }

    /**
     * @param i index into the soft-ack array, 0..nAcks-1
     * @return true when seq firstPacket+i is soft-acked (bit 0 of the entry)
     */
    public boolean isAcked(int i) {
        return (acks[i] & 1) != 0;
    }

    /**
     * @param i index into the soft-ack array, 0..nAcks-1
     * @return the raw soft-ack entry, 0..255 (0 = NACK, 1 = ACK; anything else is malformed: docs/robustness.md, Rule:
     *     ACKs checked against what was transmitted)
     */
    public int ackByte(int i) {
        return acks[i] & 0xFF;
    }

    /** @return true when the trailer carries at least maxMTU and ifMTU */
    public boolean hasTrailer() {
        return trailerWords >= 2;
    }

    @Override
    public int bodyLength() {
        int n = RxConstants.ACK_FIXED_SIZE + acks.length + tailBytes;
        if (trailerWords > 0) {
            n += RxConstants.ACK_PAD_SIZE + 4 * trailerWords;
        }
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AckPacket a && a.header.equals(header) && a.bufferSpace == bufferSpace
                && a.maxSkew == maxSkew && a.firstPacket == firstPacket && a.previousPacket == previousPacket
                && a.serial == serial && a.reason == reason && Arrays.equals(a.acks, acks)
                && a.trailerWords == trailerWords && a.maxMTU == maxMTU && a.ifMTU == ifMTU && a.rwind == rwind
                && a.maxDgramPackets == maxDgramPackets && a.tailBytes == tailBytes;
    }

    @Override
    public int hashCode() {
        return (header.hashCode() * 31 + firstPacket) * 31 + Arrays.hashCode(acks) + serial;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(header.toString()).append(" ack{first=").append(firstPacket)
                .append(" prev=").append(previousPacket).append(" serial=").append(serial).append(' ')
                .append(AckReason.name(reason)).append(" acks=");
        for (byte b : acks) {
            sb.append((b & 1) != 0 ? '+' : '-');
        }
        if (trailerWords > 0) {
            sb.append(" maxMTU=").append(maxMTU).append(" ifMTU=").append(ifMTU);
            if (trailerWords > 2) {
                sb.append(" rwind=").append(rwind);
            }
            if (trailerWords > 3) {
                sb.append(" maxDgram=").append(maxDgramPackets);
            }
        }
        return sb.append('}').toString();
    }
}
