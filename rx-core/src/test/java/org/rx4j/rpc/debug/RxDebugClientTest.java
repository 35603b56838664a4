// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.debug;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;

/**
 * The debug client against an rx4j endpoint on loopback (whose engine answers DEBUG and VERSION packets) after three
 * calls from another endpoint: the connection and the peer it lists, the counters those calls moved; and against a
 * hand-made server whose GETSTATS answer is short.
 */
@Timeout(60)
class RxDebugClientTest {
    private static final int SERVICE = 2345;
    private static final int CALLS = 3;

    private RxEndpoint server;
    private RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(RxService.builder(SERVICE)
                .async(1, req -> CompletableFuture.completedFuture(req.arguments())).build());
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        for (int i = 0; i < CALLS; i++) {
            assertArrayEquals(new byte[] {(byte) i}, conn.call(new byte[] {0, 0, 0, 1, (byte) i}));
        }
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private RxDebugClient open() throws IOException {
        return RxDebugClient.open("127.0.0.1", server.localAddress().getPort());
    }

    @Test
    void versionAndServerStatus() throws Exception {
        try (RxDebugClient debug = open()) {
            assertEquals(server.localAddress().getPort(), debug.server().getPort());
            assertTrue(debug.version().startsWith("rx4j"), debug.version());
            ServerStatus status = debug.serverStatus();
            assertEquals(CALLS, status.callsExecuted());
            assertFalse(status.waitingForPackets());
        }
    }

    @Test
    void listsTheClientsConnectionAndPeer() throws Exception {
        int clientPort = client.localAddress().getPort();
        try (RxDebugClient debug = open()) {
            ConnectionInfo c = debug.connection(0, true).orElseThrow();
            assertEquals(0x7f000001, c.host());
            assertEquals(clientPort, c.port());
            assertTrue(c.serverConnection());
            assertEquals(4, c.channels().size());
            assertEquals(CALLS, c.channels().stream().mapToInt(ConnectionInfo.Channel::callNumber).sum());
            assertTrue(debug.connection(1, true).isEmpty());

            PeerInfo p = debug.peer(0).orElseThrow();
            assertEquals(0x7f000001, p.host());
            assertEquals(clientPort, p.port());
            assertTrue(p.bytesReceived() >= CALLS * 5, "bytes received " + p.bytesReceived());
            assertTrue(debug.peer(1).isEmpty());
        }
    }

    @Test
    void rxStatsCountTheCallsAndTheDebugRequests() throws Exception {
        try (RxDebugClient debug = open()) {
            RxStats first = debug.rxStats();
            RxStats second = debug.rxStats();
            assertTrue(first.dataPacketsRead() >= CALLS, first.toString());
            // each question is a DEBUG packet (type 8) the server read
            assertTrue(second.packetsRead(8) > first.packetsRead(8), first + " then " + second);
            assertEquals(71, second.counters().length);
            assertEquals(second.counters()[0], second.packetRequests());
            assertEquals(first.serverConnections(), second.serverConnections());
        }
    }

    @Test
    void shortGetstatsAnswerIsAnError() throws Exception {
        try (DatagramSocket fake = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            Thread answerer = new Thread(() -> {
                byte[] buffer = new byte[2048];
                DatagramPacket request = new DatagramPacket(buffer, buffer.length);
                try {
                    fake.receive(request);
                    // the request's header with 4 body bytes: GETSTATS needs 56
                    byte[] reply = Arrays.copyOf(buffer, 28 + 4);
                    fake.send(new DatagramPacket(reply, reply.length, request.getSocketAddress()));
                } catch (IOException e) {
                    // the test fails on its own: no answer
                }
            });
            answerer.start();
            try (RxDebugClient debug = RxDebugClient.open("127.0.0.1", fake.getLocalPort())) {
                IOException e = assertThrows(IOException.class, debug::serverStatus);
                assertEquals("short GETSTATS reply", e.getMessage());
            }
            answerer.join();
        }
    }
}
