package org.rx4j.rpc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An endpoint's per-procedure call metrics (docs/embedding.md, "Metrics"): one {@link ProcedureMeter} per (side,
 * service id, opcode), made when that procedure's first call ends. Calls record through a {@link CallMeter} each
 * (the one hook per call, client and server side). Thread-safe.
 */
final class CallMetrics {
    private final ConcurrentHashMap<Long, ProcedureMeter> meters = new ConcurrentHashMap<>();

    /**
     * A client call's meter, started now.
     *
     * @param serviceId the connection's service id
     * @param startNs the call's start, endpoint clock, ns
     * @return the meter; the caller ends it once
     */
    CallMeter clientCall(int serviceId, long startNs) {
        return new CallMeter(this, false, serviceId, startNs);
    }

    /**
     * A server call's meter, started now.
     *
     * @param serviceId the call's service id
     * @param startNs the call's arrival, endpoint clock, ns
     * @return the meter; the caller ends it once
     */
    CallMeter serverCall(int serviceId, long startNs) {
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
        ProcedureMeter m = meters.get(key);
        if (m == null) {
            m = meters.computeIfAbsent(key, k -> new ProcedureMeter(server, serviceId, opcode));
        }
        m.record(code, durationNs);
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
    ProcedureMetrics find(boolean server, int serviceId, int opcode) {
        ProcedureMeter m = meters.get(key(server, serviceId, opcode));
        return m == null ? null : m.snapshot();
    }

    /** @return every procedure seen so far: server side first, then by service id and opcode */
    List<ProcedureMetrics> snapshot() {
        List<ProcedureMetrics> out = new ArrayList<>();
        for (ProcedureMeter m : meters.values()) {
            out.add(m.snapshot());
        }
        out.sort(Comparator.comparing((ProcedureMetrics p) -> !p.server()).thenComparingInt(ProcedureMetrics::serviceId)
                .thenComparingInt(ProcedureMetrics::opcode));
        return out;
    }
}
