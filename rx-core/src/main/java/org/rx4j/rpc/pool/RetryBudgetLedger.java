// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.pool;

import java.util.Arrays;
import java.util.function.LongSupplier;
import org.rx4j.rpc.channel.RxChannel;
import org.rx4j.rpc.channel.RxRetryBudget;

/**
 * The calls and repeats an {@link RxChannel} made within its {@link RxRetryBudget}'s sliding window, kept in
 * {@value #SLOTS} slots of a tenth of the window each (so an entry leaves the window between 0.9 and 1 window after
 * it was made), on an injectable clock. A repeat is allowed while {@code floor + ratio × calls − repeats >= 1}
 * (Finagle's {@code RetryBudget} balance). Thread-safe (one lock; a few arithmetic steps under it).
 */
public final class RetryBudgetLedger {
    static final int SLOTS = 10;

    private final RxRetryBudget budget;
    private final LongSupplier clock;
    private final long slotNs;
    private final long[] slotEpoch = new long[SLOTS];
    private final long[] calls = new long[SLOTS];
    private final long[] repeats = new long[SLOTS];

    /**
     * @param budget the ratio, floor and window
     * @param clock ns, monotonic
     */
    public RetryBudgetLedger(RxRetryBudget budget, LongSupplier clock) {
        this.budget = budget;
        this.clock = clock;
        this.slotNs = Math.max(1, budget.windowNs() / SLOTS);
        Arrays.fill(slotEpoch, Long.MIN_VALUE);
    }

    /** Counts a call started (its first attempt). */
    public synchronized void callStarted() {
        calls[slot(clock.getAsLong())]++;
    }

    /**
     * Takes one repeat from the budget when it allows one.
     *
     * @return true if the repeat may be made (it is counted), false if the budget is spent
     */
    public synchronized boolean tryRepeat() {
        long now = clock.getAsLong();
        int current = slot(now);
        long epochNow = Math.floorDiv(now, slotNs);
        long c = 0;
        long r = 0;
        for (int i = 0; i < SLOTS; i++) {
            if (slotEpoch[i] > epochNow - SLOTS) {
                c += calls[i];
                r += repeats[i];
            }
        }
        if (budget.floorPerWindow() + budget.ratio() * c - r < 1) {
            return false;
        }
        repeats[current]++;
        return true;
    }

    /** @return the slot for {@code now}, emptied first when it last held an older epoch */
    private int slot(long now) {
        long epoch = Math.floorDiv(now, slotNs);
        int i = (int) Math.floorMod(epoch, (long) SLOTS);
        if (slotEpoch[i] != epoch) {
            slotEpoch[i] = epoch;
            calls[i] = 0;
            repeats[i] = 0;
        }
        return i;
    }
}
