// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.relay.core.VirtualPath.ms;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The impairment pipeline on a virtual clock: release times, drops and order are exact and reproducible. */
class ImpairmentPipelineTest {
    private static final int SIZE = 1000;

    @Test
    void noImpairmentReleasesAtArrivalInOrder() {
        VirtualPath path = new VirtualPath(Impairment.NONE, 1);
        for (int i = 0; i < 100; i++) {
            assertEquals(1, path.offer(ms(i * 0.1), i, SIZE));
        }
        path.drain();
        assertEquals(100, path.released.size());
        for (int i = 0; i < 100; i++) {
            assertEquals(new VirtualPath.Release(i, ms(i * 0.1)), path.released.get(i));
        }
    }

    @Test
    void delayHoldsEachDatagramExactlyThatLong() {
        VirtualPath path = new VirtualPath(Impairment.builder().delayMs(5.25).build(), 1);
        path.offer(0, 0, SIZE);
        path.offer(ms(1), 1, SIZE);
        assertNull(path.pipeline.pollDue(ms(5.25) - 1), "not due 1 ns early");
        assertEquals(ms(5.25), path.pipeline.nextReleaseNs());
        path.drain();
        assertEquals(List.of(new VirtualPath.Release(0, ms(5.25)), new VirtualPath.Release(1, ms(6.25))),
                path.released);
    }

