// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;

/**
 * The maxDgramPackets our ACK trailers advertise to a peer (docs/engine.md "Jumbogram size and windows toward
 * OpenAFS"): 1 toward an OpenAFS-style sender when both interfaces are wider than Ethernet, so that it sends single
 * packets of its natMTU in place of jumbograms of base packets; the route's jumbogram limit otherwise.
 */
class AdvertisedDgramPacketsTest {
    private static final InetSocketAddress ADDRESS = new InetSocketAddress("10.0.0.2", 7000);

    /** A peer whose route gives us {@code localIfMtu} bytes and {@code routeJumbo} sub-packets per jumbogram. */
    private static Peer peer(int localIfMtu, int routeJumbo) {
        return new Peer(ADDRESS, RxConfig.defaults(), localIfMtu, routeJumbo);
    }

    @Test
    void anOpenAfsSenderOnANineThousandByteLinkIsAskedForSinglePackets() {
        Peer p = peer(8972, 6);
        assertEquals(6, p.advertisedDgramPackets(), "before its first trailer: the route's limit");
        // OpenAFS 1.8.9 at MTU 9000 (captured): maxMTU 15604, ifMTU 8524, rwind 32, maxDgramPackets 6.
        p.applyTrailer(4, 15604, 8524, 6, 6);
        assertEquals(1, p.advertisedDgramPackets(), "its natMTU is then 8524: one packet where it sent six");
        assertEquals(6, p.jumboLimit(), "what we send it is unchanged");
    }

    @Test
    void anOpenAfsSenderSayingEthernetSizeKeepsItsJumbograms() {
        Peer loopback = peer(65507, 6);
        // OpenAFS on loopback (captured): maxMTU 5692, ifMTU 1444, maxDgramPackets 4.
        loopback.applyTrailer(4, 5692, 1444, 4, 6);
        assertEquals(6, loopback.advertisedDgramPackets(), "its natMTU would be 1444: single packets would be smaller");
        // Our route Ethernet-size, jumbograms fragmented as OpenAFS does (--fragment-jumbograms): 4 per datagram.
        Peer ethernet = new Peer(ADDRESS, RxConfig.builder().fragmentJumbograms(true).build(), 1444, 1);
        ethernet.applyTrailer(4, 15604, 8524, 6, 6);
        assertEquals(4, ethernet.advertisedDgramPackets(), "min(our ifMTU, its) is 1444");
    }

    @Test
    void anRx4jPeerOrOneWithoutJumbogramsIsAdvertisedTheRoutesLimit() {
        Peer rx4j = peer(8972, 6);
        rx4j.applyTrailer(4, 8972, 8972, 6, 6);
        assertEquals(6, rx4j.advertisedDgramPackets(), "maxMTU = ifMTU: it sends large packets anyway");
        Peer noJumbo = peer(8972, 6);
        noJumbo.applyTrailer(4, 8524, 8524, 1, 6);
        assertEquals(6, noJumbo.advertisedDgramPackets());
        Peer old = peer(8972, 6);
        old.applyTrailer(3, 15604, 8524, 0, 6);
        assertEquals(6, old.advertisedDgramPackets(), "a 3-word trailer says nothing about jumbograms");
    }
}
