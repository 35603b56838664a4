// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.util.function.Consumer;
import org.rx4j.wire.RxConstants;

/**
 * How large the packets and datagrams of this endpoint may be, and what the ACK trailer advertises about them
 * (rx-wire-facts.md §4 "Jumbograms" and §5 "Sizes and windows"; docs/engine.md "Packet size").
 *
 * <p>The interface MTU is per peer: with {@code ifMtu} 0 (the default) the endpoint asks the transport for the MTU
 * of the interface the route to each peer leaves by and takes that less the IP and UDP headers (28 bytes for IPv4,
 * 48 for IPv6), capped by the largest UDP payload; an interface of at most 1,500 bytes (Ethernet, or unknown) counts
 * as OpenAFS's 1,444, so nothing changes on such paths. Loopback (MTU 65,536) gives 65,507-byte packets over IPv4.
 *
 * @param jumboMax most jumbogram sub-packets advertised and sent, 1..46 (default 6, OpenAFS's RX_MAX_DGRAM_PACKETS);
 *     1 = no jumbograms (rxperf -j); toward each peer capped by what its route carries (`jumboLimit`)
 * @param maxMtu largest Rx packet (header + data) this endpoint sends or accepts in one piece, bytes, 520..65535
 *     (default 65535: as large as the route allows; rxperf -m)
 * @param ifMtu interface MTU less IP/UDP overhead, bytes, advertised in the ACK trailer: 0 = from the route to each
 *     peer (default), else 520..65535 for every peer
 * @param fragmentJumbograms true to send and invite jumbograms larger than the route's interface carries, as OpenAFS
 *     does (the IP layer fragments them; a lost fragment loses the whole jumbogram); false (default): jumbograms only
 *     up to the route's interface MTU, so none on an Ethernet-size route (docs/engine.md "Packet size")
 */
public record PacketSize(int jumboMax, int maxMtu, int ifMtu, boolean fragmentJumbograms) {
    /** The default {@link #jumboMax()}: OpenAFS's RX_MAX_DGRAM_PACKETS, 6 (rx-wire-facts.md §4). */
    public static final int DEFAULT_JUMBO_MAX = RxConstants.MAX_DGRAM_PACKETS;
    /** Jumbograms of up to six packets where the route carries them; packets as large as the route carries. */
    public static final PacketSize DEFAULTS =
            new PacketSize(DEFAULT_JUMBO_MAX, RxConstants.MAX_DATAGRAM_SIZE, 0, false);

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public PacketSize {
        SettingCheck.range("jumboMax", jumboMax, 1, 46);
        SettingCheck.range("maxMtu", maxMtu, 520, 65535);
        if (ifMtu != 0) {
            SettingCheck.range("ifMtu", ifMtu, 520, 65535);
        }
    }

    /**
     * Without IP fragmentation of jumbograms (the default).
     *
     * @param jumboMax as the component
     * @param maxMtu as the component
     * @param ifMtu as the component
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public PacketSize(int jumboMax, int maxMtu, int ifMtu) {
        this(jumboMax, maxMtu, ifMtu, false);
    }

    /**
     * Most jumbogram sub-packets one datagram may hold toward a peer whose route leaves by an interface of
     * {@code interfaceMtu} bytes without being fragmented: (payload − 28 − 1412) / 1416 + 1 with payload the MTU less
     * the IP and UDP headers (rx-wire-facts.md §4, §5): 1 on a 1,500-byte interface, 6 on 9,000, 46 on loopback.
     *
     * @param interfaceMtu the route's interface MTU, bytes (IP packet size); 0 = unknown
     * @param ipv6 whether the peer is an IPv6 address
     * @return sub-packets, 1..46; 0 when the route is unknown ({@link #jumboLimit} then keeps OpenAFS's habit)
     */
    public static int jumbogramsFitting(int interfaceMtu, boolean ipv6) {
        if (interfaceMtu <= 0) {
            return 0;
        }
        int payload = udpPayload(interfaceMtu, ipv6);
        int first = RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE;
        return payload < first ? 1
                : Math.min(RxConstants.MAX_FULL_JUMBO_PACKETS, (payload - first) / RxConstants.JUMBO_STRIDE + 1);
    }

