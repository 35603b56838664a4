// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.engine.RxEngine;

/** A bound transport reads nothing until startReading(), so services can be registered first. */
@Timeout(30)
class StartReadingTest {
    private static long received(RxTransport t) {
        return t.submit(e -> {
            RxCounters c = new RxCounters(RxCounter.Scope.ENDPOINT);
            t.addCountersTo(c);
            return c.get(RxCounter.DATAGRAMS_RECEIVED);
        }).join();
    }

    @Test
    void noDatagramIsProcessedBeforeStartReading() throws Exception {
        RxConfig config = RxConfig.defaults();
        try (RxTransport t = RxTransport.bind(config, new InetSocketAddress("127.0.0.1", 0), TransportKind.NIO,
                (sink, alloc, now) -> new RxEngine(config, sink, alloc, 1, now));
             DatagramSocket sender = new DatagramSocket()) {
            byte[] junk = new byte[10];
            sender.send(new DatagramPacket(junk, junk.length, t.localAddress()));
            // The datagram waits in the socket buffer; a round trip through the loop shows nothing was read.
            t.submit(e -> null).get(5, TimeUnit.SECONDS);
            assertEquals(0L, received(t));
            t.startReading();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (received(t) == 0 && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            assertEquals(1L, received(t));
        }
    }
}
