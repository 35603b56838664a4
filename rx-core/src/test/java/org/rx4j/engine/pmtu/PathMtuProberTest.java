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
 * One call's path-MTU prober on its own: a send queue filled by hand, probes recorded instead of sent, ACKs built by
 * hand, times as plain ns values.
 */
@ExtendWith(LeakCheckExtension.class)
class PathMtuProberTest {
    private static final long MS = 1_000_000L;
    private static final long DEAD_TIME = 12_000 * MS;
    /** Sizes of the probes sent, in order; probe i has serial 100 + i. */
    private final List<Integer> probes = new ArrayList<>();
    private final ProbeSender sender = (now, bytes) -> {
        probes.add(bytes);
        return 100 + probes.size() - 1;
    };
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
        return new PathMtuProber(state, sq, sender, false, DEAD_TIME);
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
        p.onTimeout(500 * MS);
        assertFalse(p.probeDownward(500 * MS, t -> true), "default-size packets: plain loss is likelier at first");
        p.onTimeout(1000 * MS);
        assertTrue(p.probeDownward(1000 * MS, t -> true));
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
        p.onTimeout(500 * MS);
        p.onTimeout(1000 * MS);
        assertFalse(p.probeDownward(1000 * MS, t -> false), "not heard from since the data left");
        assertTrue(probes.isEmpty());

