// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.testing.ManualClock;

/**
 * The one flattening of the stats snapshot ({@link EndpointStats#toMap()}): every counter under its
 * {@link RxCounter#key()} in declaration order, a labelled counter's non-zero labels after it, then RTT in µs. Also:
 * the endpoint's clock is the injected one.
 */
class StatsFlatteningTest {
    @Test
    void endpointSnapshotFlattensToTheCounterKeysInDeclarationOrder() {
        Map<RxCounter, Long> counts = new EnumMap<>(RxCounter.class);
        long v = 1;
        for (RxCounter c : RxCounter.values()) {
            counts.put(c, v++);
        }
        Map<RxCounter, Map<String, Long>> byLabel = new EnumMap<>(RxCounter.class);
        byLabel.put(RxCounter.PACKETS_SENT, Map.of("DATA", 2L));
        byLabel.put(RxCounter.ACKS_RECEIVED, Map.of("idle", 2L));
        CounterStats totals = new CounterStats(counts, byLabel);
        EndpointStats s = new EndpointStats(new InetSocketAddress(0), totals, List.of(), List.of(),
                new EndpointStats.RttSummary(5, 1_500, 2_500, 9_999));
        Map<String, Long> m = s.toMap();
        List<String> expected = new ArrayList<>();
        for (RxCounter c : RxCounter.values()) {
            expected.add(c.key());
            for (String label : totals.byLabel(c).keySet()) {
                expected.add(c.key() + "." + label);
            }
        }
        expected.addAll(List.of("rttSamples", "rttMinUs", "rttMeanUs", "rttMaxUs", "connections", "peers"));
        assertEquals(expected, List.copyOf(m.keySet()));
        // names rxperf -D and OpenAfsStatsBlock read
        assertEquals(2L, m.get("packetsSent.DATA"));
        assertEquals(2L, m.get("acksReceived.idle"));
        assertEquals(counts.get(RxCounter.RESENDS), m.get("resends"));
        assertEquals(counts.get(RxCounter.SECURITY_CHALLENGES_SENT), m.get("security.challengesSent"));
        assertEquals(counts.get(RxCounter.MALFORMED_DATAGRAMS), m.get("malformedDatagrams"));
        assertEquals(1L, m.get("rttMinUs"));
        assertEquals(9L, m.get("rttMaxUs"));
        assertEquals(0L, m.get("connections"));
    }

    /** Every counter is flattened, zeros included: an rxnull endpoint shows its security counters as 0. */
    @Test
    void zeroCountersAreFlattenedToo() {
        EndpointStats none = new EndpointStats(new InetSocketAddress(0), new CounterStats(Map.of(), Map.of()),
                List.of(), List.of(), new EndpointStats.RttSummary(0, 0, 0, 0));
        assertEquals(Map.of(), none.totals().counts());
        CounterStats zero = new CounterStats(new EnumMap<>(Map.of(RxCounter.SECURITY_CHALLENGES_SENT, 0L)), Map.of());
        assertEquals(0L, zero.toMap().get("security.challengesSent"));
        assertEquals(0L, zero.get(RxCounter.RESENDS), "a counter the snapshot does not hold reads 0");
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
