// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.stream.CallStreams;
import org.rx4j.testing.LeakCheckExtension;

/**
 * Split calls in the non-blocking form ({@link RxAsyncStreams}, {@link RxStreamHandler}) over real loopback sockets:
 * a FetchData-shaped call served by a stream handler publishing chunks on demand and read by a client subscriber,
 * a StoreData-shaped one the other way, a subscriber's cancel and a deadline. The fetch asserts that memory stays
 * flat: the bytes inside rx4j (published by the server's publisher, not yet delivered to the client's subscriber)
 * never exceed a few windows, although the subscriber stops asking for data several times; and that no thread waits
 * for the call (no worker runs a handler, nothing waits in the blocking streams). Its size is
 * {@code -Drx4j.asyncFetchBytes} (default 64 MiB; {@code scripts/bench/async-fetch.sh} runs 1 GiB). The bulk bytes
 * carry "byte k is k mod 251", checked byte by byte. Buffers are counted as in {@link SplitCallTest}.
 */
@Timeout(300)
class AsyncStreamsTest {
    static final int SERVICE = 1;
    static final int OP_FETCH = 130;
    static final int OP_STORE = 133;
    static final int OP_STALL = 140;
    static final int STATUS_OK = 0x600d;
    static final int CHUNK = 16 * 1024;
    /**
     * Most bytes rx4j may hold between the two applications, bytes: the client's staging ({@link CallStreams#INBOX_LIMIT}
     * plus the one staged buffer that crosses it), the server's send buffer (2 × twind packets) and the client's
     * receive window (rwind packets), windows of 32 packets of at most 65,535 bytes on loopback (rx-wire-facts.md §5),
     * and the server's chunk in hand: about 6.8 MB, a few windows, whatever the transfer's size.
     */
    static final long HELD_BOUND = CallStreams.INBOX_LIMIT + 65_535 + (2 * 32 + 32) * 65_535L + CHUNK;

    RxEndpoint server;
    RxEndpoint client;
    final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    /** What the server's handlers saw: their calls' cancel codes (0 while not cancelled). */
    final List<Integer> serverCancelCodes = new ArrayList<>();
    final AtomicBoolean serverPublisherCancelled = new AtomicBoolean();
    final CompletableFuture<Integer> serverSawEnd = new CompletableFuture<>();
    final AtomicLong published = new AtomicLong();

    @BeforeEach
    void start() throws Exception {
        LeakCheckExtension.resetLeakCount();
        RxService service = RxService.builder(SERVICE)
                .stream(OP_FETCH, (s, op) -> {
                    s.call().context().onCancel(() -> serverSawEnd.complete(s.call().context().cancelCode()));
                    return s.receiveXdr(r -> new long[] {r.readInt(), r.readLong()}).thenCompose(args -> {
                        int fileId = (int) args[0];
                        long length = args[1];
                        return s.send(xdr(w -> w.writeLong(length)))
                                .thenCompose(v -> s.send(new PatternPublisher(length, published,
                                        serverPublisherCancelled)))
                                .thenCompose(v -> s.send(xdr(w -> {
                                    w.writeInt(fileId);
                                    w.writeInt(STATUS_OK);
                                })));
                    });
                })
                .stream(OP_STORE, (s, op) -> s.receiveXdr(r -> r.readLong()).thenCompose(length -> {
                    PatternChecker check = new PatternChecker(length, null, null);
                    s.receive(length).subscribe(check);
                    return check.done.thenCompose(n -> s.send(xdr(w -> {
                        w.writeLong(n);
                        w.writeInt(STATUS_OK);
                    })));
                }))
                .stream(OP_STALL, (s, op) -> {
                    s.call().context().onCancel(() -> serverSawEnd.complete(s.call().context().cancelCode()));
                    return new CompletableFuture<>(); // never sends: the client's deadline ends the call
                })
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(service);
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        later.shutdownNow();
        client.close();
        server.close();
        LeakCheckExtension.assertNoLeaks();
    }

