// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.PacketType;

/**
 * Jumbograms as full as the peer allows at a full window (docs/engine.md "Jumbogram size"), in the simulator on the
 * virtual clock: a receiver that acknowledges every datagram (soft-ack rate 1, as OpenAFS) and a 32-packet window; an
 * upload of 8 MiB leaves in 4-packet jumbograms but for the call's first and last datagrams.
 */
@ExtendWith(LeakCheckExtension.class)
class JumbogramFillSimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;

    private SimNetwork net;

    @AfterEach
    void shutdown() {
        if (net != null) {
            net.shutdown();
        }
    }

    @Test
    void aFullWindowSendsFullJumbograms() {
        RxConfig config = RxConfig.defaults();
        LinkModel link = LinkModel.delay(MS / 2).withBandwidth(1_000_000_000L, 4 << 20);
        net = new SimNetwork(config, config, link, link, 5);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        long bytes = 8L << 20;
        SimApps.BulkClient client = new SimApps.BulkClient(net, bytes, 0);
        long start = net.now();
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 60 * S), "transfer did not complete");
        // The window bounds it: 32 packets per 1 ms RTT. Waiting for a full jumbogram costs no time.
        long ns = client.completedAt - start;
        assertTrue(ns < 210 * MS, "8 MiB in " + ns / 1e6 + " ms (207 before the wait for full jumbograms)");
        assertEquals(0, client.error);
        assertEquals(bytes, server.requestBytes);
        SimTraffic up = net.deliveredToServer;
        long dataDatagrams = up.datagramsByType[PacketType.DATA];
        double perDatagram = (double) up.dataPackets / dataDatagrams;
        assertEquals(4, up.maxSubPackets, "4-packet jumbograms");
        assertEquals(0, net.client().engine.totals().get(RxCounter.RESENDS), "lossless link");
        // C's own sender: 3,645 of 3,778 datagrams were 4-packet jumbograms on a 20 MiB send (3.93 packets each).
        assertTrue(perDatagram >= 3.9, "DATA packets per jumbogram: " + perDatagram + " (" + up.dataPackets
                + " packets in " + dataDatagrams + " datagrams, " + up.jumbograms + " of them jumbograms)");
    }
}
