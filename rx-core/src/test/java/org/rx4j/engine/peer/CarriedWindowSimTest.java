// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxPacket;

/**
 * The congestion state a peer's calls hand on to its next calls (docs/engine.md "State carried between calls"), in
 * the simulator on the virtual clock, 10 ms RTT: short calls keep the path in use, so a large call soon after starts
 * from the carried window (halved for each idle bound no call filled half of it) and a 32 KiB call takes two round trips, not three;
 * after a path shrank, the call that met the shrink hands on its reduced window and the next call loses nothing at its
 * start; an unvalidated window decays to the initial one; a long idle restarts from the initial window; a call on a
 * path in use asks for no ACK at its start (the peer's last RTT probe answer and SLOW_START_OK are carried).
 */
@ExtendWith(LeakCheckExtension.class)
class CarriedWindowSimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    static final int SVC = 147;

    private final List<SimNetwork> nets = new ArrayList<>();

    @AfterEach
    void shutdown() {
        nets.forEach(SimNetwork::shutdown);
    }

    private SimNetwork net(LinkModel c2s) {
        RxConfig config = RxConfig.builder().build();
        SimNetwork net = new SimNetwork(config, config, c2s, LinkModel.delay(5 * MS), 7);
        nets.add(net);
        net.server().engine.registerService(SVC, 0, new SimApps.BulkServer(net));
        return net;
    }

    /**
     * Runs one call of {@code request} bytes up and 4 down to its end, with no pause after it.
     *
     * @return how long the call took, ns (virtual clock)
     */
    private static long call(SimNetwork net, Connection conn, long request) {
        SimApps.BulkClient c = new SimApps.BulkClient(net, request, 4);
        long start = net.now();
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 60 * S), "the call did not end");
        assertEquals(0, c.error, "the call completed");
        return c.completedAt - start;
    }

    /** Starts a call and returns its congestion window before anything was sent; the call is aborted unsent. */
    private static int startingCwnd(SimNetwork net, Connection conn) {
        Call call = net.client().engine.newCall(net.now(), conn, new SimApps.BulkClient(net, 0, 0));
        int cwnd = call.cwnd();
        call.abort(net.now(), 1);
        return cwnd;
    }

    @Test
    void shortCallsKeepThePathInUseForTheNextLargeCall() {
        SimNetwork net = net(LinkModel.delay(5 * MS));
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        call(net, conn, 1 << 20);
        int carried = conn.peer().carried.cwnd();
        assertTrue(carried >= 16, "a 1 MiB call opens the window: " + carried);
        // Short calls 0.6 s apart: each is answered, so the path stays in use beyond one idle bound (1 s).
        for (int i = 0; i < 2; i++) {
            net.runFor(600 * MS);
            call(net, conn, 4);
        }
        // 1.2 s after the last call that filled the window: one idle bound unvalidated, half the window.
        assertEquals(carried / 2, startingCwnd(net, conn), "started from half the carried window");
        // 23 packets in a window of 16: two round trips (three from the initial window of 4).
        long ns = call(net, conn, 32 << 10);
        assertTrue(ns <= 20 * MS + MS / 2, "a 32 KiB call took " + ns / 1e6 + " ms");
        for (int i = 0; i < 6; i++) {
            net.runFor(600 * MS);
            call(net, conn, 4);
        }
        assertEquals(RxConfig.builder().build().congestion().initialCwnd(), startingCwnd(net, conn),
                "a window no call filled for 3.6 s decays to the initial one");
    }

    @Test
    void aLongIdleRestartsFromTheInitialWindow() {
        SimNetwork net = net(LinkModel.delay(5 * MS));
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        call(net, conn, 1 << 20);
        assertTrue(conn.peer().carried.cwnd() >= 16, "a 1 MiB call opens the window");
        assertTrue(startingCwnd(net, conn) >= 16, "a call right after starts from it");
        net.runFor(1100 * MS);
        assertEquals(RxConfig.builder().build().congestion().initialCwnd(), startingCwnd(net, conn),
                "after an idle longer than max(1 s, RTO) the window restarts (RFC 5681 §4.1)");
    }

    @Test
    void afterThePathShrankTheNextCallLosesNothingAtItsStart() {
        SimNetwork net = net(LinkModel.delay(5 * MS));
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        call(net, conn, 1 << 20);
        int wide = conn.peer().carried.cwnd();
        // The path shrinks to 4 Mbit/s (3.5 packets per RTT) with an 8-packet drop-tail queue.
        net.setLinks(LinkModel.delay(5 * MS).withBandwidth(4_000_000, 8 * 1472), LinkModel.delay(5 * MS));
        long before = net.dropped;
        call(net, conn, 256 << 10);
        assertTrue(net.dropped > before, "the call that met the shrink lost packets");
        int reduced = conn.peer().carried.cwnd();
        assertTrue(reduced < wide, "it handed on a smaller window: " + reduced + " < " + wide);
        // Short calls in between, then a large call: its first round trips lose nothing.
        call(net, conn, 4);
        net.runFor(300 * MS);
        call(net, conn, 4);
        long atStart = net.dropped;
        SimApps.BulkClient c = new SimApps.BulkClient(net, 256 << 10, 4);
        c.start(conn);
        net.runFor(20 * MS);
        assertEquals(atStart, net.dropped, "no loss in the first two RTTs of the next call");
        assertTrue(net.runUntil(() -> c.done, 60 * S), "the call did not end");
        assertEquals(0, c.error);
    }

    @Test
    void aCallOnAPathInUseAsksForNoAckAtItsStart() {
        SimNetwork net = net(LinkModel.delay(5 * MS));
        int[] requests = new int[1];
        int[] serverAcks = new int[1];
        net.sendTap = (now, fromClient, packets) -> {
            RxPacket last = packets.get(packets.size() - 1);
            if (fromClient && last.header().type() == PacketType.DATA
                    && last.header().hasFlag(PacketFlags.REQUEST_ACK)) {
                requests[0]++;
            } else if (!fromClient && last.header().type() == PacketType.ACK) {
                serverAcks[0]++;
            }
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        call(net, conn, 1 << 20);
        long samples = conn.peer().rtt().samples();
        requests[0] = 0;
        serverAcks[0] = 0;
        for (int i = 0; i < 10; i++) {
            call(net, conn, 32 << 10);
        }
        // Before, every call asked twice (20 REQUEST_ACKs, 40 ACKs from the server); now the answer to the last
        // probe stands for max(2 srtt, minimum RTO): 2 asked, 32 ACKs.
        assertTrue(requests[0] <= 4, "datagrams that asked for an ACK in 10 calls of 32 KiB: " + requests[0]);
        assertTrue(serverAcks[0] <= 34, "ACKs from the server in 10 calls: " + serverAcks[0]);
        assertTrue(conn.peer().rtt().samples() >= samples + 2, "the calls still time the path");
        assertEquals(10 * MS, conn.peer().rtt().srttNs(), MS / 2, "srtt");
        // After an idle longer than the idle bound nothing is carried: the next call probes at its start.
        net.runFor(1100 * MS);
        requests[0] = 0;
        call(net, conn, 32 << 10);
        assertTrue(requests[0] >= 1, "a call after an idle asks for an ACK at its start");
    }

    /** Round trips (10 ms each) and datagrams of each of 5 back-to-back calls of {@code request} bytes. */
    private static String warmCalls(long request) {
        RxConfig config = RxConfig.builder().build();
        SimNetwork net = new SimNetwork(config, config, LinkModel.delay(5 * MS), LinkModel.delay(5 * MS), 7);
        net.server().engine.registerService(SVC, 0, new SimApps.BulkServer(net));
        int[] datagrams = new int[1];
        net.sendTap = (now, fromClient, packets) -> datagrams[0]++;
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            datagrams[0] = 0;
            long ns = call(net, conn, request);
            sb.append(i == 0 ? "" : " ").append(ns / (10 * MS)).append(" RTT/").append(datagrams[0]);
        }
        net.shutdown();
        return sb.toString();
    }

    @Test
    void theCostOfACallsFirstPacketsOnAWarmPath() {
        // The first call pays for the reachability PING and slow start from the initial window; the next ones start
        // from the carried window. 32 KiB is 24 packets of 1,412 bytes: one round trip once the window holds them.
        // 128 KiB is 93 packets: three round trips, bound by the receiver's window of 32 packets, not by cwnd.
        // Datagrams both ways (DATA, ACKs, the reply): before, every call's first datagram asked for an ACK and the
        // server acked a whole request just before its reply: 28, 15, 12, 12, 12 and 61, 39, 39, 39, 39 datagrams.
        // Now a call asks only when the last answered probe is older than max(2 srtt, minimum RTO).
        assertEquals("4 RTT/27 2 RTT/13 1 RTT/11 1 RTT/11 1 RTT/12", warmCalls(32 << 10), "32 KiB calls");
        assertEquals("7 RTT/60 3 RTT/36 3 RTT/39 3 RTT/36 3 RTT/39", warmCalls(128 << 10), "128 KiB calls");
    }
}
