// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.rx4j.rpc.channel.RxRetryBudget;
import org.rx4j.testing.ManualClock;

/** {@link RetryBudgetLedger}: the ratio of repeats to calls, the floor, and the sliding window, on a manual clock. */
class RetryBudgetLedgerTest {
    private final ManualClock clock = new ManualClock();

    private int repeatsAllowed(RetryBudgetLedger ledger) {
        int n = 0;
        while (ledger.tryRepeat()) {
            n++;
            assertTrue(n < 10_000, "unbounded");
        }
        return n;
    }

    @Test
    void ratioOfRepeatsToCalls() {
        RetryBudgetLedger ledger = new RetryBudgetLedger(RxRetryBudget.of(0.2, 0, Duration.ofSeconds(10)), clock);
        assertFalse(ledger.tryRepeat(), "no calls, no floor: nothing");
        for (int i = 0; i < 50; i++) {
            ledger.callStarted();
        }
        assertEquals(10, repeatsAllowed(ledger), "20 % of 50 calls");
        for (int i = 0; i < 5; i++) {
            ledger.callStarted();
        }
        assertEquals(1, repeatsAllowed(ledger), "55 calls allow 11 in all");
    }

    @Test
    void floorAllowsRepeatsWithoutCalls() {
        RetryBudgetLedger ledger = new RetryBudgetLedger(RxRetryBudget.of(0, 3, Duration.ofSeconds(2)), clock);
        assertEquals(6, repeatsAllowed(ledger), "3 per second over a 2 s window");
    }

    @Test
    void callsAndRepeatsLeaveTheWindow() {
        RetryBudgetLedger ledger = new RetryBudgetLedger(RxRetryBudget.of(0.5, 0, Duration.ofSeconds(10)), clock);
        for (int i = 0; i < 10; i++) {
            ledger.callStarted();
        }
        assertEquals(5, repeatsAllowed(ledger));
        clock.advance(Duration.ofSeconds(5));
        for (int i = 0; i < 4; i++) {
            ledger.callStarted();
        }
        assertEquals(2, repeatsAllowed(ledger), "14 calls, 5 repeats in the window: 2 more");
        clock.advance(Duration.ofSeconds(5));
        assertEquals(0, repeatsAllowed(ledger), "the first 10 calls left with their 5 repeats: 4 calls, 2 repeats");
        clock.advance(Duration.ofSeconds(5));
        for (int i = 0; i < 2; i++) {
            ledger.callStarted();
        }
        assertEquals(1, repeatsAllowed(ledger), "only the 2 new calls count");
    }

    @Test
    void noneAllowsNothingAndRangesAreChecked() {
        RetryBudgetLedger ledger = new RetryBudgetLedger(RxRetryBudget.none(), clock);
        ledger.callStarted();
        assertFalse(ledger.tryRepeat());
        assertThrows(IllegalArgumentException.class, () -> RxRetryBudget.of(-0.1, 0, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> RxRetryBudget.of(0.1, -1, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> RxRetryBudget.of(0.1, 1, Duration.ZERO));
    }
}
