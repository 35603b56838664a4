// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.rpc.stats.CounterStats;
import org.rx4j.rpc.stats.EndpointStats;
import org.rx4j.rpc.stats.SecurityCounterStats;
import org.rx4j.testing.ManualClock;

/**
 * The one flattening of the stats snapshot ({@link EndpointStats#toMap()}): the names and order {@code rxperf -D}
 * prints, zero per-type entries left out, RTT in µs. Also: the endpoint's clock is the injected one.
 */
class StatsFlatteningTest {
    @Test
    void endpointSnapshotFlattensToTheRxperfNames() {
        CounterStats totals = new CounterStats(100, 200, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 25, 26, 14, 15, 16, 17,
                Map.of("DATA", 2L), Map.of("ACK", 4L), Map.of("REQUESTED", 1L), Map.of("IDLE", 2L));
        Map<String, Long> malformed = new LinkedHashMap<>();
        malformed.put("TRUNCATED_HEADER", 1L);
        EndpointStats s = new EndpointStats(new InetSocketAddress(0), totals, 20, 21, 22, 1, malformed, 23, 24,
                List.of(), List.of(), new EndpointStats.RttSummary(5, 1_500, 2_500, 9_999));
        Map<String, Long> m = s.toMap();
        assertEquals(List.of("bytesSent", "bytesReceived", "packetsSent.DATA", "packetsReceived.ACK",
                "dataPacketsSent", "dataPacketsReceived", "resends", "timeouts", "fastRetransmits", "jumbogramsSent",
                "jumbogramsReceived", "largestJumbogramReceived", "duplicatesReceived", "payloadBytesAcked",
                "payloadBytesDelivered", "acksIgnored",
                "acksSent.REQUESTED", "acksReceived.IDLE", "callsStarted", "callsSucceeded", "callsFailed",
                "rttSamples", "rttMinUs", "rttMeanUs", "rttMaxUs", "connections", "peers", "datagramsReceived",
                "datagramsSent", "sendFailures", "malformedDatagrams", "malformed.TRUNCATED_HEADER"),
                List.copyOf(m.keySet()));
        assertEquals(8L, m.get("timeouts"), "the retransmission timeouts keep rxperf's name");
        assertEquals(1L, m.get("rttMinUs"));
        assertEquals(9L, m.get("rttMaxUs"));
        assertEquals(0L, m.get("connections"));
        for (Map.Entry<String, Long> e : totals.toMap().entrySet()) {
            assertEquals(e.getValue(), m.get(e.getKey()), e.getKey());
        }
    }

    /** Security work flattens under security.NAME after the other counters; an rxnull endpoint shows none. */
    @Test
    void securityCountersFlattenUnderTheirGroupOnlyWhenThereWasSecurityWork() {
        CounterStats totals = new CounterStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                Map.of(), Map.of(), Map.of(), Map.of());
        EndpointStats.RttSummary rtt = new EndpointStats.RttSummary(0, 0, 0, 0);
        EndpointStats none = new EndpointStats(new InetSocketAddress(0), totals, 0, 0, 0, 0, Map.of(), 0, 0,
                List.of(), List.of(), rtt, Map.of("internalErrors", 0L), SecurityCounterStats.NONE);
        assertTrue(none.toMap().keySet().stream().noneMatch(k -> k.startsWith("security.")), none.toMap().toString());
        EndpointStats some = new EndpointStats(new InetSocketAddress(0), totals, 0, 0, 0, 0, Map.of(), 0, 0,
                List.of(), List.of(), rtt, Map.of("internalErrors", 0L), new SecurityCounterStats(1, 2, 3, 4, 5, 6, 7));
        Map<String, Long> m = some.toMap();
        List<String> keys = List.copyOf(m.keySet());
        assertEquals(List.of("security.challengesSent", "security.challengesIgnored", "security.responsesSent",
                "security.responsesIgnored", "security.responsesRefused", "security.handshakesAbandoned",
                "security.packetsRefused"), keys.subList(keys.indexOf("internalErrors") + 1, keys.size()));
        assertEquals(1L, m.get("security.challengesSent"));
        assertEquals(7L, m.get("security.packetsRefused"));
    }

    @Test
    void theEndpointClockIsTheInjectedOne() throws Exception {
        ManualClock clock = new ManualClock(42_000_000_000L);
        try (RxEndpoint e = RxEndpoint.builder().clock(clock).bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            assertEquals(42_000_000_000L, e.now());
            clock.advance(java.time.Duration.ofMillis(5));
            assertEquals(42_005_000_000L, e.now());
            e.close(0);
        }
    }

    /** The socket facts after the counters: which transport runs (what AUTO chose) and the granted receive buffer. */
    @Test
    void statsNameTheRunningTransportAndItsReceiveBuffer() throws Exception {
        try (RxEndpoint e = RxEndpoint.builder().transport(TransportKind.AUTO)
                .config(RxConfig.builder().udpBufferBytes(65536).build())
                .bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            Map<String, Long> m = e.stats();
            String running = io.netty.channel.epoll.Epoll.isAvailable() ? "socket.epoll" : "socket.nio";
            assertEquals(1L, m.get(running), m.toString());
            assertEquals(null, m.get(running.equals("socket.epoll") ? "socket.nio" : "socket.epoll"));
            assertEquals(65536L, m.get("socket.receiveBufferBytes"));
            e.close(0);
        }
    }
}
