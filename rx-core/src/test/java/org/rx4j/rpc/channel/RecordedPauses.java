// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.channel;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.random.RandomGenerator;
import org.rx4j.rpc.pool.RetryPause;

/**
 * A {@link RetryPause} for tests: the jitter takes the ceiling (so the pauses are the policy's exact ceilings), and
 * every pause asked for is recorded in ns instead of waited out. Sleeps return at once; scheduled repeats run at once
 * too, unless {@link #hold()} was called: then each is queued in {@link #held} with the handle the pool got, for the
 * test to run or cancel.
 */
final class RecordedPauses {
    /** Every pause asked for, ns, blocking and async, in order. */
    final List<Long> asked = new CopyOnWriteArrayList<>();
    /** Scheduled repeats not run yet (after {@link #hold()}). */
    final BlockingQueue<Held> held = new LinkedBlockingQueue<>();
    private volatile boolean holding;

    /**
     * A scheduled repeat held back.
     *
     * @param task the repeat
     * @param handle what the pool got from the scheduler (cancelled by the pool when the call is cancelled)
     */
    record Held(Runnable task, CompletableFuture<Void> handle) {
    }

    /** A jitter source that always draws the largest value: {@code nextLong(bound)} is {@code bound − 1}. */
    static final RandomGenerator CEILING = new RandomGenerator() {
        @Override
        public long nextLong() {
            throw new UnsupportedOperationException("only bounded draws");
        }

        @Override
        public long nextLong(long bound) {
            return bound - 1;
        }
    };

    /** From now on, scheduled repeats wait in {@link #held}. */
    void hold() {
        holding = true;
    }

    /** @return the pause to hand to {@link RxConnectionPool#pause(RetryPause)} */
    RetryPause pause() {
        return new RetryPause(CEILING, asked::add, (task, ns) -> {
            asked.add(ns);
            CompletableFuture<Void> handle = new CompletableFuture<>();
            if (holding) {
                held.add(new Held(task, handle));
            } else {
                task.run();
                handle.complete(null);
            }
            return handle;
        });
    }

    /** @return the pauses asked for so far, ms (each a whole number of ms in these tests) */
    List<Long> askedMs() {
        return asked.stream().map(ns -> ns / 1_000_000).toList();
    }
}
