// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.RxPacket;

/**
 * A retransmission that is lost too is found by the ACKs that still NACK it one RTT after the resend, and resent
 * without waiting for the retransmission timeout (docs/engine.md "Loss, RTT and congestion control on long paths").
 */
@ExtendWith(LeakCheckExtension.class)
class LostRetransmissionSimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;

    private SimNetwork net;

    @AfterEach
    void shutdown() {
        net.shutdown();
    }

    private static boolean carries(List<RxPacket> packets, int seq) {
        for (RxPacket p : packets) {
            if (p instanceof DataPacket d && d.header().seq() == seq && d.header().callNumber() == 1) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aLostRetransmissionIsResentBeforeTheRto() {
        RxConfig config = RxConfig.builder().maxWindow(255).build();
        LinkModel link = LinkModel.delay(5 * MS);
        net = new SimNetwork(config, config, link, link, 11);
        int[] drops = {0};
        int[] seen = {0};
        // Drop seq 300's first transmission and its first retransmission.
        net.deliveryFilter = (now, toServer, packets) -> {
            if (toServer && carries(packets, 300)) {
                seen[0]++;
                if (drops[0] < 2) {
                    drops[0]++;
                    return false;
                }
            }
            return true;
        };
        java.util.Map<Integer, Integer> sends = new java.util.TreeMap<>();
        net.sendTap = (now, fromClient, packets) -> {
            for (RxPacket p : packets) {
                if (fromClient && p instanceof DataPacket d) {
                    sends.merge(d.header().seq(), 1, Integer::sum);
                }
            }
        };
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 2L << 20, 0);
        client.start(conn);

        assertTrue(net.runUntil(() -> client.done, 60 * S), "call did not complete");
        assertEquals(0, client.error);
        assertEquals(2, drops[0]);
        assertEquals(3, seen[0], "sent three times: the original, the fast retransmit, the resend of the lost resend");
        assertEquals(0, conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS), "no retransmission timeout was needed");
        sends.values().removeIf(n -> n == 1);
        // The first drop took a jumbogram (297..300): four fast retransmits, then 300 once more.
        assertEquals(java.util.Map.of(297, 2, 298, 2, 299, 2, 300, 3), sends);
        assertEquals(5, conn.counters().get(RxCounter.RESENDS));
    }
}
