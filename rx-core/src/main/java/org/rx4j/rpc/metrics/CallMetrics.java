// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.rx4j.rpc.RxCallInfo;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.stats.ProcedureMetrics;

/**
 * An endpoint's per-procedure call metrics (docs/embedding.md, "Metrics"): one {@link ProcedureMeter} per (side,
 * service id, opcode), made when that procedure's first call ends. Calls record through a {@link CallMeter} each
 * (the one hook per call, client and server side). Thread-safe. The meters sit in a copy-on-write open-addressed
 * table keyed by a primitive long: a call's lookup allocates nothing (no boxed key) and takes no lock; only a
 * procedure's first call copies the table, and an endpoint sees few procedures.
 */
public final class CallMetrics {
    /** The keys and meters at the same index; null meter = free slot. Replaced whole, never changed in place. */
    private record Table(long[] keys, ProcedureMeter[] meters) {
        ProcedureMeter get(long key) {
            int mask = keys.length - 1;
            for (int i = slot(key, mask); ; i = (i + 1) & mask) {
                ProcedureMeter m = meters[i];
                if (m == null || keys[i] == key) {
                    return m;
                }
            }
        }

        /** @return a copy with the meter added, grown so at most half the slots are used */
        Table with(long key, ProcedureMeter meter, int count) {
            int size = keys.length;
            while (2 * (count + 1) > size) {
                size *= 2;
            }
            Table t = new Table(new long[size], new ProcedureMeter[size]);
            for (int i = 0; i < keys.length; i++) {
                if (meters[i] != null) {
                    t.put(keys[i], meters[i]);
                }
            }
            t.put(key, meter);
            return t;
        }

        private void put(long key, ProcedureMeter meter) {
            int mask = keys.length - 1;
            int i = slot(key, mask);
            while (meters[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = key;
            meters[i] = meter;
        }

        private static int slot(long key, int mask) {
            long h = key * 0x9E3779B97F4A7C15L; // Fibonacci hashing spreads service id and opcode over the bits
            return (int) (h >>> 32) & mask;
        }
    }

    private volatile Table table = new Table(new long[16], new ProcedureMeter[16]);
    /** Meters in {@link #table}; written under this object's lock. */
    private int count;

    /**
     * A client call's meter, started now.
     *
     * @param serviceId the connection's service id
     * @param startNs the call's start, endpoint clock, ns
     * @return the meter; the caller ends it once
     */
    public CallMeter clientCall(int serviceId, long startNs) {
        return new CallMeter(this, false, serviceId, startNs);
    }

    /**
     * Records a client call that ended before it reached the engine (refused by a client interceptor, arguments that
     * failed to marshal, the endpoint closing), so every client call end the application sees is counted.
     *
     * @param serviceId the connection's service id
     * @param opcodeOrNone the call's opcode when its form knows it, or {@link RxCallInfo#NO_OPCODE} (counted as
     *     {@link ProcedureMetrics#UNKNOWN_OPCODE})
     * @param startNs the call's start, endpoint clock, ns
     * @param code the Rx code it ended with
     * @param nowNs its end, endpoint clock, ns
     * @return its duration, ns
     */
    public long clientCallEnded(int serviceId, long opcodeOrNone, long startNs, int code, long nowNs) {
        CallMeter meter = clientCall(serviceId, startNs);
        if (opcodeOrNone != ApiAccess.NO_OPCODE) {
            meter.opcode((int) opcodeOrNone);
        }
        return meter.end(code, nowNs);
    }

    /**
     * A server call's meter, started now.
     *
     * @param serviceId the call's service id
     * @param startNs the call's arrival, endpoint clock, ns
     * @return the meter; the caller ends it once
     */
    public CallMeter serverCall(int serviceId, long startNs) {
        return new CallMeter(this, true, serviceId, startNs);
    }

    /**
     * Counts one ended call. Any thread.
     *
     * @param server the side
     * @param serviceId the service id
     * @param opcode the opcode, or {@link ProcedureMetrics#UNKNOWN_OPCODE}
     * @param code 0 or the Rx code the call ended with
     * @param durationNs how long it took, ns
     */
    void record(boolean server, int serviceId, int opcode, int code, long durationNs) {
        long key = key(server, serviceId, opcode);
        ProcedureMeter m = table.get(key);
        if (m == null) {
            m = add(key, server, serviceId, opcode);
        }
        m.record(code, durationNs);
    }

    private synchronized ProcedureMeter add(long key, boolean server, int serviceId, int opcode) {
        ProcedureMeter m = table.get(key); // another thread may have added it meanwhile
        if (m == null) {
            m = new ProcedureMeter(server, serviceId, opcode);
            table = table.with(key, m, count);
            count++;
        }
        return m;
    }

    private static long key(boolean server, int serviceId, int opcode) {
        return (server ? 1L << 48 : 0) | (long) (serviceId & 0xffff) << 32 | (opcode & 0xffffffffL);
    }

    /**
     * @param server the side
     * @param serviceId the service id
     * @param opcode the opcode
     * @return that procedure's snapshot, or null before its first call ended
     */
    public ProcedureMetrics find(boolean server, int serviceId, int opcode) {
        ProcedureMeter m = table.get(key(server, serviceId, opcode));
        return m == null ? null : m.snapshot();
    }

    /** @return every procedure seen so far: server side first, then by service id and opcode */
    public List<ProcedureMetrics> snapshot() {
        List<ProcedureMetrics> out = new ArrayList<>();
        for (ProcedureMeter m : table.meters()) {
            if (m != null) {
                out.add(m.snapshot());
            }
        }
        out.sort(Comparator.comparing((ProcedureMetrics p) -> !p.server()).thenComparingInt(ProcedureMetrics::serviceId)
                .thenComparingInt(ProcedureMetrics::opcode));
        return out;
    }
}
