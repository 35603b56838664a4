// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** One peer's path-MTU state on its own, times as plain ns values. */
class PathMtuStateTest {
    private static final long MS = 1_000_000L;
    private static final int DEFAULT_DATA = 1412;

    @Test
    void theDefaultSizeHoldsUntilALargeSizeIsProvenAndNeverExceedsWhatThePeerAdvertises() {
        PathMtuState s = new PathMtuState();
        assertEquals(DEFAULT_DATA, s.packetDataSize(9000, DEFAULT_DATA), "nothing proven yet");
        assertEquals(972, s.packetDataSize(1000, DEFAULT_DATA), "a peer advertising 1000 bytes gets no more");

        s.onLargeProven(9000);

        assertEquals(9000, s.provenPacketSize());
        assertEquals(9000 - 28, s.packetDataSize(9000, DEFAULT_DATA));
        assertEquals(4096 - 28, s.packetDataSize(4096, DEFAULT_DATA), "the peer now advertises less");
        assertEquals(9000, s.verifiedPacketSize(), "the answered probe verifies the size too");
    }

    @Test
    void aLadderLimitCapsTheDataSizeDownTo492ButNotTheUsualSize() {
        PathMtuState s = new PathMtuState();
        s.lowerTo(1200, 0);
        assertTrue(s.limited());
        assertEquals(1200, s.pathMtu());
        assertEquals(1172, s.packetDataSize(1444, DEFAULT_DATA));
        assertEquals(1440, s.usualPacketSize(1444, DEFAULT_DATA), "what an upward probe tries");

        s.lowerTo(300, 0);
        assertEquals(492, s.packetDataSize(1444, DEFAULT_DATA), "never below Rx's smallest packet");
    }

    @Test
    void aClientsFirstPacketIsCutSmallUntilTheFullSizeIsVerified() {
        PathMtuState s = new PathMtuState();
        assertEquals(PathMtuState.FIRST_PACKET_DATA, s.firstPacketData(DEFAULT_DATA));
        assertEquals(400, s.firstPacketData(400), "a packet smaller than 492 bytes is not cut smaller");

        s.onVerified(1440);
        assertEquals(DEFAULT_DATA, s.firstPacketData(DEFAULT_DATA));
        s.onVerified(1000);
        assertEquals(1440, s.verifiedPacketSize(), "only ever raised by a proof");

        s.forgetVerified();
        assertEquals(PathMtuState.FIRST_PACKET_DATA, s.firstPacketData(DEFAULT_DATA));
    }

    @Test
    void aJumbogramTimeoutHoldsToSinglePacketsAndProbesOneIntervalLater() {
        PathMtuState s = new PathMtuState();
        assertFalse(s.jumboProbeDue(0, 4), "not held: nothing to probe");

        s.holdToSinglePackets(10 * MS);

        assertEquals(1, s.jumboCap());
        assertFalse(s.jumboProbeDue(10 * MS, 4), "no probe at once");
        long due = 10 * MS + PathMtuState.PROBE_INTERVAL_NS;
        assertFalse(s.jumboProbeDue(due - 1, 4));
        assertTrue(s.jumboProbeDue(due, 4));
        s.onJumboProbeSent(due);
        assertFalse(s.jumboProbeDue(due + 1, 4), "the next one waits an interval");

        s.onJumboProven(2, 4);
        assertEquals(2, s.jumboCap(), "a smaller jumbogram passed");
        s.onJumboProven(4, 4);
        assertEquals(Integer.MAX_VALUE, s.jumboCap(), "the full size lifts the cap");
    }

    @Test
    void largeProbesAreRetriedQuicklyThreeTimesThenEveryInterval() {
        PathMtuState s = new PathMtuState();
        long quick = 200 * MS;
        assertFalse(s.largeProbeDue(0, 1444, quick), "nothing above the default to prove");
        assertTrue(s.largeProbeDue(0, 9000, quick), "the first probe goes out at once");

        long t = 0;
        for (int i = 0; i < PathMtuState.LARGE_PROBE_QUICK_TRIES; i++) {
            s.onLargeProbeSent(t);
            assertFalse(s.largeProbeDue(t + quick - 1, 9000, quick));
            t += quick;
        }
        assertFalse(s.largeProbeDue(t, 9000, quick), "after the quick tries, one per interval");
        assertTrue(s.largeProbeDue(t - quick + PathMtuState.PROBE_INTERVAL_NS, 9000, quick));
    }

