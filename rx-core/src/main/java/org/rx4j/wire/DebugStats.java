// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;

/**
 * Body of a GETSTATS debug reply (struct rx_debugStats, 56 bytes; see rx-wire-facts.md §9).
 *
 * <p>Wire layout (big-endian): nFreePackets 0, packetReclaims 4, callsExecuted 8, waitingForPackets 12 (u8),
 * usedFDs 13 (u8), version 14 (u8), spare 15 (u8), nWaiting 16, idleThreads 20, nWaited 24, nPackets 28,
 * spare words 32..55. Spare bytes are written as zero and ignored when read.
 *
 * @param nFreePackets packets on the free list, packets
 * @param packetReclaims packet reclaims, count
 * @param callsExecuted calls the server has run, count
 * @param waitingForPackets 1 when a thread waits for a free packet, 0..255 (0 in threaded builds)
 * @param usedFDs file descriptors in use, 0..255
 * @param version the responder's debug protocol letter, 0..255; {@link #VERSION} ('S') today
 * @param nWaiting calls waiting for a thread, count
 * @param idleThreads idle server threads, count
 * @param nWaited calls that ever waited for a thread, count
 * @param nPackets packets allocated in all, packets
 */
public record DebugStats(int nFreePackets, int packetReclaims, int callsExecuted, int waitingForPackets,
                         int usedFDs, int version, int nWaiting, int idleThreads, int nWaited, int nPackets) {
    /** Bytes of the struct on the wire. */
    public static final int SIZE = 56;
    /** RX_DEBUGI_VERSION: the newest debug protocol letter, 'S' (0x53); rxdebug picks optional lines by it. */
    public static final int VERSION = 'S';

    /** @throws IllegalArgumentException if waitingForPackets, usedFDs or version is outside 0..255 */
    public DebugStats {
        if (((waitingForPackets | usedFDs | version) & ~0xFF) != 0) {
            throw new IllegalArgumentException("waitingForPackets, usedFDs and version are u8");
        }
    }

    /**
     * Appends the 56-byte struct.
     *
     * @param out destination; its writer index advances by exactly {@link #SIZE}; not released
     */
    public void encode(ByteBuf out) {
        out.writeInt(nFreePackets);
        out.writeInt(packetReclaims);
        out.writeInt(callsExecuted);
        out.writeByte(waitingForPackets);
        out.writeByte(usedFDs);
        out.writeByte(version);
        out.writeByte(0);
        out.writeInt(nWaiting);
        out.writeInt(idleThreads);
        out.writeInt(nWaited);
        out.writeInt(nPackets);
        out.writeZero(SIZE - 32);
    }

    /** @return the 56-byte body of a {@link DebugReply} carrying this struct */
    public byte[] toBody() {
        return DebugStructs.toBytes(SIZE, this::encode);
    }

    /**
     * Reads the struct from a debug reply body. Never throws.
     *
     * @param body the reply body; bytes past the first 56 are ignored
     * @return the struct, or {@code null} when {@code body} is null or shorter than 56 bytes
     */
    public static DebugStats decode(byte[] body) {
        if (body == null || body.length < SIZE) {
            return null;
        }
        return new DebugStats(DebugStructs.getInt(body, 0), DebugStructs.getInt(body, 4),
                DebugStructs.getInt(body, 8), body[12] & 0xFF, body[13] & 0xFF, body[14] & 0xFF,
                DebugStructs.getInt(body, 16), DebugStructs.getInt(body, 20), DebugStructs.getInt(body, 24),
                DebugStructs.getInt(body, 28));
    }
}
