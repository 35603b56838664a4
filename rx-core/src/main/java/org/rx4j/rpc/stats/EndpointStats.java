// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.RxEndpoint;

/**
 * Everything one endpoint counts, as a read-only snapshot taken on its event loop: every {@link RxCounter} (the
 * totals over every connection, closed ones included, and connectionless traffic, as rxdebug's RXSTATS/GETSTATS view
 * and {@code rxperf -D} show them; the endpoint's defences, docs/robustness.md "Counters in the stats snapshot"; its
 * security handshakes, docs/security.md "In the engine"; and the transport's datagrams), RTT over every peer, and one
 * entry per live connection and per known peer.
 *
 * @param localAddress the bound address
 * @param totals every {@link RxCounter}, over all connections (closed ones included), the endpoint and the transport
 * @param connections the live connections, client and server
 * @param peers the known peers
 * @param rtt RTT samples over every known peer together (rxdebug RXSTATS' endpoint-wide figures)
 */
public record EndpointStats(InetSocketAddress localAddress, CounterStats totals, List<ConnectionStats> connections,
                            List<PeerStats> peers, RttSummary rtt) {
    /**
     * Copies the lists into unmodifiable ones.
     *
     * @param localAddress see {@link #localAddress()}
     * @param totals see {@link #totals()}
     * @param connections see {@link #connections()}
     * @param peers see {@link #peers()}
     * @param rtt see {@link #rtt()}
     * @throws NullPointerException if totals or rtt is null
     */
    public EndpointStats {
        Objects.requireNonNull(totals, "totals");
        Objects.requireNonNull(rtt, "rtt");
        connections = List.copyOf(connections);
        peers = List.copyOf(peers);
    }

    /**
     * RTT samples taken together over several peers.
     *
     * @param samples RTT samples over all the peers
     * @param minNs smallest sample, ns; 0 when there is none
     * @param meanNs mean sample, ns; 0 when there is none
     * @param maxNs largest sample, ns; 0 when there is none
     */
    public record RttSummary(long samples, long minNs, long meanNs, long maxNs) {
    }

    /**
     * The snapshot flattened to names, for {@code rxperf -D} and {@link RxEndpoint#stats()} (the only flattening;
     * {@code rxperf -D} prints these keys): every counter of {@link #totals()} by its {@link RxCounter#key()}
     * ({@link CounterStats#toMap()}), then rttSamples, rttMinUs, rttMeanUs, rttMaxUs (µs), connections, peers;
     * then, for the peer sent the most bytes, path.srttUs, path.rtoUs, path.resends, cc.cwnd, cc.ssthresh (packets),
     * cc.bandwidthPps, cc.pacingRatePps (packets/s), cc.minRttUs and cc.state.NAME = 1 (the controller's phase, '/'
     * written '.').
     *
     * @return insertion-ordered, modifiable map of counter name to value
     */
    public Map<String, Long> toMap() {
        Map<String, Long> m = totals.toMap();
        m.put("rttSamples", rtt.samples());
        m.put("rttMinUs", rtt.minNs() / 1000);
        m.put("rttMeanUs", rtt.meanNs() / 1000);
        m.put("rttMaxUs", rtt.maxNs() / 1000);
        m.put("connections", (long) connections.size());
        m.put("peers", (long) peers.size());
        PeerStats busiest = null;
        for (PeerStats p : peers) {
            if (busiest == null || p.bytesSent() > busiest.bytesSent()) {
                busiest = p;
            }
        }
        if (busiest != null) {
            // The path to the peer this endpoint sent most to: what rxperf's --interval, -D and --json show.
            CongestionStats cc = busiest.congestion();
            m.put("path.srttUs", busiest.rtt().srttNs() / 1000);
            m.put("path.rtoUs", busiest.rtt().rtoNs() / 1000);
            m.put("path.resends", busiest.resends());
            m.put("cc.cwnd", (long) cc.cwnd());
            m.put("cc.ssthresh", (long) cc.ssthresh());
            m.put("cc.bandwidthPps", cc.bandwidthPps());
            m.put("cc.pacingRatePps", cc.pacingRatePps());
            m.put("cc.minRttUs", cc.minRttNs() / 1000);
            m.put("cc.state." + cc.state().replace('/', '.'), 1L);
        }
        return m;
    }
}
