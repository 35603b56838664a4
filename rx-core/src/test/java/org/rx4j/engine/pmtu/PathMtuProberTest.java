// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;

/**
 * One call's path-MTU prober on its own, through its door: a send queue filled by hand, a {@link PathMtuCall} whose
 * sizes the test sets and which records probes and re-cuts instead of doing them, ACKs built by hand, times as plain
 * ns values.
 */
@ExtendWith(LeakCheckExtension.class)
class PathMtuProberTest {
    private static final long MS = 1_000_000L;
    private static final long DEAD_TIME = 12_000 * MS;
    /** Sizes of the probes sent, in order; probe i has serial 100 + i. */
    private final List<Integer> probes = new ArrayList<>();
    /** The re-cuts asked for, in order: {from, max, transmitted ? 1 : 0}. */
    private final List<List<Integer>> recuts = new ArrayList<>();
    private final TestCall call = new TestCall();
    private final PathMtuState state = new PathMtuState();
    private SendQueue sq = new SendQueue();

    @AfterEach
    void release() {
        sq.releaseAll();
    }

    /** Queues packets of these data sizes; the first {@code sent} of them transmitted at {@code now}, serials 1.. */
    private void queue(int sent, long now, int... dataSizes) {
        for (int size : dataSizes) {
            sq.add(Unpooled.buffer(size).writeZero(size), 0);
        }
        for (int i = 0; i < sent; i++) {
            sq.get(i + 1).recordTransmit(i + 1, now);
        }
        sq.markSent(sent);
    }

    private PathMtuProber client() {
        return new PathMtuProber(state, sq, call, false, DEAD_TIME);
    }

    /** The owning call as the test sets it: no jumbograms, no large-packet target, 1412-byte packets. */
    private final class TestCall implements PathMtuCall {
        int jumboWant = 1;
        int largeTarget = 1444;
        long quickWaitNs = 200 * MS;
        int usual = 1440;
        int full = 1440;
        int max = 1412;
        long marginNs = 300 * MS;
        boolean heard = true;

        @Override
        public int send(long now, int datagramBytes) {
            probes.add(datagramBytes);
            return 100 + probes.size() - 1;
        }

        @Override
        public int jumboWant() {
            return jumboWant;
        }

        @Override
        public int largePacketTarget() {
            return largeTarget;
        }

        @Override
        public long largeProbeQuickWaitNs() {
            return quickWaitNs;
        }

        @Override
        public int usualPacketSize() {
            return usual;
        }

        @Override
        public int fullPacketSize() {
            return full;
        }

        @Override
        public int packetDataSize() {
            return max;
        }

        @Override
        public long recutMarginNs() {
            return marginNs;
        }

        @Override
        public boolean heardSince(long t) {
            return heard;
        }

        @Override
        public void recut(int from, int max, boolean transmitted) {
            recuts.add(List.of(from, max, transmitted ? 1 : 0));
        }
    }

    private static boolean stuck(PathMtuProber p) {
        return p.stuckDeadlineNs() != PathMtuProber.NOT_STUCK;
    }

    /** A PING_RESPONSE to the probe of {@code serial}: firstPacket {@code first}, soft acks as '+' / '-'. */
    private static AckPacket answer(int serial, int first, String marks) {
        byte[] acks = new byte[marks.length()];
        for (int i = 0; i < acks.length; i++) {
            acks[i] = marks.charAt(i) == '+' ? AckPacket.ACKED : AckPacket.NACKED;
        }
        RxHeader h = new RxHeader(0x80000001, 4, 1, 0, 1000, PacketType.ACK, 0, 0, 0, 0, 147);
        int prev = Math.max(first, first + marks.length() - 1);
        return AckPacket.of(h, first, prev, serial, AckReason.PING_RESPONSE, acks, 1444, 1444, 32, 1);
    }

    /** Transmits four full packets at 0, marks them lost, and lets two timeouts pass: a ladder goes out at 1 s. */
    private PathMtuProber ladderAfterTwoTimeouts() {
        queue(4, 0, 1412, 1412, 1412, 1412);
        for (int s = 1; s <= 4; s++) {
            sq.markLost(s);
        }
        PathMtuProber p = client();
        assertFalse(p.onTimeout(500 * MS, true), "default-size packets: plain loss is likelier at first");
        assertTrue(p.onTimeout(1000 * MS, true));
        return p;
    }

    @Test
    void aSecondTimeoutWithFullPacketsLostSendsALadderFromTheFailingSizeDownTo520() {
        ladderAfterTwoTimeouts();

        assertEquals(List.of(1440, 1440, 1400, 1360, 1320, 1280, 1240, 1232, 1200, 1150, 1100, 1050, 1000, 900,
                800, 700, 600, 576, 520), probes, "the failing size twice, then every smaller step, largest first");
        assertFalse(state.ladderAllowed(1000 * MS + 1), "one full ladder per interval per peer");
    }

