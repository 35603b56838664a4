// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.peer;

import org.rx4j.config.Reachability;
import org.rx4j.config.RxConfig;
import java.net.InetSocketAddress;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.cc.CongestionController;
import org.rx4j.engine.cc.PathModel;
import org.rx4j.engine.output.BurstPacer;
import org.rx4j.engine.pmtu.PathMtuState;
import org.rx4j.engine.recovery.RttEstimator;
import org.rx4j.engine.security.HeldBytes;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.RxConstants;

/**
 * What the engine knows about one remote host:port, shared by all connections to it (OpenAFS
 * struct rx_peer): RTT/RTO, the MTU and jumbogram limits from its ACK trailers, its last rwind,
 * and reachability (rx-wire-facts.md §3, §6, §8). Owned by the engine's thread.
 */
public final class Peer {
    private final InetSocketAddress address;
    private final RttEstimator rtt;
    private final RxCounters counters = new RxCounters(RxCounter.Scope.CONNECTION);
    /** Congestion state shared by all calls to this peer: delivery rate, packets in flight, the BBR model. */
    public final PathModel path;
    /** The congestion controller of the most recent call that sent to this peer (statistics only), or null. */
    private CongestionController lastController;
    public int maxMtu = RxConstants.REMOTE_PACKET_SIZE;
    public int ifMtu = RxConstants.REMOTE_PACKET_SIZE;
    public int maxDgramPackets = 1;
    /**
     * Our interface MTU toward this peer less IP/UDP headers, bytes: what our ACK trailers advertise to it and the
     * largest packet we cut for it ({@code RxConfig.packetSize().localIfMtu}; docs/engine.md "Packet size").
     */
    private final int localIfMtu;
    /** Jumbogram sub-packets sent and advertised to this peer ({@code PacketSize.jumboLimit}), 1..46. */
    private final int jumboLimit;
    /** The maxMTU our ACK trailers advertise to this peer ({@code PacketSize.advertisedMaxMtu}), bytes. */
    private final int advertisedMaxMtu;
    public int lastRwind;
    /**
     * True when the peer's last full ACK trailer advertised jumbograms (maxDgramPackets above 1) and a maxMTU above its
     * ifMTU: it takes datagrams larger than its interface as jumbograms of base packets, as OpenAFS does (maxMTU =
     * ifMTU + (maxDgramPackets − 1) × 1416, rx-wire-facts.md §3, §5), and its receive window counts such packets
     * ({@link #bufferedPacketLimit}).
     */
    private boolean basePacketReceiver;
    /** True once the peer answered a reachability PING; then {@link #reachableUntilNs} is valid. */
    private boolean reachConfirmed;
    private long reachableUntilNs;
    public int connections;
    /** The congestion state calls to this peer hand on to the next (docs/engine.md "State carried between calls"). */
    public final CarriedWindow carried = new CarriedWindow();
    public long lastUsedNs;
    /** What the path to this peer is known to carry (path-MTU discovery, docs/engine.md "Packet size"). */
    private final PathMtuState pathMtu = new PathMtuState();
    /**
     * ABORT replies sent at once to one peer before they are paced (docs/robustness.md "Rule: packets that never create
     * a server call").
     */
    public static final int ABORT_REPLY_BURST = 10;
    /** Pace of ABORT replies to one peer past the burst: one per this many ns (10 a second). */
    public static final long ABORT_REPLY_INTERVAL_NS = 100_000_000L;
    /** Pacing of ABORT replies to this peer. */
    private final BurstPacer abortReplies = new BurstPacer(ABORT_REPLY_BURST, ABORT_REPLY_INTERVAL_NS);
    private long abortRepliesSuppressed;
    /**
     * Bytes rx4j may still send this peer while it is unproven (not {@link #isReachable}): {@link
     * Reachability#AMPLIFICATION_LIMIT} times what it sent while unproven, less what replies to it spent
     * (docs/robustness.md "Rule: unsolicited traffic, loops and amplification").
     */
    private long replyCredit;
    /** True once any packet came from this peer; then {@link #lastHeardNs} is valid. */
    private boolean heard;
    private long lastHeardNs;
    /**
     * Bytes kept for this peer now in server calls not yet started, and in DATA parked for its connections' security
     * handshakes (docs/robustness.md "Rule: a byte budget for what unproven sources leave"; {@link HeldBytes}).
     */
    public long heldCallBytes;
    public long parkedBytes;
    /**
     * Largest packet (header + body, bytes) received from this peer while it was proven reachable; 0 before any.
     * Outlives the reachability TTL: a client returning later may start its calls at this size (docs/robustness.md
     * "Rule: a byte budget for what unproven sources leave").
     */
    private int provenReceivedSize;
    /** Datagrams from this address that did not decode as Rx. */
    private long notRxDatagrams;

