// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.debug.ConnectionInfo;
import org.rx4j.rpc.debug.RxDebugClient;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.stats.CounterStats;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityStats;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.security.rxkad.SessionKey;
import org.rx4j.security.rxkad.handshake.V4Ticket;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AbortCodes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rxkad between two rx4j endpoints over real UDP sockets on loopback: a server that requires crypt, a client at
 * crypt whose calls carry a megabyte each way intact, the handler seeing the caller's identity, and the refusals of a
 * lower level and of an rxnull client (docs/security.md "In the engine").
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RxkadEndpointTest {
    static final int SERVICE = 731;
    static final int KVNO = 3;
    static final byte[] SERVER_KEY = {(byte) 0x01, (byte) 0x23, (byte) 0x45, (byte) 0x67, (byte) 0x89, (byte) 0xab,
        (byte) 0xcd, (byte) 0xef};
    static final long SESSION = 0x7667545432322001L;

    RxEndpoint server;
    RxEndpoint client;
    final AtomicReference<CallerIdentity> seen = new AtomicReference<>();

    @BeforeEach
    void start() throws Exception {
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        RxkadServerSecurity rxkad = new RxkadServerSecurity(
                List.of(new ServerKey(ServerKey.RXKAD, KVNO, 0, SERVER_KEY)),
                RxkadLevel.CRYPT);
        // Echoes the request reversed, then the caller's name.
        server.registerService(RxService.builder(SERVICE).securityClass(rxkad).wholeStream(call -> {
            byte[] request = call.input().readAllBytes();
            CallerIdentity who = call.identity().orElseThrow();
            seen.set(who);
            byte[] reply = new byte[request.length];
            for (int i = 0; i < request.length; i++) {
                reply[i] = request[request.length - 1 - i];
            }
            call.output().write(reply);
            call.output().write(who.principal().getBytes(StandardCharsets.UTF_8));
        }).build());
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    /** @return bob.admin's rxkad client credentials at {@code level} for a server keyed with SERVER_KEY */
    static RxkadClientSecurity credentials(RxkadLevel level) {
        long now = System.currentTimeMillis() / 1000;
        long key = 0;
        for (byte b : SERVER_KEY) {
            key = (key << 8) | (b & 0xff);
        }
        byte[] ticket = new V4Ticket("bob", "admin", "", 0, SESSION, now - 60, now + 3600, "afs", "").seal(key);
        return new RxkadClientSecurity(level, new SessionKey(SESSION), KVNO, ticket);
    }

    @Test
    void aCryptConnectionCarriesAMegabyteEachWayAndNamesTheCaller() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE, credentials(RxkadLevel.CRYPT));
        byte[] request = new byte[1 << 20];
        new Random(5).nextBytes(request);
        for (int round = 0; round < 2; round++) {
            byte[] reply = conn.call(request);
            assertEquals(request.length + 3, reply.length);
            for (int i = 0; i < request.length; i++) {
                if (reply[i] != request[request.length - 1 - i]) {
                    throw new AssertionError("reply byte " + i + " differs");
                }
            }
            assertArrayEquals("bob".getBytes(StandardCharsets.UTF_8),
                    java.util.Arrays.copyOfRange(reply, request.length, reply.length));
        }
        CallerIdentity who = seen.get();
        assertEquals("bob", who.principal());
        assertEquals("admin", who.instance());
        assertEquals(RxkadLevel.CRYPT.wire(), who.level());
        assertEquals(2, conn.id().securityIndex());
        // one handshake, seen from both ends in the endpoints' stats snapshots
        CounterStats serverSide = server.statistics().totals();
        CounterStats clientSide = client.statistics().totals();
        assertEquals(1, serverSide.get(RxCounter.SECURITY_CHALLENGES_SENT), serverSide.toString());
        assertEquals(1, clientSide.get(RxCounter.SECURITY_RESPONSES_SENT), clientSide.toString());
        assertEquals(0, serverSide.get(RxCounter.SECURITY_PACKETS_REFUSED)
                + serverSide.get(RxCounter.SECURITY_RESPONSES_REFUSED), serverSide.toString());
        assertEquals(1L, client.stats().get("security.responsesSent"));
    }

    @Test
    void anAsyncHandlerOnTheEventLoopSeesTheCallerToo() throws Exception {
        RxkadServerSecurity rxkad = new RxkadServerSecurity(
                List.of(new ServerKey(ServerKey.RXKAD, KVNO, 0, SERVER_KEY)), RxkadLevel.AUTH);
        // Every call is small and goes to the async handler: it answers with the caller's name and level.
        server.registerService(RxService.builder(SERVICE + 1).securityClass(rxkad).wholeStream(call -> {
            throw new AssertionError("not routed to the blocking handler");
        }, 4, (prefix, length, whole) -> request -> java.util.concurrent.CompletableFuture.completedFuture(
                (request.identity().orElseThrow().principal() + "/" + request.identity().orElseThrow().level())
                        .getBytes(StandardCharsets.UTF_8))).build());
        RxConnection conn = client.connect(server.localAddress(), SERVICE + 1, credentials(RxkadLevel.CRYPT));
        assertArrayEquals("bob/2".getBytes(StandardCharsets.UTF_8), conn.call(new byte[] {0, 0, 0, 9}));
    }

    @Test
    void theDebugListingShowsEachSidesLevelFlagsExpiryAndCounts() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE, credentials(RxkadLevel.CRYPT));
        conn.call(new byte[5000]);
        CallerIdentity who = seen.get();
        SecurityStats serverSide = securityOf(server, true);
        assertEquals(SecurityStats.TYPE_RXKAD, serverSide.type());
        assertEquals(RxkadLevel.CRYPT.wire(), serverSide.level());
        assertEquals(SecurityStats.FLAG_AUTHENTICATED | SecurityStats.FLAG_PACKET_CHECKSUM, serverSide.flags());
        assertEquals(who.expiresAtEpochSecond(), serverSide.expires());
        assertEquals(5000, serverSide.bytesReceived());
        assertEquals(5003, serverSide.bytesSent(), "the reversed request and the caller's name");
        // As many packets as the path's packet size needs (loopback may carry 5000 bytes in one).
        assertTrue(serverSide.packetsReceived() >= 1 && serverSide.packetsSent() >= 1, serverSide.toString());
        SecurityStats clientSide = securityOf(client, false);
        assertEquals(RxkadLevel.CRYPT.wire(), clientSide.level());
        assertEquals(SecurityStats.FLAG_PACKET_CHECKSUM, clientSide.flags(), "a client is not authenticated itself");
        assertEquals(0, clientSide.expires());
        assertEquals(List.of(5000L, 5003L), List.of(clientSide.bytesSent(), clientSide.bytesReceived()));
    }

    /** The security statistics of the one rxkad connection {@code endpoint} lists to rxdebug (GETALLCONN). */
    private static SecurityStats securityOf(RxEndpoint endpoint, boolean serverConnection) throws Exception {
        try (RxDebugClient debug = RxDebugClient.open("127.0.0.1", endpoint.localAddress().getPort())) {
            for (int i = 0; ; i++) {
                ConnectionInfo c = debug.connection(i, true).orElseThrow();
                if (c.securityIndex() == 2 && c.serverConnection() == serverConnection) {
                    return c.security();
                }
            }
        }
    }

    @Test
    void aLevelBelowTheMinimumAndAnRxnullClientAreRefusedBeforeTheHandler() {
        RxConnection auth = client.connect(server.localAddress(), SERVICE, credentials(RxkadLevel.AUTH));
        RxException low = assertThrows(RxException.class, () -> auth.call(new byte[100]));
        assertEquals(RxkadCodes.RXKADLEVELFAIL, low.code());
        RxConnection none = client.connect(server.localAddress(), SERVICE);
        RxException anonymous = assertThrows(RxException.class, () -> none.call(new byte[100]));
        assertEquals(AbortCodes.RX_INVALID_OPERATION, anonymous.code());
        assertNull(seen.get(), "no call reached the handler");
    }
}