    @Test
    void noLadderForASilentPeerNorForSmallPackets() {
        queue(2, 0, 1412, 1412);
        sq.markLost(1);
        PathMtuProber p = client();
        p.onTimeout(500 * MS, false);
        call.heard = false;
        assertFalse(p.onTimeout(1000 * MS, true), "not heard from since the data left");
        assertTrue(probes.isEmpty());
        call.heard = true;

        sq.releaseAll();
        sq = new SendQueue();
        queue(1, 0, 400);
        sq.markLost(1);
        PathMtuProber small = client();
        small.onTimeout(500 * MS, false);
        assertFalse(small.onTimeout(1000 * MS, true), "520 bytes or less always fits");
        assertTrue(probes.isEmpty());
    }

    @Test
    void theLargestAnswerOfADownwardLadderBecomesThePathLimit() {
        PathMtuProber p = ladderAfterTwoTimeouts();
        int serial1200 = 100 + probes.indexOf(1200);
        int serial1000 = 100 + probes.indexOf(1000);

        p.onAck(1010 * MS, answer(serial1000, 1, "----"), false);
        assertEquals(1000, state.pathMtu());
        p.onAck(1011 * MS, answer(serial1200, 1, "----"), false);
        assertEquals(1200, state.pathMtu(), "a larger answer arriving later raises it");
        assertEquals(1200, state.verifiedPacketSize());
        p.onAck(1012 * MS, answer(99, 1, "----"), false);
        assertEquals(1200, state.pathMtu(), "not a probe of the ladder: nothing learned");
        assertTrue(recuts.isEmpty(), "1412-byte packets fit the packet size of now");
    }

    @Test
    void whenTheFailingSizeItselfIsAnsweredTheLossWasNotThePaths() {
        PathMtuProber p = ladderAfterTwoTimeouts();
        p.onAck(1010 * MS, answer(100 + probes.indexOf(1000), 1, "----"), false);
        assertEquals(1000, state.pathMtu());

        p.onAck(1011 * MS, answer(101, 1, "----"), false);

        assertFalse(state.limited(), "the limit is back to what it was before the ladder");
    }

    @Test
    void sentPacketsAreReCutOnlyWhenTheReceiverHoldsNoneAndTheirLastCopyIsOldEnough() {
        PathMtuProber p = ladderAfterTwoTimeouts();
        AckPacket a = answer(100 + probes.indexOf(1000), 1, "----");
        call.max = 972;

        p.onAck(1010 * MS, a, false);
        assertEquals(List.of(List.of(1, 972, 1)), recuts, "last copies left 1 s before the ladder");
        assertFalse(stuck(p));

        call.marginNs = 1500 * MS;
        p.onAck(1010 * MS, a, false);
        assertEquals(1, recuts.size(), "a copy may still be on its way");
        assertTrue(stuck(p));
        assertEquals(1010 * MS + DEAD_TIME, p.stuckDeadlineNs(), "stuck for a dead time: the call ends");
    }

    @Test
    void aPacketTheReceiverHoldsBlocksTheReCutOfEveryPacketBeforeIt() {
        PathMtuProber p = ladderAfterTwoTimeouts();
        call.max = 972;
        p.onAck(1010 * MS, answer(100 + probes.indexOf(1000), 1, "--+-"), false);

        assertTrue(recuts.isEmpty(), "seq 3 is held");
        assertTrue(stuck(p));

        p.onAck(1020 * MS, answer(100 + probes.indexOf(1000), 1, "----"), false);
        assertEquals(List.of(List.of(1, 972, 1)), recuts);
        assertFalse(stuck(p), "a re-cut of sent packets ends the stuck state");
    }

    @Test
    void packetsNoLargerThanThePathCarriesNeedNoReCut() {
        PathMtuProber p = ladderAfterTwoTimeouts();
        p.onAck(1010 * MS, answer(101, 1, "----"), false);
        assertTrue(recuts.isEmpty());
        assertFalse(stuck(p));
    }

    @Test
    void withAKnownLimitTheRecoveryProbeIsOnePingOfThatSize() {
        queue(2, 0, 1412, 400);
        PathMtuProber p = client();
        assertFalse(p.onRecoveryProbe(0), "no known limit: the plain PING");

        state.lowerTo(1000, 0);
        assertTrue(p.onRecoveryProbe(MS));
        assertEquals(List.of(1000), probes);

        state.lowerTo(1500, 0);
        assertFalse(p.onRecoveryProbe(2 * MS), "nothing sent is larger than the limit");
    }

