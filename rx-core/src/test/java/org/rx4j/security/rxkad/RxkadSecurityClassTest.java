// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.packet.ConnectionRole;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.security.rxkad.handshake.V4Ticket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rxkad client and server classes on their own, through their packet work (the internal security SPI): a
 * RESPONSE replayed on another connection, sizes at each level, and no key or ticket in any string or message.
 */
class RxkadSecurityClassTest {
    static final long SERVER_KEY = 0x0123456789abcdefL; // DES odd parity in every byte
    static final long SESSION = 0x1f2e3d4c5b6a7988L;
    static final long NOW = 1_800_000_000L;
    static final byte[] TICKET = new V4Ticket("eve", "", "X.ORG", 0, SESSION, NOW - 10, NOW + 3600, "afs", "")
            .seal(SERVER_KEY);

    private static RxkadServerSecurity server() {
        return new RxkadServerSecurity(ServerKeySource.of(List.of(new ServerKey(ServerKey.RXKAD, 1, 0,
                HexFormat.of().parseHex(String.format("%016x", SERVER_KEY))))), RxkadLevel.CLEAR, () -> NOW,
                new Random(3));
    }

    private static SecurityContext context(org.rx4j.security.SecurityClass c, ConnectionRole role, int cid) {
        SecurityContext ctx = new SecurityContext(c, role, 0x81234567, cid, 1, ch -> ch + 1);
        PacketSecurityAccess.of(c).newConnection(ctx);
        return ctx;
    }

    @Test
    void aResponseReplayedOnAnotherConnectionIsRefused() throws SecurityAbortException {
        PacketSecurity client = PacketSecurityAccess.of(new RxkadClientSecurity(RxkadLevel.CRYPT,
                new SessionKey(SESSION), 1, TICKET));
        PacketSecurity server = PacketSecurityAccess.of(server());
        SecurityContext a = context(server, ConnectionRole.SERVER, 0x40);
        SecurityContext b = context(server, ConnectionRole.SERVER, 0x80);
        byte[] response = client.responseBody(context(client, ConnectionRole.CLIENT, 0x40),
                server.challengeBody(a).orElseThrow());
        assertEquals(0, server.checkResponse(a, response));
        assertEquals(RxkadLevel.CRYPT.wire(), server.identity(a).level());
        assertEquals("eve", server.identity(a).principal());
        // The same bytes on another connection: made for connection 0x40, and for another nonce.
        assertEquals(RxkadCodes.RXKADSEALEDINCON, server.checkResponse(b, response));
        assertFalse(server.isAuthenticated(b));
        assertNull(server.identity(b));
    }

    @Test
    void sizesFollowTheLevel() {
        for (RxkadLevel level : RxkadLevel.values()) {
            PacketSecurity client = PacketSecurityAccess.of(new RxkadClientSecurity(level, new SessionKey(SESSION), 1,
                    TICKET));
            SecurityContext ctx = context(client, ConnectionRole.CLIENT, 0x40);
            int data = client.maxDataPerPacket(ctx, 1440);
            assertEquals(List.of(1412, 1408, 1400).get(level.ordinal()), data);
            assertTrue(client.preparedLength(ctx, data) <= 1412);
            assertEquals(level.headerSize(), client.headerSize(ctx));
            assertEquals(0, client.maxDataPerPacket(ctx, 28 + 7), "no room for a block");
        }
    }

    @Test
    void aPacketSealedByOneSideOpensOnTheOtherOnlyUnchanged() throws SecurityAbortException {
        PacketSecurity client = PacketSecurityAccess.of(new RxkadClientSecurity(RxkadLevel.AUTH,
                new SessionKey(SESSION), 1, TICKET));
        PacketSecurity server = PacketSecurityAccess.of(server());
        SecurityContext s = context(server, ConnectionRole.SERVER, 0x40);
        SecurityContext c = context(client, ConnectionRole.CLIENT, 0x40);
        assertEquals(0, server.checkResponse(s, client.responseBody(c, server.challengeBody(s).orElseThrow())));
        ByteBuf packet = Unpooled.buffer(64);
        packet.writeZero(4).writeBytes("hello, rxkad".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        int spare = client.prepareOutgoing(c, 2, 9, 3, packet);
        PacketHeader h = new PacketHeader(0x81234567, 0x42, 9, 3, 1, 3, 0, 0, 2, spare, 1);
        ByteBuf copy = packet.copy();
        assertEquals(0, server.checkIncoming(s, h, packet));
        assertEquals("hello, rxkad", packet.toString(java.nio.charset.StandardCharsets.US_ASCII));
        PacketHeader moved = new PacketHeader(0x81234567, 0x42, 9, 4, 1, 3, 0, 0, 2, spare, 1);
        assertEquals(RxkadCodes.RXKADSEALEDINCON, server.checkIncoming(s, moved, copy.copy()));
        PacketHeader noSum = new PacketHeader(0x81234567, 0x42, 9, 3, 1, 3, 0, 0, 2, 0, 1);
        assertEquals(RxkadCodes.RXKADSEALEDINCON, server.checkIncoming(s, noSum, copy));
    }

    @Test
    void noKeyOrTicketInStringsOrMessages() {
        String key = String.format("%016x", SESSION);
        String ticket = HexFormat.of().formatHex(TICKET, 0, 8);
        PacketSecurity client = PacketSecurityAccess.of(new RxkadClientSecurity(RxkadLevel.CRYPT,
                new SessionKey(SESSION), 1, TICKET));
        SecurityContext c = context(client, ConnectionRole.CLIENT, 0x40);
        SecurityAbortException refused = assertThrows(SecurityAbortException.class,
                () -> client.responseBody(c, new byte[] {0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0}));
        for (String s : new String[] {client.toString(), server().toString(), c.toString(), refused.getMessage()}) {
            assertNotNull(s);
            assertFalse(s.toLowerCase().contains(key) || s.toLowerCase().contains(ticket), s);
        }
    }
}