        sq.releaseAll();
        sq = new SendQueue();
        queue(1, 0, 400);
        sq.markLost(1);
        PathMtuProber small = client();
        small.onTimeout(500 * MS);
        small.onTimeout(1000 * MS);
        assertFalse(small.probeDownward(1000 * MS, t -> true), "520 bytes or less always fits");
        assertTrue(probes.isEmpty());
    }

    @Test
    void theLargestAnswerOfADownwardLadderBecomesThePathLimit() {
        PathMtuProber p = ladderAfterTwoTimeouts();
        int serial1200 = 100 + probes.indexOf(1200);
        int serial1000 = 100 + probes.indexOf(1000);

        assertTrue(p.onLadderAnswer(1010 * MS, answer(serial1000, 1, "----")));
        assertEquals(1000, state.pathMtu());
        assertTrue(p.onLadderAnswer(1011 * MS, answer(serial1200, 1, "----")));
        assertEquals(1200, state.pathMtu(), "a larger answer arriving later raises it");
        assertEquals(1200, state.verifiedPacketSize());
        assertFalse(p.onLadderAnswer(1012 * MS, answer(99, 1, "----")), "not a probe of the ladder");
    }

    @Test
    void whenTheFailingSizeItselfIsAnsweredTheLossWasNotThePaths() {
        PathMtuProber p = ladderAfterTwoTimeouts();
        p.onLadderAnswer(1010 * MS, answer(100 + probes.indexOf(1000), 1, "----"));
        assertEquals(1000, state.pathMtu());

        p.onLadderAnswer(1011 * MS, answer(101, 1, "----"));

        assertFalse(state.limited(), "the limit is back to what it was before the ladder");
    }

    @Test
    void sentPacketsAreReCutOnlyWhenTheReceiverHoldsNoneAndTheirLastCopyIsOldEnough() {
        PathMtuProber p = ladderAfterTwoTimeouts();
        AckPacket a = answer(100 + probes.indexOf(1000), 1, "----");
        p.onLadderAnswer(1010 * MS, a);

        assertEquals(1, p.recutFrom(1010 * MS, a, 972, 300 * MS), "last copies left 1 s before the ladder");
        assertFalse(p.stuckOnLargePackets());

        assertEquals(sq.next(), p.recutFrom(1010 * MS, a, 972, 1500 * MS), "a copy may still be on its way");
        assertTrue(p.stuckOnLargePackets());
        assertFalse(p.mustEnd(1010 * MS + DEAD_TIME - 1));
        assertTrue(p.mustEnd(1010 * MS + DEAD_TIME), "stuck for a dead time: the call ends");
        assertEquals(1010 * MS + DEAD_TIME, p.stuckDeadlineNs());
    }

    @Test
    void aPacketTheReceiverHoldsBlocksTheReCutOfEveryPacketBeforeIt() {
        PathMtuProber p = ladderAfterTwoTimeouts();
        AckPacket a = answer(100 + probes.indexOf(1000), 1, "--+-");
        p.onLadderAnswer(1010 * MS, a);

        assertEquals(sq.next(), p.recutFrom(1010 * MS, a, 972, 300 * MS), "seq 3 is held");
        assertTrue(p.stuckOnLargePackets());

        p.onRecut(true);
        assertFalse(p.stuckOnLargePackets(), "a re-cut of sent packets ends the stuck state");
    }

    @Test
    void packetsNoLargerThanThePathCarriesNeedNoReCut() {
        PathMtuProber p = ladderAfterTwoTimeouts();
        AckPacket a = answer(101, 1, "----");
        p.onLadderAnswer(1010 * MS, a);
        assertEquals(sq.next(), p.recutFrom(1010 * MS, a, 1412, 300 * MS));
        assertFalse(p.stuckOnLargePackets());
    }

    @Test
    void withAKnownLimitTheRecoveryProbeIsOnePingOfThatSize() {
        queue(2, 0, 1412, 400);
        PathMtuProber p = client();
        assertFalse(p.evidenceProbe(0), "no known limit: the plain PING");

        state.lowerTo(1000, 0);
        assertTrue(p.evidenceProbe(MS));
        assertEquals(List.of(1000), probes);

        state.lowerTo(1500, 0);
        assertFalse(p.evidenceProbe(2 * MS), "nothing sent is larger than the limit");
    }

    @Test
    void aSmallerPacketWaitsWhileLargerOnesAreLost() {
        queue(2, 0, 1412, 1412, 300);
        PathMtuProber p = client();
        p.onPacketSent(1, 1440);
        p.onPacketSent(2, 1440);
        assertFalse(p.holdsBack(3), "nothing lost");

        sq.markLost(2);
        assertTrue(p.holdsBack(3));
        p.onRecut(true);
        assertFalse(p.holdsBack(3), "after a re-cut nothing larger was sent");
    }

    @Test
    void aLargeProbeAnsweredProvesItsSize() {
        PathMtuProber p = client();
        p.maybeProbeLargePackets(0, 9000, 200 * MS);
        assertEquals(List.of(9000), probes);
        p.maybeProbeLargePackets(MS, 9000, 200 * MS);
        assertEquals(1, probes.size(), "the retry waits");

        p.onPingResponse(AckReason.PING_RESPONSE, 100, 1);

        assertEquals(9000, state.provenPacketSize());
        p.maybeProbeLargePackets(500 * MS, 9000, 200 * MS);
        assertEquals(1, probes.size(), "proven: no more probes");
    }

    @Test
    void aTimeoutAfterLargePacketsWithdrawsTheProofUntilProgress() {
        state.onLargeProven(9000);
        queue(1, 0, 8972);
        PathMtuProber p = client();
        p.onDatagramSent(1, 8972);

        p.onTimeout(300 * MS);

        assertEquals(1444, state.provenPacketSize());
        assertTrue(p.stuckOnLargePackets());
        p.onProgress(answer(0, 2, ""));
        assertFalse(p.stuckOnLargePackets(), "something was acknowledged: the path carries what was sent");
    }

    @Test
    void aJumbogramTimeoutHoldsThePathToSinglePacketsUntilAProbeOfTheJumbogramsSizeIsAnswered() {
        PathMtuProber p = client();
        p.onDatagramSent(4, 1412);
        p.onTimeout(0);
        assertEquals(1, state.jumboCap());

        p.maybeProbeJumbograms(PathMtuState.PROBE_INTERVAL_NS, 4);
        assertEquals(List.of(28 + 1412 + 3 * 1416), probes, "one PING the size of a 4-packet jumbogram");
        p.onPingResponse(AckReason.PING_RESPONSE, 100, 4);
        assertEquals(Integer.MAX_VALUE, state.jumboCap());
    }

    @Test
    void upwardProbesGoFromTheUsualSizeToJustAboveTheLimitAndTheUsualSizeLiftsIt() {
        state.lowerTo(1000, 0);
        PathMtuProber p = client();
        p.maybeRaise(PathMtuState.RAISE_INTERVAL_NS - 1, 1440);
        assertTrue(probes.isEmpty());

        p.maybeRaise(PathMtuState.RAISE_INTERVAL_NS, 1440);

        assertEquals(List.of(1440, 1400, 1360, 1320, 1280, 1240, 1232, 1200, 1150, 1100, 1050), probes);
        p.onLadderAnswer(PathMtuState.RAISE_INTERVAL_NS + MS, answer(100 + probes.indexOf(1200), 1, ""));
        assertEquals(1200, state.pathMtu());
        p.onLadderAnswer(PathMtuState.RAISE_INTERVAL_NS + MS, answer(100, 1, ""));
        assertFalse(state.limited());
    }

    @Test
    void aWholeRequestWhoseFirstPacketWasCutSmallIsVerifiedAtFullSizeOnce() {
        sq.add(Unpooled.buffer(492).writeZero(492), 0);
        sq.add(Unpooled.buffer(508).writeZero(508), PacketFlags.LAST_PACKET);
        sq.markSent(2);
        PathMtuProber p = client();
        p.maybeVerifyFullSize(0, 1440, true);
        assertTrue(probes.isEmpty(), "packet 1 not consumed yet: the call may still be in PRECALL");

        sq.hardAck(2);
        p.maybeVerifyFullSize(MS, 1440, false);
        assertTrue(probes.isEmpty(), "the first packet was not cut small");
        p.maybeVerifyFullSize(MS, 1440, true);
        assertEquals(List.of(1440), probes);
        p.maybeVerifyFullSize(2 * MS, 1440, true);
        assertEquals(1, probes.size(), "one per interval per peer");

        p.onLadderAnswer(3 * MS, answer(100, 2, ""));
        assertEquals(1440, state.verifiedPacketSize());
        assertFalse(state.limited());
    }

    @Test
    void theServerSideNeverVerifiesNorForgetsTheFirstPacketsSize() {
        state.onVerified(1440);
        queue(1, 0, 1412);
        sq.markLost(1);
        PathMtuProber p = new PathMtuProber(state, sq, sender, true, DEAD_TIME);
        p.onTimeout(MS);
        p.probeDownward(MS, t -> true);
        assertEquals(1440, state.verifiedPacketSize());

        PathMtuProber c = client();
        c.probeDownward(MS, t -> true);
        assertEquals(0, state.verifiedPacketSize(), "a client's lost first packet may be too large for the path");
    }
}
