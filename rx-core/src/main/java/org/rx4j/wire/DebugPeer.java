// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;

/**
 * Body of a GETPEER debug reply (struct rx_debugPeer, 132 bytes; see rx-wire-facts.md §9 and §13, field
 * sizes checked against OpenAFS src/rx/rx.h and the rxdebug capture).
 *
 * <p>Wire layout (big-endian): host 0, port 4 (u16), ifMTU 6 (u16), idleWhen 8, refCount 12 (s16),
 * burstSize 14 (u8), burst 15 (u8), burstWait 16 (sec, µs), rtt 24, rttDev 28, timeout 32 (sec, µs),
 * nSent 40, reSends 44, inPacketSkew 48, outPacketSkew 52, rateFlag 56, natMTU 60, maxMTU 62,
 * maxDgramPackets 64, ifDgramPackets 66, mtu 68, cwind 70, nDgramPackets 72, congestSeq 74 (all u16),
 * bytesSent 76 (hi, lo words), bytesReceived 84 (hi, lo), spare words 92..131. host and port are in network
 * order, so reading them big-endian gives the usual values. Spare bytes are written as zero and ignored
 * when read. The responder sends host {@link #END_HOST} when the index is past the last peer.
 *
 * @param host peer IPv4 address as a big-endian int
 * @param port peer UDP port, 0..65535
 * @param ifMTU interface MTU used for this peer, bytes, 0..65535
 * @param idleWhen when the peer's reference count went to zero, seconds (clock of the responder)
 * @param refCount reference count, -32768..32767
 * @param burstSize burst reinitialisation size, packets, 0..255
 * @param burst packets sendable now, 0..255
 * @param burstWaitSec burst wait, seconds part
 * @param burstWaitUsec burst wait, microseconds part
 * @param rtt smoothed RTT in 1/8 ms units
 * @param rttDev smoothed RTT deviation in 1/4 ms units
 * @param timeoutSec retransmit timeout, seconds part (OpenAFS 1.8 sends 0)
 * @param timeoutUsec retransmit timeout, microseconds part (OpenAFS 1.8 sends 0)
 * @param nSent distinct DATA packets sent, count
 * @param reSends retransmissions, count
 * @param inPacketSkew inbound serial skew, packets
 * @param outPacketSkew outbound serial skew, packets
 * @param rateFlag rate flag (unused by OpenAFS 1.8)
 * @param natMTU natural MTU, bytes, 0..65535
 * @param maxMTU largest packet the peer accepts, bytes, 0..65535
 * @param maxDgramPackets most jumbogram sub-packets the peer accepts, 0..65535
 * @param ifDgramPackets most jumbogram sub-packets the interface allows, 0..65535
 * @param mtu current packet size for the peer, bytes, 0..65535
 * @param cwind congestion window, packets, 0..65535
 * @param nDgramPackets current jumbogram size, packets, 0..65535
 * @param congestSeq congestion sequence, 0..65535
 * @param bytesSent bytes sent to the peer (64 bits from the hi/lo words)
 * @param bytesReceived bytes received from the peer (64 bits from the hi/lo words)
 */
