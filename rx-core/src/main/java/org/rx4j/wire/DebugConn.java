// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Body of a GETCONN/GETALLCONN debug reply (struct rx_debugConn as OpenAFS 1.8 sends it, 176 bytes;
 * see rx-wire-facts.md §9, sizes checked against OpenAFS src/rx/rx.h and the rxdebug capture).
 *
 * <p>Wire layout (big-endian): host 0, cid 4, serial 8, callNumber[4] 12, error 28, port 32 (u16),
 * flags 34 (u8), type 35 (u8), securityIndex 36 (u8), spare 37..39, callState[4] 40, callMode[4] 44,
 * callFlags[4] 48, callOther[4] 52 (one byte per channel), secStats 56..131 (76 bytes), epoch 132,
 * natMTU 136, spare words 140..175. host and port are the peer's address in network order, so reading
 * them big-endian gives the usual values (127.0.0.1 = 0x7f000001). Spare bytes are written as zero and
 * ignored when read. The responder sends a struct with cid {@link #END_CID} when the index is past the
 * last connection.
 *
 * @param host peer IPv4 address as a big-endian int
 * @param cid the connection's cid (channel bits 0)
 * @param serial last serial the connection used, count
 * @param callNumber current callNumber of each of the 4 channels (4 entries, copied)
 * @param error the connection's error code, 0 if none
 * @param port peer UDP port, 0..65535
 * @param flags connection flags, 0..255
 * @param type 0 client connection, 1 server connection, 0..255
 * @param securityIndex security class index, 0..255
 * @param callState call state per channel (4 entries, 0..255 each; copied)
 * @param callMode call mode per channel (4 entries; copied)
 * @param callFlags low byte of the call flags per channel (4 entries; copied)
 * @param callOther "packets queued" bits per channel (4 entries; copied)
 * @param secStats the 76-byte struct rx_securityObjectStats read as 19 big-endian words (its char and
 *     short fields are packed inside them; {@link #secStats(int, int, int, long, long, long, long, long)} packs
 *     them); all zero for rxnull (19 entries, copied)
 * @param epoch the connection's epoch
 * @param natMTU the peer's natural MTU, bytes
 */
public record DebugConn(int host, int cid, int serial, int[] callNumber, int error, int port, int flags,
                        int type, int securityIndex, byte[] callState, byte[] callMode, byte[] callFlags,
                        byte[] callOther, int[] secStats, int epoch, int natMTU) {
    /** Bytes of the struct on the wire. */
    public static final int SIZE = 176;
    /** Words in the security statistics block (76 bytes). */
    public static final int SEC_STATS_WORDS = 19;
    /** cid of the "no more connections" reply. */
    public static final int END_CID = 0xFFFF_FFFF;
    /** {@link #type()} of a client connection. */
    public static final int TYPE_CLIENT = 0;
    /** {@link #type()} of a server connection. */
    public static final int TYPE_SERVER = 1;

    /** Word of {@link #secStats()} holding the type (its first byte) and the level (its second). */
    private static final int SEC_TYPE_LEVEL = 0;
    /** Word of {@link #secStats()} holding the flags (after 2 + 10 bytes of type, level and spares). */
    private static final int SEC_FLAGS = 3;
    private static final int SEC_EXPIRES = 4;
    private static final int SEC_PACKETS_RECEIVED = 5;
    private static final int SEC_PACKETS_SENT = 6;
    private static final int SEC_BYTES_RECEIVED = 7;
    private static final int SEC_BYTES_SENT = 8;

    /**
     * Copies the arrays so the record stays immutable.
     *
     * @throws IllegalArgumentException if an array is null or of the wrong length, or a u8/u16 field is
     *     out of range
     */
    public DebugConn {
        callNumber = copy("callNumber", callNumber, RxConstants.MAX_CALLS);
        callState = copy("callState", callState);
        callMode = copy("callMode", callMode);
        callFlags = copy("callFlags", callFlags);
        callOther = copy("callOther", callOther);
        secStats = copy("secStats", secStats, SEC_STATS_WORDS);
        DebugStructs.checkUnsigned("port", port, 16);
        DebugStructs.checkUnsigned("flags", flags, 8);
        DebugStructs.checkUnsigned("type", type, 8);
        DebugStructs.checkUnsigned("securityIndex", securityIndex, 8);
    }

    private static int[] copy(String name, int[] a, int length) {
        if (a == null || a.length != length) {
            throw new IllegalArgumentException(name + " must have " + length + " entries");
        }
        return a.clone();
    }

    private static byte[] copy(String name, byte[] a) {
        if (a == null || a.length != RxConstants.MAX_CALLS) {
            throw new IllegalArgumentException(name + " must have " + RxConstants.MAX_CALLS + " entries");
        }
        return a.clone();
    }

    /**
     * The reply that ends a GETCONN/GETALLCONN walk: every field zero except cid = {@link #END_CID}.
     *
     * @return the end marker
     */
    public static DebugConn end() {
        byte[] none = new byte[RxConstants.MAX_CALLS];
        return new DebugConn(0, END_CID, 0, new int[RxConstants.MAX_CALLS], 0, 0, 0, 0, 0, none, none, none, none,
                new int[SEC_STATS_WORDS], 0, 0);
    }

    /**
     * Packs struct rx_securityObjectStats (rx-wire-facts.md §9): type and level in its first two bytes, then 10
     * spare bytes, then the flags, expiry and the four counters as big-endian words (OpenAFS converts each to
     * network order before sending); the spares after them zero. Counters wrap at 32 bits as OpenAFS's do.
     *
     * @param type 0 none, 1 rxnull, 2 vab, 3 rxkad (0..255)
     * @param level the class's level (rxkad: 0 clear, 1 auth, 2 crypt; 0..255)
     * @param flags 1 unallocated, 2 authenticated, 4 expired, 8 packet checksum seen
     * @param expires seconds since 1970 (low 32 bits kept), 0 for none
     * @param packetsReceived count
     * @param packetsSent count
     * @param bytesReceived bytes
     * @param bytesSent bytes
     * @return the 19 words
     * @throws IllegalArgumentException if type or level is outside 0..255
     */
    public static int[] secStats(int type, int level, int flags, long expires, long packetsReceived,
                                 long packetsSent, long bytesReceived, long bytesSent) {
        DebugStructs.checkUnsigned("secStats type", type, 8);
        DebugStructs.checkUnsigned("secStats level", level, 8);
        int[] w = new int[SEC_STATS_WORDS];
        w[SEC_TYPE_LEVEL] = (type << 24) | (level << 16);
        w[SEC_FLAGS] = flags;
        w[SEC_EXPIRES] = (int) expires;
        w[SEC_PACKETS_RECEIVED] = (int) packetsReceived;
        w[SEC_PACKETS_SENT] = (int) packetsSent;
        w[SEC_BYTES_RECEIVED] = (int) bytesReceived;
        w[SEC_BYTES_SENT] = (int) bytesSent;
        return w;
    }

    /** @return the security statistics' type: 0 none, 1 rxnull, 2 vab, 3 rxkad */
    public int secStatsType() {
        return secStats[SEC_TYPE_LEVEL] >>> 24;
    }

    /** @return the security statistics' level (rxkad: 0 clear, 1 auth, 2 crypt) */
    public int secStatsLevel() {
        return (secStats[SEC_TYPE_LEVEL] >>> 16) & 0xFF;
    }

    /** @return the security statistics' flags: 1 unallocated, 2 authenticated, 4 expired, 8 packet checksum seen */
    public int secStatsFlags() {
        return secStats[SEC_FLAGS];
    }

    /** @return when the connection's credential ends, seconds since 1970 (unsigned), 0 for none */
    public long secStatsExpires() {
        return Integer.toUnsignedLong(secStats[SEC_EXPIRES]);
    }

    /**
     * @return the security class's counters, unsigned 32 bits each: packets received, packets sent, bytes
     *     received, bytes sent
     */
    public long[] secStatsCounters() {
        return new long[] {Integer.toUnsignedLong(secStats[SEC_PACKETS_RECEIVED]),
            Integer.toUnsignedLong(secStats[SEC_PACKETS_SENT]), Integer.toUnsignedLong(secStats[SEC_BYTES_RECEIVED]),
            Integer.toUnsignedLong(secStats[SEC_BYTES_SENT])};
    }

    /** @return true when this is the "no more connections" marker (cid {@link #END_CID}) */
    public boolean isEnd() {
        return cid == END_CID;
    }

    /** @return a copy of the 4 callNumbers */
    @Override
    public int[] callNumber() {
        return callNumber.clone();
    }

    /** @return a copy of the 4 call states */
    @Override
    public byte[] callState() {
        return callState.clone();
    }

    /** @return a copy of the 4 call modes */
    @Override
    public byte[] callMode() {
        return callMode.clone();
    }

    /** @return a copy of the 4 call flag bytes */
    @Override
    public byte[] callFlags() {
        return callFlags.clone();
    }

    /** @return a copy of the 4 callOther bytes */
    @Override
    public byte[] callOther() {
        return callOther.clone();
    }

    /** @return a copy of the 19 security statistics words */
    @Override
    public int[] secStats() {
        return secStats.clone();
    }

    /**
     * @param channel 0..3
     * @return the callNumber of that channel
     */
    public int callNumber(int channel) {
        return callNumber[channel];
    }

    /**
     * @param channel 0..3
     * @return the call state of that channel, 0..255
     */
    public int callState(int channel) {
        return callState[channel] & 0xFF;
    }

    /**
     * @param channel 0..3
     * @return the call mode of that channel, 0..255
     */
    public int callMode(int channel) {
        return callMode[channel] & 0xFF;
    }

    /**
     * @param channel 0..3
     * @return the low byte of that channel's call flags, 0..255
     */
    public int callFlags(int channel) {
        return callFlags[channel] & 0xFF;
    }

    /**
     * Appends the 176-byte struct.
     *
     * @param out destination; its writer index advances by exactly {@link #SIZE}; not released
     */
    public void encode(ByteBuf out) {
        out.writeInt(host);
        out.writeInt(cid);
        out.writeInt(serial);
        for (int n : callNumber) {
            out.writeInt(n);
        }
        out.writeInt(error);
        out.writeShort(port);
        out.writeByte(flags);
        out.writeByte(type);
        out.writeByte(securityIndex);
        out.writeZero(3);
        out.writeBytes(callState);
        out.writeBytes(callMode);
        out.writeBytes(callFlags);
        out.writeBytes(callOther);
        for (int w : secStats) {
            out.writeInt(w);
        }
        out.writeInt(epoch);
        out.writeInt(natMTU);
        out.writeZero(SIZE - 140);
    }

    /** @return the 176-byte body of a {@link DebugReply} carrying this struct */
    public byte[] toBody() {
        return DebugStructs.toBytes(SIZE, this::encode);
    }

    /**
     * Reads the struct from a debug reply body. Never throws.
     *
     * @param body the reply body; bytes past the first 176 are ignored
     * @return the struct, or {@code null} when {@code body} is null or shorter than 176 bytes
     */
    public static DebugConn decode(byte[] body) {
        if (body == null || body.length < SIZE) {
            return null;
        }
        int[] callNumber = new int[RxConstants.MAX_CALLS];
        for (int i = 0; i < callNumber.length; i++) {
            callNumber[i] = DebugStructs.getInt(body, 12 + 4 * i);
        }
        int[] secStats = new int[SEC_STATS_WORDS];
        for (int i = 0; i < secStats.length; i++) {
            secStats[i] = DebugStructs.getInt(body, 56 + 4 * i);
        }
        return new DebugConn(DebugStructs.getInt(body, 0), DebugStructs.getInt(body, 4),
                DebugStructs.getInt(body, 8), callNumber, DebugStructs.getInt(body, 28),
                DebugStructs.getUnsignedShort(body, 32), body[34] & 0xFF, body[35] & 0xFF, body[36] & 0xFF,
                Arrays.copyOfRange(body, 40, 44), Arrays.copyOfRange(body, 44, 48), Arrays.copyOfRange(body, 48, 52),
                Arrays.copyOfRange(body, 52, 56), secStats, DebugStructs.getInt(body, 132),
                DebugStructs.getInt(body, 136));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DebugConn c && c.host == host && c.cid == cid && c.serial == serial
                && Arrays.equals(c.callNumber, callNumber) && c.error == error && c.port == port && c.flags == flags
                && c.type == type && c.securityIndex == securityIndex && Arrays.equals(c.callState, callState)
                && Arrays.equals(c.callMode, callMode) && Arrays.equals(c.callFlags, callFlags)
                && Arrays.equals(c.callOther, callOther) && Arrays.equals(c.secStats, secStats)
                && c.epoch == epoch && c.natMTU == natMTU;
    }

    @Override
    public int hashCode() {
        return ((cid * 31 + epoch) * 31 + serial) * 31 + Arrays.hashCode(callNumber);
    }

    @Override
    public String toString() {
        return "DebugConn{host=" + Integer.toUnsignedString(host, 16) + " port=" + port + " epoch="
                + Integer.toUnsignedString(epoch, 16) + " cid=" + Integer.toUnsignedString(cid, 16) + " serial="
                + Integer.toUnsignedString(serial) + " calls=" + Arrays.toString(callNumber) + " error=" + error
                + " type=" + type + " sec=" + securityIndex + " natMTU=" + natMTU + "}";
    }
}
