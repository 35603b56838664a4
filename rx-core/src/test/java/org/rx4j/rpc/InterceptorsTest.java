// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxkadEndpointTest;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.stats.ProcedureMetrics;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interceptors on both sides (docs/embedding.md "Interceptors") over loopback: what they see (service, opcode,
 * procedure name, peer, identity), the end they wrap around a call with its code, and a refusal: a server
 * interceptor's code reaches the client as the abort and the handler never runs; a client interceptor's exception
 * reaches the caller and nothing is sent. Each interceptor records one line per event in a queue.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class InterceptorsTest {
    static final int SERVICE = 4200;
    static final int OP_ECHO = 7;
    static final int OP_ASYNC = 8;
    static final int OP_FORBIDDEN = 9;
    static final int REFUSED = 4711;

    final BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    final AtomicInteger handlerRuns = new AtomicInteger();
    RxEndpoint server;
    RxEndpoint client;

    static String name(int service, int opcode) {
        return service != SERVICE ? null : switch (opcode) {
            case OP_ECHO -> "Echo";
            case OP_ASYNC -> "AsyncEcho";
            case OP_FORBIDDEN -> "Forbidden";
            default -> null;
        };
    }

    /** Records what a server interceptor sees; refuses OP_FORBIDDEN with {@link #REFUSED}. */
    final RxServerInterceptor serverSide = call -> {
        seen.add("server in " + call.serviceId() + " " + call.opcode() + " " + call.procName().orElse("?")
                + " from client=" + call.peer().equals(client.localAddress())
                + " identity=" + call.identity().map(CallerIdentity::principal).orElse("anonymous"));
        if (call.opcode().equals(OptionalInt.of(OP_FORBIDDEN))) {
            throw RxException.local(REFUSED, "not allowed");
        }
        return (code, ns) -> seen.add("server end " + call.procName().orElse("?") + " " + code + " ns>=0="
                + (ns >= 0));
    };

    final RxClientInterceptor clientSide = call -> {
        seen.add("client out " + call.serviceId() + " " + call.opcode() + " " + call.procName().orElse("?")
                + " to server=" + call.peer().equals(server.localAddress()));
        return (code, ns) -> seen.add("client end " + code);
    };

    void open(RxEndpoint.Builder serverBuilder) throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_ECHO, (call, op) -> {
                    handlerRuns.incrementAndGet();
                    call.output().write(call.input().readAllBytes());
                })
                .async(OP_ASYNC, req -> {
                    handlerRuns.incrementAndGet();
                    return CompletableFuture.completedFuture(req.arguments());
                })
                .blocking(OP_FORBIDDEN, (call, op) -> handlerRuns.incrementAndGet())
                .build();
        server = serverBuilder.bind(new InetSocketAddress("127.0.0.1", 0)).serverInterceptor(serverSide)
                .procNames(InterceptorsTest::name).service(service).open();
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).clientInterceptor(clientSide)
                .procNames(InterceptorsTest::name).open();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private String next() throws InterruptedException {
        String s = seen.poll(20, TimeUnit.SECONDS);
        assertTrue(s != null, "an interceptor event is missing");
        return s;
    }

    private static XdrMarshaller text(String s) {
        return w -> w.writeString(s, 100);
    }

    @Test
    void bothSidesSeeTheCallAndWrapItsEnd() throws Exception {
        open(RxEndpoint.builder());
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        String reply = conn.call(OP_ECHO, text("hi"), r -> r.readString(100));
        assertEquals("hi", reply);
        assertEquals("client out " + SERVICE + " OptionalInt[7] Echo to server=true", next());
        assertEquals("server in " + SERVICE + " OptionalInt[7] Echo from client=true identity=anonymous", next());
        // the two ends run on different endpoints' loops: compare them as a set
        List<String> ends = List.of(next(), next());
        assertTrue(ends.contains("server end Echo 0 ns>=0=true"), ends.toString());
        assertTrue(ends.contains("client end 0"), ends.toString());

        assertEquals("hi", conn.callAsync(OP_ASYNC, text("hi"), r -> r.readString(100)).join());
        assertEquals("client out " + SERVICE + " OptionalInt[8] AsyncEcho to server=true", next());
        assertEquals("server in " + SERVICE + " OptionalInt[8] AsyncEcho from client=true identity=anonymous",
                next());
        ends = List.of(next(), next());
        assertTrue(ends.contains("server end AsyncEcho 0 ns>=0=true"), ends.toString());
        assertTrue(ends.contains("client end 0"), ends.toString());
        assertEquals(2, handlerRuns.get());
    }

    @Test
    void aRawStreamCallHasNoOpcodeOnTheClient() throws Exception {
        open(RxEndpoint.builder());
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        byte[] request = {0, 0, 0, OP_ECHO, 'x'};
        assertEquals("x", new String(conn.call(request), StandardCharsets.US_ASCII));
        assertEquals("client out " + SERVICE + " OptionalInt.empty ? to server=true", next());
        assertEquals("server in " + SERVICE + " OptionalInt[7] Echo from client=true identity=anonymous", next());
    }

    @Test
    void aStreamCallStartedWithItsOpcodeShowsItOnBothSides() throws Exception {
        open(RxEndpoint.builder());
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        // writes the opcode: the stream then carries the arguments
        try (RxCall call = conn.newCall(RxCallOptions.DEFAULT.withOpcode(OP_ECHO))) {
            call.output().write('y');
            call.output().close();
            assertEquals("y", new String(call.input().readAllBytes(), StandardCharsets.US_ASCII));
        }
        assertEquals("client out " + SERVICE + " OptionalInt[7] Echo to server=true", next());
        assertEquals("server in " + SERVICE + " OptionalInt[7] Echo from client=true identity=anonymous", next());
        List<String> ends = List.of(next(), next());
        assertTrue(ends.contains("client end 0"), ends.toString());

        try (RxConnectionPool pool = RxConnectionPool.open(client, server.localAddress(), SERVICE);
                RxCall call = pool.newCall(
                        RxCallOptions.timeout(java.time.Duration.ofSeconds(20)).withOpcode(OP_ECHO))) {
            call.output().write('z');
            call.output().close();
            assertEquals("z", new String(call.input().readAllBytes(), StandardCharsets.US_ASCII));
        }
        assertEquals("client out " + SERVICE + " OptionalInt[7] Echo to server=true", next());
        assertEquals("server in " + SERVICE + " OptionalInt[7] Echo from client=true identity=anonymous", next());
        ends = List.of(next(), next());
        assertTrue(ends.contains("client end 0"), ends.toString());
        ProcedureMetrics m = client.metrics(false, SERVICE, OP_ECHO).orElseThrow();
        assertEquals(2, m.calls(), "both calls counted under their opcode on the client");
    }

    @Test
    void aServerInterceptorRefusesWithItsCodeBeforeTheHandlerRuns() throws Exception {
        open(RxEndpoint.builder());
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        // the results reader reads: a call whose abort arrived before close() closes quietly (RxCall.close)
        RxException e = assertThrows(RxException.class,
                () -> conn.call(OP_FORBIDDEN, w -> { }, r -> r.readInt()));
        assertEquals(REFUSED, e.code());
        assertTrue(e.remote(), "the caller got the server's abort");
        assertEquals(0, handlerRuns.get(), "the handler never ran");
        assertEquals("client out " + SERVICE + " OptionalInt[9] Forbidden to server=true", next());
        assertEquals("server in " + SERVICE + " OptionalInt[9] Forbidden from client=true identity=anonymous", next());
        assertEquals("client end " + REFUSED, next());
        // the refusing interceptor's own end never existed: nothing else was recorded
        assertEquals(null, seen.poll(200, TimeUnit.MILLISECONDS));
    }

    @Test
    void aClientInterceptorFailsTheCallBeforeAnythingIsSent() throws Exception {
        open(RxEndpoint.builder());
        AtomicInteger laterEnds = new AtomicInteger();
        try (RxEndpoint refusing = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .clientInterceptor(call -> (code, ns) -> laterEnds.addAndGet(code))
                .clientInterceptor(call -> {
                    throw RxException.local(REFUSED, "no calls to " + call.peer());
                })
                .open()) {
            RxConnection conn = refusing.connect(server.localAddress(), SERVICE);
            RxException e = assertThrows(RxException.class, () -> conn.call(OP_ECHO, text("x"), r -> null));
            assertEquals(REFUSED, e.code());
            assertFalse(e.remote());
            assertThrows(RxException.class, conn::newCall);
            CompletionException async = assertThrows(CompletionException.class,
                    () -> conn.callAsync(new byte[] {0, 0, 0, OP_ECHO}).join());
            assertEquals(REFUSED, ((RxException) async.getCause()).code());
            assertEquals(3 * REFUSED, laterEnds.get(), "the first interceptor's end ran for each refused call");
            // Counted as every call end the application sees: under the opcode when the call form knows it.
            assertEquals(List.of("client/" + OP_ECHO + " 1 {" + REFUSED + "=1}", "client/-1 2 {" + REFUSED + "=2}"),
                    refusing.metrics().stream().sorted(Comparator.comparingInt(ProcedureMetrics::opcode).reversed())
                            .map(m -> m.side() + "/" + m.opcode() + " " + m.calls() + " " + m.errorsByCode())
                            .toList());
        }
        assertEquals(0, handlerRuns.get(), "nothing reached the server");
        assertEquals(null, seen.poll(200, TimeUnit.MILLISECONDS), "the server's interceptor saw no call");
    }

    @Test
    void aServerInterceptorSeesTheRxkadIdentity() throws Exception {
        open(RxEndpoint.builder());
        RxkadServerSecurity rxkad = new RxkadServerSecurity(List.of(new ServerKey(ServerKey.RXKAD,
                RxkadEndpointTest.KVNO, 0, RxkadEndpointTest.SERVER_KEY)), RxkadLevel.CRYPT);
        server.registerService(RxService.builder(SERVICE + 1).securityClass(rxkad)
                .wholeStream(call -> call.output().write(1)).build());
        RxConnection conn = client.connect(server.localAddress(), SERVICE + 1,
                RxkadEndpointTest.credentials(RxkadLevel.CRYPT));
        assertEquals(1, conn.call(new byte[0]).length);
        assertEquals("client out " + (SERVICE + 1) + " OptionalInt.empty ? to server=true", next());
        assertEquals("server in " + (SERVICE + 1) + " OptionalInt.empty ? from client=true identity=bob", next());
    }
}
