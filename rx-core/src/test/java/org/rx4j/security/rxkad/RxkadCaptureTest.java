// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.SecurityIndex;
import org.rx4j.security.packet.ChannelCallNumbers;
import org.rx4j.security.packet.ConnectionRole;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.security.rxkad.crypto.Fcrypt;
import org.rx4j.security.rxkad.crypto.PacketChecksum;
import org.rx4j.security.rxkad.crypto.RxkadKdf;
import org.rx4j.security.rxkad.handshake.RxkadChallenge;
import org.rx4j.security.rxkad.handshake.RxkadResponse;
import org.rx4j.security.rxkad.handshake.TicketOpener;
import org.rx4j.security.rxkad.handshake.V4Ticket;
import org.rx4j.testing.Captures;
import org.rx4j.testing.Captures.Datagram;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Golden traffic: rxkad connections between two real OpenAFS 1.8.9 Rx stacks (the project's C rxperf peer on Debian's
 * libafsrpc, with its rxkad, as client and as server) captured on loopback at clear, auth and crypt (test resources
 * {@code captures/rxkad-*}, see their README). From the capture and its KeyFile alone, rx4j's own code opens the
 * RESPONSE's ticket with the server's DES key, checks the RESPONSE's sealed block (checksum, connection, nonce + 1,
 * call numbers, level), every DATA packet's header checksum and, at auth and crypt, its sealed payload, and finds
 * rxperf's request and payload pattern (docs/interop.md "Payload pattern") in the plaintext. rx4j's server and client
 * classes, given the capture's nonce and session key, make the captured CHALLENGE, RESPONSE and DATA payloads byte
 * for byte (up to padding OpenAFS left unzeroed). One flipped byte fails the check at every level. ACKs carry no
 * rxkad checksum, so only DATA is checked.
 */
