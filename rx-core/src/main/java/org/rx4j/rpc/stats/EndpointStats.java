// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rx4j.rpc.RxEndpoint;

/**
 * Everything one endpoint counts, as a read-only snapshot taken on its event loop: the totals over every
 * connection (closed ones included) and connectionless traffic (rxdebug's RXSTATS/GETSTATS view and
 * {@code rxperf -D}), transport counters, and one entry per live connection and per known peer.
 *
 * @param localAddress the bound address
 * @param totals counters over all connections, closed ones included
 * @param datagramsReceived UDP datagrams read
 * @param datagramsSent UDP datagrams written
 * @param sendFailures datagram writes the socket reported as failed
 * @param malformedDatagrams datagrams dropped because they did not decode
 * @param malformedByReason those datagrams by decode-error name (e.g. TRUNCATED_HEADER), zero counts left out
 * @param droppedPackets decoded packets no connection or call took (e.g. for a finished call)
 * @param callsExecuted server calls started
 * @param connections the live connections, client and server
 * @param peers the known peers
 * @param rtt RTT samples over every known peer together (rxdebug RXSTATS' endpoint-wide figures)
 * @param defences the hostile-input counters (docs/robustness.md "Counters in the stats snapshot" names the rule
 *     each counts), by name, in this order: acksRejected, trailersClamped, jumbogramsRejected, repliesWithheld,
 *     dataBeyondLast (DATA above the LAST_PACKET accepted for its call, dropped),
 *     heldServerCalls (server calls now held for packet 1 or reachability), heldCallsForgotten, connectionsEvicted
 *     and connectionsRefused, addressChangesRefused (server connections' packets from another address, processed
 *     without moving the connection), clientPacketsFromStrangers (packets with a client connection's ids from an
 *     address other than its server's, dropped), challengedSources and challengedPackets (sources not proven
 *     reachable whose new-connection DATA is kept without a connection, and those packets, now), challengesSent,
 *     challengesAnswered, challengesEvicted and challengesExpired (their reachability PINGs, the answers that proved
 *     them, records dropped for room or after a dead time; docs/robustness.md "Rule: stateless reachability
 *     challenge"), heldBytes and heldPacketsRefused (bytes kept now for sources not proven or not authenticated,
 *     and packets not kept past the byte budget; "Rule: a byte budget for what unproven sources leave"),
 *     securityFailuresFromOtherAddresses (packets failing a security check from an address other than their
 *     connection's, dropped without an ABORT), internalErrors (exceptions caught inside the engine; 0 unless rx4j
 *     has a bug)
 * @param security the security handshakes and refused DATA ({@link SecurityCounterStats#NONE} for rxnull only)
 */
