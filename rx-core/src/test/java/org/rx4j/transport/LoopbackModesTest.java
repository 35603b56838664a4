// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rx4j.config.RxConfig;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.wire.AbortCodes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** End-to-end calls over real loopback sockets in each transport mode (docs/transport.md). */
@Timeout(120)
@org.junit.jupiter.api.extension.ExtendWith(org.rx4j.testing.LeakCheckExtension.class)
class LoopbackModesTest {
    static final int SERVICE = 147;

    /** Echo service: request = 8-byte reply length + payload; reply = that many bytes. */
    private static void echo(RxCall call) throws Exception {
        DataInputStream in = new DataInputStream(call.input());
        long replyBytes = in.readLong();
        long got = in.transferTo(java.io.OutputStream.nullOutputStream());
        DataOutputStream out = new DataOutputStream(call.output());
        out.writeLong(got);
        byte[] buf = new byte[65536];
        for (long sent = 0; sent < replyBytes; ) {
            int n = (int) Math.min(buf.length, replyBytes - sent);
            out.write(buf, 0, n);
            sent += n;
        }
    }

    private static RxEndpoint server(RxConfig config) throws Exception {
        return RxEndpoint.builder().config(config).bind(new InetSocketAddress("127.0.0.1", 0))
                .service(RxService.builder(SERVICE).wholeStream(LoopbackModesTest::echo).build()).open();
    }

    private static long[] call(RxConnection conn, long request, long reply) throws Exception {
        try (RxCall call = conn.newCall()) {
            DataOutputStream out = new DataOutputStream(call.output());
            out.writeLong(reply);
            byte[] buf = new byte[65536];
            for (long sent = 0; sent < request; ) {
                int n = (int) Math.min(buf.length, request - sent);
                out.write(buf, 0, n);
                sent += n;
            }
            out.close();
            DataInputStream in = new DataInputStream(call.input());
            long serverGot = in.readLong();
            long got = in.transferTo(java.io.OutputStream.nullOutputStream());
            return new long[] {serverGot, got};
        }
    }

    @ParameterizedTest(name = "jumboMax={0} hardAckOnly={1} transport={2}")
    @CsvSource({"4,false,NIO", "1,false,NIO", "4,true,NIO", "1,true,NIO", "4,false,EPOLL", "1,true,EPOLL"})
    void bulkInEachMode(int jumboMax, boolean hardAckOnly, org.rx4j.config.TransportKind kind) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(RxEndpoint.unavailabilityReason(kind).isEmpty(), "native epoll not available here");
        // An Ethernet-size interface (ifMtu 1444): loopback's own would carry large packets instead of jumbograms.
        RxConfig config = RxConfig.builder().jumboMax(jumboMax).hardAckOnly(hardAckOnly).ifMtu(1444).build();
        try (RxEndpoint server = RxEndpoint.builder().config(config).transport(kind)
                .bind(new InetSocketAddress("127.0.0.1", 0)).service(RxService.builder(SERVICE)
                        .wholeStream(LoopbackModesTest::echo).build()).open();
             RxEndpoint client = RxEndpoint.builder().config(config).transport(kind)
                     .bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            RxConnection conn = client.connect(server.localAddress(), SERVICE);
            assertArrayEquals(new long[] {4 << 20, 4 << 20}, call(conn, 4 << 20, 4 << 20));
            assertArrayEquals(new long[] {4, 30}, call(conn, 4, 30));
            long jumbos = client.stats().get("jumbogramsSent");
            if (jumboMax == 1) {
                assertEquals(0, jumbos);
            } else {
                assertTrue(jumbos > 0, "jumbograms expected");
            }
        }
    }

    @Test
    void fortySixPacketJumbogramsBetweenRx4jPeers() throws Exception {
        // Acks every 92 consumed packets open room for whole 46-packet jumbograms.
        RxConfig config = RxConfig.builder().jumboMax(46).maxWindow(255).hardAckOnly(true).hardAckInterval(92)
                .ifMtu(1444).build();
        try (RxEndpoint server = server(config);
             RxEndpoint client = RxEndpoint.builder().config(config).bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            RxConnection conn = client.connect(server.localAddress(), SERVICE);
            // The sender's jumbogram grows by one packet per clean ACK (JumboSizer) and the size is carried to the
            // peer's next call (docs/engine.md "State carried between calls"). How many ACKs one call brings depends
            // on how the receiving handler's reads are scheduled: on a loaded machine one 16 MiB call reached 33, so
            // a second call (or up to four) goes on from there.
            long largest = 0;
            for (int calls = 0; calls < 4 && largest < 46; calls++) {
                assertArrayEquals(new long[] {16 << 20, 0}, call(conn, 16 << 20, 0));
                largest = server.stats().get("largestJumbogramReceived");
            }
            assertEquals(46L, largest, "largest jumbogram the server received, packets");
        }
    }

    @Test
    void fourCallsShareOneConnection() throws Exception {
        try (RxEndpoint server = server(RxConfig.defaults());
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            RxConnection conn = client.connect(server.localAddress(), SERVICE);
            List<CompletableFuture<long[]>> futures = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                futures.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return call(conn, 2 << 20, 1 << 20);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            for (CompletableFuture<long[]> f : futures) {
                assertArrayEquals(new long[] {2 << 20, 1 << 20}, f.get(60, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void clientAbortReachesServer() throws Exception {
        CountDownLatch serverSaw = new CountDownLatch(1);
        CountDownLatch handlerRunning = new CountDownLatch(1);
        int[] code = new int[1];
        try (RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            server.registerService(RxService.builder(SERVICE).wholeStream(call -> {
                handlerRunning.countDown();
                try {
                    call.input().transferTo(java.io.OutputStream.nullOutputStream());
                } catch (RxException e) {
                    code[0] = e.code();
                    serverSaw.countDown();
                    throw e;
                }
            }).build());
            RxConnection conn = client.connect(server.localAddress(), SERVICE);
            RxCall call = conn.newCall();
            call.output().write(new byte[100_000]);
            call.output().flush();
            assertTrue(handlerRunning.await(10, TimeUnit.SECONDS), "server handler never started");
            call.abort(AbortCodes.RX_USER_ABORT);
            assertTrue(serverSaw.await(10, TimeUnit.SECONDS), "server never saw the abort");
            assertEquals(AbortCodes.RX_USER_ABORT, code[0]);
            RxException e = assertThrows(RxException.class, () -> call.input().read());
            assertEquals(AbortCodes.RX_USER_ABORT, e.code());
        }
    }

    @Test
    void unknownServiceGetsInvalidOperation() throws Exception {
        try (RxEndpoint server = server(RxConfig.defaults());
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            RxConnection conn = client.connect(server.localAddress(), 999);
            RxException e = assertThrows(RxException.class, () -> conn.call(new byte[8]));
            assertEquals(AbortCodes.RX_INVALID_OPERATION, e.code());
        }
    }
}
