// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

import org.rx4j.security.packet.ConnectionRole;
import org.rx4j.security.packet.SecurityContext;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * Drives the test-only {@link ToyChecksumSecurityClass} through the interface the way the engine will:
 * per-connection state, challenge/response with call numbers, header/trailer space, an in-place transform,
 * a spare checksum, stripping on receive, and rejection of corrupted packets with the class's code.
 */
class ToySecurityClassTest {
    private static final long SECRET = 0x5ec2e7L;

    private final ToyChecksumSecurityClass serverClass = new ToyChecksumSecurityClass(SECRET, new Random(1));
    private final ToyChecksumSecurityClass clientClass = new ToyChecksumSecurityClass(SECRET, new Random(2));
    private final SecurityContext server = context(serverClass, ConnectionRole.SERVER, callNumbers(0, 0, 0, 0));
    private final SecurityContext client = context(clientClass, ConnectionRole.CLIENT, callNumbers(5, 0, 9, 1));

    private void handshake() throws SecurityAbortException {
        assertFalse(serverClass.isAuthenticated(server));
        byte[] challenge = serverClass.challengeBody(server).orElseThrow();
        assertArrayEquals(challenge, serverClass.challengeBody(server).orElseThrow(), "resent challenge is the same");
        byte[] response = clientClass.responseBody(client, challenge);
        assertEquals(0, serverClass.checkResponse(server, response));
        assertTrue(serverClass.isAuthenticated(server));
    }

    private static byte[] data(int length, int seed) {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        return data;
    }

    @Test
    void sizesReduceDataPerPacket() {
        assertEquals(4, serverClass.headerSize(server));
        assertEquals(8, serverClass.trailerSize(server));
        assertEquals(1444 - 28 - 4 - 8, serverClass.maxDataPerPacket(server, RxConstants.REMOTE_PACKET_SIZE));
        // A jumbogram sub-packet body is 1412 bytes, so 1400 of them are data.
        assertEquals(1400, serverClass.maxDataPerPacket(server, RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE));
    }

    @Test
    void responseCarriesTheClientsCallNumbersToTheServerEngine() throws Exception {
        handshake();
        assertArrayEquals(new int[] {5, 0, 9, 1}, server.takeResponseCallNumbers());
        assertNull(server.takeResponseCallNumbers(), "taking clears them");
    }

    @Test
    void forgedOrMalformedResponsesAreRejectedWithTheClassCode() throws Exception {
        byte[] challenge = serverClass.challengeBody(server).orElseThrow();
        ToyChecksumSecurityClass impostor = new ToyChecksumSecurityClass(SECRET + 1, new Random(3));
        SecurityContext impostorCtx = context(impostor, ConnectionRole.CLIENT, callNumbers(1, 1, 1, 1));
        assertEquals(ToyChecksumSecurityClass.BAD_RESPONSE,
                serverClass.checkResponse(server, impostor.responseBody(impostorCtx, challenge)));
        byte[] good = clientClass.responseBody(client, challenge);
        good[13] ^= 1; // a call number changed in transit
        assertEquals(ToyChecksumSecurityClass.BAD_RESPONSE, serverClass.checkResponse(server, good));
        assertEquals(ToyChecksumSecurityClass.BAD_RESPONSE, serverClass.checkResponse(server, new byte[0]));
        assertFalse(serverClass.isAuthenticated(server));
        assertNull(server.takeResponseCallNumbers());

        SecurityAbortException e = assertThrows(SecurityAbortException.class,
                () -> clientClass.responseBody(client, new byte[5]));
        assertEquals(ToyChecksumSecurityClass.BAD_CHALLENGE, e.code());
    }

    @Test
    void dataRoundTripsThroughTheWireAndIsStrippedToTheData() throws Exception {
        handshake();
        byte[] data = data(300, 11);
        DataPacket sent = prepare(client, 2, 9, 1, 1, PacketFlags.LAST_PACKET, data);
        int spare = sent.header().spare();
        assertNotEquals(0, spare, "checksum travels in the spare field");
        assertEquals(4 + 300 + 8, sent.payload().readableBytes(), "header and trailer around the data");
        assertEquals(300, sent.payload().getInt(0), "security header written into the reserved bytes");
        assertFalse(java.util.Arrays.equals(data, java.util.Arrays.copyOfRange(readable(sent.payload()), 4, 304)),
                "payload transformed in place");

        DataPacket received = transmit(List.of(sent)).get(0);
        sent.release();
        assertEquals(spare, received.header().spare());
        ByteBuf body = received.payload();
        assertEquals(0, serverClass.checkIncoming(server, view(received.header()), body));
        assertArrayEquals(data, readable(body), "readable region narrowed to the data");
        assertEquals(1, body.refCnt(), "checkIncoming must not release");
        received.release();
        assertEquals(0, body.refCnt());
    }

    @Test
    void fullSizePacketFitsTheCallMtuExactly() throws Exception {
        handshake();
        int dataBytes = clientClass.maxDataPerPacket(client, RxConstants.REMOTE_PACKET_SIZE);
        DataPacket sent = prepare(client, 0, 5, 1, 1, 0, data(dataBytes, 3));
        assertEquals(RxConstants.REMOTE_PACKET_SIZE, RxConstants.HEADER_SIZE + sent.payload().readableBytes());
        sent.release();
    }