    /**
     * A peer on a route of unknown MTU: OpenAFS's 1,444-byte interface and its jumbogram habit
     * ({@link org.rx4j.config.PacketSize#jumboLimit} of 0).
     *
     * @param address the peer's host:port
     * @param config this endpoint's configuration
     */
    public Peer(InetSocketAddress address, RxConfig config) {
        this(address, config, config.packetSize().localIfMtu(RxConstants.REMOTE_PACKET_SIZE), 0);
    }

    /**
     * @param address the peer's host:port
     * @param config this endpoint's configuration
     * @param ifMtu our interface MTU toward the peer, bytes ({@link org.rx4j.config.PacketSize#peerIfMtu}: the
     *     route's, or the configuration's fixed {@code ifMtu})
     * @param routeJumbo jumbogram sub-packets the route carries unfragmented
     *     ({@link org.rx4j.config.PacketSize#jumbogramsFitting}), 0 = unknown route
     */
    public Peer(InetSocketAddress address, RxConfig config, int ifMtu, int routeJumbo) {
        this.address = address;
        this.localIfMtu = ifMtu;
        this.jumboLimit = config.packetSize().jumboLimit(routeJumbo);
        this.advertisedMaxMtu = config.packetSize().advertisedMaxMtu(localIfMtu, jumboLimit);
        this.path = new PathModel(address.hashCode() * 0x9E3779B97F4A7C15L + 1);
        this.rtt = new RttEstimator(config.rto().initialRttNs(), config.rto().minRtoNs(), config.rto().rtoSlackNs(),
                config.rto().maxRtoNs());
    }

    /**
     * Paces the ABORTs sent in answer to this peer's packets (for a call that already failed, an unknown packet
     * type): the first {@link #ABORT_REPLY_BURST} go at once, then one per {@link #ABORT_REPLY_INTERVAL_NS}
     * (OpenAFS likewise delays a call's repeated aborts after 10). ABORTs the application or a timer sends are
     * not paced.
     *
     * @param now current time, ns
     * @return true when an ABORT reply may be sent now; false counts it as suppressed
     */
    public boolean allowAbortReply(long now) {
        if (!abortReplies.allow(now)) {
            abortRepliesSuppressed++;
            return false;
        }
        return true;
    }

    /**
     * Notes a packet of a connection to this peer: its bytes are counted, and credited toward what rx4j may send back
     * before the peer proves reachable ({@link Reachability#AMPLIFICATION_LIMIT} times what it sent); the peer is heard
     * from now
     * ({@link #heardFrom}).
     *
     * @param now current time, ns
     * @param bytes bytes received from the peer (header + body)
     */
    public void onReceived(long now, int bytes) {
        counters.add(RxCounter.BYTES_RECEIVED, bytes);
        if (!isReachable(now)) {
            replyCredit += (long) Reachability.AMPLIFICATION_LIMIT * bytes;
        } else if (bytes > provenReceivedSize) {
            provenReceivedSize = bytes;
        }
        heardFrom(now);
    }

    /**
     * @return the largest packet (header + body) received from this peer while it was proven reachable, bytes, 0
     *     before any; kept past the reachability TTL
     */
    public int provenReceivedSize() {
        return provenReceivedSize;
    }

    /** @return bytes rx4j may still send back to an unproven peer (3 × what it sent, less what replies spent) */
    public long replyCredit() {
        return replyCredit;
    }

    /**
     * Notes a packet from this peer; it counts as used now (the reaper keeps it).
     *
     * @param now current time, ns
     */
    public void heardFrom(long now) {
        heard = true;
        lastHeardNs = now;
        lastUsedNs = now;
    }

