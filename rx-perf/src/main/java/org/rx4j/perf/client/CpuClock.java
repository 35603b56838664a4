// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.client;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;

/**
 * The CPU time this process has used so far, user + system, all threads (JIT compiler and GC threads included),
 * as {@code getrusage(RUSAGE_SELF)} reports it. Used for rxperf's CPU figures (CPU seconds per GiB and per
 * call, docs/rxperf.md).
 */
@FunctionalInterface
public interface CpuClock {
    /**
     * Process CPU time so far.
     *
     * @return ns of user + system CPU time, or -1 if the platform does not report it
     */
    long processCpuNanos();

    /**
     * The JVM's figure: {@code com.sun.management.OperatingSystemMXBean.getProcessCpuTime()} where available, else
     * {@link ProcessHandle.Info#totalCpuDuration()}, else -1.
     *
     * @return the clock
     */
    static CpuClock system() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun && sun.getProcessCpuTime() >= 0) {
            return sun::getProcessCpuTime;
        }
        return () -> ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }
}
