// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.stats.EndpointStats;
import org.rx4j.rpc.stats.ProcedureMetrics;
import org.rx4j.rpc.stats.RxEndpointMXBean;

/** {@link RxEndpointMXBean} over a snapshot supplier (the endpoint's {@link RxEndpoint#statistics()}). */
public final class EndpointMXBean implements RxEndpointMXBean {
    private final Supplier<EndpointStats> stats;
    private final Supplier<List<ProcedureMetrics>> procedures;

    /**
     * @param stats takes a fresh snapshot
     * @param procedures takes a fresh per-procedure snapshot ({@link RxEndpoint#metrics()})
     */
    public EndpointMXBean(Supplier<EndpointStats> stats, Supplier<List<ProcedureMetrics>> procedures) {
        this.stats = stats;
        this.procedures = procedures;
    }

    @Override
    public String getLocalAddress() {
        return String.valueOf(stats.get().localAddress());
    }

    @Override
    public long getBytesSent() {
        return stats.get().totals().bytesSent();
    }

    @Override
    public long getBytesReceived() {
        return stats.get().totals().bytesReceived();
    }

    @Override
    public long getPacketsSent() {
        return stats.get().totals().packetsSent();
    }

    @Override
    public long getPacketsReceived() {
        return stats.get().totals().packetsReceived();
    }

    @Override
    public long getResends() {
        return stats.get().totals().resends();
    }

    @Override
    public long getRetransmitTimeouts() {
        return stats.get().totals().retransmitTimeouts();
    }

    @Override
    public long getJumbogramsSent() {
        return stats.get().totals().jumbogramsSent();
    }

    @Override
    public long getCallsStarted() {
        return stats.get().totals().callsStarted();
    }

    @Override
    public long getCallsSucceeded() {
        return stats.get().totals().callsSucceeded();
    }

    @Override
    public long getCallsFailed() {
        return stats.get().totals().callsFailed();
    }

    @Override
    public int getConnections() {
        return stats.get().connections().size();
    }

    @Override
    public int getPeers() {
        return stats.get().peers().size();
    }

    @Override
    public long getMalformedDatagrams() {
        return stats.get().malformedDatagrams();
    }

    @Override
    public Map<String, Long> getProcedureMetrics() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (ProcedureMetrics p : procedures.get()) {
            m.putAll(p.toMap());
        }
        return m;
    }
}
