// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.wire.RxConstants;

/** {@link RxEndpoint#largestPacketTo}: the route, the receive buffer and maxMtu decide it (docs/engine.md "Packet size"). */
class LargestPacketToTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 7000);

    /** @return what loopback (MTU 65,536) gives with this endpoint's granted receive buffer and 32-packet windows */
    private static int loopbackSize(RxEndpoint e) {
        long buffer = e.stats().get("socket.receiveBufferBytes");
        return (int) Math.min(RxConstants.MAX_UDP_PAYLOAD_IPV4,
                Math.max(RxConstants.REMOTE_PACKET_SIZE, buffer / RxConfig.defaults().windows().maxRwind()));
    }

    @Test
    void loopbackCarriesTheLargestUdpPayloadUnlessTheReceiveBufferIsSmaller() throws Exception {
        try (RxEndpoint e = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            assertEquals(loopbackSize(e), e.largestPacketTo(LOOPBACK));
        }
    }

    @Test
    void maxMtuAndAFixedIfMtuCapIt() throws Exception {
        RxConfig capped = RxConfig.builder().maxMtu(9000).build();
        try (RxEndpoint e = RxEndpoint.builder().config(capped).bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            assertEquals(Math.min(9000, loopbackSize(e)), e.largestPacketTo(LOOPBACK), "maxMtu caps the route's");
        }
        RxConfig fixed = RxConfig.builder().ifMtu(1444).build();
        try (RxEndpoint e = RxEndpoint.builder().config(fixed).bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            assertEquals(1444, e.largestPacketTo(LOOPBACK), "a fixed ifMtu wins over the route");
        }
    }
}
