// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.metrics.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.search.MeterNotFoundException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxErrorTables;
import org.rx4j.rpc.errors.RxException;

/**
 * Exports an endpoint's per-procedure metrics through Micrometer's {@link SimpleMeterRegistry} after real loopback
 * calls, with the docs example ({@link MetricsExample}). The client runs on a clock that only the server's handler
 * moves (3 ms per call), so the client side's latency is exact; the server's clock is real.
 */
@Timeout(60)
@SuppressWarnings("deprecation") // reads the deprecated percentile gauges, which are still registered
class MetricsExampleTest {
    static final int SERVICE = 4200;
    static final int OP_SLOW = 1;
    static final int OP_FAIL = 2;
    static final int OP_UNKNOWN = 9;
    static final int APP_CODE = 17;
    /** Fails with {@link #KV_NOKEY}, a code of a registered error table. */
    static final int OP_NOKEY = 3;
    /** A made-up table's first code (its base as com_err computes it for "KV"), registered by one test. */
    static final int KV_NOKEY = 185_856;

    /** The client's clock, ns: stands still unless the handler moves it. */
    final AtomicLong clientNanos = new AtomicLong(1_000_000_000_000L);
    RxEndpoint server;
    RxEndpoint client;
    RxConnection conn;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_SLOW, (call, op) -> {
                    clientNanos.addAndGet(Duration.ofMillis(3).toNanos());
                    call.output().write(new byte[] {1});
                })
                .blocking(OP_FAIL, (call, op) -> {
                    throw RxException.local(APP_CODE, "refused");
                })
                .blocking(OP_NOKEY, (call, op) -> {
                    throw RxException.local(KV_NOKEY, "no such key");
                })
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).service(service).open();
        client = RxEndpoint.builder().clock(clientNanos::get).bind(new InetSocketAddress("127.0.0.1", 0)).open();
        conn = client.connect(server.localAddress(), SERVICE);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private static byte[] op(int op) {
        return new byte[] {0, 0, 0, (byte) op};
    }

    private void fail(int opcode, int code) {
        RxException e = assertThrows(RxException.class, () -> conn.call(op(opcode)));
        assertEquals(code, e.code());
    }

    private double counter(String side, int opcode) {
        return registry.get(RxMetricsBinder.CALLS).tags("endpoint", "kv", "side", side, "service",
                Integer.toString(SERVICE), "opcode", Integer.toString(opcode)).functionCounter().count();
    }

    private double errors(String side, int opcode, int code) {
        return registry.get(RxMetricsBinder.ERRORS).tags("side", side, "opcode", Integer.toString(opcode), "code",
                Integer.toString(code)).functionCounter().count();
    }

    @Test
    void exportsCallsErrorsAndLatencyThroughTheSimpleRegistry() throws Exception {
        for (int i = 0; i < 3; i++) {
            conn.call(op(OP_SLOW));
        }
        fail(OP_FAIL, APP_CODE);
        fail(OP_FAIL, APP_CODE);

        List<String> lines = MetricsExample.bindAndList(client, registry);
        assertEquals(List.of("client service 4200 opcode 1: 3 calls, errors {}, p99 3000 us",
                "client service 4200 opcode 2: 2 calls, errors {17=2}, p99 0 us"), lines);

        assertEquals(3.0, counter("client", OP_SLOW));
        assertEquals(2.0, counter("client", OP_FAIL));
        assertEquals(2.0, errors("client", OP_FAIL, APP_CODE));
        FunctionTimer t = registry.get(RxMetricsBinder.LATENCY).tags("side", "client", "opcode", "1")
                .functionTimer();
        assertEquals(3.0, t.count());
        assertEquals(9.0, t.totalTime(TimeUnit.MILLISECONDS), "3 calls of exactly 3 ms on the client's clock");
        double p50 = registry.get(RxMetricsBinder.LATENCY_PERCENTILE).tags("side", "client", "opcode", "1",
                "quantile", "0.5").timeGauge().value(TimeUnit.MILLISECONDS);
        assertTrue(p50 > 3.0 * 7 / 8 && p50 <= 3.0, "p50 within one histogram bucket of 3 ms: " + p50);
        assertEquals(3.0, registry.get(RxMetricsBinder.LATENCY_PERCENTILE).tags("side", "client", "opcode", "1",
                "quantile", "max").timeGauge().value(TimeUnit.MILLISECONDS));

        // The meters read live counters: a later call shows without rebinding.
        conn.call(op(OP_SLOW));
        assertEquals(4.0, counter("client", OP_SLOW));

    }

    @Test
    void refreshRegistersWhatWasFirstSeenAfterBinding() throws Exception {
        conn.call(op(OP_SLOW));
        RxMetricsBinder binder = new RxMetricsBinder(client, Tags.of("endpoint", "kv"));
        binder.bindTo(registry);
        fail(OP_UNKNOWN, RxCodes.RXGEN_OPCODE);
        fail(OP_FAIL, APP_CODE);
        assertThrows(MeterNotFoundException.class, () -> counter("client", OP_UNKNOWN));
        binder.refresh();
        assertEquals(1.0, counter("client", OP_UNKNOWN));
        assertEquals(1.0, errors("client", OP_UNKNOWN, RxCodes.RXGEN_OPCODE));
        assertEquals(1.0, errors("client", OP_FAIL, APP_CODE));
        assertEquals(1.0, counter("client", OP_SLOW), "the meters bound first kept their values");
        binder.refresh(); // nothing new: registers nothing twice
        assertEquals(2 + 3 * 6, registry.getMeters().size(), "6 meters per procedure, 1 per error code");
    }

    @Test
    void procTagIsTheNameTheEndpointGivesElseTheOpcode() throws Exception {
        RxEndpoint named = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .procNames((service, opcode) -> service == SERVICE && opcode == OP_SLOW ? "KV_Slow" : null).open();
        try {
            RxConnection c = named.connect(server.localAddress(), SERVICE);
            c.call(op(OP_SLOW));
            assertThrows(RxException.class, () -> c.call(op(OP_FAIL)));
            new RxMetricsBinder(named).bindTo(registry);
            assertEquals(1.0, registry.get(RxMetricsBinder.CALLS).tags("proc", "KV_Slow", "opcode", "1")
                    .functionCounter().count());
            assertEquals(1.0, registry.get(RxMetricsBinder.CALLS).tags("proc", "2", "opcode", "2")
                    .functionCounter().count(), "no name: the opcode, so every meter has the same tag keys");
            assertEquals(java.util.Optional.of("KV_Slow"), named.procName(SERVICE, OP_SLOW));
            assertEquals(java.util.Optional.empty(), client.procName(SERVICE, OP_SLOW), "no names given");
        } finally {
            named.close();
        }
    }

    @Test
    void exportsTheServerSide() throws Exception {
        for (int i = 0; i < 2; i++) {
            conn.call(op(OP_SLOW));
        }
        fail(OP_FAIL, APP_CODE);
        server.close(10_000); // waits until the server's calls have ended, so each is counted
        new RxMetricsBinder(server, Tags.of("endpoint", "kv")).bindTo(registry);
        assertEquals(2.0, counter("server", OP_SLOW));
        assertEquals(1.0, errors("server", OP_FAIL, APP_CODE));
        FunctionTimer t = registry.get(RxMetricsBinder.LATENCY).tags("side", "server", "opcode", "1")
                .functionTimer();
        assertEquals(2.0, t.count());
        assertTrue(t.totalTime(TimeUnit.NANOSECONDS) > 0, "the server's real clock moved during its calls");
    }
    @Test
    void errorMetersNameTheirCode() throws Exception {
        RxErrorTables.register("KV", Map.of(KV_NOKEY, new String[] {"KV_NOKEY", "no such key"}));
        fail(OP_NOKEY, KV_NOKEY);
        fail(OP_FAIL, APP_CODE);
        fail(OP_UNKNOWN, RxCodes.RXGEN_OPCODE);
        new RxMetricsBinder(client).bindTo(registry);
        Map<String, String> names = new TreeMap<>();
        for (Meter m : registry.find(RxMetricsBinder.ERRORS).meters()) {
            assertEquals(Set.of("side", "service", "opcode", "proc", "code", "code.name"),
                    m.getId().getTags().stream().map(Tag::getKey).collect(Collectors.toSet()), "same tag keys");
            names.put(m.getId().getTag("code"), m.getId().getTag("code.name"));
        }
        assertEquals(Map.of("185856", "KV_NOKEY", "17", "17", "-455", "RXGEN_OPCODE"), names,
                "a registered table's name, else the number; Rx codes by their name");
        assertEquals(1.0, registry.get(RxMetricsBinder.ERRORS).tags("code.name", "KV_NOKEY").functionCounter()
                .count());
    }
}
