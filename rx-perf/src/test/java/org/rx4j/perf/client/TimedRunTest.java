// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.perf.fake.InMemoryClient;
import org.rx4j.perf.fake.InMemoryServer;
import org.rx4j.perf.fake.InMemoryTransportFactory;
import org.rx4j.perf.protocol.RxperfCommand;
import org.rx4j.perf.protocol.RxperfProtocol;
import org.rx4j.perf.protocol.RxperfRequest;
import org.rx4j.perf.protocol.RxperfServerHandler;
import org.rx4j.perf.transport.PerfEndpointOptions;

/**
 * {@code --time}/{@code --omit} accounting of the driver over the in-memory transport, on an injected clock that
 * moves 1 ms per reading (one thread, so the readings and thus the figures are exact) and a CPU clock that moves
 * 10 µs per reading.
 */
@Timeout(60)
class TimedRunTest {
    private static final long MS = 1_000_000L;
    private static final int CHUNK = 524288;

    private final InMemoryTransportFactory factory = new InMemoryTransportFactory();
    private InMemoryServer server;
    private InMemoryClient client;
    private InetSocketAddress address;

    @BeforeEach
    void start() throws IOException {
        server = factory.newServer(PerfEndpointOptions.defaults());
        int port = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), RxperfProtocol.SERVICE_ID,
                new RxperfServerHandler(true, line -> { }));
        address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        client = factory.newClient(PerfEndpointOptions.defaults());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private RunResult run(RxperfRequest request, RunSchedule schedule, AtomicLong clock, AtomicLong cpu)
            throws Exception {
        ClientDriver driver = new ClientDriver(request, 1, schedule, true, request.command() == RxperfCommand.RPC,
                () -> clock.addAndGet(MS), () -> cpu.addAndGet(10_000));
        return driver.run(client, address, RxperfProtocol.SERVICE_ID, new LongAdder(), s -> { });
    }

    @Test
    void timedRunCountsOnlyCallsEndingAfterTheOmittedTime() throws Exception {
        // Readings: start = 1 ms. Each call reads the clock three times: loop check, begin, end (3 ms per call):
        // call k (k = 1, 2, ...) ends at 1 + 3k ms. Omit 10 ms: calls ending at 4, 7, 10 ms are left out, calls
        // ending at 13 .. 100 count (30 calls); the check at 100 + 1 = 101 ms is past 1 + 100 ms, so it stops.
        // The end reading is 102 ms: elapsed 102 - (1 + 10) = 91 ms.
        RxperfRequest rpc = new RxperfRequest(RxperfCommand.RPC, 0, 4, 4, CHUNK, CHUNK, null);
        RunResult result = run(rpc, RunSchedule.timed(100 * MS, 10 * MS), new AtomicLong(), new AtomicLong());
        assertEquals(3, result.omittedCalls());
        assertEquals(30, result.calls());
        assertEquals(30L * 8, result.payloadBytes());
        assertEquals(30, result.latencyNanos().getTotalCount());
        assertEquals(91 * MS, result.elapsedNanos());
        // CPU readings: first counted call (1st reading, 10 µs), end (2nd reading, 20 µs)
        assertEquals(10_000, result.cpuNanos());
    }

    @Test
    void timedRunWithoutOmitCountsEveryCall() throws Exception {
        RxperfRequest send = new RxperfRequest(RxperfCommand.SEND, 1000, 3, 30, CHUNK, CHUNK, null);
        RunResult result = run(send, RunSchedule.timed(30 * MS, 0), new AtomicLong(), new AtomicLong());
        // calls end at 4, 7, ..., 31 ms (10 calls); the check at 32 ms is past 1 + 30 ms
        assertEquals(10, result.calls());
        assertEquals(0, result.omittedCalls());
        assertEquals(10_000, result.payloadBytes());
        assertEquals(32 * MS, result.elapsedNanos());
    }

    @Test
    void countedRunReportsCpuOfTheWholeRun() throws Exception {
        RxperfRequest send = new RxperfRequest(RxperfCommand.SEND, 1000, 3, 30, CHUNK, CHUNK, null);
        RunResult result = run(send, RunSchedule.calls(4), new AtomicLong(), new AtomicLong(50_000));
        assertEquals(4, result.calls());
        assertEquals(4000, result.payloadBytes());
        assertEquals(10_000, result.cpuNanos());
        // readings: start 1 ms, the first call's begin 2 ms, its end (read once, for this figure) 3 ms
        assertEquals(2 * MS, result.firstCallNanos());
    }

    @Test
    void slowestLaterCallLeavesTheFirstCallOut() throws Exception {
        // Counted rpc run, one thread: the start reading, then begin/end per call. Call 1 takes 50 ms (connection
        // set-up), call 2 1 ms, call 3 5 ms, call 4 1 ms; the last reading is the run's end.
        long[] readings = {0, 0, 50 * MS, 50 * MS, 51 * MS, 51 * MS, 56 * MS, 56 * MS, 57 * MS, 57 * MS};
        int[] next = {0};
        RxperfRequest rpc = new RxperfRequest(RxperfCommand.RPC, 0, 4, 4, CHUNK, CHUNK, null);
        ClientDriver driver = new ClientDriver(rpc, 1, RunSchedule.calls(4), true, true,
                () -> readings[Math.min(next[0]++, readings.length - 1)], () -> 0L);
        RunResult result = driver.run(client, address, RxperfProtocol.SERVICE_ID, new LongAdder(), s -> { });
        assertEquals(4, result.calls());
        assertEquals(5 * MS, result.maxLaterCallNanos());
        assertEquals(50 * MS, result.firstCallNanos(), "the start to the first call's end");
        assertEquals(50.0, result.latencyNanos().getMaxValue() / 1e6, 0.1);
    }
}
