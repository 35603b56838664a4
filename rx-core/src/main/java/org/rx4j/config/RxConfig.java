package org.rx4j.config;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.rx4j.wire.RxConstants;

/**
 * Every tunable of an rx4j endpoint, immutable; build with {@link #builder()}. Names and defaults follow OpenAFS 1.8
 * where OpenAFS has the knob (rx-wire-facts.md §5, §8); rxperf's flags map 1:1. Times are nanoseconds, windows are
 * packets, sizes are bytes.
 *
 * <p>Each setting is written once as a record component; the canonical constructor is the one place that checks the
 * ranges, so a configuration out of range cannot exist (however it was made).
 *
 * @param maxTwind maximum transmit window (twind), packets, 1..255 (default 32, rx_maxSendWindow); the peer's rwind
 *     caps it further
 * @param maxRwind maximum receive window (rwind) advertised, packets, 1..255 (default 32, rx_maxReceiveWindow)
 * @param jumboMax most jumbogram sub-packets advertised and sent, 1..46 (default 4); 1 = no jumbograms (rxperf -j)
 * @param maxMtu largest Rx packet (header + data) this endpoint sends or accepts in one piece, bytes, 520..65535
 *     (default 16384; rxperf -m allows 520..16356)
 * @param ifMtu interface MTU less IP/UDP overhead advertised in the ACK trailer, bytes, 520..65535 (default 1444)
 * @param hardAckOnly true in hard-ACK-only mode: no soft (IDLE) acks on arrival (default false)
 * @param hardAckInterval in hard-ACK-only mode, consumed packets between hard acks, 1..255 (default 8)
 * @param softAckRate default mode: an IDLE ack after more than this many new packets, 0..255 (rxi_SoftAckRate 1)
 * @param hardAckRate default mode: an immediate DELAY ack after more than this many consumed packets, 0..255
 *     (rxi_HardAckRate 2)
 * @param softAckDelayNs delay before a soft ack is sent on its own, ns, &gt;= 0 (rx_softAckDelay 100 ms)
 * @param hardAckDelayNs delay before a hard ack is sent on its own, ns, &gt;= 0 (rx_hardAckDelay 100 ms)
 * @param lastAckDelayNs delay before a client acks the last reply packet, ns, &gt;= 0 (rx_lastAckDelay 400 ms)
 * @param initialRttNs RTT assumed before the first sample, ns, &gt;= 0 (OpenAFS: 3 s for remote and loopback peers)
 * @param minRtoNs floor of srtt + 4·rttvar, ns, &gt;= 0 (rx_minPeerTimeout 20 ms; rxperf -P)
 * @param rtoSlackNs slack added to every RTO for the peer's delayed ack, ns, &gt;= 0 (OpenAFS 200 ms)
 * @param maxRtoNs cap of the backed-off RTO, ns, &gt;= 0 (60 s)
 * @param initialCwnd congestion window of a new call, packets, 1..255 (default 4)
 * @param initialSsthresh initial slow-start threshold, packets, 2..255 (default 255)
 * @param deadTimeNs nothing heard for this long fails an active call with RX_CALL_DEAD, ns, &gt; 0 (12 s)
 * @param clientIdleDeadTimeNs idle dead time of client calls, ns, &gt;= 0; 0 = off (OpenAFS default)
 * @param serverIdleDeadTimeNs idle dead time of server calls, ns, &gt;= 0 (60 s); 0 = off
 * @param hardDeadTimeNs total call lifetime limit, ns, &gt;= 0; 0 = off (default)
 * @param checkReach true when a server PINGs a new peer before starting its first call (OpenAFS checkReach; default
 *     true)
 * @param reachTtlNs how long a reachability answer stays valid, ns (60 s)
 * @param reachRetryNs interval between reachability PINGs, ns (2 s)
 * @param maxConnections most server connections kept at once, &gt;= 1 (default 100,000); at the limit the oldest
 *     unproven connection (see {@code maxUnprovenConnections}) is evicted silently to make room, and when none is
 *     left the new connection's DATA is answered with ABORT RX_CALL_BUSY (−10) and nothing is kept (docs/robustness.md
 *     "Limits")
 * @param maxPendingCalls most client calls queued waiting for a free channel on one connection, &gt;= 0 (default 1024);
 *     beyond it {@code newCall} throws IllegalStateException
 * @param maxConnectionsPerPeer most server connections from one peer (host and port), &gt;= 1 (default 16,384: one
 *     client may open 10,000); at the limit that peer's oldest unproven connection is evicted, else the new one is
 *     refused with ABORT RX_CALL_BUSY (−10)
 * @param maxUnprovenConnections most server connections kept that never started a call (no request's packet 1
 *     from a peer proven reachable), &gt;= 1 (default 2,048); a new one beyond evicts the oldest unproven one
 *     silently (its held packets are released, nothing is sent), which bounds a connection flood
 * @param maxPeers most remote peers (host and port) known at once, &gt;= 1 (default 65,536); at the limit peers without
 *     connections are forgotten, and when all have some, a new peer's DATA is refused with ABORT RX_CALL_BUSY (−10)
 * @param maxHeldPackets most DATA packets held, endpoint-wide, by server calls not yet started (waiting for packet 1
 *     or the reachability answer), &gt;= 1 (default 4,096); beyond it the oldest such call is forgotten silently (a
 *     real client resends and is admitted again). Each call holds at most {@code maxRwind} packets.
 * @param idleConnectionTimeNs a server connection with no call running and no packet for this long is reaped, ns,
 *     &gt; 0 (default 700 s, OpenAFS's rx_idleConnectionTime)
 * @param idlePeerTimeNs a peer with no connection and no packet for this long is forgotten, ns, &gt; 0 (default 60 s,
 *     OpenAFS's rx_idlePeerTime)
 * @param reapIntervalNs interval between reaper passes over connections and peers, ns, &gt; 0 (default 60 s, OpenAFS's
 *     rxi_ReapConnections period)
 * @param versionString the string answered to VERSION requests (default "rx4j"; at most 64 ASCII bytes are sent)
 * @param udpBufferBytes UDP socket send and receive buffer requested, bytes, &gt;= 0; 0 = send sized from the windows,
 *     receive at least 4 MiB ({@link RxConfig#DEFAULT_MIN_RECEIVE_BUFFER}) (default)
 * @param congestionControl the congestion controller every call of this endpoint runs, not null (default
 *     {@link CongestionControl#NEWRENO})
 * @param nackThreshold the loss-detection policy: consecutive ACKs that report a hole (a NACK) before the sender
 *     retransmits it without waiting for the RTO (fast retransmit), 1..255 (default 3, OpenAFS's rx_nackThreshold;
 *     see rx-wire-facts.md §8 and RFC 5681 §3.2)
 * @param ackRate default mode: new packets, and consumed packets, the receiver lets pass within one burst of the
 *     sender before it acks them at once, 1..255 (default 8; OpenAFS acks every 2nd new and 3rd consumed packet,
 *     which any value &lt;= 2 reproduces). A datagram without MORE_PACKETS (the end of the sender's burst: it now
 *     waits for acks) is still acked at once after {@code softAckRate} new or {@code hardAckRate} consumed packets,
 *     and REQUEST_ACK, holes, duplicates and the delayed-ack timers are unchanged (docs/engine.md, "Receiver ACK
 *     policy"); at most half of {@code maxRwind} is used, so a window-limited sender always has acks coming
 * @param debugReplies which DEBUG and VERSION queries are answered, not null (default
 *     {@link DebugReplies#LOOPBACK_OR_NO_AMPLIFICATION}: no reply larger than its query, except to loopback
 *     addresses; docs/robustness.md rule 6)
 */
