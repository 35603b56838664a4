// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.perf.protocol.FileWords;
import org.rx4j.perf.protocol.PayloadMismatchException;
import org.rx4j.perf.protocol.RxperfClientWorkload;
import org.rx4j.perf.protocol.RxperfCommand;
import org.rx4j.perf.protocol.RxperfProtocol;
import org.rx4j.perf.protocol.RxperfProtocolException;
import org.rx4j.perf.protocol.RxperfRequest;
import org.rx4j.perf.protocol.RxperfServerHandler;
import org.rx4j.perf.transport.PerfCall;
import org.rx4j.perf.transport.PerfCallException;
import org.rx4j.perf.transport.PerfClientTransport;
import org.rx4j.perf.transport.PerfConnection;
import org.rx4j.perf.transport.RxperfAbortException;

/**
 * The driver's async form (an RPC, SEND or RECV run on a transport with {@link PerfConnection#callAsync}): {@code -t} chains of
 * whole calls completed on one "event loop" thread (a single-thread executor standing in for the transport's),
 * answered by the real {@link RxperfServerHandler#handleSmall}. Exact call counts per connection, payload and
 * latency figures, the timed-run accounting on an injected clock, and failures: the first failing call stops the
 * run and surfaces as itself (an aborted call with its Rx code, a bad reply as rxperf's protocol errors).
 */
@Timeout(60)
class AsyncDriveTest {
    private static final long MS = 1_000_000L;
    private static final int CHUNK = 524288;
    private static final InetSocketAddress SERVER = new InetSocketAddress("127.0.0.1", 7009);

    private final ExecutorService loop = Executors.newSingleThreadExecutor(r -> new Thread(r, "fake-loop"));
    private final RxperfServerHandler handler = new RxperfServerHandler(true, line -> { });
    private final List<LoopConnection> connections = new ArrayList<>();
    /** Call number (1-based, over the whole run) that fails with {@link #failCode}; 0 for none. */
    private int failAt;
    private int failCode;
    /** Applied to every reply before the client sees it. */
    private UnaryOperator<byte[]> tamper = UnaryOperator.identity();
    private final AtomicInteger callsStarted = new AtomicInteger();

    @AfterEach
    void stop() {
        loop.shutdownNow();
    }

    /** A connection whose calls are answered on the fake loop; blocking calls are refused (must not be used). */
    private final class LoopConnection implements PerfConnection {
        final AtomicInteger calls = new AtomicInteger();
        volatile boolean closed;

        @Override
        public PerfCall newCall() {
            throw new UnsupportedOperationException("the async run must not make blocking calls");
        }

        @Override
        public boolean supportsAsync() {
            return true;
        }

