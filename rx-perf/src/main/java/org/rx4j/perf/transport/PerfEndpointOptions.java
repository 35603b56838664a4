// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.transport;

import java.util.Objects;
import org.rx4j.config.PacketSize;
import org.rx4j.config.SocketBuffers;
import org.rx4j.config.TransportKind;

/**
 * Every Rx tunable rxperf's flags set, for one endpoint (client or server). Immutable; the adapter maps each
 * field onto rx4j's endpoint configuration. Zero means "the library default" where stated.
 *
 * @param twind maximum send window in packets (OpenAFS rx_maxSendWindow), 1..255, or 0 for the default (32);
 *     {@code -W} or {@code --twind} (rx-wire-facts.md §5, §8 last bullet)
 * @param rwind maximum receive window in packets (rx_maxReceiveWindow), 1..255, or 0 for the default (32);
 *     {@code -W} or {@code --rwind}
 * @param jumbo whether jumbograms are sent and accepted; false with {@code -j} (rx_SetNoJumbo: advertise
 *     maxDgramPackets 1, rx-wire-facts.md §10)
 * @param jumboMax most DATA packets per jumbogram this endpoint sends and advertises, 1..46
 *     ({@code --jumbo-max}, default 6; the engine caps it per peer by the route; rx-wire-facts.md §4)
 * @param maxMtu largest Rx packet in bytes (header + data), 520..65535, or 0 for the default: as large as the
 *     route to each peer carries ({@code -m}, rx_SetMaxMTU)
 * @param udpBufferBytes UDP socket send and receive buffer in bytes, or 0 to size it from the windows
 *     ({@code -u} KiB × 1024)
 * @param minPeerTimeoutMs floor of the retransmission timeout in ms (rx_minPeerTimeout), 1..999 ({@code -P},
 *     default 20; rx-wire-facts.md §8)
 * @param hardAcksOnly true to make the receiver's acks hard only, never soft-acking out-of-order data
 *     ({@code --hard-acks-only})
 * @param transport socket implementation ({@code --transport})
 * @param minProcs server threads reserved for the service, 0..1024 ({@code server -s}, default 2); the client
 *     ignores it
 * @param maxProcs most server calls run at once, 1..1024, at least minProcs ({@code server -S}, default 20);
 *     the client ignores it
 * @param statistics whether Rx statistics are collected; false with {@code -N} (then {@code stats()} is empty)
 * @param congestionControl the sender's congestion controller, "newreno" (default) or "bbr" ({@code --cc})
 * @param debugReplies which rxdebug (DEBUG/VERSION) queries the endpoint answers, one of {@link #DEBUG_REPLIES}
 *     ({@code --debug-replies}; "loopback" = the library default, RxConfig.debugQueries().debugReplies(),
 *     docs/robustness.md "Rule: unsolicited traffic, loops and amplification")
 * @param segmentationOffload whether an epoll socket sends runs of equal-size datagrams with UDP GSO and reads with
 *     UDP GRO where the kernel has them (default); false with {@code --no-gso} (docs/transport.md "Segmentation
 *     offload")
 * @param fragmentJumbograms true with {@code --fragment-jumbograms}: jumbograms larger than the route's interface
 *     carries, fragmented by IP, as OpenAFS sends them; false (default): none larger (docs/engine.md "Packet size")
 * @param idleSpinUs how long the event loop polls its socket without sleeping after an exchange of small datagrams,
 *     µs, 0..{@link #MAX_IDLE_SPIN_US} ({@code --spin-us}, rxperf's default {@link #DEFAULT_IDLE_SPIN_US}; 0 = block
 *     at once, the library's default; docs/transport.md "Idle spin")
 * @param schedulerSliceUs the time slice the event loop's thread asks Linux's scheduler for, µs, 0 or
 *     {@link #MIN_SCHEDULER_SLICE_US}..{@link #MAX_SCHEDULER_SLICE_US} ({@code --slice-us}; rxperf's default
 *     {@link #SERVER_SCHEDULER_SLICE_US} for a server, 0 for a client; 0 = the kernel's, the library's default;
 *     docs/transport.md "Scheduler slice")
 * @param receiveOffload whether an epoll socket with segmentation offload reads with UDP GRO (default); false with
 *     {@code --no-gro}: reads in recvmmsg batches of 8, faster against OpenAFS peers, whose datagrams GRO never
 *     coalesces (docs/transport.md "Segmentation offload")
 */
