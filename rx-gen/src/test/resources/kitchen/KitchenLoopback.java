// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.kitchen;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.RxAsyncStreams;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallTarget;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxProcNames;
import org.rx4j.rpc.RxRequest;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrWriter;
import org.rx4j.security.RxNullSecurityClass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test scenarios for the code rx-gen generates from kitchen.xg: a Java client and a Java server over rx-core on
 * 127.0.0.1, every proc. Compiled at test time together with the generated sources (KitchenLoopbackTest runs
 * each public {@code check*} method as a test).
 */
public final class KitchenLoopback implements AutoCloseable {
    /** The service id of the kitchen sink (the .xg file does not name one). */
    public static final int SERVICE = 4711;
    /** A second service whose handlers write hostile results, as a broken or malicious server would. */
    public static final int HOSTILE_SERVICE = 4712;
    /** The kitchen sink served by the generated async dispatcher (KsAsyncServer). */
    public static final int ASYNC_SERVICE = 4713;
    /** Application abort code the server raises for Echo(a = -1). */
    public static final int APP_ERROR = 123456;

    private final RxEndpoint server;
    private final RxEndpoint client;
    private final KsClient ks;
    private final KsClient hostile;
    private final KsClient async;
    private final CountDownLatch release = new CountDownLatch(1);
    /** The opcodes the client endpoint's interceptor saw, one per call started (-1: none). */
    private final ConcurrentLinkedQueue<Integer> clientOpcodes = new ConcurrentLinkedQueue<>();
    /** The proc names the client endpoint's interceptor saw, one per call started ("": none). */
    private final ConcurrentLinkedQueue<String> clientProcNames = new ConcurrentLinkedQueue<>();
    /** The proc names the server endpoint's interceptor saw, one per call routed ("": none). */
    private final ConcurrentLinkedQueue<String> serverProcNames = new ConcurrentLinkedQueue<>();
    /** Completes the async server's stages off the event loop, as a real async server's own work would. */
    private final ExecutorService asyncWork = Executors.newSingleThreadExecutor();

    /** Opens a server endpoint with the generated dispatcher and a client endpoint, both on 127.0.0.1. */
    public KitchenLoopback() throws IOException {
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        // The generated names of both services that serve the kitchen sink; the hostile service stays unnamed.
        RxProcNames names = KsOpcodes.procNames(SERVICE).orElse(KsOpcodes.procNames(ASYNC_SERVICE));
        server = RxEndpoint.builder().bind(any)
                .procNames(names)
                .serverInterceptor(call -> {
                    serverProcNames.add(call.procName().orElse(""));
                    return null;
                })
                .service(KsDispatcher.service(SERVICE, RxNullSecurityClass.INSTANCE, new Impl()))
                .service(hostileService())
                .service(KsAsyncDispatcher.service(ASYNC_SERVICE, RxNullSecurityClass.INSTANCE, new AsyncImpl()))
                .open();
        client = RxEndpoint.builder().bind(any).procNames(names).clientInterceptor(call -> {
            clientOpcodes.add(call.opcode().orElse(-1));
            clientProcNames.add(call.procName().orElse(""));
            return null;
        }).open();
        // -Drx4j.kitchen.server=host:port runs the scenarios against another server of the kitchen sink (the C
        // server built from Debian rxgen's stubs, scripts/rxgen/cross-check.sh); the hostile service stays here.
        String other = System.getProperty("rx4j.kitchen.server", "");
        InetSocketAddress target = server.localAddress();
        if (!other.isBlank()) {
            int colon = other.lastIndexOf(':');
            target = new InetSocketAddress(InetAddress.getByName(other.substring(0, colon)),
                    Integer.parseInt(other.substring(colon + 1)));
        }
        ks = KsClient.connect(client, target, SERVICE, RxNullSecurityClass.INSTANCE);
        hostile = KsClient.connect(client, server.localAddress(), HOSTILE_SERVICE, RxNullSecurityClass.INSTANCE);
        async = KsClient.connect(client, server.localAddress(), ASYNC_SERVICE, RxNullSecurityClass.INSTANCE);
    }

    /** @return the UDP port of the Java server (services 4711 and 4712 on 127.0.0.1) */
    public int serverPort() {
        return server.localAddress().getPort();
    }

