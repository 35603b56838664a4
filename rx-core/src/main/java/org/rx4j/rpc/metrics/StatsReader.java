// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.RxEngine;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.cc.CongestionController;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.debug.RttTotals;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.recovery.RttEstimator;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.rpc.RxConnectionId;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.stats.CongestionStats;
import org.rx4j.rpc.stats.ConnectionStats;
import org.rx4j.rpc.stats.CounterStats;
import org.rx4j.rpc.stats.EndpointStats;
import org.rx4j.rpc.stats.PeerStats;
import org.rx4j.rpc.stats.RttStats;
import org.rx4j.transport.RxTransport;
import org.rx4j.wire.RxConstants;

/**
 * Copies the engine's and the transport's counters (owned by the event loop, design.md "Counters without
 * contention") into the immutable stats records, a loop over {@link RxCounter}; the one reader of engine counters
 * in the RPC layer. Flattening to names is the records' job ({@link EndpointStats#toMap()}). Every method runs on
 * the event loop that owns the engine.
 */
public final class StatsReader {
    private StatsReader() {
    }

    public static EndpointStats endpoint(RxTransport transport, RxEngine engine) {
        List<ConnectionStats> conns = new ArrayList<>();
        for (Connection c : engine.clientConnections()) {
            conns.add(connection(c));
        }
        for (Connection c : engine.serverConnections()) {
            conns.add(connection(c));
        }
        List<PeerStats> peers = new ArrayList<>();
        for (Peer p : engine.peers()) {
            peers.add(peer(p));
        }
        RttTotals rtt = RttTotals.of(engine.peers());
        RxCounters totals = engine.totals();
        transport.addCountersTo(totals);
        return new EndpointStats(transport.localAddress(), counters(totals, RxCounter.Scope.ENDPOINT), conns, peers,
                new EndpointStats.RttSummary(rtt.samples(), rtt.minNs(), rtt.meanNs(), rtt.maxNs()));
    }

    public static ConnectionStats connection(Connection c) {
        int active = 0;
        for (int ch = 0; ch < RxConstants.MAX_CALLS; ch++) {
            Call call = c.call(ch);
            if (call != null && !call.isDone()) {
                active++;
            }
        }
        return new ConnectionStats(ApiAccess.api().connectionId(c), c.isClient(), c.peer().address(), active, c.waitingCalls(),
                counters(c.counters(), RxCounter.Scope.CONNECTION));
    }

    public static PeerStats peer(Peer p) {
        RttEstimator r = p.rtt();
        RttStats rtt = new RttStats(r.samples(), r.srttNs(), r.rttvarNs(), r.rtoNs(), r.minRttNs(),
                r.meanRttNs(), r.maxRttNs(), r.backoffCount());
        RxCounters c = p.counters();
        return new PeerStats(p.address(), p.connectionCount(), p.maxMtu(), p.ifMtu(), p.maxDgramPackets(), p.lastRwind(),
                c.get(RxCounter.BYTES_SENT), c.get(RxCounter.BYTES_RECEIVED), rtt, c.get(RxCounter.RESENDS),
                congestion(p.congestion()));
    }

    static CongestionStats congestion(CongestionController cc) {
        if (cc == null) {
            return CongestionStats.NONE;
        }
        return new CongestionStats(cc.mode(), cc.cwnd(), cc.ssthresh(), Math.round(cc.bandwidthPps()),
                Math.round(cc.pacingRatePps()), cc.minRttNs());
    }

    /**
     * @param c the counters
     * @param scope the widest scope they hold: the snapshot holds the counters of that scope and every narrower one
     */
    static CounterStats counters(RxCounters c, RxCounter.Scope scope) {
        Map<RxCounter, Long> counts = new EnumMap<>(RxCounter.class);
        Map<RxCounter, Map<String, Long>> byLabel = new EnumMap<>(RxCounter.class);
        for (RxCounter k : RxCounter.values()) {
            if (k.scope().compareTo(scope) > 0) {
                continue;
            }
            counts.put(k, c.get(k));
            List<String> labels = k.labels();
            if (!labels.isEmpty()) {
                Map<String, Long> m = new LinkedHashMap<>();
                for (int i = 0; i < labels.size(); i++) {
                    long n = c.get(k, i);
                    if (n != 0) {
                        m.put(labels.get(i), n);
                    }
                }
                byLabel.put(k, m);
            }
        }
        return new CounterStats(counts, byLabel);
    }
}
