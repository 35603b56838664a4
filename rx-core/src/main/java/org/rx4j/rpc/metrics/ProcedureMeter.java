// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.rx4j.rpc.stats.ProcedureMetrics;

/** The live counters of one (side, service, opcode): calls, failures by Rx code, latency. Any thread. */
final class ProcedureMeter {
    private final boolean server;
    private final int serviceId;
    private final int opcode;
    private final AtomicLong calls = new AtomicLong();
    private final Map<Integer, AtomicLong> errors = new ConcurrentHashMap<>();
    private final LatencyHistogram latency = new LatencyHistogram();

    ProcedureMeter(boolean server, int serviceId, int opcode) {
        this.server = server;
        this.serviceId = serviceId;
        this.opcode = opcode;
    }

    /**
     * Counts one ended call.
     *
     * @param code 0 for success, else the Rx code it ended with
     * @param durationNs how long it took, ns
     */
    void record(int code, long durationNs) {
        calls.incrementAndGet();
        if (code != 0) {
            errors.computeIfAbsent(code, c -> new AtomicLong()).incrementAndGet();
        }
        latency.record(durationNs);
    }

    ProcedureMetrics snapshot() {
        Map<Integer, Long> byCode = new java.util.HashMap<>();
        errors.forEach((code, n) -> byCode.put(code, n.get()));
        return new ProcedureMetrics(server, serviceId, opcode, calls.get(), byCode, latency.snapshot());
    }
}
