// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The counted and timed schedules' arithmetic, on made-up clock readings (ns). */
class RunScheduleTest {
    private static final long START = 5_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void countedRunStartsExactlyTimesCallsAndCountsAll() {
        RunSchedule schedule = RunSchedule.calls(3);
        assertFalse(schedule.isTimed());
        assertTrue(schedule.startAnother(2, START, START + 100 * SECOND));
        assertFalse(schedule.startAnother(3, START, START));
        assertTrue(schedule.counts(START, START));
        assertEquals(START, schedule.windowStart(START));
    }

    @Test
    void timedRunStartsCallsUntilTheDurationHasPassed() {
        RunSchedule schedule = RunSchedule.timed(2 * SECOND, 0);
        assertTrue(schedule.isTimed());
        assertTrue(schedule.startAnother(1_000_000, START, START + 2 * SECOND - 1));
        assertFalse(schedule.startAnother(0, START, START + 2 * SECOND));
    }

    @Test
    void omitLeavesOutCallsEndingBeforeTheBoundaryAndMovesTheWindowStart() {
        RunSchedule schedule = RunSchedule.timed(3 * SECOND, SECOND);
        assertFalse(schedule.counts(START, START + SECOND - 1));
        assertTrue(schedule.counts(START, START + SECOND));
        assertFalse(schedule.windowOpen(START, START + SECOND - 1));
        assertTrue(schedule.windowOpen(START, START + SECOND));
        assertEquals(START + SECOND, schedule.windowStart(START));
        assertEquals(SECOND, schedule.omitNanos());
    }

    @Test
    void badDurationsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> RunSchedule.calls(0));
        assertThrows(IllegalArgumentException.class, () -> RunSchedule.timed(0, 0));
        assertThrows(IllegalArgumentException.class, () -> RunSchedule.timed(SECOND, SECOND));
        assertThrows(IllegalArgumentException.class, () -> RunSchedule.timed(SECOND, -1));
    }
}