public record DebugPeer(int host, int port, int ifMTU, int idleWhen, int refCount, int burstSize, int burst,
                        int burstWaitSec, int burstWaitUsec, int rtt, int rttDev, int timeoutSec, int timeoutUsec,
                        int nSent, int reSends, int inPacketSkew, int outPacketSkew, int rateFlag, int natMTU,
                        int maxMTU, int maxDgramPackets, int ifDgramPackets, int mtu, int cwind, int nDgramPackets,
                        int congestSeq, long bytesSent, long bytesReceived) {
    /** Bytes of the struct on the wire. */
    public static final int SIZE = 132;
    /** host of the "no more peers" reply. */
    public static final int END_HOST = 0xFFFF_FFFF;

    /** @throws IllegalArgumentException if a u8/u16/s16 field is out of range */
    public DebugPeer {
        DebugStructs.checkUnsigned("port", port, 16);
        DebugStructs.checkUnsigned("ifMTU", ifMTU, 16);
        if (refCount != (short) refCount) {
            throw new IllegalArgumentException("refCount must fit a signed 16-bit field: " + refCount);
        }
        DebugStructs.checkUnsigned("burstSize", burstSize, 8);
        DebugStructs.checkUnsigned("burst", burst, 8);
        DebugStructs.checkUnsigned("natMTU", natMTU, 16);
        DebugStructs.checkUnsigned("maxMTU", maxMTU, 16);
        DebugStructs.checkUnsigned("maxDgramPackets", maxDgramPackets, 16);
        DebugStructs.checkUnsigned("ifDgramPackets", ifDgramPackets, 16);
        DebugStructs.checkUnsigned("mtu", mtu, 16);
        DebugStructs.checkUnsigned("cwind", cwind, 16);
        DebugStructs.checkUnsigned("nDgramPackets", nDgramPackets, 16);
        DebugStructs.checkUnsigned("congestSeq", congestSeq, 16);
    }

    /**
     * The reply that ends a GETPEER walk: every field zero except host = {@link #END_HOST}.
     *
     * @return the end marker
     */
    public static DebugPeer end() {
        return new DebugPeer(END_HOST, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0);
    }

    /** @return true when this is the "no more peers" marker (host {@link #END_HOST}) */
    public boolean isEnd() {
        return host == END_HOST;
    }

    /**
     * Appends the 132-byte struct.
     *
     * @param out destination; its writer index advances by exactly {@link #SIZE}; not released
     */
    public void encode(ByteBuf out) {
        out.writeInt(host);
        out.writeShort(port);
        out.writeShort(ifMTU);
        out.writeInt(idleWhen);
        out.writeShort(refCount);
        out.writeByte(burstSize);
        out.writeByte(burst);
        out.writeInt(burstWaitSec);
        out.writeInt(burstWaitUsec);
        out.writeInt(rtt);
        out.writeInt(rttDev);
        out.writeInt(timeoutSec);
        out.writeInt(timeoutUsec);
        out.writeInt(nSent);
        out.writeInt(reSends);
        out.writeInt(inPacketSkew);
        out.writeInt(outPacketSkew);
        out.writeInt(rateFlag);
        out.writeShort(natMTU);
        out.writeShort(maxMTU);
        out.writeShort(maxDgramPackets);
        out.writeShort(ifDgramPackets);
        out.writeShort(mtu);
        out.writeShort(cwind);
        out.writeShort(nDgramPackets);
        out.writeShort(congestSeq);
        out.writeLong(bytesSent);
        out.writeLong(bytesReceived);
        out.writeZero(SIZE - 92);
    }

    /** @return the 132-byte body of a {@link DebugReply} carrying this struct */
    public byte[] toBody() {
        return DebugStructs.toBytes(SIZE, this::encode);
    }

    /**
     * Reads the struct from a debug reply body. Never throws.
     *
     * @param body the reply body; bytes past the first 132 are ignored
     * @return the struct, or {@code null} when {@code body} is null or shorter than 132 bytes
     */
    public static DebugPeer decode(byte[] body) {
        if (body == null || body.length < SIZE) {
            return null;
        }
        return new DebugPeer(DebugStructs.getInt(body, 0), DebugStructs.getUnsignedShort(body, 4),
                DebugStructs.getUnsignedShort(body, 6), DebugStructs.getInt(body, 8),
                (short) DebugStructs.getUnsignedShort(body, 12), body[14] & 0xFF, body[15] & 0xFF,
                DebugStructs.getInt(body, 16), DebugStructs.getInt(body, 20), DebugStructs.getInt(body, 24),
                DebugStructs.getInt(body, 28), DebugStructs.getInt(body, 32), DebugStructs.getInt(body, 36),
                DebugStructs.getInt(body, 40), DebugStructs.getInt(body, 44), DebugStructs.getInt(body, 48),
                DebugStructs.getInt(body, 52), DebugStructs.getInt(body, 56), DebugStructs.getUnsignedShort(body, 60),
                DebugStructs.getUnsignedShort(body, 62), DebugStructs.getUnsignedShort(body, 64),
                DebugStructs.getUnsignedShort(body, 66), DebugStructs.getUnsignedShort(body, 68),
                DebugStructs.getUnsignedShort(body, 70), DebugStructs.getUnsignedShort(body, 72),
                DebugStructs.getUnsignedShort(body, 74), DebugStructs.getHyper(body, 76),
                DebugStructs.getHyper(body, 84));
    }
}