public record EndpointStats(InetSocketAddress localAddress, CounterStats totals, long datagramsReceived,
                            long datagramsSent, long sendFailures, long malformedDatagrams,
                            Map<String, Long> malformedByReason, long droppedPackets, long callsExecuted,
                            List<ConnectionStats> connections, List<PeerStats> peers, RttSummary rtt,
                            Map<String, Long> defences, SecurityCounterStats security) {
    /**
     * Copies the lists and the map into unmodifiable ones.
     *
     * @param localAddress see {@link #localAddress()}
     * @param totals see {@link #totals()}
     * @param datagramsReceived see {@link #datagramsReceived()}
     * @param datagramsSent see {@link #datagramsSent()}
     * @param sendFailures see {@link #sendFailures()}
     * @param malformedDatagrams see {@link #malformedDatagrams()}
     * @param malformedByReason see {@link #malformedByReason()}
     * @param droppedPackets see {@link #droppedPackets()}
     * @param callsExecuted see {@link #callsExecuted()}
     * @param connections see {@link #connections()}
     * @param peers see {@link #peers()}
     * @param rtt see {@link #rtt()}
     * @param defences see {@link #defences()}
     * @param security see {@link #security()}
     * @throws NullPointerException if security is null
     */
    public EndpointStats {
        Objects.requireNonNull(security, "security");
        connections = List.copyOf(connections);
        peers = List.copyOf(peers);
        malformedByReason = Collections.unmodifiableMap(new LinkedHashMap<>(malformedByReason));
        defences = Collections.unmodifiableMap(new LinkedHashMap<>(defences));
    }

    /**
     * A snapshot without security work ({@link SecurityCounterStats#NONE}), for callers that have none.
     *
     * @param localAddress see {@link #localAddress()}
     * @param totals see {@link #totals()}
     * @param datagramsReceived see {@link #datagramsReceived()}
     * @param datagramsSent see {@link #datagramsSent()}
     * @param sendFailures see {@link #sendFailures()}
     * @param malformedDatagrams see {@link #malformedDatagrams()}
     * @param malformedByReason see {@link #malformedByReason()}
     * @param droppedPackets see {@link #droppedPackets()}
     * @param callsExecuted see {@link #callsExecuted()}
     * @param connections see {@link #connections()}
     * @param peers see {@link #peers()}
     * @param rtt see {@link #rtt()}
     * @param defences see {@link #defences()}
     */
    public EndpointStats(InetSocketAddress localAddress, CounterStats totals, long datagramsReceived,
                         long datagramsSent, long sendFailures, long malformedDatagrams,
                         Map<String, Long> malformedByReason, long droppedPackets, long callsExecuted,
                         List<ConnectionStats> connections, List<PeerStats> peers, RttSummary rtt,
                         Map<String, Long> defences) {
        this(localAddress, totals, datagramsReceived, datagramsSent, sendFailures, malformedDatagrams,
                malformedByReason, droppedPackets, callsExecuted, connections, peers, rtt, defences,
                SecurityCounterStats.NONE);
    }

    /**
     * A snapshot without hostile-input counters ({@link #defences()} empty), for callers that have none.
     *
     * @param localAddress see {@link #localAddress()}
     * @param totals see {@link #totals()}
     * @param datagramsReceived see {@link #datagramsReceived()}
     * @param datagramsSent see {@link #datagramsSent()}
     * @param sendFailures see {@link #sendFailures()}
     * @param malformedDatagrams see {@link #malformedDatagrams()}
     * @param malformedByReason see {@link #malformedByReason()}
     * @param droppedPackets see {@link #droppedPackets()}
     * @param callsExecuted see {@link #callsExecuted()}
     * @param connections see {@link #connections()}
     * @param peers see {@link #peers()}
     * @param rtt see {@link #rtt()}
     */
    public EndpointStats(InetSocketAddress localAddress, CounterStats totals, long datagramsReceived,
                         long datagramsSent, long sendFailures, long malformedDatagrams,
                         Map<String, Long> malformedByReason, long droppedPackets, long callsExecuted,
                         List<ConnectionStats> connections, List<PeerStats> peers, RttSummary rtt) {
        this(localAddress, totals, datagramsReceived, datagramsSent, sendFailures, malformedDatagrams,
                malformedByReason, droppedPackets, callsExecuted, connections, peers, rtt, Map.of());
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
     * {@code rxperf -D} prints these keys): the {@link CounterStats#toMap() totals}, then rttSamples, rttMinUs,
     * rttMeanUs, rttMaxUs (µs), connections, peers, datagramsReceived, datagramsSent, sendFailures,
     * malformedDatagrams and malformed.REASON per decode error, the {@link #defences()} counters by their names,
     * the {@link #security()} counters as security.NAME when any is not zero; then, for the peer sent the most
     * bytes, path.srttUs,
     * path.rtoUs, path.resends, cc.cwnd, cc.ssthresh (packets), cc.bandwidthPps, cc.pacingRatePps (packets/s),
     * cc.minRttUs and cc.state.NAME = 1 (the controller's phase, '/' written '.').
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
        m.put("datagramsReceived", datagramsReceived);
        m.put("datagramsSent", datagramsSent);
        m.put("sendFailures", sendFailures);
        m.put("malformedDatagrams", malformedDatagrams);
        for (Map.Entry<String, Long> e : malformedByReason.entrySet()) {
            m.put("malformed." + e.getKey(), e.getValue());
        }
        m.putAll(defences);
        security.putInto(m);
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
