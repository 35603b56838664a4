// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls to a loopback port where nothing listens (the kernel answers with ICMP port unreachable). With the
 * unreachability probe (the default) every call of the connection fails with RX_CALL_DEAD (−1) and reason
 * PEER_UNREACHABLE although the endpoint's clock stands still (so the 12 s dead time cannot have passed), a later
 * call probes again and fails the same way, and once a server listens there the same connection works; without the
 * probe the dead time applies. Asserts counts and outcomes,
 * not elapsed time.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class ClosedPortTest {
    private static InetSocketAddress closedPort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return (InetSocketAddress) s.getLocalSocketAddress(); // bound, then closed: nothing listens there
        }
    }

    private static RxException failure(CompletableFuture<byte[]> f) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
        return assertInstanceOf(RxException.class, e.getCause());
    }

    @Test
    void icmpPortUnreachableFailsEveryCallAtOnce() throws Exception {
        InetSocketAddress closed = closedPort();
        ManualClock clock = new ManualClock(); // never moved: no dead time, RTO or deadline can pass
        try (RxEndpoint client = RxEndpoint.builder().clock(clock)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).open()) {
            RxConnection conn = client.connect(closed, 4242);
            List<CompletableFuture<byte[]>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) { // 4 on channels, 2 waiting for one
                calls.add(conn.callAsync(new byte[] {0, 0, 0, 1}));
            }
            int dead = 0;
            for (CompletableFuture<byte[]> f : calls) {
                RxException rx = failure(f);
                assertEquals(RxCodes.RX_CALL_DEAD, rx.code());
                assertFalse(rx.remote());
                assertEquals(RxException.Reason.PEER_UNREACHABLE, rx.reason());
                assertTrue(rx.getMessage().contains("ICMP port unreachable"), rx.getMessage());
                dead++;
            }
            assertEquals(6, dead);
            // A later call probes again and fails the same way (blocking form).
            RxException later = assertThrows(RxException.class, () -> conn.call(new byte[] {0, 0, 0, 1}));
            assertEquals(RxCodes.RX_CALL_DEAD, later.code());
            assertEquals(RxException.Reason.PEER_UNREACHABLE, later.reason());

            // The verdict is not sticky: once a server listens on that port, the same connection just works.
            RxService service = RxService.builder(4242)
                    .async(1, req -> CompletableFuture.completedFuture(new byte[] {7}))
                    .build();
            try (RxEndpoint server = RxEndpoint.builder().bind(closed).service(service).open()) {
                assertEquals(closed.getPort(), server.localAddress().getPort());
                assertEquals(7, conn.callAsync(new byte[] {0, 0, 0, 1}).get(30, TimeUnit.SECONDS)[0]);
            }
        }
    }

    /**
     * Calls started back to back while probes start and end: each is attached either before a verdict (and failed
     * by it) or after (and probes again), never left waiting for a dead time the frozen clock cannot reach. When the
     * probe was started from the caller's thread, a loop run of this hung within the first two rounds on a loaded
     * machine (a call attached while the verdict was being applied, or one that found the finished probe still
     * marked out).
     */
    @Test
    void everyCallGetsAVerdictWhileProbesComeAndGo() throws Exception {
        for (int round = 0; round < 20; round++) {
            InetSocketAddress closed = closedPort();
            try (RxEndpoint client = RxEndpoint.builder().clock(new ManualClock())
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).open()) {
                RxConnection conn = client.connect(closed, 4242);
                List<CompletableFuture<byte[]>> calls = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    calls.add(conn.callAsync(new byte[] {0, 0, 0, 1}));
                }
                for (CompletableFuture<byte[]> f : calls) {
                    assertEquals(RxException.Reason.PEER_UNREACHABLE, failure(f).reason(), "round " + round);
                }
                // Right after the verdict: the next call must start a new probe, not find the old one still out.
                assertEquals(RxException.Reason.PEER_UNREACHABLE,
                        failure(conn.callAsync(new byte[] {0, 0, 0, 1})).reason(), "round " + round);
            }
        }
    }

    @Test
    void withoutTheProbeTheDeadTimeApplies() throws Exception {
        InetSocketAddress closed = closedPort();
        RxConfig config = RxConfig.builder().deadTime(Duration.ofSeconds(1)).initialRtt(Duration.ofMillis(100))
                .build();
        try (RxEndpoint client = RxEndpoint.builder().config(config).probeUnreachable(false)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).open()) {
            RxConnection conn = client.connect(closed, 4242);
            RxException rx = failure(conn.callAsync(new byte[] {0, 0, 0, 1}));
            assertEquals(RxCodes.RX_CALL_DEAD, rx.code());
            assertEquals(RxException.Reason.NO_ANSWER, rx.reason(), "the dead time, not ICMP");
        }
    }
}
