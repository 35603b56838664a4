// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.engine.RxEngine;

/**
 * Run in a JVM of its own by {@link SchedulerSliceTest}: binds a transport that asks for the slice given in ns and
 * prints {@code schedulerSliceNs()}, the loop thread's slice, the main thread's slice and the slice of a thread the loop
 * started (ns, from /proc/thread-self/sched; -1 where the kernel does not show it).
 */
public final class SchedulerSliceProbe {
    private SchedulerSliceProbe() {
    }

    /**
     * @param args the slice, ns
     * @throws Exception what binding or the loop threw
     */
    public static void main(String[] args) throws Exception {
        RxConfig config = RxConfig.builder().schedulerSliceNs(Long.parseLong(args[0])).build();
        try (RxTransport t = RxTransport.bind(config, new InetSocketAddress("127.0.0.1", 0), TransportKind.NIO,
                (sink, alloc, now) -> new RxEngine(config, sink, alloc, 1, now))) {
            long loopSlice = t.submit(e -> SchedulerSliceTest.threadSliceNs()).get(10, TimeUnit.SECONDS);
            // A thread the loop starts, as an executor's worker created on demand from the loop would be.
            long childSlice = t.submit(e -> {
                long[] seen = new long[1];
                Thread child = new Thread(() -> seen[0] = SchedulerSliceTest.threadSliceNs(), "probe-child");
                child.start();
                try {
                    child.join();
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
                return seen[0];
            }).get(10, TimeUnit.SECONDS);
            System.out.println(t.schedulerSliceNs() + " " + loopSlice + " " + SchedulerSliceTest.threadSliceNs() + " "
                    + childSlice);
        }
    }
}
