// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxPacket;

/**
 * The sender's RTT probe (one REQUEST_ACK per RTT) survives a lost answer: when no ACK names the probe for two srtt,
 * the next datagram probes again (on a real server, hard acks for consumed data carry serial 0 and the probes' answers
 * are the sender's only RTT samples).
 */
@ExtendWith(LeakCheckExtension.class)
class RttProbeSimTest {
    private static final long MS = 1_000_000L;
    private SimNetwork net;

    @AfterEach
    void shutdown() {
        net.shutdown();
    }

    @Test
    void probesContinueWhenTheirAnswersAreLost() {
        RxConfig config = RxConfig.builder().maxWindow(255).build();
        LinkModel link = LinkModel.delay(5 * MS);
        net = new SimNetwork(config, config, link, link, 7);
        // Every REQUESTED ack to the client is lost.
        net.deliveryFilter = (now, toServer, packets) -> toServer
                || !(packets.get(0) instanceof AckPacket a && a.reason() == AckReason.REQUESTED);
        long[] probes = {0};
        net.sendTap = (now, fromClient, packets) -> {
            for (RxPacket p : packets) {
                if (fromClient && now > 200 * MS && p instanceof DataPacket d
                        && d.header().hasFlag(PacketFlags.REQUEST_ACK)) {
                    probes[0]++;
                }
            }
        };
        net.server().engine.registerService(147, 0, new SimApps.BulkServer(net));
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 1L << 40, 0);
        client.start(conn);
        net.runFor(2_200 * MS);
        // About one probe per 2 srtt (20 ms) over 2 s; without the re-probe, none after the first lost answer.
        assertTrue(probes[0] >= 40, "REQUEST_ACK datagrams after 200 ms: " + probes[0]);
    }
}
