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
import org.rx4j.config.TransportKind;
import org.rx4j.rpc.RxConnection;

/**
 * End to end in one JVM: two {@link org.rx4j.rpc.RxEndpoint}s on 127.0.0.1 (real UDP sockets), one call per
 * invocation sending 1 MiB (16 writes of 64 KiB from one reused array) and reading a 4-byte reply, like
 * {@code rxperf -c send -b 1048576}. With {@code -prof gc}, B/op is the bytes both endpoints together allocate
 * per MiB sent (goal ≤ 4 KiB, docs/benchmarks.md "Allocation end to end"); ms/op is the time per MiB.
 * Run: {@code java -jar rx-bench/target/benchmarks.jar LoopbackTransferBenchmark -prof gc}; {@code -p transport=epoll
 * -p segmentationOffload=true,false} measures the epoll transport with and without UDP GSO/GRO.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Dio.netty.leakDetection.level=disabled")
@State(Scope.Benchmark)
public class LoopbackTransferBenchmark {
    private static final int CHUNK = 65536;
    private static final int CHUNKS = 16;

    /** Both endpoints' socket implementation: nio (the library default) or epoll. */
    @Param({"nio"})
    public String transport;
    /** Both endpoints' UDP GSO/GRO setting (epoll only). */
    @Param({"true"})
    public boolean segmentationOffload;

    private LoopbackPair pair;
    private RxConnection conn;
    private final byte[] chunk = new byte[CHUNK];
    private final byte[] reply = new byte[64];

    /**
     * Opens both endpoints and one connection.
     *
     * @throws IOException if a socket cannot be bound
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        pair = new LoopbackPair(4, TransportKind.parse(transport), segmentationOffload);
        conn = pair.client.connect(pair.serverAddress, LoopbackPair.SERVICE);
    }

    /** Closes both endpoints. */
    @TearDown(Level.Trial)
    public void tearDown() {
        pair.close();
    }

    /**
     * @return reply bytes (4)
     * @throws IOException if the call fails
     */
    @Benchmark
    public int sendMiB() throws IOException {
        return LoopbackPair.call(conn, chunk, CHUNKS, reply);
    }
}
