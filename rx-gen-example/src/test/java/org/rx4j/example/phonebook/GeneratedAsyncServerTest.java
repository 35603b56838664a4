// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.example.phonebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxRequest;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * The generated async server ({@code PbAsyncServer} through {@code PbAsyncDispatcher}) answering the generated client
 * over loopback, its errors, and where the generated client's futures complete (docs/rxgen.md, "Async servers").
 */
@Timeout(60)
class GeneratedAsyncServerTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @Test
    void asyncExampleRuns() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AsyncPhonebookExample.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(List.of(
                "alice -> 1234",
                "book: [PbEntry[name=alice, number=1234]]",
                "carol -> PB_Lookup (opcode 2): call aborted by peer: error 1"),
                bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }

    /** Pending lookups the test completes itself; each invocation counts down {@link #invoked}. */
    private static final class PendingLookups implements PbAsyncServer {
        final List<CompletableFuture<Integer>> pending = new ArrayList<>();
        final CountDownLatch invoked;

        PendingLookups(int calls) {
            invoked = new CountDownLatch(calls);
        }

        @Override
        public CompletionStage<Void> add(RxRequest request, PbEntry entry) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public synchronized CompletionStage<Integer> lookup(RxRequest request, String name) throws RxException {
            if (name.equals("thrown")) {
                throw RxException.local(PhonebookExample.NO_SUCH_NAME + 1, "thrown, not a stage");
            }
            if (name.equals("broken")) {
                return CompletableFuture.failedFuture(new IllegalStateException("a bug in the server"));
            }
            CompletableFuture<Integer> f = new CompletableFuture<>();
            pending.add(f);
            invoked.countDown();
            return f;
        }

        @Override
        public CompletionStage<List<PbEntry>> list(RxRequest request) {
            return CompletableFuture.completedFuture(List.of());
        }
    }

    /** Four calls pending at once on a server with one worker thread: the async path holds no thread per call. */
    @Test
    void pendingCallsHoldNoWorkerThread() throws Exception {
        PendingLookups server = new PendingLookups(4);
        try (RxEndpoint s = RxEndpoint.builder().bind(LOOPBACK).workers(1, 1)
                     .service(PbAsyncDispatcher.service(PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE,
                             server))
                     .open();
             RxEndpoint c = RxEndpoint.builder().bind(LOOPBACK).open();
             PbClient book = PbClient.connect(c, s.localAddress(), PhonebookExample.SERVICE_ID,
                     RxNullSecurityClass.INSTANCE)) {
            List<CompletableFuture<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(book.lookupAsync("n" + i));
            }
            assertTrue(server.invoked.await(30, TimeUnit.SECONDS), "all four lookups run while none has answered");
            synchronized (server) {
                for (int i = 0; i < 4; i++) {
                    server.pending.get(i).complete(100 + i);
                }
            }
            List<Integer> answers = new ArrayList<>();
            for (CompletableFuture<Integer> f : calls) {
                answers.add(f.get(30, TimeUnit.SECONDS));
            }
            assertEquals(4, answers.size());
            assertTrue(answers.containsAll(List.of(100, 101, 102, 103)), answers.toString());
        }
    }

    /** A failed stage with a declared code, a thrown RxException, and another failure each abort with their code. */
    @Test
    void asyncServerErrorsAbortWithTheirCodes() throws Exception {
        PendingLookups server = new PendingLookups(1);
        try (RxEndpoint s = RxEndpoint.builder().bind(LOOPBACK)
                     .service(PbAsyncDispatcher.service(PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE,
                             server))
                     .open();
             RxEndpoint c = RxEndpoint.builder().bind(LOOPBACK).open();
             PbClient book = PbClient.connect(c, s.localAddress(), PhonebookExample.SERVICE_ID,
                     RxNullSecurityClass.INSTANCE)) {
            CompletableFuture<Integer> call = book.lookupAsync("alice");
            assertTrue(server.invoked.await(30, TimeUnit.SECONDS));
            synchronized (server) {
                server.pending.get(0).completeExceptionally(
                        RxException.local(PhonebookExample.NO_SUCH_NAME, "no such name: alice"));
            }
            ExecutionException failed = assertThrows(ExecutionException.class, () -> call.get(30, TimeUnit.SECONDS));
            PhonebookCallException e = assertInstanceOf(PhonebookCallException.class, failed.getCause());
            assertEquals(PhonebookExample.NO_SUCH_NAME, e.code());
            assertTrue(e.remote());
            assertEquals("PB_Lookup", e.proc());

            PhonebookCallException thrown = assertThrows(PhonebookCallException.class, () -> book.lookup("thrown"));
            assertEquals(PhonebookExample.NO_SUCH_NAME + 1, thrown.code());
            PhonebookCallException broken = assertThrows(PhonebookCallException.class, () -> book.lookup("broken"));
            assertEquals(RxCodes.RX_INVALID_OPERATION, broken.code());
            assertTrue(broken.remote());
        }
    }

    /** An executor that only queues: the test runs the completions itself, on a thread it makes. */
    private static final class QueuedExecutor implements Executor {
        private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        /** Runs queued tasks on a new thread until {@code until} is done; returns that thread once it ended. */
        Thread runUntil(Future<?> until) throws InterruptedException {
            Thread t = new Thread(() -> {
                while (!until.isDone()) {
                    try {
                        Runnable r = tasks.poll(100, TimeUnit.MILLISECONDS);
                        if (r != null) {
                            r.run();
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "test-callbacks");
            t.start();
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(t.isAlive(), "the future did not complete");
            return t;
        }
    }

    /**
     * The thread that completes a generated client's future, for an answer, a deadline call's answer, the server's
     * abort and a closed connection, is the callback executor's; a bad argument fails the future before it returns.
     */
    @Test
    void clientFuturesCompleteOnTheCallbackExecutor() throws Exception {
        PendingLookups server = new PendingLookups(2);
        QueuedExecutor callbacks = new QueuedExecutor();
        try (RxEndpoint s = RxEndpoint.builder().bind(LOOPBACK)
                     .service(PbAsyncDispatcher.service(PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE,
                             server))
                     .open();
             RxEndpoint c = RxEndpoint.builder().bind(LOOPBACK).callbackExecutor(callbacks).open()) {
            PbClient book = PbClient.connect(c, s.localAddress(), PhonebookExample.SERVICE_ID,
                    RxNullSecurityClass.INSTANCE);
            CompletableFuture<Integer> plain = book.lookupAsync("alice");
            CompletableFuture<Integer> timed = book.lookupAsync("bob", Duration.ofSeconds(30));
            assertTrue(server.invoked.await(30, TimeUnit.SECONDS));
            synchronized (server) {
                server.pending.get(0).complete(1);
                server.pending.get(1).complete(2);
            }
            CompletableFuture<String> remote = book.lookupAsync("thrown").thenApply(n -> "answered");
            // Every observer is added before any queued completion runs: none of the futures can be done yet.
            List<AtomicReference<Thread>> completers = new ArrayList<>();
            List<CompletableFuture<?>> seen = new ArrayList<>();
            for (CompletableFuture<?> f : List.of(plain, timed, remote)) {
                AtomicReference<Thread> completer = new AtomicReference<>();
                completers.add(completer);
                seen.add(f.whenComplete((v, t) -> completer.set(Thread.currentThread())));
            }
            Thread executor = callbacks.runUntil(CompletableFuture.allOf(seen.toArray(CompletableFuture<?>[]::new)));
            for (AtomicReference<Thread> completer : completers) {
                assertSame(executor, completer.get(), "completed on " + completer.get());
            }
            assertEquals(3, plain.get() + timed.get());
            assertEquals(PhonebookExample.NO_SUCH_NAME + 1, assertInstanceOf(RxException.class,
                    assertThrows(ExecutionException.class, remote::get).getCause().getCause()).code());

            book.close();
            CompletableFuture<Integer> closed = book.lookupAsync("alice");
            AtomicReference<Thread> closedCompleter = new AtomicReference<>();
            CompletableFuture<?> closedSeen = closed.whenComplete(
                    (v, t) -> closedCompleter.set(Thread.currentThread()));
            assertSame(callbacks.runUntil(closedSeen), closedCompleter.get(), "a closed connection's failure too");
            assertTrue(closed.isCompletedExceptionally());

            CompletableFuture<Integer> tooLong = new PbClient(c.connect(s.localAddress(), PhonebookExample.SERVICE_ID,
                    RxNullSecurityClass.INSTANCE)).lookupAsync("x".repeat(65));
            assertTrue(tooLong.isCompletedExceptionally(), "a bad argument fails before anything is sent");
        }
    }

    /**
     * A generated client's future ended early by the caller ends the call on the wire: {@code orTimeout} with
     * RX_CALL_TIMEOUT (−3), {@code completeOnTimeout} and {@code cancel} with RX_USER_ABORT (−6), each seen by the
     * server's stage through its request's context; over a connection and over a pool.
     */
    @Test
    void endingAGeneratedFutureEndsTheCall() throws Exception {
        BlockingQueue<RxRequest> held = new LinkedBlockingQueue<>();
        PbAsyncServer holding = new PbAsyncServer() {
            @Override
            public CompletionStage<Void> add(RxRequest request, PbEntry entry) {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public CompletionStage<Integer> lookup(RxRequest request, String name) {
                held.add(request);
                return new CompletableFuture<>(); // answers never: only the caller's end can end it
            }

            @Override
            public CompletionStage<List<PbEntry>> list(RxRequest request) {
                return CompletableFuture.completedFuture(List.of());
            }
        };
        try (RxEndpoint s = RxEndpoint.builder().bind(LOOPBACK)
                     .service(PbAsyncDispatcher.service(PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE,
                             holding))
                     .open();
             RxEndpoint c = RxEndpoint.builder().bind(LOOPBACK).open();
             PbClient book = PbClient.connect(c, s.localAddress(), PhonebookExample.SERVICE_ID,
                     RxNullSecurityClass.INSTANCE);
             RxConnectionPool pool = RxConnectionPool.open(c, s.localAddress(), PhonebookExample.SERVICE_ID)) {
            for (PbClient client : List.of(book, new PbClient(pool))) {
                assertEquals(RxCodes.RX_CALL_TIMEOUT, endSeenByServer(held, client.lookupAsync("a"),
                        f -> f.orTimeout(1, TimeUnit.MILLISECONDS)));
                assertEquals(RxCodes.RX_CALL_TIMEOUT, endSeenByServer(held,
                        client.lookupAsync("b", Duration.ofMinutes(5)), f -> f.orTimeout(1, TimeUnit.MILLISECONDS)));
                assertEquals(RxCodes.RX_USER_ABORT, endSeenByServer(held, client.lookupAsync("c"),
                        f -> f.completeOnTimeout(0, 1, TimeUnit.MILLISECONDS)));
                assertEquals(RxCodes.RX_USER_ABORT, endSeenByServer(held, client.lookupAsync("d"), f -> {
                    f.cancel(true);
                    return f;
                }));
            }
        }
    }

    /**
     * Waits until the server's stage has the call, ends the caller's future with {@code end}, and returns the code the
     * stage's context was cancelled with (once it is).
     */
    private static int endSeenByServer(BlockingQueue<RxRequest> held, CompletableFuture<Integer> call,
            java.util.function.UnaryOperator<CompletableFuture<Integer>> end) throws Exception {
        RxRequest request = held.poll(30, TimeUnit.SECONDS);
        assertTrue(request != null, "the server never got the call");
        CompletableFuture<Integer> cancelled = new CompletableFuture<>();
        request.context().onCancel(() -> cancelled.complete(request.context().cancelCode()));
        CompletableFuture<Integer> ended = end.apply(call);
        try {
            ended.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.CancellationException expected) {
            // orTimeout and cancel fail the caller's future; completeOnTimeout completes it
        }
        return cancelled.get(30, TimeUnit.SECONDS);
    }
}
