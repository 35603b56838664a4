// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.debug.RttTotals;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.engine.RxEngine;
import org.rx4j.engine.telemetry.SecurityCounters;
import org.rx4j.engine.cc.CongestionController;
import org.rx4j.engine.recovery.RttEstimator;
import org.rx4j.rpc.RxConnectionId;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.stats.CongestionStats;
import org.rx4j.rpc.stats.ConnectionStats;
import org.rx4j.rpc.stats.CounterStats;
import org.rx4j.rpc.stats.EndpointStats;
import org.rx4j.rpc.stats.PeerStats;
import org.rx4j.rpc.stats.RttStats;
import org.rx4j.rpc.stats.SecurityCounterStats;
import org.rx4j.transport.RxTransport;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;

/**
 * Copies the engine's and the transport's counters (owned by the event loop, design.md "Counters without
 * contention") into the immutable stats records; the one reader of engine counters in the RPC layer. Flattening to
 * names is the records' job ({@link EndpointStats#toMap()}). Every method runs on the event loop that owns the
 * engine.
 */
public final class StatsReader {
    /** Prefix of the per-reason entries of {@link RxTransport#transportCounters()}. */
    private static final String MALFORMED = "malformed.";

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
        Map<String, Long> malformed = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : transport.transportCounters().entrySet()) {
            if (e.getKey().startsWith(MALFORMED)) {
                malformed.put(e.getKey().substring(MALFORMED.length()), e.getValue());
            }
        }
        RttTotals rtt = RttTotals.of(engine.peers());
        RxCounters totals = engine.totals();
        return new EndpointStats(transport.localAddress(), counters(totals), transport.datagramsReceived(),
                transport.datagramsSent(), transport.sendFailures(), transport.malformedDatagrams(), malformed,
                totals.droppedPackets(), totals.callsExecuted(), conns, peers,
                new EndpointStats.RttSummary(rtt.samples(), rtt.minNs(), rtt.meanNs(), rtt.maxNs()), defences(totals),
                security(engine.securityCounters()));
    }

    /** The engine's security counters as a snapshot. */
    static SecurityCounterStats security(SecurityCounters c) {
        return new SecurityCounterStats(c.challengesSent(), c.challengesIgnored(), c.responsesSent(),
                c.responsesIgnored(), c.responsesRefused(), c.handshakesAbandoned(), c.packetsRefused());
    }

    /** The hostile-input counters by name, in {@link EndpointStats#defences()}' order, from one snapshot. */
    static Map<String, Long> defences(RxCounters t) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("acksRejected", t.acksRejected());
        m.put("trailersClamped", t.trailersClamped());
        m.put("jumbogramsRejected", t.jumbogramsRejected());
        m.put("repliesWithheld", t.repliesWithheld());
        m.put("dataBeyondLast", t.dataBeyondLast());
        m.put("heldServerCalls", t.heldServerCalls());
        m.put("heldCallsForgotten", t.heldCallsForgotten());
        m.put("connectionsEvicted", t.connectionsEvicted());
        m.put("connectionsRefused", t.connectionsRefused());
        m.put("addressChangesRefused", t.addressChangesRefused());
        m.put("clientPacketsFromStrangers", t.clientPacketsFromStrangers());
        m.put("challengedSources", t.challengedSources());
        m.put("challengedPackets", t.challengedPackets());
        m.put("challengesSent", t.challengesSent());
        m.put("challengesAnswered", t.challengesAnswered());
        m.put("challengesEvicted", t.challengesEvicted());
        m.put("challengesExpired", t.challengesExpired());
        m.put("heldBytes", t.heldBytes());
        m.put("heldPacketsRefused", t.heldPacketsRefused());
        m.put("securityFailuresFromOtherAddresses", t.securityFailuresFromOtherAddresses());
        m.put("internalErrors", t.internalErrors());
        return m;
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
                counters(c.counters()));
    }

    public static PeerStats peer(Peer p) {
        RttEstimator r = p.rtt();
        RttStats rtt = new RttStats(r.samples(), r.srttNs(), r.rttvarNs(), r.rtoNs(), r.minRttNs(),
                r.meanRttNs(), r.maxRttNs(), r.backoffCount());
        return new PeerStats(p.address(), p.connectionCount(), p.maxMtu(), p.ifMtu(), p.maxDgramPackets(), p.lastRwind(),
                p.counters().bytesSent(), p.counters().bytesReceived(), rtt, p.counters().resends(),
                congestion(p.congestion()));
    }

    static CongestionStats congestion(CongestionController cc) {
        if (cc == null) {
            return CongestionStats.NONE;
        }
        return new CongestionStats(cc.mode(), cc.cwnd(), cc.ssthresh(), Math.round(cc.bandwidthPps()),
                Math.round(cc.pacingRatePps()), cc.minRttNs());
    }

    static CounterStats counters(RxCounters c) {
        Map<String, Long> sentByType = new LinkedHashMap<>();
        Map<String, Long> receivedByType = new LinkedHashMap<>();
        for (int t = 0; t < 16; t++) {
            putNonZero(sentByType, PacketType.name(t), c.packetsSent(t));
            putNonZero(receivedByType, PacketType.name(t), c.packetsReceived(t));
        }
        Map<String, Long> acksSent = new LinkedHashMap<>();
        Map<String, Long> acksReceived = new LinkedHashMap<>();
        for (int r = 1; r < AckReason.COUNT; r++) {
            putNonZero(acksSent, AckReason.name(r), c.acksSent(r));
            putNonZero(acksReceived, AckReason.name(r), c.acksReceived(r));
        }
        return new CounterStats(c.bytesSent(), c.bytesReceived(), c.totalPacketsSent(), c.totalPacketsReceived(),
                c.dataPacketsSent(), c.dataPacketsReceived(), c.resends(), c.timeouts(), c.fastRetransmits(),
                c.jumbogramsSent(), c.jumbogramsReceived(), c.largestJumbogramReceived(), c.duplicatesReceived(),
                c.payloadBytesAcked(), c.payloadBytesDelivered(), c.acksIgnored(), c.callsStarted(),
                c.callsSucceeded(), c.callsFailed(), sentByType, receivedByType,
                acksSent, acksReceived);
    }

    private static void putNonZero(Map<String, Long> m, String name, long count) {
        if (count != 0) {
            m.put(name, count);
        }
    }
}
