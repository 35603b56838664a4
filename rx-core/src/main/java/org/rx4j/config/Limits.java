// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.util.function.Consumer;

/**
 * How many connections, peers, queued calls and held packets (and held bytes) an endpoint keeps at most, so a flood of them cannot
 * exhaust its memory (docs/robustness.md "Rule: limits" and its "Limits" table). Past a limit the endpoint evicts or
 * refuses as each component says.
 *
 * @param maxConnections most server connections kept at once, &gt;= 1 (default 100,000); at the limit the oldest
 *     unproven connection (see {@code maxUnprovenConnections}) is evicted silently to make room, and when none is
 *     left the new connection's DATA is answered with ABORT RX_CALL_BUSY (−10) and nothing is kept (docs/robustness.md
 *     "Limits")
 * @param maxPendingCalls most client calls queued waiting for a free channel on one connection, &gt;= 0 (default 1024);
 *     beyond it a call fails with RX_INVALID_OPERATION (−2), "too many calls waiting for a channel": {@code newCall}
 *     returns the call, and its first read, {@code awaitCompletion} and {@code completion} throw (writes before the
 *     refusal reached the call are accepted and dropped; docs/embedding.md "Sizing windows and pools"); a
 *     {@code callAsync} future fails
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
 *     real client resends and is admitted again). Each call holds at most {@link Windows#maxRwind()} packets.
 * @param maxHeldBytes most bytes (Rx header + payload per packet), endpoint-wide, of each kind of packets kept for a
 *     source that has not proven itself or not authenticated, &gt;= 1,444 (default 8 MiB,
 *     {@link Limits#DEFAULT_MAX_HELD_BYTES}): the reachability challenge's kept first packets, held server calls'
 *     packets, and DATA parked for a security handshake (docs/robustness.md "Rule: a byte budget for what unproven
 *     sources leave"). Past it the challenge evicts the oldest other sources' records, held calls are forgotten oldest
 *     first, and the parked DATA of the connections challenged longest ago is released; a packet that still does
 *     not fit is not kept (the client resends it)
 * @param maxHeldBytesPerPeer most bytes of each of those kinds kept for one source (host and port), &gt;= 1,444
 *     (default 1 MiB, {@link Limits#DEFAULT_MAX_HELD_BYTES_PER_PEER}); a packet beyond is not kept (held calls: that
 *     peer's oldest held call is forgotten)
 */
public record Limits(int maxConnections, int maxPendingCalls, int maxConnectionsPerPeer, int maxUnprovenConnections,
                     int maxPeers, int maxHeldPackets, long maxHeldBytes, long maxHeldBytesPerPeer) {
    /**
     * Default of {@link #maxHeldBytes()}, bytes: 8 MiB, above {@code maxHeldPackets} full Ethernet-size packets
     * (4,096 × 1,444 = 5.6 MiB), so the byte budget binds only for packets larger than those; the three kinds keep
     * at most 24 MiB together.
     */
    public static final long DEFAULT_MAX_HELD_BYTES = 8L << 20;
    /**
     * Default of {@link #maxHeldBytesPerPeer()}, bytes: 1 MiB, room for 726 full Ethernet-size packets or 16 of the
     * largest (65,535 bytes).
     */
    public static final long DEFAULT_MAX_HELD_BYTES_PER_PEER = 1L << 20;
    /** Room for 100,000 connections (10,000 from one client) and 65,536 peers; the rest bounds a flood. */
    public static final Limits DEFAULTS = new Limits(100_000, 1024, 16_384, 2_048, 65_536, 4_096,
            DEFAULT_MAX_HELD_BYTES, DEFAULT_MAX_HELD_BYTES_PER_PEER);

    /**
     * The limits without the byte budget's settings, which take their defaults ({@link #DEFAULT_MAX_HELD_BYTES},
     * {@link #DEFAULT_MAX_HELD_BYTES_PER_PEER}).
     *
     * @param maxConnections see {@link #maxConnections()}
     * @param maxPendingCalls see {@link #maxPendingCalls()}
     * @param maxConnectionsPerPeer see {@link #maxConnectionsPerPeer()}
     * @param maxUnprovenConnections see {@link #maxUnprovenConnections()}
     * @param maxPeers see {@link #maxPeers()}
     * @param maxHeldPackets see {@link #maxHeldPackets()}
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public Limits(int maxConnections, int maxPendingCalls, int maxConnectionsPerPeer, int maxUnprovenConnections,
                  int maxPeers, int maxHeldPackets) {
        this(maxConnections, maxPendingCalls, maxConnectionsPerPeer, maxUnprovenConnections, maxPeers, maxHeldPackets,
                DEFAULT_MAX_HELD_BYTES, DEFAULT_MAX_HELD_BYTES_PER_PEER);
    }

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public Limits {
        SettingCheck.range("maxConnections", maxConnections, 1, Integer.MAX_VALUE);
        SettingCheck.range("maxPendingCalls", maxPendingCalls, 0, Integer.MAX_VALUE);
        SettingCheck.range("maxConnectionsPerPeer", maxConnectionsPerPeer, 1, Integer.MAX_VALUE);
        SettingCheck.range("maxUnprovenConnections", maxUnprovenConnections, 1, Integer.MAX_VALUE);
        SettingCheck.range("maxPeers", maxPeers, 1, Integer.MAX_VALUE);
        SettingCheck.range("maxHeldPackets", maxHeldPackets, 1, Integer.MAX_VALUE);
        SettingCheck.atLeast("maxHeldBytes", maxHeldBytes, 1_444);
        SettingCheck.atLeast("maxHeldBytesPerPeer", maxHeldBytesPerPeer, 1_444);
        SettingCheck.atLeast("maxHeldBytes", maxHeldBytes, 1_444);
        SettingCheck.atLeast("maxHeldBytesPerPeer", maxHeldBytesPerPeer, 1_444);
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        int maxConnections;
        int maxPendingCalls;
        int maxConnectionsPerPeer;
        int maxUnprovenConnections;
        int maxPeers;
        int maxHeldPackets;
        long maxHeldBytes;
        long maxHeldBytesPerPeer;

        Draft(Limits from) {
            maxConnections = from.maxConnections;
            maxPendingCalls = from.maxPendingCalls;
            maxConnectionsPerPeer = from.maxConnectionsPerPeer;
            maxUnprovenConnections = from.maxUnprovenConnections;
            maxPeers = from.maxPeers;
            maxHeldPackets = from.maxHeldPackets;
            maxHeldBytes = from.maxHeldBytes;
            maxHeldBytesPerPeer = from.maxHeldBytesPerPeer;
        }

        Limits build() {
            return new Limits(maxConnections, maxPendingCalls, maxConnectionsPerPeer, maxUnprovenConnections, maxPeers, maxHeldPackets, maxHeldBytes, maxHeldBytesPerPeer);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    Limits with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
