// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.channel.RxPoolConfig;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.rxkad.LocalAuth;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.RxkadCredentials;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection the server refuses at the rxkad handshake (a ticket sealed with another key than the server's:
 * RXKADBADTICKET) keeps the server's code in every later failure, with reason REFUSED (docs/errors.md "Local
 * reasons"), and a pool takes it out so the next call opens a new connection rather than failing on the dead one
 * (docs/embedding.md "Pools"). Over loopback sockets.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RefusedConnectionTest {
    private static final int SERVICE = 734;
    private static final byte[] ECHO = {1, 2, 3};

    private RxEndpoint server;
    private RxEndpoint client;
    private RxkadClientSecurity wrongKey;
    private RxkadClientSecurity rightKey;

    /** A DES key of kvno 3 with odd parity in every byte, from {@code seed}. */
    private static ServerKey desKey(int seed) {
        byte[] k = new byte[8];
        for (int i = 0; i < 8; i++) {
            int b = (seed * 31 + i * 17) & 0xfe;
            k[i] = (byte) (Integer.bitCount(b) % 2 == 0 ? b | 1 : b);
        }
        return new ServerKey(ServerKey.RXKAD, 3, 0, k);
    }

    private static RxkadClientSecurity security(ServerKey key) throws Exception {
        RxkadCredentials c = LocalAuth.fromKeys(List.of(key), new SecureRandom());
        return new RxkadClientSecurity(RxkadLevel.CLEAR, c.sessionKey(), c.kvno(), c.ticket());
    }

    @BeforeEach
    void start() throws Exception {
        ServerKey serverKey = desKey(7);
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(RxService.builder(SERVICE)
                .securityClass(new RxkadServerSecurity(List.of(serverKey), RxkadLevel.CLEAR))
                .wholeStream(call -> call.output().write(call.input().readAllBytes())).build());
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        wrongKey = security(desKey(8));
        rightKey = security(serverKey);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private static void assertRefused(RxException e, boolean remote) {
        assertEquals(RxkadCodes.RXKADBADTICKET, e.code(), e.toString());
        assertEquals(remote, e.remote(), e.toString());
        assertEquals(RxException.Reason.REFUSED, e.reason(), e.toString());
        assertTrue(e.getMessage().contains("RXKADBADTICKET"), e.getMessage());
    }

    @Test
    void aRefusedConnectionKeepsTheServersCode() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE, wrongKey);
        assertRefused(assertThrows(RxException.class, () -> conn.call(ECHO)), true);
        // The same connection again: refused here at once, with the server's code, in every call form.
        assertRefused(assertThrows(RxException.class, () -> conn.call(ECHO)), false);
        ExecutionException async = assertThrows(ExecutionException.class,
                () -> conn.callAsync(ECHO).get(20, TimeUnit.SECONDS));
        assertRefused(assertInstanceOf(RxException.class, async.getCause()), false);
        ExecutionException typed = assertThrows(ExecutionException.class,
                () -> conn.callAsync(1, w -> { }, r -> null).get(20, TimeUnit.SECONDS));
        assertRefused(assertInstanceOf(RxException.class, typed.getCause()), false);
    }

    @Test
    void anAsyncCallMeetingTheRefusalSaysSo() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE, wrongKey);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> conn.callAsync(ECHO).get(20, TimeUnit.SECONDS));
        assertRefused(assertInstanceOf(RxException.class, e.getCause()), true);
    }

    @Test
    void aPoolDropsARefusedConnection() throws Exception {
        try (RxConnectionPool pool = RxConnectionPool.open(client, server.localAddress(), SERVICE, wrongKey,
                RxPoolConfig.defaults())) {
            assertRefused(assertThrows(RxException.class, () -> pool.call(ECHO)), true);
            assertEquals(1, pool.stats().closedRefused());
            assertEquals(0, pool.stats().connections(), "the refused connection left the pool");
            // The next call opens a new connection, which the server refuses afresh: never a local -2.
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> pool.callAsync(1, w -> { }, r -> null).get(20, TimeUnit.SECONDS));
            assertRefused(assertInstanceOf(RxException.class, e.getCause()), true);
            assertEquals(2, pool.stats().opened());
            assertEquals(2, pool.stats().closedRefused());
        }
        try (RxConnectionPool pool = RxConnectionPool.open(client, server.localAddress(), SERVICE, rightKey,
                RxPoolConfig.defaults())) {
            assertArrayEquals(ECHO, pool.call(ECHO), "the server takes a ticket sealed with its key");
            assertEquals(0, pool.stats().closedRefused());
            assertFalse(pool.stats().connections() == 0);
        }
    }
}
