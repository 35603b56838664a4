// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/**
 * The challenge table's next expiry, which the engine asks for after every read burst: remembered between asks,
 * and right again after each way a record leaves (taken, evicted, expired, replaced, cleared).
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
}
