// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import io.netty.buffer.Unpooled;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;

/**
 * Builds the packets the other end of one connection would send, for packet-level tests: a fake client
 * (CLIENT_INITIATED on every packet) talking to a server engine, or a fake server answering a client
 * engine's connection. Keeps the connection's outgoing serial counter (pre-incremented, first is 1).
 */
public final class FakePeer {
    public final int epoch;
    public final int cid;
    final int serviceId;
    final int securityIndex;
    private final boolean clientSide;
    public int serial;

    private FakePeer(int epoch, int cid, int serviceId, int securityIndex, boolean clientSide) {
        this.epoch = epoch;
        this.cid = cid;
        this.serviceId = serviceId;
        this.securityIndex = securityIndex;
        this.clientSide = clientSide;
    }

    /** A fake client with its own epoch and connection id. */
    public static FakePeer client(int epoch, int cid, int serviceId) {
        return new FakePeer(epoch, cid, serviceId, 0, true);
    }

    /** A fake client of a service at another security index (its packets carry it; it runs no security class). */
    public static FakePeer client(int epoch, int cid, int serviceId, int securityIndex) {
        return new FakePeer(epoch, cid, serviceId, securityIndex, true);
    }

    /** A fake server end of a connection with this identity (packets without CLIENT_INITIATED). */
    public static FakePeer server(int epoch, int cid, int serviceId) {
        return new FakePeer(epoch, cid, serviceId, 0, false);
    }

    /** The server end of a client engine's connection. */
    public static FakePeer serverOf(Connection conn) {
        return new FakePeer(conn.epoch(), conn.cid(), conn.serviceId(), conn.securityIndex(), false);
    }

    /** @return a copy with another security index (same serial counter start) */
    public FakePeer withSecurityIndex(int index) {
        FakePeer p = new FakePeer(epoch, cid, serviceId, index, clientSide);
        p.serial = serial;
        return p;
    }

    /** @return a header of this connection with the next serial (CLIENT_INITIATED added on the client side) */
    public RxHeader header(int channel, int callNumber, int seq, int type, int flags) {
        int f = clientSide ? flags | PacketFlags.CLIENT_INITIATED : flags;
        return new RxHeader(epoch, cid | channel, callNumber, seq, ++serial, type, f, 0, securityIndex, 0,
                serviceId);
    }

    /** A DATA packet of {@code bytes} zero bytes. */
    public DataPacket data(int channel, int callNumber, int seq, int flags, int bytes) {
        return new DataPacket(header(channel, callNumber, seq, PacketType.DATA, flags),
                Unpooled.buffer(bytes).writeZero(bytes));
    }

    /** An ACK with a full (4-word) trailer advertising {@code rwind} and {@code maxDgram}. */
    public AckPacket ack(int channel, int callNumber, int first, int prev, int ackSerial, int reason, byte[] acks,
                  int rwind, int maxDgram) {
        return ack(channel, callNumber, first, prev, ackSerial, reason, acks, 4, rwind, maxDgram, 0);
    }

    /** An ACK with {@code trailerWords} trailer words and extra header flags (e.g. REQUEST_ACK). */
    public AckPacket ack(int channel, int callNumber, int first, int prev, int ackSerial, int reason, byte[] acks,
                  int trailerWords, int rwind, int maxDgram, int extraFlags) {
        RxHeader h = header(channel, callNumber, 0, PacketType.ACK, PacketFlags.SLOW_START_OK | extraFlags);
        int mtu = maxDgram > 1 ? 1444 + (maxDgram - 1) * 1416 : 1444;
        return new AckPacket(h, 0, 0, first, prev, ackSerial, reason, acks, trailerWords,
                trailerWords >= 2 ? mtu : 0, trailerWords >= 2 ? 1444 : 0, trailerWords >= 3 ? rwind : 0,
                trailerWords >= 4 ? maxDgram : 0, 0);
    }

    /** A PING (REQUEST_ACK set), as a keepalive or reachability probe. */
    public AckPacket ping(int channel, int callNumber) {
        return ack(channel, callNumber, 1, 0, 0, org.rx4j.wire.AckReason.PING, new byte[0], 4, 32, 1,
                PacketFlags.REQUEST_ACK);
    }

    /** An ABORT carrying {@code code}. */
    public AbortPacket abort(int channel, int callNumber, int code) {
        return new AbortPacket(header(channel, callNumber, 0, PacketType.ABORT, 0), code);
    }

    /** A bodiless packet of any type (BUSY, ACKALL, or an unknown type). */
    public ControlPacket control(int type, int channel, int callNumber) {
        return new ControlPacket(header(channel, callNumber, 0, type, 0), new byte[0]);
    }

    /** @return an ack array marking each entry: '+' acked, '-' nacked */
    public static byte[] acks(String marks) {
        byte[] a = new byte[marks.length()];
        for (int i = 0; i < a.length; i++) {
            a[i] = marks.charAt(i) == '+' ? AckPacket.ACKED : AckPacket.NACKED;
        }
        return a;
    }
}
