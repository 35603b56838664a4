// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rx4j.rpc.stats.CounterStats;
import org.rx4j.rpc.RxConnection;

/**
 * Stats under load (docs/benchmarks.md "Stats under load"): two driving threads make small calls (4-byte request,
 * 4-byte reply) over their own connections between two in-JVM loopback endpoints, while a third thread either takes the
 * client endpoint's totals ({@code RxEndpoint.statistics().totals()}) once per millisecond ({@code withReader}) or does
 * the same pacing without reading ({@code noopReader}). Compare the {@code call} scores (calls/s per driving thread) of
 * the two groups: the target is a drop below 5%. Run: {@code java -jar rx-bench/target/benchmarks.jar
 * StatsUnderLoadBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Dio.netty.leakDetection.level=disabled")
public class StatsUnderLoadBenchmark {
    private static final long PERIOD_NS = 1_000_000;

    /** The endpoints, shared by the group's threads. */
    @State(Scope.Group)
    public static class Endpoints {
        LoopbackPair pair;

        /**
         * Opens both endpoints.
         *
         * @throws IOException if a socket cannot be bound
         */
        @Setup(Level.Trial)
        public void setUp() throws IOException {
            pair = new LoopbackPair(4);
        }

        /** Closes both endpoints. */
        @TearDown(Level.Trial)
        public void tearDown() {
            pair.close();
        }
    }

    /** One driving thread's connection and buffers. */
    @State(Scope.Thread)
    public static class Driver {
        RxConnection conn;
        final byte[] request = new byte[4];
        final byte[] reply = new byte[64];

        /**
         * Opens this thread's connection.
         *
         * @param endpoints the group's endpoints
         */
        @Setup(Level.Trial)
        public void setUp(Endpoints endpoints) {
            conn = endpoints.pair.client.connect(endpoints.pair.serverAddress, LoopbackPair.SERVICE);
        }
    }

    /** The reader's pacing: the next time it reads, on the nanoTime clock. */
    @State(Scope.Thread)
    public static class Pacer {
        long next = System.nanoTime();

        void await() {
            next += PERIOD_NS;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            } else {
                next = System.nanoTime();
            }
        }
    }

    /**
     * @param endpoints the endpoints
     * @param driver this thread's connection
     * @return reply bytes
     * @throws IOException if the call fails
     */
    @Benchmark
    @Group("withReader")
    @GroupThreads(2)
    public int call(Endpoints endpoints, Driver driver) throws IOException {
        return LoopbackPair.call(driver.conn, driver.request, 1, driver.reply);
    }

    /**
     * @param endpoints the endpoints
     * @param pacer this thread's pacing
     * @return the client endpoint's totals
     */
    @Benchmark
    @Group("withReader")
    @GroupThreads(1)
    public CounterStats readTotals(Endpoints endpoints, Pacer pacer) {
        pacer.await();
        return endpoints.pair.client.statistics().totals();
    }

    /**
     * @param endpoints the endpoints
     * @param driver this thread's connection
     * @return reply bytes
     * @throws IOException if the call fails
     */
    @Benchmark
    @Group("noopReader")
    @GroupThreads(2)
    public int callNoop(Endpoints endpoints, Driver driver) throws IOException {
        return LoopbackPair.call(driver.conn, driver.request, 1, driver.reply);
    }

    /**
     * @param pacer this thread's pacing
     * @return nothing of interest
     */
    @Benchmark
    @Group("noopReader")
    @GroupThreads(1)
    public long noop(Pacer pacer) {
        pacer.await();
        return pacer.next;
    }
}