    /**
     * @param t a time, ns (engine clock)
     * @return true when a packet came from this peer after {@code t}
     */
    public boolean heardSince(long t) {
        return heard && lastHeardNs - t > 0;
    }

    /**
     * Notes a datagram from this peer's address that did not decode as Rx (another service answering on that port).
     */
    public void notRxReceived() {
        notRxDatagrams++;
    }

    /** @return datagrams from this peer's address that did not decode as Rx, so far */
    public long notRxDatagrams() {
        return notRxDatagrams;
    }

    /**
     * Spends {@code bytes} of the reply credit of an unproven peer: a reply to a peer that has not proved reachable
     * goes out only when {@link Reachability#AMPLIFICATION_LIMIT} times what the peer sent covers it, with what earlier
     * replies spent (docs/robustness.md "Rule: unsolicited traffic, loops and amplification").
     *
     * @param bytes size of the reply, header + body, bytes
     * @return true when the reply may go out (the credit is reduced by {@code bytes}); false when the credit does not
     *     cover it (nothing is spent)
     */
    public boolean spendReplyCredit(int bytes) {
        if (replyCredit < bytes) {
            return false;
        }
        replyCredit -= bytes;
        return true;
    }

    /** @return ABORT replies to this peer left unsent by {@link #allowAbortReply} */
    public long abortRepliesSuppressed() {
        return abortRepliesSuppressed;
    }

    /**
     * @param now current time, ns
     * @return true when the peer answered a reachability PING less than the reachability TTL ago (§6.2)
     */
    public boolean isReachable(long now) {
        // A flag, not a sentinel time: "now - Long.MIN_VALUE" overflows and would read as reachable.
        return reachConfirmed && now - reachableUntilNs < 0;
    }

    /**
     * Records a reachability proof (a PING_RESPONSE).
     *
     * @param untilNs time, ns, until which no new reachability PING is needed
     */
    public void markReachable(long untilNs) {
        reachConfirmed = true;
        reachableUntilNs = untilNs;
    }

    /** @return the peer's UDP address */
    public InetSocketAddress address() {
        return address;
    }

    /** @return the peer's RTT/RTO estimator */
    public RttEstimator rtt() {
        return rtt;
    }

    /** @return the congestion state all calls to this peer share (delivery rate, BBR model); read-only use */
    public PathModel path() {
        return path;
    }

    /** @return the congestion controller of the most recent call that sent to this peer (read-only use), or null */
    public CongestionController congestion() {
        return lastController;
    }

    public void congestion(CongestionController cc) {
        lastController = cc;
    }

    /** @return counters of traffic with this peer */
    public RxCounters counters() {
        return counters;
    }

    /** @return largest packet the peer accepts (trailer maxMTU, clamped), bytes */
    public int maxMtu() {
        return maxMtu;
    }

    /** @return the peer's interface MTU (trailer ifMTU, clamped), bytes */
    public int ifMtu() {
        return ifMtu;
    }

    /** @return our interface MTU toward this peer less IP/UDP headers (trailer ifMTU we advertise to it), bytes */
    public int localIfMtu() {
        return localIfMtu;
    }

    /** @return the maxMTU our ACK trailers advertise to this peer ({@code PacketSize.advertisedMaxMtu}), bytes */
    public int advertisedMaxMtu() {
        return advertisedMaxMtu;
    }

    /**
     * @return jumbogram sub-packets sent to this peer at most and advertised to it (trailer maxDgramPackets): the
     *     configured jumboMax, capped by what the route carries without IP fragments, 1..46
     */
    public int jumboLimit() {
        return jumboLimit;
    }

