// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
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

/**
 * RTT sampling under loss (Karn's rule, one sample per ACK): on a 10 ms path with 2% random loss each way, the sender's
 * samples never include the time a packet sat soft-acked behind a hole, nor the time before a retransmission, so srtt
 * stays near the path RTT and the RTO does not grow with every recovery.
 */
@ExtendWith(LeakCheckExtension.class)
class RttSamplingSimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    /** Path RTT: 5 ms each way. */
    static final long PATH_RTT = 10 * MS;

    private final List<SimNetwork> nets = new ArrayList<>();

    @AfterEach
    void shutdown() {
        nets.forEach(SimNetwork::shutdown);
    }

    private Connection bulk(long seed, long requestBytes, SimApps.BulkClient[] out) {
        // No reachability check: under the stateless challenge the first packets wait one round trip for the PING's
        // answer, so the first call's first sample is two path RTTs (docs/robustness.md); recoveries are the subject.
        RxConfig config = RxConfig.builder().maxWindow(255).checkReach(false).build();
        LinkModel link = LinkModel.delay(PATH_RTT / 2).withLoss(0.02);
        SimNetwork net = new SimNetwork(config, config, link, link, seed);
        nets.add(net);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, requestBytes, 0);
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 600 * S), "call did not complete");
        assertEquals(0, client.error);
        out[0] = client;
        return conn;
    }

    @Test
    void samplesAfterRecoveriesAtTwoPercentLossStayNearThePathRtt() {
        for (long seed = 1; seed <= 3; seed++) {
            SimApps.BulkClient[] c = new SimApps.BulkClient[1];
            Connection conn = bulk(seed, 16L << 20, c);
            RttEstimator rtt = conn.peer().rtt();
            assertTrue(conn.counters().get(RxCounter.FAST_RETRANSMITS) + conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS) > 0, "loss caused recoveries");
            // No bandwidth limit: no queueing. Acks that carry a timing serial are sent at once (REQUEST_ACK,
            // out of sequence, idle); delayed ones are never sampled. Allow 1 ms for scheduling.
            long bound = PATH_RTT + MS;
            assertTrue(rtt.maxRttNs() <= bound, "seed " + seed + ": largest sample " + rtt.maxRttNs() / 1e6
                    + " ms > " + bound / 1e6 + " ms");
            assertTrue(rtt.srttNs() <= 2 * PATH_RTT, "seed " + seed + ": srtt " + rtt.srttNs() / 1e6 + " ms");
            assertEquals(0, rtt.backoffCount(), "seed " + seed + ": backoff cleared by later samples");
            assertTrue(rtt.samples() > 100, "samples taken: " + rtt.samples());
            System.out.printf("rtt-sampling seed %d: srtt %.2f ms, max sample %.2f ms, samples %d, fast retransmits %d, timeouts %d%n",
                    seed, rtt.srttNs() / 1e6, rtt.maxRttNs() / 1e6, rtt.samples(), conn.counters().get(RxCounter.FAST_RETRANSMITS),
                    conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS));
        }
    }
}
