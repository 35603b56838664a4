// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.pmtu.PathMtuState;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxPacket;

/**
 * Fault survival (docs/robustness.md "Rule: faults"), in the simulator on the virtual clock: a silent peer (bounded,
 * backed-off resends, −1 at the dead time), a restarted peer with a new epoch, a path whose MTU shrinks under a running
 * call (fallback from jumbograms to single packets, re-growth when the path recovers), and congestion state not reused
 * after long idle. A silence shorter than the dead time:
 * {@code LivenessTest.aPeerSilentForLessThanTheDeadTimeResumes...}.
 */
class FaultSurvivalTest {
    private static final int SVC = 147;
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    @Test
    void aSilentPeerGetsBoundedBackedOffResendsAndTheCallFailsWithCallDeadAtTheDeadTime() {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), 121);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 1L << 40, 0);
        client.start(conn);
        net.runFor(S);
        List<Long> resends = new ArrayList<>();
        net.sendTap = (now, fromClient, packets) -> {
            for (RxPacket p : packets) {
                if (fromClient && p instanceof DataPacket d && d.header().hasFlag(PacketFlags.REQUEST_ACK)
                        && packets.size() == 1 && net.blackout) {
                    resends.add(now);
                }
            }
        };
        net.blackout = true;
        net.allowStalls = true;
        long silentFrom = net.now();
        long rtoBefore = conn.peer().rtt().rtoNs();
        assertTrue(net.runUntil(() -> client.done, 60 * S));
        assertEquals(AbortCodes.RX_CALL_DEAD, client.error);
        long deadTime = RxConfig.defaults().timeouts().deadTimeNs();
        assertTrue(client.completedAt - silentFrom <= deadTime + rtoBefore, "failed at the dead time");
        // Backed off: every gap at least as long as the one before (RTO doubles per timeout), and few of them.
        assertTrue(!resends.isEmpty(), "the sender did retry");
        for (int i = 2; i < resends.size(); i++) {
            assertTrue(resends.get(i) - resends.get(i - 1) >= resends.get(i - 1) - resends.get(i - 2) - MS,
                    "gaps grow: " + resends);
        }
        long bound = 2 + 64 - Long.numberOfLeadingZeros(deadTime / Math.max(1, rtoBefore));
        assertTrue(resends.size() <= bound, resends.size() + " resend rounds in 12 s, bound " + bound);
        net.shutdown();
    }

    @Test
    void aPeerRestartedWithANewEpochIsANewConnectionAndWorks() {
        EngineHarness h = new EngineHarness(RxConfig.builder().checkReach(false).build());
        int[] calls = {0};
        h.engine.registerService(SVC, 0, call -> {
            calls[0]++;
            call.setListener(new CallListener() {
                @Override
                public void onData(Call c, io.netty.buffer.ByteBuf b, long now) {
                    b.release();
                }

                @Override
                public void onReadComplete(Call c, long now) {
                    if (c.isReadComplete() && c.isWritable() && !c.replySent()) {
                        c.write(h.now, EngineHarness.bytes(10));
                        c.finishSending(h.now);
                    }
                }

                @Override
                public void onWritable(Call c) {
                }

                @Override
                public void onComplete(Call c, int errorCode) {
                }
            });
        });
        FakePeer before = FakePeer.client(0x80000001, 0x400, SVC);
        h.deliver(before.data(0, 7, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(1, calls[0]);
        assertEquals(1, h.dataSent().size(), "first incarnation served");
        // The client restarts: new epoch, same cid and address, call numbers from 1 again.
        FakePeer after = FakePeer.client(0x80000002, 0x400, SVC);
        h.clear();
        h.deliver(after.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(2, calls[0], "the restarted client's call runs");
        assertEquals(2, h.engine.serverConnections().size(), "a new connection, not the old one");
        List<DataPacket> reply = h.dataSent();
        assertEquals(1, reply.size());
        assertEquals(0x80000002, reply.get(0).header().epoch(), "the reply goes to the new incarnation");
        assertEquals(1, reply.get(0).header().callNumber());
        h.engine.shutdown(h.now);
    }

    @Test
    void aShrinkingPathMtuFallsBackFromJumbogramsAndReGrowsWhenThePathRecovers() {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), 122);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 1L << 40, 0);
        client.start(conn);
        net.runFor(300 * MS);
        long jumbosBefore = conn.counters().get(RxCounter.JUMBOGRAMS_SENT);
        assertTrue(jumbosBefore > 0, "jumbograms flow on the full path");
        // The path now drops every datagram above 1472 bytes (a single 1440-byte DATA still fits).
        net.setLinks(LinkModel.delay(MS).withMtu(1472), LinkModel.delay(MS));
        net.allowStalls = true;
        long sentBefore = client.writer.sent;
        net.runFor(30 * S);
        assertTrue(!client.done, "the call did not fail: " + client.error);
        assertTrue(client.writer.sent - sentBefore > 64L << 20, "data kept flowing over the narrow path: "
                + (client.writer.sent - sentBefore));
        assertEquals(1, conn.peer().pathMtuState().jumboCap(), "held to single packets");
        // The path recovers: the next probe is answered and jumbograms come back.
        long jumbosNarrow = conn.counters().get(RxCounter.JUMBOGRAMS_SENT);
        net.setLinks(LinkModel.delay(MS), LinkModel.delay(MS));
        net.runFor(PathMtuState.PROBE_INTERVAL_NS + S);
        assertTrue(!client.done);
        assertTrue(conn.counters().get(RxCounter.JUMBOGRAMS_SENT) - jumbosNarrow > 1000, "jumbograms re-grew: "
                + (conn.counters().get(RxCounter.JUMBOGRAMS_SENT) - jumbosNarrow));
        assertEquals(0, server.mismatches, "every byte that arrived is the right one");
        net.shutdown();
    }

    @Test
    void congestionStateLearnedByOneCallIsNotReusedAfterLongIdle() {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), 123);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient first = new SimApps.BulkClient(net, 8 << 20, 0);
        first.start(conn);
        assertTrue(net.runUntil(() -> first.done, 60 * S));
        int initial = RxConfig.defaults().congestion().initialCwnd();
        SimApps.BulkClient soon = new SimApps.BulkClient(net, 8 << 20, 0);
        Call soonCall = soon.start(conn);
        assertTrue(soonCall.cwnd() > initial, "right after, the learned window is reused: " + soonCall.cwnd());
        assertTrue(net.runUntil(() -> soon.done, 60 * S));
        net.runFor(600 * S);
        SimApps.BulkClient late = new SimApps.BulkClient(net, 1 << 20, 0);
        Call lateCall = late.start(conn);
        assertEquals(initial, lateCall.cwnd(), "after 10 minutes idle the call starts from the initial window");
        assertTrue(net.runUntil(() -> late.done, 60 * S));
        net.shutdown();
    }
}