    /**
     * maxDgramPackets our ACK trailers advertise to this peer: {@link #jumboLimit}, but 1 toward a sender that cuts
     * jumbograms of base packets ({@link #basePacketReceiver}, OpenAFS) when its interface and ours are both wider than
     * Ethernet (its trailer ifMTU and our {@link #localIfMtu} above 1,444 bytes, e.g. a 9,000-byte link). Told 1, such
     * a sender cuts single packets of its natMTU, min(our ifMTU, its own) rounded down to 1,444 + n × 1,416 bytes
     * (rx-wire-facts.md §3 "Trailer use", §4): on a 9,000-byte link one 8,524-byte packet where it sent a jumbogram of
     * six 1,444-byte packets, the same bytes per datagram in a sixth of the packets for both ends to handle, and its
     * window of 32 packets then holds 32 such packets; it starts each call with one packet in place of one jumbogram,
     * the same bytes. Where either side's interface is Ethernet-size (OpenAFS's loopback and Ethernet routes say 1,444)
     * its natMTU would be 1,444, so jumbograms are kept (docs/engine.md "Jumbogram size and windows toward OpenAFS").
     *
     * @return sub-packets, 1..46
     */
    public int advertisedDgramPackets() {
        boolean wideBothWays = localIfMtu > RxConstants.REMOTE_PACKET_SIZE && ifMtu > RxConstants.REMOTE_PACKET_SIZE;
        return basePacketReceiver && wideBothWays ? 1 : jumboLimit;
    }

    /**
     * The largest packet worth probing for toward this peer: min(what it accepts, our own
     * {@code RxConfig.packetSize().largestPacket(localIfMtu)}), where what it accepts is its trailer maxMTU for a peer
     * that buffers jumbograms of base packets ({@link #basePacketReceiver}, OpenAFS: maxMTU is the largest packet its
     * receive path takes, rx-wire-facts.md §3) and min(maxMTU, ifMTU) otherwise. Our own route's size bounds it, so no
     * packet is larger than our interface toward the peer (no IP fragments): OpenAFS advertises ifMTU 1444 on Ethernet
     * and on loopback alike, and gets single packets up to its maxMTU (5,692) only where our route carries them
     * whole, e.g. loopback, in place of 4-packet jumbograms of the same bytes; nothing above 1444 before its first
     * ACK trailer. The bytes in flight toward it stay capped ({@link #bufferedPacketLimit}), so this changes how a
     * window's bytes are packed, not how many there are.
     *
     * @param config this endpoint's configuration
     * @return bytes; at most {@link RxConstants#REMOTE_PACKET_SIZE} means "no large packets"
     */
    public int largePacketTarget(RxConfig config) {
        int accepted = basePacketReceiver ? maxMtu : Math.min(maxMtu, ifMtu);
        return Math.min(accepted, config.packetSize().largestPacket(localIfMtu));
    }

    /**
     * Rx packet size (header + data) a call to this peer cuts its data into now: the proven size, if the peer still
     * advertises room for it, else the configured default (1440 with jumbograms, rx-wire-facts.md §4), capped by the
     * path's limit ({@link PathMtuState#packetDataSize}).
     *
     * @param config this endpoint's configuration
     * @return data bytes per DATA packet (rxnull: packet size - 28)
     */
    public int packetDataSize(RxConfig config) {
        return pathMtu.packetDataSize(largePacketTarget(config), config.packetSize().packetDataSize());
    }

    /**
     * @param config this endpoint's configuration
     * @return the Rx packet size (header + data, bytes) calls to this peer would cut with no path-MTU limit: what an
     *     upward probe tries
     */
    public int usualPacketSize(RxConfig config) {
        return pathMtu.usualPacketSize(largePacketTarget(config), config.packetSize().packetDataSize());
    }

    /** @return what the path to this peer is known to carry, and its probe schedules */
    public PathMtuState pathMtuState() {
        return pathMtu;
    }

    /**
     * @return the largest Rx packet (header + data) the path carried when a probe ladder last found it narrower than
     *     the packets sent, bytes; {@link Integer#MAX_VALUE} while no such limit is known
     */
    public int pathMtu() {
        return pathMtu.pathMtu();
    }

    /** @return the largest packet a padded PING proved the path carries (1444 until one did), bytes */
    public int provenPacketSize() {
        return pathMtu.provenPacketSize();
    }

    /** @return most jumbogram sub-packets the peer accepts and we will send it, 1..46 */
    public int maxDgramPackets() {
        return maxDgramPackets;
    }

    /** @return the receive window the peer last advertised in an ACK trailer, packets (0 before any) */
    public int lastRwind() {
        return lastRwind;
    }

