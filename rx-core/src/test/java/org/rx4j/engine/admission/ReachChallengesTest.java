// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.rx4j.engine.call.Deadlines;
import org.rx4j.engine.security.HeldBytes;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;

/**
 * The challenge table's next expiry, which the engine asks for after every read burst: remembered between asks,
 * and right again after each way a record leaves (taken, evicted, expired, replaced, cleared); its byte count when
 * one connection's packets are handed over.
 */
class ReachChallengesTest {
    private static InetSocketAddress source(int port) {
        return new InetSocketAddress("127.0.0.1", port);
    }

    @Test
    void theNextExpiryFollowsTheOldestRecordThroughEveryRemoval() {
        ReachChallenges t = new ReachChallenges(1, 3, 10, 100);
        assertEquals(Deadlines.NONE, t.nextExpiryNs());
        t.open(10, source(1));
        assertEquals(110, t.nextExpiryNs());
        t.open(20, source(2));
        assertEquals(110, t.nextExpiryNs(), "a newer record does not move it");
        t.take(source(1));
        assertEquals(120, t.nextExpiryNs(), "taken: the next oldest");
        t.open(30, source(3));
        t.open(40, source(4));
        t.open(50, source(5)); // the source limit (3) evicts source 2
        assertEquals(3, t.sources());
        assertEquals(1, t.sourcesEvicted());
        assertEquals(130, t.nextExpiryNs(), "evicted: the next oldest");
        t.expire(135);
        assertEquals(140, t.nextExpiryNs(), "expired: the next oldest");
        t.open(145, source(4)); // source 4's time is up: a fresh record at the end
        assertEquals(150, t.nextExpiryNs(), "replaced: source 5 is the oldest now");
        t.clear();
        assertEquals(Deadlines.NONE, t.nextExpiryNs());
        t.open(200, source(6));
        assertEquals(300, t.nextExpiryNs(), "the first record after the table emptied");
    }

    /**
     * One connection of a source answers its PING: its kept packets leave the byte budget (the source's share and
     * the endpoint's), the other connection's stay counted until it answers too (docs/robustness.md "Rule: a byte
     * budget for what unproven sources leave").
     */
    @Test
    void handingOverOneConnectionsPacketsGivesBackTheirBytesOnly() {
        HeldBytes budget = new HeldBytes(1_000_000, 100_000);
        ReachChallenges t = new ReachChallenges(1, 8, 100, 1_000, budget);
        ReachChallenges.Pending rec = t.open(0, source(1));
        t.hold(source(1), rec, data(0x40, 1, 1_000), 5_800);
        t.hold(source(1), rec, data(0x40, 2, 500), 5_800);
        t.hold(source(1), rec, data(0x80, 1, 2_000), 5_800);
        assertEquals(3_500 + 3 * 28, t.heldBytes());

        assertEquals(2, t.takeConnection(source(1), 0x7000_0001, 0x40).size());
        assertEquals(2_000 + 28, t.heldBytes(), "the answered connection's bytes are no longer kept");
        assertEquals(2_000 + 28, rec.bytes, "nor in the source's share");
        assertEquals(1, t.heldPackets());

        assertEquals(1, t.takeConnection(source(1), 0x7000_0001, 0x80).size());
        assertEquals(0, t.heldBytes());
        assertEquals(0, t.sources(), "the record goes with its last packet");
    }

    private static DataPacket data(int cid, int seq, int bytes) {
        RxHeader h = new RxHeader(0x7000_0001, cid, 1, seq, seq, PacketType.DATA, PacketFlags.CLIENT_INITIATED, 0, 0, 0,
                147);
        return new DataPacket(h, Unpooled.buffer(bytes).writeZero(bytes));
    }

    /**
     * The cookie keeps address and port apart: host + 1 with port − 1 (the same {@code InetSocketAddress.hashCode})
     * gets other cookies, so a RESPONSE or PING_RESPONSE made for one address proves nothing from the other; so do
     * two IPv6 addresses with the same {@code hashCode}.
     */
    @Test
    void addressesWithTheSameHashCodeGetDifferentCookies() {
        ReachChallenges t = new ReachChallenges(29, 3, 10, 100);
        InetSocketAddress a = new InetSocketAddress("10.0.0.1", 7001);
        InetSocketAddress b = new InetSocketAddress("10.0.0.2", 7000);
        assertEquals(a.hashCode(), b.hashCode());
        int same = 0;
        for (int cid = 0; cid < 64; cid += 4) {
            same += t.cookie(a, 0x12345678, cid, 0) == t.cookie(b, 0x12345678, cid, 0) ? 1 : 0;
        }
        assertEquals(0, same, "IPv4");
        InetSocketAddress c = new InetSocketAddress("fd00::1", 7001);
        InetSocketAddress d = new InetSocketAddress("fd00:0:0:1::", 7001);
        assertEquals(c.hashCode(), d.hashCode());
        assertNotEquals(t.cookie(c, 1, 4, 0), t.cookie(d, 1, 4, 0), "IPv6");
    }
}
