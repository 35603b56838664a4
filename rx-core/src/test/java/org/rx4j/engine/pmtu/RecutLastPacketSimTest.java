// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxPacket;

/**
 * A delayed original LAST_PACKET against the sender's re-cut after a path-MTU fall (docs/engine.md "Path MTU below
 * one full packet", docs/robustness.md "Rule: the first LAST_PACKET holds"), in the simulator on the virtual
 * clock. The path carries datagrams of up to 1,000 bytes; a new peer's request is seq 1 (492 bytes, fits), seq 2
 * (1,412 bytes, dropped) and seq 3 with LAST_PACKET. The first copy of seq 3 is held back and delivered late: after
 * the re-cut packets, or before them (just after the server answered the probe that allows the re-cut). Either order
 * yields the same outcome, and the server never reads a stream other than the one sent.
 */
@ExtendWith(LeakCheckExtension.class)
class RecutLastPacketSimTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final int SVC = 147;
    private static final int MTU = 1000;
    private SimNetwork net;

    @AfterEach
    void shutdown() {
        net.shutdown();
    }

    /** When the held-back original of the LAST_PACKET reaches the server. */
    private enum Order {
        /** Right after the server received the re-cut stream's LAST_PACKET (or, with no re-cut, 10 s in). */
        AFTER_RECUT,
        /** Right after the server answered the client's first padded probe (its state then allows the re-cut). */
        BEFORE_RECUT
    }

    /** What one run saw. */
    private record Outcome(int clientError, long serverCompleted, long requestBytes, long mismatches,
                           boolean lateCopyDelivered, long recutPacketsDelivered) {
    }

    /**
     * @param lastBytes data bytes of seq 3 (with LAST_PACKET)
     */
    private Outcome run(int lastBytes, Order order) {
        if (net != null) {
            net.shutdown();
        }
        net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(5 * MS).withMtu(MTU),
                LinkModel.delay(5 * MS).withMtu(MTU), 12);
        net.allowStalls = true; // the first flight is lost until the probes found the path's MTU
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        DataPacket[] original = new DataPacket[1];
        boolean[] released = new boolean[1];
        boolean[] delivered = new boolean[1];
        long[] recut = new long[1];
        Set<Integer> probeSerials = new HashSet<>();
        net.sendTap = (now, fromClient, packets) -> {
            for (RxPacket p : packets) {
                if (fromClient && original[0] == null && p instanceof DataPacket d && d.header().seq() == 3
                        && d.header().hasFlag(PacketFlags.LAST_PACKET)) {
                    original[0] = new DataPacket(d.header().copy(), Unpooled.copiedBuffer(d.payload()));
                }
                if (fromClient && p instanceof AckPacket a && a.tailBytes() > 0) {
                    probeSerials.add(a.header().serial());
                }
                if (!fromClient && order == Order.BEFORE_RECUT && !released[0] && p instanceof AckPacket a
                        && a.reason() == AckReason.PING_RESPONSE && probeSerials.contains(a.serial())) {
                    release(original, released);
                }
            }
        };
        net.deliveryFilter = (now, toServer, packets) -> {
            if (!toServer || !(packets.get(0) instanceof DataPacket p)) {
                return true;
            }
            int seq = p.header().seq();
            boolean originalCopy = seq == 3 && original[0] != null
                    && p.payload().readableBytes() == original[0].payload().readableBytes();
            if (originalCopy && released[0] && !delivered[0]
                    && p.header().serial() == original[0].header().serial()) {
                delivered[0] = true; // the held-back copy itself
                return true;
            }
            if (originalCopy && !released[0]) {
                return false; // every copy of the original seq 3 is held back or lost until the late one arrives
            }
            if (seq == 2) {
                recut[0]++; // the original seq 2 never passes the path: every seq 2 that does was re-cut
            }
            if (order == Order.AFTER_RECUT && !originalCopy && p.header().hasFlag(PacketFlags.LAST_PACKET)
                    && !released[0]) {
                release(original, released);
            }
            return true;
        };
        int request = 492 + 1412 + lastBytes - 8; // BulkClient's 8-byte reply length, then the pattern
        SimApps.BulkClient c = new SimApps.BulkClient(net, request, 0);
        c.start(conn);
        if (order == Order.AFTER_RECUT) {
            net.runUntil(() -> c.done, 10 * S);
            if (!released[0] && original[0] != null) {
                release(original, released); // no re-cut went out: the late copy arrives anyway
            }
        }
        assertTrue(net.runUntil(() -> c.done, 120 * S), "the call ends");
        net.runFor(S);
        assertTrue(original[0] != null, "seq 3 went out with LAST_PACKET");
        original[0].release();
        return new Outcome(c.error, server.callsCompleted, server.requestBytes, server.mismatches, delivered[0],
                recut[0]);
    }

    /** Queues the held-back original for delivery to the server now (the simulator takes it). */
    private void release(DataPacket[] original, boolean[] released) {
        released[0] = true;
        DataPacket p = original[0];
        net.inject(true, new DataPacket(p.header().copy(), p.payload().retainedDuplicate()));
    }

    @Test
    void anOversizedLastIsRenumberedAndItsLateOriginalIsOnlyADuplicate() {
        // Seq 3 holds 1,096 bytes: dropped by the path like seq 2, so both are re-cut into seqs 2-4 (LAST moves up).
        Outcome o = run(1096, Order.AFTER_RECUT);
        assertEquals(0, o.clientError(), "the call completes");
        assertTrue(o.recutPacketsDelivered() > 0, "the request was re-cut");
        assertTrue(o.lateCopyDelivered(), "the original LAST arrived after the re-cut");
        assertEquals(1, o.serverCompleted());
        assertEquals(492 + 1412 + 1096 - 8, o.requestBytes(), "the whole request, once");
        assertEquals(0, o.mismatches(), "byte-exact");
        assertEquals(0, net.server().engine.totals().get(RxCounter.DATA_BEYOND_LAST), "seq 3 is below the accepted LAST");
    }

    @Test
    void aShortLastThatFitsThePathIsNeverRenumberedWhicheverWayItsLateOriginalArrives() {
        // Seq 3 holds 100 bytes: the path carries it, so a copy not yet seen may be delayed rather than dropped.
        // Renumbering it would let a late original end the stream at seq 3 with other bytes before it.
        Outcome before = run(100, Order.BEFORE_RECUT);
        Outcome after = run(100, Order.AFTER_RECUT);
        for (Outcome o : new Outcome[] {before, after}) {
            assertTrue(o.lateCopyDelivered(), "the original LAST arrived: " + o);
            assertEquals(0, o.recutPacketsDelivered(), "nothing renumbered: " + o);
            assertEquals(0, o.mismatches(), "nothing wrong reached the server: " + o);
            assertEquals(0, o.serverCompleted(), "no request was delivered short: " + o);
        }
        assertEquals(before.clientError(), after.clientError(), "the same outcome in both orders");
        assertEquals(-1, before.clientError(), "RX_CALL_DEAD, one dead time after the refused re-cut");
    }
}
