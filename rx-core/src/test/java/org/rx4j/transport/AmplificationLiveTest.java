// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.DebugReplies;
import org.rx4j.config.Reachability;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/robustness.md, Rule: unsolicited traffic, loops and amplification, over a real socket: one forged datagram per
 * case from a fresh source port, and every byte the endpoint sends back to that port before it answers a later marker
 * query (the engine handles a source's datagrams in order, so an immediate reply to the probe arrives before the
 * marker's). Counts and bytes only; the replies timers would send later are measured on the virtual clock in {@code
 * UnsolicitedTrafficTest}. The server runs {@link DebugReplies#NO_AMPLIFICATION}: the default also answers rxdebug from
 * loopback, which is where this test runs.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class AmplificationLiveTest {
    private static final int SVC = 147;
    private static final int CI = 0x01;
    private static final int REQUEST_ACK = 0x02;
    private static final int LAST = 0x04;
    private static int cid = 0x1000;

    /** A raw Rx datagram: the 28-byte header (rx-wire-facts.md §1) and {@code body}. */
    static byte[] datagram(int epoch, int cid, int callNumber, int seq, int type, int flags, int service, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(28 + body.length);
        b.putInt(epoch).putInt(cid).putInt(callNumber).putInt(seq).putInt(seq == 0 ? 0 : 1);
        b.put((byte) type).put((byte) flags).put((byte) 0).put((byte) 0).putShort((short) 0).putShort((short) service);
        b.put(body);
        return b.array();
    }

    /** A DEBUG request (type 8) with {@code pad} zero bytes after its 8-byte body (§9). */
    static byte[] debug(int callNumber, int debugType, int index, int pad) {
        byte[] body = ByteBuffer.allocate(8 + pad).putInt(debugType).putInt(index).array();
        return datagram(999, 0, callNumber, 0, 8, CI | LAST, 0, body);
    }

    private static byte[] data(int flags, int service, int payload) {
        cid += 4;
        return datagram(0x9000_0001, cid, 1, 1, 1, CI | LAST | flags, service, new byte[payload]);
    }

    /** @return {datagrams, bytes} sent back to a fresh source for {@code probe}, up to the marker's reply */
    private static long[] probe(RxEndpoint server, byte[] probe) throws Exception {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            s.setSoTimeout(10_000);
            s.send(new DatagramPacket(probe, probe.length, server.localAddress()));
            // The marker: a VERSION query padded to the reply's 93 bytes (answered under NO_AMPLIFICATION).
            byte[] marker = datagram(999, 0, 4711, 0, 13, CI | LAST, 0, new byte[65]);
            s.send(new DatagramPacket(marker, marker.length, server.localAddress()));
            long datagrams = 0;
            long bytes = 0;
            byte[] buf = new byte[65536];
            while (true) {
                DatagramPacket in = new DatagramPacket(buf, buf.length);
                s.receive(in);
                ByteBuffer h = ByteBuffer.wrap(buf, 0, in.getLength());
                if (in.getLength() >= 28 && buf[20] == 13 && h.getInt(8) == 4711) {
                    return new long[] {datagrams, bytes};
                }
                datagrams++;
                bytes += in.getLength();
            }
        }
    }

    @Test
    void everyReplyToAnUnprovenSourceIsAtMostThreeTimesWhatProvokedIt() throws Exception {
        RxConfig config = RxConfig.builder().debugReplies(DebugReplies.NO_AMPLIFICATION).build();
        try (RxEndpoint server = RxEndpoint.builder().config(config).bind(new InetSocketAddress("127.0.0.1", 0))
                .open()) {
            server.registerService(RxService.builder(SVC)
                    .wholeStream(call -> call.output().write(call.input().readAllBytes())).build());
            // {label, datagram, replies expected, replies withheld expected (the REQUESTED ack of the 100-byte DATA
            // does not fit beside the PING)}
            Object[][] cases = {
                {"DATA, new connection, 100 B", data(0, SVC, 72), 1, 0},
                {"DATA, new connection, 48 B", data(0, SVC, 20), 1, 0},
                {"DATA, new connection, 32 B", data(0, SVC, 4), 1, 0},
                {"DATA + REQUEST_ACK, new connection, 100 B", data(REQUEST_ACK, SVC, 72), 1, 1},
                {"DATA, unknown service, 32 B", data(0, 999, 4), 1, 0},
                {"DATA, unknown service, 29 B", data(0, 999, 1), 1, 0},
                {"ACK PING, unknown connection", datagram(0x9000_0001, 0x7770, 1, 0, 2, CI | REQUEST_ACK, SVC,
                    new byte[37]), 0, 0},
                {"VERSION, 29 B (rxdebug -version): the string alone", datagram(999, 0, 101, 0, 13, CI | LAST, 0,
                    new byte[1]), 1, 0},
                {"DEBUG GETSTATS, 36 B", debug(102, 1, 0, 0), 1, 0},
                {"DEBUG GETALLCONN, 36 B", debug(103, 3, 0, 0), 0, 1},
                {"DEBUG RXSTATS, 36 B", debug(104, 4, 0, 0), 0, 1},
                {"DEBUG GETPEER, 36 B", debug(105, 5, 0, 0), 0, 1},
                {"DEBUG GETSTATS padded to 84 B", debug(106, 1, 0, 48), 1, 0},
            };
            long withheldBefore = server.stats().get("repliesWithheld");
            int expectWithheld = 0;
            StringBuilder table = new StringBuilder();
            for (Object[] c : cases) {
                byte[] d = (byte[]) c[1];
                long[] r = probe(server, d);
                table.append(String.format("%-44s in %3d B  out %d datagrams %3d B%n", c[0], d.length, r[0], r[1]));
                assertEquals((int) c[2], r[0], c[0] + ": replies");
                assertTrue(r[1] <= Reachability.AMPLIFICATION_LIMIT * d.length,
                        c[0] + ": " + r[1] + " bytes out for " + d.length + " in");
                expectWithheld += (int) c[3];
            }
            System.out.print(table);
            Map<String, Long> stats = server.stats();
            assertEquals(expectWithheld, stats.get("repliesWithheld") - withheldBefore,
                    "each reply left unsent is counted in the stats snapshot: " + stats);
            assertEquals(0L, stats.get("internalErrors"));
        }
    }

    /** The hostile-input counters are in the stats snapshot (and so in {@code rxperf -D}), with their values. */
    @Test
    void theDefenceCountersAreInTheStatsSnapshot() throws Exception {
        try (RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
             DatagramSocket attacker = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            server.registerService(RxService.builder(SVC)
                    .wholeStream(call -> call.output().write(call.input().readAllBytes())).build());
            // Five calls holding DATA 2 only (no packet 1) from a source that never proves reachable: kept by the
            // stateless reachability challenge, no connection or call made, nothing started.
            for (int i = 0; i < 5; i++) {
                byte[] d = datagram(0x9000_0002, 0x2000 + 4 * i, 1, 2, 1, CI, SVC, new byte[1412]);
                attacker.send(new DatagramPacket(d, d.length, server.localAddress()));
            }
            // A new connection's DATA asking for an ACK from that source: only the PING goes, its ACK is withheld.
            byte[] asking = datagram(0x9000_0002, 0x3000, 1, 1, 1, CI | REQUEST_ACK, SVC, new byte[4]);
            attacker.send(new DatagramPacket(asking, asking.length, server.localAddress()));
            // A legitimate call after them: the engine handled the datagrams above first.
            RxConnection conn = client.connect(server.localAddress(), SVC);
            assertArrayEquals(new byte[] {1, 2, 3}, conn.call(new byte[] {1, 2, 3}));
            Map<String, Long> stats = server.stats();
            for (String key : List.of("acksRejected", "trailersClamped", "jumbogramsRejected", "repliesWithheld",
                    "heldServerCalls", "heldCallsForgotten", "connectionsEvicted", "connectionsRefused",
                    "addressChangesRefused", "clientPacketsFromStrangers", "challengedSources", "challengedPackets",
                    "challengesSent", "challengesAnswered", "challengesEvicted", "challengesExpired",
                    "heldBytes", "heldPacketsRefused", "securityFailuresFromOtherAddresses", "internalErrors")) {
                assertTrue(stats.containsKey(key), key + " in " + stats.keySet());
            }
            assertEquals(6L, stats.get("challengedPackets"), "the six calls' packets are kept for the challenge");
            assertEquals(1L, stats.get("challengedSources"));
            assertEquals(0L, stats.get("heldServerCalls"), "no call made for an unproven source");
            assertEquals(1L, stats.get("challengesAnswered"), "the legitimate client proved itself");
            assertTrue(stats.get("repliesWithheld") >= 1, "the asked-for ACK was withheld: " + stats);
            assertEquals(0L, stats.get("internalErrors"));
            assertEquals(6, server.statistics().totals().get(RxCounter.CHALLENGED_PACKETS));
        }
    }

    /**
     * GETALLCONN (rxdebug -allconnections) walks the connection table one index per query while clients open and
     * close connections: every reply is a whole 176-byte rx_debugConn or the end marker, nothing throws, and the
     * walk ends. Counts and outcomes only. The default policy answers these unpadded queries (loopback source).
     */
    @Test
    void getAllConnDuringConnectionChurnNeverTearsOrThrows() throws Exception {
        try (RxEndpoint server = RxEndpoint.builder().workers(2, 8).bind(new InetSocketAddress("127.0.0.1", 0))
                .open();
             DatagramSocket rxdebug = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            server.registerService(RxService.builder(SVC)
                    .wholeStream(call -> call.output().write(call.input().readAllBytes())).build());
            rxdebug.setSoTimeout(10_000);
            List<Throwable> failures = new ArrayList<>();
            int[] callsDone = {0};
            Thread churn = new Thread(() -> {
                try {
                    for (int round = 0; round < 20; round++) {
                        try (RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                                .open()) {
                            for (int c = 0; c < 5; c++) {
                                RxConnection conn = client.connect(server.localAddress(), SVC);
                                conn.call(new byte[24]);
                                synchronized (callsDone) {
                                    callsDone[0]++;
                                }
                            }
                        }
                    }
                } catch (Throwable t) {
                    synchronized (failures) {
                        failures.add(t);
                    }
                }
            }, "churn");
            churn.start();
            int walks = 0;
            int conns = 0;
            int callNumber = 200;
            byte[] buf = new byte[2048];
            while (churn.isAlive() || walks < 3) {
                walks++;
                for (int index = 0; index < 10_000; index++) {
                    int cn = ++callNumber;
                    byte[] q = debug(cn, 3, index, 0);
                    rxdebug.send(new DatagramPacket(q, q.length, server.localAddress()));
                    DatagramPacket in = new DatagramPacket(buf, buf.length);
                    ByteBuffer h;
                    do {
                        rxdebug.receive(in);
                        h = ByteBuffer.wrap(buf, 0, in.getLength());
                    } while (h.getInt(8) != cn); // a late answer to an earlier query
                    assertEquals(28 + 176, in.getLength(), "a whole rx_debugConn, never a torn one");
                    assertEquals(8, buf[20], "a DEBUG reply");
                    if (h.getInt(28 + 4) == 0xFFFFFFFF) {
                        break; // the end of the table
                    }
                    conns++;
                }
            }
            churn.join();
            assertTrue(failures.isEmpty(), "the churning clients failed: " + failures);
            assertEquals(100, callsDone[0]);
            assertTrue(walks >= 3 && conns > 0, "walked the table " + walks + " times, " + conns + " entries");
            assertEquals(0L, server.stats().get("internalErrors"), "nothing threw inside the engine");
        }
    }
}