    static byte[] xdr(XdrMarshaller m) {
        try {
            return XdrMarshaller.toBytes(XdrSide.SERVER, m);
        } catch (java.io.IOException e) {
            throw new CompletionException(e);
        }
    }

    @Test
    void fetchServedByAsyncHandlerKeepsMemoryFlatAndHoldsNoThread() throws Exception {
        long length = Long.getLong("rx4j.asyncFetchBytes", 64L << 20);
        long t0 = System.nanoTime();
        long heapBefore = heapAfterGc();
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        RxAsyncStreams a = conn.newCall(RxCallOptions.DEFAULT.withOpcode(OP_FETCH)).async();
        a.send(xdr(w -> {
            w.writeInt(77);
            w.writeLong(length);
        }));
        CompletableFuture<Long> announced = a.receiveBytes(8).thenApply(b -> ByteBuffer.wrap(b).getLong());
        PatternChecker check = new PatternChecker(length, published, later);
        a.receive(length).subscribe(check);
        CompletableFuture<byte[]> results = a.receiveRest();
        assertEquals(length, announced.get(60, TimeUnit.SECONDS));
        assertEquals(length, check.done.get(240, TimeUnit.SECONDS));
        ByteBuffer r = ByteBuffer.wrap(results.get(30, TimeUnit.SECONDS));
        assertEquals(77, r.getInt());
        assertEquals(STATUS_OK, r.getInt());
        a.call().completion().get(30, TimeUnit.SECONDS);
        long wallMs = (System.nanoTime() - t0) / 1_000_000;
        long heapAfter = heapAfterGc();
        System.out.printf("async fetch: %d bytes in %d ms, peak held in rx4j %d bytes, %d pauses, heap after GC"
                + " %d -> %d bytes, peak heap after GC during the transfer %d bytes%n", length, wallMs,
                check.peakHeld, check.pauses, heapBefore, heapAfter, check.peakHeap);
        assertTrue(check.peakHeld <= HELD_BOUND, "rx4j held " + check.peakHeld + " bytes at once");
        assertTrue(check.pauses >= 2, "the subscriber paused " + check.pauses + " times");
        assertTrue(check.threadSamples >= 2, "threads sampled " + check.threadSamples + " times");
        assertNull(check.waitingThread, () -> "a thread waited for the call: " + check.waitingThread);
        assertTrue(check.peakHeap - heapBefore < (64L << 20),
                "heap grew by " + (check.peakHeap - heapBefore) + " bytes during the transfer");
        assertFalse(serverSawEnd.isDone(), "the server's call was cancelled");
    }

    @Test
    void storeFromAsyncClientToAsyncHandler() throws Exception {
        long length = 8L << 20;
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        RxAsyncStreams a = conn.newCall(RxCallOptions.DEFAULT.withOpcode(OP_STORE)).async();
        a.send(xdr(w -> w.writeLong(length)));
        AtomicLong sent = new AtomicLong();
        a.send(new PatternPublisher(length, sent, new AtomicBoolean()));
        ByteBuffer r = ByteBuffer.wrap(a.receiveRest().get(60, TimeUnit.SECONDS));
        assertEquals(length, r.getLong());
        assertEquals(STATUS_OK, r.getInt());
        assertEquals(length, sent.get());
        a.call().completion().get(30, TimeUnit.SECONDS);
    }