public record PerfEndpointOptions(
        int twind,
        int rwind,
        boolean jumbo,
        int jumboMax,
        int maxMtu,
        int udpBufferBytes,
        int minPeerTimeoutMs,
        boolean hardAcksOnly,
        TransportKind transport,
        int minProcs,
        int maxProcs,
        boolean statistics,
        String congestionControl,
        String debugReplies,
        boolean segmentationOffload,
        boolean fragmentJumbograms,
        int idleSpinUs,
        int schedulerSliceUs,
        boolean receiveOffload) {

    /** rxperf's idle spin when {@code --spin-us} is not given, µs (docs/transport.md "Idle spin"). */
    public static final int DEFAULT_IDLE_SPIN_US = 1000;
    /** Largest {@link #idleSpinUs()}, µs: the library's bound. */
    public static final int MAX_IDLE_SPIN_US = (int) (SocketBuffers.MAX_IDLE_SPIN_NS / 1000);
    /**
     * rxperf's scheduler slice for a server's loop when {@code --slice-us} is not given, µs; a client's is 0, the
     * kernel's (docs/transport.md "Scheduler slice").
     */
    public static final int SERVER_SCHEDULER_SLICE_US = 100;
    /** Smallest {@link #schedulerSliceUs()} other than 0, µs: the library's bound. */
    public static final int MIN_SCHEDULER_SLICE_US = (int) (SocketBuffers.MIN_SCHEDULER_SLICE_NS / 1000);
    /** Largest {@link #schedulerSliceUs()}, µs: the library's bound. */
    public static final int MAX_SCHEDULER_SLICE_US = (int) (SocketBuffers.MAX_SCHEDULER_SLICE_NS / 1000);

    /**
     * With UDP GRO where segmentation offload is on (the library default).
     *
     * @throws IllegalArgumentException naming the first field out of range
     */
    public PerfEndpointOptions(int twind, int rwind, boolean jumbo, int jumboMax, int maxMtu, int udpBufferBytes,
            int minPeerTimeoutMs, boolean hardAcksOnly, TransportKind transport, int minProcs, int maxProcs,
            boolean statistics, String congestionControl, String debugReplies, boolean segmentationOffload,
            boolean fragmentJumbograms, int idleSpinUs, int schedulerSliceUs) {
        this(twind, rwind, jumbo, jumboMax, maxMtu, udpBufferBytes, minPeerTimeoutMs, hardAcksOnly, transport,
                minProcs, maxProcs, statistics, congestionControl, debugReplies, segmentationOffload,
                fragmentJumbograms, idleSpinUs, schedulerSliceUs, true);
    }

    /**
     * With the kernel's scheduler slice.
     *
     * @throws IllegalArgumentException naming the first field out of range
     */
    public PerfEndpointOptions(int twind, int rwind, boolean jumbo, int jumboMax, int maxMtu, int udpBufferBytes,
            int minPeerTimeoutMs, boolean hardAcksOnly, TransportKind transport, int minProcs, int maxProcs,
            boolean statistics, String congestionControl, String debugReplies, boolean segmentationOffload,
            boolean fragmentJumbograms, int idleSpinUs) {
        this(twind, rwind, jumbo, jumboMax, maxMtu, udpBufferBytes, minPeerTimeoutMs, hardAcksOnly, transport,
                minProcs, maxProcs, statistics, congestionControl, debugReplies, segmentationOffload,
                fragmentJumbograms, idleSpinUs, 0);
    }

    /**
     * With rxperf's default idle spin.
     *
     * @throws IllegalArgumentException naming the first field out of range
     */
    public PerfEndpointOptions(int twind, int rwind, boolean jumbo, int jumboMax, int maxMtu, int udpBufferBytes,
            int minPeerTimeoutMs, boolean hardAcksOnly, TransportKind transport, int minProcs, int maxProcs,
            boolean statistics, String congestionControl, String debugReplies, boolean segmentationOffload,
            boolean fragmentJumbograms) {
        this(twind, rwind, jumbo, jumboMax, maxMtu, udpBufferBytes, minPeerTimeoutMs, hardAcksOnly, transport,
                minProcs, maxProcs, statistics, congestionControl, debugReplies, segmentationOffload,
                fragmentJumbograms, DEFAULT_IDLE_SPIN_US);
    }

    /**
     * Without {@code --fragment-jumbograms}.
     *
     * @throws IllegalArgumentException naming the first field out of range
     */
    public PerfEndpointOptions(int twind, int rwind, boolean jumbo, int jumboMax, int maxMtu, int udpBufferBytes,
            int minPeerTimeoutMs, boolean hardAcksOnly, TransportKind transport, int minProcs, int maxProcs,
            boolean statistics, String congestionControl, String debugReplies, boolean segmentationOffload) {
        this(twind, rwind, jumbo, jumboMax, maxMtu, udpBufferBytes, minPeerTimeoutMs, hardAcksOnly, transport,
                minProcs, maxProcs, statistics, congestionControl, debugReplies, segmentationOffload, false);
    }

    /** The words {@code --debug-replies} accepts: always, loopback (the default), no-amplification, never. */
    public static final java.util.List<String> DEBUG_REPLIES =
            java.util.List.of("always", "loopback", "no-amplification", "never");

    /**
     * The options with segmentation offload on (the library default).
     *
     * @throws IllegalArgumentException naming the first field out of range
     */
    public PerfEndpointOptions(int twind, int rwind, boolean jumbo, int jumboMax, int maxMtu, int udpBufferBytes,
            int minPeerTimeoutMs, boolean hardAcksOnly, TransportKind transport, int minProcs, int maxProcs,
            boolean statistics, String congestionControl, String debugReplies) {
        this(twind, rwind, jumbo, jumboMax, maxMtu, udpBufferBytes, minPeerTimeoutMs, hardAcksOnly, transport,
                minProcs, maxProcs, statistics, congestionControl, debugReplies, true);
    }

    /**
     * The options with the default rxdebug policy ("loopback").
     *
     * @throws IllegalArgumentException naming the first field out of range
     */
    public PerfEndpointOptions(int twind, int rwind, boolean jumbo, int jumboMax, int maxMtu, int udpBufferBytes,
            int minPeerTimeoutMs, boolean hardAcksOnly, TransportKind transport, int minProcs, int maxProcs,
            boolean statistics, String congestionControl) {
        this(twind, rwind, jumbo, jumboMax, maxMtu, udpBufferBytes, minPeerTimeoutMs, hardAcksOnly, transport,
                minProcs, maxProcs, statistics, congestionControl, "loopback");
    }

    /** The congestion controllers {@code --cc} accepts. */
    public static final java.util.List<String> CONGESTION_CONTROLS = java.util.List.of("newreno", "bbr");

    /**
     * The options with the default congestion controller (NewReno).
     *
     * @throws IllegalArgumentException naming the first field out of range
     */
    public PerfEndpointOptions(int twind, int rwind, boolean jumbo, int jumboMax, int maxMtu, int udpBufferBytes,
            int minPeerTimeoutMs, boolean hardAcksOnly, TransportKind transport, int minProcs, int maxProcs,
            boolean statistics) {
        this(twind, rwind, jumbo, jumboMax, maxMtu, udpBufferBytes, minPeerTimeoutMs, hardAcksOnly, transport,
                minProcs, maxProcs, statistics, "newreno");
    }

    /** Largest window any Rx endpoint may use, in packets (RX_MAXACKS, rx-wire-facts.md §5). */
    public static final int MAX_WINDOW = 255;
    /**
     * Default {@link #jumboMax()}: 6 packets per jumbogram, OpenAFS's RX_MAX_DGRAM_PACKETS (§4); the engine caps it per
     * peer by the route (4 with fragments on Ethernet, as OpenAFS; none without).
     */
    public static final int DEFAULT_JUMBO_MAX = PacketSize.DEFAULT_JUMBO_MAX;
    /** Largest {@link #jumboMax()}: 46 sub-packets fit one 65,535-byte UDP datagram (§4). */
    public static final int MAX_JUMBO_MAX = 46;
    /** Smallest {@link #maxMtu()}, bytes (RX_MIN_PACKET_SIZE). */
    public static final int MIN_MTU = 520;
    /**
     * Largest {@link #maxMtu()}, bytes: the UDP length field's limit. OpenAFS's rx_SetMaxMTU stops at 16,356; rx4j
     * peers use packets up to what the route carries (65,507 bytes over IPv4 loopback; docs/engine.md "Packet size").
     */
    public static final int MAX_MTU = 65535;
    /** Default {@link #minPeerTimeoutMs()}, ms (rx_minPeerTimeout). */
    public static final int DEFAULT_MIN_PEER_TIMEOUT_MS = 20;
    /** Default {@link #minProcs()} of OpenAFS rxperf's server. */
    public static final int DEFAULT_MIN_PROCS = 2;
    /** Default {@link #maxProcs()} of OpenAFS rxperf's server. */
    public static final int DEFAULT_MAX_PROCS = 20;
    /** Largest {@link #maxProcs()} rx4j accepts. */
    public static final int MAX_PROCS = 1024;

    /**
     * Checks every range.
     *
     * @throws IllegalArgumentException naming the first field out of range
     * @throws NullPointerException if {@code transport} is null
     */
    public PerfEndpointOptions {
        Objects.requireNonNull(transport, "transport");
        if (!DEBUG_REPLIES.contains(debugReplies)) {
            throw new IllegalArgumentException("debugReplies must be one of " + DEBUG_REPLIES + ", got " + debugReplies);
        }
        if (!CONGESTION_CONTROLS.contains(congestionControl)) {
            throw new IllegalArgumentException("congestionControl must be one of " + CONGESTION_CONTROLS + ", got "
                    + congestionControl);
        }
        checkRange("twind", twind, 0, MAX_WINDOW);
        checkRange("rwind", rwind, 0, MAX_WINDOW);
        checkRange("jumboMax", jumboMax, 1, MAX_JUMBO_MAX);
        if (maxMtu != 0) {
            checkRange("maxMtu", maxMtu, MIN_MTU, MAX_MTU);
        }
        checkRange("udpBufferBytes", udpBufferBytes, 0, Integer.MAX_VALUE);
        checkRange("minPeerTimeoutMs", minPeerTimeoutMs, 1, 999);
        checkRange("minProcs", minProcs, 0, MAX_PROCS);
        checkRange("maxProcs", maxProcs, 1, MAX_PROCS);
        checkRange("idleSpinUs", idleSpinUs, 0, MAX_IDLE_SPIN_US);
        if (schedulerSliceUs != 0) {
            checkRange("schedulerSliceUs", schedulerSliceUs, MIN_SCHEDULER_SLICE_US, MAX_SCHEDULER_SLICE_US);
        }
        if (minProcs > maxProcs) {
            throw new IllegalArgumentException("minProcs " + minProcs + " > maxProcs " + maxProcs);
        }
    }

    /**
     * The options rxperf uses when no flag is given: library windows, jumbograms on (up to 6 per datagram), default
     * MTU, auto UDP buffer, 20 ms min peer timeout, soft acks, auto (epoll where it loads), 2..20 server threads, statistics on.
     *
     * @return the defaults
     */
    public static PerfEndpointOptions defaults() {
        return new PerfEndpointOptions(0, 0, true, DEFAULT_JUMBO_MAX, 0, 0, DEFAULT_MIN_PEER_TIMEOUT_MS, false,
                TransportKind.AUTO, DEFAULT_MIN_PROCS, DEFAULT_MAX_PROCS, true);
    }

    private static void checkRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " " + value + " is not in " + min + ".." + max);
        }
    }
}
