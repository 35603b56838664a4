// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.channel;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.RxConnectionId;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxOpcodeHandler;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrWriter;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RxConnectionPool} over loopback (docs/embedding.md "Pools"): handlers block until a latch releases them, so
 * the calls really run at once; idle time is aged with an injected ticker, never by sleeping.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RxConnectionPoolTest {
    static final int SERVICE = 4243;
    private static final int OP_ECHO = 1;
    static final int OP_FLAKY = 2;
    static final int OP_FLAKY_TOO = 3;

    static InetSocketAddress loopback() {
        return new InetSocketAddress("127.0.0.1", 0);
    }

    /** A server whose ECHO handler counts itself in, waits for {@code release}, and answers its argument. */
    private static RxEndpoint blockingServer(CountDownLatch entered, CountDownLatch release, AtomicInteger running,
                                             AtomicInteger mostRunning, Set<RxConnectionId> connections)
            throws IOException {
        RxService service = RxService.builder(SERVICE).blocking(OP_ECHO, (call, opcode) -> {
            int value = new XdrReader(call.input(), XdrSide.SERVER).readInt();
            connections.add(call.connectionId());
            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            entered.countDown();
            try {
                assertTrue(release.await(30, TimeUnit.SECONDS));
            } finally {
                running.decrementAndGet();
            }
            new XdrWriter(call.output(), XdrSide.SERVER).writeInt(value);
        }).build();
        return RxEndpoint.builder().bind(loopback()).workers(2, 80).service(service).open();
    }

    @Test
    void sixtyFourConcurrentCallsOpenMoreConnectionsButNeverPassTheBound() throws Exception {
        CountDownLatch entered = new CountDownLatch(32);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();
        Set<RxConnectionId> seen = ConcurrentHashMap.newKeySet();
        try (RxEndpoint server = blockingServer(entered, release, running, mostRunning, seen);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = RxConnectionPool.open(client, server.localAddress(), SERVICE,
                     RxNullSecurityClass.INSTANCE, RxPoolConfig.builder().maxConnections(8).build())) {
            List<CompletableFuture<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                int value = i;
                calls.add(pool.callAsync(OP_ECHO, w -> w.writeInt(value), XdrReader::readInt));
            }
            // 8 connections × 4 channels: 32 handlers run at once, the other 32 calls wait for a channel
            assertTrue(entered.await(30, TimeUnit.SECONDS), "32 calls reach their handlers");
            RxConnectionPool.Stats busy = pool.stats();
            assertEquals(8, busy.connections());
            assertEquals(64, busy.busyCalls());
            assertEquals(32, running.get());
            release.countDown();
            for (int i = 0; i < 64; i++) {
                assertEquals(i, calls.get(i).get(30, TimeUnit.SECONDS));
            }
            RxConnectionPool.Stats done = pool.stats();
            assertEquals(8, done.peakConnections(), "more than one connection, never above the bound");
            assertEquals(8, done.opened());
            assertEquals(32, mostRunning.get(), "never more calls at once than the connections' channels");
            assertEquals(8, seen.size(), "the server saw the calls on 8 connections");
            assertEquals(0, done.busyCalls());
        }
    }

    @Test
    void blockingCallsFromManyThreadsFillEveryChannelOfTheBound() throws Exception {
        CountDownLatch entered = new CountDownLatch(16);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger mostRunning = new AtomicInteger();
        ExecutorService callers = Executors.newFixedThreadPool(16);
        try (RxEndpoint server = blockingServer(entered, release, new AtomicInteger(), mostRunning,
                ConcurrentHashMap.newKeySet());
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = RxConnectionPool.open(client, server.localAddress(), SERVICE,
                     RxNullSecurityClass.INSTANCE, RxPoolConfig.builder().maxConnections(4).build())) {
            List<Future<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                int value = i;
                calls.add(callers.submit(() -> pool.call(OP_ECHO, w -> w.writeInt(value), XdrReader::readInt)));
            }
            // threads that race to open connections wait for one being opened instead of queueing behind a full one
            assertTrue(entered.await(30, TimeUnit.SECONDS), "16 calls on 4 connections run at once");
            assertEquals(4, pool.stats().connections());
            release.countDown();
            for (int i = 0; i < 16; i++) {
                assertEquals(i, calls.get(i).get(30, TimeUnit.SECONDS));
            }
            assertEquals(4, pool.stats().peakConnections());
            assertEquals(16, mostRunning.get());
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void idleConnectionsCloseAfterTheIdleTimeOnThePoolsClock() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong ticker = new AtomicLong();
        RxPoolConfig config = RxPoolConfig.builder().maxConnections(4).idleTimeout(Duration.ofSeconds(10))
                .ticker(ticker::get).build();
        try (RxEndpoint server = blockingServer(new CountDownLatch(8), release, new AtomicInteger(),
                new AtomicInteger(), ConcurrentHashMap.newKeySet());
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = RxConnectionPool.open(client, server.localAddress(), SERVICE,
                     RxNullSecurityClass.INSTANCE, config)) {
            List<CompletableFuture<Integer>> first = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                first.add(pool.callAsync(OP_ECHO, w -> w.writeInt(7), XdrReader::readInt));
            }
            assertEquals(2, pool.stats().connections(), "8 calls need 2 connections");
            release.countDown();
            for (CompletableFuture<Integer> f : first) {
                assertEquals(7, f.get(30, TimeUnit.SECONDS));
            }
            ticker.addAndGet(Duration.ofSeconds(10).toNanos() - 1);
            pool.evictIdle();
            assertEquals(2, pool.stats().connections(), "idle 1 ns less than the idle time: kept");
            ticker.incrementAndGet();
            pool.evictIdle();
            assertEquals(0, pool.stats().connections(), "idle for the idle time: closed");
            assertEquals(2, pool.stats().closedIdle());

            // a call after that opens a fresh connection; while a call runs its connection is never idle
            assertEquals(5, pool.call(OP_ECHO, w -> w.writeInt(5), XdrReader::readInt));
            assertEquals(3, pool.stats().opened());
            RxCall streaming = pool.newCall();
            ticker.addAndGet(Duration.ofHours(1).toNanos());
            pool.evictIdle();
            assertEquals(1, pool.stats().connections(), "the connection with a call in progress stays");
            XdrWriter w = new XdrWriter(streaming.output(), XdrSide.CLIENT);
            w.writeInt(OP_ECHO);
            w.writeInt(9);
            assertEquals(9, new XdrReader(streaming.input(), XdrSide.CLIENT).readInt());
            streaming.close();
        }
    }

    /** A server whose FLAKY handlers abort their first {@code failures} attempts with {@code code}, then answer 1. */
    static RxEndpoint flakyServer(AtomicInteger attempts, int failures, int code) throws IOException {
        RxOpcodeHandler flaky = (call, opcode) -> {
            if (attempts.incrementAndGet() <= failures) {
                throw RxException.local(code, "refused");
            }
            new XdrWriter(call.output(), XdrSide.SERVER).writeInt(1);
        };
        RxService service = RxService.builder(SERVICE).blocking(OP_FLAKY, flaky).blocking(OP_FLAKY_TOO, flaky)
                .build();
        return RxEndpoint.builder().bind(loopback()).service(service).open();
    }

    /** A pool that repeats without waiting: these tests count attempts; RetryBackoffTest checks the pauses. */
    private static RxConnectionPool pool(RxEndpoint client, RxEndpoint server, RxRetryPolicy retry) {
        RxConnectionPool pool = RxConnectionPool.open(client, server.localAddress(), SERVICE,
                RxNullSecurityClass.INSTANCE, RxPoolConfig.builder().retry(retry).build());
        pool.pause(new RecordedPauses().pause());
        return pool;
    }

    @Test
    void anIdempotentCallIsRepeatedAfterTheServerRefusedIt() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        try (RxEndpoint server = flakyServer(attempts, 2, RxCodes.RX_CALL_BUSY);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = pool(client, server, RxRetryPolicy.idempotent(OP_FLAKY))) {
            assertEquals(1, pool.call(OP_FLAKY, w -> { }, XdrReader::readInt));
            assertEquals(3, attempts.get());
            assertEquals(2, pool.stats().retries());

            attempts.set(0);
            assertEquals(1, pool.callAsync(OP_FLAKY, w -> { }, XdrReader::readInt,
                    RxCallOptions.timeout(Duration.ofSeconds(30)))
                    .get(30, TimeUnit.SECONDS));
            assertEquals(3, attempts.get(), "the async form repeats the same way");
        }
    }

    @Test
    void aNonIdempotentCallIsNeverRepeated() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        try (RxEndpoint server = flakyServer(attempts, 2, RxCodes.RX_CALL_BUSY);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = pool(client, server, RxRetryPolicy.idempotent(OP_FLAKY))) {
            RxException busy = assertThrows(RxException.class,
                    () -> pool.call(OP_FLAKY_TOO, w -> { }, XdrReader::readInt));
            assertEquals(RxCodes.RX_CALL_BUSY, busy.code());
            assertTrue(busy.remote());
            assertEquals(1, attempts.get());

            ExecutionException async = assertThrows(ExecutionException.class,
                    () -> pool.callAsync(OP_FLAKY_TOO, w -> { }, XdrReader::readInt).get(30, TimeUnit.SECONDS));
            assertEquals(RxCodes.RX_CALL_BUSY, ((RxException) async.getCause()).code());
            assertEquals(2, attempts.get(), "one attempt per call");
            assertEquals(0, pool.stats().retries());
        }
    }

    @Test
    void repeatsAreBoundedAndApplicationErrorsAreAnswers() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        try (RxEndpoint server = flakyServer(attempts, 100, RxCodes.RX_CALL_BUSY);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = pool(client, server, RxRetryPolicy.idempotent(OP_FLAKY).maxAttempts(4))) {
            RxException busy = assertThrows(RxException.class, () -> pool.call(OP_FLAKY, w -> { }, XdrReader::readInt));
            assertEquals(RxCodes.RX_CALL_BUSY, busy.code());
            assertEquals(4, attempts.get(), "4 attempts in all, then the last failure");
            assertEquals(3, busy.getSuppressed().length, "the earlier attempts' failures ride along");
            for (Throwable earlier : busy.getSuppressed()) {
                assertEquals(RxCodes.RX_CALL_BUSY, ((RxException) earlier).code());
            }

            attempts.set(0);
            ExecutionException async = assertThrows(ExecutionException.class,
                    () -> pool.callAsync(OP_FLAKY, w -> { }, XdrReader::readInt).get(30, TimeUnit.SECONDS));
            assertEquals(4, attempts.get(), "the async form: 4 attempts too");
            assertEquals(3, async.getCause().getSuppressed().length);
        }
        AtomicInteger appAttempts = new AtomicInteger();
        try (RxEndpoint server = flakyServer(appAttempts, 100, 4711);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open();
             RxConnectionPool pool = pool(client, server, RxRetryPolicy.idempotent(OP_FLAKY))) {
            RxException app = assertThrows(RxException.class, () -> pool.call(OP_FLAKY, w -> { }, XdrReader::readInt));
            assertEquals(4711, app.code());
            assertEquals(1, appAttempts.get(), "an application's code is the answer, not a connection failure");
            assertEquals(0, app.getSuppressed().length, "a single attempt has no earlier failures");
        }
    }

    @Test
    void onlyConnectionLevelFailuresAreRetryable() {
        assertTrue(RxRetryPolicy.retryable(RxException.local(RxCodes.RX_CALL_DEAD, RxException.Reason.PEER_UNREACHABLE,
                "port unreachable", null)));
        assertTrue(RxRetryPolicy.retryable(RxException.local(RxCodes.RX_CALL_DEAD, "dead")));
        assertFalse(RxRetryPolicy.retryable(RxException.local(RxCodes.RX_CALL_BUSY, "local busy")));
        assertFalse(RxRetryPolicy.retryable(RxException.local(RxCodes.RX_CALL_TIMEOUT, "deadline")));
        assertFalse(RxRetryPolicy.retryable(RxException.local(RxCodes.RX_USER_ABORT, "cancelled")));
        assertFalse(RxRetryPolicy.retryable(RxException.local(RxCodes.RX_CALL_DEAD,
                RxException.Reason.ENDPOINT_CLOSING, "closing", null)));
        assertFalse(RxRetryPolicy.retryable(new IOException("not an Rx failure")));
        assertFalse(RxRetryPolicy.none().isIdempotent(OP_FLAKY));
        assertEquals(1, RxRetryPolicy.none().maxAttempts());
        assertThrows(IllegalArgumentException.class, () -> RxRetryPolicy.idempotent(1).maxAttempts(0));
    }

    @Test
    void aClosedPoolRefusesCallsAndClosesItsConnections() throws Exception {
        try (RxEndpoint server = flakyServer(new AtomicInteger(), 0, 1);
             RxEndpoint client = RxEndpoint.builder().bind(loopback()).open()) {
            RxConnectionPool pool = pool(client, server, RxRetryPolicy.none());
            assertEquals(1, pool.call(OP_FLAKY, w -> { }, XdrReader::readInt));
            pool.close();
            assertEquals(0, pool.stats().connections());
            RxException closed = assertThrows(RxException.class, pool::newCall);
            assertEquals(RxCodes.RX_INVALID_OPERATION, closed.code());
            ExecutionException async = assertThrows(ExecutionException.class,
                    () -> pool.callAsync(new byte[] {0, 0, 0, 2}).get(30, TimeUnit.SECONDS));
            assertEquals(RxCodes.RX_INVALID_OPERATION, ((RxException) async.getCause()).code());
            assertThrows(IllegalArgumentException.class, () -> RxPoolConfig.builder().maxConnections(0).build());
        }
    }
}
