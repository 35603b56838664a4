// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.stats.ProcedureMetrics;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;

/**
 * Per-procedure metrics over real loopback calls (docs/embedding.md, "Metrics"): calls, errors by Rx code and
 * latency on both sides, through {@link RxEndpoint#metrics()} and the platform MBean server. The client runs on a
 * {@link ManualClock} that only the server's handlers move, so a client call's latency is exactly what the handler
 * moved it by; the server's clock is real, so its side is checked for counts and codes, latency only for being
 * counted.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class CallMetricsTest {
    static final int SERVICE = 4100;
    /** Moves the client's clock 3 ms, then replies. */
    static final int OP_SLOW = 1;
    /** Fails with application code 17. */
    static final int OP_FAIL = 2;
    /** Async: moves the client's clock 5 ms, then replies. */
    static final int OP_ASYNC = 3;
    static final int OP_UNKNOWN = 9;
    static final int APP_CODE = 17;

    final ManualClock clientClock = new ManualClock();
    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_SLOW, (call, op) -> {
                    clientClock.advance(Duration.ofMillis(3));
                    call.output().write(new byte[] {1, 2});
                })
                .blocking(OP_FAIL, (call, op) -> {
                    throw RxException.local(APP_CODE, "refused");
                })
                .async(OP_ASYNC, req -> {
                    clientClock.advance(Duration.ofMillis(5));
                    return CompletableFuture.completedFuture(new byte[] {3});
                })
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).service(service).open();
        client = RxEndpoint.builder().clock(clientClock).bind(new InetSocketAddress("127.0.0.1", 0)).jmx(true).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private static byte[] op(int op) {
        return new byte[] {(byte) (op >>> 24), (byte) (op >>> 16), (byte) (op >>> 8), (byte) op, 0, 0, 0, 0};
    }

    private void callSome() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        for (int i = 0; i < 3; i++) {
            conn.call(op(OP_SLOW)); // the streaming path: the opcode is read from the first bytes written
        }
        for (int i = 0; i < 2; i++) {
            RxException e = assertThrows(RxException.class, () -> conn.call(op(OP_FAIL)));
            assertEquals(APP_CODE, e.code());
        }
        conn.callAsync(op(OP_ASYNC)).join(); // the async path: the opcode is read from the request
        RxException e = assertThrows(RxException.class, () -> conn.call(op(OP_UNKNOWN)));
        assertEquals(RxCodes.RXGEN_OPCODE, e.code());
    }

    private static ProcedureMetrics find(List<ProcedureMetrics> all, boolean server, int opcode) {
        return all.stream().filter(p -> p.server() == server && p.serviceId() == SERVICE && p.opcode() == opcode)
                .findFirst().orElseThrow(() -> new AssertionError("no metrics for " + server + " " + opcode + ": "
                        + all));
    }

    @Test
    void clientSideCountsCodesAndTimesEachProcedure() throws Exception {
        callSome();
        List<ProcedureMetrics> m = client.metrics();
        assertEquals(4, m.size(), "one entry per procedure called: " + m);

        ProcedureMetrics slow = find(m, false, OP_SLOW);
        assertEquals(3, slow.calls());
        assertEquals(Map.of(), slow.errorsByCode());
        assertEquals(3, slow.latency().count());
        assertEquals(3_000_000, slow.latency().maxNs(), "the handler moved the client's clock 3 ms per call");
        assertEquals(9_000_000, slow.latency().totalNs());
        long p50 = slow.latency().percentileNs(0.5);
        assertTrue(p50 >= 3_000_000 * 7 / 8 && p50 <= 3_000_000, "p50 within a bucket of 3 ms: " + p50);

        ProcedureMetrics fail = find(m, false, OP_FAIL);
        assertEquals(2, fail.calls());
        assertEquals(Map.of(APP_CODE, 2L), fail.errorsByCode());
        assertEquals(2, fail.errors());

        ProcedureMetrics async = find(m, false, OP_ASYNC);
        assertEquals(1, async.calls());
        assertEquals(5_000_000, async.latency().maxNs());

        assertEquals(Map.of(RxCodes.RXGEN_OPCODE, 1L), find(m, false, OP_UNKNOWN).errorsByCode());
        assertEquals("client." + SERVICE + "." + OP_FAIL + ".errors." + APP_CODE,
                fail.toMap().keySet().stream().filter(k -> k.contains("errors.")).findFirst().orElseThrow());
    }

    @Test
    void serverSideCountsEveryCallOnceItEnded() throws Exception {
        callSome();
        server.close(10_000); // waits for the server's calls to end (their last ACK), so every one is counted
        List<ProcedureMetrics> m = server.metrics();
        assertEquals(4, m.size(), "one entry per procedure served: " + m);
        ProcedureMetrics slow = find(m, true, OP_SLOW);
        assertEquals(3, slow.calls());
        assertEquals(3, slow.latency().count());
        assertTrue(slow.latency().maxNs() > 0, "a real clock moved while the call ran");
        assertEquals(Map.of(APP_CODE, 2L), find(m, true, OP_FAIL).errorsByCode());
        assertEquals(1, find(m, true, OP_ASYNC).calls());
        assertEquals(Map.of(), find(m, true, OP_ASYNC).errorsByCode());
        assertEquals(Map.of(RxCodes.RXGEN_OPCODE, 1L), find(m, true, OP_UNKNOWN).errorsByCode(),
                "an unknown opcode is counted under the opcode the client sent");
    }

    @Test
    void jmxShowsTheProcedureMetrics() throws Exception {
        callSome(); // a client call is counted before its caller sees the end, so the table is complete now
        ObjectName name = client.mbeanName().orElseThrow();
        MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
        TabularData t = (TabularData) mbs.getAttribute(name, "ProcedureMetrics");
        String p = "client." + SERVICE + ".";
        assertEquals(3L, value(t, p + OP_SLOW + ".calls"));
        assertEquals(0L, value(t, p + OP_SLOW + ".errors"));
        assertEquals(2L, value(t, p + OP_FAIL + ".errors." + APP_CODE));
        assertEquals(1L, value(t, p + OP_UNKNOWN + ".errors." + RxCodes.RXGEN_OPCODE));
        assertEquals(3_000_000L, value(t, p + OP_SLOW + ".latency.maxNs"));
        assertEquals(3_000_000L, value(t, p + OP_SLOW + ".latency.meanNs"));
        assertEquals(5_000_000L, value(t, p + OP_ASYNC + ".latency.p99Ns"), "capped at the maximum");
    }

    private static long value(TabularData t, String key) {
        var row = t.get(new Object[] {key});
        assertTrue(row != null, "no " + key + " in " + t.keySet());
        return (Long) row.get("value");
    }
}
