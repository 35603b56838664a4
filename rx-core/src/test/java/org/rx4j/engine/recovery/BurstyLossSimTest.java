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
import org.rx4j.config.CongestionControl;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallSender;
import org.rx4j.engine.call.RecoveryProbes;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxPacket;

/**
 * The recovery probes (docs/engine.md "Recovery from a timeout") in the simulator, on the virtual clock: bursty
 * loss (Gilbert–Elliott, 1 %, mean burst 5 datagrams) on a 10 ms path at {@code -W 255}, 1 MiB calls back to back
 * for 30 virtual seconds per seed (the
 * workload of {@code scripts/bench.sh --wan}'s burst row: {@code rxperf client -c send -b 1048576 --time 30}).
 * {@link SimNetwork}'s loss chain runs per datagram in each direction, like the relay's
 * {@code org.rx4j.relay.core.GilbertElliott}: first the state moves (good → bad with p, bad → good with r = 1/5),
 * then a datagram in the bad state is lost. A sender waiting out a backed-off RTO sends one datagram per RTO, so a
 * burst that catches its retransmission (or the ACK of it) lasts as many RTOs as it has datagrams.
 *
 * <p>Properties, for every seed: every call completes, and SimNetwork's stall detector (nothing new acknowledged for
 * 2 × the RTO in force) stays quiet; the longest stall is printed. Also the mechanism on a scripted loss, and the
 * bound toward a silent peer. On the code before the recovery probes ({@link CallSender#onRecoveryProbeTimer}) the
 * first three tests failed: NewReno seed 1 and BBR seed 25 ended a call with RX_CALL_DEAD (12 s without a datagram
 * from the peer), and no probe went out between the timeouts.
 */
