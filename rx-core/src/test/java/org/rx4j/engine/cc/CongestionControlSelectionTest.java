// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.REMOTE;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.CongestionControl;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;

/**
 * {@code RxConfig.congestion().congestionControl()} picks each call's congestion controller: NewReno collapses its
 * window on loss, the fixed window keeps the transmit window (rx-wire-facts.md §8).
 */
@ExtendWith(LeakCheckExtension.class)
class CongestionControlSelectionTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final int SVC = 147;

    private SimNetwork net;

    @AfterEach
    void shutdown() {
        if (net != null) {
            net.shutdown();
        }
    }

    private static RxConfig config(CongestionControl cc) {
        return RxConfig.builder().congestionControl(cc).deadTime(Duration.ofSeconds(1000)).build();
    }

    @Test
    void afterATimeoutNewRenoDropsToOnePacketAndTheFixedWindowDoesNot() {
        for (CongestionControl cc : CongestionControl.values()) {
            RxConfig config = config(cc);
            EngineHarness h = new EngineHarness(config);
            Connection conn = h.engine.connect(REMOTE, SVC, 0);
            Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
            call.write(h.now, EngineHarness.bytes(4 * 1412));
            h.advance(4 * S); // the peer never answers: one retransmission timeout (RTO 3.2 s)

            assertEquals(1, conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS), cc + ": one timeout");
            // BBR falls to its minimum pipe (4 packets) and regrows from the model.
            int expected = switch (cc) {
                case NEWRENO -> 1;
                case BBR -> 4;
                case FIXED_WINDOW -> config.windows().maxTwind();
            };
            assertEquals(expected, call.cwnd(), cc + ": cwnd after the timeout");
            call.abort(h.now, -6);
            h.sent.forEach(d -> d.packets().forEach(org.rx4j.wire.RxPacket::release)); // the harness kept them
        }
    }

    @Test
    void fixedWindowKeepsTheTransmitWindowThroughLossInTheSimulator() {
        RxConfig config = config(CongestionControl.FIXED_WINDOW);
        LinkModel link = LinkModel.delay(5 * MS).withLoss(0.05);
        net = new SimNetwork(config, config, link, link, 11);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 2 << 20, 0);
        client.start(conn);
        int minCwnd = Integer.MAX_VALUE;
        int minTwind = Integer.MAX_VALUE;
        for (int step = 0; step < 6000 && !client.done; step++) {
            net.runFor(10 * MS);
            Call call = conn.call(0);
            if (call != null && !call.isDone()) {
                minCwnd = Math.min(minCwnd, call.cwnd());
                minTwind = Math.min(minTwind, call.twind());
            }
        }

        assertTrue(client.done, "call did not complete");
        assertEquals(0, client.error);
        assertTrue(net.client().engine.totals().get(RxCounter.RESENDS) > 0, "loss must have caused resends");
        assertTrue(net.client().engine.totals().get(RxCounter.FAST_RETRANSMITS) + net.client().engine.totals().get(RxCounter.RETRANSMIT_TIMEOUTS) > 0);
        assertEquals(config.windows().maxTwind(), minCwnd, "the fixed window never shrinks on loss");
        assertTrue(minCwnd >= minTwind, "cwnd never limits below twind");
    }

    /** The loss-detection policy comes from the configuration too: a threshold no run of NACKs reaches turns fast
     * retransmit off, so every loss waits for the RTO. */
    @Test
    void theNackThresholdFromTheConfigurationDecidesWhenToFastRetransmit() {
        long[] fast = new long[2];
        long[] timeouts = new long[2];
        int[] thresholds = {RxConfig.defaults().congestion().nackThreshold(), 255};
        for (int i = 0; i < 2; i++) {
            RxConfig config = RxConfig.builder().nackThreshold(thresholds[i]).deadTime(Duration.ofSeconds(1000))
                    .build();
            LinkModel link = LinkModel.delay(5 * MS).withLoss(0.03);
            SimNetwork sim = new SimNetwork(config, config, link, link, 7);
            SimApps.BulkServer server = new SimApps.BulkServer(sim);
            sim.server().engine.registerService(SVC, 0, server);
            Connection conn = sim.client().engine.connect(SimNetwork.SERVER, SVC, 0);
            SimApps.BulkClient client = new SimApps.BulkClient(sim, 1 << 20, 0);
            client.start(conn);
            for (int step = 0; step < 20_000 && !client.done; step++) {
                sim.runFor(10 * MS);
            }
            assertTrue(client.done, "call did not complete with nackThreshold " + thresholds[i]);
            assertEquals(0, client.error);
            fast[i] = sim.client().engine.totals().get(RxCounter.FAST_RETRANSMITS);
            timeouts[i] = sim.client().engine.totals().get(RxCounter.RETRANSMIT_TIMEOUTS);
            sim.shutdown();
        }
        assertTrue(fast[0] > 0, "the default threshold (3) fast-retransmits at 3% loss");
        assertEquals(0, fast[1], "a threshold of 255 never fast-retransmits");
        assertTrue(timeouts[1] > timeouts[0], "without fast retransmit the losses wait for the RTO");
    }
}
