// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;

/**
 * The receive window toward a peer whose ACK trailers say it buffers jumbograms of base packets (OpenAFS), in bytes
 * (docs/engine.md "Windows toward OpenAFS"): rwind × 1,444 bytes of packets larger than 1,444 in flight; no byte limit
 * toward a peer advertising maxMTU = ifMTU (rx4j on a large-MTU route) or no jumbograms, nor on base-size packets.
 */
class PeerBufferWindowTest {
    private static Peer peer() {
        return new Peer(new InetSocketAddress("10.0.0.2", 7000), RxConfig.defaults());
    }

    @Test
    void anOpenAfsTrailerOnANineThousandByteLinkLimitsLargePacketsToItsWindowInBasePackets() {
        Peer p = peer();
        // OpenAFS 1.8.9 at MTU 9000 (captured): maxMTU 15604, ifMTU 8524, rwind 32, maxDgramPackets 6.
        p.applyTrailer(4, 15604, 8524, 6, 4);
        p.lastRwind = 32;
        assertTrue(p.basePacketReceiver());
        assertEquals(5, p.bufferedPacketLimit(8524), "32 × 1444 bytes of 8524-byte packets");
        assertEquals(Integer.MAX_VALUE, p.bufferedPacketLimit(1444), "base packets: rwind in packets alone");
        p.lastRwind = 2;
        assertEquals(1, p.bufferedPacketLimit(8524), "at least one packet");
    }

    @Test
    void anRx4jTrailerOrNoJumbogramsLeavesThePacketWindowAlone() {
        Peer rx4j = peer();
        rx4j.applyTrailer(4, 8972, 8972, 4, 4);
        rx4j.lastRwind = 32;
        assertFalse(rx4j.basePacketReceiver());
        assertEquals(Integer.MAX_VALUE, rx4j.bufferedPacketLimit(8972));
        Peer noJumbo = peer();
        noJumbo.applyTrailer(4, 15604, 8524, 1, 4);
        assertFalse(noJumbo.basePacketReceiver(), "maxDgramPackets 1: large packets are what it asks for");
        Peer old = peer();
        old.applyTrailer(3, 15604, 8524, 0, 4);
        assertFalse(old.basePacketReceiver(), "a 3-word trailer says nothing about jumbograms");
    }
}
