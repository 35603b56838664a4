// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import org.rx4j.wire.RxConstants;
import java.time.Duration;
import java.util.Objects;

/**
 * Every tunable of an rx4j endpoint, immutable, grouped by concern; build with {@link #builder()}. Names and defaults
 * follow OpenAFS 1.8 where OpenAFS has the knob (rx-wire-facts.md §5, §8); rxperf's flags map 1:1. Times are
 * nanoseconds, windows are packets, sizes are bytes.
 *
 * <p>Each setting is written once, as a component of the record of its concern, next to its range check and its
 * default ({@code DEFAULTS} of that record). Every record checks its own ranges in its constructor, so a
 * configuration out of range cannot exist however it was made.
 *
 * @param windows the largest send and receive windows
 * @param packetSize packet and jumbogram sizes, and what the ACK trailer advertises
 * @param ackPolicy which arrivals make the receiver ack
 * @param ackDelays how long the receiver may hold back an ACK
 * @param rto bounds of the retransmission timeout
 * @param congestion the congestion controller, its initial window and the fast-retransmit threshold
 * @param timeouts when a call fails for silence, idleness or age
 * @param reachability the reachability check of new peers
 * @param limits most connections, peers, queued calls and held packets
 * @param reaping when idle connections and peers are forgotten
 * @param debugQueries the answers to DEBUG and VERSION queries
 * @param socketBuffers the UDP socket buffers requested
 */