    @Test
    void jitterStaysWithinItsBoundsAndUsesThem() {
        VirtualPath path = new VirtualPath(Impairment.builder().delayMs(10).jitterMs(2).build(), 7);
        Map<Integer, Long> sent = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            long at = ms(i * 0.01);
            sent.put(i, at);
            path.offer(at, i, SIZE);
        }
        path.drain();
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (VirtualPath.Release r : path.released) {
            long d = r.atNs() - sent.get(r.seq());
            min = Math.min(min, d);
            max = Math.max(max, d);
        }
        assertEquals(10_000, path.released.size());
        assertTrue(min >= ms(8) && max <= ms(12), "delay within 10 ± 2 ms: " + min + ".." + max);
        assertTrue(min < ms(8.1) && max > ms(11.9), "jitter spans its range: " + min + ".." + max);
        assertTrue(isReordered(path.released), "2 ms jitter with 10 µs spacing reorders");
    }

    @Test
    void jitterLargerThanDelayIsFlooredAtZero() {
        VirtualPath path = new VirtualPath(Impairment.builder().delayMs(1).jitterMs(5).build(), 3);
        for (int i = 0; i < 1000; i++) {
            path.offer(ms(i), i, SIZE);
        }
        path.drain();
        for (VirtualPath.Release r : path.released) {
            long d = r.atNs() - ms(r.seq());
            assertTrue(d >= 0 && d <= ms(6), "delay in [0, 6] ms: " + d);
        }
        assertTrue(path.released.stream().filter(r -> r.atNs() == ms(r.seq())).count() > 300,
                "about 40 % of draws fall below zero and are floored at no delay");
    }

    @Test
    void randomLossRateWithinTolerance() {
        VirtualPath path = new VirtualPath(Impairment.builder().lossPercent(1).build(), 42);
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            path.offer(i * 1000L, i, SIZE);
        }
        path.drain();
        long lost = path.stats().dropped(DropReason.LOSS);
        assertEquals(lost, path.discarded.size());
        assertEquals(n, lost + path.released.size());
        assertEquals(0.01, lost / (double) n, 0.001, "1 % ± 0.1 % (4.5 σ)");
        assertEquals(n, path.stats().inDatagrams());
    }

    @Test
    void gilbertBurstsHaveTheRequestedMeanLengthAndRate() {
        VirtualPath path = new VirtualPath(Impairment.builder().burstLoss(1, 5).build(), 11);
        int n = 1_000_000;
        boolean[] lost = new boolean[n];
        for (int i = 0; i < n; i++) {
            lost[i] = path.offer(i * 1000L, i, SIZE) == 0;
        }
        List<Integer> bursts = bursts(lost);
        double meanBurst = bursts.stream().mapToInt(Integer::intValue).average().orElse(0);
        long total = path.stats().dropped(DropReason.BURST_LOSS);
        assertEquals(5.0, meanBurst, 0.5, "mean burst length (≈ 5 σ)");
        assertEquals(0.01, total / (double) n, 0.002, "mean loss rate");
        assertTrue(bursts.stream().anyMatch(b -> b >= 15), "geometric bursts have a long tail");
    }

    @Test
    void gilbertElliottWithLossInBothStatesMatchesItsStationaryRate() {
        // p = 1 %, r = 10 %, loss 0.5 % in good and 50 % in bad: mean (0.1·0.005 + 0.01·0.5) / 0.11 = 5 %.
        Impairment imp = Impairment.builder().gilbertElliott(1, 10, 0.5, 50).build();
        assertEquals(0.05, imp.burstLoss().meanLossRate(), 1e-12);
        VirtualPath path = new VirtualPath(imp, 5);
        int n = 500_000;
        for (int i = 0; i < n; i++) {
            path.offer(i * 1000L, i, SIZE);
        }
        assertEquals(0.05, path.stats().dropped(DropReason.BURST_LOSS) / (double) n, 0.004);
    }

    @Test
    void reorderedDatagramsWaitTheExtraDelayAndAreOvertaken() {
        VirtualPath path = new VirtualPath(Impairment.builder().delayMs(2).reorder(10, 3.5).build(), 9);
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            path.offer(ms(i), i, SIZE);
        }
        path.drain();
        assertEquals(n, path.released.size());
        long held = 0;
        for (VirtualPath.Release r : path.released) {
            long d = r.atNs() - ms(r.seq());
            assertTrue(d == ms(2) || d == ms(5.5), "delay is 2 ms or 2 + 3.5 ms: " + d);
            if (d == ms(5.5)) {
                held++;
            }
        }
        assertEquals(held, path.stats().reordered());
        assertEquals(0.10, held / (double) n, 0.01);
        // A held datagram i (released at i + 5.5 ms) leaves after i+1, i+2, i+3 (released at i + 3, 4, 5 ms) and
        // before i+4 (i + 6 ms) when those are not held themselves.
        List<Integer> order = path.released.stream().map(VirtualPath.Release::seq).toList();
        int checked = 0;
        for (int i = 0; i + 4 < n; i++) {
            if (isHeld(path, i) && !isHeld(path, i + 1) && !isHeld(path, i + 2) && !isHeld(path, i + 3)
                    && !isHeld(path, i + 4)) {
                assertTrue(order.indexOf(i) > order.indexOf(i + 3), "overtaken by " + (i + 3));
                assertTrue(order.indexOf(i) < order.indexOf(i + 4), "not by " + (i + 4));
                if (++checked == 20) {
                    break;
                }
            }
        }
        assertEquals(20, checked);
    }

    @Test
    void duplicationSendsTheSameDatagramTwice() {
        VirtualPath path = new VirtualPath(Impairment.builder().duplicatePercent(30).delayMs(1).build(), 4);
        int n = 20_000;
        int copies = 0;
        for (int i = 0; i < n; i++) {
            copies += path.offer(ms(i), i, SIZE);
        }
        path.drain();
        long dups = path.stats().duplicated();
        assertEquals(n + dups, copies);
        assertEquals(n + dups, path.released.size());
        assertEquals(0.30, dups / (double) n, 0.02);
        Map<Integer, Integer> seen = new HashMap<>();
        path.released.forEach(r -> seen.merge(r.seq(), 1, Integer::sum));
        assertEquals(dups, seen.values().stream().filter(c -> c == 2).count());
        assertTrue(seen.values().stream().allMatch(c -> c == 1 || c == 2));
    }

    @Test
    void rateLimitSpacesReleasesBySerialisationTimeAndDropsAtTheTail() {
        // 8 Mbit/s = 1 byte per µs: a 1000-byte datagram takes 1 ms on the link; queue of 4 packets.
        Impairment imp = Impairment.builder().rateBitsPerSecond(8_000_000).queuePackets(4).delayMs(10).build();
        VirtualPath path = new VirtualPath(imp, 1);
        for (int i = 0; i < 6; i++) {
            path.offer(0, i, SIZE); // a burst of 6 at t = 0
        }
        assertEquals(2, path.stats().dropped(DropReason.QUEUE), "drop-tail at 4");
        assertEquals(List.of(4, 5), path.discarded);
        // At 2.5 ms datagrams 0 and 1 have left the link: room for two more, behind 2 and 3; the third is dropped.
        path.offer(ms(2.5), 6, SIZE);
        path.offer(ms(2.5), 7, SIZE);
        path.offer(ms(2.5), 8, SIZE);
        assertEquals(3, path.stats().dropped(DropReason.QUEUE));
        path.drain();
        // Departures 1, 2, 3, 4 ms for the burst; 5 and 6 ms for the two admitted at 2.5 ms; + 10 ms delay.
        assertEquals(List.of(new VirtualPath.Release(0, ms(11)), new VirtualPath.Release(1, ms(12)),
                new VirtualPath.Release(2, ms(13)), new VirtualPath.Release(3, ms(14)),
                new VirtualPath.Release(6, ms(15)), new VirtualPath.Release(7, ms(16))), path.released);
    }

    @Test
    void rateLimitedPathNeverExceedsItsRate() {
        Impairment imp = Impairment.builder().rateBitsPerSecond(100_000_000).queuePackets(50).build();
        VirtualPath path = new VirtualPath(imp, 1);
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            path.offer(i * 50_000L, i, 1444); // offered at 231 Mbit/s
        }
        path.drain();
        List<VirtualPath.Release> out = path.released;
        long spacing = 115_520; // 1444 B · 8 / 100 Mbit/s, ns
        for (int i = 1; i < out.size(); i++) {
            assertTrue(out.get(i).atNs() - out.get(i - 1).atNs() >= spacing, "spacing at " + i);
        }
        double seconds = (out.get(out.size() - 1).atNs() - out.get(0).atNs()) / 1e9;
        double rate = (out.size() - 1) * 1444 * 8 / seconds;
        assertEquals(100e6, rate, 1e6);
        assertEquals(n, out.size() + path.stats().dropped(DropReason.QUEUE));
        assertTrue(path.stats().dropped(DropReason.QUEUE) > n / 2, "more than half dropped at 2.3× the rate");
    }

    @Test
    void mtuCapDropsOnlyLargerDatagrams() {
        VirtualPath path = new VirtualPath(Impairment.builder().mtuBytes(1444).build(), 1);
        assertEquals(1, path.offer(0, 0, 1444));
        assertEquals(0, path.offer(0, 1, 1445));
        assertEquals(1, path.offer(0, 2, 100));
        assertEquals(0, path.offer(0, 3, 9000));
        path.drain();
        assertEquals(List.of(0, 2), path.released.stream().map(VirtualPath.Release::seq).toList());
        assertEquals(2, path.stats().dropped(DropReason.MTU));
        assertEquals(List.of(1, 3), path.discarded);
    }

    @Test
    void sameSeedSameDecisionsOtherSeedOthers() {
        Impairment imp = Impairment.builder().delayMs(5).jitterMs(1).lossPercent(2).burstLoss(1, 4)
                .reorder(5, 2).duplicatePercent(3).rateBitsPerSecond(500_000_000).queuePackets(20).build();
        List<VirtualPath.Release> a = run(imp, 1234);
        List<VirtualPath.Release> b = run(imp, 1234);
        List<VirtualPath.Release> c = run(imp, 1235);
        assertEquals(a, b);
        assertNotEquals(a, c);
    }

    @Test
    void relayMemoryBoundDropsAsRelayQueue() {
        VirtualPath path = new VirtualPath(Impairment.builder().delayMs(100).build(), 1, 65_536);
        for (int i = 0; i < 70; i++) {
            path.offer(ms(i * 0.1), i, SIZE);
        }
        assertEquals(65, path.pipeline.pending());
        assertEquals(65_000, path.pipeline.pendingBytes());
        assertEquals(5, path.stats().dropped(DropReason.RELAY_QUEUE));
        assertTrue(DropReason.RELAY_QUEUE.isRelayOwn());
        assertEquals(5, path.stats().droppedByRelay());
    }

    @Test
    void clearDiscardsEverythingWaiting() {
        VirtualPath path = new VirtualPath(Impairment.builder().delayMs(100).build(), 1);
        for (int i = 0; i < 10; i++) {
            path.offer(0, i, SIZE);
        }
        path.pipeline.clear();
        assertEquals(0, path.pipeline.pending());
        assertEquals(10, path.discarded.size());
        assertEquals(Long.MAX_VALUE, path.pipeline.nextReleaseNs());
    }

    private static List<VirtualPath.Release> run(Impairment imp, long seed) {
        VirtualPath path = new VirtualPath(imp, seed);
        for (int i = 0; i < 5000; i++) {
            path.offer(i * 20_000L, i, 1000 + (i % 7) * 100);
        }
        path.drain();
        return new ArrayList<>(path.released);
    }

    private static boolean isHeld(VirtualPath path, int seq) {
        return path.released.stream().anyMatch(r -> r.seq() == seq && r.atNs() - ms(seq) != ms(2));
    }

    private static boolean isReordered(List<VirtualPath.Release> released) {
        for (int i = 1; i < released.size(); i++) {
            if (released.get(i).seq() < released.get(i - 1).seq()) {
                return true;
            }
        }
        return false;
    }

    private static List<Integer> bursts(boolean[] lost) {
        List<Integer> bursts = new ArrayList<>();
        int run = 0;
        for (boolean l : lost) {
            if (l) {
                run++;
            } else if (run > 0) {
                bursts.add(run);
                run = 0;
            }
        }
        if (run > 0) {
            bursts.add(run);
        }
        return bursts;
    }
}