    @Test
    void aSmallerPacketWaitsWhileLargerOnesAreLost() {
        queue(2, 0, 1412, 1412, 300);
        PathMtuProber p = client();
        p.onDatagramSent(1, 2);
        assertFalse(p.holdsBack(3), "nothing lost");

        sq.markLost(2);
        assertTrue(p.holdsBack(3));
        // A re-cut of the sent packets: the path is known to carry 1000 bytes, the recovery probe asks, its answer
        // shows the receiver holds neither.
        state.lowerTo(1000, 0);
        assertTrue(p.onRecoveryProbe(MS));
        call.max = 972;
        call.marginNs = 0;
        p.onAck(2 * MS, answer(100, 1, "--"), false);
        assertEquals(List.of(List.of(1, 972, 1)), recuts);
        assertFalse(p.holdsBack(3), "after a re-cut nothing larger was sent");
    }

    @Test
    void aLargeProbeAnsweredProvesItsSize() {
        PathMtuProber p = client();
        call.largeTarget = 9000;
        p.beforeTransmit(0);
        assertEquals(List.of(9000), probes);
        p.beforeTransmit(MS);
        assertEquals(1, probes.size(), "the retry waits");

        p.onAck(2 * MS, answer(100, 1, ""), false);

        assertEquals(9000, state.provenPacketSize());
        p.beforeTransmit(500 * MS);
        assertEquals(1, probes.size(), "proven: no more probes");
    }

    @Test
    void aTimeoutAfterLargePacketsWithdrawsTheProofUntilProgress() {
        state.onLargeProven(9000);
        queue(1, 0, 8972);
        PathMtuProber p = client();
        p.onDatagramSent(1, 1);

        p.onTimeout(300 * MS, false);

        assertEquals(1444, state.provenPacketSize());
        assertTrue(stuck(p));
        p.onAck(400 * MS, answer(0, 2, ""), true);
        assertFalse(stuck(p), "something was acknowledged: the path carries what was sent");
    }

    @Test
    void aJumbogramTimeoutHoldsThePathToSinglePacketsUntilAProbeOfTheJumbogramsSizeIsAnswered() {
        queue(4, 0, 1412, 1412, 1412, 1412);
        PathMtuProber p = client();
        p.onDatagramSent(1, 4);
        p.onTimeout(0, false);
        assertEquals(1, state.jumboCap());

        call.jumboWant = 4;
        p.beforeTransmit(PathMtuState.PROBE_INTERVAL_NS);
        assertEquals(List.of(28 + 1412 + 3 * 1416), probes, "one PING the size of a 4-packet jumbogram");
        p.onAck(PathMtuState.PROBE_INTERVAL_NS + MS, answer(100, 1, ""), false);
        assertEquals(Integer.MAX_VALUE, state.jumboCap());
    }

    @Test
    void upwardProbesGoFromTheUsualSizeToJustAboveTheLimitAndTheUsualSizeLiftsIt() {
        state.lowerTo(1000, 0);
        PathMtuProber p = client();
        p.beforeTransmit(PathMtuState.RAISE_INTERVAL_NS - 1);
        assertTrue(probes.isEmpty());

        p.beforeTransmit(PathMtuState.RAISE_INTERVAL_NS);

        assertEquals(List.of(1440, 1400, 1360, 1320, 1280, 1240, 1232, 1200, 1150, 1100, 1050), probes);
        p.onAck(PathMtuState.RAISE_INTERVAL_NS + MS, answer(100 + probes.indexOf(1200), 1, ""), false);
        assertEquals(1200, state.pathMtu());
        p.onAck(PathMtuState.RAISE_INTERVAL_NS + MS, answer(100, 1, ""), false);
        assertFalse(state.limited());
    }

    @Test
    void aWholeRequestWhoseFirstPacketWasCutSmallIsVerifiedAtFullSizeOnce() {
        sq.add(Unpooled.buffer(492).writeZero(492), 0);
        sq.add(Unpooled.buffer(508).writeZero(508), PacketFlags.LAST_PACKET);
        sq.markSent(2);
        PathMtuProber p = client();
        p.afterSending(0, true);
        assertTrue(probes.isEmpty(), "packet 1 not consumed yet: the call may still be in PRECALL");

        sq.hardAck(2);
        p.afterSending(MS, false);
        assertTrue(probes.isEmpty(), "the first packet was not cut small");
        p.afterSending(MS, true);
        assertEquals(List.of(1440), probes);
        p.afterSending(2 * MS, true);
        assertEquals(1, probes.size(), "one per interval per peer");

        p.onAck(3 * MS, answer(100, 2, ""), false);
        assertEquals(1440, state.verifiedPacketSize());
        assertFalse(state.limited());
    }

    @Test
    void theServerSideNeverVerifiesNorForgetsTheFirstPacketsSize() {
        state.onVerified(1440);
        queue(1, 0, 1412);
        sq.markLost(1);
        PathMtuProber p = new PathMtuProber(state, sq, call, true, DEAD_TIME);
        p.onTimeout(MS, true);
        assertEquals(1440, state.verifiedPacketSize());

        PathMtuProber c = client();
        c.onTimeout(MS, true);
        assertEquals(0, state.verifiedPacketSize(), "a client's lost first packet may be too large for the path");
    }
}
