// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import javax.management.ObjectName;
import org.rx4j.rpc.RxConnection;

/**
 * Heap per idle connection (goal ≤ 2 KiB, docs/benchmarks.md "Heap per idle connection"; OpenAFS ≈ 3 KiB). Not a
 * JMH benchmark: a main that
 * opens two endpoints on 127.0.0.1, makes {@code N} client connections with one small call each (4-byte request
 * and reply), waits until every call is past its dally time (2 s: the client's final-ack delay is 100 ms), forces
 * full GCs and reads the used heap. Both endpoints live in this JVM, so the delta divided by N is the cost of one
 * connection on both sides (client: engine connection, its last call and the rpc {@code RxConnection}; server:
 * engine connection and its last call, kept until the idle reaper, 700 s); the class histogram shows the two
 * sides hold the same engine objects, so half of it is printed as the per-side figure.
 *
 * <p>Run: {@code java -Xmx1g -cp rx-bench/target/benchmarks.jar org.rx4j.bench.IdleConnectionHeap [N]}
 * (N defaults to 10,000). Prints bytes per connection for both sides together and per side; with
 * {@code -Dhistogram=true} also the top of the live-object class histogram once the connections are idle.
 */
public final class IdleConnectionHeap {
    private IdleConnectionHeap() {
    }

    /**
     * @param args optional connection count N (default 10,000)
     * @throws Exception if an endpoint or a call fails
     */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        byte[] request = new byte[4];
        byte[] reply = new byte[64];
        try (LoopbackPair pair = new LoopbackPair(4)) {
            // Warm up the paths (and their lazily built classes and pools) on a connection we keep.
            RxConnection warm = pair.client.connect(pair.serverAddress, LoopbackPair.SERVICE);
            for (int i = 0; i < 2_000; i++) {
                LoopbackPair.call(warm, request, 1, reply);
            }
            Thread.sleep(2_000);
            long base = usedAfterGc();
            RxConnection[] conns = new RxConnection[n];
            for (int i = 0; i < n; i++) {
                conns[i] = pair.client.connect(pair.serverAddress, LoopbackPair.SERVICE);
                LoopbackPair.call(conns[i], request, 1, reply);
            }
            Thread.sleep(2_000);
            long both = usedAfterGc();
            if (Boolean.getBoolean("histogram")) {
                printHistogram();
            }
            double pairBytes = (both - base) / (double) n;
            System.out.printf("connections: %d (each known to both endpoints)%n", n);
            System.out.printf("heap per idle connection, client + server side: %.0f bytes%n", pairBytes);
            System.out.printf("heap per idle connection, per side (half):      %.0f bytes%n", pairBytes / 2);
            if (conns[n - 1] == null) {
                throw new IllegalStateException(); // keeps the connections reachable until measured
            }
            if (pair.client.statistics() == null) {
                throw new IllegalStateException(); // keeps the endpoints reachable until here
            }
        }
    }

    /** Prints the top of the live-object class histogram (the DiagnosticCommand MBean's GC.class_histogram). */
    private static void printHistogram() throws Exception {
        Object text = ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {null}, new String[] {String[].class.getName()});
        String[] lines = text.toString().split("\n");
        for (int i = 0; i < Math.min(45, lines.length); i++) {
            System.out.println(lines[i]);
        }
    }

    private static long usedAfterGc() throws IOException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