    /**
     * @return true when the peer's ACK trailers say it buffers jumbograms of base packets rather than large packets
     *     (OpenAFS's trailer: maxDgramPackets above 1 and maxMTU above ifMTU)
     */
    public boolean basePacketReceiver() {
        return basePacketReceiver;
    }

    /**
     * Most packets of {@code packetBytes} each in flight toward this peer that its receive window covers in bytes. A
     * receiver that advertises jumbograms of base packets ({@link #basePacketReceiver}) sizes its receive socket for
     * its rwind in base packets of {@link RxConstants#REMOTE_PACKET_SIZE} bytes (OpenAFS's own sender keeps 32 packets
     * of 1,412 data bytes in flight, and its socket buffer is 64 KiB by default): packets larger than that count for
     * their bytes, so rwind × 1,444 bytes in flight at most (docs/engine.md "Windows toward OpenAFS"). Other
     * receivers, and packets of at most 1,444 bytes, are limited by rwind in packets alone.
     *
     * @param packetBytes the Rx packet size on the wire (header + data), bytes
     * @return packets, at least 1; {@link Integer#MAX_VALUE} when no byte limit applies
     */
    public int bufferedPacketLimit(int packetBytes) {
        if (!basePacketReceiver || packetBytes <= RxConstants.REMOTE_PACKET_SIZE) {
            return Integer.MAX_VALUE;
        }
        int rwind = lastRwind > 0 ? lastRwind : RxConfig.INITIAL_WINDOW;
        return Math.max(1, (int) ((long) rwind * RxConstants.REMOTE_PACKET_SIZE / packetBytes));
    }

    /** @return connections currently using this peer */
    public int connectionCount() {
        return connections;
    }

    /**
     * Applies an ACK trailer (rx-wire-facts.md §3 "Trailer use"): MTUs clamped to 520..65535 (a
     * value below the header size, or above 2^31 - 1 read unsigned, is ignored), maxDgramPackets clamped to
     * 1..min(46, own jumboMax) (read unsigned: 0xFFFFFFFF is "many", not −1).
     *
     * @param words trailer words present (2, 3 or 4)
     * @param maxMtuValue advertised maxMTU, bytes (unsigned 32-bit)
     * @param ifMtuValue advertised ifMTU, bytes (unsigned 32-bit)
     * @param maxDgram advertised maxDgramPackets (unsigned 32-bit; used only when words is 4)
     * @param ownJumboMax this endpoint's own jumbogram limit
     * @return true when a value lay outside the protocol's range (MTU outside 520..65535, maxDgramPackets outside
     *     1..47) and was clamped or ignored (docs/robustness.md "Rule: ACK trailers out of range")
     */
    public boolean applyTrailer(int words, int maxMtuValue, int ifMtuValue, int maxDgram, int ownJumboMax) {
        if (words < 2) {
            return false;
        }
        boolean clamped = !mtuInRange(maxMtuValue) || !mtuInRange(ifMtuValue);
        if (maxMtuValue >= RxConstants.HEADER_SIZE) {
            maxMtu = clamp(maxMtuValue, RxConstants.MIN_PACKET_SIZE, RxConstants.MAX_DATAGRAM_SIZE);
        }
        if (ifMtuValue >= RxConstants.HEADER_SIZE) {
            ifMtu = clamp(ifMtuValue, RxConstants.MIN_PACKET_SIZE, RxConstants.MAX_DATAGRAM_SIZE);
        }
        if (words >= 4) {
            clamped |= maxDgram < 1 || maxDgram > RxConstants.MAX_JUMBO_PACKETS;
            // Negative as int = above 2^31 unsigned: as many as we allow.
            int d = maxDgram < 0 ? Integer.MAX_VALUE : maxDgram;
            maxDgramPackets = clamp(d, 1, Math.min(46, ownJumboMax));
            basePacketReceiver = d > 1 && maxMtu > ifMtu;
        }
        return clamped;
    }

    private static boolean mtuInRange(int v) {
        return v >= RxConstants.MIN_PACKET_SIZE && v <= RxConstants.MAX_DATAGRAM_SIZE;
    }

    private static int clamp(int v, int lo, int hi) {
        return v < lo ? lo : Math.min(v, hi);
    }
}
