// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RttEstimatorTest {
    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;
    private static final long S = 1_000_000_000L;

    @Test
    void beforeAnySampleTheRtoIsInitialRttPlusSlackAsOpenAfs() {
        RttEstimator rtt = new RttEstimator();

        assertEquals(3 * S, rtt.srttNs());
        assertEquals(0, rtt.rttvarNs());
        assertEquals(3_200 * MS, rtt.rtoNs());
        assertEquals(0, rtt.samples());
        assertEquals(0, rtt.minRttNs());
        assertEquals(0, rtt.maxRttNs());
        assertEquals(0, rtt.meanRttNs());
    }

    @Test
    void firstSampleReplacesTheInitialRtt() {
        RttEstimator rtt = new RttEstimator();

        rtt.onSample(10 * MS);

        assertEquals(10 * MS, rtt.srttNs());
        assertEquals(5 * MS, rtt.rttvarNs());
        // max(10 + 4*5, 20) + 200 ms
        assertEquals(230 * MS, rtt.rtoNs());
    }

    @Test
    void laterSamplesAreSmoothedWithGainsOneEighthAndOneQuarter() {
        RttEstimator rtt = new RttEstimator();
        rtt.onSample(10 * MS);

        rtt.onSample(20 * MS);

        // rttvar = 3/4 * 5 + 1/4 * |10 - 20| (old srtt), srtt = 7/8 * 10 + 1/8 * 20
        assertEquals(6_250 * US, rtt.rttvarNs());
        assertEquals(11_250 * US, rtt.srttNs());
        assertEquals((11_250 + 4 * 6_250 + 200_000) * US, rtt.rtoNs());
    }

    @Test
    void matchesRfc6298ComputedInDoublesForSeededRandomSamples() {
        Random random = new Random(6298);
        RttEstimator rtt = new RttEstimator();
        double srtt = 0;
        double rttvar = 0;
        for (int i = 0; i < 10_000; i++) {
            long r = 50 * US + random.nextInt(20_000_000);
            rtt.onSample(r);
            if (i == 0) {
                srtt = r;
                rttvar = r / 2.0;
            } else {
                rttvar = 0.75 * rttvar + 0.25 * Math.abs(srtt - r);
                srtt = 0.875 * srtt + 0.125 * r;
            }
            // Integer truncation loses under 1 ns per step; the geometric sums keep the drift within a few ns.
            assertEquals(srtt, rtt.srttNs(), 16, "srtt at sample " + i);
            assertEquals(rttvar, rtt.rttvarNs(), 16, "rttvar at sample " + i);
        }
    }

    @Test
    void constantSamplesConvergeToTheSampleWithVanishingVariation() {
        RttEstimator rtt = new RttEstimator();
        rtt.onSample(50 * MS);

        for (int i = 0; i < 200; i++) {
            rtt.onSample(1 * MS);
        }

        assertEquals(1 * MS, rtt.srttNs(), 10);
        assertTrue(rtt.rttvarNs() < 10 * US, "rttvar " + rtt.rttvarNs());
        // srtt + 4*rttvar is far below the 20 ms floor: RTO = floor + slack
        assertEquals(220 * MS, rtt.rtoNs());
    }

    @Test
    void minRtoFloorAppliesBeforeSlack() {
        RttEstimator rtt = new RttEstimator(3 * S, 20 * MS, 0, 60 * S);

        rtt.onSample(100 * US);

        // srtt + 4*rttvar = 100 + 200 us, below the floor
        assertEquals(20 * MS, rtt.rtoNs());
    }

    @Test
    void slackIsAddedAboveTheFloor() {
        RttEstimator rtt = new RttEstimator(3 * S, 0, 200 * MS, 60 * S);

        rtt.onSample(100 * MS);

        assertEquals((100 + 4 * 50 + 200) * MS, rtt.rtoNs());
    }

    @Test
    void backoffDoublesUntilTheSixtySecondCap() {
        RttEstimator rtt = new RttEstimator();
        long[] expectedMs = {6_400, 12_800, 25_600, 51_200, 60_000, 60_000, 60_000};

        for (long expected : expectedMs) {
            rtt.backoff();
            assertEquals(expected * MS, rtt.rtoNs());
        }
        // The count stops once the cap is reached, so it cannot grow without bound.
        assertEquals(5, rtt.backoffCount());
    }

    @Test
    void rtoWithoutBackoffIsCappedAtMaxRto() {
        RttEstimator rtt = new RttEstimator(3 * S, 20 * MS, 200 * MS, 10 * S);

        rtt.onSample(8 * S);

        // 8 + 4*4 + 0.2 s would be 24.2 s
        assertEquals(10 * S, rtt.rtoNs());
        rtt.backoff();
        assertEquals(10 * S, rtt.rtoNs());
        assertEquals(0, rtt.backoffCount());
    }

    @Test
    void aNewSampleClearsTheBackoff() {
        RttEstimator rtt = new RttEstimator();
        rtt.onSample(10 * MS);
        rtt.backoff();
        rtt.backoff();
        assertEquals(4 * 230 * MS, rtt.rtoNs());

        rtt.onSample(10 * MS);

        assertEquals(0, rtt.backoffCount());
        // srtt 10 ms, rttvar 3/4 * 5 ms
        assertEquals((10_000 + 4 * 3_750 + 200_000) * US, rtt.rtoNs());
    }

    @Test
    void negativeSamplesAreIgnored() {
        RttEstimator rtt = new RttEstimator();
        rtt.onSample(10 * MS);
        rtt.backoff();

        rtt.onSample(-1);

        assertEquals(1, rtt.samples());
        assertEquals(10 * MS, rtt.srttNs());
        assertEquals(5 * MS, rtt.rttvarNs());
        assertEquals(1, rtt.backoffCount());
    }

    @Test
    void zeroIsAValidSample() {
        RttEstimator rtt = new RttEstimator();

        rtt.onSample(0);

        assertEquals(1, rtt.samples());
        assertEquals(0, rtt.srttNs());
        assertEquals(220 * MS, rtt.rtoNs());
    }

    @Test
    void statsTrackCountMinMaxAndMean() {
        RttEstimator rtt = new RttEstimator();

        rtt.onSample(1 * MS);
        rtt.onSample(5 * MS);
        rtt.onSample(3 * MS);
        rtt.onSample(-7 * MS);

        assertEquals(3, rtt.samples());
        assertEquals(1 * MS, rtt.minRttNs());
        assertEquals(5 * MS, rtt.maxRttNs());
        assertEquals(3 * MS, rtt.meanRttNs());
    }

    @Test
    void hugeSamplesAreClampedToMaxRtoWithoutOverflow() {
        RttEstimator rtt = new RttEstimator();

        rtt.onSample(Long.MAX_VALUE);
        rtt.onSample(Long.MAX_VALUE);

        assertEquals(60 * S, rtt.srttNs());
        assertEquals(60 * S, rtt.maxRttNs());
        assertEquals(60 * S, rtt.rtoNs());
        rtt.backoff();
        assertEquals(60 * S, rtt.rtoNs());
    }

    @Test
    void zeroRtoConfigurationBacksOffWithoutOverflow() {
        RttEstimator rtt = new RttEstimator(0, 0, 0, RttEstimator.MAX_RTO_LIMIT_NS);

        for (int i = 0; i < 100; i++) {
            rtt.backoff();
        }

        assertEquals(0, rtt.rtoNs());
        assertEquals(62, rtt.backoffCount());
    }

    @Test
    void largestMaxRtoDoublesWithoutOverflow() {
        long max = RttEstimator.MAX_RTO_LIMIT_NS;
        RttEstimator rtt = new RttEstimator(max / 2, 0, 0, max);

        rtt.backoff();
        assertEquals(2 * (max / 2), rtt.rtoNs());
        rtt.backoff();
        assertEquals(max, rtt.rtoNs());
        rtt.backoff();
        assertEquals(max, rtt.rtoNs());
        assertEquals(2, rtt.backoffCount());
    }

    @Test
    void rejectsOutOfRangeParameters() {
        assertThrows(IllegalArgumentException.class, () -> new RttEstimator(-1, 20 * MS, 200 * MS, 60 * S));
        assertThrows(IllegalArgumentException.class, () -> new RttEstimator(61 * S, 20 * MS, 200 * MS, 60 * S));
        assertThrows(IllegalArgumentException.class, () -> new RttEstimator(3 * S, -1, 200 * MS, 60 * S));
        assertThrows(IllegalArgumentException.class, () -> new RttEstimator(3 * S, 20 * MS, -1, 60 * S));
        assertThrows(IllegalArgumentException.class, () -> new RttEstimator(3 * S, 20 * MS, 200 * MS, 0));
        assertThrows(IllegalArgumentException.class,
                () -> new RttEstimator(3 * S, 20 * MS, 200 * MS, RttEstimator.MAX_RTO_LIMIT_NS + 1));
    }
}