@ExtendWith(LeakCheckExtension.class)
class BurstyLossSimTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final int SVC = 147;

    private final List<SimNetwork> nets = new ArrayList<>();

    @AfterEach
    void shutdown() {
        nets.forEach(SimNetwork::shutdown);
    }

    /** What one seed's run did. */
    private record Run(long calls, List<Integer> clientErrors, List<Integer> serverErrors, long longestStallNs,
                       long timeouts, long probes) {
    }

    /**
     * 1 MiB send calls back to back on one connection for {@code seconds} virtual seconds through a 10 ms path with
     * Gilbert–Elliott loss 1 % / mean burst 5 each way.
     */
    private Run run(CongestionControl cc, long seed, long seconds) {
        RxConfig config = RxConfig.builder().maxWindow(255).congestionControl(cc).build();
        LinkModel link = LinkModel.delay(5 * MS).withBurstLoss(0.01, 5);
        SimNetwork net = new SimNetwork(config, config, link, link, seed);
        nets.add(net);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        List<Integer> errors = new ArrayList<>();
        long calls = 0;
        long longest = 0;
        long end = net.now() + seconds * S;
        while (net.now() - end < 0) {
            SimApps.BulkClient c = new SimApps.BulkClient(net, 1 << 20, 4);
            Call call = c.start(conn);
            StallWatch w = new StallWatch(net, call);
            // SimNetwork's own detector throws on a stall longer than 2 × the RTO in force.
            assertTrue(net.runUntil(() -> w.done(c), 60 * S), cc + " seed " + seed + ": call " + calls + " hung");
            longest = Math.max(longest, w.longest);
            calls++;
            if (c.error != 0) {
                errors.add(c.error);
            }
        }
        long probes = net.client().engine.totals().get(RxCounter.ACKS_SENT, AckReason.PING);
        return new Run(calls, errors, server.errors, longest, conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS), probes);
    }

    /** The longest stretch in which a client call had packets queued and nothing new was acknowledged, ns. */
    private static final class StallWatch {
        final SimNetwork net;
        final Call call;
        long marker;
        long since;
        long longest;

        StallWatch(SimNetwork net, Call call) {
            this.net = net;
            this.call = call;
            this.marker = call.ackProgress();
            this.since = net.now();
        }

        boolean done(SimApps.BulkClient c) {
            if (c.done) {
                return true;
            }
            long m = call.ackProgress();
            if (call.queuedPackets() == 0 || m != marker) {
                marker = m;
                since = net.now();
            } else {
                longest = Math.max(longest, net.now() - since);
            }
            return false;
        }
    }

    private void everyCallCompletes(CongestionControl cc, long fromSeed, long toSeed, long seconds) {
        long longest = 0;
        long calls = 0;
        long timeouts = 0;
        long probes = 0;
        for (long seed = fromSeed; seed <= toSeed; seed++) {
            Run r = run(cc, seed, seconds);
            assertEquals(List.of(), r.clientErrors(), cc + " seed " + seed + ": client calls failed (" + r + ")");
            assertEquals(List.of(), r.serverErrors(), cc + " seed " + seed + ": server calls failed (" + r + ")");
            longest = Math.max(longest, r.longestStallNs());
            calls += r.calls();
            timeouts += r.timeouts();
            probes += r.probes();
        }
        System.out.printf("%s bursty 1%%/5, seeds %d-%d x %d s: %d calls of 1 MiB, all completed; %d timeouts, %d PINGs"
                + " sent by the client; longest stall %d ms%n", cc, fromSeed, toSeed, seconds, calls, timeouts, probes,
                longest / MS);
    }

    @Test
    void newRenoCompletesEveryCallUnderBurstyLoss() {
        // Before the recovery probes, seeds 1, 2, 3 and 7 ended a call with RX_CALL_DEAD.
        everyCallCompletes(CongestionControl.NEWRENO, 1, 20, 30);
    }

    @Test
    void bbrCompletesEveryCallUnderBurstyLoss() {
        // Before the recovery probes, seed 25 ended a call with RX_CALL_DEAD 24 s into its run (and seed 33 of 1-40).
        everyCallCompletes(CongestionControl.BBR, 23, 26, 30);
    }

    /**
     * The mechanism on a scripted loss: the last packet of a call and its first retransmission are lost. The first
     * retransmission goes at the timeout (RTO 220 ms); the second used to wait for the doubled RTO (440 ms later).
     * Now a probe PING goes out 250 ms after the timeout, its PING_RESPONSE shows the retransmission missing, and the
     * packet is resent at once.
     */
    @Test
    void aProbeAnswerShowingTheRetransmissionMissingResendsItAtOnce() {
        // No reachability check: under the stateless challenge the first call's first RTT sample is two path RTTs
        // (its first packets wait for the PING's answer, docs/robustness.md), which moves the RTO this script uses.
        RxConfig config = RxConfig.builder().checkReach(false).build();
        SimNetwork net = new SimNetwork(config, config, LinkModel.delay(5 * MS), LinkModel.delay(5 * MS), 7);
        nets.add(net);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        // A first call teaches the RTT (srtt 10 ms, RTO 220 ms).
        SimApps.BulkClient warm = new SimApps.BulkClient(net, 64 << 10, 4);
        warm.start(conn);
        assertTrue(net.runUntil(() -> warm.done, 10 * S));
        assertEquals(220 * MS, conn.peer().rtt().rtoNs(), "base RTO");

        List<Long> lastPacketSends = new ArrayList<>();
        List<Long> pings = new ArrayList<>();
        net.sendTap = (now, fromClient, packets) -> {
            for (RxPacket p : packets) {
                if (fromClient && p instanceof DataPacket d && d.header().hasFlag(PacketFlags.LAST_PACKET)) {
                    lastPacketSends.add(now);
                }
                if (fromClient && p instanceof AckPacket a && a.reason() == AckReason.PING) {
                    pings.add(now);
                }
            }
        };
        int[] lastDropped = {0};
        net.deliveryFilter = (now, toServer, packets) -> {
            RxPacket first = packets.get(0);
            if (toServer && first instanceof DataPacket d && d.header().hasFlag(PacketFlags.LAST_PACKET)
                    && lastDropped[0] < 2) {
                lastDropped[0]++;
                return false;
            }
            return true;
        };
        SimApps.BulkClient c = new SimApps.BulkClient(net, 16 * 1412, 4);
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 30 * S));
        assertEquals(0, c.error);
        assertEquals(3, lastPacketSends.size(), "first send + 2 retransmissions: " + lastPacketSends);
        long first = lastPacketSends.get(0);
        long t1 = lastPacketSends.get(1) - first;
        long t2 = lastPacketSends.get(2) - first;
        assertTrue(t1 >= 220 * MS && t1 < 240 * MS, "first retransmission at the RTO: " + t1 / MS + " ms");
        assertTrue(pings.stream().anyMatch(p -> p - first > t1 && p - first < t2), "a probe between: " + pings);
        // On the answer to the probe sent 250 ms after the timeout (+ 10 ms RTT), before the doubled RTO (440 ms).
        assertTrue(t2 - t1 >= 250 * MS && t2 - t1 < 300 * MS, "second on a probe's answer: " + (t2 - t1) / MS + " ms");
        assertEquals(1, conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS), "one timeout; the second retransmission came from a probe's answer");
    }

    /**
     * Toward a silent peer the probes are bounded (at most dead time / 250 ms = 48 PINGs in the dead time, on top of
     * the backed-off retransmissions) and the call still fails with RX_CALL_DEAD at the dead time (docs/robustness.md
     * "Rule: faults").
     */
    @Test
    void aSilentPeerGetsBoundedProbesAndTheCallFailsAtTheDeadTime() {
        RxConfig config = RxConfig.defaults();
        SimNetwork net = new SimNetwork(config, config, LinkModel.delay(MS), LinkModel.delay(MS), 121);
        nets.add(net);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 1L << 40, 0);
        client.start(conn);
        net.runFor(S);
        long[] pings = {0};
        long[] datagrams = {0};
        net.sendTap = (now, fromClient, packets) -> {
            if (fromClient && net.blackout) {
                datagrams[0]++;
                if (packets.get(0) instanceof AckPacket a && a.reason() == AckReason.PING) {
                    pings[0]++;
                }
            }
        };
        net.blackout = true;
        net.allowStalls = true;
        long silentFrom = net.now();
        long rtoBefore = conn.peer().rtt().rtoNs();
        assertTrue(net.runUntil(() -> client.done, 60 * S));
        assertEquals(AbortCodes.RX_CALL_DEAD, client.error);
        long deadTime = config.timeouts().deadTimeNs();
        assertTrue(client.completedAt - silentFrom <= deadTime + rtoBefore, "failed at the dead time");
        System.out.printf("silent peer: %d datagrams in the dead time, %d of them probe PINGs%n", datagrams[0],
                pings[0]);
        assertTrue(pings[0] > 0, "probes went out");
        assertTrue(pings[0] <= RecoveryProbes.PER_DEAD_TIME, pings[0] + " PINGs");
    }
}