public record RxConfig(Windows windows, PacketSize packetSize, AckPolicy ackPolicy, AckDelays ackDelays,
                       RetransmitTimeout rto, Congestion congestion, CallTimeouts timeouts, Reachability reachability,
                       Limits limits, Reaping reaping, DebugQueries debugQueries, SocketBuffers socketBuffers) {
    /**
     * Smallest UDP receive buffer requested when {@link SocketBuffers#udpBufferBytes()} is 0, bytes (4 MiB): about
     * 2,800 full packets, 20 ms of datagrams at 200,000 a second (docs/robustness.md "Flood"). See
     * {@link #effectiveReceiveBufferBytes()}.
     */
    public static final int DEFAULT_MIN_RECEIVE_BUFFER = 4 * 1024 * 1024;
    /** OpenAFS's initial send and receive windows, packets: the peer's rwind assumed before its first ACK. */
    public static final int INITIAL_WINDOW = 16;

    private static final RxConfig DEFAULTS = new RxConfig(Windows.DEFAULTS, PacketSize.DEFAULTS, AckPolicy.DEFAULTS,
            AckDelays.DEFAULTS, RetransmitTimeout.DEFAULTS, Congestion.DEFAULTS, CallTimeouts.DEFAULTS,
            Reachability.DEFAULTS, Limits.DEFAULTS, Reaping.DEFAULTS, DebugQueries.DEFAULTS, SocketBuffers.DEFAULTS);

    /**
     * Checks that every group is set (each group checked its own ranges when it was made).
     *
     * @throws NullPointerException naming the group that is null
     */
    public RxConfig {
        Objects.requireNonNull(windows, "windows");
        Objects.requireNonNull(packetSize, "packetSize");
        Objects.requireNonNull(ackPolicy, "ackPolicy");
        Objects.requireNonNull(ackDelays, "ackDelays");
        Objects.requireNonNull(rto, "rto");
        Objects.requireNonNull(congestion, "congestion");
        Objects.requireNonNull(timeouts, "timeouts");
        Objects.requireNonNull(reachability, "reachability");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(reaping, "reaping");
        Objects.requireNonNull(debugQueries, "debugQueries");
        Objects.requireNonNull(socketBuffers, "socketBuffers");
    }

    /** @return a builder preset with the defaults (each group's {@code DEFAULTS}: OpenAFS 1.8's values) */
    public static Builder builder() {
        return new Builder(DEFAULTS);
    }

    /** @return a configuration with every default */
    public static RxConfig defaults() {
        return DEFAULTS;
    }

    /** @return a builder preset with this configuration's values */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * UDP socket send buffer to request (the receive buffer is {@link #effectiveReceiveBufferBytes()}):
     * {@link SocketBuffers#udpBufferBytes()} if set, else enough for both windows of jumbogram-sized packets with room
     * for several connections, at least OpenAFS's 64 KiB.
     *
     * @return bytes
     */
    public int effectiveUdpBufferBytes() {
        if (socketBuffers.udpBufferBytes() > 0) {
            return socketBuffers.udpBufferBytes();
        }
        // Packets above 1444 bytes only travel where the route's interface carries them (PacketSize.largestPacket).
        // Sized as for 16 KiB packets at most: larger ones only come on loopback and jumbo-frame links, where the
        // receiver drains its queue faster than a window fills it; the kernel caps the request at wmem_max anyway.
        int route = packetSize.localIfMtu(RxConstants.MAX_UDP_PAYLOAD_IPV4);
        long need = 8L * Math.max(windows.maxTwind(), windows.maxRwind())
                * Math.max(1444, Math.min(RxConstants.MAX_PACKET_SIZE, packetSize.largestPacket(route)));
        return (int) Math.max(64 * 1024, Math.min(need, 16L * 1024 * 1024));
    }

    /**
     * UDP socket receive buffer to request: {@link SocketBuffers#udpBufferBytes()} if set, else the larger of
     * {@link #effectiveUdpBufferBytes()} and {@link #DEFAULT_MIN_RECEIVE_BUFFER}. The receive queue is shared by every
     * peer of the endpoint: sized from the windows alone it overflows while a flood of other datagrams waits in it,
     * and the kernel then drops the legitimate ones too (docs/robustness.md "Flood"). The kernel caps the request at
     * {@code net.core.rmem_max} (then doubles it, for its bookkeeping); a capped default is not an error.
     *
     * @return bytes
     */
    public int effectiveReceiveBufferBytes() {
        int set = socketBuffers.udpBufferBytes();
        return set > 0 ? set : Math.max(effectiveUdpBufferBytes(), DEFAULT_MIN_RECEIVE_BUFFER);
    }

    /**
     * Builder for {@link RxConfig}, preset with the defaults or with a configuration's values. It holds one record
     * per group; each setter replaces the record of its setting's group, so a value out of range is refused at once:
     * IllegalArgumentException naming the setting (NullPointerException for a null controller or policy;
     * ArithmeticException for a Duration beyond a long of nanoseconds). Not thread-safe.
     */
    public static final class Builder {
        private Windows windows;
        private PacketSize packetSize;
        private AckPolicy ackPolicy;
        private AckDelays ackDelays;
        private RetransmitTimeout rto;
        private Congestion congestion;
        private CallTimeouts timeouts;
        private Reachability reachability;
        private Limits limits;
        private Reaping reaping;
        private DebugQueries debugQueries;
        private SocketBuffers socketBuffers;

        private Builder(RxConfig c) {
            windows = c.windows;
            packetSize = c.packetSize;
            ackPolicy = c.ackPolicy;
            ackDelays = c.ackDelays;
            rto = c.rto;
            congestion = c.congestion;
            timeouts = c.timeouts;
            reachability = c.reachability;
            limits = c.limits;
            reaping = c.reaping;
            debugQueries = c.debugQueries;
            socketBuffers = c.socketBuffers;
        }

        /** @return this, with {@link Windows#maxTwind()} set to {@code packets} (packets) */
        public Builder maxTwind(int packets) {
            windows = windows.with(g -> g.maxTwind = packets);
            return this;
        }

        /** @return this, with {@link Windows#maxRwind()} set to {@code packets} (packets) */
        public Builder maxRwind(int packets) {
            windows = windows.with(g -> g.maxRwind = packets);
            return this;
        }

        /**
         * Sets both window maxima, as rxperf -W does.
         *
         * @param packets {@link Windows#maxTwind()} and {@link Windows#maxRwind()}, 1..255
         * @return this
         */
        public Builder maxWindow(int packets) {
            return maxTwind(packets).maxRwind(packets);
        }

        /** @return this, with {@link PacketSize#jumboMax()} set to {@code packets} (packets) */
        public Builder jumboMax(int packets) {
            packetSize = packetSize.with(g -> g.jumboMax = packets);
            return this;
        }

        /** @return this, with {@link PacketSize#maxMtu()} set to {@code bytes} (bytes) */
        public Builder maxMtu(int bytes) {
            packetSize = packetSize.with(g -> g.maxMtu = bytes);
            return this;
        }

        /** @return this, with {@link PacketSize#ifMtu()} set to {@code bytes} (bytes) */
        public Builder ifMtu(int bytes) {
            packetSize = packetSize.with(g -> g.ifMtu = bytes);
            return this;
        }

        /** @return this, with {@link PacketSize#fragmentJumbograms()} set to {@code fragment} */
        public Builder fragmentJumbograms(boolean fragment) {
            packetSize = packetSize.with(g -> g.fragmentJumbograms = fragment);
            return this;
        }

        /** @return this, with {@link AckPolicy#hardAckOnly()} set to {@code on} (on or off) */
        public Builder hardAckOnly(boolean on) {
            ackPolicy = ackPolicy.with(g -> g.hardAckOnly = on);
            return this;
        }

        /** @return this, with {@link AckPolicy#hardAckInterval()} set to {@code packets} (packets) */
        public Builder hardAckInterval(int packets) {
            ackPolicy = ackPolicy.with(g -> g.hardAckInterval = packets);
            return this;
        }

        /** @return this, with {@link AckPolicy#softAckRate()} set to {@code packets} (packets) */
        public Builder softAckRate(int packets) {
            ackPolicy = ackPolicy.with(g -> g.softAckRate = packets);
            return this;
        }

        /** @return this, with {@link AckPolicy#hardAckRate()} set to {@code packets} (packets) */
        public Builder hardAckRate(int packets) {
            ackPolicy = ackPolicy.with(g -> g.hardAckRate = packets);
            return this;
        }

        /** @return this, with {@link AckPolicy#ackRate()} set to {@code packets} (packets) */
        public Builder ackRate(int packets) {
            ackPolicy = ackPolicy.with(g -> g.ackRate = packets);
            return this;
        }

        /** @return this, with {@link AckDelays#softAckDelayNs()} set to {@code d} in ns */
        public Builder softAckDelay(Duration d) {
            ackDelays = ackDelays.with(g -> g.softAckDelayNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link AckDelays#hardAckDelayNs()} set to {@code d} in ns */
        public Builder hardAckDelay(Duration d) {
            ackDelays = ackDelays.with(g -> g.hardAckDelayNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link AckDelays#lastAckDelayNs()} set to {@code d} in ns */
        public Builder lastAckDelay(Duration d) {
            ackDelays = ackDelays.with(g -> g.lastAckDelayNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link RetransmitTimeout#initialRttNs()} set to {@code d} in ns */
        public Builder initialRtt(Duration d) {
            rto = rto.with(g -> g.initialRttNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link RetransmitTimeout#minRtoNs()} set to {@code d} in ns */
        public Builder minRto(Duration d) {
            rto = rto.with(g -> g.minRtoNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link RetransmitTimeout#rtoSlackNs()} set to {@code d} in ns */
        public Builder rtoSlack(Duration d) {
            rto = rto.with(g -> g.rtoSlackNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link RetransmitTimeout#maxRtoNs()} set to {@code d} in ns */
        public Builder maxRto(Duration d) {
            rto = rto.with(g -> g.maxRtoNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link Congestion#congestionControl()} set to {@code cc} (a controller) */
        public Builder congestionControl(CongestionControl cc) {
            congestion = congestion.with(g -> g.congestionControl = cc);
            return this;
        }

        /** @return this, with {@link Congestion#initialCwnd()} set to {@code packets} (packets) */
        public Builder initialCwnd(int packets) {
            congestion = congestion.with(g -> g.initialCwnd = packets);
            return this;
        }

        /** @return this, with {@link Congestion#initialSsthresh()} set to {@code packets} (packets) */
        public Builder initialSsthresh(int packets) {
            congestion = congestion.with(g -> g.initialSsthresh = packets);
            return this;
        }

        /** @return this, with {@link Congestion#nackThreshold()} set to {@code acks} (ACKs) */
        public Builder nackThreshold(int acks) {
            congestion = congestion.with(g -> g.nackThreshold = acks);
            return this;
        }

        /** @return this, with {@link CallTimeouts#deadTimeNs()} set to {@code d} in ns */
        public Builder deadTime(Duration d) {
            timeouts = timeouts.with(g -> g.deadTimeNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link CallTimeouts#clientIdleDeadTimeNs()} set to {@code d} in ns */
        public Builder clientIdleDeadTime(Duration d) {
            timeouts = timeouts.with(g -> g.clientIdleDeadTimeNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link CallTimeouts#serverIdleDeadTimeNs()} set to {@code d} in ns */
        public Builder serverIdleDeadTime(Duration d) {
            timeouts = timeouts.with(g -> g.serverIdleDeadTimeNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link CallTimeouts#hardDeadTimeNs()} set to {@code d} in ns */
        public Builder hardDeadTime(Duration d) {
            timeouts = timeouts.with(g -> g.hardDeadTimeNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link Reachability#checkReach()} set to {@code on} (on or off) */
        public Builder checkReach(boolean on) {
            reachability = reachability.with(g -> g.checkReach = on);
            return this;
        }

        /** @return this, with {@link Limits#maxConnections()} set to {@code n} (a count) */
        public Builder maxConnections(int n) {
            limits = limits.with(g -> g.maxConnections = n);
            return this;
        }

        /** @return this, with {@link Limits#maxPendingCalls()} set to {@code n} (a count) */
        public Builder maxPendingCalls(int n) {
            limits = limits.with(g -> g.maxPendingCalls = n);
            return this;
        }

        /** @return this, with {@link Limits#maxConnectionsPerPeer()} set to {@code n} (a count) */
        public Builder maxConnectionsPerPeer(int n) {
            limits = limits.with(g -> g.maxConnectionsPerPeer = n);
            return this;
        }

        /** @return this, with {@link Limits#maxUnprovenConnections()} set to {@code n} (a count) */
        public Builder maxUnprovenConnections(int n) {
            limits = limits.with(g -> g.maxUnprovenConnections = n);
            return this;
        }

        /** @return this, with {@link Limits#maxPeers()} set to {@code n} (a count) */
        public Builder maxPeers(int n) {
            limits = limits.with(g -> g.maxPeers = n);
            return this;
        }

        /** @return this, with {@link Limits#maxHeldPackets()} set to {@code packets} (packets) */
        public Builder maxHeldPackets(int packets) {
            limits = limits.with(g -> g.maxHeldPackets = packets);
            return this;
        }

        /** @return this, with {@link Limits#maxHeldBytes()} set to {@code bytes} (of each kind, endpoint-wide) */
        public Builder maxHeldBytes(long bytes) {
            limits = limits.with(g -> g.maxHeldBytes = bytes);
            return this;
        }

        /** @return this, with {@link Limits#maxHeldBytesPerPeer()} set to {@code bytes} (of each kind, per peer) */
        public Builder maxHeldBytesPerPeer(long bytes) {
            limits = limits.with(g -> g.maxHeldBytesPerPeer = bytes);
            return this;
        }

        /** @return this, with {@link Reaping#idleConnectionTimeNs()} set to {@code d} in ns */
        public Builder idleConnectionTime(Duration d) {
            reaping = reaping.with(g -> g.idleConnectionTimeNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link Reaping#idlePeerTimeNs()} set to {@code d} in ns */
        public Builder idlePeerTime(Duration d) {
            reaping = reaping.with(g -> g.idlePeerTimeNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link Reaping#reapIntervalNs()} set to {@code d} in ns */
        public Builder reapInterval(Duration d) {
            reaping = reaping.with(g -> g.reapIntervalNs = d.toNanos());
            return this;
        }

        /** @return this, with {@link DebugQueries#versionString()} set to {@code s} (a string) */
        public Builder versionString(String s) {
            debugQueries = debugQueries.with(g -> g.versionString = s);
            return this;
        }

        /** @return this, with {@link DebugQueries#debugReplies()} set to {@code policy} (a policy) */
        public Builder debugReplies(DebugReplies policy) {
            debugQueries = debugQueries.with(g -> g.debugReplies = policy);
            return this;
        }

        /** @return this, with {@link SocketBuffers#udpBufferBytes()} set to {@code bytes} (bytes) */
        public Builder udpBufferBytes(int bytes) {
            socketBuffers = socketBuffers.with(g -> g.udpBufferBytes = bytes);
            return this;
        }

        /**
         * @param on true for UDP GSO/GRO where the transport and kernel have them
         * @return this, with {@link SocketBuffers#segmentationOffload()} set to {@code on} (UDP GSO/GRO on the epoll
         *     transport)
         */
        public Builder segmentationOffload(boolean on) {
            socketBuffers = socketBuffers.with(g -> g.segmentationOffload = on);
            return this;
        }

        /**
         * @param on true to read with UDP GRO while segmentation offload is on; false to read in recvmmsg batches and
         *     still send with GSO (a receiver of single-packet datagrams, e.g. an OpenAFS fileserver's)
         * @return this, with {@link SocketBuffers#receiveOffload()} set to {@code on}
         */
        public Builder receiveOffload(boolean on) {
            socketBuffers = socketBuffers.with(g -> g.receiveOffload = on);
            return this;
        }

        /**
         * @param ns longest idle spin of the event loop after an exchange in which it sent small datagrams only, ns,
         *     0..{@link SocketBuffers#MAX_IDLE_SPIN_NS}; 0 = never spin (docs/transport.md "Idle spin")
         * @return this, with {@link SocketBuffers#idleSpinNs()} set to {@code ns}
         * @throws IllegalArgumentException if ns is out of range (this builder unchanged)
         */
        public Builder idleSpinNs(long ns) {
            socketBuffers = socketBuffers.with(g -> g.idleSpinNs = ns);
            return this;
        }

        /**
         * @param ns the time slice the event loop's thread asks the scheduler for, ns: 0 = the kernel's, else
         *     {@link SocketBuffers#MIN_SCHEDULER_SLICE_NS}..{@link SocketBuffers#MAX_SCHEDULER_SLICE_NS}
         *     (docs/transport.md "Scheduler slice")
         * @return this, with {@link SocketBuffers#schedulerSliceNs()} set to {@code ns}
         * @throws IllegalArgumentException if ns is out of range (this builder unchanged)
         */
        public Builder schedulerSliceNs(long ns) {
            socketBuffers = socketBuffers.with(g -> g.schedulerSliceNs = ns);
            return this;
        }

        /** @return the immutable configuration (every value was checked when it was set) */
        public RxConfig build() {
            return new RxConfig(windows, packetSize, ackPolicy, ackDelays, rto, congestion, timeouts, reachability,
                    limits, reaping, debugQueries, socketBuffers);
        }
    }
}