    /**
     * Most jumbogram sub-packets sent to and advertised to (trailer maxDgramPackets) a peer, at most jumboMax: what its
     * route carries unfragmented (6 on a 9,000-byte interface, 1 on Ethernet); with {@link #fragmentJumbograms()}, as
     * OpenAFS, what fits {@link RxConstants#MAX_FRAGS} IP fragments (4 on Ethernet); on a route the transport cannot
     * see, OpenAFS's 4 either way (rx-wire-facts.md §4; docs/engine.md "Packet size").
     *
     * @param routeFit {@link #jumbogramsFitting} for the peer's route, 0 = unknown
     * @return sub-packets, 1..46
     */
    public int jumboLimit(int routeFit) {
        if (routeFit <= 0) {
            return Math.min(jumboMax, RxConstants.MAX_FRAGS);
        }
        return Math.min(jumboMax, fragmentJumbograms ? RxConstants.MAX_FRAGS * routeFit : routeFit);
    }

    /**
     * Data bytes per DATA packet before a larger size is proven toward a peer: 1412 with jumbograms (a jumbogram's
     * sub-packet, §4), else min(maxMtu, 1444 or the fixed ifMtu) − 28.
     *
     * @return bytes
     */
    public int packetDataSize() {
        int mtu = Math.min(maxMtu, ifMtu == 0 ? RxConstants.REMOTE_PACKET_SIZE : ifMtu);
        if (jumboMax > 1 && mtu >= RxConstants.HEADER_SIZE + 1412) {
            return 1412;
        }
        return mtu - RxConstants.HEADER_SIZE;
    }

    /**
     * The interface MTU this endpoint advertises to, and cuts packets for, one peer: the fixed {@link #ifMtu()} when
     * set, else the route's.
     *
     * @param routeIfMtu the route's interface MTU less IP/UDP headers, bytes (see {@link #fromRoute})
     * @return bytes, 520..65535
     */
    public int localIfMtu(int routeIfMtu) {
        return ifMtu != 0 ? ifMtu : routeIfMtu;
    }

    /**
     * The interface MTU used toward one peer (advertised as its trailer ifMTU; docs/engine.md "Packet size"): the fixed
     * {@link #ifMtu()} when set; else the route's ({@link #fromRoute}), capped so that a window of {@code maxRwind} such
     * packets fits the socket's receive buffer (at least 1,444) when the buffer is known.
     *
     * @param interfaceMtu the MTU of the interface the route to the peer leaves by, bytes; 0 = unknown
     * @param ipv6 whether the peer is an IPv6 address
     * @param receiveBufferBytes the socket's receive buffer as granted, bytes; 0 = unknown
     * @param maxRwind the largest receive window advertised, packets, &gt;= 1
     * @return bytes
     */
    public int peerIfMtu(int interfaceMtu, boolean ipv6, int receiveBufferBytes, int maxRwind) {
        int route = fromRoute(interfaceMtu, ipv6);
        if (receiveBufferBytes > 0) {
            route = Math.min(route, Math.max(RxConstants.REMOTE_PACKET_SIZE, receiveBufferBytes / maxRwind));
        }
        return localIfMtu(route);
    }