public record RxConfig(int maxTwind, int maxRwind, int jumboMax, int maxMtu, int ifMtu, boolean hardAckOnly,
                       int hardAckInterval, int softAckRate, int hardAckRate, long softAckDelayNs,
                       long hardAckDelayNs, long lastAckDelayNs, long initialRttNs, long minRtoNs, long rtoSlackNs,
                       long maxRtoNs, int initialCwnd, int initialSsthresh, long deadTimeNs,
                       long clientIdleDeadTimeNs, long serverIdleDeadTimeNs, long hardDeadTimeNs, boolean checkReach,
                       long reachTtlNs, long reachRetryNs, int maxConnections, int maxPendingCalls,
                       int maxConnectionsPerPeer, int maxUnprovenConnections, int maxPeers, int maxHeldPackets,
                       long idleConnectionTimeNs, long idlePeerTimeNs, long reapIntervalNs, String versionString, int udpBufferBytes, CongestionControl congestionControl,
                       int nackThreshold, int ackRate, DebugReplies debugReplies) {
    /**
     * Smallest UDP receive buffer requested when {@link #udpBufferBytes()} is 0, bytes (4 MiB): about 2,800 full
     * packets, 20 ms of datagrams at 200,000 a second (issue 12's flood). See {@link #effectiveReceiveBufferBytes()}.
     */
    public static final int DEFAULT_MIN_RECEIVE_BUFFER = 4 * 1024 * 1024;
    /** OpenAFS's default maximum send window (rx_maxSendWindow), packets. */
    public static final int DEFAULT_MAX_TWIND = 32;
    /** OpenAFS's default maximum receive window (rx_maxReceiveWindow), packets. */
    public static final int DEFAULT_MAX_RWIND = 32;
    /** OpenAFS's initial send and receive windows, packets. */
    public static final int INITIAL_WINDOW = 16;

    /**
     * Checks every range (the ranges are listed with the components above).
     *
     * @throws IllegalArgumentException naming the first setting out of range, or if deadTimeNs is 0
     * @throws NullPointerException if congestionControl or debugReplies is null
     */
    public RxConfig {
        range("maxTwind", maxTwind, 1, 255);
        range("maxRwind", maxRwind, 1, 255);
        range("jumboMax", jumboMax, 1, 46);
        range("maxMtu", maxMtu, 520, 65535);
        range("ifMtu", ifMtu, 520, 65535);
        range("hardAckInterval", hardAckInterval, 1, 255);
        range("softAckRate", softAckRate, 0, 255);
        range("hardAckRate", hardAckRate, 0, 255);
        nonNegative("softAckDelay", softAckDelayNs);
        nonNegative("hardAckDelay", hardAckDelayNs);
        nonNegative("lastAckDelay", lastAckDelayNs);
        nonNegative("initialRtt", initialRttNs);
        nonNegative("minRto", minRtoNs);
        nonNegative("rtoSlack", rtoSlackNs);
        nonNegative("maxRto", maxRtoNs);
        range("initialCwnd", initialCwnd, 1, 255);
        range("initialSsthresh", initialSsthresh, 2, 255);
        nonNegative("deadTime", deadTimeNs);
        nonNegative("clientIdleDeadTime", clientIdleDeadTimeNs);
        nonNegative("serverIdleDeadTime", serverIdleDeadTimeNs);
        nonNegative("hardDeadTime", hardDeadTimeNs);
        range("maxConnections", maxConnections, 1, Integer.MAX_VALUE);
        range("maxPendingCalls", maxPendingCalls, 0, Integer.MAX_VALUE);
        range("maxConnectionsPerPeer", maxConnectionsPerPeer, 1, Integer.MAX_VALUE);
        range("maxUnprovenConnections", maxUnprovenConnections, 1, Integer.MAX_VALUE);
        range("maxPeers", maxPeers, 1, Integer.MAX_VALUE);
        range("maxHeldPackets", maxHeldPackets, 1, Integer.MAX_VALUE);
        positive("idleConnectionTime", idleConnectionTimeNs);
        positive("idlePeerTime", idlePeerTimeNs);
        positive("reapInterval", reapIntervalNs);
        range("udpBufferBytes", udpBufferBytes, 0, Integer.MAX_VALUE);
        Objects.requireNonNull(congestionControl, "congestionControl");
        range("nackThreshold", nackThreshold, 1, 255);
        range("ackRate", ackRate, 1, 255);
        Objects.requireNonNull(debugReplies, "debugReplies");
        if (deadTimeNs <= 0) {
            throw new IllegalArgumentException("deadTime must be > 0");
        }
    }

    private static void range(String name, int v, int lo, int hi) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(name + " must be " + lo + ".." + hi + ": " + v);
        }
    }

    private static void positive(String name, long ns) {
        if (ns <= 0) {
            throw new IllegalArgumentException(name + " must be > 0: " + ns + " ns");
        }
    }

    private static void nonNegative(String name, long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + ns + " ns");
        }
    }

    /** @return a builder with OpenAFS's defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a configuration with every default */
    public static RxConfig defaults() {
        return builder().build();
    }

    /** @return a builder preset with this configuration's values */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** @return data bytes per DATA packet: 1412 with jumbograms, else min(maxMtu, ifMtu) - 28 */
    public int packetDataSize() {
        int mtu = Math.min(maxMtu, ifMtu);
        if (jumboMax > 1 && mtu >= 28 + 1412) {
            return 1412;
        }
        return mtu - 28;
    }

    /** @return maxMTU advertised in the ACK trailer: 1444 + (jumboMax-1)·1416 capped by maxMtu limits (5692 at 4) */
    public int advertisedMaxMtu() {
        if (jumboMax <= 1) {
            return Math.min(maxMtu, ifMtu);
        }
        return ifMtu + (jumboMax - 1) * 1416;
    }

    /**
     * Largest Rx packet (header + data) this endpoint sends in one piece to a peer that advertises room for it and
     * whose path a padded PING proved (docs/engine.md "Packet size"): min(maxMtu, ifMtu, 16384), 16384 being Rx's
     * largest packet (RX_MAX_PACKET_SIZE). Above {@link RxConstants#REMOTE_PACKET_SIZE} only when ifMtu says the path is wider than an
     * Ethernet one; with the defaults (ifMtu 1444) every packet stays at most 1444 bytes.
     *
     * @return bytes, 520..16384
     */
    public int largestPacket() {
        return Math.min(RxConstants.MAX_PACKET_SIZE, Math.min(maxMtu, ifMtu));
    }

    /**
     * UDP socket send buffer to request (the receive buffer is {@link #effectiveReceiveBufferBytes()}):
     * {@link #udpBufferBytes()} if set, else enough for both windows of jumbogram-sized packets with room for several
     * connections, at least OpenAFS's 64 KiB.
     *
     * @return bytes
     */
    public int effectiveUdpBufferBytes() {
        if (udpBufferBytes > 0) {
            return udpBufferBytes;
        }
        // Packets above 1444 bytes only travel when ifMtu allows them (largestPacket).
        long need = 8L * Math.max(maxTwind, maxRwind) * Math.max(1444, largestPacket());
        return (int) Math.max(64 * 1024, Math.min(need, 16L * 1024 * 1024));
    }

    /**
     * UDP socket receive buffer to request: {@link #udpBufferBytes()} if set, else the larger of
     * {@link #effectiveUdpBufferBytes()} and {@link #DEFAULT_MIN_RECEIVE_BUFFER}. The receive queue is shared by every
     * peer of the endpoint: sized from the windows alone it overflows while a flood of other datagrams waits in it,
     * and the kernel then drops the legitimate ones too (docs/robustness.md "Flood"). The kernel caps the request at
     * {@code net.core.rmem_max} (then doubles it, for its bookkeeping); a capped default is not an error.
     *
     * @return bytes
     */
    public int effectiveReceiveBufferBytes() {
        return udpBufferBytes > 0 ? udpBufferBytes : Math.max(effectiveUdpBufferBytes(), DEFAULT_MIN_RECEIVE_BUFFER);
    }

    /**
     * Builder for {@link RxConfig}, preset with OpenAFS's defaults. Setters only store; {@link #build()} checks the
     * ranges (see {@link RxConfig}). Not thread-safe.
     */
    public static final class Builder {
        private int maxTwind = DEFAULT_MAX_TWIND;
        private int maxRwind = DEFAULT_MAX_RWIND;
        private int jumboMax = 4;
        private int maxMtu = 16384;
        private int ifMtu = 1444;
        private boolean hardAckOnly;
        private int hardAckInterval = 8;
        private int softAckRate = 1;
        private int hardAckRate = 2;
        private long softAckDelayNs = ms(100);
        private long hardAckDelayNs = ms(100);
        private long lastAckDelayNs = ms(400);
        private long initialRttNs = ms(3000);
        private long minRtoNs = ms(20);
        private long rtoSlackNs = ms(200);
        private long maxRtoNs = ms(60_000);
        private int initialCwnd = 4;
        private int initialSsthresh = 255;
        private long deadTimeNs = ms(12_000);
        private long clientIdleDeadTimeNs;
        private long serverIdleDeadTimeNs = ms(60_000);
        private long hardDeadTimeNs;
        private boolean checkReach = true;
        private long reachTtlNs = ms(60_000);
        private long reachRetryNs = ms(2_000);
        private int maxConnections = 100_000;
        private int maxPendingCalls = 1024;
        private int maxConnectionsPerPeer = 16_384;
        private int maxUnprovenConnections = 2_048;
        private int maxPeers = 65_536;
        private int maxHeldPackets = 4_096;
        private long idleConnectionTimeNs = ms(700_000);
        private long idlePeerTimeNs = ms(60_000);
        private long reapIntervalNs = ms(60_000);
        private String versionString = "rx4j";
        private int udpBufferBytes;
        private CongestionControl congestionControl = CongestionControl.NEWRENO;
        private int nackThreshold = 3;
        private int ackRate = 8;
        private DebugReplies debugReplies = DebugReplies.LOOPBACK_OR_NO_AMPLIFICATION;

        private Builder() {
        }

        private Builder(RxConfig c) {
            maxTwind = c.maxTwind;
            maxRwind = c.maxRwind;
            jumboMax = c.jumboMax;
            maxMtu = c.maxMtu;
            ifMtu = c.ifMtu;
            hardAckOnly = c.hardAckOnly;
            hardAckInterval = c.hardAckInterval;
            softAckRate = c.softAckRate;
            hardAckRate = c.hardAckRate;
            softAckDelayNs = c.softAckDelayNs;
            hardAckDelayNs = c.hardAckDelayNs;
            lastAckDelayNs = c.lastAckDelayNs;
            initialRttNs = c.initialRttNs;
            minRtoNs = c.minRtoNs;
            rtoSlackNs = c.rtoSlackNs;
            maxRtoNs = c.maxRtoNs;
            initialCwnd = c.initialCwnd;
            initialSsthresh = c.initialSsthresh;
            deadTimeNs = c.deadTimeNs;
            clientIdleDeadTimeNs = c.clientIdleDeadTimeNs;
            serverIdleDeadTimeNs = c.serverIdleDeadTimeNs;
            hardDeadTimeNs = c.hardDeadTimeNs;
            checkReach = c.checkReach;
            reachTtlNs = c.reachTtlNs;
            reachRetryNs = c.reachRetryNs;
            maxConnections = c.maxConnections;
            maxPendingCalls = c.maxPendingCalls;
            maxConnectionsPerPeer = c.maxConnectionsPerPeer;
            maxUnprovenConnections = c.maxUnprovenConnections;
            maxPeers = c.maxPeers;
            maxHeldPackets = c.maxHeldPackets;
            idleConnectionTimeNs = c.idleConnectionTimeNs;
            idlePeerTimeNs = c.idlePeerTimeNs;
            reapIntervalNs = c.reapIntervalNs;
            versionString = c.versionString;
            udpBufferBytes = c.udpBufferBytes;
            congestionControl = c.congestionControl;
            nackThreshold = c.nackThreshold;
            ackRate = c.ackRate;
            debugReplies = c.debugReplies;
        }

        private static long ms(long millis) {
            return TimeUnit.MILLISECONDS.toNanos(millis);
        }

        /**
         * @param packets {@link RxConfig#maxTwind()}: packets; checked by build()
         * @return this
         */
        public Builder maxTwind(int packets) {
            maxTwind = packets;
            return this;
        }

        /**
         * @param packets {@link RxConfig#maxRwind()}: packets; checked by build()
         * @return this
         */
        public Builder maxRwind(int packets) {
            maxRwind = packets;
            return this;
        }

        /**
         * Sets both window maxima, as rxperf -W does.
         *
         * @param packets {@link RxConfig#maxTwind()} and {@link RxConfig#maxRwind()}, 1..255
         * @return this
         */
        public Builder maxWindow(int packets) {
            return maxTwind(packets).maxRwind(packets);
        }

        /**
         * @param packets {@link RxConfig#jumboMax()}: packets; checked by build()
         * @return this
         */
        public Builder jumboMax(int packets) {
            jumboMax = packets;
            return this;
        }

        /**
         * @param bytes {@link RxConfig#maxMtu()}: bytes; checked by build()
         * @return this
         */
        public Builder maxMtu(int bytes) {
            maxMtu = bytes;
            return this;
        }

        /**
         * @param bytes {@link RxConfig#ifMtu()}: bytes; checked by build()
         * @return this
         */
        public Builder ifMtu(int bytes) {
            ifMtu = bytes;
            return this;
        }

        /**
         * @param on {@link RxConfig#hardAckOnly()}: on or off
         * @return this
         */
        public Builder hardAckOnly(boolean on) {
            hardAckOnly = on;
            return this;
        }

        /**
         * @param packets {@link RxConfig#hardAckInterval()}: packets; checked by build()
         * @return this
         */
        public Builder hardAckInterval(int packets) {
            hardAckInterval = packets;
            return this;
        }

        /**
         * @param packets {@link RxConfig#softAckRate()}: packets; checked by build()
         * @return this
         */
        public Builder softAckRate(int packets) {
            softAckRate = packets;
            return this;
        }

        /**
         * @param packets {@link RxConfig#hardAckRate()}: packets; checked by build()
         * @return this
         */
        public Builder hardAckRate(int packets) {
            hardAckRate = packets;
            return this;
        }

        /**
         * @param d {@link RxConfig#softAckDelayNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder softAckDelay(Duration d) {
            softAckDelayNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#hardAckDelayNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder hardAckDelay(Duration d) {
            hardAckDelayNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#lastAckDelayNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder lastAckDelay(Duration d) {
            lastAckDelayNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#initialRttNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder initialRtt(Duration d) {
            initialRttNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#minRtoNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder minRto(Duration d) {
            minRtoNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#rtoSlackNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder rtoSlack(Duration d) {
            rtoSlackNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#maxRtoNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder maxRto(Duration d) {
            maxRtoNs = d.toNanos();
            return this;
        }

        /**
         * @param packets {@link RxConfig#initialCwnd()}: packets; checked by build()
         * @return this
         */
        public Builder initialCwnd(int packets) {
            initialCwnd = packets;
            return this;
        }

        /**
         * @param packets {@link RxConfig#initialSsthresh()}: packets; checked by build()
         * @return this
         */
        public Builder initialSsthresh(int packets) {
            initialSsthresh = packets;
            return this;
        }

        /**
         * @param d {@link RxConfig#deadTimeNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder deadTime(Duration d) {
            deadTimeNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#clientIdleDeadTimeNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows
         */
        public Builder clientIdleDeadTime(Duration d) {
            clientIdleDeadTimeNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#serverIdleDeadTimeNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows
         */
        public Builder serverIdleDeadTime(Duration d) {
            serverIdleDeadTimeNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#hardDeadTimeNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder hardDeadTime(Duration d) {
            hardDeadTimeNs = d.toNanos();
            return this;
        }

        /**
         * @param on {@link RxConfig#checkReach()}: on or off
         * @return this
         */
        public Builder checkReach(boolean on) {
            checkReach = on;
            return this;
        }

        /**
         * @param n {@link RxConfig#maxConnections()}: a count; checked by build()
         * @return this
         */
        public Builder maxConnections(int n) {
            maxConnections = n;
            return this;
        }

        /**
         * @param n {@link RxConfig#maxPendingCalls()}: a count; checked by build()
         * @return this
         */
        public Builder maxPendingCalls(int n) {
            maxPendingCalls = n;
            return this;
        }

        /**
         * @param n {@link RxConfig#maxConnectionsPerPeer()}: a count; checked by build()
         * @return this
         */
        public Builder maxConnectionsPerPeer(int n) {
            maxConnectionsPerPeer = n;
            return this;
        }

        /**
         * @param n {@link RxConfig#maxUnprovenConnections()}: a count; checked by build()
         * @return this
         */
        public Builder maxUnprovenConnections(int n) {
            maxUnprovenConnections = n;
            return this;
        }

        /**
         * @param n {@link RxConfig#maxPeers()}: a count; checked by build()
         * @return this
         */
        public Builder maxPeers(int n) {
            maxPeers = n;
            return this;
        }

        /**
         * @param packets {@link RxConfig#maxHeldPackets()}: packets; checked by build()
         * @return this
         */
        public Builder maxHeldPackets(int packets) {
            maxHeldPackets = packets;
            return this;
        }

        /**
         * @param d {@link RxConfig#idleConnectionTimeNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder idleConnectionTime(Duration d) {
            idleConnectionTimeNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#idlePeerTimeNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder idlePeerTime(Duration d) {
            idlePeerTimeNs = d.toNanos();
            return this;
        }

        /**
         * @param d {@link RxConfig#reapIntervalNs()}, stored in ns; checked by build()
         * @return this
         * @throws ArithmeticException if d overflows ns
         */
        public Builder reapInterval(Duration d) {
            reapIntervalNs = d.toNanos();
            return this;
        }

        /**
         * @param s {@link RxConfig#versionString()}: a string
         * @return this
         */
        public Builder versionString(String s) {
            versionString = s;
            return this;
        }

        /**
         * @param bytes {@link RxConfig#udpBufferBytes()}: bytes; checked by build()
         * @return this
         */
        public Builder udpBufferBytes(int bytes) {
            udpBufferBytes = bytes;
            return this;
        }

        /**
         * @param cc {@link RxConfig#congestionControl()}: a controller, not null (checked by {@link #build()})
         * @return this
         */
        public Builder congestionControl(CongestionControl cc) {
            congestionControl = cc;
            return this;
        }

        /**
         * @param acks {@link RxConfig#nackThreshold()}: ACKs with a hole before a fast retransmit, 1..255; checked by
         *     build()
         * @return this
         */
        public Builder nackThreshold(int acks) {
            nackThreshold = acks;
            return this;
        }

        /**
         * @param packets {@link RxConfig#ackRate()}: packets the receiver lets pass within a burst before it acks,
         *     1..255 (1 or 2 = OpenAFS's rates); checked by build()
         * @return this
         */
        public Builder ackRate(int packets) {
            ackRate = packets;
            return this;
        }

        /**
         * @param policy {@link RxConfig#debugReplies()}: which DEBUG/VERSION queries are answered, not null (checked
         *     by {@link #build()})
         * @return this
         */
        public Builder debugReplies(DebugReplies policy) {
            debugReplies = policy;
            return this;
        }

        /**
         * @return the immutable configuration
         * @throws IllegalArgumentException naming the first setting out of range (see {@link RxConfig})
         * @throws NullPointerException if congestionControl or debugReplies is null
         */
        public RxConfig build() {
            return new RxConfig(maxTwind, maxRwind, jumboMax, maxMtu, ifMtu, hardAckOnly, hardAckInterval,
                    softAckRate, hardAckRate, softAckDelayNs, hardAckDelayNs, lastAckDelayNs, initialRttNs, minRtoNs,
                    rtoSlackNs, maxRtoNs, initialCwnd, initialSsthresh, deadTimeNs, clientIdleDeadTimeNs,
                    serverIdleDeadTimeNs, hardDeadTimeNs, checkReach, reachTtlNs, reachRetryNs, maxConnections,
                    maxPendingCalls, maxConnectionsPerPeer, maxUnprovenConnections, maxPeers, maxHeldPackets,
                    idleConnectionTimeNs, idlePeerTimeNs, reapIntervalNs, versionString, udpBufferBytes,
                    congestionControl, nackThreshold, ackRate, debugReplies);
        }
    }
}
