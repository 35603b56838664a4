// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

import org.rx4j.security.packet.ChannelCallNumbers;
import org.rx4j.security.packet.ConnectionRole;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.security.packet.SecurityContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/** What the engine will do around a security class, reduced to the packet steps the tests need. */
final class SecurityTestPackets {
    static final int EPOCH = 0x8a5f_0c11;
    static final int CID = 0x3c41_7a00;
    static final int SERVICE = 147;

    private SecurityTestPackets() {
    }

    /** Four fixed call numbers, as an engine's channels would report them. */
    static ChannelCallNumbers callNumbers(int c0, int c1, int c2, int c3) {
        int[] numbers = {c0, c1, c2, c3};
        return channel -> numbers[channel];
    }

    static SecurityContext context(SecurityClass sc, ConnectionRole role, ChannelCallNumbers numbers) {
        SecurityContext ctx = new SecurityContext(sc, role, EPOCH, CID, SERVICE, numbers);
        PacketSecurityAccess.of(sc).newConnection(ctx);
        return ctx;
    }

    /**
     * The engine's send side: a DATA body with the security header reserved and exactly trailerSize bytes
     * of room (max capacity fixed, so a class that overruns its trailer fails), then prepareOutgoing.
     * The returned packet owns the body.
     */
    static DataPacket prepare(SecurityContext ctx, int channel, int callNumber, int seq, int serial, int flags,
                              byte[] data) throws SecurityAbortException {
        PacketSecurity sc = PacketSecurityAccess.of(ctx.securityClass());
        int capacity = sc.headerSize(ctx) + data.length + sc.trailerSize(ctx);
        ByteBuf body = Unpooled.buffer(capacity, capacity);
        boolean ok = false;
        try {
            body.writeZero(sc.headerSize(ctx));
            body.writeBytes(data);
            int spare = sc.prepareOutgoing(ctx, channel, callNumber, seq, body);
            assertEquals(1, body.refCnt(), "prepareOutgoing must not release or retain");
            assertEquals(0, body.readerIndex(), "prepareOutgoing must not move the reader index");
            int clientFlag = ctx.isClient() ? 0x01 : 0;
            RxHeader header = new RxHeader(ctx.epoch(), ctx.cid() | channel, callNumber, seq, serial,
                    PacketType.DATA, flags | clientFlag, 0, sc.securityIndex(), spare, ctx.serviceId());
            ok = true;
            return new DataPacket(header, body);
        } finally {
            if (!ok) {
                body.release();
            }
        }
    }

    /** Puts the packets on the wire as one datagram (a jumbogram when more than one) and decodes it. */
    static List<DataPacket> transmit(List<DataPacket> packets) {
        ByteBuf datagram = Unpooled.buffer();
        try {
            if (packets.size() == 1) {
                PacketEncoder.encode(packets.get(0), datagram);
            } else {
                PacketEncoder.encodeJumbogram(packets, datagram);
            }
            List<RxPacket> out = new ArrayList<>();
            assertNull(PacketDecoder.decode(datagram, out));
            List<DataPacket> data = new ArrayList<>();
            for (RxPacket p : out) {
                data.add((DataPacket) p);
            }
            return data;
        } finally {
            datagram.release();
        }
    }

    /** @return the readable bytes of a buffer, without consuming them */
    static byte[] readable(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), bytes);
        return bytes;
    }

    /**
     * @param h a decoded wire header
     * @return the same fields as the security SPI's {@link PacketHeader}
     */
    static PacketHeader view(RxHeader h) {
        return new PacketHeader(h.epoch(), h.cid(), h.callNumber(), h.seq(), h.serial(), h.type(), h.flags(),
                h.userStatus(), h.securityIndex(), h.spare(), h.serviceId());
    }
}
