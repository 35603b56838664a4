package org.rx4j.rpc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rx4j.engine.Call;
import org.rx4j.engine.Connection;
import org.rx4j.engine.Peer;
import org.rx4j.engine.RxCounters;
import org.rx4j.engine.RxEngine;
import org.rx4j.engine.recovery.RttEstimator;
import org.rx4j.transport.RxTransport;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;

/**
 * Copies the engine's counters (owned by the event loop, design.md "Counters without contention") into the
 * immutable stats records. Every method runs on the event loop that owns the engine.
 */
final class StatsReader {
    private StatsReader() {
    }

    static EndpointStats endpoint(RxTransport transport, RxEngine engine) {
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
        return new EndpointStats(transport.localAddress(), counters(engine.totals()), transport.datagramsReceived(),
                transport.datagramsSent(), transport.sendFailures(), transport.malformedDatagrams(),
                engine.droppedPackets(), engine.callsExecuted(), conns, peers);
    }

    static ConnectionStats connection(Connection c) {
        int active = 0;
        for (int ch = 0; ch < RxConstants.MAX_CALLS; ch++) {
            Call call = c.call(ch);
            if (call != null && !call.isDone()) {
                active++;
            }
        }
        return new ConnectionStats(RxConnectionId.of(c), c.isClient(), c.peer().address(), active, c.waitingCalls(),
                counters(c.counters()));
    }

    static PeerStats peer(Peer p) {
        RttEstimator r = p.rtt();
        RttStats rtt = new RttStats(r.samples(), r.srttNs(), r.rttvarNs(), r.rtoNs(), r.minRttNs(),
                r.meanRttNs(), r.maxRttNs(), r.backoffCount());
        return new PeerStats(p.address(), p.connectionCount(), p.maxMtu(), p.ifMtu(), p.maxDgramPackets(), p.lastRwind(),
                p.counters().bytesSent, p.counters().bytesReceived, rtt);
    }

    static CounterStats counters(RxCounters c) {
        return new CounterStats(c.bytesSent, c.bytesReceived, c.totalPacketsSent(), c.totalPacketsReceived(),
                c.dataPacketsSent, c.dataPacketsReceived, c.resends, c.timeouts, c.fastRetransmits, c.jumbogramsSent, c.jumbogramsReceived,
                c.largestJumbogramReceived, c.duplicatesReceived, c.acksIgnored, c.callsStarted, c.callsSucceeded,
                c.callsFailed, byType(c.packetsSent), byType(c.packetsReceived), byReason(c.acksSent),
                byReason(c.acksReceived));
    }

    private static Map<String, Long> byType(long[] counts) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int t = 0; t < counts.length; t++) {
            if (counts[t] != 0) {
                m.put(PacketType.name(t), counts[t]);
            }
        }
        return m;
    }

    private static Map<String, Long> byReason(long[] counts) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int r = 1; r < counts.length; r++) {
            if (counts[r] != 0) {
                m.put(AckReason.name(r), counts[r]);
            }
        }
        return m;
    }
}
