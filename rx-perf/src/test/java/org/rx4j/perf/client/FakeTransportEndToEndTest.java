// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.perf.fake.InMemoryClient;
import org.rx4j.perf.fake.InMemoryConnection;
import org.rx4j.perf.fake.InMemoryServer;
import org.rx4j.perf.fake.InMemoryTransportFactory;
import org.rx4j.perf.protocol.FileWords;
import org.rx4j.perf.protocol.PayloadMismatchException;
import org.rx4j.perf.protocol.RxperfCommand;
import org.rx4j.perf.protocol.RxperfParamBlock;
import org.rx4j.perf.protocol.RxperfProtocol;
import org.rx4j.perf.protocol.RxperfProtocolException;
import org.rx4j.perf.protocol.RxperfRequest;
import org.rx4j.perf.protocol.RxperfServerHandler;
import org.rx4j.perf.transport.PerfCall;
import org.rx4j.perf.transport.PerfCallException;
import org.rx4j.perf.transport.PerfConnection;
import org.rx4j.perf.transport.PerfEndpointOptions;

/**
 * rxperf's client (workload + driver) against its server handler, end to end over the in-memory fake transport:
 * every command with --verify on both sides, byte counts, aborts and connection fan-out.
 */
@Timeout(60)
class FakeTransportEndToEndTest {
    private static final int CHUNK = 524288;

    private final InMemoryTransportFactory factory = new InMemoryTransportFactory();
    private final List<String> serverLog = new CopyOnWriteArrayList<>();
    private InMemoryServer server;
    private InMemoryClient client;
    private InetSocketAddress address;

    @BeforeEach
    void start() throws IOException {
        startServer(new RxperfServerHandler(true, serverLog::add));
    }

