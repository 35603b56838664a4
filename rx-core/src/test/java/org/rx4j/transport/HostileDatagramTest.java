// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Garbage on a real socket is counted and dropped; nothing leaks and the endpoint keeps serving
 * (design.md "Hostile input": no exception escapes a handler).
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class HostileDatagramTest {
    @Test
    void malformedDatagramsAreCountedAndDropped() throws Exception {
        try (RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
             DatagramSocket attacker = new DatagramSocket()) {
            server.registerService(RxService.builder(147)
                    .wholeStream(call -> call.output().write(call.input().readAllBytes())).build());
            Random random = new Random(42);
            int sent = 0;
            for (int i = 0; i < 2000; i++) {
                byte[] junk = new byte[random.nextInt(40)];
                random.nextBytes(junk);
                attacker.send(new DatagramPacket(junk, junk.length, server.localAddress()));
                sent++;
            }
            // An ACK whose nAcks lies about its length, and a jumbogram cut short.
            byte[] ack = new byte[28 + 18];
            ack[20] = 2;
            ack[21] = 1;
            ack[28 + 17] = (byte) 200;
            attacker.send(new DatagramPacket(ack, ack.length, server.localAddress()));
            byte[] jumbo = new byte[28 + 1000];
            jumbo[20] = 1;
            jumbo[21] = 0x21;
            attacker.send(new DatagramPacket(jumbo, jumbo.length, server.localAddress()));
            RxConnection conn = client.connect(server.localAddress(), 147);
            assertArrayEquals(new byte[] {1, 2, 3}, conn.call(new byte[] {1, 2, 3}));
            Map<String, Long> stats = server.stats();
            assertTrue(stats.get("malformedDatagrams") >= 2,
                    "short and lying datagrams counted: " + stats);
            // The kernel may drop part of the burst when the socket buffer fills; what arrived was handled.
            assertTrue(stats.get("datagramsReceived") >= 100 && sent > 100, "the receive loop kept running: " + stats);
            assertTrue(stats.get("malformedDatagrams.TRUNCATED_JUMBOGRAM") >= 1, "the cut jumbogram was counted: " + stats);
        }
    }
}
