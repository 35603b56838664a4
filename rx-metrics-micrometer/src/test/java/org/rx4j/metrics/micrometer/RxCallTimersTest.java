// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.metrics.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.DataInputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxProcNames;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.ManualClock;

/**
 * Reads {@link RxCallTimers}' histograms through a real Prometheus registry's scrape text after loopback calls. Both
 * endpoints run on one {@link ManualClock} that only the server's handler moves (by the milliseconds the request
 * asks for), so every call's recorded duration, on both sides, is exactly what the test chose.
 */
@Timeout(60)
class RxCallTimersTest {
    static final int SERVICE = 4200;
    static final int OP_SLEEP = 1;
    static final int OP_FAIL = 2;
    static final int APP_CODE = 17;
    /** The durations the calls take, ms: some under, some over the 50 ms service-level objective. */
    static final List<Integer> SLEEPS_MS = List.of(3, 3, 3, 3, 40, 40, 700);

    /** The procedures' names, for the {@code proc} tag. */
    static final RxProcNames NAMES = (service, opcode) -> opcode == OP_SLEEP ? "KV_Sleep" : null;

    final ManualClock clock = new ManualClock();
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    RxEndpoint server;
    RxEndpoint client;
    RxConnection conn;

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_SLEEP, (call, op) -> {
                    int ms = new DataInputStream(call.input()).readInt();
                    clock.advance(Duration.ofMillis(ms));
                    call.output().write(new byte[] {0, 0, 0, 1});
                })
                .blocking(OP_FAIL, (call, op) -> {
                    throw RxException.local(APP_CODE, "refused");
                })
                .build();
        // timers-example:begin
        // Latency histograms: timers rx.call.duration (tags side, service, opcode, proc, code, code.name, reason), fed by
        // interceptors as calls end, with Micrometer's buckets plus one at 50 ms. No refresh() needed.
        RxCallTimers timers = new RxCallTimers(registry, Tags.of("endpoint", "kv"), Duration.ofMillis(50));
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).service(service)
                .procNames(NAMES).serverInterceptor(timers.server()).clock(clock).open();
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .procNames(NAMES).clientInterceptor(timers.client()).clock(clock).open();
        // timers-example:end
        conn = client.connect(server.localAddress(), SERVICE);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private void sleep(int ms) throws Exception {
        int reply = conn.call(OP_SLEEP, w -> w.writeInt(ms), r -> r.readInt());
        assertEquals(1, reply);
    }

    /**
     * Waits (bounded by {@code @Timeout}) until {@code side}'s timers counted {@code calls}: a call's end reaches
     * its interceptor on the event loop, which may be just after the caller has its reply; a server call's end may
     * also wait for the client's ACK of its reply, which the clock, moved here, lets the client send. The durations
     * recorded are not changed by this move: they were fixed when each call ended (a server call's at its reply).
     */
    private void awaitRecorded(String side, long calls) throws InterruptedException {
        clock.advance(Duration.ofSeconds(1));
        while (registry.find(RxCallTimers.DURATION).tag("side", side).timers().stream().mapToLong(t -> t.count())
                .sum() < calls) {
            if (Thread.interrupted()) {
                throw new InterruptedException(side + " calls never all recorded");
            }
            Thread.onSpinWait();
        }
    }

    /**
     * @return the {@code le} bound (seconds, +Inf as infinity) to count of each bucket line of
     *     {@code rx_call_duration_seconds} whose labels include every one of {@code labels}
     */
    private static Map<Double, Long> buckets(String scrape, String... labels) {
        Map<Double, Long> out = new TreeMap<>();
        Pattern line = Pattern.compile("^rx_call_duration_seconds_bucket\\{(.*)\\} (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(scrape);
        next:
        while (m.find()) {
            for (String l : labels) {
                if (!m.group(1).contains(l)) {
                    continue next;
                }
            }
            Matcher le = Pattern.compile("le=\"([^\"]+)\"").matcher(m.group(1));
            assertTrue(le.find(), m.group());
            double bound = le.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le.group(1));
            assertEquals(null, out.put(bound, (long) Double.parseDouble(m.group(2))), "one line per bound");
        }
        return out;
    }

    /** Asserts each bucket counts exactly the chosen durations at or below its bound (Prometheus's cumulative le). */
    private static void assertCumulative(Map<Double, Long> buckets, List<Integer> durationsMs, String side) {
        assertTrue(buckets.size() > 10, side + ": a histogram with Micrometer's buckets: " + buckets.keySet());
        for (Map.Entry<Double, Long> b : buckets.entrySet()) {
            long expected = durationsMs.stream().filter(ms -> ms / 1000.0 <= b.getKey()).count();
            assertEquals(expected, b.getValue(), side + ": bucket le=" + b.getKey());
        }
    }

    @Test
    void callDurationsAreHistogramBucketsInTheScrapeWithoutARefresh() throws Exception {
        for (int ms : SLEEPS_MS) {
            sleep(ms);
        }
        awaitRecorded("client", SLEEPS_MS.size());
        awaitRecorded("server", SLEEPS_MS.size());
        String scrape = registry.scrape();

        for (String side : List.of("client", "server")) {
            String[] labels = {"side=\"" + side + "\"", "proc=\"KV_Sleep\"", "opcode=\"1\"", "service=\"4200\"",
                    "code=\"0\"", "code_name=\"OK\"", "endpoint=\"kv\""};
            Map<Double, Long> b = buckets(scrape, labels);
            assertCumulative(b, SLEEPS_MS, side);
            assertEquals(6L, b.get(0.05), side + ": the service-level objective's bucket: " + b);
            assertEquals(7L, b.get(Double.POSITIVE_INFINITY), side);
            assertTrue(scrape.contains("rx_call_duration_seconds_count{code=\"0\",code_name=\"OK\",endpoint=\"kv\","
                    + "opcode=\"1\",proc=\"KV_Sleep\",reason=\"none\",service=\"4200\",side=\"" + side + "\"} 7"),
                    scrape);
            assertTrue(scrape.contains("rx_call_duration_seconds_sum{code=\"0\",code_name=\"OK\",endpoint=\"kv\","
                    + "opcode=\"1\",proc=\"KV_Sleep\",reason=\"none\",service=\"4200\",side=\"" + side
                    + "\"} 0.792"), scrape);
        }
    }

    @Test
    void aFailedCallIsItsOwnSeriesTaggedWithItsCode() throws Exception {
        sleep(3);
        RxException e = assertThrows(RxException.class, () -> conn.call(OP_FAIL, w -> { }, r -> r.readInt()));
        assertEquals(APP_CODE, e.code());
        awaitRecorded("client", 2);
        String scrape = registry.scrape();
        Map<Double, Long> failed = buckets(scrape, "side=\"client\"", "opcode=\"2\"", "proc=\"2\"", "code=\"17\"",
                "code_name=\"17\"", "reason=\"peer\"");
        assertCumulative(failed, List.of(0), "client, code 17");
        assertCumulative(buckets(scrape, "side=\"client\"", "opcode=\"1\"", "code=\"0\""), List.of(3), "client ok");
        assertFalse(scrape.contains("opcode=\"1\",proc=\"KV_Sleep\",reason=\"none\",service=\"4200\",side=\"client\","
                + "le=\"+Inf\"} 2"), "the failed call is not counted under the completed procedure");
    }

    @Test
    void localFailuresSharingACodeAreTaggedWithTheirReason() throws Exception {
        sleep(3);
        conn.close();
        RxException closed = assertThrows(RxException.class, () -> conn.call(OP_SLEEP, w -> w.writeInt(1), r -> 0));
        assertEquals(RxException.Reason.CONNECTION_CLOSED, closed.reason());
        awaitRecorded("client", 2);
        String scrape = registry.scrape();
        assertCumulative(buckets(scrape, "side=\"client\"", "opcode=\"1\"", "code=\"-2\"",
                "code_name=\"RX_INVALID_OPERATION\"", "reason=\"connection_closed\""), List.of(0), "client, closed");
        assertEquals("no_answer", RxCallTimers.reasonTag(-1, RxException.Reason.NO_ANSWER));
        assertEquals("peer_unreachable", RxCallTimers.reasonTag(-1, RxException.Reason.PEER_UNREACHABLE));
        assertEquals("other", RxCallTimers.reasonTag(-3, null));
        assertEquals("none", RxCallTimers.reasonTag(0, null));
    }
}