    @Override
    public void close() {
        release.countDown();
        client.close();
        server.close();
        asyncWork.shutdown();
    }

    /** The server: each proc answers something derived from its arguments, so a round trip shows both ways. */
    private final class Impl implements KsServer {
        @Override
        public KsEchoResult echo(RxCall call, int a, String n) throws Exception {
            if (a == -1) {
                throw RxException.local(APP_ERROR, "echo refuses -1");
            }
            return new KsEchoResult(a + 1, new StringBuilder(n).reverse().toString());
        }

        @Override
        public void ping(RxCall call) throws Exception {
            assertFalse(call.peer().isUnresolved());
        }

        @Override
        public KsEverything everything(RxCall call, KsEverything in) {
            return in;
        }

        @Override
        public KsShapesResult shapes(RxCall call, KsShape s, KsInner inner) {
            KsInner next = inner instanceof KsInner.Red r ? new KsInner.Red(r.red() + 1) : new KsInner.Shape(s);
            return new KsShapesResult(next, s);
        }

        @Override
        public long sum(RxCall call, List<Integer> ids) throws Exception {
            if (ids.contains(-1)) {
                // Sleeps only until the scenario releases it: the deadline scenario needs a call that does not end.
                release.await(30, TimeUnit.SECONDS);
            }
            return ids.stream().mapToLong(Integer::longValue).sum();
        }

        @Override
        public String names(RxCall call, String stem) {
            return (stem + "/full").substring(0, Math.min(stem.length() + 5, KitchenConstants.KS_MAXNAME));
        }

