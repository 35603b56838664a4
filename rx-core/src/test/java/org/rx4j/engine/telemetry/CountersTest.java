// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.telemetry;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxPacket;

/**
 * Per-connection counters (design.md "Counters without contention", {@link RxCounters}) checked against what
 * the simulator saw each engine send.
 */
class CountersTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;

    /** What one engine put on the wire, counted independently of its own counters. */
    private static final class Sent {
        final long[] datagramsByType = new long[16];
        final long[] acksByReason = new long[AckReason.COUNT];
        long dataPackets;
        long jumbograms;
        long bytes;
        long repeatedSeqs;
        final Set<Long> seqs = new HashSet<>();

        void count(List<? extends RxPacket> packets) {
            RxPacket first = packets.get(0);
            datagramsByType[first.header().type()]++;
            if (first instanceof DataPacket) {
                dataPackets += packets.size();
                if (packets.size() > 1) {
                    jumbograms++;
                }
                for (RxPacket p : packets) {
                    bytes += RxConstants.HEADER_SIZE + ((DataPacket) p).payload().readableBytes();
                    long key = ((long) p.header().callNumber() << 40) ^ ((long) p.header().channel() << 32)
                            ^ p.header().seq();
                    if (!seqs.add(key)) {
                        repeatedSeqs++;
                    }
                }
            } else {
                bytes += PacketEncoder.encodedLength(first);
                if (first instanceof AckPacket a) {
                    acksByReason[a.reason()]++;
                }
            }
        }
    }

    private record Run(SimNetwork net, Connection client, Connection server, Sent byClient, Sent byServer) {
    }

    private static Run transfer(LinkModel link, long bytes, long seed) {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), link, link, seed);
        Sent byClient = new Sent();
        Sent byServer = new Sent();
        net.sendTap = (now, fromClient, packets) -> (fromClient ? byClient : byServer).count(packets);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, bytes, bytes);
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 600 * S));
        assertEquals(0, client.error);
        net.runFor(2 * S); // let the final acks settle
        Connection serverConn = net.server().engine.serverConnections().iterator().next();
        return new Run(net, conn, serverConn, byClient, byServer);
    }

    private static void assertSenderCounters(RxCounters c, Sent wire) {
        for (int t = 0; t < 16; t++) {
            assertEquals(wire.datagramsByType[t], c.get(RxCounter.PACKETS_SENT, t), "datagrams sent of type " + t);
        }
        for (int r = 1; r < AckReason.COUNT; r++) {
            assertEquals(wire.acksByReason[r], c.get(RxCounter.ACKS_SENT, r), "acks sent, reason " + AckReason.name(r));
        }
        assertEquals(wire.dataPackets, c.get(RxCounter.DATA_PACKETS_SENT));
        assertEquals(wire.jumbograms, c.get(RxCounter.JUMBOGRAMS_SENT));
        assertEquals(wire.bytes, c.get(RxCounter.BYTES_SENT));
        assertEquals(wire.repeatedSeqs, c.get(RxCounter.RESENDS));
    }

    /** Payload moved, counted per packet once: what one side's peer hard-acked is what the other read, both ways. */
    private static void assertPayloadMoved(Run run, long atLeast) {
        RxCounters client = run.client().counters();
        RxCounters server = run.server().counters();
        assertEquals(server.get(RxCounter.PAYLOAD_BYTES_DELIVERED), client.get(RxCounter.PAYLOAD_BYTES_ACKED), "request: acked = delivered");
        assertEquals(client.get(RxCounter.PAYLOAD_BYTES_DELIVERED), server.get(RxCounter.PAYLOAD_BYTES_ACKED), "reply: acked = delivered");
        assertTrue(client.get(RxCounter.PAYLOAD_BYTES_ACKED) >= atLeast, "request bytes " + client.get(RxCounter.PAYLOAD_BYTES_ACKED));
        assertTrue(server.get(RxCounter.PAYLOAD_BYTES_ACKED) >= atLeast, "reply bytes " + server.get(RxCounter.PAYLOAD_BYTES_ACKED));
        assertTrue(client.get(RxCounter.PAYLOAD_BYTES_ACKED) < atLeast + 1024, "no packet counted twice");
    }

    @Test
    void losslessTransferCountersMatchTheWireOnBothSides() {
        Run run = transfer(LinkModel.delay(MS), 2 << 20, 51);
        RxCounters client = run.client().counters();
        // The server's totals: its connection plus the reachability PING sent, and its answer received, before the
        // connection existed (docs/robustness.md "Rule: stateless reachability challenge").
        RxCounters server = run.net().server().engine.totals();
        assertSenderCounters(client, run.byClient());
        assertSenderCounters(server, run.byServer());
        assertTrue(client.get(RxCounter.JUMBOGRAMS_SENT) > 0 && server.get(RxCounter.JUMBOGRAMS_SENT) > 0, "jumbograms both ways");
        assertEquals(0, client.get(RxCounter.RESENDS));
        assertEquals(0, server.get(RxCounter.RESENDS));
        assertPayloadMoved(run, 2 << 20);

        // Lossless: what one side sent, the other received (packetsReceived counts datagrams, as OpenAFS's
        // rx_stats; dataPacketsReceived counts sub-packets).
        assertEquals(run.byClient().datagramsByType[PacketType.DATA], server.get(RxCounter.PACKETS_RECEIVED, PacketType.DATA));
        assertEquals(run.byServer().datagramsByType[PacketType.DATA], client.get(RxCounter.PACKETS_RECEIVED, PacketType.DATA));
        assertEquals(run.byClient().dataPackets, server.get(RxCounter.DATA_PACKETS_RECEIVED));
        assertEquals(run.byServer().dataPackets, client.get(RxCounter.DATA_PACKETS_RECEIVED));
        assertEquals(client.get(RxCounter.PACKETS_SENT, PacketType.ACK), server.get(RxCounter.PACKETS_RECEIVED, PacketType.ACK));
        assertEquals(server.get(RxCounter.PACKETS_SENT, PacketType.ACK), client.get(RxCounter.PACKETS_RECEIVED, PacketType.ACK));
        assertEquals(client.get(RxCounter.BYTES_SENT), server.get(RxCounter.BYTES_RECEIVED));
        assertEquals(server.get(RxCounter.BYTES_SENT), client.get(RxCounter.BYTES_RECEIVED));
        assertEquals(client.get(RxCounter.JUMBOGRAMS_SENT), server.get(RxCounter.JUMBOGRAMS_RECEIVED));
        assertEquals(server.get(RxCounter.JUMBOGRAMS_SENT), client.get(RxCounter.JUMBOGRAMS_RECEIVED));
        for (int r = 1; r < AckReason.COUNT; r++) {
            assertEquals(client.get(RxCounter.ACKS_SENT, r), server.get(RxCounter.ACKS_RECEIVED, r), "reason " + AckReason.name(r));
            assertEquals(server.get(RxCounter.ACKS_SENT, r), client.get(RxCounter.ACKS_RECEIVED, r), "reason " + AckReason.name(r));
        }
        assertTrue(server.get(RxCounter.ACKS_SENT, AckReason.PING) >= 1, "the reachability ping");
        assertEquals(server.get(RxCounter.ACKS_SENT, AckReason.PING), client.get(RxCounter.ACKS_SENT, AckReason.PING_RESPONSE));
        assertEquals(1, client.get(RxCounter.CALLS_STARTED));
        assertEquals(1, client.get(RxCounter.CALLS_SUCCEEDED));
        assertEquals(1, server.get(RxCounter.CALLS_STARTED));
        assertEquals(1, server.get(RxCounter.CALLS_SUCCEEDED));
        assertEquals(0, client.get(RxCounter.CALLS_FAILED) + server.get(RxCounter.CALLS_FAILED));

        RxCounters totals = run.net().client().engine.totals();
        assertEquals(client.get(RxCounter.BYTES_SENT), totals.get(RxCounter.BYTES_SENT), "engine totals sum the connection counters");
        assertEquals(client.get(RxCounter.JUMBOGRAMS_RECEIVED), totals.get(RxCounter.JUMBOGRAMS_RECEIVED));
    }

    @Test
    void resendCountersMatchTheRetransmissionsOnTheWire() {
        Run run = transfer(LinkModel.delay(2 * MS).withLoss(0.03), 2 << 20, 52);
        RxCounters client = run.client().counters();
        // The server's totals: its connection plus the reachability PING sent, and its answer received, before the
        // connection existed (docs/robustness.md "Rule: stateless reachability challenge").
        RxCounters server = run.net().server().engine.totals();
        assertSenderCounters(client, run.byClient());
        assertSenderCounters(server, run.byServer());
        assertTrue(client.get(RxCounter.RESENDS) > 0 && server.get(RxCounter.RESENDS) > 0, "3% loss both ways causes resends");
        assertTrue(client.get(RxCounter.RETRANSMIT_TIMEOUTS) + client.get(RxCounter.FAST_RETRANSMITS) > 0);
        assertTrue(client.get(RxCounter.DATA_PACKETS_RECEIVED) < run.byServer().dataPackets, "some were lost");
        assertTrue(client.get(RxCounter.ACKS_SENT, AckReason.OUT_OF_SEQUENCE) > 0, "gaps were reported");
        assertPayloadMoved(run, 2 << 20); // resent packets are not counted again
    }
}
