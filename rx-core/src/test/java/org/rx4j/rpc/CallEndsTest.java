// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxErrorTables;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.stats.ProcedureMetrics;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.testing.CaptureLogger;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;
import org.slf4j.event.Level;

/**
 * A call's end as metrics, interceptors and the call log see it (docs/embedding.md "Metrics", "Interceptors", "Call
 * logs"), over real loopback calls with both endpoints on a {@link ManualClock} each. A client holds back its ACK of a
 * reply's last packet for the last-ack delay on its own clock, so the test decides when the server's call ends: the
 * server's clock moves after the reply was sent and before the client's clock lets that ACK go. The server's duration
 * is the time up to its reply, not up to that ACK, and all three report the same duration and code for a call.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class CallEndsTest {
    static final int SERVICE = 4716;
    /** Blocking: moves the server's clock 2 ms and the client's 3 ms, then replies with one byte. */
    static final int OP_GET = 2;
    /** Async: moves the server's clock 5 ms, then replies with one byte. */
    static final int OP_ASYNC = 3;
    /** Blocking: waits for {@link #release}, then replies with one byte. */
    static final int OP_HOLD = 4;
    static final int OP_UNKNOWN = 99;

    final ManualClock serverClock = new ManualClock();
    final ManualClock clientClock = new ManualClock();
    final CaptureLogger serverLog = new CaptureLogger(null);
    final CaptureLogger clientLog = new CaptureLogger(null);
    /** The server interceptor's end of the first call: {code, durationNs}. */
    final CompletableFuture<long[]> serverEnd = new CompletableFuture<>();
    final CompletableFuture<long[]> clientEnd = new CompletableFuture<>();
    /** The code of every client call's interceptor end, in order. */
    final List<Long> clientEndCodes = new CopyOnWriteArrayList<>();
    final CountDownLatch held = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_GET, (call, op) -> {
                    serverClock.advance(Duration.ofMillis(2));
                    clientClock.advance(Duration.ofMillis(3));
                    call.output().write(new byte[] {7});
                })
                .blocking(OP_HOLD, (call, op) -> {
                    held.countDown();
                    release.await(30, TimeUnit.SECONDS);
                    call.output().write(new byte[] {9});
                })
                .async(OP_ASYNC, req -> {
                    serverClock.advance(Duration.ofMillis(5));
                    return CompletableFuture.completedFuture(new byte[] {8});
                })
                .build();
        RxProcNames names = (s, op) -> op == OP_GET ? "KV_Get" : op == OP_ASYNC ? "KV_Put" : null;
        server = RxEndpoint.builder().clock(serverClock).bind(new InetSocketAddress("127.0.0.1", 0)).service(service)
                .procNames(names).serverInterceptor(info -> (code, ns) -> serverEnd.complete(new long[] {code, ns}))
                .open();
        // No packets above 1,444 bytes: the client's path-MTU probe (a PING, whose ack fields acknowledge the reply)
        // would otherwise end the server's call before the client's held ACK, once the server's first PING said the
        // loopback route carries large packets.
        client = RxEndpoint.builder().clock(clientClock).bind(new InetSocketAddress("127.0.0.1", 0)).procNames(names)
                .config(RxConfig.builder().maxMtu(1444).build())
                .clientInterceptor(info -> (code, ns) -> {
                    clientEndCodes.add((long) code);
                    clientEnd.complete(new long[] {code, ns});
                }).open();
        server.runtime().callLog = serverLog;
        client.runtime().callLog = clientLog;
    }

    @AfterEach
    void stop() {
        client.close(0);
        server.close(0);
    }

    private static byte[] op(int op, int bytes) {
        byte[] b = new byte[bytes];
        for (int i = 0; i < Math.min(4, bytes); i++) {
            b[i] = (byte) (op >>> (24 - 8 * i));
        }
        return b;
    }

    /** The reply arrived and the client holds its ACK back: the server's clock moves 100 ms. */
    private void serverClockMovesAfterTheReply() {
        assertFalse(serverEnd.isDone(), "the server's call waits for the client's ACK, held on the client's clock");
        serverClock.advance(Duration.ofMillis(100));
    }

    /** The reply arrived; the server's clock moves 100 ms, then the client's 1 s so its delayed ACK goes out. */
    private void ackAfterServerClockMoved() {
        serverClockMovesAfterTheReply();
        clientClock.advance(Duration.ofSeconds(1)); // past the client's last-ack delay (100 ms by default)
    }

    /** @return the server's call-log line for {@code proc} ("" or "/name(opcode)") ending with {@code end} */
    private String serverLine(String proc, String end) {
        return "server " + SERVICE + proc + " from " + client.localAddress() + " " + end;
    }

    /** @return the client's call-log line of a raw call (no opcode named) ending with {@code end} */
    private String clientLine(String end) {
        return "client " + SERVICE + " to " + server.localAddress() + " " + end;
    }

    private ProcedureMetrics serverMetrics(int opcode) {
        return server.metrics().stream().filter(p -> p.server() && p.opcode() == opcode).findFirst()
                .orElseThrow(() -> new AssertionError("no server metrics for " + opcode + ": " + server.metrics()));
    }

    @Test
    void serverDurationEndsWithTheReplyNotTheClientsAck() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        assertArrayEquals(new byte[] {7}, conn.call(op(OP_GET, 8)));
        ackAfterServerClockMoved();
        long[] end = serverEnd.get(30, TimeUnit.SECONDS); // the server's call ended on the client's ACK
        assertEquals(0, end[0]);
        assertEquals(2_000_000, end[1], "the handler's 2 ms, not the 100 ms the server's clock moved after the reply");
        server.close(10_000);
        assertEquals(List.of(serverLine("/KV_Get(2)", "code 0 (OK) in 2000 us")), serverLog.lines(Level.DEBUG));
    }

    @Test
    void asyncServerDurationEndsWithTheReply() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        assertArrayEquals(new byte[] {8}, conn.callAsync(op(OP_ASYNC, 4)).get(30, TimeUnit.SECONDS));
        ackAfterServerClockMoved();
        assertEquals(5_000_000, serverEnd.get(30, TimeUnit.SECONDS)[1]);
        server.close(10_000);
        assertEquals(5_000_000, serverMetrics(OP_ASYNC).latency().totalNs());
        assertEquals(List.of(serverLine("/KV_Put(3)", "code 0 (OK) in 5000 us")), serverLog.lines(Level.DEBUG));
    }

    @Test
    void interceptorMetricsAndLogAgreeOnBothSides() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        conn.call(op(OP_GET, 8));
        // A client call ends when its reply was read to its end: counted and logged before call() returned.
        long[] c = clientEnd.get(30, TimeUnit.SECONDS);
        ProcedureMetrics cm = client.metrics().get(0);
        assertEquals(List.of(0L, 3_000_000L, 1L, 3_000_000L), List.of(c[0], c[1], cm.calls(), cm.latency().totalNs()));
        assertEquals(List.of(clientLine("code 0 (OK) in 3000 us")), clientLog.lines(Level.DEBUG));
        ackAfterServerClockMoved();
        long[] s = serverEnd.get(30, TimeUnit.SECONDS);
        server.close(10_000);
        ProcedureMetrics sm = serverMetrics(OP_GET);
        assertEquals(List.of(0L, 2_000_000L, 1L, 2_000_000L), List.of(s[0], s[1], sm.calls(), sm.latency().totalNs()));
        assertEquals(List.of(serverLine("/KV_Get(2)", "code 0 (OK) in 2000 us")), serverLog.lines(Level.DEBUG));
    }

    @Test
    void aCallAbortedAfterItsReplyKeepsTheReplyTimeAndTheAbortCode() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        assertArrayEquals(new byte[] {7}, conn.call(op(OP_GET, 8)));
        serverClockMovesAfterTheReply();
        // The client goes away without acknowledging: its close aborts nothing it still runs, so the server's call
        // ends by its own close's abort.
        server.close(0);
        long[] s = serverEnd.get(30, TimeUnit.SECONDS);
        assertEquals(RxCodes.RX_USER_ABORT, s[0], "the call's final code");
        assertEquals(2_000_000, s[1], "the time up to the reply");
        assertEquals(2_000_000, serverMetrics(OP_GET).latency().totalNs());
        assertEquals(List.of(serverLine("/KV_Get(2)", "code -6 (RX_USER_ABORT, endpoint closing) in 2000 us")),
                serverLog.lines(Level.DEBUG));
    }

    @Test
    void everyRefusedServerCallHasItsLine() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        RxException unknown = assertThrows(RxException.class, () -> conn.call(op(OP_UNKNOWN, 8)));
        assertEquals(RxCodes.RXGEN_OPCODE, unknown.code());
        RxException shortRequest = assertThrows(RxException.class, () -> conn.call(new byte[] {0, 0}));
        assertEquals(RxCodes.RXGEN_DECODE, shortRequest.code());
        server.close(10_000); // every server call has ended
        assertEquals(List.of(
                serverLine("/99", "code -455 (RXGEN_OPCODE) in 0 us"),
                serverLine("", "code -454 (RXGEN_DECODE) in 0 us")),
                serverLog.lines(Level.DEBUG));
        assertEquals(List.of(
                serverLine("/99", "refused, no handler for opcode 99: code -455 (RXGEN_OPCODE)"),
                serverLine("", "refused, request shorter than an opcode: code -454 (RXGEN_DECODE)")),
                serverLog.lines(Level.TRACE));
        assertEquals(List.of(
                clientLine("code -455 (RXGEN_OPCODE) in 0 us"),
                clientLine("code -454 (RXGEN_DECODE) in 0 us")),
                clientLog.lines(Level.DEBUG));
    }

    @Test
    void aCallRefusedWhileTheServerClosesHasItsLine() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        // Own threads: the common pool may have a single thread on a small machine.
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CompletableFuture<byte[]> hold = CompletableFuture.supplyAsync(() -> {
                try {
                    return conn.call(op(OP_HOLD, 4));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, threads);
            assertTrue(held.await(30, TimeUnit.SECONDS));
            CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> server.close(10_000), threads);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!server.isClosing() && System.nanoTime() < until) { // bounded: the close starts on another thread
                Thread.onSpinWait();
            }
            RxException refused = assertThrows(RxException.class, () -> conn.call(op(OP_GET, 8)));
            assertEquals(RxCodes.RX_USER_ABORT, refused.code());
            release.countDown();
            assertArrayEquals(new byte[] {9}, hold.get(30, TimeUnit.SECONDS));
            clientClock.advance(Duration.ofSeconds(1)); // the held call's ACK goes out: the close ends
            closed.get(30, TimeUnit.SECONDS);
        } finally {
            threads.shutdown();
        }
        assertEquals(List.of(
                serverLine("", "code -6 (RX_USER_ABORT) in 0 us"),
                serverLine("/4", "code 0 (OK) in 0 us")),
                serverLog.lines(Level.DEBUG));
        assertEquals(List.of(serverLine("", "refused, endpoint closing: code -6 (RX_USER_ABORT)")),
                serverLog.lines(Level.TRACE));
    }

    @Test
    void callsRefusedByAnInterceptorOrTheMessageLimitHaveTheirLines() throws Exception {
        int refusedCode = 13;
        CaptureLogger log = new CaptureLogger(null);
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_GET, (call, op) -> call.output().write(new byte[] {7}))
                .async(OP_ASYNC, req -> CompletableFuture.completedFuture(new byte[] {8}))
                .build();
        RxEndpoint strict = RxEndpoint.builder().clock(serverClock).bind(new InetSocketAddress("127.0.0.1", 0))
                .service(service).maxMessageBytes(16).serverInterceptor(info -> {
                    if (info.opcode().orElse(-1) == OP_GET) {
                        throw RxException.local(refusedCode, "anonymous callers may not get");
                    }
                    return null;
                }).open();
        try {
            strict.runtime().callLog = log;
            RxConnection conn = client.connect(strict.localAddress(), SERVICE);
            assertEquals(refusedCode, assertThrows(RxException.class, () -> conn.call(op(OP_GET, 8))).code());
            RxException tooLarge = assertThrows(RxException.class, () -> conn.call(op(OP_ASYNC, 100)));
            assertEquals(RxCodes.RX_MSGSIZE, tooLarge.code());
            strict.close(10_000);
            String from = " from " + client.localAddress() + " ";
            assertEquals(List.of("server " + SERVICE + "/2" + from + "refused by an interceptor: code 13 (error 13):"
                    + " anonymous callers may not get"), log.lines(Level.TRACE));
            assertEquals(List.of(
                    "server " + SERVICE + "/2" + from + "code 13 (error 13) in 0 us",
                    "server " + SERVICE + "/3" + from + "code -8 (RX_MSGSIZE) in 0 us"),
                    log.lines(Level.DEBUG));
        } finally {
            strict.close(0);
        }
    }
    @Test
    void anAsyncReplyPastTheClientsLimitIsRxMsgsizeNotAShortReply() throws Exception {
        // The engine ends a client call when it reads the reply's last packet, before the listener is handed it:
        // a one-packet reply past the limit once came back as a success with an empty reply.
        RxService service = RxService.builder(SERVICE)
                .async(OP_ASYNC, req -> CompletableFuture.completedFuture(new byte[100]))
                .build();
        RxEndpoint big = RxEndpoint.builder().clock(serverClock).bind(new InetSocketAddress("127.0.0.1", 0))
                .service(service).open();
        RxEndpoint strict = RxEndpoint.builder().clock(clientClock).bind(new InetSocketAddress("127.0.0.1", 0))
                .maxMessageBytes(16).open();
        try {
            RxConnection conn = strict.connect(big.localAddress(), SERVICE);
            java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> conn.callAsync(op(OP_ASYNC, 4)).get(30, TimeUnit.SECONDS));
            RxException tooLarge = (RxException) e.getCause();
            assertEquals(RxCodes.RX_MSGSIZE, tooLarge.code());
            assertEquals("reply larger than 16 bytes", tooLarge.getMessage().replaceAll(".*: ", ""));
        } finally {
            strict.close(0);
            big.close(0);
        }
    }

    @Test
    void logLinesNameTheCodeAsTheErrorTablesDo() {
        RxErrorTables.register("cet", java.util.Map.of(19_270_999, new String[] {"CET_NOPE", "not here"}));
        assertEquals("OK", CallHooks.codeName(0));
        assertEquals("RXGEN_OPCODE", CallHooks.codeName(RxCodes.RXGEN_OPCODE));
        assertEquals("CET_NOPE", CallHooks.codeName(19_270_999), "a registered table's name");
        assertEquals("error 19270998", CallHooks.codeName(19_270_998), "no table lists it");
    }

    @Test
    void aBlockingCallOnAClosedConnectionIsCountedAndLogged() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        conn.close();
        RxException refused = assertThrows(RxException.class, () -> conn.call(OP_GET, w -> { }, r -> null));
        assertEquals(RxCodes.RX_INVALID_OPERATION, refused.code());
        assertEquals(RxCodes.RX_INVALID_OPERATION, clientEnd.get(30, TimeUnit.SECONDS)[0], "the interceptor's end");
        assertEquals(List.of("client " + SERVICE + "/KV_Get(2) to " + server.localAddress() + " code -2"
                + " (RX_INVALID_OPERATION, connection closed) in 0 us"), clientLog.lines(Level.DEBUG),
                "the log names the reason, as the exception does");
        assertEquals(RxException.Reason.CONNECTION_CLOSED, refused.reason());
        ProcedureMetrics m = client.metrics(false, SERVICE, OP_GET).orElseThrow();
        assertEquals(List.of(1L, Map.of(RxCodes.RX_INVALID_OPERATION, 1L)), List.of(m.calls(), m.errorsByCode()));
    }

    @Test
    void aTypedCallWhoseArgumentsFailToMarshalIsCountedLoggedAndEnded() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        XdrMarshaller tooLong = w -> w.writeString("x".repeat(200), 128);
        RxException blocking = assertThrows(RxException.class, () -> conn.call(OP_GET, tooLong, r -> null));
        assertEquals(RxCodes.RXGEN_CC_MARSHAL, blocking.code());
        // The call had reached the loop: its abort ends it there; a task queued after it runs once that end is done.
        client.runtime().transport.submit(engine -> null).get(30, TimeUnit.SECONDS);
        assertEquals(RxCodes.RXGEN_CC_MARSHAL, clientEnd.get(30, TimeUnit.SECONDS)[0], "the interceptor's end");
        ExecutionException async = assertThrows(ExecutionException.class,
                () -> conn.callAsync(OP_ASYNC, tooLong, r -> null).get(30, TimeUnit.SECONDS));
        assertEquals(RxCodes.RXGEN_CC_MARSHAL, ((RxException) async.getCause()).code());
        assertEquals(List.of((long) RxCodes.RXGEN_CC_MARSHAL, (long) RxCodes.RXGEN_CC_MARSHAL), clientEndCodes);
        String to = " to " + server.localAddress() + " ";
        assertEquals(List.of(
                "client " + SERVICE + "/KV_Get(2)" + to + "code -450 (RXGEN_CC_MARSHAL) in 0 us",
                "client " + SERVICE + "/KV_Put(3)" + to + "code -450 (RXGEN_CC_MARSHAL) in 0 us"),
                clientLog.lines(Level.DEBUG));
        for (int op : new int[] {OP_GET, OP_ASYNC}) {
            ProcedureMetrics m = client.metrics().stream().filter(p -> !p.server() && p.opcode() == op).findFirst()
                    .orElseThrow(() -> new AssertionError("no client metrics for " + op + ": " + client.metrics()));
            assertEquals(List.of(1L, Map.of(RxCodes.RXGEN_CC_MARSHAL, 1L)), List.of(m.calls(), m.errorsByCode()));
        }
    }
}