        @Override
        public byte[] blob(RxCall call, byte[] blob) {
            byte[] out = blob.clone();
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) ~out[i];
            }
            return out;
        }

        @Override
        public KsTransferResult transfer(RxCall call, int length) throws Exception {
            // Split proc: read `length` bulk bytes, send them back, then the OUT results go after.
            if (length < 0) {
                throw RxException.local(APP_ERROR, "negative length");
            }
            byte[] data = call.input().readNBytes(length);
            int sum = 0;
            for (byte b : data) {
                sum = sum * 31 + (b & 0xFF);
            }
            call.output().write(data);
            return new KsTransferResult(data.length, sum);
        }
    }

    /**
     * The async server: the blocking server's answers, completed on another thread (the stage's completion, not
     * the event loop, then encodes the reply); Names("overflow") answers a string over its bound (−452), Ping
     * throws and Echo(-1) fails its stage with the application's code.
     */
    private final class AsyncImpl implements KsAsyncServer {
        private final Impl blocking = new Impl();

        private <T> CompletionStage<T> later(Callable<T> work) {
            CompletableFuture<T> f = new CompletableFuture<>();
            asyncWork.execute(() -> {
                try {
                    f.complete(work.call());
                } catch (Exception e) {
                    f.completeExceptionally(e);
                }
            });
            return f;
        }

        @Override
        public CompletionStage<KsEchoResult> echo(RxRequest request, int a, String n) {
            return later(() -> blocking.echo(null, a, n));
        }

        @Override
        public CompletionStage<Void> ping(RxRequest request) throws RxException {
            assertFalse(request.caller().isUnresolved());
            if (request.identity().isPresent()) {
                throw RxException.local(APP_ERROR + 2, "rxnull callers only");
            }
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<KsEverything> everything(RxRequest request, KsEverything in) {
            return later(() -> in);
        }

        @Override
        public CompletionStage<KsShapesResult> shapes(RxRequest request, KsShape s, KsInner inner) {
            return CompletableFuture.completedFuture(blocking.shapes(null, s, inner));
        }

        @Override
        public CompletionStage<Long> sum(RxRequest request, List<Integer> ids) {
            return later(() -> blocking.sum(null, ids));
        }

        @Override
        public CompletionStage<String> names(RxRequest request, String stem) {
            return later(() -> stem.equals("overflow") ? repeat('o', KitchenConstants.KS_MAXNAME + 1)
                    : blocking.names(null, stem));
        }

        @Override
        public CompletionStage<byte[]> blob(RxRequest request, byte[] blob) {
            return later(() -> blocking.blob(null, blob));
        }

        @Override
        public CompletionStage<KsTransferResult> transfer(RxAsyncStreams streams, int length) throws RxException {
            // Split proc without a thread: receive the bulk bytes, send them back, then the OUT results go after.
            if (length < 0) {
                throw RxException.local(APP_ERROR, "negative length");
            }
            if (length == STALLING_LENGTH) {
                return new CompletableFuture<>(); // never answers: the client's deadline or orTimeout ends the call
            }
            return streams.receiveBytes(length).thenCompose(data -> {
                int sum = 0;
                for (byte b : data) {
                    sum = sum * 31 + (b & 0xFF);
                }
                int checksum = sum;
                return streams.send(data).thenApply(v -> new KsTransferResult(data.length, checksum));
            });
        }
    }

    /** A Transfer length the async server never answers. */
    static final int STALLING_LENGTH = 999_999;

    /** Handlers that answer with a length far over the declared bound. */
    private static RxService hostileService() {
        return RxService.builder(HOSTILE_SERVICE)
                .blocking(KsOpcodes.NAMES, (call, op) -> new XdrWriter(call.output(), XdrSide.SERVER).writeInt(0x7fffffff))
                .blocking(KsOpcodes.SUM, (call, op) -> new XdrWriter(call.output(), XdrSide.SERVER).writeInt(-16))
                .blocking(KsOpcodes.ECHO, (call, op) -> {
                    // Hand-written against the wire form: char[64] is 64 4-byte ints, one per char, NUL-padded.
                    XdrReader r = new XdrReader(call.input(), XdrSide.SERVER);
                    int a = r.readInt();
                    for (int i = 0; i < KitchenConstants.KS_MAXNAME; i++) {
                        int c = r.readInt();
                        if (i < 2 ? c != "ab".charAt(i) : c != 0) {
                            throw RxException.local(APP_ERROR + 1, "char " + i + " is " + c);
                        }
                    }
                    XdrWriter w = new XdrWriter(call.output(), XdrSide.SERVER);
                    w.writeInt(a * 2);
                    for (int i = 0; i < KitchenConstants.KS_MAXNAME; i++) {
                        w.writeInt(i < 3 ? 'z' - i : 0);
                    }
                })
                .blocking(KsOpcodes.SHAPES, (call, op) -> {
                    XdrWriter w = new XdrWriter(call.output(), XdrSide.SERVER);
                    w.writeInt(KsColor.KS_GREEN.value());   // inner: the shape arm
                    w.writeInt(99);                         // ks_shape default arm: a label
                    w.writeInt(65);                         // ... one byte over string<KS_MAXNAME>
                })
                .build();
    }

    static String repeat(char c, int n) {
        return String.valueOf(c).repeat(n);
    }

    static KsEverything everything(boolean empty) {
        List<KsPoint> points = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        List<String> names = new ArrayList<>();
        byte[] blob = new byte[empty ? 0 : KitchenConstants.KS_MAXBLOB];
        if (!empty) {
            for (int i = 0; i < 300; i++) {
                points.add(new KsPoint(i, -i));
            }
            for (int i = 0; i < KitchenConstants.KS_MAXLIST; i++) {
                ids.add(i * 1000);
            }
            for (int i = 0; i < 4; i++) {
                names.add(repeat((char) ('a' + i), 63));
            }
            for (int i = 0; i < blob.length; i++) {
                blob[i] = (byte) i;
            }
        }
        KsNode list = empty ? null : new KsNode(1, new KsNode(2, new KsNode(3, null)));
        return new KsEverything(-5, 0xFFFF_FFF0, Long.MIN_VALUE, -1L, (short) -300, (short) 0xFFFE, (byte) -3,
                (byte) 0xF0, true, empty ? KsColor.KS_RED : KsColor.KS_BLUE,
                empty ? "" : repeat('\u00e9', 63), empty ? "" : repeat('x', 64), empty ? "" : "free text",
                new byte[] {1, 2, 3, 4, 5, 6}, blob, List.of(7, 8, 9), ids, points,
                empty ? null : new KsPoint(3, 4), list,
                empty ? new KsInner.Red(0xFFFF_FFFF) : new KsInner.Shape(new KsShape.Label(99, repeat('q', 64))),
                names, empty ? new byte[8] : new byte[] {0, -1, 2, -128, 127, 0, 0, 0});
    }

    /** Echo: an int and rxgen's char[64] (4 bytes per char on the wire), at its longest (63 chars). */
    public void checkEcho() throws IOException {
        KsEchoResult r = ks.echo(41, "abc");
        assertEquals(new KsEchoResult(42, "cba"), r);
        String longest = "0123456789".repeat(6) + "xyz";
        assertEquals(63, longest.length());
        assertEquals(new StringBuilder(longest).reverse().toString(), ks.echo(0, longest).n2());
        assertEquals("", ks.echo(0, "").n2());
    }

    /** rxgen's char[64] on the wire: checked by a hand-written server reading 64 ints. */
    public void checkCharArrayWireForm() throws IOException {
        assertEquals(new KsEchoResult(14, "zyx"), hostile.echo(7, "ab"));
    }

    /** A char[64] of 64 chars has no room for C's NUL: refused before sending, proc named. */
    public void checkCharArrayTooLong() {
        RxException e = assertThrows(RxException.class, () -> ks.echo(0, repeat('y', 64)));
        assertEquals(XdrSide.CLIENT.marshalCode(), e.code());
        assertFalse(e.remote());
        assertTrue(e.getMessage().startsWith("KS_Echo (opcode 1): "), e.getMessage());
    }

    /** Every variant of a no-argument, no-result proc: blocking, deadline, async, async with deadline. */
    public void checkPing() throws Exception {
        ks.ping();
        ks.ping(Duration.ofSeconds(30));
        assertNull(ks.pingAsync().get(30, TimeUnit.SECONDS));
        assertNull(ks.pingAsync(Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS));
    }

    /**
     * The generated names reach interceptors: {@code KsOpcodes.procNames} per service, joined with
     * {@code RxProcNames.orElse}; a service without names gives none. The server's interceptor runs before the
     * reply is sent, so its name is there when the call returns.
     */
    public void checkProcNames() throws Exception {
        assertEquals("KS_Echo", KsOpcodes.procName(KsOpcodes.ECHO));
        assertEquals("KS_Transfer", KsOpcodes.procName(KsOpcodes.TRANSFER));
        assertNull(KsOpcodes.procName(9999));
        assertNull(KsOpcodes.procNames(SERVICE).name(ASYNC_SERVICE, KsOpcodes.ECHO));
        assertThrows(IllegalArgumentException.class, () -> KsOpcodes.procNames(0));
        assertThrows(IllegalArgumentException.class, () -> KsOpcodes.procNames(65536));
        clientProcNames.clear();
        serverProcNames.clear();
        ks.echo(1, "a");
        async.pingAsync().get(30, TimeUnit.SECONDS);
        hostile.echo(7, "ab");
        assertEquals(List.of("KS_Echo", "KS_Ping", ""), List.copyOf(clientProcNames));
        List<String> served = List.copyOf(serverProcNames);
        // Against another server (-Drx4j.kitchen.server) only the async and hostile services are served here.
        assertEquals(served.size() == 3 ? List.of("KS_Echo", "KS_Ping", "") : List.of("KS_Ping", ""), served);
    }

    /** The struct with every member type, full (maximum lengths) and empty (empty arrays, absent pointers). */
    public void checkEverything() throws Exception {
        for (boolean empty : new boolean[] {false, true}) {
            KsEverything e = everything(empty);
            assertEquals(e, ks.everything(e));
            assertEquals(e, ks.everything(e, Duration.ofSeconds(30)));
            assertEquals(e, ks.everythingAsync(e).get(30, TimeUnit.SECONDS));
            assertEquals(e, ks.everythingAsync(e, Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS));
        }
    }

    /** Unions: every arm of ks_shape, nested in ks_inner, INOUT. */
    public void checkShapes() throws IOException {
        List<KsShape> shapes = List.of(new KsShape.Center(new KsPoint(1, 2)), new KsShape.Sides(6),
                new KsShape.Case4(), new KsShape.Label(-7, "seven"), new KsShape.Label(3, repeat('m', 64)));
        for (KsShape s : shapes) {
            KsShapesResult r = ks.shapes(s, new KsInner.Red(5));
            assertEquals(new KsInner.Red(6), r.inner());
            assertEquals(s, r.back());
            KsShapesResult r2 = ks.shapes(s, new KsInner.Shape(new KsShape.Case4()));
            assertEquals(new KsInner.Shape(s), r2.inner());
        }
        assertThrows(IllegalArgumentException.class, () -> new KsShape.Label(1, "arm 1 is center"));
    }

    /** A multi proc is called as an ordinary one; a var array at its maximum and empty. */
    public void checkSum() throws Exception {
        List<Integer> ids = new ArrayList<>();
        for (int i = 1; i <= KitchenConstants.KS_MAXLIST; i++) {
            ids.add(Integer.MAX_VALUE - i);
        }
        long expected = ids.stream().mapToLong(Integer::longValue).sum();
        assertEquals(expected, ks.sum(ids));
        assertEquals(0L, ks.sumAsync(List.of()).get(30, TimeUnit.SECONDS));
        ids.add(1);
        RxException e = assertThrows(RxException.class, () -> ks.sum(ids));
        assertEquals(XdrSide.CLIENT.marshalCode(), e.code());
        assertTrue(e.getMessage().contains("KS_Sum (opcode 5)"), e.getMessage());
        ExecutionException ee = assertThrows(ExecutionException.class, () -> ks.sumAsync(ids).get(30, TimeUnit.SECONDS));
        assertEquals(XdrSide.CLIENT.marshalCode(), assertInstanceOf(RxException.class, ee.getCause()).code());
    }

    /** string<64> at its maximum; one over is refused on the client (−450). */
    public void checkNames() throws IOException {
        assertEquals("abc/full", ks.names("abc"));
        assertEquals(repeat('n', 64), ks.names(repeat('n', 64)));
        RxException e = assertThrows(RxException.class, () -> ks.names(repeat('n', 65)));
        assertEquals(XdrSide.CLIENT.marshalCode(), e.code());
    }

    /** INOUT opaque<256>: full and empty. */
    public void checkBlob() throws IOException {
        byte[] full = new byte[KitchenConstants.KS_MAXBLOB];
        for (int i = 0; i < full.length; i++) {
            full[i] = (byte) (i * 7);
        }
        byte[] back = ks.blob(full);
        for (int i = 0; i < full.length; i++) {
            assertEquals((byte) ~full[i], back[i]);
        }
        assertArrayEquals(new byte[0], ks.blob(new byte[0]));
    }

    /** The generated exception keeps the failure's suppressed ones: a pool's earlier attempts. */
    public void checkCallExceptionKeepsEarlierAttempts() {
        RxException last = RxException.remote(-10);
        last.addSuppressed(RxException.remote(-10));
        last.addSuppressed(RxException.remote(-1));
        KitchenCallException e = new KitchenCallException("KS_Echo", 1, last);
        assertEquals(2, e.getSuppressed().length);
        assertEquals(-1, ((RxException) e.getSuppressed()[1]).code());
        assertEquals(-10, e.code());
    }

    /** Split proc: IN args, then bulk data both ways on the call, then the OUT results. */
    public void checkTransferSplit() throws IOException {
        for (int length : new int[] {0, 1, 100_000}) {
            byte[] data = new byte[length];
            int sum = 0;
            for (int i = 0; i < length; i++) {
                data[i] = (byte) (i * 13);
                sum = sum * 31 + (data[i] & 0xFF);
            }
            clientOpcodes.clear();
            try (KitchenSplitCall<KsTransferResult> c = ks.transfer(length, Duration.ofSeconds(60))) {
                assertEquals(List.of(KsOpcodes.TRANSFER), List.copyOf(clientOpcodes), "the interceptor saw the opcode");
                OutputStream out = c.call().output();
                out.write(data);
                out.close();
                InputStream in = c.call().input();
                assertArrayEquals(data, in.readNBytes(length));
                assertEquals(new KsTransferResult(length, sum), c.end());
            }
        }
    }

    /** A failure read from a split call's own streams names the proc, as every other failure does. */
    public void checkSplitStreamFailureNamesTheProc() throws IOException {
        try (KitchenSplitCall<KsTransferResult> c = ks.transfer(-1)) {
            c.call().output().close();
            RxException e = assertThrows(RxException.class, () -> c.call().input().read());
            assertEquals(APP_ERROR, e.code());
            assertTrue(e.remote());
            KitchenCallException named = assertInstanceOf(KitchenCallException.class, e);
            assertEquals("KS_Transfer", named.proc());
            assertTrue(e.getMessage().startsWith("KS_Transfer (opcode 7): call aborted by peer: "), e.getMessage());
        }
    }

    /** A split call closed before end() is cancelled (−6) and the connection stays usable. */
    public void checkSplitAbandoned() throws IOException {
        try (KitchenSplitCall<KsTransferResult> c = ks.transfer(10)) {
            c.call().output().write(new byte[3]);
        }
        ks.ping();
    }

    /** An application error from the server arrives with its code, remote, the proc named. */
    public void checkApplicationError() throws Exception {
        RxException e = assertThrows(RxException.class, () -> ks.echo(-1, "x"));
        assertEquals(APP_ERROR, e.code());
        assertTrue(e.remote());
        assertEquals("KS_Echo", ((KitchenCallException) e).proc());
        assertEquals(1, ((KitchenCallException) e).opcode());
        ExecutionException ee = assertThrows(ExecutionException.class,
                () -> ks.echoAsync(-1, "x").get(30, TimeUnit.SECONDS));
        KitchenCallException async = assertInstanceOf(KitchenCallException.class, ee.getCause());
        assertEquals(APP_ERROR, async.code());
        assertTrue(async.getMessage().startsWith("KS_Echo (opcode 1): "), async.getMessage());
    }

    /** The deadline overloads end a call the server does not answer with RX_CALL_TIMEOUT (−3). */
    public void checkDeadline() throws Exception {
        RxException e = assertThrows(RxException.class, () -> ks.sum(List.of(-1), Duration.ofMillis(300)));
        assertEquals(-3, e.code());
        assertTrue(e.getMessage().startsWith("KS_Sum (opcode 5): "), e.getMessage());
        ExecutionException ee = assertThrows(ExecutionException.class,
                () -> ks.sumAsync(List.of(-1), Duration.ofMillis(300)).get(30, TimeUnit.SECONDS));
        assertEquals(-3, assertInstanceOf(RxException.class, ee.getCause()).code());
    }

    /** A hostile argument length: the generated server refuses it with RXGEN_SS_UNMARSHAL (−453). */
    public void checkHostileArgumentLength() throws IOException {
        RxCallTarget raw = ks.target();
        for (int length : new int[] {0x7fffffff, -1, KitchenConstants.KS_MAXLIST + 1}) {
            RxCall call = raw.newCall();
            XdrWriter w = new XdrWriter(call.output(), XdrSide.CLIENT);
            w.writeInt(KsOpcodes.SUM);
            w.writeInt(length);       // ks_idlist<16>: count far over its bound, no elements follow
            call.output().close();
            RxException e = assertThrows(RxException.class, () -> call.input().read());
            assertEquals(XdrSide.SERVER.unmarshalCode(), e.code());
            assertTrue(e.remote());
            call.close();
        }
        ks.ping();
    }

    /** A hostile result length: the generated client refuses it with RXGEN_CC_UNMARSHAL (−451), proc named. */
    public void checkHostileResultLength() throws Exception {
        RxException e = assertThrows(RxException.class, () -> hostile.names("x"));
        assertEquals(XdrSide.CLIENT.unmarshalCode(), e.code());
        assertFalse(e.remote());
        assertTrue(e.getMessage().startsWith("KS_Names (opcode 6): "), e.getMessage());
        RxException sum = assertThrows(RxException.class, () -> hostile.sum(List.of()));
        assertEquals(XdrSide.CLIENT.unmarshalCode(), sum.code());   // a short reply: end of stream inside a hyper
        RxException nested = assertThrows(RxException.class,
                () -> hostile.shapes(new KsShape.Case4(), new KsInner.Red(1)));
        assertEquals(XdrSide.CLIENT.unmarshalCode(), nested.code());
        ExecutionException ee = assertThrows(ExecutionException.class,
                () -> hostile.namesAsync("x").get(30, TimeUnit.SECONDS));
        assertEquals(XdrSide.CLIENT.unmarshalCode(), assertInstanceOf(RxException.class, ee.getCause()).code());
        ExecutionException ee2 = assertThrows(ExecutionException.class,
                () -> hostile.namesAsync("x", Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS));
        assertEquals(XdrSide.CLIENT.unmarshalCode(), assertInstanceOf(RxException.class, ee2.getCause()).code());
        ks.ping();
    }

    /** An unknown enum value in a request: the server refuses it with −453 before the handler runs. */
    public void checkUnknownEnumValue() throws IOException {
        RxCall call = ks.target().newCall();
        XdrWriter w = new XdrWriter(call.output(), XdrSide.CLIENT);
        w.writeInt(KsOpcodes.SHAPES);
        w.writeInt(4);     // ks_shape: the void arm
        w.writeInt(5);     // ks_inner's discriminant ks_color: 5 is no color
        call.output().close();
        RxException e = assertThrows(RxException.class, () -> new XdrReader(call.input(), XdrSide.CLIENT).readInt());
        if (System.getProperty("rx4j.kitchen.server", "").isBlank()) {
            assertEquals(XdrSide.SERVER.unmarshalCode(), e.code());
        } else {
            // rxgen's C stub: unmarshal fails (-453), then freeing the half-decoded union fails too, and the
            // later code wins: RXGEN_SS_XDRFREE (-456).
            assertEquals(-456, e.code());
        }
        assertTrue(e.remote());
        call.close();
    }

    /** The async server answers every proc as the blocking one does, the split proc on its async streams. */
    public void checkAsyncServerEveryProc() throws Exception {
        assertEquals(new KsEchoResult(42, "cba"), async.echo(41, "abc"));
        async.ping();
        for (boolean empty : new boolean[] {false, true}) {
            assertEquals(everything(empty), async.everythingAsync(everything(empty)).get(30, TimeUnit.SECONDS));
        }
        KsShape label = new KsShape.Label(3, repeat('m', 64));
        assertEquals(new KsShapesResult(new KsInner.Shape(label), label),
                async.shapes(label, new KsInner.Shape(new KsShape.Case4())));
        assertEquals(6L, async.sum(List.of(1, 2, 3), Duration.ofSeconds(30)));
        assertEquals(repeat('n', 64), async.names(repeat('n', 64)));
        assertArrayEquals(new byte[] {-1, -2}, async.blob(new byte[] {0, 1}));
        byte[] data = new byte[50_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 7);
        }
        try (KitchenSplitCall<KsTransferResult> c = async.transfer(data.length)) {
            c.call().output().write(data);
            c.call().output().close();
            assertArrayEquals(data, c.call().input().readNBytes(data.length));
            assertEquals(data.length, c.end().received());
        }
        KitchenAsyncSplitCall<KsTransferResult> c = async.transferAsync(data.length);
        c.streams().send(data);
        CompletableFuture<byte[]> back = c.streams().receiveBytes(data.length);
        assertEquals(data.length, c.end().get(30, TimeUnit.SECONDS).received());
        assertArrayEquals(data, back.get(30, TimeUnit.SECONDS));
    }

    /**
     * A split proc in its async form against the blocking server: bulk data sent from a Flow publisher and read by a
     * subscriber (one chunk requested at a time), the OUT results from end(); the server's abort names the proc.
     */
    public void checkAsyncSplitClient() throws Exception {
        int length = 300_000;
        byte[] data = new byte[length];
        int sum = 0;
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (i * 13);
            sum = sum * 31 + (data[i] & 0xFF);
        }
        clientOpcodes.clear();
        KitchenAsyncSplitCall<KsTransferResult> c = ks.transferAsync(length, Duration.ofSeconds(60));
        assertEquals(List.of(KsOpcodes.TRANSFER), List.copyOf(clientOpcodes), "the interceptor saw the opcode");
        List<ByteBuffer> chunks = new ArrayList<>();
        for (int off = 0; off < length; off += 20_000) {
            chunks.add(ByteBuffer.wrap(data, off, Math.min(20_000, length - off)));
        }
        c.streams().send(subscriber -> {
            java.util.Iterator<ByteBuffer> next = chunks.iterator();
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    for (long i = 0; i < n && next.hasNext(); i++) {
                        subscriber.onNext(next.next());
                    }
                    if (!next.hasNext()) {
                        subscriber.onComplete();
                    }
                }

                @Override
                public void cancel() {
                }
            });
        });
        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        CompletableFuture<Void> received = new CompletableFuture<>();
        c.streams().receive(length).subscribe(new Flow.Subscriber<>() {
            private Flow.Subscription s;

            @Override
            public void onSubscribe(Flow.Subscription s) {
                this.s = s;
                s.request(1);
            }

            @Override
            public void onNext(ByteBuffer item) {
                byte[] b = new byte[item.remaining()];
                item.get(b);
                got.write(b, 0, b.length);
                s.request(1);
            }

            @Override
            public void onError(Throwable t) {
                received.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                received.complete(null);
            }
        });
        assertEquals(new KsTransferResult(length, sum), c.end().get(60, TimeUnit.SECONDS));
        received.get(30, TimeUnit.SECONDS);
        assertArrayEquals(data, got.toByteArray());

        ExecutionException e = assertThrows(ExecutionException.class,
                () -> ks.transferAsync(-1).end().get(30, TimeUnit.SECONDS));
        KitchenCallException named = assertInstanceOf(KitchenCallException.class, e.getCause());
        assertEquals(APP_ERROR, named.code());
        assertTrue(named.remote());
        assertTrue(named.getMessage().startsWith("KS_Transfer (opcode 7): call aborted by peer: "), named.getMessage());
        ks.ping();
    }

    /**
     * The async split form's deadline and orTimeout: a call the async server never answers ends with RX_CALL_TIMEOUT
     * (−3), the proc named, and the server's abort reaches nothing further.
     */
    public void checkAsyncSplitDeadline() throws Exception {
        KitchenAsyncSplitCall<KsTransferResult> c = async.transferAsync(STALLING_LENGTH, Duration.ofMillis(300));
        ExecutionException e = assertThrows(ExecutionException.class, () -> c.end().get(30, TimeUnit.SECONDS));
        KitchenCallException named = assertInstanceOf(KitchenCallException.class, e.getCause());
        assertEquals(-3, named.code());
        assertTrue(named.getMessage().startsWith("KS_Transfer (opcode 7): "), named.getMessage());

        KitchenAsyncSplitCall<KsTransferResult> d = async.transferAsync(STALLING_LENGTH);
        CompletableFuture<KsTransferResult> end = d.end().orTimeout(300, TimeUnit.MILLISECONDS);
        ExecutionException timedOut = assertThrows(ExecutionException.class, () -> end.get(30, TimeUnit.SECONDS));
        assertInstanceOf(java.util.concurrent.TimeoutException.class, timedOut.getCause());
        ExecutionException callEnd = assertThrows(ExecutionException.class,
                () -> d.streams().call().completion().get(30, TimeUnit.SECONDS));
        assertEquals(-3, assertInstanceOf(RxException.class, callEnd.getCause()).code());
        async.ping();
    }

    /**
     * The async server's errors: a failed stage with the application's code, a thrown RxException, results over
     * their bound (−452) and a hostile argument length (−453) each abort the call with that code.
     */
    public void checkAsyncServerErrors() throws Exception {
        KitchenCallException app = assertThrows(KitchenCallException.class, () -> async.echo(-1, "x"));
        assertEquals(APP_ERROR, app.code());
        assertTrue(app.remote());
        assertEquals("KS_Echo", app.proc());
        ExecutionException ee = assertThrows(ExecutionException.class,
                () -> async.echoAsync(-1, "x").get(30, TimeUnit.SECONDS));
        assertEquals(APP_ERROR, assertInstanceOf(RxException.class, ee.getCause()).code());
        RxException marshal = assertThrows(RxException.class, () -> async.names("overflow"));
        assertEquals(XdrSide.SERVER.marshalCode(), marshal.code());
        assertTrue(marshal.remote());
        RxCall call = async.target().newCall();
        XdrWriter w = new XdrWriter(call.output(), XdrSide.CLIENT);
        w.writeInt(KsOpcodes.SUM);
        w.writeInt(KitchenConstants.KS_MAXLIST + 1);
        call.output().close();
        RxException hostileLength = assertThrows(RxException.class, () -> call.input().read());
        assertEquals(XdrSide.SERVER.unmarshalCode(), hostileLength.code());
        call.close();
        async.ping();
    }

    /** Cancelling an async call's future cancels the call. */
    public void checkAsyncCancel() throws Exception {
        CompletableFuture<Long> f = ks.sumAsync(List.of(-1));
        assertTrue(f.cancel(true));
        assertTrue(f.isCancelled());
        ks.ping();
    }
}
