package org.rx4j.config;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Every tunable of an rx4j endpoint, immutable; build with {@link #builder()}. Names and defaults
 * follow OpenAFS 1.8 where OpenAFS has the knob (rx-wire-facts.md §5, §8); rxperf's flags map 1:1.
 *
 * <p>Times are nanoseconds, windows are packets, sizes are bytes.
 */
public final class RxConfig {
    /** OpenAFS's default maximum send window (rx_maxSendWindow), packets. */
    public static final int DEFAULT_MAX_TWIND = 32;
    /** OpenAFS's default maximum receive window (rx_maxReceiveWindow), packets. */
    public static final int DEFAULT_MAX_RWIND = 32;
    /** OpenAFS's initial send and receive windows, packets. */
    public static final int INITIAL_WINDOW = 16;

    private final int maxTwind;
    private final int maxRwind;
    private final int jumboMax;
    private final int maxMtu;
    private final int ifMtu;
    private final boolean hardAckOnly;
    private final int hardAckInterval;
    private final int softAckRate;
    private final int hardAckRate;
    private final long softAckDelayNs;
    private final long hardAckDelayNs;
    private final long lastAckDelayNs;
    private final long initialRttNs;
    private final long minRtoNs;
    private final long rtoSlackNs;
    private final long maxRtoNs;
    private final int initialCwnd;
    private final int initialSsthresh;
    private final long deadTimeNs;
    private final long clientIdleDeadTimeNs;
    private final long serverIdleDeadTimeNs;
    private final long hardDeadTimeNs;
    private final boolean checkReach;
    private final long reachTtlNs;
    private final long reachRetryNs;
    private final int maxConnections;
    private final int maxPendingCalls;
    private final String versionString;
    private final int udpBufferBytes;
    private final CongestionControl congestionControl;

    private RxConfig(Builder b) {
        this.maxTwind = b.maxTwind;
        this.maxRwind = b.maxRwind;
        this.jumboMax = b.jumboMax;
        this.maxMtu = b.maxMtu;
        this.ifMtu = b.ifMtu;
        this.hardAckOnly = b.hardAckOnly;
        this.hardAckInterval = b.hardAckInterval;
        this.softAckRate = b.softAckRate;
        this.hardAckRate = b.hardAckRate;
        this.softAckDelayNs = b.softAckDelayNs;
        this.hardAckDelayNs = b.hardAckDelayNs;
        this.lastAckDelayNs = b.lastAckDelayNs;
        this.initialRttNs = b.initialRttNs;
        this.minRtoNs = b.minRtoNs;
        this.rtoSlackNs = b.rtoSlackNs;
        this.maxRtoNs = b.maxRtoNs;
        this.initialCwnd = b.initialCwnd;
        this.initialSsthresh = b.initialSsthresh;
        this.deadTimeNs = b.deadTimeNs;
        this.clientIdleDeadTimeNs = b.clientIdleDeadTimeNs;
        this.serverIdleDeadTimeNs = b.serverIdleDeadTimeNs;
        this.hardDeadTimeNs = b.hardDeadTimeNs;
        this.checkReach = b.checkReach;
        this.reachTtlNs = b.reachTtlNs;
        this.reachRetryNs = b.reachRetryNs;
        this.maxConnections = b.maxConnections;
        this.maxPendingCalls = b.maxPendingCalls;
        this.versionString = b.versionString;
        this.udpBufferBytes = b.udpBufferBytes;
        this.congestionControl = b.congestionControl;
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
        Builder b = new Builder();
        b.maxTwind = maxTwind;
        b.maxRwind = maxRwind;
        b.jumboMax = jumboMax;
        b.maxMtu = maxMtu;
        b.ifMtu = ifMtu;
        b.hardAckOnly = hardAckOnly;
        b.hardAckInterval = hardAckInterval;
        b.softAckRate = softAckRate;
        b.hardAckRate = hardAckRate;
        b.softAckDelayNs = softAckDelayNs;
        b.hardAckDelayNs = hardAckDelayNs;
        b.lastAckDelayNs = lastAckDelayNs;
        b.initialRttNs = initialRttNs;
        b.minRtoNs = minRtoNs;
        b.rtoSlackNs = rtoSlackNs;
        b.maxRtoNs = maxRtoNs;
        b.initialCwnd = initialCwnd;
        b.initialSsthresh = initialSsthresh;
        b.deadTimeNs = deadTimeNs;
        b.clientIdleDeadTimeNs = clientIdleDeadTimeNs;
        b.serverIdleDeadTimeNs = serverIdleDeadTimeNs;
        b.hardDeadTimeNs = hardDeadTimeNs;
        b.checkReach = checkReach;
        b.reachTtlNs = reachTtlNs;
        b.reachRetryNs = reachRetryNs;
        b.maxConnections = maxConnections;
        b.maxPendingCalls = maxPendingCalls;
        b.versionString = versionString;
        b.udpBufferBytes = udpBufferBytes;
        b.congestionControl = congestionControl;
        return b;
    }

    /** @return maximum transmit window (twind), packets, 1..255; the peer's rwind caps it further */
    public int maxTwind() {
        return maxTwind;
    }

    /** @return maximum receive window (rwind) advertised, packets, 1..255 */
    public int maxRwind() {
        return maxRwind;
    }

    /** @return most jumbogram sub-packets advertised and sent, 1..46; 1 = no jumbograms (rxperf -j) */
    public int jumboMax() {
        return jumboMax;
    }

    /** @return largest Rx packet (header + data) this endpoint sends or accepts in one piece, bytes */
    public int maxMtu() {
        return maxMtu;
    }

    /** @return interface MTU less IP/UDP overhead advertised in the ACK trailer, bytes (OpenAFS: 1444) */
    public int ifMtu() {
        return ifMtu;
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

    /** @return true in hard-ACK-only mode: no soft (IDLE) acks on arrival */
    public boolean hardAckOnly() {
        return hardAckOnly;
    }

    /** @return in hard-ACK-only mode, consumed packets between hard acks (default 8) */
    public int hardAckInterval() {
        return hardAckInterval;
    }

    /** @return default mode: an IDLE ack after more than this many new packets (rxi_SoftAckRate = 1) */
    public int softAckRate() {
        return softAckRate;
    }

    /** @return default mode: an immediate DELAY ack after more than this many consumed packets (rxi_HardAckRate = 2) */
    public int hardAckRate() {
        return hardAckRate;
    }

    /** @return delay before a soft ack is sent on its own, ns (rx_softAckDelay 100 ms) */
    public long softAckDelayNs() {
        return softAckDelayNs;
    }

    /** @return delay before a hard ack is sent on its own, ns (rx_hardAckDelay 100 ms) */
    public long hardAckDelayNs() {
        return hardAckDelayNs;
    }

    /** @return delay before a client acks the last reply packet, ns (rx_lastAckDelay 400 ms) */
    public long lastAckDelayNs() {
        return lastAckDelayNs;
    }

    /** @return RTT assumed before the first sample, ns (OpenAFS: 3 s for remote and loopback peers) */
    public long initialRttNs() {
        return initialRttNs;
    }

    /** @return floor of srtt + 4·rttvar, ns (rx_minPeerTimeout 20 ms; rxperf -P) */
    public long minRtoNs() {
        return minRtoNs;
    }

    /** @return slack added to every RTO for the peer's delayed ack, ns (OpenAFS 200 ms) */
    public long rtoSlackNs() {
        return rtoSlackNs;
    }

    /** @return cap of the backed-off RTO, ns (60 s) */
    public long maxRtoNs() {
        return maxRtoNs;
    }

    /** @return congestion window of a new call, packets */
    public int initialCwnd() {
        return initialCwnd;
    }

    /** @return initial slow-start threshold, packets */
    public int initialSsthresh() {
        return initialSsthresh;
    }

    /** @return nothing heard for this long fails an active call with RX_CALL_DEAD, ns (12 s) */
    public long deadTimeNs() {
        return deadTimeNs;
    }

    /** @return idle dead time of client calls, ns; 0 = off (OpenAFS default) */
    public long clientIdleDeadTimeNs() {
        return clientIdleDeadTimeNs;
    }

    /** @return idle dead time of server calls, ns (60 s); 0 = off */
    public long serverIdleDeadTimeNs() {
        return serverIdleDeadTimeNs;
    }

    /** @return total call lifetime limit, ns; 0 = off (default) */
    public long hardDeadTimeNs() {
        return hardDeadTimeNs;
    }

    /** @return true when a server PINGs a new peer before starting its first call (OpenAFS checkReach) */
    public boolean checkReach() {
        return checkReach;
    }

    /** @return how long a reachability answer stays valid, ns (60 s) */
    public long reachTtlNs() {
        return reachTtlNs;
    }

    /** @return interval between reachability PINGs, ns (2 s) */
    public long reachRetryNs() {
        return reachRetryNs;
    }

    /** @return most server connections kept at once; new ones beyond are refused with BUSY-style abort */
    public int maxConnections() {
        return maxConnections;
    }

    /** @return most client calls queued waiting for a free channel on one connection */
    public int maxPendingCalls() {
        return maxPendingCalls;
    }

    /** @return the string answered to VERSION requests (at most 64 ASCII bytes are sent) */
    public String versionString() {
        return versionString;
    }

    /**
     * @return the congestion controller every call of this endpoint runs; default {@link CongestionControl#NEWRENO}
     */
    public CongestionControl congestionControl() {
        return congestionControl;
    }

    /** @return UDP socket buffer size requested, bytes; 0 = size from the windows */
    public int udpBufferBytes() {
        return udpBufferBytes;
    }

    /**
     * UDP socket buffer to request: {@link #udpBufferBytes()} if set, else enough for both windows of
     * jumbogram-sized packets with room for several connections, at least OpenAFS's 64 KiB.
     *
     * @return bytes
     */
    public int effectiveUdpBufferBytes() {
        if (udpBufferBytes > 0) {
            return udpBufferBytes;
        }
        long need = 8L * Math.max(maxTwind, maxRwind) * 1444;
        return (int) Math.max(64 * 1024, Math.min(need, 16L * 1024 * 1024));
    }

    /** Builder for {@link RxConfig}; every setter validates its range and throws IllegalArgumentException. */
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
        private String versionString = "rx4j";
        private int udpBufferBytes;
        private CongestionControl congestionControl = CongestionControl.NEWRENO;

        private Builder() {
        }

        private static long ms(long millis) {
            return TimeUnit.MILLISECONDS.toNanos(millis);
        }

        private static int range(String name, int v, int lo, int hi) {
            if (v < lo || v > hi) {
                throw new IllegalArgumentException(name + " must be " + lo + ".." + hi + ": " + v);
            }
            return v;
        }

        private static long nonNegative(String name, Duration d) {
            if (d.isNegative()) {
                throw new IllegalArgumentException(name + " must not be negative: " + d);
            }
            return d.toNanos();
        }

        /**
         * @param packets maximum twind, 1..255
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder maxTwind(int packets) {
            maxTwind = range("maxTwind", packets, 1, 255);
            return this;
        }

        /**
         * @param packets maximum rwind, 1..255
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder maxRwind(int packets) {
            maxRwind = range("maxRwind", packets, 1, 255);
            return this;
        }

        /**
         * Sets both window maxima, as rxperf -W does.
         *
         * @param packets 1..255
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder maxWindow(int packets) {
            return maxTwind(packets).maxRwind(packets);
        }

        /**
         * @param packets jumbogram sub-packets, 1..46 (1 = no jumbograms)
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder jumboMax(int packets) {
            jumboMax = range("jumboMax", packets, 1, 46);
            return this;
        }

        /**
         * @param bytes largest packet, 520..65535 (rxperf -m allows 520..16356)
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder maxMtu(int bytes) {
            maxMtu = range("maxMtu", bytes, 520, 65535);
            return this;
        }

        /**
         * @param bytes advertised interface MTU, 520..65535
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder ifMtu(int bytes) {
            ifMtu = range("ifMtu", bytes, 520, 65535);
            return this;
        }

        /**
         * @param on hard-ACK-only mode
         * @return this
         */
        public Builder hardAckOnly(boolean on) {
            hardAckOnly = on;
            return this;
        }

        /**
         * @param packets consumed packets between hard acks in hard-ACK-only mode, 1..255
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder hardAckInterval(int packets) {
            hardAckInterval = range("hardAckInterval", packets, 1, 255);
            return this;
        }

        /**
         * @param packets soft-ack rate, 0..255
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder softAckRate(int packets) {
            softAckRate = range("softAckRate", packets, 0, 255);
            return this;
        }

        /**
         * @param packets hard-ack rate, 0..255
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder hardAckRate(int packets) {
            hardAckRate = range("hardAckRate", packets, 0, 255);
            return this;
        }

        /**
         * @param d soft-ack delay
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder softAckDelay(Duration d) {
            softAckDelayNs = nonNegative("softAckDelay", d);
            return this;
        }

        /**
         * @param d hard-ack delay
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder hardAckDelay(Duration d) {
            hardAckDelayNs = nonNegative("hardAckDelay", d);
            return this;
        }

        /**
         * @param d last-ack delay
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder lastAckDelay(Duration d) {
            lastAckDelayNs = nonNegative("lastAckDelay", d);
            return this;
        }

        /**
         * @param d initial RTT, &gt; 0
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder initialRtt(Duration d) {
            initialRttNs = nonNegative("initialRtt", d);
            return this;
        }

        /**
         * @param d minimum RTO (min peer timeout; rxperf -P), &gt;= 0
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder minRto(Duration d) {
            minRtoNs = nonNegative("minRto", d);
            return this;
        }

        /**
         * @param d delayed-ack slack added to the RTO
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder rtoSlack(Duration d) {
            rtoSlackNs = nonNegative("rtoSlack", d);
            return this;
        }

        /**
         * @param d RTO cap
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder maxRto(Duration d) {
            maxRtoNs = nonNegative("maxRto", d);
            return this;
        }

        /**
         * @param packets initial cwnd, 1..255
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder initialCwnd(int packets) {
            initialCwnd = range("initialCwnd", packets, 1, 255);
            return this;
        }

        /**
         * @param packets initial ssthresh, 2..255
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder initialSsthresh(int packets) {
            initialSsthresh = range("initialSsthresh", packets, 2, 255);
            return this;
        }

        /**
         * @param d dead time (RX_CALL_DEAD), &gt; 0
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder deadTime(Duration d) {
            deadTimeNs = nonNegative("deadTime", d);
            return this;
        }

        /**
         * @param d client idle dead time, 0 = off
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder clientIdleDeadTime(Duration d) {
            clientIdleDeadTimeNs = nonNegative("clientIdleDeadTime", d);
            return this;
        }

        /**
         * @param d server idle dead time, 0 = off
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder serverIdleDeadTime(Duration d) {
            serverIdleDeadTimeNs = nonNegative("serverIdleDeadTime", d);
            return this;
        }

        /**
         * @param d hard dead time (total call life), 0 = off
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder hardDeadTime(Duration d) {
            hardDeadTimeNs = nonNegative("hardDeadTime", d);
            return this;
        }

        /**
         * @param on reachability check on the server
         * @return this
         */
        public Builder checkReach(boolean on) {
            checkReach = on;
            return this;
        }

        /**
         * @param n most server connections, &gt;= 1
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder maxConnections(int n) {
            maxConnections = range("maxConnections", n, 1, Integer.MAX_VALUE);
            return this;
        }

        /**
         * @param n most queued calls per client connection, &gt;= 0
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        public Builder maxPendingCalls(int n) {
            maxPendingCalls = range("maxPendingCalls", n, 0, Integer.MAX_VALUE);
            return this;
        }

        /**
         * @param s string answered to VERSION requests
         * @return this
         */
        public Builder versionString(String s) {
            versionString = s;
            return this;
        }

        /**
         * @param bytes UDP socket buffer, 0 = automatic
         * @return this
         * @throws IllegalArgumentException if the value is out of range
         */
        /**
         * @param cc the congestion controller every call runs (default {@link CongestionControl#NEWRENO})
         * @return this builder
         * @throws NullPointerException if {@code cc} is null
         */
        public Builder congestionControl(CongestionControl cc) {
            congestionControl = java.util.Objects.requireNonNull(cc, "congestionControl");
            return this;
        }

        public Builder udpBufferBytes(int bytes) {
            udpBufferBytes = range("udpBufferBytes", bytes, 0, Integer.MAX_VALUE);
            return this;
        }

        /** @return the immutable configuration @throws IllegalArgumentException if dead time is 0 */
        public RxConfig build() {
            if (deadTimeNs <= 0) {
                throw new IllegalArgumentException("deadTime must be > 0");
            }
            return new RxConfig(this);
        }
    }
}
