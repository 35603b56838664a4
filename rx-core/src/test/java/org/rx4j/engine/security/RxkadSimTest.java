// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.security;

import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.admission.SecurityHandshake;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.peer.Peer;
import org.rx4j.security.packet.PacketSecurity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rx4j.config.Reachability;
import org.rx4j.config.RxConfig;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.SessionKey;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * rxkad between two rx4j engines in the simulator, on the virtual clock (docs/security.md "In the engine"): the
 * CHALLENGE / RESPONSE exchange, every level's packets carrying data intact, the caller's identity, and each hostile
 * case ending with its RXKAD code while the handler never runs.
 */
@ExtendWith(LeakCheckExtension.class)
class RxkadSimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    static final int SVC = 147;

    private final List<SimNetwork> nets = new ArrayList<>();
    /** The identity each new server call saw, in order. */
    private final List<CallerIdentity> identities = new ArrayList<>();
    private SimApps.BulkServer server;

    @AfterEach
    void shutdown() {
        for (SimNetwork net : nets) {
            assertNull(net.server().engine.lastInternalError(), "server engine error");
            assertNull(net.client().engine.lastInternalError(), "client engine error");
            net.shutdown();
        }
    }

    private SimNetwork net(LinkModel link, RxkadLevel minLevel) {
        return net(link, minLevel, RxConfig.defaults());
    }

    private SimNetwork net(LinkModel link, RxkadLevel minLevel, RxConfig serverConfig) {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), serverConfig, link, link, 21);
        nets.add(net);
        server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, RxkadTestCredentials.server(minLevel), call -> {
            identities.add(call.origin().identity());
            server.onNewCall(call);
        });
        return net;
    }

    private static SimApps.BulkClient run(SimNetwork net, Connection conn, long request, long reply) {
        SimApps.BulkClient c = new SimApps.BulkClient(net, request, reply);
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 600 * S), "the call did not end");
        return c;
    }

    @ParameterizedTest
    @EnumSource(RxkadLevel.class)
    void dataCrossesIntactAtEachLevelAndTheHandlerSeesTheCaller(RxkadLevel level) {
        SimNetwork net = net(LinkModel.delay(5 * MS).withLoss(0.02).withDuplicate(0.01), RxkadLevel.CLEAR);
        List<RxHeader> dataHeaders = new ArrayList<>();
        int[] jumbograms = new int[1];
        boolean[] plainOnWire = new boolean[1];
        net.sendTap = (now, fromClient, packets) -> {
            if (packets.get(0) instanceof DataPacket d) {
                dataHeaders.add(d.header().copy());
                jumbograms[0] += packets.size() > 1 ? 1 : 0;
                ByteBuf p = d.payload();
                // The pattern's bytes are i % 251: eight of them in a row would be plain data on the wire.
                if (level == RxkadLevel.CRYPT && p.readableBytes() >= 16 && fromClient && d.header().seq() > 1) {
                    int b = p.getUnsignedByte(p.readerIndex() + 8);
                    plainOnWire[0] |= p.getUnsignedByte(p.readerIndex() + 9) == (b + 1) % 251
                            && p.getUnsignedByte(p.readerIndex() + 10) == (b + 2) % 251;
                }
            }
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, RxkadTestCredentials.client(level));
        SimApps.BulkClient c = run(net, conn, 1L << 20, 1L << 20);
        assertEquals(0, c.error);
        assertEquals(1L << 20, c.reader.received);
        assertEquals(0, c.reader.mismatches, "the reply is exact");
        net.runFor(S);
        assertEquals(1L << 20, server.requestBytes);
        assertEquals(0, server.mismatches, "the request is exact");
        assertEquals(1, identities.size());
        CallerIdentity who = identities.get(0);
        assertEquals("alice", who.principal());
        assertEquals("EXAMPLE.ORG", who.cell());
        assertEquals(level.wire(), who.level());
        assertEquals(2, who.securityIndex());
        // Every DATA packet carried a checksum, and each was verified (none refused).
        assertFalse(dataHeaders.isEmpty());
        assertTrue(dataHeaders.stream().allMatch(h -> h.spare() != 0 && h.securityIndex() == 2));
        assertEquals(0, net.server().engine.totals().get(RxCounter.SECURITY_PACKETS_REFUSED));
        assertEquals(0, net.client().engine.totals().get(RxCounter.SECURITY_PACKETS_REFUSED));
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_CHALLENGES_SENT));
        assertEquals(1, net.client().engine.totals().get(RxCounter.SECURITY_RESPONSES_SENT));
        assertFalse(plainOnWire[0], "crypt hides the data");
        // Jumbograms need 1412-byte prepared sub-packets: clear and auth have them, crypt (multiples of 8) never.
        if (level == RxkadLevel.CRYPT) {
            assertEquals(0, jumbograms[0]);
        } else {
            assertTrue(jumbograms[0] > 0, "jumbograms at " + level);
        }
        // A second call on the authenticated connection needs no new CHALLENGE.
        assertEquals(0, run(net, conn, 4000, 4000).error);
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_CHALLENGES_SENT));
    }

    @Test
    void anAlteredDataPacketAbortsTheConnectionWithSealedIncon() {
        SimNetwork net = net(LinkModel.delay(5 * MS), RxkadLevel.CLEAR);
        int[] altered = new int[1];
        net.deliveryFilter = (now, toServer, packets) -> {
            if (toServer && packets.get(0) instanceof DataPacket d && d.header().seq() == 5 && altered[0]++ == 0) {
                // A bit of the first block, which holds the sealed word (PCBC does not protect later blocks).
                ByteBuf p = d.payload();
                p.setByte(p.readerIndex() + 6, p.getByte(p.readerIndex() + 6) ^ 0x40);
            }
            return true;
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.CRYPT));
        SimApps.BulkClient c = run(net, conn, 64 << 10, 0);
        assertEquals(1, altered[0]);
        assertEquals(RxkadCodes.RXKADSEALEDINCON, c.error, "the client hears the server's connection abort");
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_PACKETS_REFUSED));
        assertEquals(RxkadCodes.RXKADSEALEDINCON, server.lastError);
    }

    @Test
    void aWrongChecksumAbortsTheConnection() {
        SimNetwork net = net(LinkModel.delay(5 * MS), RxkadLevel.CLEAR);
        int[] seen = new int[1];
        List<RxPacket> forged = new ArrayList<>();
        net.deliveryFilter = (now, toServer, packets) -> {
            if (!toServer && packets.get(0) instanceof DataPacket d && seen[0]++ == 0) {
                // The reply's first packet again with a checksum off by one: the client refuses it.
                RxHeader h = d.header();
                forged.add(new DataPacket(new RxHeader(h.epoch(), h.cid(), h.callNumber(), h.seq() + 1,
                        h.serial() + 100, PacketType.DATA, h.flags() & ~PacketFlags.LAST_PACKET, 0, h.securityIndex(),
                        (h.spare() + 1) & 0xffff, h.serviceId()), d.payload().copy()));
            }
            return true;
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.CLEAR));
        SimApps.BulkClient c = new SimApps.BulkClient(net, 100, 64 << 10);
        c.start(conn);
        assertTrue(net.runUntil(() -> !forged.isEmpty(), 10 * S));
        net.inject(false, forged.remove(0));
        assertTrue(net.runUntil(() -> c.done, 60 * S));
        assertEquals(RxkadCodes.RXKADSEALEDINCON, c.error);
        assertEquals(1, net.client().engine.totals().get(RxCounter.SECURITY_PACKETS_REFUSED));
    }

    @Test
    void aLostChallengeIsResentTwoSecondsLater() {
        SimNetwork net = net(LinkModel.delay(5 * MS), RxkadLevel.CLEAR);
        List<Long> challengesAt = new ArrayList<>();
        net.deliveryFilter = (now, toServer, packets) -> {
            if (packets.get(0).header().type() == PacketType.CHALLENGE) {
                challengesAt.add(now);
                return challengesAt.size() > 1; // the first one is lost
            }
            return true;
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.AUTH));
        long start = net.now();
        SimApps.BulkClient c = run(net, conn, 3000, 3000);
        assertEquals(0, c.error);
        assertEquals(2, challengesAt.size());
        long gap = challengesAt.get(1) - challengesAt.get(0);
        assertTrue(gap >= SecurityHandshake.CHALLENGE_INTERVAL_NS && gap < SecurityHandshake.CHALLENGE_INTERVAL_NS
                + 100 * MS, gap / 1e6 + " ms");
        assertTrue(c.completedAt - start >= 2 * S);
        assertEquals(1, identities.size());
    }

    @Test
    void anUnansweredChallengeIsResentABoundedNumberOfTimes() {
        // The connection's own CHALLENGE (checkReach off; with it on, the stateless CHALLENGE goes per DATA heard).
        SimNetwork net = net(LinkModel.delay(5 * MS), RxkadLevel.CLEAR,
                RxConfig.builder().checkReach(false).build());
        net.allowStalls = true;
        int[] challenges = new int[1];
        net.deliveryFilter = (now, toServer, packets) -> {
            if (packets.get(0).header().type() == PacketType.CHALLENGE) {
                challenges[0]++;
                return false;
            }
            return true;
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.AUTH));
        SimApps.BulkClient c = run(net, conn, 3000, 3000);
        assertEquals(AbortCodes.RX_CALL_DEAD, c.error, "the client gives up at its dead time");
        net.runFor(60 * S);
        assertEquals(SecurityHandshake.MAX_CHALLENGES, challenges[0]);
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_HANDSHAKES_ABANDONED));
        assertTrue(identities.isEmpty(), "no call reached the handler");
    }

    @Test
    void withoutReachabilityChecksTheChallengeGoesAtOnceWithinThreeTimesWhatTheClientSent() {
        RxConfig noReach = RxConfig.builder().checkReach(false).build();
        SimNetwork net = new SimNetwork(RxConfig.defaults(), noReach, LinkModel.delay(5 * MS),
                LinkModel.delay(5 * MS), 22);
        nets.add(net);
        server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, RxkadTestCredentials.server(RxkadLevel.CLEAR), server);
        long[] bytes = new long[2]; // [0] client to server, [1] server to client, until the first ACK from the server
        int[] clientData = new int[1];
        boolean[] authenticated = new boolean[1];
        net.sendTap = (now, fromClient, packets) -> {
            if (!fromClient && packets.get(0).header().type() == PacketType.ACK) {
                authenticated[0] = true;
            }
            if (!authenticated[0]) {
                for (RxPacket p : packets) {
                    bytes[fromClient ? 0 : 1] += 28 + p.bodyLength();
                    clientData[0] += fromClient && p.header().type() == PacketType.DATA ? 1 : 0;
                }
            }
        };
        // An empty request at clear: one 36-byte DATA packet (the 8-byte reply length), smaller than the 44-byte
        // CHALLENGE but paying for it three times over: the CHALLENGE goes at once, not after the client's resend.
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.CLEAR));
        long t0 = net.now();
        assertEquals(0, run(net, conn, 0, 100).error);
        assertEquals(1, clientData[0], "the request went once: no resend needed to pay for the CHALLENGE");
        assertTrue(net.now() - t0 < 1000 * MS, "served within round trips, not after an RTO");
        assertTrue(bytes[1] <= Reachability.AMPLIFICATION_LIMIT * bytes[0], "server sent " + bytes[1]
                + " bytes before authentication, client " + bytes[0]);
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_CHALLENGES_SENT));
    }

    @Test
    void aLevelBelowTheServersMinimumIsRefusedBeforeTheHandlerRuns() {
        // An honest client refuses the CHALLENGE itself.
        SimNetwork net = net(LinkModel.delay(5 * MS), RxkadLevel.CRYPT);
        Connection honest = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.AUTH));
        assertEquals(RxkadCodes.RXKADLEVELFAIL, run(net, honest, 3000, 3000).error);
        // A client that ignores the minimum: the server refuses its RESPONSE with the same code.
        Connection liar = net.client().engine.connect(SimNetwork.SERVER, SVC, hostile(RxkadLevel.AUTH,
                ch -> withWord(ch, 8, 0), r -> r));
        assertEquals(RxkadCodes.RXKADLEVELFAIL, run(net, liar, 3000, 3000).error);
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_RESPONSES_REFUSED));
        assertTrue(identities.isEmpty(), "no call reached the handler");
    }

    @Test
    void hostileResponsesEndWithTheirCodes() {
        SimNetwork net = net(LinkModel.delay(5 * MS), RxkadLevel.CLEAR);
        // A byte of the sealed part altered: its checksum no longer matches.
        assertEquals(RxkadCodes.RXKADSEALEDINCON, run(net, net.client().engine.connect(SimNetwork.SERVER, SVC,
                hostile(RxkadLevel.CRYPT, ch -> ch, r -> flip(r, 30))), 3000, 3000).error);
        // The nonce answered wrong (a RESPONSE replayed from another CHALLENGE) cannot be forged without the key;
        // a ticket sealed with another server key does not open.
        RxkadClientSecurity wrongKey = new RxkadClientSecurity(RxkadLevel.CRYPT,
                new SessionKey(RxkadTestCredentials.SESSION_KEY), RxkadTestCredentials.KVNO,
                RxkadTestCredentials.ticket(RxkadTestCredentials.OTHER_SERVER_KEY, RxkadTestCredentials.NOW));
        assertEquals(RxkadCodes.RXKADBADTICKET,
                run(net, net.client().engine.connect(SimNetwork.SERVER, SVC, wrongKey), 3000, 3000).error);
        // An expired ticket.
        RxkadClientSecurity expired = new RxkadClientSecurity(RxkadLevel.CRYPT,
                new SessionKey(RxkadTestCredentials.SESSION_KEY), RxkadTestCredentials.KVNO,
                RxkadTestCredentials.ticket(RxkadTestCredentials.SERVER_KEY, RxkadTestCredentials.NOW - 9 * 3600));
        assertEquals(RxkadCodes.RXKADEXPIRED,
                run(net, net.client().engine.connect(SimNetwork.SERVER, SVC, expired), 3000, 3000).error);
        // A kvno the server has no key for.
        RxkadClientSecurity unknownKvno = new RxkadClientSecurity(RxkadLevel.CRYPT,
                new SessionKey(RxkadTestCredentials.SESSION_KEY), 9,
                RxkadTestCredentials.ticket(RxkadTestCredentials.SERVER_KEY, RxkadTestCredentials.NOW));
        assertEquals(RxkadCodes.RXKADUNKNOWNKEY,
                run(net, net.client().engine.connect(SimNetwork.SERVER, SVC, unknownKvno), 3000, 3000).error);
        // A ticket of 12,001 bytes (the RESPONSE claims it and carries it).
        assertEquals(RxkadCodes.RXKADTICKETLEN, run(net, net.client().engine.connect(SimNetwork.SERVER, SVC,
                hostile(RxkadLevel.CRYPT, ch -> ch, r -> withTicket(r, 12_001))), 3000, 3000).error);
        assertEquals(5, net.server().engine.totals().get(RxCounter.SECURITY_RESPONSES_REFUSED));
        assertTrue(identities.isEmpty(), "no call reached the handler");
        // Nothing else was disturbed: an honest client still gets through.
        Connection honest = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.CRYPT));
        assertEquals(0, run(net, honest, 3000, 3000).error);
    }

    @Test
    void aResponseWithoutAChallengeOrAfterAuthenticationIsIgnored() {
        SimNetwork net = net(LinkModel.delay(5 * MS), RxkadLevel.CLEAR);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.CRYPT));
        // Before any DATA: no server connection exists, so the RESPONSE makes none and gets no answer.
        byte[] body = new byte[100];
        net.inject(true, response(conn, 0x12345, body));
        long sent = net.server().datagramsSent;
        net.runFor(S);
        assertEquals(sent, net.server().datagramsSent);
        assertTrue(net.server().engine.serverConnections().isEmpty());
        // After authentication: a replayed or forged RESPONSE changes nothing.
        assertEquals(0, run(net, conn, 3000, 3000).error);
        net.inject(true, response(conn, 0x12346, body));
        net.runFor(S);
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_RESPONSES_IGNORED));
        assertEquals(0, run(net, conn, 3000, 3000).error);
    }

    @Test
    void aChallengeFloodGetsAFewResponsesASecond() {
        SimNetwork net = net(LinkModel.delay(5 * MS), RxkadLevel.CLEAR);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.CRYPT));
        assertEquals(0, run(net, conn, 3000, 3000).error);
        long before = net.client().engine.totals().get(RxCounter.SECURITY_RESPONSES_SENT);
        byte[] challenge = {0, 0, 0, 2, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0};
        for (int i = 0; i < 1000; i++) {
            RxHeader h = new RxHeader(conn.epoch(), conn.cid(), 0, 0, 1000 + i, PacketType.CHALLENGE, 0, 0, 2, 0, SVC);
            net.inject(false, new ControlPacket(h, challenge));
            net.runFor(MS); // 1,000 CHALLENGEs in one second
        }
        long responses = net.client().engine.totals().get(RxCounter.SECURITY_RESPONSES_SENT) - before;
        assertTrue(responses >= 1 && responses <= 2 * SecurityHandshake.MAX_RESPONSES_PER_SECOND, "" + responses);
        assertTrue(net.client().engine.totals().get(RxCounter.SECURITY_CHALLENGES_IGNORED) >= 1000 - responses);
        // The forged CHALLENGEs' RESPONSEs are ignored by the authenticated server; the connection still works.
        assertEquals(0, run(net, conn, 3000, 3000).error);
    }

    @Test
    void aPacketRecutAfterAPathMtuFallIsPreparedAgainAtCrypt() {
        SimNetwork net = net(LinkModel.delay(5 * MS).withMtu(1472), RxkadLevel.CLEAR);
        net.allowStalls = true;
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.CRYPT));
        assertEquals(0, run(net, conn, 64 << 10, 0).error);
        SimApps.BulkClient c = new SimApps.BulkClient(net, 8L << 20, 1L << 20);
        Call call = c.start(conn);
        net.runFor(300 * MS);
        assertTrue(!c.done && call.counters().dataPacketsSent > 100, "the request is in full flow");
        net.setLinks(LinkModel.delay(5 * MS).withMtu(1000), LinkModel.delay(5 * MS).withMtu(1000));
        assertTrue(net.runUntil(() -> c.done, 300 * S), "the call ends");
        assertEquals(0, c.error);
        assertEquals(0, c.reader.mismatches);
        assertEquals(1L << 20, c.reader.received);
        net.runFor(S);
        assertEquals((64L << 10) + (8L << 20), server.requestBytes);
        assertEquals(0, server.mismatches, "every re-cut packet was sealed again and opened intact");
        assertTrue(call.counters().recuts >= 1, "packets already sent were re-cut");
        assertEquals(0, net.server().engine.totals().get(RxCounter.SECURITY_PACKETS_REFUSED));
    }

    /**
     * At clear a packet only gets its checksum: the prepared body is the queued data itself (a retained slice, no
     * copy), with the same checksum a copied body gets; at crypt the body is a sealed copy and the data untouched.
     */
    @Test
    void atClearThePreparedBodyIsTheDataItselfAtCryptASealedCopy() throws Exception {
        ConnectionSecurity clear = new ConnectionSecurity(RxkadTestCredentials.client(RxkadLevel.CLEAR), true, 1, 4,
                SVC, ch -> 0);
        ConnectionSecurity crypt = new ConnectionSecurity(RxkadTestCredentials.client(RxkadLevel.CRYPT), true, 1, 4,
                SVC, ch -> 0);
        ByteBuf data = io.netty.buffer.Unpooled.buffer(64).writeLong(0x0102030405060708L).writeLong(42);
        int[] spare = new int[1];
        ByteBuf body = clear.prepare(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, 1, 7, 3, data, spare);
        ByteBuf copy = data.copy();
        try {
            assertEquals(2, data.refCnt(), "the body holds a reference to the data");
            assertEquals(data, body);
            data.setByte(0, 0x55);
            assertEquals(0x55, body.getByte(0), "the body shares the data's memory");
            data.setByte(0, 0x01);
            int copiedSpare = clear.packets.prepareOutgoing(clear.context, 1, 7, 3, copy);
            assertEquals(copiedSpare, spare[0], "the same checksum as a copied body");
            assertTrue(spare[0] != 0);
        } finally {
            body.release();
            copy.release();
        }
        assertEquals(1, data.refCnt());
        ByteBuf sealed = crypt.prepare(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, 1, 7, 3, data, spare);
        try {
            assertEquals(1, data.refCnt(), "a sealed body is a buffer of its own");
            assertEquals(16, data.readableBytes());
            assertEquals(0x0102030405060708L, data.getLong(0), "the data is not sealed in place");
            assertEquals(RxkadLevel.CRYPT.preparedLength(16), sealed.readableBytes());
        } finally {
            sealed.release();
            data.release();
        }
    }

    /** Checking packets allocates no header per packet: the class is lent one header, refilled for each packet. */
    @Test
    void everyCheckedPacketLendsTheConnectionsOneHeaderRefilled() {
        List<PacketHeader> lent = new ArrayList<>();
        List<String> fields = new ArrayList<>();
        SecurityClass recording = new PacketSecurity() {
            @Override
            public int securityIndex() {
                return 2;
            }

            @Override
            public String name() {
                return "recording";
            }

            @Override
            public int headerSize(SecurityContext ctx) {
                return 0;
            }

            @Override
            public int trailerSize(SecurityContext ctx) {
                return 0;
            }

            @Override
            public int prepareOutgoing(SecurityContext ctx, int channel, int callNumber, int seq, ByteBuf packet) {
                return 0;
            }

            @Override
            public int checkIncoming(SecurityContext ctx, PacketHeader header, ByteBuf packet) {
                lent.add(header);
                fields.add(header.channel() + "/" + header.callNumber() + "/" + header.seq() + "/" + header.spare());
                return 0;
            }

            @Override
            public boolean isAuthenticated(SecurityContext ctx) {
                return true;
            }

            @Override
            public java.util.Optional<byte[]> challengeBody(SecurityContext ctx) {
                return java.util.Optional.empty();
            }

            @Override
            public byte[] responseBody(SecurityContext ctx, byte[] challengeBody) {
                return new byte[0];
            }

            @Override
            public int checkResponse(SecurityContext ctx, byte[] responseBody) {
                return 0;
            }
        };
        ConnectionSecurity sec = new ConnectionSecurity(recording, false, 1, 4, SVC, ch -> 0);
        DataPacket a = data(1, 7, 1);
        DataPacket b = data(2, 9, 5);
        try {
            assertEquals(0, sec.check(a));
            assertEquals(0, sec.check(b));
        } finally {
            a.release();
            b.release();
        }
        assertEquals(List.of("1/7/1/0", "2/9/5/0"), fields, "each check saw its own packet's fields");
        assertSame(lent.get(0), lent.get(1), "one header, lent again");
    }

    @Test
    void aServerParksABoundedNumberOfCallsAndPackets() {
        ConnectionSecurity sec = new ConnectionSecurity(RxkadTestCredentials.server(RxkadLevel.CLEAR), false, 1, 4,
                SVC, ch -> 0);
        List<DataPacket> made = new ArrayList<>();
        HeldBytes budget = new HeldBytes(Long.MAX_VALUE, Long.MAX_VALUE);
        Peer peer = new Peer(SimNetwork.CLIENT, RxConfig.defaults());
        try {
            for (int call = 1; call <= ConnectionSecurity.MAX_PARKED_CALLS; call++) {
                assertTrue(sec.park(keep(made, data(call % 4, call, 1)), budget, peer));
            }
            assertFalse(sec.park(keep(made, data(0, 99, 1)), budget, peer), "a fifth call is not parked");
            assertFalse(sec.park(keep(made, data(1, 1, 1)), budget, peer), "a copy is not parked");
            int parked = ConnectionSecurity.MAX_PARKED_CALLS;
            for (int seq = 2; parked < ConnectionSecurity.MAX_PARKED_PACKETS; seq++, parked++) {
                assertTrue(sec.park(keep(made, data(1, 1, seq)), budget, peer));
            }
            assertFalse(sec.park(keep(made, data(1, 1, 100)), budget, peer), "no more packets than the limit");
            assertTrue(sec.hasParked());
            assertEquals(ConnectionSecurity.MAX_PARKED_PACKETS * (28 + 8), budget.bytes(), "parked bytes counted");
            assertEquals(budget.bytes(), peer.parkedBytes, "and in the peer's share");
            assertEquals(ConnectionSecurity.MAX_PARKED_PACKETS, sec.takeParked().size());
            assertEquals(0, budget.bytes());
        } finally {
            made.forEach(DataPacket::release);
        }
    }

    private static DataPacket keep(List<DataPacket> made, DataPacket p) {
        made.add(p);
        return p;
    }

    private static DataPacket data(int channel, int callNumber, int seq) {
        RxHeader h = new RxHeader(1, 4 | channel, callNumber, seq, seq, PacketType.DATA,
                PacketFlags.CLIENT_INITIATED, 0, 2, 0, SVC);
        return new DataPacket(h, io.netty.buffer.Unpooled.buffer(8).writeLong(seq));
    }

    private static ControlPacket response(Connection conn, int serial, byte[] body) {
        RxHeader h = new RxHeader(conn.epoch(), conn.cid(), 0, 0, serial, PacketType.RESPONSE,
                PacketFlags.CLIENT_INITIATED, 0, 2, 0, SVC);
        return new ControlPacket(h, body);
    }

    private static SecurityClass hostile(RxkadLevel level, UnaryOperator<byte[]> challenge,
            UnaryOperator<byte[]> response) {
        return new RxkadTestCredentials.Rewriting(RxkadTestCredentials.client(level), challenge, response);
    }

    private static byte[] flip(byte[] b, int index) {
        byte[] c = b.clone();
        c[index] ^= 1;
        return c;
    }

    private static byte[] withWord(byte[] b, int offset, int value) {
        byte[] c = b.clone();
        io.netty.buffer.Unpooled.wrappedBuffer(c).setInt(offset, value);
        return c;
    }

    /** A RESPONSE whose ticket length word says {@code length} and which carries that many bytes of ticket. */
    private static byte[] withTicket(byte[] r, int length) {
        byte[] c = java.util.Arrays.copyOf(r, 56 + length);
        io.netty.buffer.Unpooled.wrappedBuffer(c).setInt(52, length);
        return c;
    }
}
