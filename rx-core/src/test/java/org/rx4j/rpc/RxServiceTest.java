// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.stats.ConnectionStats;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AbortCodes;

/**
 * An rxgen-style service with several opcodes, blocking and non-blocking, over real loopback sockets: opcode
 * dispatch, unknown and truncated opcodes, the caller's identity, the three client call forms, and 4 calls
 * at once on one connection. Every test also checks that no buffer leaked.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RxServiceTest {
    static final int SERVICE = 2345;
    static final int OP_ADD = 1;
    static final int OP_ECHO = 2;
    static final int OP_WHO = 3;
    static final int OP_GATHER = 4;
    static final int OP_FAIL = 5;
    static final int OP_DEFER = 6;

    RxEndpoint server;
    RxEndpoint client;
    CountDownLatch gathered = new CountDownLatch(4);

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_ADD, (call, op) -> {
                    var in = new org.rx4j.rpc.xdr.XdrReader(call.input(), XdrSide.SERVER);
                    int sum = in.readInt() + in.readInt();
                    new org.rx4j.rpc.xdr.XdrWriter(call.output(), XdrSide.SERVER).writeInt(sum);
                })
                .async(OP_ECHO, req -> CompletableFuture.completedFuture(req.arguments()))
                .blocking(OP_WHO, (call, op) -> {
                    var w = new org.rx4j.rpc.xdr.XdrWriter(call.output(), XdrSide.SERVER);
                    w.writeInt(op);
                    w.writeString(call.peer().getAddress().getHostAddress(), 64);
                    w.writeInt(call.peer().getPort());
                    w.writeInt(call.connectionId().epoch());
                    w.writeInt(call.connectionId().cid());
                    w.writeInt(call.connectionId().serviceId());
                    w.writeInt(call.connectionId().securityIndex());
                    w.writeBoolean(call.isServer());
                })
                .blocking(OP_GATHER, (call, op) -> {
                    gathered.countDown();
                    if (!gathered.await(20, TimeUnit.SECONDS)) {
                        throw RxException.local(77, "the 4 calls never ran at once");
                    }
                    new DataOutputStream(call.output()).writeInt(call.channel());
                })
                .async(OP_FAIL, req -> CompletableFuture.failedFuture(RxException.local(4711, "refused")))
                .async(OP_DEFER, req -> CompletableFuture.supplyAsync(
                        () -> new String(req.arguments(), StandardCharsets.US_ASCII).toUpperCase()
                                .getBytes(StandardCharsets.US_ASCII)))
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(service);
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private RxConnection connect() {
        return client.connect(server.localAddress(), SERVICE);
    }

    private static byte[] opcode(int op, byte... args) {
        byte[] b = new byte[4 + args.length];
        b[0] = (byte) (op >>> 24);
        b[1] = (byte) (op >>> 16);
        b[2] = (byte) (op >>> 8);
        b[3] = (byte) op;
        System.arraycopy(args, 0, b, 4, args.length);
        return b;
    }

    @Test
    void blockingOpcodeWithTypedXdrCall() throws Exception {
        RxConnection conn = connect();
        int sum = conn.call(OP_ADD, w -> {
            w.writeInt(40);
            w.writeInt(2);
        }, r -> r.readInt());
        assertEquals(42, sum);
        assertEquals(-7, (int) conn.call(OP_ADD, w -> {
            w.writeInt(-10);
            w.writeInt(3);
        }, r -> r.readInt()));
    }

    @Test
    void typedXdrCallAsync() throws Exception {
        RxConnection conn = connect();
        CompletableFuture<Integer> f = conn.callAsync(OP_ADD, w -> {
            w.writeInt(1000);
            w.writeInt(337);
        }, r -> r.readInt());
        assertEquals(1337, f.get(20, TimeUnit.SECONDS));
    }

    @Test
    void asyncOpcodeEchoesOverBlockingAndAsyncClientCalls() throws Exception {
        RxConnection conn = connect();
        byte[] payload = new byte[100_000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i % 251);
        }
        assertArrayEquals(payload, conn.call(opcode(OP_ECHO, payload)));
        assertArrayEquals(payload, conn.callAsync(opcode(OP_ECHO, payload)).get(20, TimeUnit.SECONDS));
        assertArrayEquals(new byte[0], conn.callAsync(opcode(OP_ECHO)).get(20, TimeUnit.SECONDS),
                "empty arguments, empty reply");
    }

    @Test
    void asyncHandlerMayCompleteOnAnotherThread() throws Exception {
        byte[] reply = connect().callAsync(opcode(OP_DEFER, "fetchdata".getBytes(StandardCharsets.US_ASCII)))
                .get(20, TimeUnit.SECONDS);
        assertEquals("FETCHDATA", new String(reply, StandardCharsets.US_ASCII));
    }

    @Test
    void asyncHandlerFailureAbortsWithItsCode() {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> connect().callAsync(opcode(OP_FAIL)).get(20, TimeUnit.SECONDS));
        RxException rx = (RxException) e.getCause();
        assertEquals(4711, rx.code());
        assertTrue(rx.remote());
    }

    @Test
    void unknownOpcodeAbortsWithRxgenOpcode() throws Exception {
        RxConnection conn = connect();
        RxException blocking = assertThrows(RxException.class, () -> conn.call(opcode(999, new byte[8])));
        assertEquals(AbortCodes.RXGEN_OPCODE, blocking.code());
        assertTrue(blocking.remote());
        RxException typed = assertThrows(RxException.class, () -> conn.call(-1, w -> { }, r -> r.readInt()));
        assertEquals(AbortCodes.RXGEN_OPCODE, typed.code());
        ExecutionException async = assertThrows(ExecutionException.class,
                () -> conn.callAsync(opcode(12345)).get(20, TimeUnit.SECONDS));
        assertEquals(AbortCodes.RXGEN_OPCODE, ((RxException) async.getCause()).code());
        // The connection is still good after its calls were aborted.
        assertEquals(3, (int) conn.call(OP_ADD, w -> {
            w.writeInt(1);
            w.writeInt(2);
        }, r -> r.readInt()));
    }

    @Test
    void requestShorterThanAnOpcodeAbortsWithRxgenDecode() {
        RxConnection conn = connect();
        RxException e = assertThrows(RxException.class, () -> conn.call(new byte[] {0, 0}));
        assertEquals(AbortCodes.RXGEN_DECODE, e.code());
        RxException empty = assertThrows(RxException.class, () -> conn.call(new byte[0]));
        assertEquals(AbortCodes.RXGEN_DECODE, empty.code());
    }

    @Test
    void opcodeSplitOverSeveralWritesStillRoutes() throws Exception {
        RxConnection conn = connect();
        try (RxCall call = conn.newCall()) {
            byte[] req = XdrMarshaller.toBytes(XdrSide.CLIENT, w -> {
                w.writeInt(OP_ADD);
                w.writeInt(5);
                w.writeInt(6);
            });
            for (byte b : req) {
                call.output().write(b);
                call.output().flush(); // one byte per DATA packet
            }
            byte[] reply = call.input().readAllBytes();
            assertArrayEquals(new byte[] {0, 0, 0, 11}, reply);
        }
        long dataPackets = server.statistics().totals().byLabel(RxCounter.PACKETS_RECEIVED).get("DATA");
        // Each flush queues its byte as a short DATA packet; the first goes alone, so the opcode spans packets. Bytes
        // still queued when a larger packet size is proven may be joined (PacketCutter.growUnsent).
        assertTrue(dataPackets >= 2, "the opcode arrived in more than one DATA packet: " + dataPackets);
    }

    @Test
    void handlerSeesTheCallersAddressAndConnectionIdentity() throws Exception {
        RxConnection conn = connect();
        record Who(int op, String host, int port, int epoch, int cid, int serviceId, int securityIndex, boolean server) {
        }
        Who who = conn.call(OP_WHO, w -> { }, r -> new Who(r.readInt(), r.readString(64), r.readInt(), r.readInt(),
                r.readInt(), r.readInt(), r.readInt(), r.readBoolean()));
        assertEquals(OP_WHO, who.op());
        assertEquals("127.0.0.1", who.host());
        assertEquals(client.localAddress().getPort(), who.port());
        assertEquals(conn.id(), new RxConnectionId(who.epoch(), who.cid(), who.serviceId(), who.securityIndex()));
        assertEquals(SERVICE, who.serviceId());
        assertEquals(0, who.securityIndex());
        assertTrue(who.server());
        assertTrue(conn.id().epoch() < 0, "epoch bit 31 set (rx-wire-facts.md §1)");

        RxConnection second = connect();
        assertNotEquals(conn.id().cid(), second.id().cid(), "several connections to one server are distinct");
        Who other = second.call(OP_WHO, w -> { }, r -> new Who(r.readInt(), r.readString(64), r.readInt(),
                r.readInt(), r.readInt(), r.readInt(), r.readInt(), r.readBoolean()));
        assertEquals(second.id().cid(), other.cid());
    }

    @Test
    void fourCallsRunAtOnceOnOneConnection() throws Exception {
        RxConnection conn = connect();
        List<CompletableFuture<byte[]>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            calls.add(conn.callAsync(opcode(OP_GATHER)));
        }
        Set<Integer> channels = new TreeSet<>();
        for (CompletableFuture<byte[]> f : calls) {
            byte[] r = f.get(30, TimeUnit.SECONDS);
            channels.add(((r[0] & 0xFF) << 24) | ((r[1] & 0xFF) << 16) | ((r[2] & 0xFF) << 8) | (r[3] & 0xFF));
        }
        assertEquals(Set.of(0, 1, 2, 3), channels, "each call held its own channel while all 4 waited");
        assertEquals(0L, gathered.getCount());
        ConnectionStats stats = conn.stats();
        assertEquals(4, stats.counters().get(RxCounter.CALLS_STARTED));
        assertEquals(0, stats.activeCalls());
    }

    @Test
    void fifthCallWaitsForAChannelWithoutBlockingAThread() throws Exception {
        RxConnection conn = connect();
        List<CompletableFuture<byte[]>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            calls.add(conn.callAsync(opcode(OP_GATHER)));
        }
        CompletableFuture<byte[]> fifth = conn.callAsync(opcode(OP_ECHO, (byte) 1, (byte) 2, (byte) 3, (byte) 4));
        for (CompletableFuture<byte[]> f : calls) {
            f.get(30, TimeUnit.SECONDS);
        }
        assertArrayEquals(new byte[] {1, 2, 3, 4}, fifth.get(30, TimeUnit.SECONDS));
    }

    @Test
    void registeringTheSameServiceTwiceIsRefused() {
        RxService again = RxService.builder(SERVICE).async(1, req -> CompletableFuture.completedFuture(new byte[0]))
                .build();
        assertThrows(IllegalStateException.class, () -> server.registerService(again));
        assertThrows(IllegalStateException.class, () -> RxService.builder(1).blocking(7, (c, o) -> { })
                .async(7, r -> null));
        assertEquals(Set.of(1), RxService.builder(1).blocking(1, (c, o) -> { }).build().opcodes());
        assertFalse(server.isClosing());
    }

    @Test
    void aServiceIsEitherWholeStreamOrDispatchedByOpcode() {
        RxCallHandler h = call -> { };
        assertThrows(IllegalStateException.class, () -> RxService.builder(SERVICE).blocking(1, (c, op) -> { })
                .wholeStream(h));
        assertThrows(IllegalStateException.class, () -> RxService.builder(SERVICE).wholeStream(h)
                .async(1, req -> CompletableFuture.completedFuture(new byte[0])));
        assertThrows(IllegalStateException.class, () -> RxService.builder(SERVICE).wholeStream(h).wholeStream(h));
        assertThrows(IllegalArgumentException.class, () -> RxService.builder(SERVICE)
                .wholeStream(h, 3, (prefix, length, whole) -> null));
        assertTrue(RxService.builder(SERVICE).wholeStream(h).build().opcodes().isEmpty());
    }
}
