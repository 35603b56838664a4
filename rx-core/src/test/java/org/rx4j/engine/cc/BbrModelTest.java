// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The BBR model's state machine on synthetic samples (draft-ietf-ccwg-bbr §4.3): Startup grows until the bandwidth
 * stops growing for three rounds, Drain empties the queue, ProbeBW paces at the estimate, ProbeRTT comes after 5 s
 * without a lower RTT, random loss under the threshold leaves the model alone. Plain ns values.
 */
class BbrModelTest {
    private static final long MS = 1_000_000L;
    private static final long RTT = 10 * MS;

    /** Feeds one round: one sample per round, every packet of the round delivered at {@code ratePps}. */
    private static final class Path {
        final DeliveryRate rate = new DeliveryRate();
        final BbrModel model = new BbrModel(rate, 4, 42);
        final RateSample rs = new RateSample();
        long now;
        long delivered;

        void round(double ratePps, int inFlight, int lost, int lossEvents) {
            now += RTT;
            int packets = (int) Math.max(1, ratePps * RTT / 1e9);
            rs.priorDelivered = delivered;
            delivered += packets;
            // Keep the shared estimator's counters in step with the synthetic samples.
            while (rate.delivered() < delivered) {
                rate.onDelivered(now, now - RTT, rate.delivered(), now - RTT, now - RTT, false, inFlight, 0);
            }
            rate.addInFlight(inFlight - rate.inFlight());
            rs.totalDelivered = delivered;
            rs.delivered = packets;
            rs.intervalNs = RTT;
            rs.newlyAcked = packets;
            rs.newlyLost = lost;
            rs.newLossEvents = lossEvents;
            rs.lostSinceSend = lost;
            rs.txInFlight = inFlight;
            rs.inFlight = inFlight;
            rs.rttNs = RTT;
            rs.appLimited = false;
            model.onAck(now, rs);
        }
    }

    @Test
    void startupFindsTheBottleneckThenDrainsAndProbes() {
        Path p = new Path();
        double bottleneck = 10_000; // packets/s: BDP 100 packets at 10 ms
        for (int i = 0; i < 40 && p.model.state() == BbrModel.State.STARTUP; i++) {
            double offered = Math.min(bottleneck, 400 * Math.pow(2, i));
            p.round(offered, Math.min(2 * 100, p.model.cwnd()), 0, 0);
        }
        assertTrue(p.model.fullBandwidthReached());
        assertEquals(bottleneck, p.model.maxBandwidthPps(), 1);
        assertEquals(RTT, p.model.minRttNs());
        // Drain ends once inflight falls to about one BDP.
        p.round(bottleneck, 100, 0, 0);
        assertTrue(p.model.state().name().startsWith("PROBE_BW"), "state " + p.model.state());
        for (int i = 0; i < 20; i++) {
            p.round(bottleneck, 100, 0, 0);
        }
        assertEquals(bottleneck * 0.99, p.model.pacingRatePps(), bottleneck * 0.1, "paces at about the estimate");
        assertTrue(p.model.cwnd() >= 100 && p.model.cwnd() <= 2 * 100 + 2 * 46, "cwnd " + p.model.cwnd());
    }

    @Test
    void randomLossUnderTheThresholdKeepsTheModel() {
        Path p = new Path();
        for (int i = 0; i < 30; i++) {
            p.round(Math.min(10_000, 400 * Math.pow(2, i)), 150, 0, 0);
        }
        double bw = p.model.bandwidthPps();
        // 1 % loss in 2 events per round of 100 packets: fewer than 6 events, so not a lossy round.
        for (int i = 0; i < 200; i++) {
            p.round(10_000, 100, 1, 1);
        }
        assertEquals(0, p.model.lossyRounds());
        assertEquals(bw, p.model.bandwidthPps(), 1);
        // 8 % in 8 events per round: lossy; the short-term bound follows the delivery rate.
        p.round(10_000, 100, 8, 8);
        p.round(10_000, 100, 8, 8);
        assertTrue(p.model.lossyRounds() >= 1);
    }

    @Test
    void probeRttAfterFiveSecondsWithoutALowerRtt() {
        Path p = new Path();
        for (int i = 0; i < 30; i++) {
            p.round(Math.min(10_000, 400 * Math.pow(2, i)), 100, 0, 0);
        }
        boolean sawProbeRtt = false;
        for (int i = 0; i < 600 && !sawProbeRtt; i++) {  // 6 s of rounds at the same RTT
            p.round(10_000, sawProbeRtt ? 4 : 100, 0, 0);
            sawProbeRtt = p.model.state() == BbrModel.State.PROBE_RTT;
        }
        assertTrue(sawProbeRtt, "ProbeRTT within 6 s");
        assertTrue(p.model.cwnd() <= 100 / 2 + 4, "cwnd " + p.model.cwnd() + " at most half a BDP");
        for (int i = 0; i < 40; i++) {                   // 200 ms and a round at a small inflight
            p.round(10_000, 4, 0, 0);
        }
        assertTrue(p.model.state().name().startsWith("PROBE_BW"), "back to ProbeBW: " + p.model.state());
    }
}
