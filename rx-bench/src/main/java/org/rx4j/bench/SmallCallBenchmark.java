// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
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
import org.rx4j.rpc.RxCallEnd;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;

/**
 * What each call costs the RPC layer's per-call hooks (docs/embedding.md "Interceptors" and "Call logs"): one small
 * typed call per invocation (opcode and a 4-byte argument out, 4 bytes back) between two {@link RxEndpoint}s on
 * 127.0.0.1. rx-bench has no SLF4J binding, so the call log is off, as it is by default: with {@code -prof gc},
 * {@code -p interceptors=0} gives the B/op of a call with no interceptor and the log off, which should equal the
 * same benchmark's on the commit before the hooks (no allocation added); {@code -p interceptors=1} adds one
 * interceptor on each side that returns a shared end (the price of the call information it sees).
 * Run: {@code java -jar rx-bench/target/benchmarks.jar SmallCallBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Dio.netty.leakDetection.level=disabled")
@State(Scope.Benchmark)
public class SmallCallBenchmark {
    private static final int SERVICE = 1;
    private static final int OPCODE = 1;
    private static final RxCallEnd NOTHING = (code, ns) -> { };

    /** Interceptors on each side: 0 (default) or 1. */
    @Param({"0", "1"})
    public int interceptors;

    private RxEndpoint server;
    private RxEndpoint client;
    private RxConnection conn;

    /**
     * Opens both endpoints and one connection.
     *
     * @throws IOException if a socket cannot be bound
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        RxService service = RxService.builder(SERVICE)
                .async(OPCODE, req -> CompletableFuture.completedFuture(req.arguments()))
                .build();
        RxEndpoint.Builder s = RxEndpoint.builder().bind(any).service(service);
        RxEndpoint.Builder c = RxEndpoint.builder().bind(any).probeUnreachable(false);
        if (interceptors > 0) {
            s.serverInterceptor(call -> NOTHING);
            c.clientInterceptor(call -> NOTHING);
        }
        server = s.open();
        client = c.open();
        conn = client.connect(server.localAddress(), SERVICE);
    }

    /** Closes both endpoints. */
    @TearDown(Level.Trial)
    public void tearDown() {
        client.close(0);
        server.close(0);
    }

    /**
     * One call.
     *
     * @return the reply's value (kept alive for JMH)
     * @throws IOException if the call fails
     */
    @Benchmark
    public int call() throws IOException {
        return conn.call(OPCODE, w -> w.writeInt(42), r -> r.readInt());
    }
}
