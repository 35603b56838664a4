// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.channel;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.pool.RetryPause;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.rpc.channel.RxConnectionPoolTest.OP_FLAKY;
import static org.rx4j.rpc.channel.RxConnectionPoolTest.OP_FLAKY_TOO;
import static org.rx4j.rpc.channel.RxConnectionPoolTest.SERVICE;
import static org.rx4j.rpc.channel.RxConnectionPoolTest.flakyServer;
import static org.rx4j.rpc.channel.RxConnectionPoolTest.loopback;

/**
 * The pauses of {@link RxConnectionPool}'s repeats (docs/embedding.md "Pools", Backoff): the jitter is replaced by
 * "take the ceiling" and the waiting by a recorder ({@link RecordedPauses}), so each test asserts the exact pauses
 * asked for; nothing sleeps and no wall-clock time is measured.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RetryBackoffTest {
    private static final long MS = 1_000_000;

    private static RxConnectionPool pool(RxEndpoint client, RxEndpoint server, RxRetryPolicy retry,
                                         RetryPause pause) {
        RxConnectionPool pool = RxConnectionPool.open(client, server.localAddress(), SERVICE,
                RxNullSecurityClass.INSTANCE, RxPoolConfig.builder().retry(retry).build());
        pool.pause(pause);
        return pool;
    }

    @Test
    void pausesGrowByTheMultiplierUpToTheCapAndNoneFollowsTheLastAttempt() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        RecordedPauses pauses = new RecordedPauses();
        RxRetryPolicy doubling = RxRetryPolicy.idempotent(OP_FLAKY).maxAttempts(6)
                .backoff(Duration.ofMillis(20), Duration.ofMillis(100));
        try (RxEndpoint server = flakyServer(attempts, 1_000, RxCodes.RX_CALL_BUSY);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = pool(client, server, doubling, pauses.pause())) {
            RxException busy = assertThrows(RxException.class, () -> pool.call(OP_FLAKY, w -> { }, XdrReader::readInt));
            assertEquals(RxCodes.RX_CALL_BUSY, busy.code());
            assertEquals(6, attempts.get());
            assertEquals(List.of(20L, 40L, 80L, 100L, 100L), pauses.askedMs(),
                    "doubling from 20 ms, capped at 100 ms, no pause after the 6th and last attempt");
            assertEquals(5, busy.getSuppressed().length);
            assertEquals(5, pool.stats().retries());

            pauses.asked.clear();
            attempts.set(0);
            ExecutionException async = assertThrows(ExecutionException.class,
                    () -> pool.callAsync(OP_FLAKY, w -> { }, XdrReader::readInt).get(30, TimeUnit.SECONDS));
            assertEquals(RxCodes.RX_CALL_BUSY, ((RxException) async.getCause()).code());
            assertEquals(6, attempts.get());
            assertEquals(List.of(20L, 40L, 80L, 100L, 100L), pauses.askedMs(), "the async form pauses the same");
        }
        RecordedPauses tripling = new RecordedPauses();
        try (RxEndpoint server = flakyServer(new AtomicInteger(), 1_000, RxCodes.RX_RESTARTING);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = pool(client, server, RxRetryPolicy.idempotent(OP_FLAKY).maxAttempts(4)
                     .backoff(Duration.ofMillis(10), Duration.ofSeconds(1), 3.0), tripling.pause())) {
            assertThrows(RxException.class, () -> pool.call(OP_FLAKY, w -> { }, XdrReader::readInt));
            assertEquals(List.of(10L, 30L, 90L), tripling.askedMs(), "multiplier 3");
        }
    }

    @Test
    void callsThatAreNotRepeatedNeverPause() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        RecordedPauses pauses = new RecordedPauses();
        try (RxEndpoint server = flakyServer(attempts, 1, RxCodes.RX_CALL_BUSY);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = pool(client, server, RxRetryPolicy.idempotent(OP_FLAKY), pauses.pause())) {
            assertThrows(RxException.class, () -> pool.call(OP_FLAKY_TOO, w -> { }, XdrReader::readInt));
            assertEquals(1, attempts.get());
            assertEquals(List.of(), pauses.asked, "a call that is not idempotent is neither repeated nor paused");

            attempts.set(0);
            assertEquals(1, pool.call(OP_FLAKY, w -> { }, XdrReader::readInt));
            assertEquals(2, attempts.get());
            assertEquals(List.of(RxRetryPolicy.DEFAULT_INITIAL_BACKOFF_MS), pauses.askedMs(),
                    "one pause before the repeat that answered, the default policy's first ceiling");
        }
        RecordedPauses appPauses = new RecordedPauses();
        try (RxEndpoint server = flakyServer(new AtomicInteger(), 1_000, 4711);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = pool(client, server, RxRetryPolicy.idempotent(OP_FLAKY), appPauses.pause())) {
            assertEquals(4711, assertThrows(RxException.class,
                    () -> pool.call(OP_FLAKY, w -> { }, XdrReader::readInt)).code());
            assertEquals(List.of(), appPauses.asked, "an application's error is an answer: no pause");
        }
    }

    @Test
    void aPauseThatWouldReachTheDeadlineIsNotMadeAndTheCallFailsAtOnce() throws Exception {
        RetryPause pause = new RecordedPauses().pause();
        RxRetryPolicy hundredNs = RxRetryPolicy.idempotent(OP_FLAKY).backoff(Duration.ofNanos(100),
                Duration.ofNanos(100));
        assertEquals(100, pause.pauseNs(hundredNs, 1, Long.MAX_VALUE, 0), "no deadline: the pause");
        assertEquals(100, pause.pauseNs(hundredNs, 1, 1_000, 899), "101 ns left: the pause ends before the deadline");
        assertEquals(RetryPause.NO_REPEAT, pause.pauseNs(hundredNs, 1, 1_000, 900),
                "100 ns left: the deadline would pass by the end of the pause");
        assertEquals(0, pause.pauseNs(hundredNs.noBackoff(), 1, 1_000, 999));
        assertEquals(RetryPause.NO_REPEAT, pause.pauseNs(hundredNs.noBackoff(), 1, 1_000, 1_000),
                "no attempt after the deadline, even without a pause");

        AtomicInteger attempts = new AtomicInteger();
        RecordedPauses pauses = new RecordedPauses();
        RxRetryPolicy minute = RxRetryPolicy.idempotent(OP_FLAKY).backoff(Duration.ofMinutes(1),
                Duration.ofMinutes(1));
        try (RxEndpoint server = flakyServer(attempts, 1_000, RxCodes.RX_CALL_BUSY);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = pool(client, server, minute, pauses.pause())) {
            RxException busy = assertThrows(RxException.class,
                    () -> pool.call(OP_FLAKY, w -> { }, XdrReader::readInt,
                            RxCallOptions.timeout(Duration.ofSeconds(10))));
            assertEquals(RxCodes.RX_CALL_BUSY, busy.code(), "the last failure, not a deadline");
            assertEquals(1, attempts.get());
            assertEquals(0, busy.getSuppressed().length);
            ExecutionException async = assertThrows(ExecutionException.class, () -> pool.callAsync(OP_FLAKY,
                    w -> { }, XdrReader::readInt,
                            RxCallOptions.timeout(Duration.ofSeconds(10))).get(30, TimeUnit.SECONDS));
            assertEquals(RxCodes.RX_CALL_BUSY, ((RxException) async.getCause()).code());
            assertEquals(2, attempts.get(), "the async form: one attempt too");
            assertEquals(List.of(), pauses.asked, "a 1 min pause does not fit a 10 s deadline: none is made");
            assertEquals(0, pool.stats().retries());
        }
    }

    @Test
    void anInterruptDuringAPauseEndsTheBlockingCallWithUserAbortCausedByTheLastFailure() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        AtomicReference<Thread> sleeper = new AtomicReference<>();
        CountDownLatch sleeping = new CountDownLatch(1);
        RetryPause waitsForAnInterrupt = new RetryPause(RecordedPauses.CEILING, ns -> {
            sleeper.set(Thread.currentThread());
            sleeping.countDown();
            new CountDownLatch(1).await(); // returns only by InterruptedException
        }, (task, ns) -> {
            throw new AssertionError("the blocking form schedules nothing");
        });
        ExecutorService callers = Executors.newSingleThreadExecutor();
        try (RxEndpoint server = flakyServer(attempts, 1_000, RxCodes.RX_CALL_BUSY);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = pool(client, server, RxRetryPolicy.idempotent(OP_FLAKY), waitsForAnInterrupt)) {
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Future<RxException> call = callers.submit(() -> {
                try {
                    pool.call(OP_FLAKY, w -> { }, XdrReader::readInt);
                    return null;
                } catch (RxException e) {
                    stillInterrupted.set(Thread.interrupted());
                    return e;
                }
            });
            assertTrue(sleeping.await(30, TimeUnit.SECONDS));
            sleeper.get().interrupt();
            RxException aborted = call.get(30, TimeUnit.SECONDS);
            assertNotNull(aborted);
            assertEquals(RxCodes.RX_USER_ABORT, aborted.code());
            assertFalse(aborted.remote());
            RxException last = (RxException) aborted.getCause();
            assertEquals(RxCodes.RX_CALL_BUSY, last.code(), "the cause: the failure the call would have ended with");
            assertTrue(last.remote());
            assertEquals(1, attempts.get(), "no attempt after the interrupt");
            assertTrue(stillInterrupted.get(), "the interrupt status is kept");
            assertEquals(0, pool.stats().retries());
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void cancellingTheFutureDuringAPauseMakesNoMoreAttempts() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        RecordedPauses pauses = new RecordedPauses();
        pauses.hold();
        // Completions run inline, so a held repeat run below runs its attempt (or not) before run() returns.
        try (RxEndpoint server = flakyServer(attempts, 1, RxCodes.RX_CALL_BUSY);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).callbackExecutor(Runnable::run).open();
             RxConnectionPool pool = pool(client, server, RxRetryPolicy.idempotent(OP_FLAKY), pauses.pause())) {
            CompletableFuture<Integer> repeated = pool.callAsync(OP_FLAKY, w -> { }, XdrReader::readInt);
            RecordedPauses.Held first = pauses.held.poll(30, TimeUnit.SECONDS);
            assertNotNull(first, "the repeat is scheduled, not run");
            assertEquals(1, attempts.get());
            assertFalse(repeated.isDone(), "no thread waits and nothing completes during the pause");
            first.task().run(); // the pause ends
            assertEquals(1, repeated.get(30, TimeUnit.SECONDS));
            assertEquals(2, attempts.get());

            attempts.set(0);
            CompletableFuture<Integer> cancelled = pool.callAsync(OP_FLAKY, w -> { }, XdrReader::readInt);
            RecordedPauses.Held pending = pauses.held.poll(30, TimeUnit.SECONDS);
            assertNotNull(pending);
            assertEquals(1, attempts.get());
            assertTrue(cancelled.cancel(false));
            // The pool stores the timer's handle just after scheduling it (on the thread that saw the failure), so
            // the cancel may reach the handle a moment later: wait for it, not for a time.
            assertThrows(java.util.concurrent.CancellationException.class,
                    () -> pending.handle().get(30, TimeUnit.SECONDS), "cancelling the call cancels the pause's timer");
            pending.task().run(); // a timer that fires anyway
            assertEquals(1, attempts.get(), "no attempt after the cancel");
            assertEquals(List.of(20L, 20L), pauses.askedMs());
            assertEquals(1, pool.stats().retries(), "only the first call's repeat was made");
            assertEquals(0, pool.stats().busyCalls(), "no connection is held during a pause");
        }
    }

    @Test
    void anAsyncPauseOnTheEventLoopEndsWhenTheEndpointCloses() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        CountDownLatch paused = new CountDownLatch(1);
        try (RxEndpoint server = flakyServer(attempts, 1_000, RxCodes.RX_CALL_BUSY)) {
            RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
            RetryPause.Scheduler loop = RetryPause.onLoop(ApiAccess.api().runtime(client).transport.loop());
            RetryPause anHour = new RetryPause(RecordedPauses.CEILING, ns -> {
                throw new AssertionError("the async form sleeps on no thread");
            }, (task, ns) -> {
                Future<?> timer = loop.schedule(task, ns);
                paused.countDown();
                return timer;
            });
            RxConnectionPool pool = pool(client, server, RxRetryPolicy.idempotent(OP_FLAKY)
                    .backoff(Duration.ofHours(1), Duration.ofHours(1)), anHour);
            CompletableFuture<Integer> call = pool.callAsync(OP_FLAKY, w -> { }, XdrReader::readInt);
            assertTrue(paused.await(30, TimeUnit.SECONDS));
            client.close();
            ExecutionException closed = assertThrows(ExecutionException.class, () -> call.get(30, TimeUnit.SECONDS));
            RxException e = (RxException) closed.getCause();
            assertEquals(RxCodes.RX_INVALID_OPERATION, e.code());
            assertEquals(RxException.Reason.ENDPOINT_CLOSING, e.reason(), "the closed endpoint ends the pause");
            assertEquals(1, e.getSuppressed().length, "the failed attempt rides along");
            assertEquals(1, attempts.get());
            pool.close();
        }
    }

    @Test
    void aPoolsOwnPausesFallUnderTheCeiling() throws Exception {
        RxRetryPolicy policy = RxRetryPolicy.idempotent(OP_FLAKY).maxAttempts(10);
        try (RxEndpoint client = RxEndpoint.builder().bind(loopback()).open()) {
            RetryPause pause = RetryPause.on(ApiAccess.api().runtime(client).transport.loop());
            for (int n = 1; n <= 9; n++) {
                for (int i = 0; i < 1_000; i++) {
                    long ns = pause.pauseNs(policy, n, Long.MAX_VALUE, 0);
                    assertTrue(ns >= 0 && ns <= policy.backoffCeilingNs(n), "attempt " + n + ": " + ns);
                }
            }
        }
    }

    @Test
    void theDefaultPausesFallInTheDocumentedRanges() {
        RxRetryPolicy policy = RxRetryPolicy.idempotent(OP_FLAKY);
        assertEquals(Duration.ofMillis(20), policy.initialBackoff());
        assertEquals(Duration.ofSeconds(1), policy.maxBackoff());
        assertEquals(2.0, policy.backoffMultiplier());
        long[] ceilingsMs = {20, 40, 80, 160, 320, 640, 1_000, 1_000};
        SplittableRandom seeded = new SplittableRandom(2026);
        for (int n = 1; n <= ceilingsMs.length; n++) {
            long ceiling = ceilingsMs[n - 1] * MS;
            assertEquals(ceiling, policy.backoffCeilingNs(n));
            long least = Long.MAX_VALUE;
            long most = -1;
            for (int i = 0; i < 1_000; i++) {
                long pause = policy.backoffNs(n, seeded);
                assertTrue(pause >= 0 && pause <= ceiling, "within [0, ceiling]: " + pause);
                least = Math.min(least, pause);
                most = Math.max(most, pause);
            }
            assertTrue(least < ceiling / 10 && most > ceiling / 10 * 9,
                    "full jitter spreads over the whole range: " + least + ".." + most);
        }
        assertEquals(1_000 * MS, policy.backoffCeilingNs(100), "capped, no overflow");
        RxRetryPolicy none = policy.noBackoff();
        assertEquals(0, none.backoffCeilingNs(1));
        assertEquals(0, none.backoffNs(7, RecordedPauses.CEILING));
        assertEquals(policy.maxAttempts(), none.maxAttempts());
        assertTrue(none.isIdempotent(OP_FLAKY), "noBackoff keeps the opcodes");
        assertEquals(Duration.ofMillis(20), none.maxAttempts(5).backoff(Duration.ofMillis(20), Duration.ofMillis(20))
                .maxAttempts(4).initialBackoff(), "maxAttempts keeps the backoff");
        assertThrows(IllegalArgumentException.class,
                () -> policy.backoff(Duration.ofMillis(-1), Duration.ofMillis(1)));
        assertThrows(IllegalArgumentException.class, () -> policy.backoff(Duration.ofMillis(2), Duration.ofMillis(1)));
        assertThrows(IllegalArgumentException.class, () -> policy.backoff(Duration.ZERO, Duration.ofHours(2)));
        assertThrows(IllegalArgumentException.class,
                () -> policy.backoff(Duration.ZERO, Duration.ofSeconds(1), 0.5));
        assertThrows(IllegalArgumentException.class,
                () -> policy.backoff(Duration.ZERO, Duration.ofSeconds(1), Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> policy.backoffCeilingNs(0));
    }
}
