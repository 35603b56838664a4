// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.example.phonebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * The generated {@code PhonebookCallException} keeps the raw API's {@link RxException#reason()} and its message
 * (docs/errors.md, the reasons table): a closed port, a closed endpoint, and an async call cut by the client
 * endpoint's graceful close.
 */
@Timeout(60)
class GeneratedFailureReasonTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @Test
    void closedPortIsPeerUnreachable() throws Exception {
        InetSocketAddress closed;
        try (DatagramSocket s = new DatagramSocket(LOOPBACK)) {
            closed = (InetSocketAddress) s.getLocalSocketAddress(); // bound, then closed: nothing listens there
        }
        try (RxEndpoint client = RxEndpoint.builder().bind(LOOPBACK).open()) {
            PbClient book = PbClient.connect(client, closed, PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE);
            PhonebookCallException e = assertThrows(PhonebookCallException.class, () -> book.lookup("alice"));
            assertEquals(RxException.Reason.PEER_UNREACHABLE, e.reason());
            assertEquals(-1, e.code());
            assertFalse(e.remote());
            assertEquals("PB_Lookup", e.proc());
        }
    }

    @Test
    void closedEndpointIsEndpointClosing() throws Exception {
        RxEndpoint client = RxEndpoint.builder().bind(LOOPBACK).open();
        PbClient book = PbClient.connect(client, new InetSocketAddress(InetAddress.getLoopbackAddress(), 7000),
                PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE);
        client.close();
        PhonebookCallException e = assertThrows(PhonebookCallException.class, () -> book.lookup("alice"));
        assertEquals(RxException.Reason.ENDPOINT_CLOSING, e.reason());
        assertTrue(e.getMessage().contains("(endpoint closing)"), e.getMessage());
        ExecutionException async = assertThrows(ExecutionException.class,
                () -> book.lookupAsync("alice").get(30, TimeUnit.SECONDS));
        PhonebookCallException ae = assertInstanceOf(PhonebookCallException.class, async.getCause());
        assertEquals(RxException.Reason.ENDPOINT_CLOSING, ae.reason());
    }

    @Test
    void asyncCallCutByGracefulCloseIsEndpointClosing() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        PbServer stuck = new PbServer() {
            @Override
            public void add(RxCall call, PbEntry entry) {
            }

            @Override
            public int lookup(RxCall call, String name) throws RxException {
                started.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw RxException.local(PhonebookExample.NO_SUCH_NAME, name);
            }

            @Override
            public List<PbEntry> list(RxCall call) {
                return List.of();
            }
        };
        try (RxEndpoint server = RxEndpoint.builder().bind(LOOPBACK)
                .service(PbDispatcher.service(PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE, stuck))
                .open()) {
            RxEndpoint client = RxEndpoint.builder().bind(LOOPBACK).open();
            PbClient book = PbClient.connect(client, server.localAddress(), PhonebookExample.SERVICE_ID,
                    RxNullSecurityClass.INSTANCE);
            CompletableFuture<Integer> call = book.lookupAsync("alice");
            assertTrue(started.await(30, TimeUnit.SECONDS));
            client.close(300);
            release.countDown();
            ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(30, TimeUnit.SECONDS));
            PhonebookCallException cut = assertInstanceOf(PhonebookCallException.class, e.getCause());
            assertEquals(RxException.Reason.ENDPOINT_CLOSING, cut.reason(), cut.getMessage());
            assertTrue(cut.getMessage().startsWith("PB_Lookup (opcode 2): call aborted locally (endpoint closing)"),
                    cut.getMessage());
        }
    }
}
