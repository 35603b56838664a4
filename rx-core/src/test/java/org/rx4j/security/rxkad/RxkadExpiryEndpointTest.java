// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.rxkad.handshake.V4Ticket;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@link RxConnection} whose rxkad ticket ends moves its next call to a new Rx connection with fresh credentials
 * (docs/security.md "Ticket expiry"), over real UDP sockets on loopback: the blocking and the future forms, after
 * the ticket's end on the client's (virtual) wall clock and after the server's RXKADEXPIRED abort. No sleeps: the
 * client's clock is a variable the test moves.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RxkadExpiryEndpointTest {
    static final int SERVICE = 732;
    static final int KVNO = 3;
    static final byte[] SERVER_KEY = {(byte) 0x01, (byte) 0x23, (byte) 0x45, (byte) 0x67, (byte) 0x89, (byte) 0xab,
        (byte) 0xcd, (byte) 0xef};
    static final long SESSION = 0x7667545432322001L;
    static final byte[] ECHO = "hello".getBytes(StandardCharsets.US_ASCII);

    RxEndpoint server;
    RxEndpoint client;
    /** The client's wall clock, seconds since 1970; the server uses the real one. */
    final long[] clientClock = {System.currentTimeMillis() / 1000};
    /** When the next minted ticket starts, seconds since 1970; and how many were minted. */
    final long[] mintStart = {clientClock[0] - 60};
    volatile int mints;

    @BeforeEach
    void start() throws Exception {
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(RxService.builder(SERVICE).securityClass(new RxkadServerSecurity(
                List.of(new ServerKey(ServerKey.RXKAD, KVNO, 0, SERVER_KEY)), RxkadLevel.AUTH))
                .wholeStream(call -> call.output().write(call.input().readAllBytes())).build());
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    /**
     * A ticket for carol from {@link #mintStart} for 8 hours on the server's (real) clock, as a re-read ccache or
     * LocalAuth would give; the client learns that it ends an hour later on the client's (virtual) clock.
     */
    private RxkadCredentials mint() {
        mints++;
        long key = 0;
        for (byte b : SERVER_KEY) {
            key = (key << 8) | (b & 0xff);
        }
        long from = mintStart[0];
        byte[] ticket = new V4Ticket("carol", "", "", 0, SESSION, from, from + 8 * 3600, "afs", "").seal(key);
        return new RxkadCredentials(new SessionKey(SESSION), KVNO, ticket, clientClock[0] + 3600, "carol");
    }

    private RxConnection connect() {
        return client.connect(server.localAddress(), SERVICE,
                new RxkadClientSecurity(RxkadLevel.AUTH, this::mint, () -> clientClock[0]));
    }

    @Test
    void callsAfterTheTicketsEndOnTheClientsClockGoToANewConnection() throws Exception {
        try (RxConnection conn = connect()) {
            assertArrayEquals(ECHO, conn.call(ECHO));
            int firstCid = conn.id().cid();
            assertArrayEquals(ECHO, conn.call(ECHO));
            assertEquals(firstCid, conn.id().cid(), "the ticket has not ended");
            assertEquals(1, mints);

            clientClock[0] += 3600; // the ticket's end, on the client's clock
            assertArrayEquals(ECHO, conn.call(ECHO));
            int secondCid = conn.id().cid();
            assertNotEquals(firstCid, secondCid);
            assertEquals(2, mints);

            clientClock[0] += 3600; // and once more, through the future form
            assertArrayEquals(ECHO, conn.callAsync(ECHO).get());
            assertNotEquals(secondCid, conn.id().cid());
            assertEquals(3, mints);
            assertEquals(3, server.statistics().totals().get(RxCounter.SECURITY_CHALLENGES_SENT), "each connection was challenged");
        }
    }

    @Test
    void aCallRefusedWithRxkadExpiredIsFollowedByOneOnAFreshConnection() throws Exception {
        // The client's clock is behind: it still trusts a ticket the server finds long ended.
        mintStart[0] = clientClock[0] - 9 * 3600;
        clientClock[0] = mintStart[0] + 60;
        try (RxConnection conn = connect()) {
            int firstCid = conn.id().cid();
            RxException refused = assertThrows(RxException.class, () -> conn.call(ECHO));
            assertEquals(RxkadCodes.RXKADEXPIRED, refused.code());
            ExecutionException again = assertThrows(ExecutionException.class, () -> conn.callAsync(ECHO).get());
            assertEquals(RxkadCodes.RXKADEXPIRED, ((RxException) again.getCause()).code(),
                    "the supplier still gives the ended ticket");

            mintStart[0] = System.currentTimeMillis() / 1000 - 60; // e.g. the user ran kinit again
            assertArrayEquals(ECHO, conn.call(ECHO));
            assertNotEquals(firstCid, conn.id().cid());
            assertEquals(3, mints);
        }
    }

    @Test
    void theDocsCcacheSupplierFailsTheConnectOfAMissingCache() {
        // The form docs/security.md "Ticket expiry" shows, over a cache that does not exist.
        String ccname = "FILE:/nonexistent/krb5cc_rx4j_expiry";
        SecurityClass rxkad = new RxkadClientSecurity(RxkadLevel.CRYPT, () -> {
            try {
                return Krb5Credentials.fromCache(CredentialCache.fileOf(ccname), "example.org", null);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        CompletionException e = assertThrows(CompletionException.class,
                () -> client.connect(server.localAddress(), SERVICE, rxkad));
        assertInstanceOf(UncheckedIOException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("krb5cc_rx4j_expiry"), e.getCause().getMessage());
    }
}
