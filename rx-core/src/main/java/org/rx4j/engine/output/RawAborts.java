// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.output;

import java.net.InetSocketAddress;
import org.rx4j.config.Reachability;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * Sends the small ABORT (32 bytes) that answers a packet no connection owns (§2, §13): −2 for an unknown service or
 * security index, −10 for a connection refused at a limit. Not sent when it would be more than
 * {@link Reachability#AMPLIFICATION_LIMIT} times the offending datagram (no datagram a header long is that small, so
 * today every one is answered; docs/robustness.md "Rule: unsolicited traffic, loops and amplification"). Endpoint-wide at most {@link #BURST} at once, then one per
 * {@link #INTERVAL_NS} ({@link BurstPacer}): no peer object paces them (the source is unknown), and random garbage that
 * happens to decode as a client packet for an unknown service would otherwise earn one each (a third of a random-bytes
 * flood); the rest are counted as withheld replies. Engine thread only.
 */
public final class RawAborts {
    /** Raw ABORTs sent at once, endpoint-wide, before they are paced. */
    public static final int BURST = 100;
    /** Pace of raw ABORTs past the burst: one per this many ns (1,000 a second). */
    public static final long INTERVAL_NS = 1_000_000L;

    private final PacketSink sink;
    private final RxCounters counters;
    private final BurstPacer pacer = new BurstPacer(BURST, INTERVAL_NS);

    /**
     * @param sink where the ABORTs go
     * @param counters the endpoint's counters (ABORTs sent, replies withheld)
     */
    public RawAborts(PacketSink sink, RxCounters counters) {
        this.sink = sink;
        this.counters = counters;
    }

    /**
     * Answers the offending packet with an ABORT carrying its identity, or counts the reply withheld.
     *
     * @param now current time, ns
     * @param to the offending packet's source
     * @param h the offending packet's header
     * @param code the abort code
     * @param provokedBy size of the offending packet, header + body, bytes
     */
    public void send(long now, InetSocketAddress to, RxHeader h, int code, int provokedBy) {
        if ((long) Reachability.AMPLIFICATION_LIMIT * provokedBy < RxConstants.HEADER_SIZE + 4 || !pacer.allow(now)) {
            counters.increment(RxCounter.REPLIES_WITHHELD);
            return;
        }
        int flags = h.isClientInitiated() ? 0 : PacketFlags.CLIENT_INITIATED;
        RxHeader a = new RxHeader(h.epoch(), h.cid(), h.callNumber(), 0, 0, PacketType.ABORT, flags, 0,
                h.securityIndex(), 0, h.serviceId());
        counters.increment(RxCounter.PACKETS_SENT, PacketType.ABORT);
        sink.send(to, new AbortPacket(a, code));
    }
}