    @Test
    void subscriberCancelAbortsTheCallAndTheHandlerSeesIt() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        RxAsyncStreams a = conn.newCall(RxCallOptions.DEFAULT.withOpcode(OP_FETCH)).async();
        long length = 1L << 30; // never sent whole: the subscriber cancels after 1 MiB
        a.send(xdr(w -> {
            w.writeInt(1);
            w.writeLong(length);
        }));
        a.receiveBytes(8);
        CompletableFuture<Long> cancelledAt = new CompletableFuture<>();
        a.receive(length).subscribe(new Flow.Subscriber<>() {
            Flow.Subscription s;
            long got;

            @Override
            public void onSubscribe(Flow.Subscription s) {
                this.s = s;
                s.request(16);
            }

            @Override
            public void onNext(ByteBuffer item) {
                got += item.remaining();
                if (got >= (1 << 20) && !cancelledAt.isDone()) {
                    s.cancel();
                    cancelledAt.complete(got);
                } else {
                    s.request(1);
                }
            }

            @Override
            public void onError(Throwable t) {
                cancelledAt.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                cancelledAt.completeExceptionally(new AssertionError("completed"));
            }
        });
        assertTrue(cancelledAt.get(30, TimeUnit.SECONDS) >= 1 << 20);
        ExecutionException e = assertFailsWith(a.call().completion());
        RxException rx = assertInstanceOf(RxException.class, e.getCause());
        assertEquals(RxCodes.RX_USER_ABORT, rx.code());
        assertFalse(rx.remote());
        assertEquals(RxCodes.RX_USER_ABORT, serverSawEnd.get(30, TimeUnit.SECONDS));
        waitFor(serverPublisherCancelled);
    }

    @Test
    void orTimeoutOnTheResultsAbortsTheCallWithTimeout() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        RxAsyncStreams a = conn.newCall(RxCallOptions.DEFAULT.withOpcode(OP_STALL)).async();
        CompletableFuture<byte[]> rest = a.abortOnFailure(a.receiveRest().orTimeout(200, TimeUnit.MILLISECONDS));
        ExecutionException e = assertFailsWith(rest);
        assertInstanceOf(java.util.concurrent.TimeoutException.class, e.getCause());
        RxException rx = assertInstanceOf(RxException.class, assertFailsWith(a.call().completion()).getCause());
        assertEquals(RxCodes.RX_CALL_TIMEOUT, rx.code());
        assertEquals(RxCodes.RX_CALL_TIMEOUT, serverSawEnd.get(30, TimeUnit.SECONDS));
    }

    @Test
    void callDeadlineEndsAPendingReceive() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        RxAsyncStreams a = conn.newCall(RxCallOptions.DEFAULT.withOpcode(OP_STALL)
                .withTimeout(java.time.Duration.ofMillis(300))).async();
        RxException rx = assertInstanceOf(RxException.class, assertFailsWith(a.receiveRest()).getCause());
        assertEquals(RxCodes.RX_CALL_TIMEOUT, rx.code());
        assertEquals(RxCodes.RX_CALL_TIMEOUT, serverSawEnd.get(30, TimeUnit.SECONDS));
    }

    @Test
    void closingTheEndpointFailsPendingSendsAndReceives() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        RxAsyncStreams a = conn.newCall(RxCallOptions.DEFAULT.withOpcode(OP_STALL)).async();
        CompletableFuture<byte[]> rest = a.receiveRest();
        assertFalse(rest.isDone());
        client.close();
        RxException rx = assertInstanceOf(RxException.class, assertFailsWith(rest).getCause());
        assertEquals(RxCodes.RX_USER_ABORT, rx.code());
        assertInstanceOf(RxException.class, assertFailsWith(a.send(new byte[1])).getCause());
    }

    static ExecutionException assertFailsWith(CompletableFuture<?> f) throws Exception {
        try {
            f.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e;
        }
        return fail("completed normally");
    }

    static void waitFor(AtomicBoolean flag) throws InterruptedException {
        for (int i = 0; i < 3000 && !flag.get(); i++) {
            Thread.sleep(10); // the cancel reaches the publisher on the server's loop after the abort arrives
        }
        assertTrue(flag.get());
    }

    static long heapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * @return a thread of rx4j's that waits for a call (a worker running a handler, or anything in the blocking
     *     streams' wait), or null
     */
    static String threadWaitingForACall() {
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            for (StackTraceElement f : e.getValue()) {
                if (f.getClassName().equals(CallStreams.class.getName()) && f.getMethodName().equals("await")
                        || f.getClassName().equals("org.rx4j.rpc.server.BlockingServerCall")) {
                    return e.getKey().getName();
                }
            }
        }
        return null;
    }

    /** Publishes "byte k is k mod 251" in chunks of {@link #CHUNK} bytes, as requested; counts what it published. */
    static final class PatternPublisher implements Flow.Publisher<ByteBuffer> {
        private final long length;
        private final AtomicLong published;
        private final AtomicBoolean cancelled;

        PatternPublisher(long length, AtomicLong published, AtomicBoolean cancelled) {
            this.length = length;
            this.published = published;
            this.cancelled = cancelled;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> sub) {
            sub.onSubscribe(new Flow.Subscription() {
                long offset;
                long demand;
                boolean emitting;
                boolean done;
                final ByteBuffer buf = ByteBuffer.allocate(CHUNK); // reused: the call copies each chunk

                @Override
                public synchronized void request(long n) {
                    demand += n;
                    if (emitting) {
                        return;
                    }
                    emitting = true;
                    while (demand > 0 && !done) {
                        if (offset == length) {
                            done = true;
                            sub.onComplete();
                            break;
                        }
                        int k = (int) Math.min(CHUNK, length - offset);
                        buf.clear();
                        for (int i = 0; i < k; i++) {
                            buf.put((byte) ((offset + i) % 251));
                        }
                        buf.flip();
                        offset += k;
                        demand--;
                        published.addAndGet(k);
                        sub.onNext(buf);
                    }
                    emitting = false;
                }

                @Override
                public synchronized void cancel() {
                    done = true;
                    cancelled.set(true);
                }
            });
        }
    }

    /**
     * Checks "byte k is k mod 251" over {@code length} bytes. With a publisher's count, it checks at every chunk
     * that rx4j holds at most {@link #HELD_BOUND} bytes, and (with {@code later}) stops asking for data at four
     * points for 50 ms so that the window closes, and samples the JVM's threads and heap there.
     */
    static final class PatternChecker implements Flow.Subscriber<ByteBuffer> {
        final CompletableFuture<Long> done = new CompletableFuture<>();
        private final long length;
        private final AtomicLong published;
        private final ScheduledExecutorService later;
        private Flow.Subscription s;
        private long got;
        private long nextPause;
        long peakHeld;
        long peakHeap;
        int pauses;
        int threadSamples;
        String waitingThread;

        PatternChecker(long length, AtomicLong published, ScheduledExecutorService later) {
            this.length = length;
            this.published = published;
            this.later = later;
            this.nextPause = length / 5;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            this.s = s;
            s.request(1); // one at a time, so that a pause stops the demand at once
        }

        @Override
        public void onNext(ByteBuffer item) {
            while (item.hasRemaining()) {
                byte b = item.get();
                if (b != (byte) (got % 251)) {
                    done.completeExceptionally(new AssertionError("byte " + got + " is " + b));
                    s.cancel();
                    return;
                }
                got++;
            }
            if (published != null) {
                peakHeld = Math.max(peakHeld, published.get() - got);
            }
            if (later != null && got >= nextPause && got < length) {
                nextPause += length / 5;
                pauses++;
                later.schedule(() -> {
                    // The window is closed by now: sample what holds memory and threads, then go on.
                    peakHeld = Math.max(peakHeld, published.get() - got);
                    peakHeap = Math.max(peakHeap, heapAfterGc());
                    threadSamples++;
                    if (waitingThread == null) {
                        waitingThread = threadWaitingForACall();
                    }
                    s.request(1);
                }, 50, TimeUnit.MILLISECONDS);
                return;
            }
            s.request(1);
        }

        @Override
        public void onError(Throwable t) {
            done.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            if (got != length) {
                done.completeExceptionally(new AssertionError("completed after " + got + " of " + length));
            } else {
                done.complete(got);
            }
        }
    }
}
