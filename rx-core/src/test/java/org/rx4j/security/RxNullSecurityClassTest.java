// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

import org.rx4j.security.packet.ConnectionRole;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.security.packet.SecurityContext;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.security.SecurityTestPackets.callNumbers;
import static org.rx4j.security.SecurityTestPackets.context;
import static org.rx4j.security.SecurityTestPackets.prepare;
import static org.rx4j.security.SecurityTestPackets.readable;
import static org.rx4j.security.SecurityTestPackets.transmit;
import static org.rx4j.security.SecurityTestPackets.view;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

class RxNullSecurityClassTest {
    private final PacketSecurity rxnull = PacketSecurityAccess.of(RxNullSecurityClass.INSTANCE);
    private final SecurityContext client = context(rxnull, ConnectionRole.CLIENT, callNumbers(1, 0, 0, 0));
    private final SecurityContext server = context(rxnull, ConnectionRole.SERVER, callNumbers(1, 0, 0, 0));

    @Test
    void identityAndSizes() {
        assertEquals(0, rxnull.securityIndex());
        assertEquals(SecurityIndex.RXNULL, client.securityIndex());
        assertEquals("rxnull", rxnull.name());
        assertEquals(0, rxnull.headerSize(client));
        assertEquals(0, rxnull.trailerSize(client));
        // §5: data per packet = packet size - 28 for rxnull.
        assertEquals(1416, rxnull.maxDataPerPacket(client, RxConstants.REMOTE_PACKET_SIZE));
        assertEquals(1412, rxnull.maxDataPerPacket(client, 1440));
        assertEquals(0, rxnull.maxDataPerPacket(client, 20));
    }

    @Test
    void dataTravelsUntouchedWithSpareZero() throws Exception {
        byte[] data = "rxperf payload".getBytes();
        DataPacket sent = prepare(client, 2, 7, 1, 1, 0x04, data);
        assertEquals(0, sent.header().spare());
        assertArrayEquals(data, readable(sent.payload()), "no security header or trailer");
        DataPacket received = transmit(List.of(sent)).get(0);
        sent.release();
        ByteBuf body = received.payload();
        int reader = body.readerIndex();
        int writer = body.writerIndex();
        assertEquals(0, rxnull.checkIncoming(server, view(received.header()), body));
        assertEquals(reader, body.readerIndex());
        assertEquals(writer, body.writerIndex());
        assertArrayEquals(data, readable(body));
        assertEquals(1, body.refCnt(), "checkIncoming must not release");
        received.release();
        assertEquals(0, body.refCnt());
    }

    @Test
    void anySpareIsAcceptedAndEmptyBodiesToo() {
        ByteBuf empty = Unpooled.EMPTY_BUFFER;
        RxHeader header = new RxHeader(1, 4, 1, 1, 1, PacketType.DATA, 0x05, 0, 0, 0xBEEF, 147);
        assertEquals(0, rxnull.checkIncoming(server, view(header), empty));
    }

    @Test
    void neverChallenges() throws SecurityAbortException {
        assertTrue(rxnull.isAuthenticated(server));
        assertTrue(rxnull.challengeBody(server).isEmpty());
        assertEquals(0, rxnull.responseBody(client, new byte[16]).length);
        assertEquals(0, rxnull.checkResponse(server, new byte[] {1, 2, 3}));
        assertNull(server.takeResponseCallNumbers());
        assertNull(server.state(), "rxnull keeps no per-connection state");
    }
}
