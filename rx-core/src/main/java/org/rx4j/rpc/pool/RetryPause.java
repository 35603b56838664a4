// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.pool;

import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.channel.RxRetryPolicy;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;

/**
 * The pause an {@link RxConnectionPool} makes before repeating a call (docs/embedding.md "Pools", Backoff): how long
 * ({@link RxRetryPolicy#backoffNs}, jitter drawn from {@code random}), whether the call's deadline leaves room for
 * it, and the waiting itself, blocking or scheduled. A pool has one; tests give it another whose parts record the
 * pauses asked for instead of waiting. Thread-safe when its parts are (the defaults are).
 */
public final class RetryPause {
    /** What {@link #pauseNs} returns when the deadline would pass during the pause: no more attempts. */
    public static final long NO_REPEAT = -1;

    /** Blocks the calling thread. */
    public interface Sleeper {
        /**
         * @param ns how long, ns, &gt; 0
         * @throws InterruptedException if the thread is interrupted while it waits
         */
        public void sleep(long ns) throws InterruptedException;
    }

    /** Runs a task later without holding a thread meanwhile. */
    public interface Scheduler {
        /**
         * @param task what to run once {@code ns} passed; run at once instead when the timer cannot keep it (the
         *     endpoint's event loop shut down), so a caller's future always completes
         * @param ns how long from now, ns, &gt; 0
         * @return cancelling it drops the task if it has not run (the task must tolerate running anyway)
         */
        public Future<?> schedule(Runnable task, long ns);
    }

    private final RandomGenerator random;
    private final Sleeper sleeper;
    private final Scheduler scheduler;

    /**
     * @param random the jitter's source
     * @param sleeper the blocking form's wait
     * @param scheduler the async form's timer
     */
    public RetryPause(RandomGenerator random, Sleeper sleeper, Scheduler scheduler) {
        this.random = random;
        this.sleeper = sleeper;
        this.scheduler = scheduler;
    }

    /**
     * The default: jitter from {@link ThreadLocalRandom}, the caller's thread sleeps, async repeats are timed on
     * {@code loop} (the endpoint's event loop, where the pool's idle sweep runs too).
     *
     * @param loop the endpoint's event loop
     * @return the pause
     */
    public static RetryPause on(EventLoop loop) {
        RandomGenerator threadLocal = () -> ThreadLocalRandom.current().nextLong();
        return new RetryPause(threadLocal, TimeUnit.NANOSECONDS::sleep, onLoop(loop));
    }

    /**
     * @param loop an event loop
     * @return a scheduler that times tasks on {@code loop} and runs them on it; a task whose timer the loop cancels
     *     as it shuts down runs at once, as does one it refuses
     */
    public static Scheduler onLoop(EventLoop loop) {
        return (task, ns) -> {
            io.netty.util.concurrent.ScheduledFuture<?> timer;
            try {
                timer = loop.schedule(task, ns, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                task.run(); // the loop is shut down: the endpoint closed, so the next attempt is refused at once
                return CompletableFuture.completedFuture(null);
            }
            // A loop that shuts down cancels its timers: the task then runs at once and meets the closed endpoint.
            timer.addListener(f -> {
                if (f.isCancelled()) {
                    task.run();
                }
            });
            return timer;
        };
    }

    /**
     * @param policy the pool's retry policy
     * @param failedAttempt the attempt that just failed, 1 for the first
     * @param deadline the call's deadline, ns on the endpoint's clock, or {@code Long.MAX_VALUE} for none
     * @param now the endpoint's clock now, ns
     * @return the pause before the next attempt, ns (0: at once), or {@link #NO_REPEAT} when the deadline would
     *     pass before the pause ends (or has passed): the call then fails with the last failure at once
     */
    public long pauseNs(RxRetryPolicy policy, int failedAttempt, long deadline, long now) {
        long pause = policy.backoffNs(failedAttempt, random);
        return deadline != Long.MAX_VALUE && deadline - now - pause <= 0 ? NO_REPEAT : pause;
    }

    /**
     * Blocks the caller's thread for the pause before a repeat.
     *
     * @param ns the pause, ns (0: returns at once)
     * @param nextAttempt the attempt after the pause
     * @param last the failure that the call ends with if it is not repeated
     * @param earlier the failures before it, oldest first, or null (they become its suppressed exceptions)
     * @throws RxException RX_USER_ABORT (−6) when the thread is interrupted during the pause, caused by {@code last};
     *     the interrupt status is kept
     */
    public void sleep(long ns, int nextAttempt, RxException last, List<Throwable> earlier) throws RxException {
        if (ns == 0) {
            return;
        }
        try {
            sleeper.sleep(ns);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RxException.local(RxCodes.RX_USER_ABORT, "interrupted in the " + ns / 1_000_000
                    + " ms pause before attempt " + nextAttempt, AttemptFailures.withEarlier(last, earlier));
        }
    }

    /**
     * @param task the next attempt
     * @param ns the pause, ns, &gt; 0
     * @return cancels the task's timer
     */
    public Future<?> schedule(Runnable task, long ns) {
        return scheduler.schedule(task, ns);
    }
}