    @Test
    void jumbogramSubPacketsEachCarryTheirOwnChecksum() throws Exception {
        handshake();
        byte[] first = data(1400, 1);
        byte[] second = data(77, 2);
        DataPacket p1 = prepare(server, 2, 9, 1, 40, 0, first);
        DataPacket p2 = prepare(server, 2, 9, 2, 41, PacketFlags.LAST_PACKET, second);
        assertEquals(RxConstants.JUMBO_BUFFER_SIZE, p1.payload().readableBytes());
        assertNotEquals(p1.header().spare(), p2.header().spare());
        List<DataPacket> received = transmit(List.of(p1, p2));
        p1.release();
        p2.release();
        assertEquals(2, received.size());
        assertEquals(p2.header().spare(), received.get(1).header().spare(), "spare came from the jumbo header");
        assertEquals(0, clientClass.checkIncoming(client, view(received.get(0).header()), received.get(0).payload()));
        assertEquals(0, clientClass.checkIncoming(client, view(received.get(1).header()), received.get(1).payload()));
        assertArrayEquals(first, readable(received.get(0).payload()));
        assertArrayEquals(second, readable(received.get(1).payload()));
        received.forEach(DataPacket::release);
    }

    @Test
    void corruptedPayloadIsRejectedWithTheClassCode() throws Exception {
        handshake();
        DataPacket sent = prepare(client, 1, 3, 4, 9, 0, data(64, 5));
        DataPacket received = transmit(List.of(sent)).get(0);
        sent.release();
        ByteBuf body = received.payload();
        body.setByte(body.readerIndex() + 20, body.getByte(body.readerIndex() + 20) ^ 0x40);
        assertEquals(ToyChecksumSecurityClass.BAD_MAC, serverClass.checkIncoming(server, view(received.header()), body));
        assertEquals(1, body.refCnt());
        received.release();
    }

    @Test
    void wrongSpareOrReplayedUnderAnotherSeqIsRejected() throws Exception {
        handshake();
        DataPacket sent = prepare(client, 1, 3, 4, 9, 0, data(64, 6));
        RxHeader h = sent.header();
        ByteBuf body = sent.payload();
        RxHeader badSpare = new RxHeader(h.epoch(), h.cid(), h.callNumber(), h.seq(), h.serial(), h.type(),
                h.flags(), h.userStatus(), h.securityIndex(), h.spare() ^ 0x0100, h.serviceId());
        assertEquals(ToyChecksumSecurityClass.BAD_CHECKSUM, serverClass.checkIncoming(server, view(badSpare), body.duplicate()));
        RxHeader replayed = h.withSeqSerialFlags(h.seq() + 1, h.serial() + 1, h.flags());
        assertEquals(ToyChecksumSecurityClass.BAD_CHECKSUM, serverClass.checkIncoming(server, view(replayed), body.duplicate()));
        assertEquals(0, serverClass.checkIncoming(server, view(h), body.duplicate()), "the genuine header still passes");
        sent.release();
    }

    @Test
    void shortOrLyingBodiesAreRejectedWithoutThrowing() throws Exception {
        handshake();
        DataPacket sent = prepare(client, 0, 1, 1, 1, 0, data(10, 7));
        RxHeader h = sent.header();
        ByteBuf body = sent.payload();
        assertEquals(ToyChecksumSecurityClass.BAD_LENGTH,
                serverClass.checkIncoming(server, view(h), body.slice(body.readerIndex(), 11)));
        body.setInt(body.readerIndex(), 0x7FFF_FFFF);
        assertEquals(ToyChecksumSecurityClass.BAD_LENGTH, serverClass.checkIncoming(server, view(h), body.duplicate()));
        sent.release();

        Random random = new Random(99);
        for (int i = 0; i < 2000; i++) {
            byte[] junk = new byte[random.nextInt(40)];
            random.nextBytes(junk);
            RxHeader any = new RxHeader(1, random.nextInt(), random.nextInt(), random.nextInt(), 1, 1, 0, 0,
                    ToyChecksumSecurityClass.INDEX, random.nextInt(0x10000), 147);
            assertNotEquals(0, serverClass.checkIncoming(server, view(any), Unpooled.wrappedBuffer(junk)));
        }
    }

    @Test
    void nothingIsAcceptedOrSentBeforeAuthentication() {
        RxHeader h = new RxHeader(1, 4, 1, 1, 1, 1, 0, 0, ToyChecksumSecurityClass.INDEX, 1, 147);
        assertEquals(ToyChecksumSecurityClass.NOT_AUTHENTICATED,
                serverClass.checkIncoming(server, view(h), Unpooled.wrappedBuffer(new byte[20])));
        SecurityAbortException e = assertThrows(SecurityAbortException.class,
                () -> prepare(server, 0, 1, 1, 1, 0, new byte[4]));
        assertEquals(ToyChecksumSecurityClass.NOT_AUTHENTICATED, e.code());
    }

    @Test
    void stateSlotBelongsToTheClassForTheConnectionsLife() {
        assertTrue(server.state() instanceof ToyChecksumSecurityClass.State);
        serverClass.destroyConnection(server);
        assertNull(server.state());
    }
}
