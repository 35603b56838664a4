// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.RxkadCredentials;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.security.rxkad.ServerKeySource;
import org.rx4j.security.rxkad.SessionKey;
import org.rx4j.testing.LeakCheckExtension;

/**
 * A client connection whose rxkad ticket ends is replaced by a new one with fresh credentials (docs/security.md
 * "Ticket expiry"), on the virtual clock and a virtual wall clock: when the ticket's end passes on the client's clock,
 * or when the server aborted the connection with RXKADEXPIRED, the next call starts on a new cid whose RESPONSE
 * carries a freshly minted ticket, while a call in flight on the old connection finishes there; the reaper then
 * closes the old one.
 */
@ExtendWith(LeakCheckExtension.class)
class RxkadExpirySimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    static final int SVC = 147;
    static final long LIFETIME = 8 * 3600;

    /** The server's and the client's wall clocks, seconds since 1970. */
    private final long[] serverClock = {RxkadTestCredentials.NOW};
    private final long[] clientClock = {RxkadTestCredentials.NOW};
    /** When the next minted ticket starts, seconds since 1970; and how many were minted. */
    private final long[] mintStart = {RxkadTestCredentials.NOW - 60};
    private int mints;
    private SimNetwork net;
    private SimApps.BulkServer server;

    @AfterEach
    void shutdown() {
        assertNull(net.server().engine.lastInternalError(), "server engine error");
        assertNull(net.client().engine.lastInternalError(), "client engine error");
        net.shutdown();
    }

    private void network() {
        net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(5 * MS),
                LinkModel.delay(5 * MS), 23);
        server = new SimApps.BulkServer(net);
        RxkadServerSecurity security = new RxkadServerSecurity(ServerKeySource.of(List.of(new ServerKey(
                ServerKey.RXKAD, RxkadTestCredentials.KVNO, 0,
                RxkadTestCredentials.bytes(RxkadTestCredentials.SERVER_KEY)))), RxkadLevel.CLEAR,
                () -> serverClock[0], new Random(7));
        net.server().engine.registerService(SVC, security, server::onNewCall);
    }

    /** Mints a ticket for alice valid from {@link #mintStart} for 8 hours, as a ccache re-read would find one. */
    private RxkadCredentials mint() {
        mints++;
        long start = mintStart[0];
        return new RxkadCredentials(new SessionKey(RxkadTestCredentials.SESSION_KEY), RxkadTestCredentials.KVNO,
                RxkadTestCredentials.ticket(RxkadTestCredentials.SERVER_KEY, start), start + LIFETIME, "alice");
    }

    private RxkadClientSecurity client(Supplier<RxkadCredentials> credentials) {
        return new RxkadClientSecurity(RxkadLevel.CRYPT, credentials, () -> clientClock[0]);
    }

    private SimApps.BulkClient run(Connection conn, long bytes) {
        SimApps.BulkClient c = new SimApps.BulkClient(net, bytes, bytes);
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 600 * S), "the call did not end");
        return c;
    }

    @Test
    void aTicketEndingOnTheClientsClockMovesNewCallsToANewConnectionWhileACallInFlightFinishes() {
        network();
        Connection first = net.client().engine.connect(SimNetwork.SERVER, SVC, client(this::mint));
        assertEquals(1, mints);
        assertEquals(0, run(first, 4000).error);
        assertSame(first, net.client().engine.connectionForNewCall(first), "the ticket has not ended");

        // A large call is in flight when the ticket's end comes on the client's clock (the server's clock is a
        // second behind, so the server still takes the old connection's packets).
        SimApps.BulkClient inFlight = new SimApps.BulkClient(net, 4L << 20, 4L << 20);
        inFlight.start(first);
        net.runFor(50 * MS);
        assertFalse(inFlight.done);
        mintStart[0] = clientClock[0] = RxkadTestCredentials.NOW - 60 + LIFETIME;
        serverClock[0] = clientClock[0] - 1;

        Connection second = net.client().engine.connectionForNewCall(first);
        assertNotEquals(first.cid(), second.cid(), "a new cid");
        assertEquals(2, mints, "the new connection took fresh credentials");
        assertSame(second, net.client().engine.connectionForNewCall(second), "its fresh ticket has not ended");
        assertEquals(0, run(second, 4000).error);
        assertEquals(2, net.server().engine.totals().get(RxCounter.SECURITY_CHALLENGES_SENT), "the new connection was challenged");

        assertTrue(net.runUntil(() -> inFlight.done, 600 * S));
        assertEquals(0, inFlight.error, "the call in flight finished on the old connection");
        assertEquals(4L << 20, inFlight.reader.received);
        assertTrue(net.client().engine.clientConnections().contains(first), "closed by the reaper, not at once");
        net.runFor(61 * S);
        assertFalse(net.client().engine.clientConnections().contains(first), "the reaper closed the old connection");
        assertTrue(net.client().engine.clientConnections().contains(second));
    }

    @Test
    void anRxkadExpiredAbortMovesNewCallsToANewConnectionWithFreshCredentials() {
        network();
        // The client's clock is behind: it still trusts a ticket the server finds long ended.
        mintStart[0] = RxkadTestCredentials.NOW - 9 * 3600;
        clientClock[0] = mintStart[0] + 60;
        Connection first = net.client().engine.connect(SimNetwork.SERVER, SVC, client(this::mint));
        assertEquals(RxkadCodes.RXKADEXPIRED, run(first, 4000).error);

        mintStart[0] = RxkadTestCredentials.NOW - 60; // e.g. the user ran kinit again
        Connection second = net.client().engine.connectionForNewCall(first);
        assertNotEquals(first.cid(), second.cid());
        assertEquals(2, mints);
        assertEquals(0, run(second, 4000).error);
        net.runFor(61 * S);
        assertFalse(net.client().engine.clientConnections().contains(first), "the aborted connection was closed");
    }

    @Test
    void fixedCredentialsAreNeverReplacedAndAFailingSupplierLeavesTheConnectionAsItWas() {
        network();
        Connection fixed = net.client().engine.connect(SimNetwork.SERVER, SVC, new RxkadClientSecurity(
                RxkadLevel.CRYPT, new SessionKey(RxkadTestCredentials.SESSION_KEY), RxkadTestCredentials.KVNO,
                RxkadTestCredentials.ticket(RxkadTestCredentials.SERVER_KEY, RxkadTestCredentials.NOW - 9 * 3600)));
        assertEquals(RxkadCodes.RXKADEXPIRED, run(fixed, 4000).error);
        assertSame(fixed, net.client().engine.connectionForNewCall(fixed), "a new connection would carry the same");

        boolean[] fail = {false};
        Connection supplied = net.client().engine.connect(SimNetwork.SERVER, SVC, client(() -> {
            if (fail[0]) {
                throw new UncheckedIOException(new IOException("ccache unreadable"));
            }
            return mint();
        }));
        clientClock[0] = RxkadTestCredentials.NOW + LIFETIME;
        fail[0] = true;
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> net.client().engine.connectionForNewCall(supplied));
        assertTrue(e.getMessage().contains("ccache unreadable"), e.getMessage());
        int connections = net.client().engine.clientConnections().size();
        fail[0] = false;
        assertNotEquals(supplied.cid(), net.client().engine.connectionForNewCall(supplied).cid());
        assertEquals(connections + 1, net.client().engine.clientConnections().size());
    }
}
