// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;

/**
 * Hard-ACK-only mode (RxConfig.ackPolicy().hardAckOnly(), design.md "Configuration"): far fewer ACKs per DATA packet,
 * the same data, and the same throughput as the default ack policy.
 */
class HardAckOnlyTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;

    /** Result of one bulk transfer. */
    record Run(long dataPacketsReceived, long acksReceived, double mbps, long bytes, long mismatches, long resends,
               long jumbograms, int maxSubPackets, long idleAcks) {
        double acksPerData() {
            return (double) acksReceived / dataPacketsReceived;
        }
    }

    static Run bulkSend(RxConfig config, long bytes, long seed) {
        LinkModel link = LinkModel.delay(MS / 2).withBandwidth(1_000_000_000L, 4 << 20);
        SimNetwork net = new SimNetwork(config, config, link, link, seed);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, bytes, 0);
        long start = net.now();
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 600 * S), "transfer did not complete");
        assertEquals(0, client.error);
        double secs = (client.completedAt - start) / 1e9;
        return new Run(net.deliveredToServer.dataPackets, net.deliveredToClient.datagramsByType[PacketType.ACK],
                bytes * 8 / secs / 1e6, server.requestBytes, server.mismatches,
                net.client().engine.totals().get(RxCounter.RESENDS), net.deliveredToServer.jumbograms,
                net.deliveredToServer.maxSubPackets, net.deliveredToClient.acksByReason[AckReason.IDLE]);
    }

    @Test
    void fewerAcksSameDataSameThroughputOnALosslessLink() {
        long bytes = 64L << 20;
        Run normal = bulkSend(RxConfig.defaults(), bytes, 11);
        Run hardOnly = bulkSend(RxConfig.builder().hardAckOnly(true).build(), bytes, 11);
        System.out.printf("default:  %.1f Mbit/s, %.3f acks/DATA (%d acks, %d DATA, %d jumbograms, max %d)%n",
                normal.mbps(), normal.acksPerData(), normal.acksReceived(), normal.dataPacketsReceived(),
                normal.jumbograms(), normal.maxSubPackets());
        System.out.printf("hardOnly: %.1f Mbit/s, %.3f acks/DATA (%d acks, %d DATA, %d jumbograms, max %d)%n",
                hardOnly.mbps(), hardOnly.acksPerData(), hardOnly.acksReceived(), hardOnly.dataPacketsReceived(),
                hardOnly.jumbograms(), hardOnly.maxSubPackets());
        for (Run r : new Run[] {normal, hardOnly}) {
            assertEquals(bytes, r.bytes());
            assertEquals(0, r.mismatches());
            assertEquals(0, r.resends(), "lossless link");
            assertEquals(4, r.maxSubPackets(), "4-packet jumbograms");
        }
        assertEquals(0, hardOnly.idleAcks(), "no soft-ack-rate acks in hard-ACK-only mode");
        // The default policy acks more often. (Whether it sends IDLE acks on this lossless link depends on the phase
        // the transfer starts in: none when it starts on a proven peer, as after the reachability challenge.)
        assertTrue(normal.acksPerData() > hardOnly.acksPerData(),
                "default " + normal.acksPerData() + " vs hard-ACK-only " + hardOnly.acksPerData() + " ACKs per DATA");
        assertTrue(hardOnly.acksPerData() <= 0.2, "hard-ACK-only: " + hardOnly.acksPerData() + " ACKs per DATA");
        assertTrue(hardOnly.mbps() >= 0.95 * normal.mbps(),
                "hard-ACK-only " + hardOnly.mbps() + " Mbit/s vs default " + normal.mbps());
    }

    @Test
    void requestAckAndGapsStillGetImmediateAcks() {
        EngineHarness h = new EngineHarness(RxConfig.builder().hardAckOnly(true).checkReach(false).build());
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(147, 0, svc);
        FakePeer client = FakePeer.client(0x80000010, 0x20, 147);
        for (int seq = 1; seq <= 3; seq++) {
            h.deliver(client.data(0, 1, seq, PacketFlags.MORE_PACKETS, 1412));
        }
        assertEquals(0, h.acksSent().size(), "in-order packets of a burst: no ack yet");
        h.deliver(client.data(0, 1, 4, PacketFlags.REQUEST_ACK, 1412));
        List<AckPacket> acks = h.acksSent();
        assertEquals(1, acks.size());
        assertEquals(AckReason.REQUESTED, acks.get(0).reason());
        assertEquals(5, acks.get(0).firstPacket(), "the application consumed 1..4");

        h.clear();
        h.deliver(client.data(0, 1, 6, PacketFlags.MORE_PACKETS, 1412));
        acks = h.acksSent();
        assertEquals(1, acks.size(), "a gap is reported at once");
        assertEquals(AckReason.OUT_OF_SEQUENCE, acks.get(0).reason());
        assertEquals(5, acks.get(0).firstPacket());
        assertEquals(2, acks.get(0).nAcks());
        assertTrue(!acks.get(0).isAcked(0) && acks.get(0).isAcked(1), "seq 5 NACKed, 6 soft-acked");
    }
}
