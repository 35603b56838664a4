// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.relay.core.DropReason;
import org.rx4j.relay.core.Impairment;

/**
 * The real relay on loopback between plain UDP sockets. Asserts counts and bytes only, never timing; the
 * timeouts only keep a broken relay from hanging the build.
 */
@Timeout(30)
class RelayLoopbackTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void relaysBothWaysWithOneUpstreamPeerPerClient() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        try (DatagramSocket server = socket(); DatagramSocket clientA = socket(); DatagramSocket clientB = socket();
             ImpairmentRelay relay = ImpairmentRelay.builder()
                     .listen(new InetSocketAddress(LOOPBACK, 0))
                     .target((InetSocketAddress) server.getLocalSocketAddress())
                     .upstream(Impairment.builder().mtuBytes(1444).build())
                     .seed(1).warnings(warnings::add).start()) {
            SocketAddress relayAddress = relay.listenAddress();
            int n = 100;
            long bytes = 0;
            for (int i = 0; i < n; i++) {
                DatagramSocket client = i % 2 == 0 ? clientA : clientB;
                byte[] payload = payload(i, 1 + i * 14); // 1 .. 1387 bytes
                bytes += payload.length;
                client.send(new DatagramPacket(payload, payload.length, relayAddress));
            }
            clientA.send(new DatagramPacket(new byte[1445], 1445, relayAddress)); // above the MTU cap: dropped
            byte[] last = payload(n, 1444);
            clientA.send(new DatagramPacket(last, last.length, relayAddress)); // at the cap: relayed
            bytes += last.length;

            Set<SocketAddress> peers = new HashSet<>();
            byte[] buf = new byte[65536];
            for (int i = 0; i <= n; i++) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                server.receive(p);
                peers.add(p.getSocketAddress());
                byte[] got = Arrays.copyOf(p.getData(), p.getLength());
                server.send(new DatagramPacket(got, got.length, p.getSocketAddress())); // echo back
            }
            assertEquals(2, peers.size(), "one upstream socket per client");
            assertNotEquals(relayAddress, peers.iterator().next());

            int atA = receiveAll(clientA, n / 2 + 1);
            int atB = receiveAll(clientB, n / 2);
            assertEquals(n / 2 + 1, atA);
            assertEquals(n / 2, atB);

            RelayStats stats = relay.stats();
            assertEquals(n + 2, stats.upstream().inDatagrams());
            assertEquals(n + 1, stats.upstream().outDatagrams());
            assertEquals(bytes, stats.upstream().outBytes());
            assertEquals(1, stats.upstream().dropped(DropReason.MTU));
            assertEquals(n + 1, stats.downstream().inDatagrams());
            assertEquals(n + 1, stats.downstream().outDatagrams());
            assertEquals(bytes, stats.downstream().outBytes());
            assertEquals(2, stats.flows());
        }
    }

    @Test
    void statsSurviveClose() throws Exception {
        try (DatagramSocket server = socket(); DatagramSocket client = socket()) {
            ImpairmentRelay relay = ImpairmentRelay.builder().listen(new InetSocketAddress(LOOPBACK, 0))
                    .target((InetSocketAddress) server.getLocalSocketAddress()).start();
            client.send(new DatagramPacket(new byte[100], 100, relay.listenAddress()));
            server.receive(new DatagramPacket(new byte[200], 200));
            relay.close();
            relay.close();
            assertEquals(1, relay.stats().upstream().outDatagrams());
            assertEquals(100, relay.stats().upstream().outBytes());
        }
    }

    @Test
    void releasesEveryBufferItDuplicatesDropsOrDiscardsAtClose() throws Exception {
        resetLeakCount();
        Impairment harsh = Impairment.builder().lossPercent(20).duplicatePercent(50).reorder(30, 1)
                .mtuBytes(1000).build();
        Impairment slow = Impairment.builder().delayMs(60_000).build(); // still waiting at close: discarded
        try (DatagramSocket server = socket(); DatagramSocket client = socket()) {
            ImpairmentRelay relay = ImpairmentRelay.builder().listen(new InetSocketAddress(LOOPBACK, 0))
                    .target((InetSocketAddress) server.getLocalSocketAddress()).upstream(harsh).downstream(slow)
                    .seed(5).start();
            int n = 300;
            for (int i = 0; i < n; i++) {
                client.send(new DatagramPacket(new byte[i % 2 == 0 ? 500 : 1500], i % 2 == 0 ? 500 : 1500,
                        relay.listenAddress()));
            }
            client.send(new DatagramPacket(new byte[1], 1, relay.listenAddress())); // the last one through
            // Counted, not timed: wait (bounded only as a hang guard) until the relay has taken in and released
            // all n + 1 datagrams, then read exactly what it sent on, so a slow machine cannot cut the test short.
            awaitStats(relay, st -> st.upstream().inDatagrams() == n + 1 && st.upstream().pending() == 0);
            long sent = relay.stats().upstream().outDatagrams();
            int got = 0;
            for (long k = 0; k < sent; k++) {
                DatagramPacket p = new DatagramPacket(new byte[2000], 2000);
                server.receive(p);
                got++;
                server.send(new DatagramPacket(new byte[10], 10, p.getSocketAddress())); // held 60 s
            }
            int replies = got;
            awaitStats(relay, st -> st.downstream().inDatagrams() == replies);
            RelayStats before;
            before = relay.stats();
            relay.close();
            assertEquals(got, before.upstream().outDatagrams());
            assertEquals(n + 1 + before.upstream().duplicated(), before.upstream().outDatagrams()
                    + before.upstream().droppedTotal());
            assertEquals(n / 2, before.upstream().dropped(DropReason.MTU));
            assertEquals(got, before.downstream().pending());
        }
        assertNoLeaks();
    }

    private static void resetLeakCount() {
        try {
            io.netty.util.LeakPresenceDetector.check();
        } catch (IllegalStateException ignored) {
            // earlier allocations belong to earlier tests
        }
    }

    private static void assertNoLeaks() {
        try {
            io.netty.util.LeakPresenceDetector.check();
        } catch (IllegalStateException e) {
            throw new AssertionError("ByteBuf leak: " + e.getMessage(), e);
        }
    }

    private static int receiveAll(DatagramSocket client, int expected) throws Exception {
        byte[] buf = new byte[65536];
        for (int i = 0; i < expected; i++) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            client.receive(p);
            int seq = p.getData()[0] & 0xff;
            assertArrayEquals(payload(seq, p.getLength()), Arrays.copyOf(p.getData(), p.getLength()));
        }
        return expected;
    }

    private static byte[] payload(int seq, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i == 0 ? seq : seq * 31 + i);
        }
        return b;
    }

    private static void awaitStats(ImpairmentRelay relay, java.util.function.Predicate<RelayStats> done)
            throws InterruptedException {
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60); // hang guard only
        while (!done.test(relay.stats())) {
            if (System.nanoTime() > until) {
                throw new AssertionError("relay never reached the expected counts: " + relay.stats());
            }
            Thread.sleep(5);
        }
    }

    private static DatagramSocket socket() throws Exception {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
        s.setSoTimeout(10_000);
        s.setReceiveBufferSize(4 << 20);
        return s;
    }
}
