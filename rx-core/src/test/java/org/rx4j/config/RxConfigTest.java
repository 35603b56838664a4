package org.rx4j.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** RxConfig keeps OpenAFS's defaults and refuses every out-of-range setting however it is made. */
class RxConfigTest {
    @Test
    void aLargeMtuPathAllowsLargePacketsUpToRxsLimit() {
        RxConfig c = RxConfig.builder().maxMtu(9000).ifMtu(9000).build();
        assertEquals(9000, c.largestPacket());
        assertEquals(9000, RxConfig.builder().maxMtu(9000).ifMtu(9000).jumboMax(1).build().advertisedMaxMtu());
        assertEquals(1412, c.packetDataSize(), "the first packets to a peer keep the default size");
        assertEquals(16384, RxConfig.builder().maxMtu(20000).ifMtu(20000).build().largestPacket(),
                "Rx packets are at most 16 KiB");
    }

    @Test
    void defaultsAreOpenAfsValues() {
        RxConfig c = RxConfig.defaults();
        assertEquals(32, c.maxTwind());
        assertEquals(32, c.maxRwind());
        assertEquals(4, c.jumboMax());
        assertEquals(1444, c.ifMtu());
        assertEquals(1412, c.packetDataSize());
        assertEquals(5692, c.advertisedMaxMtu());
        assertEquals(1444, c.largestPacket(), "no packets above 1444 bytes unless ifMtu says the path is wider");
        assertEquals(Duration.ofMillis(100).toNanos(), c.softAckDelayNs());
        assertEquals(Duration.ofMillis(400).toNanos(), c.lastAckDelayNs());
        assertEquals(Duration.ofMillis(20).toNanos(), c.minRtoNs());
        assertEquals(Duration.ofSeconds(12).toNanos(), c.deadTimeNs());
        assertEquals(0, c.clientIdleDeadTimeNs());
        assertEquals(Duration.ofSeconds(60).toNanos(), c.serverIdleDeadTimeNs());
        assertTrue(c.checkReach());
        assertEquals(CongestionControl.NEWRENO, c.congestionControl());
        assertEquals(64 * 1024, RxConfig.builder().maxWindow(1).build().effectiveUdpBufferBytes());
    }

    /**
     * docs/robustness.md "Flood": without udpBufferBytes the receive buffer asked for is at least 4 MiB; with it,
     * exactly it.
     */
    @Test
    void theReceiveBufferIsAtLeastFourMebibytesUnlessSet() {
        RxConfig d = RxConfig.defaults();
        assertEquals(4 * 1024 * 1024, d.effectiveReceiveBufferBytes());
        assertTrue(d.effectiveUdpBufferBytes() < d.effectiveReceiveBufferBytes(), "the send buffer stays window-sized");
        RxConfig wide = RxConfig.builder().maxWindow(255).jumboMax(46).ifMtu(16384).build();
        assertEquals(wide.effectiveUdpBufferBytes(), wide.effectiveReceiveBufferBytes(),
                "windows needing more than 4 MiB get what they need");
        assertTrue(wide.effectiveReceiveBufferBytes() > 4 * 1024 * 1024);
        RxConfig set = RxConfig.builder().udpBufferBytes(65536).build();
        assertEquals(65536, set.effectiveReceiveBufferBytes());
        assertEquals(65536, set.effectiveUdpBufferBytes());
    }

    @Test
    void toBuilderRoundTripsEverySetting() {
        RxConfig c = RxConfig.builder().maxTwind(200).maxRwind(100).jumboMax(1).hardAckOnly(true)
                .deadTime(Duration.ofSeconds(3)).versionString("x").congestionControl(CongestionControl.FIXED_WINDOW)
                .build();
        assertEquals(c, c.toBuilder().build());
        assertEquals(7, c.toBuilder().initialCwnd(7).build().initialCwnd());
    }

    @Test
    void outOfRangeSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().maxTwind(0).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().maxRwind(256).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().jumboMax(47).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().maxMtu(519).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().initialSsthresh(1).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().minRto(Duration.ofMillis(-1)).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().deadTime(Duration.ZERO).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().maxPendingCalls(-1).build());
        assertThrows(NullPointerException.class, () -> RxConfig.builder().congestionControl(null).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().nackThreshold(0).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().ackRate(0).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().ackRate(256).build());
        assertEquals(8, RxConfig.defaults().ackRate());
        assertEquals(2, RxConfig.builder().ackRate(2).build().toBuilder().build().ackRate());
        assertEquals(3, RxConfig.defaults().nackThreshold());
        assertEquals(5, RxConfig.builder().nackThreshold(5).build().toBuilder().build().nackThreshold());
        RxConfig d = RxConfig.defaults();
        assertThrows(IllegalArgumentException.class, () -> new RxConfig(0, d.maxRwind(), d.jumboMax(), d.maxMtu(),
                d.ifMtu(), d.hardAckOnly(), d.hardAckInterval(), d.softAckRate(), d.hardAckRate(), d.softAckDelayNs(),
                d.hardAckDelayNs(), d.lastAckDelayNs(), d.initialRttNs(), d.minRtoNs(), d.rtoSlackNs(), d.maxRtoNs(),
                d.initialCwnd(), d.initialSsthresh(), d.deadTimeNs(), d.clientIdleDeadTimeNs(),
                d.serverIdleDeadTimeNs(), d.hardDeadTimeNs(), d.checkReach(), d.reachTtlNs(), d.reachRetryNs(),
                d.maxConnections(), d.maxPendingCalls(), d.maxConnectionsPerPeer(), d.maxUnprovenConnections(),
                d.maxPeers(), d.maxHeldPackets(), d.idleConnectionTimeNs(), d.idlePeerTimeNs(), d.reapIntervalNs(),
                d.versionString(), d.udpBufferBytes(), d.congestionControl(), d.nackThreshold(),
                d.ackRate(), d.debugReplies()));
        assertThrows(NullPointerException.class, () -> RxConfig.builder().debugReplies(null).build());
        assertEquals(DebugReplies.LOOPBACK_OR_NO_AMPLIFICATION, RxConfig.defaults().debugReplies());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().maxConnectionsPerPeer(0).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().maxUnprovenConnections(0).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().maxPeers(0).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().maxHeldPackets(0).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().reapInterval(Duration.ZERO).build());
        assertThrows(IllegalArgumentException.class,
                () -> RxConfig.builder().idleConnectionTime(Duration.ZERO).build());
        assertThrows(IllegalArgumentException.class, () -> RxConfig.builder().idlePeerTime(Duration.ZERO).build());
    }
}
