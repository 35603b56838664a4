// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.SimTraffic;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.PacketType;

/**
 * Jumbograms as full as the peer allows at a full window (docs/engine.md "Jumbogram size"), in the simulator on the
 * virtual clock: a receiver that acknowledges every datagram (soft-ack rate 1, as OpenAFS) and a 32-packet window; an
 * upload of 8 MiB leaves in 4-packet jumbograms but for the call's first and last datagrams; a request written and
 * ended in one step leaves in as few jumbograms as its packets fill.
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

    /**
     * A 32 KiB request (24 packets, the last one short) that its window sends at once, written and ended in one
     * step as the rpc layer does at close: 6 four-packet jumbograms, the short packet in the last one. Written and
     * then ended in two steps, the first step sends the 23 full packets and the short last one follows alone in a
     * seventh datagram.
     */
    @Test
    void aRequestEndedWithItsLastBytesLeavesInFullJumbograms() {
        RxConfig config = RxConfig.defaults();
        LinkModel link = LinkModel.delay(MS / 2);
        net = new SimNetwork(config, config, link, link, 5);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        // A first call proves the path, learns the peer's jumbogram limit and opens the window the next one starts from.
        SimApps.BulkClient warm = new SimApps.BulkClient(net, 1 << 20, 4);
        warm.start(conn);
        assertTrue(net.runUntil(() -> warm.done, 60 * S), "the first call did not end");
        long dataBefore = net.deliveredToServer.datagramsByType[PacketType.DATA];
        long packetsBefore = net.deliveredToServer.dataPackets;

        int payload = 32 << 10;
        ByteBuf pattern = SimApps.pattern(0, payload);
        ByteBuf request = Unpooled.buffer(8 + payload).writeLong(4).writeBytes(pattern);
        pattern.release();
        int[] end = {Integer.MIN_VALUE};
        Call call = net.client().engine.newCall(net.now(), conn, new CallListener() {
            @Override
            public void onData(Call c, ByteBuf data, long now) {
                data.release();
            }

            @Override
            public void onWritable(Call c) {
            }

            @Override
            public void onComplete(Call c, int errorCode) {
                end[0] = errorCode;
            }
        });
        assertTrue(call.cwnd() >= 24, "the window holds the whole request: " + call.cwnd());
        call.finishSending(net.now(), request);
        assertTrue(net.runUntil(() -> end[0] != Integer.MIN_VALUE, 60 * S), "the call did not end");
        assertEquals(0, end[0]);
        assertEquals((1 << 20) + payload, server.requestBytes, "the server read both requests");
        assertEquals(0, server.mismatches);

        long packets = net.deliveredToServer.dataPackets - packetsBefore;
        long datagrams = net.deliveredToServer.datagramsByType[PacketType.DATA] - dataBefore;
        assertEquals(24, packets, "32 KiB and the 8-byte header in 1,412-byte packets");
        assertEquals(6, datagrams, "24 packets in 4-packet jumbograms, the short last packet in the last one");
    }
}