        @Override
        public CompletableFuture<byte[]> callAsync(byte[] request) {
            CompletableFuture<byte[]> f = new CompletableFuture<>();
            if (closed) {
                f.completeExceptionally(new IOException("connection closed"));
                return f;
            }
            calls.incrementAndGet();
            int n = callsStarted.incrementAndGet();
            loop.execute(() -> {
                if (n == failAt) {
                    f.completeExceptionally(new PerfCallException(failCode, "aborted by the fake server"));
                    return;
                }
                try {
                    assertTrue(handler.isSmallCall(request, Math.min(request.length, 24), request.length <= 24));
                    byte[] rest = java.util.Arrays.copyOfRange(request, 4, request.length);
                    f.complete(tamper.apply(handler.handleSmall(RxperfProtocol.VERSION, rest).clone()));
                } catch (RxperfAbortException | RuntimeException | AssertionError e) {
                    f.completeExceptionally(e);
                }
            });
            return f;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final PerfClientTransport transport = new PerfClientTransport() {
        @Override
        public PerfConnection connect(InetSocketAddress server, int serviceId) {
            LoopConnection c = new LoopConnection();
            connections.add(c);
            return c;
        }

        @Override
        public Map<String, Long> stats() {
            return Map.of();
        }

        @Override
        public void close() {
        }
    };

    private RunResult run(RxperfRequest request, int threads, RunSchedule schedule, AtomicLong clock)
            throws Exception {
        ClientDriver driver = new ClientDriver(request, threads, schedule, true, true,
                () -> clock.addAndGet(MS), () -> 1000);
        return driver.run(transport, SERVER, RxperfProtocol.SERVICE_ID, new LongAdder(), s -> { });
    }

    private static RxperfRequest rpc(int send, int receive) {
        return new RxperfRequest(RxperfCommand.RPC, 0, send, receive, CHUNK, CHUNK, null);
    }

    @Test
    void countedRunMakesExactlyThreadsTimesCallsSpreadOverItsConnections() throws Exception {
        RunResult r = run(rpc(4, 30), 8, RunSchedule.calls(25), new AtomicLong());
        assertEquals(200, r.calls());
        assertEquals(0, r.omittedCalls());
        assertEquals(2, r.connections());
        assertEquals(200L * 34, r.payloadBytes());
        assertEquals(200, r.latencyNanos().getTotalCount());
        assertEquals(2, connections.size());
        assertEquals(100, connections.get(0).calls.get(), "chains 0..3 on the first connection");
        assertEquals(100, connections.get(1).calls.get(), "chains 4..7 on the second");
        assertEquals(200, handler.calls());
        assertTrue(connections.get(0).closed && connections.get(1).closed, "the run closes its connections");
    }

    @Test
    void timedRunCountsAsTheThreadedRunDoes() throws Exception {
        // the same clock readings as TimedRunTest's threaded run: loop check, begin, end (3 ms per call), start 1 ms;
        // omit 10 ms leaves out the calls ending at 4, 7, 10 ms; 30 calls end at 13 .. 100 ms; end reading 102 ms
        RunResult r = run(rpc(4, 4), 1, RunSchedule.timed(100 * MS, 10 * MS), new AtomicLong());
        assertEquals(3, r.omittedCalls());
        assertEquals(30, r.calls());
        assertEquals(30L * 8, r.payloadBytes());
        assertEquals(30, r.latencyNanos().getTotalCount());
        assertEquals(91 * MS, r.elapsedNanos());
    }

    @Test
    void abortedCallStopsTheRunWithItsCode() {
        failAt = 7;
        failCode = RxperfProtocol.ABORT_REJECTED;
        PerfCallException e = assertThrows(PerfCallException.class,
                () -> run(rpc(4, 4), 1, RunSchedule.calls(100), new AtomicLong()));
        assertEquals(-1, e.code());
        assertEquals(7, callsStarted.get(), "one chain: no call after the failed 7th");
        assertEquals(6, handler.calls());
    }

    @Test
    void abortInOneChainEndsTheOthers() {
        failAt = 50;
        failCode = 4711;
        PerfCallException e = assertThrows(PerfCallException.class,
                () -> run(rpc(4, 4), 8, RunSchedule.calls(1000), new AtomicLong()));
        assertEquals(4711, e.code());
        assertTrue(callsStarted.get() < 8000, "the other chains stopped: " + callsStarted.get());
    }

    @Test
    void wrongReplyPayloadFailsVerification() {
        tamper = reply -> {
            reply[3] ^= 1;
            return reply;
        };
        PayloadMismatchException e = assertThrows(PayloadMismatchException.class,
                () -> run(rpc(4, 30), 1, RunSchedule.calls(3), new AtomicLong()));
        assertTrue(e.getMessage().contains("RPC reply"), e.getMessage());
        assertEquals(1, callsStarted.get());
    }

    @Test
    void wrongCookieAndShortReplyAreProtocolErrors() {
        tamper = reply -> {
            reply[reply.length - 1] = 0;
            return reply;
        };
        RxperfProtocolException cookie = assertThrows(RxperfProtocolException.class,
                () -> run(rpc(4, 4), 1, RunSchedule.calls(3), new AtomicLong()));
        assertTrue(cookie.getMessage().contains("cookie 0x00004700"), cookie.getMessage());
        tamper = reply -> java.util.Arrays.copyOf(reply, 2);
        RxperfProtocolException shortReply = assertThrows(RxperfProtocolException.class,
                () -> run(rpc(4, 4), 1, RunSchedule.calls(3), new AtomicLong()));
        assertEquals("RPC reply ended after 2 of 4 payload bytes", shortReply.getMessage());
    }

    @Test
    void sendAndRecvRunsAreWholeCallsWithTheirPayloadInOneDirection() throws Exception {
        RunResult send = run(new RxperfRequest(RxperfCommand.SEND, 30_000, 0, 0, CHUNK, CHUNK, null), 2,
                RunSchedule.calls(5), new AtomicLong());
        assertEquals(10, send.calls());
        assertEquals(10L * 30_000, send.payloadBytes(), "the request's payload, none in the reply");
        RunResult recv = run(new RxperfRequest(RxperfCommand.RECV, 30_000, 0, 0, CHUNK, CHUNK, null), 2,
                RunSchedule.calls(5), new AtomicLong());
        assertEquals(10, recv.calls());
        assertEquals(10L * 30_000, recv.payloadBytes(), "the reply's payload");
        assertEquals(20, handler.calls(), "every call served by the server's handler, its payload checked");
    }

    @Test
    void aRecvReplyThatBreaksThePatternFailsVerification() {
        tamper = reply -> {
            reply[20_000] ^= 1;
            return reply;
        };
        PayloadMismatchException e = assertThrows(PayloadMismatchException.class,
                () -> run(new RxperfRequest(RxperfCommand.RECV, 30_000, 0, 0, CHUNK, CHUNK, null), 1,
                        RunSchedule.calls(3), new AtomicLong()));
        assertTrue(e.getMessage().contains("RECV reply") && e.getMessage().contains("20000"), e.getMessage());
    }

    @Test
    void rpcSendAndRecvRunsWithinTheLimitAreDrivenAsyncFileRunsNever() throws Exception {
        int max = ClientDriver.ASYNC_CALL_MAX_BYTES;
        assertTrue(RxperfClientWorkload.fitsWholeCall(rpc(4, 4), max));
        assertFalse(RxperfClientWorkload.fitsWholeCall(rpc(4, max + 1), max));
        assertFalse(RxperfClientWorkload.fitsWholeCall(rpc(max + 1, 4), max));
        assertTrue(RxperfClientWorkload.fitsWholeCall(
                new RxperfRequest(RxperfCommand.SEND, max, 0, 0, CHUNK, CHUNK, null), max));
        assertFalse(RxperfClientWorkload.fitsWholeCall(
                new RxperfRequest(RxperfCommand.SEND, max + 1, 0, 0, CHUNK, CHUNK, null), max));
        assertTrue(RxperfClientWorkload.fitsWholeCall(
                new RxperfRequest(RxperfCommand.RECV, max, 0, 0, CHUNK, CHUNK, null), max));
        assertFalse(RxperfClientWorkload.fitsWholeCall(
                new RxperfRequest(RxperfCommand.RECV, max + 1, 0, 0, CHUNK, CHUNK, null), max));
        FileWords words = FileWords.parse("w.txt", new BufferedReader(new StringReader("1\n")));
        assertFalse(RxperfClientWorkload.fitsWholeCall(
                new RxperfRequest(RxperfCommand.FILE, 0, 0, 0, CHUNK, CHUNK, words), max));
    }
}
