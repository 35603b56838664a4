// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.stream.CallStreams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
@org.junit.jupiter.api.extension.ExtendWith(org.rx4j.testing.LeakCheckExtension.class)
class LoopbackCallTest {
    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(RxService.builder(100).wholeStream(call -> {
            DataInputStream in = new DataInputStream(call.input());
            long replyBytes = in.readLong();
            if (replyBytes < 0) {
                throw RxException.local((int) replyBytes, "asked to fail");
            }
            byte[] buf = new byte[65536];
            long got = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (buf[i] != (byte) ((got + i) % 251)) {
                        throw RxException.local(99, "pattern mismatch at " + (got + i));
                    }
                }
                got += n;
            }
            DataOutputStream out = new DataOutputStream(call.output());
            out.writeLong(got);
            long sent = 0;
            while (sent < replyBytes) {
                int len = (int) Math.min(buf.length, replyBytes - sent);
                for (int i = 0; i < len; i++) {
                    buf[i] = (byte) ((sent + i) % 251);
                }
                out.write(buf, 0, len);
                sent += len;
            }
        }).build());
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private long[] roundTrip(RxConnection conn, long requestBytes, long replyBytes) throws Exception {
        try (RxCall call = conn.newCall()) {
            DataOutputStream out = new DataOutputStream(call.output());
            out.writeLong(replyBytes);
            byte[] buf = new byte[50000];
            long sent = 0;
            while (sent < requestBytes) {
                int len = (int) Math.min(buf.length, requestBytes - sent);
                for (int i = 0; i < len; i++) {
                    buf[i] = (byte) ((sent + i) % 251);
                }
                out.write(buf, 0, len);
                sent += len;
            }
            out.close();
            DataInputStream in = new DataInputStream(call.input());
            long serverGot = in.readLong();
            long got = 0;
            int n;
            long bad = 0;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (buf[i] != (byte) ((got + i) % 251)) {
                        bad++;
                    }
                }
                got += n;
            }
            return new long[] {serverGot, got, bad};
        }
    }

    @Test
    void bulkBothWays() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), 100);
        long[] r = roundTrip(conn, 8 << 20, 8 << 20);
        assertArrayEquals(new long[] {8 << 20, 8 << 20, 0}, r);
    }

    @Test
    void manySmallCalls() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), 100);
        for (int i = 0; i < 500; i++) {
            assertArrayEquals(new long[] {4, 30, 0}, roundTrip(conn, 4, 30));
        }
    }

    @Test
    void serverAbortSurfacesCode() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), 100);
        RxCall call = conn.newCall();
        new DataOutputStream(call.output()).writeLong(-1234);
        call.output().close();
        InputStream in = call.input();
        RxException e = assertThrows(RxException.class, in::read);
        assertEquals(-1234, e.code());
        assertEquals(true, e.remote());
    }
    private static void finish(RxCall call) throws Exception {
        new DataOutputStream(call.output()).writeLong(0);
        call.output().close();
        assertEquals(0, new DataInputStream(call.input()).readLong());
        call.close();
    }

    @Test
    void manySmallWritesThenALargeOneArriveInOrder() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), 100);
        try (RxCall call = conn.newCall()) {
            DataOutputStream out = new DataOutputStream(call.output());
            out.writeLong(0);
            int total = 3 * CallStreams.CHUNK + 7;
            int small = 2 * CallStreams.FIRST_CHUNK + 3; // crosses the first array's size one byte at a time
            for (int i = 0; i < small; i++) {
                out.write(i % 251);
            }
            byte[] rest = new byte[total - small];
            for (int i = 0; i < rest.length; i++) {
                rest[i] = (byte) ((small + i) % 251);
            }
            out.write(rest);
            out.close();
            assertEquals(total, new DataInputStream(call.input()).readLong(), "the server checked every byte");
        }
    }

    @Test
    void aCallTheEngineRefusesFailsWithInvalidOperation() throws Exception {
        RxEndpoint strict = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .config(org.rx4j.config.RxConfig.builder().maxPendingCalls(0).build()).open();
        try {
            RxConnection conn = strict.connect(server.localAddress(), 100);
            RxCall[] running = new RxCall[4];
            for (int i = 0; i < 4; i++) {
                running[i] = conn.newCall();
            }
            RxCall refused = conn.newCall(); // returns at once; the loop refuses it: no channel, no room to wait
            RxException e = assertThrows(RxException.class, () -> refused.input().read());
            assertEquals(RxCodes.RX_INVALID_OPERATION, e.code());
            assertEquals(false, e.remote());
            assertTrue(e.getMessage().endsWith("too many calls waiting for a channel"), e.getMessage());
            RxCall refusedToo = conn.newCall();
            assertThrows(RxException.class, refusedToo::awaitCompletion);
            RxException onWrite = assertThrows(RxException.class, () -> refusedToo.output().write(1),
                    "once the refusal arrived, writes report it too");
            assertEquals(RxCodes.RX_INVALID_OPERATION, onWrite.code());
            refusedToo.close();
            java.util.concurrent.ExecutionException async = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> conn.callAsync(new byte[] {0, 0, 0, 1}).get(30, java.util.concurrent.TimeUnit.SECONDS));
            RxException asyncRefused = assertInstanceOf(RxException.class, async.getCause());
            assertEquals(RxCodes.RX_INVALID_OPERATION, asyncRefused.code());
            assertTrue(asyncRefused.getMessage().endsWith("too many calls waiting for a channel"),
                    asyncRefused.getMessage());
            assertEquals(-1, refused.channel());
            assertThrows(RxException.class, refused::awaitCompletion);
            refused.close();
            for (RxCall c : running) {
                finish(c);
            }
            conn.close();
            RxException closed = assertThrows(RxException.class, conn::newCall);
            assertEquals(RxCodes.RX_INVALID_OPERATION, closed.code());
        } finally {
            strict.close();
        }
    }

    @Test
    void aWaitingCallReportsItsChannelOnceItStarts() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), 100);
        RxCall[] running = new RxCall[4];
        for (int i = 0; i < 4; i++) {
            running[i] = conn.newCall();
            assertEquals(i, running[i].channel());
            assertEquals(1, running[i].callNumber());
        }
        RxCall waiting = conn.newCall();
        assertEquals(-1, waiting.channel(), "all 4 channels are taken");
        assertEquals(0, waiting.callNumber());
        finish(running[0]);
        while (waiting.channel() == -1) {
            Thread.onSpinWait();
        }
        assertEquals(0, waiting.channel(), "the freed channel");
        assertEquals(2, waiting.callNumber());
        for (int i = 1; i < 4; i++) {
            finish(running[i]);
        }
        finish(waiting);
    }
}