    private void startServer(org.rx4j.perf.transport.PerfCallHandler handler) throws IOException {
        server = factory.newServer(PerfEndpointOptions.defaults());
        int port = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), RxperfProtocol.SERVICE_ID,
                handler);
        address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        client = factory.newClient(PerfEndpointOptions.defaults());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private RunResult run(RxperfRequest request, int threads, int times) throws Exception {
        ClientDriver driver = new ClientDriver(request, threads, times, true,
                request.command() == RxperfCommand.RPC, System::nanoTime);
        return driver.run(client, address, RxperfProtocol.SERVICE_ID, new LongAdder(), start -> { });
    }

    @Test
    void sendMovesEveryByteAndVerifies() throws Exception {
        RunResult result = run(new RxperfRequest(RxperfCommand.SEND, 100_000, 3, 30, 8192, 1000, null), 1, 5);
        assertEquals(5, result.calls());
        assertEquals(500_000, result.payloadBytes());
        assertEquals(1, result.connections());
        assertNull(result.latencyNanos());
        assertEquals(List.of(), serverLog);
    }

    @Test
    void recvMovesEveryByteAndVerifies() throws Exception {
        RunResult result = run(new RxperfRequest(RxperfCommand.RECV, 1_048_576, 3, 30, CHUNK, 65536, null), 2, 3);
        assertEquals(6, result.calls());
        assertEquals(6L * 1_048_576, result.payloadBytes());
    }

    @Test
    void rpcRecordsOneLatencyPerCall() throws Exception {
        RunResult result = run(new RxperfRequest(RxperfCommand.RPC, 0, 3, 30, CHUNK, CHUNK, null), 3, 20);
        assertEquals(60, result.calls());
        assertEquals(60L * 33, result.payloadBytes());
        assertEquals(60, result.latencyNanos().getTotalCount());
    }

    @Test
    void fileRunsTheWordListBothWays() throws Exception {
        FileWords words = FileWords.parse("w", new BufferedReader(new StringReader("1000\n\n250\n0\n0\n4000\n")));
        RunResult result = run(new RxperfRequest(RxperfCommand.FILE, 1, 3, 30, 3000, 700, words), 1, 4);
        assertEquals(4, result.calls());
        assertEquals(4L * 4 * (1000 + 250 + 4000), result.payloadBytes());
        assertEquals(List.of(), serverLog);
    }

    @Test
    void nineThreadsUseThreeConnectionsOfAtMostFourCalls() throws Exception {
        RunResult result = run(new RxperfRequest(RxperfCommand.RPC, 0, 10, 10, CHUNK, CHUNK, null), 9, 7);
        assertEquals(3, result.connections());
        List<InMemoryConnection> connections = client.connections();
        assertEquals(3, connections.size());
        assertEquals(List.of(28, 28, 7), connections.stream().map(InMemoryConnection::calls).toList());
        assertTrue(connections.stream().allMatch(c -> c.peakActive() <= 4));
        assertEquals(63, result.calls());
    }

    @Test
    void serverNotAnsweringFailsTheRunWithTheAbortCode() {
        InetSocketAddress nobody = new InetSocketAddress(InetAddress.getLoopbackAddress(), 1);
        ClientDriver driver = new ClientDriver(new RxperfRequest(RxperfCommand.SEND, 10, 3, 30, CHUNK, CHUNK, null),
                5, 3, false, false, System::nanoTime);
        PerfCallException e = assertThrows(PerfCallException.class,
                () -> driver.run(client, nobody, RxperfProtocol.SERVICE_ID, new LongAdder(), start -> { }));
        assertEquals(-1, e.code());
    }

    @Test
    void badVersionIsAbortedWithMinusOneOverTheTransport() throws Exception {
        assertEquals(-1, rawCallAbortCode(new RxperfParamBlock(2, 0, CHUNK, CHUNK), 0));
        assertTrue(serverLog.get(0).contains("wrong version 2"), serverLog.toString());
    }

    @Test
    void oversizeChunkIsAbortedWithMinusOneOverTheTransport() throws Exception {
        assertEquals(-1, rawCallAbortCode(new RxperfParamBlock(3, 1, CHUNK + 1, CHUNK), 10));
        assertEquals(-1, rawCallAbortCode(new RxperfParamBlock(3, 1, CHUNK, CHUNK + 1), 10));
    }

    /** Sends a hand-made block (+ one int32) and returns the abort code the client sees. */
    private int rawCallAbortCode(RxperfParamBlock block, int field) throws IOException {
        try (PerfConnection connection = client.connect(address, RxperfProtocol.SERVICE_ID)) {
            PerfCall call = connection.newCall();
            byte[] bytes = new byte[20];
            block.encode(bytes, 0);
            ByteBuffer.wrap(bytes).putInt(16, field);
            // the abort may overtake the client anywhere after the block: at finishRequest or at the first read
            PerfCallException e = assertThrows(PerfCallException.class, () -> {
                call.requestStream().write(bytes);
                call.finishRequest();
                call.replyStream().read(new byte[4]);
            });
            assertThrows(PerfCallException.class, call::close);
            return e.code();
        }
    }

    @Test
    void serverVerifyRejectsZeroPayloadWith251() throws Exception {
        try (PerfConnection connection = client.connect(address, RxperfProtocol.SERVICE_ID)) {
            PerfCall call = connection.newCall();
            OutputStream out = call.requestStream();
            byte[] header = new byte[20];
            new RxperfParamBlock(3, 0, CHUNK, CHUNK).encode(header, 0);
            ByteBuffer.wrap(header).putInt(16, 100);
            PerfCallException e = assertThrows(PerfCallException.class, () -> {
                out.write(header);
                out.write(new byte[100]);  // zeros, as an OpenAFS client sends: byte 1 breaks the pattern
                call.finishRequest();
                call.replyStream().read();
            });
            assertEquals(251, e.code());
            assertThrows(PerfCallException.class, call::close);
        }
        assertTrue(serverLog.get(0).contains("at byte 1: got 0x00, expected 0x01"), serverLog.toString());
    }

    @Test
    void clientVerifyRejectsAServerSendingZeros() throws Exception {
        stop();
        // an OpenAFS-like server: reads the block and N, replies N zero bytes and the cookie
        startServer((request, reply) -> {
            RxperfParamBlock.read(request);
            int n = RxperfProtocol.readInt32(request);
            reply.write(new byte[n]);
            reply.write(ByteBuffer.allocate(4).putInt(RxperfProtocol.MAGIC_COOKIE).array());
        });
        RxperfRequest recv = new RxperfRequest(RxperfCommand.RECV, 1000, 3, 30, CHUNK, CHUNK, null);
        ClientDriver verifying = new ClientDriver(recv, 1, 2, true, false, System::nanoTime);
        PayloadMismatchException e = assertThrows(PayloadMismatchException.class,
                () -> verifying.run(client, address, RxperfProtocol.SERVICE_ID, new LongAdder(), start -> { }));
        assertEquals("payload mismatch in RECV reply at byte 1: got 0x00, expected 0x01", e.getMessage());
        // without --verify, content is ignored (as OpenAFS)
        ClientDriver plain = new ClientDriver(recv, 1, 2, false, false, System::nanoTime);
        assertEquals(2000, plain.run(client, address, RxperfProtocol.SERVICE_ID, new LongAdder(), s -> { })
                .payloadBytes());
    }

    @Test
    void wrongCookieFailsTheRun() throws Exception {
        stop();
        startServer((request, reply) -> {
            RxperfParamBlock.read(request);
            RxperfProtocol.readInt32(request);
            request.readAllBytes();
            reply.write(new byte[] {0, 0, 0x47, 0x12});
        });
        ClientDriver driver = new ClientDriver(new RxperfRequest(RxperfCommand.SEND, 10, 3, 30, CHUNK, CHUNK, null),
                1, 1, false, false, System::nanoTime);
        RxperfProtocolException e = assertThrows(RxperfProtocolException.class,
                () -> driver.run(client, address, RxperfProtocol.SERVICE_ID, new LongAdder(), s -> { }));
        assertEquals("SEND reply carried cookie 0x00004712 instead of 0x00004711", e.getMessage());
    }

    @Test
    void timerStartsAfterConnectionSetupAndStopsAfterTheLastThread() throws Exception {
        AtomicLong reads = new AtomicLong();
        long[] started = new long[1];
        // a clock that advances 1 ms per reading; SEND reads it once per call begin, plus start, the first call's end
        // (its time is reported apart) and the end
        ClientDriver driver = new ClientDriver(new RxperfRequest(RxperfCommand.SEND, 10, 3, 30, CHUNK, CHUNK, null),
                1, 3, false, false, () -> reads.getAndIncrement() * 1_000_000L);
        RunResult result = driver.run(client, address, RxperfProtocol.SERVICE_ID, new LongAdder(),
                start -> started[0] = start);
        assertEquals(0, started[0]);
        assertEquals(5_000_000L, result.elapsedNanos());
        assertEquals(5_000, result.elapsedMicros());
        assertEquals(2_000_000L, result.firstCallNanos(), "start 0, first begin 1 ms, its end 2 ms");
        assertEquals(1, client.connections().size());
    }
}
