// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rx4j.rpc.RxConnection;

/**
 * Cost growth with the number of connections (docs/benchmarks.md "Cost growth with connections"): one client endpoint
 * holds {@code conns} connections to one server endpoint (both in this JVM on 127.0.0.1), each opened by one call in
 * the set-up so that both sides know it; the benchmark thread then makes small calls (4-byte request and reply)
 * round-robin over all of them, one at a time, so the number of outstanding calls stays 1 while the connection count
 * grows. Target: the time per call at 10,000 connections within 1.5× of the time at 1. Run: {@code java -jar
 * rx-bench/target/benchmarks.jar ConnectionGrowthBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Dio.netty.leakDetection.level=disabled")
@State(Scope.Thread)
public class ConnectionGrowthBenchmark {
    /** Client connections. */
    @Param({"1", "100", "1000", "10000"})
    public int conns;

    private LoopbackPair pair;
    private RxConnection[] connections;
    private int next;
    private final byte[] request = new byte[4];
    private final byte[] reply = new byte[64];

    /**
     * Opens the endpoints and the connections, one call on each.
     *
     * @throws IOException if a socket cannot be bound or a call fails
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        pair = new LoopbackPair(4);
        connections = new RxConnection[conns];
        for (int i = 0; i < conns; i++) {
            connections[i] = pair.client.connect(pair.serverAddress, LoopbackPair.SERVICE);
            LoopbackPair.call(connections[i], request, 1, reply);
        }
    }

    /** Closes the endpoints. */
    @TearDown(Level.Trial)
    public void tearDown() {
        pair.close();
    }

    /**
     * @return reply bytes
     * @throws IOException if the call fails
     */
    @Benchmark
    public int call() throws IOException {
        RxConnection c = connections[next];
        next = next + 1 == conns ? 0 : next + 1;
        return LoopbackPair.call(c, request, 1, reply);
    }
}