    @Test
    void aLargePacketTimeoutWithdrawsTheProofAndWaitsAnIntervalWithoutQuickRetries() {
        PathMtuState s = new PathMtuState();
        s.onLargeProven(9000);

        s.onLargeFailed(5 * MS);

        assertEquals(1444, s.provenPacketSize());
        assertEquals(DEFAULT_DATA, s.packetDataSize(9000, DEFAULT_DATA));
        assertFalse(s.largeProbeDue(5 * MS + 500 * MS, 9000, 200 * MS), "no quick retry: the path just failed");
        assertTrue(s.largeProbeDue(5 * MS + PathMtuState.PROBE_INTERVAL_NS, 9000, 200 * MS));
    }

    @Test
    void aFullLadderGoesOutAtMostOncePerInterval() {
        PathMtuState s = new PathMtuState();
        assertTrue(s.ladderAllowed(0));
        s.onLadderSent(3 * MS);
        assertFalse(s.ladderAllowed(3 * MS + PathMtuState.PROBE_INTERVAL_NS - 1));
        assertTrue(s.ladderAllowed(3 * MS + PathMtuState.PROBE_INTERVAL_NS));
    }

    @Test
    void upwardProbesAreDueEveryRaiseIntervalWhileLimitedAndTheUsualSizeLiftsTheLimit() {
        PathMtuState s = new PathMtuState();
        assertFalse(s.takeRaise(0, 1440), "no limit, nothing to raise");

        s.lowerTo(1000, 0);
        assertFalse(s.takeRaise(PathMtuState.RAISE_INTERVAL_NS - 1, 1440));
        assertTrue(s.takeRaise(PathMtuState.RAISE_INTERVAL_NS, 1440));
        assertFalse(s.takeRaise(PathMtuState.RAISE_INTERVAL_NS + 1, 1440), "the next one is a raise interval away");

        s.raiseTo(1200, false);
        assertEquals(1200, s.pathMtu(), "a step answered: raised");
        s.raiseTo(1100, false);
        assertEquals(1200, s.pathMtu(), "never lowered by an upward answer");
        s.raiseTo(1440, true);
        assertFalse(s.limited(), "the usual size passed: lifted");

        s.lowerTo(1000, 0);
        assertFalse(s.takeRaise(PathMtuState.RAISE_INTERVAL_NS, 1000), "the peer advertises no more than the limit");
        assertFalse(s.limited(), "so the limit is lifted without a probe");
    }

    @Test
    void aDownwardLadderWhoseFailingSizePassedRestoresTheLimit() {
        PathMtuState s = new PathMtuState();
        s.lowerTo(1000, 0);
        s.restore(Integer.MAX_VALUE);
        assertFalse(s.limited());
    }

    @Test
    void theFullSizeVerificationPingGoesOutOncePerIntervalAndNotWhileLimitedOrVerified() {
        PathMtuState s = new PathMtuState();
        assertTrue(s.takeVerifyProbe(0, 1440));
        assertFalse(s.takeVerifyProbe(PathMtuState.PROBE_INTERVAL_NS - 1, 1440));
        assertTrue(s.takeVerifyProbe(PathMtuState.PROBE_INTERVAL_NS, 1440));

        s.lowerTo(1200, 0);
        assertFalse(s.takeVerifyProbe(3 * PathMtuState.PROBE_INTERVAL_NS, 1440), "a known limit: nothing to verify");
        s.restore(Integer.MAX_VALUE);
        s.onVerified(1440);
        assertFalse(s.takeVerifyProbe(3 * PathMtuState.PROBE_INTERVAL_NS, 1440), "already verified");
    }
}
