// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.ubik;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.afs.vl.VlClient;
import org.rx4j.afs.vl.VlDispatcher;
import org.rx4j.afs.vl.VlErrors;
import org.rx4j.afs.vl.VlServer;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.channel.RxPoolConfig;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * {@link UbikClient}'s order and retry rules with fake vlservers on loopback: one that answers VL_Probe, ones that
 * abort every call with UNOQUORUM or UNOTSYNC (as a ubik server without quorum, or not the sync site, does), and a
 * closed port (nothing listens: the call's 300 ms deadline or the dead time ends it). Each fake counts its calls,
 * so the tests see how many tries reached which server.
 */
@Timeout(60)
class UbikClientTest {
    private static final Duration CLOSED_DEADLINE = Duration.ofMillis(300);

    private final InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private RxEndpoint good;
    private RxEndpoint noQuorum;
    private RxEndpoint notSync;
    private RxEndpoint client;
    private InetSocketAddress closed;
    private final AtomicInteger goodCalls = new AtomicInteger();
    private final AtomicInteger noQuorumCalls = new AtomicInteger();
    private final AtomicInteger notSyncCalls = new AtomicInteger();

    /** A fake vlserver: probeServer counts and then succeeds, or aborts with {@code code} when it is not 0. */
    private RxEndpoint fake(AtomicInteger calls, int code) throws IOException {
        VlServer vl = (VlServer) Proxy.newProxyInstance(VlServer.class.getClassLoader(), new Class<?>[] {VlServer.class},
                (p, m, a) -> {
                    calls.incrementAndGet();
                    if (code != 0) {
                        throw RxException.local(code, "fake ubik failure");
                    }
                    return switch (m.getName()) {
                        case "probeServer" -> null;
                        case "getEntryByNameN" -> throw RxException.local(VlErrors.VL_NOENT, "no " + a[1]);
                        default -> throw new UnsupportedOperationException(m.getName());
                    };
                });
        return RxEndpoint.builder().bind(loopback).service(VlDispatcher.service(52, RxNullSecurityClass.INSTANCE, vl))
                .open();
    }

    @BeforeEach
    void start() throws IOException {
        good = fake(goodCalls, 0);
        noQuorum = fake(noQuorumCalls, UbikCodes.UNOQUORUM);
        notSync = fake(notSyncCalls, UbikCodes.UNOTSYNC);
        client = RxEndpoint.builder().bind(loopback).open();
        try (DatagramSocket s = new DatagramSocket(loopback)) {
            closed = (InetSocketAddress) s.getLocalSocketAddress();    // a port nothing listens on once closed
        }
    }

    @AfterEach
    void stop() {
        for (RxEndpoint e : new RxEndpoint[] {client, good, noQuorum, notSync}) {
            if (e != null) {
                e.close();
            }
        }
    }

    private UbikClient<VlClient> ubik(InetSocketAddress... servers) {
        return UbikClient.connect(client, List.of(servers), 52, RxNullSecurityClass.INSTANCE, VlClient::new);
    }

    private static InetSocketAddress at(RxEndpoint e) {
        return e.localAddress();
    }

    @Test
    void movesOnPastAClosedServerAndNoQuorumThenSticksToTheOneThatAnswered() throws IOException {
        UbikClient<VlClient> vl = ubik(closed, at(noQuorum), at(good));
        UbikClient.Answer<Void> first = vl.ask(c -> {
            c.probeServer(CLOSED_DEADLINE);
            return null;
        });
        assertEquals(at(good), first.server());
        assertEquals(3, first.tries());
        assertEquals(1, noQuorumCalls.get());
        assertEquals(1, goodCalls.get());

        UbikClient.Answer<Void> second = vl.ask(c -> {
            c.probeServer(CLOSED_DEADLINE);
            return null;
        });
        assertEquals(at(good), second.server());
        assertEquals(1, second.tries(), "the server that answered last is asked first");
        assertEquals(1, noQuorumCalls.get());
        assertEquals(2, goodCalls.get());
    }

    @Test
    void anApplicationErrorIsAnAnswerNotAReasonToMoveOn() throws IOException {
        UbikClient<VlClient> vl = ubik(at(notSync), at(good), at(noQuorum));
        RxException e = assertThrows(RxException.class, () -> vl.call(c -> c.getEntryByNameN("missing")));
        assertEquals(VlErrors.VL_NOENT, e.code());
        assertTrue(e.remote());
        assertEquals(1, notSyncCalls.get());
        assertEquals(1, goodCalls.get());
        assertEquals(0, noQuorumCalls.get(), "the error from the good server ended the call");

        assertEquals(1, vl.ask(c -> {
            c.probeServer();
            return null;
        }).tries(), "the server that answered with an error is asked first next time");
    }

    @Test
    void whenNoServerAnswersEachIsTriedOnceAndAllAreNamed() {
        UbikClient<VlClient> vl = ubik(at(noQuorum), closed, at(notSync));
        RxException e = assertThrows(RxException.class, () -> vl.call(c -> {
            c.probeServer(CLOSED_DEADLINE);
            return null;
        }));
        assertEquals(UbikCodes.UNOTSYNC, e.code(), "the last failure's code");
        assertFalse(e.remote(), "the summary is local");
        assertTrue(e.getMessage().contains("none of 3 servers answered (" + at(noQuorum) + ": 5376, " + closed + ": "),
                e.getMessage());
        assertTrue(e.getMessage().contains(at(notSync) + ": 5377)"), e.getMessage());
        assertEquals(2, e.getSuppressed().length);
        int closedCode = ((RxException) e.getSuppressed()[1]).code();
        assertTrue(closedCode == RxCodes.RX_CALL_TIMEOUT || closedCode == RxCodes.RX_CALL_DEAD, "closed: " + closedCode);
        assertEquals(1, noQuorumCalls.get());
        assertEquals(1, notSyncCalls.get());
    }

    @Test
    void refusesMismatchedLists() {
        assertThrows(IllegalArgumentException.class, () -> new UbikClient<>(List.of(), List.of()));
        assertThrows(IllegalArgumentException.class, () -> new UbikClient<>(List.of(closed), List.of("a", "b")));
        assertEquals(java.util.Set.of(-1, -3, 5376, 5377), UbikClient.moveOnCodes());
    }
    @Test
    void closeClosesTheConnectionsItOpenedOnly() throws IOException {
        UbikClient<VlClient> vl = ubik(at(good));
        vl.call(c -> {
            c.probeServer(CLOSED_DEADLINE);
            return null;
        });
        vl.close();
        RxException closedConn = assertThrows(RxException.class, () -> vl.call(c -> {
            c.probeServer(CLOSED_DEADLINE);
            return null;
        }));
        assertEquals(RxCodes.RX_INVALID_OPERATION, closedConn.code());
        assertTrue(closedConn.getMessage().contains("connection closed"), closedConn.getMessage());
        vl.close(); // idempotent
        assertFalse(client.isClosing(), "the endpoint is not the client's");

        VlClient stub = new VlClient(client.connect(at(good), 52, RxNullSecurityClass.INSTANCE));
        try (UbikClient<VlClient> given = new UbikClient<>(List.of(at(good)), List.of(stub))) {
            given.call(c -> {
                c.probeServer(CLOSED_DEADLINE);
                return null;
            });
        }
        stub.probeServer(CLOSED_DEADLINE); // the given stub's connection stays open
        assertEquals(3, goodCalls.get());
        stub.target().close();
    }

    @Test
    void callsToOneServerRunOnItsPoolPastFourAtOnce() throws Exception {
        CountDownLatch entered = new CountDownLatch(12);
        CountDownLatch release = new CountDownLatch(1);
        VlServer slow = (VlServer) Proxy.newProxyInstance(VlServer.class.getClassLoader(),
                new Class<?>[] {VlServer.class}, (p, m, a) -> {
                    entered.countDown();
                    assertTrue(release.await(30, TimeUnit.SECONDS));
                    return null;
                });
        ExecutorService callers = Executors.newFixedThreadPool(12);
        try (RxEndpoint server = RxEndpoint.builder().bind(loopback).workers(2, 16)
                .service(VlDispatcher.service(52, RxNullSecurityClass.INSTANCE, slow)).open();
             UbikClient<VlClient> vl = UbikClient.connect(client, List.of(at(server)), 52,
                     RxNullSecurityClass.INSTANCE, RxPoolConfig.builder().maxConnections(3).build(), VlClient::new)) {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                calls.add(callers.submit(() -> vl.call(c -> {
                    c.probeServer();
                    return null;
                })));
            }
            // 12 handlers at once need 3 connections of 4 channels: one connection would hold 8 calls back
            assertTrue(entered.await(30, TimeUnit.SECONDS), "12 calls run at once on the server's pool");
            release.countDown();
            for (Future<?> f : calls) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
        }
    }
}