    /**
     * The largest Rx packet an interface of {@code interfaceMtu} bytes carries without IP fragmentation (rx-wire-facts.md
     * §5): its MTU less 28 bytes of IPv4 + UDP headers (48 for IPv6), at most the largest UDP payload (65,507 bytes
     * over IPv4, 65,527 over IPv6); an interface of at most 1,500 bytes, or an unknown one (0), counts as OpenAFS's
     * 1,444 so that Ethernet paths keep jumbograms of 1,412-byte packets.
     *
     * @param interfaceMtu the MTU of the interface the route to the peer leaves by, bytes (IP packet size), 0 = unknown
     * @param ipv6 whether the peer is an IPv6 address
     * @return bytes, 1444..65527
     */
    public static int fromRoute(int interfaceMtu, boolean ipv6) {
        if (interfaceMtu <= 1500) {
            return RxConstants.REMOTE_PACKET_SIZE;
        }
        return udpPayload(interfaceMtu, ipv6);
    }

    /**
     * The largest UDP payload one datagram through an interface of {@code interfaceMtu} bytes carries without IP
     * fragmentation: the MTU less the IPv4+UDP (28) or IPv6+UDP (48) headers, at most UDP's limit (rx-wire-facts.md §5).
     *
     * @param interfaceMtu the interface's MTU, bytes (IP packet size), &gt; 48
     * @param ipv6 whether the datagram goes over IPv6
     * @return bytes
     */
    public static int udpPayload(int interfaceMtu, boolean ipv6) {
        return ipv6 ? Math.min(interfaceMtu - RxConstants.IPV6_UDP_HEADERS, RxConstants.MAX_UDP_PAYLOAD_IPV6)
                : Math.min(interfaceMtu - RxConstants.IPV4_UDP_HEADERS, RxConstants.MAX_UDP_PAYLOAD_IPV4);
    }

    /**
     * maxMTU advertised in the ACK trailer to a peer whose local interface MTU is {@code localIfMtu}: on a path wider
     * than Ethernet the largest packet accepted in one piece, min(maxMtu, localIfMtu); otherwise, with jumbograms,
     * OpenAFS's localIfMtu + (jumbo − 1) · 1416 (5692 at 1444 and 4), else min(maxMtu, localIfMtu).
     *
     * @param localIfMtu {@link #localIfMtu} for the peer, bytes
     * @param jumbo jumbogram sub-packets allowed toward the peer ({@link #jumboLimit})
     * @return bytes
     */
    public int advertisedMaxMtu(int localIfMtu, int jumbo) {
        if (jumbo <= 1 || localIfMtu > RxConstants.REMOTE_PACKET_SIZE) {
            return Math.min(maxMtu, localIfMtu);
        }
        return localIfMtu + (jumbo - 1) * RxConstants.JUMBO_STRIDE;
    }

    /**
     * @param localIfMtu {@link #localIfMtu} for the peer, bytes
     * @return {@link #advertisedMaxMtu(int, int)} for a route of unknown MTU ({@link #jumboLimit} of 0)
     */
    public int advertisedMaxMtu(int localIfMtu) {
        return advertisedMaxMtu(localIfMtu, jumboLimit(0));
    }

    /**
     * Largest Rx packet (header + data) this endpoint sends in one piece to a peer that advertises room for it and
     * whose path a padded PING proved (docs/engine.md "Packet size"): min(maxMtu, localIfMtu). Above
     * {@link RxConstants#REMOTE_PACKET_SIZE} only where the route's interface is wider than Ethernet (or ifMtu says so).
     *
     * @param localIfMtu {@link #localIfMtu} for the peer, bytes
     * @return bytes, 520..65535
     */
    public int largestPacket(int localIfMtu) {
        return Math.min(maxMtu, localIfMtu);
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        int jumboMax;
        int maxMtu;
        int ifMtu;
        boolean fragmentJumbograms;

        Draft(PacketSize from) {
            jumboMax = from.jumboMax;
            maxMtu = from.maxMtu;
            ifMtu = from.ifMtu;
            fragmentJumbograms = from.fragmentJumbograms;
        }

        PacketSize build() {
            return new PacketSize(jumboMax, maxMtu, ifMtu, fragmentJumbograms);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    PacketSize with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
