// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * RxConfig keeps OpenAFS's defaults, refuses every out-of-range setting however it is made, naming it, and every
 * builder setter lands in its own group record's component and nowhere else.
 */
class RxConfigTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    /** One builder setter, the non-default value it is given, and the one component it must change. */
    private record SetterCase(String setter, UnaryOperator<RxConfig.Builder> apply, String component, Object value) {
    }

    /** Every builder setter that sets one component, each with a valid non-default value. */
    private static final List<SetterCase> SETTERS = List.of(
            new SetterCase("maxTwind", b -> b.maxTwind(200), "windows().maxTwind()", 200),
            new SetterCase("maxRwind", b -> b.maxRwind(100), "windows().maxRwind()", 100),
            new SetterCase("jumboMax", b -> b.jumboMax(1), "packetSize().jumboMax()", 1),
            new SetterCase("maxMtu", b -> b.maxMtu(9000), "packetSize().maxMtu()", 9000),
            new SetterCase("ifMtu", b -> b.ifMtu(9000), "packetSize().ifMtu()", 9000),
            new SetterCase("fragmentJumbograms", b -> b.fragmentJumbograms(true),
                    "packetSize().fragmentJumbograms()", true),
            new SetterCase("hardAckOnly", b -> b.hardAckOnly(true), "ackPolicy().hardAckOnly()", true),
            new SetterCase("hardAckInterval", b -> b.hardAckInterval(4), "ackPolicy().hardAckInterval()", 4),
            new SetterCase("softAckRate", b -> b.softAckRate(3), "ackPolicy().softAckRate()", 3),
            new SetterCase("hardAckRate", b -> b.hardAckRate(5), "ackPolicy().hardAckRate()", 5),
            new SetterCase("ackRate", b -> b.ackRate(2), "ackPolicy().ackRate()", 2),
            new SetterCase("softAckDelay", b -> b.softAckDelay(Duration.ofMillis(7)), "ackDelays().softAckDelayNs()",
                    7 * MS),
            new SetterCase("hardAckDelay", b -> b.hardAckDelay(Duration.ofMillis(8)), "ackDelays().hardAckDelayNs()",
                    8 * MS),
            new SetterCase("lastAckDelay", b -> b.lastAckDelay(Duration.ofMillis(9)), "ackDelays().lastAckDelayNs()",
                    9 * MS),
            new SetterCase("initialRtt", b -> b.initialRtt(Duration.ofSeconds(1)), "rto().initialRttNs()", S),
            new SetterCase("minRto", b -> b.minRto(Duration.ofMillis(5)), "rto().minRtoNs()", 5 * MS),
            new SetterCase("rtoSlack", b -> b.rtoSlack(Duration.ofMillis(10)), "rto().rtoSlackNs()", 10 * MS),
            new SetterCase("maxRto", b -> b.maxRto(Duration.ofSeconds(30)), "rto().maxRtoNs()", 30 * S),
            new SetterCase("congestionControl", b -> b.congestionControl(CongestionControl.BBR),
                    "congestion().congestionControl()", CongestionControl.BBR),
            new SetterCase("initialCwnd", b -> b.initialCwnd(7), "congestion().initialCwnd()", 7),
            new SetterCase("initialSsthresh", b -> b.initialSsthresh(20), "congestion().initialSsthresh()", 20),
            new SetterCase("nackThreshold", b -> b.nackThreshold(5), "congestion().nackThreshold()", 5),
            new SetterCase("deadTime", b -> b.deadTime(Duration.ofSeconds(3)), "timeouts().deadTimeNs()", 3 * S),
            new SetterCase("clientIdleDeadTime", b -> b.clientIdleDeadTime(Duration.ofSeconds(4)),
                    "timeouts().clientIdleDeadTimeNs()", 4 * S),
            new SetterCase("serverIdleDeadTime", b -> b.serverIdleDeadTime(Duration.ofSeconds(5)),
                    "timeouts().serverIdleDeadTimeNs()", 5 * S),
            new SetterCase("hardDeadTime", b -> b.hardDeadTime(Duration.ofSeconds(6)), "timeouts().hardDeadTimeNs()",
                    6 * S),
            new SetterCase("checkReach", b -> b.checkReach(false), "reachability().checkReach()", false),
            new SetterCase("maxConnections", b -> b.maxConnections(10), "limits().maxConnections()", 10),
            new SetterCase("maxPendingCalls", b -> b.maxPendingCalls(11), "limits().maxPendingCalls()", 11),
            new SetterCase("maxConnectionsPerPeer", b -> b.maxConnectionsPerPeer(12),
                    "limits().maxConnectionsPerPeer()", 12),
            new SetterCase("maxUnprovenConnections", b -> b.maxUnprovenConnections(13),
                    "limits().maxUnprovenConnections()", 13),
            new SetterCase("maxPeers", b -> b.maxPeers(14), "limits().maxPeers()", 14),
            new SetterCase("maxHeldPackets", b -> b.maxHeldPackets(15), "limits().maxHeldPackets()", 15),
            new SetterCase("maxHeldBytes", b -> b.maxHeldBytes(1_500_001), "limits().maxHeldBytes()", 1_500_001L),
            new SetterCase("maxHeldBytesPerPeer", b -> b.maxHeldBytesPerPeer(1_500_002),
                    "limits().maxHeldBytesPerPeer()", 1_500_002L),
            new SetterCase("idleConnectionTime", b -> b.idleConnectionTime(Duration.ofSeconds(16)),
                    "reaping().idleConnectionTimeNs()", 16 * S),
            new SetterCase("idlePeerTime", b -> b.idlePeerTime(Duration.ofSeconds(17)), "reaping().idlePeerTimeNs()",
                    17 * S),
            new SetterCase("reapInterval", b -> b.reapInterval(Duration.ofSeconds(18)), "reaping().reapIntervalNs()",
                    18 * S),
            new SetterCase("versionString", b -> b.versionString("x"), "debugQueries().versionString()", "x"),
            new SetterCase("debugReplies", b -> b.debugReplies(DebugReplies.NEVER), "debugQueries().debugReplies()",
                    DebugReplies.NEVER),
            new SetterCase("udpBufferBytes", b -> b.udpBufferBytes(65536), "socketBuffers().udpBufferBytes()",
                    65536),
            new SetterCase("segmentationOffload", b -> b.segmentationOffload(false),
                    "socketBuffers().segmentationOffload()", false),
            new SetterCase("receiveOffload", b -> b.receiveOffload(false), "socketBuffers().receiveOffload()", false),
            new SetterCase("idleSpinNs", b -> b.idleSpinNs(150_000), "socketBuffers().idleSpinNs()", 150_000L),
            new SetterCase("schedulerSliceNs", b -> b.schedulerSliceNs(250_000), "socketBuffers().schedulerSliceNs()",
                    250_000L));

    /** @return "group().component()" → value, for every setting of c, in declaration order */
    private static Map<String, Object> settings(RxConfig c) throws ReflectiveOperationException {
        Map<String, Object> out = new LinkedHashMap<>();
        for (RecordComponent group : RxConfig.class.getRecordComponents()) {
            Object values = group.getAccessor().invoke(c);
            for (RecordComponent s : group.getType().getRecordComponents()) {
                out.put(group.getName() + "()." + s.getName() + "()", s.getAccessor().invoke(values));
            }
        }
        return out;
    }

    /** @return the settings of {@code changed} that differ from the defaults, with their new values */
    private static Map<String, Object> changes(RxConfig changed) throws ReflectiveOperationException {
        return changesFrom(RxConfig.defaults(), changed);
    }

    /** @return the settings of {@code to} that differ from those of {@code from}, with their new values */
    private static Map<String, Object> changesFrom(RxConfig from, RxConfig to) throws ReflectiveOperationException {
        Map<String, Object> base = settings(from);
        Map<String, Object> out = new LinkedHashMap<>();
        settings(to).forEach((k, v) -> {
            if (!v.equals(base.get(k))) {
                out.put(k, v);
            }
        });
        return out;
    }

    @Test
    void everySetterLandsInItsOwnComponentAndNowhereElse() throws ReflectiveOperationException {
        for (SetterCase c : SETTERS) {
            assertEquals(Map.of(c.component(), c.value()), changes(c.apply().apply(RxConfig.builder()).build()),
                    c.setter());
        }
        assertEquals(Map.of("windows().maxTwind()", 64, "windows().maxRwind()", 64),
                changes(RxConfig.builder().maxWindow(64).build()), "maxWindow sets both windows");
        Set<String> builderSetters = Arrays.stream(RxConfig.Builder.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && m.getReturnType() == RxConfig.Builder.class)
                .map(Method::getName).collect(Collectors.toCollection(TreeSet::new));
        Set<String> tested = SETTERS.stream().map(SetterCase::setter).collect(Collectors.toCollection(TreeSet::new));
        tested.add("maxWindow");
        assertEquals(builderSetters, tested, "every builder setter is in the table above");
        Set<String> untouched = new TreeSet<>(settings(RxConfig.defaults()).keySet());
        SETTERS.forEach(c -> untouched.remove(c.component()));
        assertEquals(Set.of("reachability().reachRetryNs()", "reachability().reachTtlNs()"), untouched,
                "only the reachability times are set through their record alone");
    }

    @Test
    void defaultsAreOpenAfsValues() {
        RxConfig c = RxConfig.defaults();
        assertEquals(new Windows(32, 32), c.windows());
        assertEquals(new PacketSize(6, 65535, 0, false), c.packetSize());
        assertEquals(new AckPolicy(false, 8, 1, 2, 8), c.ackPolicy());
        assertEquals(new AckDelays(100 * MS, 100 * MS, 400 * MS), c.ackDelays());
        assertEquals(new RetransmitTimeout(3 * S, 20 * MS, 200 * MS, 60 * S), c.rto());
        assertEquals(new Congestion(CongestionControl.NEWRENO, 4, 255, 3), c.congestion());
        assertEquals(new CallTimeouts(12 * S, 0, 60 * S, 0), c.timeouts());
        assertEquals(new Reachability(true, 60 * S, 2 * S), c.reachability());
        assertEquals(new Limits(100_000, 1024, 16_384, 2_048, 65_536, 4_096, 8L << 20, 1L << 20), c.limits());
        assertEquals(new Limits(100_000, 1024, 16_384, 2_048, 65_536, 4_096), c.limits(), "the six-setting form");
        assertEquals(new Reaping(700 * S, 60 * S, 60 * S), c.reaping());
        assertEquals(new DebugQueries("rx4j", DebugReplies.LOOPBACK_OR_NO_AMPLIFICATION), c.debugQueries());
        assertEquals(new SocketBuffers(0), c.socketBuffers());
        assertEquals(c, RxConfig.builder().build(), "the builder starts from the defaults");
        assertEquals(1412, c.packetSize().packetDataSize());
        assertEquals(5692, c.packetSize().advertisedMaxMtu(1444), "OpenAFS's advertisement on an Ethernet route");
        assertEquals(1444, c.packetSize().largestPacket(PacketSize.fromRoute(1500, false)),
                "no packets above 1444 bytes on an Ethernet route");
        assertEquals(65507, c.packetSize().largestPacket(PacketSize.fromRoute(65536, false)),
                "loopback over IPv4: the largest UDP payload");
        assertEquals(65507, c.packetSize().advertisedMaxMtu(65507), "a wide route advertises what it accepts");
        assertEquals(64 * 1024, RxConfig.builder().maxWindow(1).ifMtu(1444).build().effectiveUdpBufferBytes());
    }

    @Test
    void aLargeMtuPathAllowsLargePacketsUpToRxsLimit() {
        PacketSize p = RxConfig.builder().maxMtu(9000).ifMtu(9000).build().packetSize();
        assertEquals(9000, p.largestPacket(p.localIfMtu(65507)), "a fixed ifMtu wins over the route");
        assertEquals(9000, new PacketSize(1, 9000, 9000).advertisedMaxMtu(9000));
        assertEquals(1412, p.packetDataSize(), "the first packets to a peer keep the default size");
        assertEquals(20000, new PacketSize(4, 20000, 0).largestPacket(65507), "maxMtu caps the route's size");
        assertEquals(65507, new PacketSize(4, 65535, 0).largestPacket(65507), "no 16 KiB cap between rx4j peers");
    }

    /** rx-wire-facts.md §4, §5: jumbograms only as large as the route's interface carries, unless asked. */
    @Test
    void jumbogramsFitTheRouteUnlessFragmentsAreAsked() {
        assertEquals(1, PacketSize.jumbogramsFitting(1500, false), "Ethernet: a 2-packet jumbogram is 2856 bytes");
        assertEquals(6, PacketSize.jumbogramsFitting(9000, false), "28 + 1412 + 5 * 1416 = 8520 <= 8972");
        assertEquals(46, PacketSize.jumbogramsFitting(65536, false), "loopback");
        assertEquals(0, PacketSize.jumbogramsFitting(0, false), "unknown route");
        PacketSize d = PacketSize.DEFAULTS;
        assertEquals(1, d.jumboLimit(1));
        assertEquals(6, d.jumboLimit(6), "a 9,000-byte route: six, as OpenAFS advertises there");
        assertEquals(6, d.jumboLimit(46), "loopback: at most jumboMax");
        assertEquals(4, d.jumboLimit(0), "unknown route: OpenAFS's habit");
        assertEquals(1444, d.advertisedMaxMtu(1444, d.jumboLimit(1)), "invite no fragmented jumbograms on Ethernet");
        assertEquals(5692, d.advertisedMaxMtu(1444, d.jumboLimit(0)), "OpenAFS's advertisement on an unknown route");
        assertEquals(5692, d.advertisedMaxMtu(1444), "the same");
        PacketSize openAfs = RxConfig.builder().fragmentJumbograms(true).build().packetSize();
        assertEquals(4, openAfs.jumboLimit(1), "asked for: jumbograms fragmented as OpenAFS sends them");
        assertEquals(5692, openAfs.advertisedMaxMtu(1444, openAfs.jumboLimit(1)));
        assertEquals(6, openAfs.jumboLimit(6), "a 9,000-byte route: six, whole");
        assertEquals(4, openAfs.jumboLimit(0));
        PacketSize wide = RxConfig.builder().jumboMax(46).build().packetSize();
        assertEquals(46, wide.jumboLimit(46), "an explicit jumboMax where the route carries it");
        assertEquals(4, wide.jumboLimit(0), "but not on a route the transport cannot see");
        assertEquals(6, wide.jumboLimit(6));
    }

    /** rx-wire-facts.md §5: a route's interface MTU less the IP and UDP headers, Ethernet and unknown as OpenAFS's 1444. */
    @Test
    void theRouteDecidesThePacketSize() {
        assertEquals(1444, PacketSize.fromRoute(0, false), "unknown route (behind a router)");
        assertEquals(1444, PacketSize.fromRoute(1500, false), "Ethernet keeps OpenAFS's size and jumbograms");
        assertEquals(1444, PacketSize.fromRoute(1280, true));
        assertEquals(8972, PacketSize.fromRoute(9000, false), "jumbo frames, IPv4: 9000 - 28");
        assertEquals(8952, PacketSize.fromRoute(9000, true), "jumbo frames, IPv6: 9000 - 48");
        assertEquals(65507, PacketSize.fromRoute(65536, false), "loopback, IPv4: the largest UDP payload");
        assertEquals(65488, PacketSize.fromRoute(65536, true), "loopback, IPv6: 65536 - 48");
        assertEquals(9000, new PacketSize(4, 65535, 9000).localIfMtu(65507), "a fixed ifMtu wins");
        assertEquals(65507, new PacketSize(4, 65535, 0).localIfMtu(65507));
    }

    /** docs/robustness.md "Flood": without udpBufferBytes the receive buffer is at least 4 MiB; with it, exactly it. */
    @Test
    void theReceiveBufferIsAtLeastFourMebibytesUnlessSet() {
        RxConfig d = RxConfig.defaults();
        assertEquals(4 * 1024 * 1024, d.effectiveReceiveBufferBytes());
        assertTrue(d.effectiveUdpBufferBytes() <= d.effectiveReceiveBufferBytes(), "the send buffer stays window-sized");
        RxConfig wide = RxConfig.builder().maxWindow(255).jumboMax(46).ifMtu(16384).build();
        assertEquals(wide.effectiveUdpBufferBytes(), wide.effectiveReceiveBufferBytes(),
                "windows needing more than 4 MiB get what they need");
        assertTrue(wide.effectiveReceiveBufferBytes() > 4 * 1024 * 1024);
        RxConfig set = RxConfig.builder().udpBufferBytes(65536).build();
        assertEquals(65536, set.effectiveReceiveBufferBytes());
        assertEquals(65536, set.effectiveUdpBufferBytes());
    }

    @Test
    void toBuilderRoundTripsEverySetting() throws ReflectiveOperationException {
        RxConfig.Builder b = RxConfig.builder();
        SETTERS.forEach(c -> c.apply().apply(b));
        RxConfig all = b.build();
        assertEquals(SETTERS.size(), changes(all).size(), "every setter changed its setting");
        assertEquals(all, all.toBuilder().build());
        assertEquals(settings(all), settings(all.toBuilder().build()));
        assertEquals(RxConfig.defaults(), RxConfig.defaults().toBuilder().build());
        assertEquals(Map.of("congestion().initialCwnd()", 9), changesFrom(all, all.toBuilder().initialCwnd(9).build()),
                "a builder from a configuration changes only what is set");
    }

    /**
     * A setting is written once: RxConfig.Builder's setters name the one setting they change (through the group's
     * draft) and never rebuild a group positionally, where two swapped ints of a group would compile.
     */
    @Test
    void builderSettersNeverRebuildAGroupPositionally() throws java.io.IOException {
        String src = java.nio.file.Files.readString(
                java.nio.file.Path.of("src/main/java/org/rx4j/config/RxConfig.java"));
        String builder = src.substring(src.indexOf("public static final class Builder"));
        for (RecordComponent group : RxConfig.class.getRecordComponents()) {
            String type = group.getType().getSimpleName();
            assertTrue(!builder.contains("new " + type + "("), "RxConfig.Builder rebuilds " + type + " positionally");
        }
    }

    private static void refused(String message, Executable e) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, e).getMessage());
    }

    @Test
    void outOfRangeSettingsAreRefusedByName() {
        RxConfig.Builder b = RxConfig.builder();
        refused("maxTwind must be 1..255: 0", () -> b.maxTwind(0));
        refused("maxRwind must be 1..255: 256", () -> b.maxRwind(256));
        refused("maxTwind must be 1..255: 256", () -> b.maxWindow(256));
        refused("jumboMax must be 1..46: 47", () -> b.jumboMax(47));
        refused("maxMtu must be 520..65535: 519", () -> b.maxMtu(519));
        refused("ifMtu must be 520..65535: 65536", () -> b.ifMtu(65536));
        refused("hardAckInterval must be 1..255: 0", () -> b.hardAckInterval(0));
        refused("softAckRate must be 0..255: -1", () -> b.softAckRate(-1));
        refused("hardAckRate must be 0..255: 256", () -> b.hardAckRate(256));
        refused("ackRate must be 1..255: 0", () -> b.ackRate(0));
        refused("ackRate must be 1..255: 256", () -> b.ackRate(256));
        refused("softAckDelay must not be negative: -1 ns", () -> b.softAckDelay(Duration.ofNanos(-1)));
        refused("hardAckDelay must not be negative: -1 ns", () -> b.hardAckDelay(Duration.ofNanos(-1)));
        refused("lastAckDelay must not be negative: -1 ns", () -> b.lastAckDelay(Duration.ofNanos(-1)));
        refused("initialRtt must not be negative: -1 ns", () -> b.initialRtt(Duration.ofNanos(-1)));
        refused("minRto must not be negative: -1000000 ns", () -> b.minRto(Duration.ofMillis(-1)));
        refused("rtoSlack must not be negative: -1 ns", () -> b.rtoSlack(Duration.ofNanos(-1)));
        refused("maxRto must not be negative: -1 ns", () -> b.maxRto(Duration.ofNanos(-1)));
        refused("initialCwnd must be 1..255: 0", () -> b.initialCwnd(0));
        refused("initialSsthresh must be 2..255: 1", () -> b.initialSsthresh(1));
        refused("nackThreshold must be 1..255: 0", () -> b.nackThreshold(0));
        refused("deadTime must be > 0: 0 ns", () -> b.deadTime(Duration.ZERO));
        refused("clientIdleDeadTime must not be negative: -1 ns", () -> b.clientIdleDeadTime(Duration.ofNanos(-1)));
        refused("serverIdleDeadTime must not be negative: -1 ns", () -> b.serverIdleDeadTime(Duration.ofNanos(-1)));
        refused("hardDeadTime must not be negative: -1 ns", () -> b.hardDeadTime(Duration.ofNanos(-1)));
        refused("reachTtl must be > 0: 0 ns", () -> new Reachability(true, 0, S));
        refused("reachRetry must be > 0: 0 ns", () -> new Reachability(true, S, 0));
        refused("maxConnections must be 1..2147483647: 0", () -> b.maxConnections(0));
        refused("maxPendingCalls must be 0..2147483647: -1", () -> b.maxPendingCalls(-1));
        refused("maxConnectionsPerPeer must be 1..2147483647: 0", () -> b.maxConnectionsPerPeer(0));
        refused("maxUnprovenConnections must be 1..2147483647: 0", () -> b.maxUnprovenConnections(0));
        refused("schedulerSliceNs must be 0 or 100000..100000000 ns: 99999 ns", () -> b.schedulerSliceNs(99_999));
        refused("schedulerSliceNs must be 0 or 100000..100000000 ns: 100000001 ns",
                () -> b.schedulerSliceNs(100_000_001));
        assertEquals(100_000L, b.schedulerSliceNs(100_000).build().socketBuffers().schedulerSliceNs());
        assertEquals(0L, b.schedulerSliceNs(0).build().socketBuffers().schedulerSliceNs(), "0: the kernel's slice");
        refused("maxPeers must be 1..2147483647: 0", () -> b.maxPeers(0));
        refused("maxHeldPackets must be 1..2147483647: 0", () -> b.maxHeldPackets(0));
        refused("maxHeldBytes must be >= 1444: 1443", () -> b.maxHeldBytes(1_443));
        refused("maxHeldBytesPerPeer must be >= 1444: 0", () -> b.maxHeldBytesPerPeer(0));
        refused("idleConnectionTime must be > 0: 0 ns", () -> b.idleConnectionTime(Duration.ZERO));
        refused("idlePeerTime must be > 0: 0 ns", () -> b.idlePeerTime(Duration.ZERO));
        refused("reapInterval must be > 0: 0 ns", () -> b.reapInterval(Duration.ZERO));
        refused("udpBufferBytes must be 0..2147483647: -1", () -> b.udpBufferBytes(-1));
        assertEquals("congestionControl",
                assertThrows(NullPointerException.class, () -> b.congestionControl(null)).getMessage());
        assertEquals("debugReplies", assertThrows(NullPointerException.class, () -> b.debugReplies(null)).getMessage());
        assertEquals(RxConfig.defaults(), b.build(), "a refused value leaves the builder as it was");
        RxConfig d = RxConfig.defaults();
        assertEquals("limits", assertThrows(NullPointerException.class, () -> new RxConfig(d.windows(),
                d.packetSize(), d.ackPolicy(), d.ackDelays(), d.rto(), d.congestion(), d.timeouts(), d.reachability(),
                null, d.reaping(), d.debugQueries(), d.socketBuffers())).getMessage());
    }
}
