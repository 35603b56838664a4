// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.CongestionControl;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.RxEngine;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;

/**
 * Properties of the BBR-class controller in the simulator, on the virtual clock (docs/benchmarks.md "Long and lossy
 * path goals"): a bottleneck at a third of the window bound is kept at 0.5–5% random loss, two BBR flows share it, a
 * NewReno flow is not starved, the standing queue stays below one min RTT, several calls to one peer run one model, and
 * bursty (Gilbert–Elliott) loss never stalls a call.
 */
@ExtendWith(LeakCheckExtension.class)
class BbrSimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    static final int SVC = 147;
    /** Window bound at 10 ms with 255 × 1412-byte packets, bit/s. */
    static final double WINDOW_BOUND = 255 * 1412 * 8 / 0.010;
    /** A bottleneck at a third of it. */
    static final long BOTTLENECK = (long) (WINDOW_BOUND / 3);
    /** A drop-tail queue of about one BDP at the bottleneck. */
    static final long QUEUE = BOTTLENECK / 8 / 100;

    private final List<SimNetwork> nets = new ArrayList<>();

    @AfterEach
    void shutdown() {
        nets.forEach(SimNetwork::shutdown);
    }

    static RxConfig config(CongestionControl cc) {
        return RxConfig.builder().maxWindow(255).congestionControl(cc).build();
    }

    private SimNetwork net(RxConfig config, double loss, long seed) {
        LinkModel c2s = LinkModel.delay(5 * MS).withBandwidth(BOTTLENECK, QUEUE).withLoss(loss);
        LinkModel s2c = LinkModel.delay(5 * MS).withLoss(loss);
        SimNetwork net = new SimNetwork(config, config, c2s, s2c, seed);
        nets.add(net);
        net.server().engine.registerService(SVC, 0, new SimApps.BulkServer(net));
        return net;
    }

    /** One endless upload on its own call; {@link #acked()} is the bytes the server has acknowledged. */
    static final class Flow {
        final SimApps.BulkClient client;
        final Call call;

        Flow(SimNetwork net, RxEngine engine, Connection conn) {
            client = new SimApps.BulkClient(net, 1L << 40, 0);
            call = client.start(engine, conn);
        }

        long acked() {
            return client.writer.sent - (long) call.queuedPackets() * 1412;
        }
    }

    private static double mbps(long bytes, long ns) {
        return bytes * 8.0 / (ns / 1e9) / 1e6;
    }

    @Test
    void keepsEightyPercentOfTheBottleneckAtHalfToFivePercentRandomLoss() {
        for (double loss : new double[] {0.005, 0.01, 0.02, 0.05}) {
            // At 5 % random loss one run's share swings with the loss pattern (69-91 % over seeds 21-26, both before
            // and after the reachability challenge moved the start by one round trip): there the mean of six runs is
            // asserted.
            int runs = loss >= 0.05 ? 6 : 1;
            double sum = 0;
            for (int i = 0; i < runs; i++) {
                SimNetwork net = net(config(CongestionControl.BBR), loss, 21 + i);
                Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
                Flow f = new Flow(net, net.client().engine, conn);
                net.runFor(5 * S);
                long a0 = f.acked();
                long t0 = net.now();
                net.runFor(15 * S);
                double rate = mbps(f.acked() - a0, net.now() - t0);
                sum += rate;
                System.out.printf("bbr loss %.1f%% (seed %d): %.1f Mbit/s of %.1f (%.0f%%), srtt %.1f ms, %s%n",
                        loss * 100, 21 + i, rate, BOTTLENECK / 1e6, rate / (BOTTLENECK / 1e6) * 100,
                        conn.peer().rtt().srttNs() / 1e6, f.call.congestionMode());
            }
            double rate = sum / runs;
            double share = rate / (BOTTLENECK / 1e6);
            assertTrue(share >= 0.8, "loss " + loss + ": " + rate + " Mbit/s is " + share + " of the bottleneck");
        }
    }

    @Test
    void steadyStateQueueingDelayStaysBelowOneMinRtt() {
        SimNetwork net = net(config(CongestionControl.BBR), 0, 22);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        Flow f = new Flow(net, net.client().engine, conn);
        net.runFor(5 * S);
        long sum = 0;
        long max = 0;
        int n = 0;
        for (int i = 0; i < 10_000; i++) {
            net.runFor(MS);
            long q = net.queueDelayNs(true);
            sum += q;
            max = Math.max(max, q);
            n++;
        }
        long mean = sum / n;
        System.out.printf("bbr queueing: mean %.2f ms, max %.2f ms (min RTT 10 ms), acked %d%n", mean / 1e6,
                max / 1e6, f.acked());
        assertTrue(mean < 10 * MS, "mean queueing delay " + mean / 1e6 + " ms >= the 10 ms min RTT");
    }

    @Test
    void twoBbrFlowsShareTheBottleneckWithinTwentyPercent() {
        double[] r = competing(CongestionControl.BBR, 23);
        System.out.printf("bbr vs bbr: %.1f / %.1f Mbit/s%n", r[0], r[1]);
        assertTrue(Math.abs(r[0] - r[1]) <= 0.2 * Math.max(r[0], r[1]), r[0] + " vs " + r[1]);
    }

    @Test
    void againstNewRenoNeitherGetsLessThanTwentyPercent() {
        double[] r = competing(CongestionControl.NEWRENO, 24);
        double total = r[0] + r[1];
        System.out.printf("bbr vs newreno: %.1f / %.1f Mbit/s (%.0f%% / %.0f%%)%n", r[0], r[1], 100 * r[0] / total,
                100 * r[1] / total);
        assertTrue(r[0] >= 0.2 * total && r[1] >= 0.2 * total, r[0] + " vs " + r[1]);
    }

    /** Runs a BBR flow and a flow with {@code other} through one bottleneck for 60 virtual s; their rates. */
    private double[] competing(CongestionControl other, long seed) {
        SimNetwork net = net(config(CongestionControl.BBR), 0, seed);
        SimNetwork.Endpoint second = net.addClient(config(other));
        Flow a = new Flow(net, net.client().engine, net.client().engine.connect(SimNetwork.SERVER, SVC, 0));
        Flow b = new Flow(net, second.engine, second.engine.connect(SimNetwork.SERVER, SVC, 0));
        net.runFor(2 * S);
        long a0 = a.acked();
        long b0 = b.acked();
        long t0 = net.now();
        net.runFor(60 * S);
        long dt = net.now() - t0;
        return new double[] {mbps(a.acked() - a0, dt), mbps(b.acked() - b0, dt)};
    }

    @Test
    void eightCallsToOnePeerRunOneModelAndMoveAtLeastWhatOneCallDoes() {
        double one = parallel(1);
        double eight = parallel(8);
        System.out.printf("bbr -t 1: %.1f Mbit/s, -t 8: %.1f Mbit/s%n", one, eight);
        assertTrue(eight >= one, "8 calls " + eight + " < 1 call " + one);
    }

    private double parallel(int calls) {
        SimNetwork net = net(config(CongestionControl.BBR), 0.01, 25);
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
            flows.add(new Flow(net, net.client().engine, conn));
        }
        net.runFor(3 * S);
        long a0 = flows.stream().mapToLong(Flow::acked).sum();
        long t0 = net.now();
        net.runFor(10 * S);
        long a1 = flows.stream().mapToLong(Flow::acked).sum();
        assertEquals(1, net.client().engine.clientConnections().stream().map(c -> c.peer()).distinct().count(),
                "one peer, one model");
        return mbps(a1 - a0, net.now() - t0);
    }

    @Test
    void burstyLossCompletesEveryCallWithoutStalls() {
        for (CongestionControl cc : new CongestionControl[] {CongestionControl.BBR, CongestionControl.NEWRENO}) {
            RxConfig config = config(cc);
            LinkModel link = LinkModel.delay(5 * MS).withBurstLoss(0.01, 5);
            SimNetwork net = new SimNetwork(config, config, link, link, 26);
            nets.add(net);
            SimApps.BulkServer server = new SimApps.BulkServer(net);
            net.server().engine.registerService(SVC, 0, server);
            Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
            long start = net.now();
            for (int i = 0; i < 10; i++) {
                SimApps.BulkClient c = new SimApps.BulkClient(net, 1 << 20, 64 << 10);
                c.start(conn);
                // SimNetwork's stall detector fails the run on any stall longer than 2 × RTO.
                assertTrue(net.runUntil(() -> c.done, 120 * S), cc + ": call " + i + " did not complete");
                assertEquals(0, c.error, cc + ": call " + i);
                assertEquals(64 << 10, c.reader.received);
            }
            net.runFor(2 * S);
            System.out.printf("%s bursty 1%%/5: 10 MiB in %.2f s, timeouts %d, dropped %d%n", cc,
                    (net.now() - start) / 1e9, conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS), net.dropped);
            assertEquals(10, server.callsCompleted);
        }
    }
}
