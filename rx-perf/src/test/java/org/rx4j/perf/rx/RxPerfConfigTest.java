// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.rx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rx4j.config.DebugReplies;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.perf.transport.PerfEndpointOptions;

/**
 * rxperf's {@code -m} as the engine sees it (docs/rxperf.md, docs/engine.md "Packet size"): above 1444 it also sets
 * the interface MTU, so two rx4j peers may use packets that large; at or below it, nothing about packet size changes.
 */
class RxPerfConfigTest {
    private static RxConfig withMtu(int maxMtu) {
        PerfEndpointOptions d = PerfEndpointOptions.defaults();
        return RxPerfTransportFactory.config(new PerfEndpointOptions(d.twind(), d.rwind(), d.jumbo(), d.jumboMax(),
                maxMtu, d.udpBufferBytes(), d.minPeerTimeoutMs(), d.hardAcksOnly(), TransportKind.NIO, d.minProcs(),
                d.maxProcs(), d.statistics()));
    }

    @Test
    void mCapsThePacketSizeTheRouteAllows() {
        RxConfig c = withMtu(9000);
        assertEquals(9000, c.packetSize().maxMtu());
        assertEquals(0, c.packetSize().ifMtu(), "the route to each peer decides the interface MTU");
        assertEquals(9000, c.packetSize().largestPacket(65507), "loopback: -m caps it");
        assertEquals(1444, c.packetSize().largestPacket(1444), "an Ethernet route: no fragments");
        assertEquals(1412, c.packetSize().packetDataSize(), "the first packets to a peer keep the default size");
    }

    @Test
    void withoutMTheRouteDecides() {
        assertEquals(65507, withMtu(0).packetSize().largestPacket(65507), "loopback: the largest UDP payload");
        assertEquals(1444, withMtu(1444).packetSize().largestPacket(65507));
        assertEquals(1000, withMtu(1000).packetSize().largestPacket(65507));
        assertEquals(65535, withMtu(65535).packetSize().maxMtu(), "-m grows to the UDP length limit");
    }

    /** {@code --no-gro} reaches the library as {@code receiveOffload(false)}; GSO stays on. */
    @Test
    void noGroTurnsTheLibrarysReceiveOffloadOff() {
        PerfEndpointOptions d = PerfEndpointOptions.defaults();
        assertTrue(RxPerfTransportFactory.config(d).socketBuffers().receiveOffload(), "the default");
        RxConfig c = RxPerfTransportFactory.config(new PerfEndpointOptions(d.twind(), d.rwind(), d.jumbo(),
                d.jumboMax(), d.maxMtu(), d.udpBufferBytes(), d.minPeerTimeoutMs(), d.hardAcksOnly(), d.transport(),
                d.minProcs(), d.maxProcs(), d.statistics(), d.congestionControl(), d.debugReplies(),
                d.segmentationOffload(), d.fragmentJumbograms(), d.idleSpinUs(), d.schedulerSliceUs(), false));
        assertFalse(c.socketBuffers().receiveOffload());
        assertTrue(c.socketBuffers().segmentationOffload());
    }

    private static RxConfig withDebugReplies(String word) {
        PerfEndpointOptions d = PerfEndpointOptions.defaults();
        return RxPerfTransportFactory.config(new PerfEndpointOptions(d.twind(), d.rwind(), d.jumbo(), d.jumboMax(),
                d.maxMtu(), d.udpBufferBytes(), d.minPeerTimeoutMs(), d.hardAcksOnly(), TransportKind.NIO,
                d.minProcs(), d.maxProcs(), d.statistics(), d.congestionControl(), word));
    }

    /**
     * {@code --debug-replies}: rxdebug from another host needs "always" (docs/robustness.md, Rule: unsolicited
     * traffic, loops and amplification).
     */
    @Test
    void debugRepliesWordsMapToTheLibraryPolicies() {
        assertEquals(DebugReplies.ALWAYS, withDebugReplies("always").debugQueries().debugReplies());
        assertEquals(DebugReplies.LOOPBACK_OR_NO_AMPLIFICATION,
                withDebugReplies("loopback").debugQueries().debugReplies());
        assertEquals(DebugReplies.NO_AMPLIFICATION, withDebugReplies("no-amplification").debugQueries().debugReplies());
        assertEquals(DebugReplies.NEVER, withDebugReplies("never").debugQueries().debugReplies());
        assertEquals(DebugReplies.LOOPBACK_OR_NO_AMPLIFICATION,
                RxPerfTransportFactory.config(PerfEndpointOptions.defaults()).debugQueries().debugReplies(),
                "the default");
    }
}