class RxkadCaptureTest {
    static final List<String> CAPTURES = List.of("rxkad-clear-rpc", "rxkad-clear-send", "rxkad-auth-rpc",
            "rxkad-auth-send", "rxkad-crypt-rpc", "rxkad-crypt-send");
    /** The captures' date, 2026-12-02 14:32 UTC, in seconds since 1970 (the ticket never ends, so any day works). */
    private static final long CAPTURED_AT = 1_796_221_920L;
    private static final int RXPERF_SERVICE = 147;
    private static final int RXPERF_VERSION = 3;
    private static final int SEND = 0;
    private static final int RPC = 3;
    /** rxperf's default read and write chunk sizes, which the client sends in its parameter block. */
    private static final int CHUNK = 524_288;
    private static final int COOKIE = 0x00004711;
    /** {@code client -c send -b 3000}: the bytes of the one SEND call. */
    private static final int SEND_BYTES = 3000;
    /** {@code client -c rpc -S 4 -R 30}: request and reply bytes of each RPC call. */
    private static final int RPC_REQUEST = 4;
    private static final int RPC_REPLY = 30;

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void everyPacketOfTheCaptureChecksOut(String name) {
        List<Datagram> capture = Captures.load(name);
        Replay replay = Replay.of(name, capture);
        // rpc: 2 requests and 2 replies of one packet each; send: a 3-packet request and its reply
        assertEquals(4, replay.dataPackets, name + " DATA packets checked");
        // all but, at crypt, the server's last reply, which OpenAFS padded with its buffer's old bytes
        assertEquals(level(name) == RxkadLevel.CRYPT ? 3 : 4, replay.sealedAgainWhole, name + " sealed again whole");
        assertEquals(capture.size(), replay.dataPackets + replay.ackPackets + 2, name + ": DATA, ACK, CHALLENGE, "
                + "RESPONSE and nothing else");
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void theTicketIsTheLocalAuthTicketTheCPeerMints(String name) {
        Replay replay = Replay.of(name, Captures.load(name));
        V4Ticket t = replay.ticket;
        assertEquals(List.of("afs", "", "", "afs", ""),
                List.of(t.name(), t.instance(), t.cell(), t.serviceName(), t.serviceInstance()));
        assertEquals(0, t.host());
        assertEquals(0, t.start());
        assertEquals(TicketLifetime.NEVER, t.end());
        assertEquals(t.sessionKey(), RxkadKdf.withOddParity(t.sessionKey()), "a DES key with odd parity");
        assertEquals(4, replay.response.kvno(), "sealed with the KeyFile's newest key");
        CallerIdentity who = replay.server.identity(replay.serverCtx);
        assertNotNull(who);
        assertEquals("afs", who.principal());
        assertEquals(SecurityIndex.RXKAD, who.securityIndex());
        assertEquals(level(name).wire(), who.level());
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void aFlippedUserDataByteFailsTheCheck(String name) {
        // payload byte 20 of the user data: the first pattern byte of SEND, rxperf's R of RPC. At clear and auth
        // it travels in the clear; at crypt it lies in the 4th PCBC block, whose change garbles only the rest.
        int offset = RxConstants.HEADER_SIZE + level(name).headerSize() + 20;
        List<Datagram> tampered = flipped(Captures.load(name), 0, offset);
        assertThrows(AssertionError.class, () -> Replay.of(name, tampered));
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void aFlippedByteOfTheSealedBlockOrTheChecksumIsRefusedByRx4j(String name) {
        Replay replay = Replay.of(name, Captures.load(name));
        Packet first = replay.packets.get(0);
        assertEquals(PacketType.DATA, first.header().type());
        PacketHeader h = header(first.header(), first.header().spare());
        PacketHeader wrongSum = header(first.header(), first.header().spare() ^ 0x0100);
        assertEquals("RXKADSEALEDINCON", codeName(replay.server.checkIncoming(replay.serverCtx, wrongSum,
                Unpooled.copiedBuffer(first.body()))), name + ": a wrong checksum");
        ByteBuf sealedBlock = Unpooled.copiedBuffer(first.body());
        sealedBlock.setByte(1, sealedBlock.getByte(1) ^ 0x40);
        int code = replay.server.checkIncoming(replay.serverCtx, h, sealedBlock);
        if (level(name) == RxkadLevel.CLEAR) {
            assertEquals(0, code, "at clear the payload is not sealed");
        } else {
            assertEquals("RXKADSEALEDINCON", codeName(code), name);
        }
        assertEquals(0, replay.server.checkIncoming(replay.serverCtx, h, Unpooled.copiedBuffer(first.body())),
                "the unchanged packet still opens");
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void aFlippedResponseByteIsRefused(String name) {
        List<Datagram> capture = Captures.load(name);
        Replay replay = Replay.of(name, capture);
        int index = capture.indexOf(replay.responsePacket.datagram());
        // byte 20 of the RESPONSE's sealed part (epoch, cid, checksum, index, call numbers, nonce + 1, level)
        int offset = RxConstants.HEADER_SIZE + 8 + 20;
        byte[] body = flipped(capture, index, offset).get(index).bytes();
        byte[] response = Arrays.copyOfRange(body, RxConstants.HEADER_SIZE, body.length);
        PacketSecurity server = server(level(name), replay.challenge.nonce());
        SecurityContext ctx = context(server, ConnectionRole.SERVER, replay.first, ch -> 0);
        assertEquals("RXKADSEALEDINCON", codeName(server.checkResponse(ctx, response)));
        assertFalse(server.isAuthenticated(ctx));
        assertThrows(AssertionError.class, () -> Replay.of(name, flipped(capture, index, offset)));
    }

    /**
     * One capture, checked: decoded, its handshake opened with the KeyFile, every DATA packet checked and opened by
     * rx4j's server (client to server) or client (server to client) and sealed again by the other side, and the
     * calls' plaintext compared with what rxperf sends. Construction fails with an {@link AssertionError} on any
     * mismatch.
     */
    private static final class Replay {
        final List<Packet> packets;
        final RxHeader first;
        RxkadChallenge challenge;
        Packet challengePacket;
        Packet responsePacket;
        V4Ticket ticket;
        RxkadResponse response;
        PacketSecurity server;
        SecurityContext serverCtx;
        PacketSecurity client;
        SecurityContext clientCtx;
        int dataPackets;
        int ackPackets;
        /** DATA packets whose padding OpenAFS left zero, so that rx4j's seal gave back all their bytes. */
        int sealedAgainWhole;

        private Replay(List<Packet> packets) {
            this.packets = packets;
            this.first = packets.get(0).header();
        }

        /**
         * @throws AssertionError on any mismatch, also where rx4j's code refuses a packet with an RXKAD code
         */
        static Replay of(String name, List<Datagram> capture) {
            RxkadLevel level = level(name);
            Replay r = new Replay(decode(name, capture));
            for (Packet p : r.packets) {
                RxHeader h = p.header();
                assertEquals(SecurityIndex.RXKAD, h.securityIndex(), p.where());
                assertEquals(r.first.epoch(), h.epoch(), p.where() + ": one connection");
                assertEquals(r.first.connectionId(), h.connectionId(), p.where() + ": one connection");
                assertEquals(RXPERF_SERVICE, h.serviceId(), p.where());
                switch (h.type()) {
                    case PacketType.CHALLENGE -> {
                        assertNull(r.challengePacket, p.where() + ": one CHALLENGE");
                        assertFalse(p.datagram().clientToServer(), p.where());
                        r.challengePacket = p;
                    }
                    case PacketType.RESPONSE -> {
                        assertNull(r.responsePacket, p.where() + ": one RESPONSE");
                        assertTrue(p.datagram().clientToServer(), p.where());
                        r.responsePacket = p;
                    }
                    case PacketType.DATA -> r.dataPackets++;
                    case PacketType.ACK -> r.ackPackets++;
                    default -> throw new AssertionError(p.where() + ": unexpected packet type " + h.type());
                }
            }
            assertNotNull(r.challengePacket, name + " has a CHALLENGE");
            assertNotNull(r.responsePacket, name + " has a RESPONSE");
            try {
                r.openHandshake(name, level);
                r.checkData(name, level);
            } catch (SecurityAbortException e) {
                throw new AssertionError(name + ": refused with " + codeName(e.code()), e);
            }
            return r;
        }

        /** Opens the RESPONSE as a server does, and has rx4j's server and client make both handshake packets. */
        private void openHandshake(String name, RxkadLevel level) throws SecurityAbortException {
            byte[] challengeBody = challengePacket.body();
            byte[] responseBody = responsePacket.body();
            assertEquals(0, challengePacket.header().callNumber());
            assertEquals(0, responsePacket.header().callNumber());
            challenge = RxkadChallenge.decode(Unpooled.wrappedBuffer(challengeBody), 0, challengeBody.length);
            assertEquals(RxkadChallenge.VERSION_2, challenge.version());
            assertEquals(level, challenge.minLevel(), "the C server's minimum is its --security level");

            RxkadResponse.Sealed sealed = RxkadResponse.decode(Unpooled.wrappedBuffer(responseBody), 0,
                    responseBody.length);
            assertEquals(RxkadChallenge.VERSION_2, sealed.version());
            assertEquals(RxkadResponse.HEADER_SIZE + sealed.ticket().length, responseBody.length);
            ticket = new TicketOpener(keys()).open(sealed.kvno(), sealed.ticket(), CAPTURED_AT);
            SessionKey key = new SessionKey(ticket.sessionKey());
            response = sealed.open(key); // the sealed block's checksum under the ticket's session key
            response.verify(first.epoch(), first.cid(), SecurityIndex.RXKAD, challenge.nonce(), level);
            assertEquals(first.epoch(), response.epoch());
            assertEquals(first.connectionId(), response.cid());
            assertEquals(SecurityIndex.RXKAD, response.securityIndex());
            assertEquals(challenge.nonce() + 1, response.nonceReply());
            assertEquals(level, response.level());
            // the client answered during its first call, on channel 0; the other channels had none yet
            assertEquals(List.of(first.callNumber(), 0, 0, 0), List.of(response.callNumber(0),
                    response.callNumber(1), response.callNumber(2), response.callNumber(3)));
            ByteBuf again = Unpooled.buffer(responseBody.length);
            response.encode(key, again);
            assertArrayEquals(responseBody, ByteBufUtil.getBytes(again), name + ": rx4j seals the same RESPONSE");

            server = server(level, challenge.nonce());
            serverCtx = context(server, ConnectionRole.SERVER, first, ch -> 0);
            assertArrayEquals(challengeBody, server.challengeBody(serverCtx).orElseThrow(),
                    name + ": rx4j's CHALLENGE for the same nonce");
            assertEquals(0, server.checkResponse(serverCtx, responseBody), name + ": rx4j's server accepts it");
            client = PacketSecurityAccess.of(new RxkadClientSecurity(level, key, sealed.kvno(), sealed.ticket()));
            clientCtx = context(client, ConnectionRole.CLIENT, first, response::callNumber);
            assertArrayEquals(responseBody, client.responseBody(clientCtx, challengeBody),
                    name + ": rx4j's client answers the CHALLENGE with the same bytes");
        }

        /**
         * Checks and opens every DATA packet with the receiving side's class, seals the plaintext again with the
         * sending side's, then checks each call's request and reply.
         */
        private void checkData(String name, RxkadLevel level) throws SecurityAbortException {
            SessionKey key = new SessionKey(ticket.sessionKey());
            long connectionValue = key.connectionValue(first.epoch(), first.cid(), SecurityIndex.RXKAD);
            Map<Integer, TreeMap<Integer, Piece>> requests = new TreeMap<>();
            Map<Integer, TreeMap<Integer, Piece>> replies = new TreeMap<>();
            for (Packet p : packets) {
                RxHeader h = p.header();
                if (h.type() != PacketType.DATA) {
                    continue;
                }
                assertEquals(PacketChecksum.compute(key.schedule(), connectionValue, h.callNumber(), h.cid(), h.seq()),
                        h.spare(), p.where() + ": header checksum");
                boolean c2s = p.datagram().clientToServer();
                PacketSecurity receiver = c2s ? server : client;
                ByteBuf body = Unpooled.copiedBuffer(p.body());
                int code = receiver.checkIncoming(c2s ? serverCtx : clientCtx, header(h, h.spare()), body);
                assertEquals("0", codeName(code), p.where() + ": rx4j's " + receiver);
                byte[] plain = ByteBufUtil.getBytes(body);
                assertEquals(level.preparedLength(plain.length), p.body().length, p.where() + ": padding");

                PacketSecurity sender = c2s ? client : server;
                ByteBuf again = Unpooled.buffer(p.body().length, p.body().length);
                again.writeZero(level.headerSize()).writeBytes(plain);
                int sum = sender.prepareOutgoing(c2s ? clientCtx : serverCtx, h.channel(), h.callNumber(), h.seq(),
                        again);
                assertEquals(h.spare(), sum, p.where() + ": rx4j's checksum");
                // OpenAFS pads with whatever its packet buffer held before, rx4j with zeros: the sealed bytes agree
                // up to the block holding the first padding byte, and all of them where OpenAFS's padding was zero.
                int dataEnd = level.headerSize() + plain.length;
                boolean zeroPadding = true;
                for (int i = dataEnd; i < p.body().length; i++) {
                    zeroPadding &= body.getByte(i) == 0; // opened in place: the decrypted padding
                }
                int same = zeroPadding ? p.body().length : dataEnd & -Fcrypt.BLOCK_SIZE;
                assertArrayEquals(Arrays.copyOf(p.body(), same), Arrays.copyOf(ByteBufUtil.getBytes(again), same),
                        p.where() + ": rx4j seals the same payload");
                if (zeroPadding) {
                    sealedAgainWhole++;
                }

                Piece previous = (c2s ? requests : replies).computeIfAbsent(h.callNumber(), c -> new TreeMap<>())
                        .put(h.seq(), new Piece(plain, h.hasFlag(PacketFlags.LAST_PACKET)));
                assertNull(previous, p.where() + ": no packet is sent twice in these captures");
            }
            boolean send = name.endsWith("-send");
            List<Integer> calls = send ? List.of(1) : List.of(1, 2);
            assertEquals(calls, List.copyOf(requests.keySet()), name + " request calls");
            assertEquals(calls, List.copyOf(replies.keySet()), name + " reply calls");
            for (int call : calls) {
                String where = name + " call " + call;
                ByteBuffer request = ByteBuffer.wrap(join(where + " request", requests.get(call)));
                assertEquals(RXPERF_VERSION, request.getInt(), where);
                assertEquals(send ? SEND : RPC, request.getInt(), where);
                assertEquals(CHUNK, request.getInt(), where);
                assertEquals(CHUNK, request.getInt(), where);
                ByteBuffer reply = ByteBuffer.wrap(join(where + " reply", replies.get(call)));
                if (send) {
                    assertEquals(SEND_BYTES, request.getInt(), where);
                    assertPattern(where + " request", request, SEND_BYTES);
                } else {
                    assertEquals(RPC_REQUEST, request.getInt(), where);
                    assertEquals(RPC_REPLY, request.getInt(), where);
                    assertPattern(where + " request", request, RPC_REQUEST);
                    assertPattern(where + " reply", reply, RPC_REPLY);
                }
                assertEquals(0, request.remaining(), where + " request ends with its payload");
                assertEquals(COOKIE, reply.getInt(), where);
                assertEquals(0, reply.remaining(), where + " reply ends with the cookie");
            }
        }
    }

    /** One DATA packet's plaintext, and whether it ended its call's direction. */
    private record Piece(byte[] plain, boolean last) {
    }

    /** One decoded packet: its datagram, header and body (a copy; the decoder's buffers are released). */
    private record Packet(Datagram datagram, String where, RxHeader header, byte[] body) {
    }

    /** Decodes every datagram with the wire codec, which must give back the same bytes when it encodes them again. */
    private static List<Packet> decode(String name, List<Datagram> capture) {
        List<Packet> out = new ArrayList<>();
        for (Datagram d : capture) {
            String where = name + ":" + d.line() + " " + d.direction();
            List<RxPacket> decoded = new ArrayList<>();
            DecodeError error = PacketDecoder.decode(Unpooled.wrappedBuffer(d.bytes()), decoded);
            try {
                assertNull(error, where + " does not decode");
                assertEquals(1, decoded.size(), where + ": no jumbograms in these captures");
                RxPacket p = decoded.get(0);
                ByteBuf again = Unpooled.buffer(d.bytes().length);
                PacketEncoder.encode(p, again);
                assertArrayEquals(d.bytes(), ByteBufUtil.getBytes(again), where + " encodes to other bytes");
                byte[] body = new byte[0];
                if (p instanceof DataPacket data) {
                    body = ByteBufUtil.getBytes(data.payload());
                } else if (p instanceof ControlPacket control) {
                    body = control.body();
                }
                out.add(new Packet(d, where, p.header(), body));
            } finally {
                decoded.forEach(RxPacket::release);
            }
        }
        return out;
    }

    /** Joins one direction of a call: seq 1, 2, ... without a gap, only the last one flagged last. */
    private static byte[] join(String where, TreeMap<Integer, Piece> pieces) {
        assertNotNull(pieces, where);
        ByteBuffer out = ByteBuffer.allocate(pieces.values().stream().mapToInt(p -> p.plain().length).sum());
        int seq = 1;
        for (Map.Entry<Integer, Piece> e : pieces.entrySet()) {
            assertEquals(seq, e.getKey(), where + " seq");
            assertEquals(seq == pieces.size(), e.getValue().last(), where + " seq " + seq + " LAST_PACKET flag");
            out.put(e.getValue().plain());
            seq++;
        }
        return out.array();
    }

    /** The next {@code n} bytes must be rxperf's pattern: byte i is i mod 251, from the first payload byte. */
    private static void assertPattern(String where, ByteBuffer b, int n) {
        for (int i = 0; i < n; i++) {
            byte got = b.get();
            if (got != (byte) (i % 251)) {
                throw new AssertionError(where + ": payload byte " + i + " is " + (got & 0xff) + ", not " + i % 251);
            }
        }
    }

    /** @return "0" for success, else the RXKAD name of {@code code} or its number */
    private static String codeName(int code) {
        String name = RxkadCodes.name(code);
        return code == 0 ? "0" : name != null ? name : Integer.toString(code);
    }

    /** @return the capture's level, from its name (rxkad-LEVEL-workload) */
    private static RxkadLevel level(String name) {
        return RxkadLevel.valueOf(name.split("-")[1].toUpperCase(Locale.ROOT));
    }

    /** @return the keys of the KeyFile both C peers read (captures/rxkad-KeyFile.hex) */
    private static ServerKeySource keys() {
        try (InputStream in = RxkadCaptureTest.class.getResourceAsStream("/captures/rxkad-KeyFile.hex")) {
            assertNotNull(in, "test resource captures/rxkad-KeyFile.hex");
            byte[] file = HexFormat.of().parseHex(new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip());
            List<ServerKey> keys = KeyFiles.parseKeyFile(file);
            assertEquals(List.of(3, 4), keys.stream().map(ServerKey::kvno).toList());
            return ServerKeySource.of(keys);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return rx4j's server at the capture's level, whose CHALLENGE carries the captured nonce */
    private static PacketSecurity server(RxkadLevel level, int nonce) {
        RandomGenerator capturedNonce = () -> (long) nonce << 32; // nextInt() is the high half of nextLong()
        return PacketSecurityAccess.of(new RxkadServerSecurity(keys(), level, () -> CAPTURED_AT, capturedNonce));
    }

    private static SecurityContext context(SecurityClass c, ConnectionRole role, RxHeader h,
                                           ChannelCallNumbers calls) {
        SecurityContext ctx = new SecurityContext(c, role, h.epoch(), h.cid(), h.serviceId(), calls);
        PacketSecurityAccess.of(c).newConnection(ctx);
        return ctx;
    }

    private static PacketHeader header(RxHeader h, int spare) {
        return new PacketHeader(h.epoch(), h.cid(), h.callNumber(), h.seq(), h.serial(), h.type(), h.flags(),
                h.userStatus(), h.securityIndex(), spare, h.serviceId());
    }

    /** @return a copy of the capture with one byte of one datagram flipped */
    private static List<Datagram> flipped(List<Datagram> capture, int datagram, int offset) {
        List<Datagram> out = new ArrayList<>(capture);
        Datagram d = capture.get(datagram);
        byte[] bytes = d.bytes().clone();
        bytes[offset] ^= 0x40;
        out.set(datagram, new Datagram(d.line(), d.clientToServer(), d.seconds(), bytes));
        return out;
    }
}
