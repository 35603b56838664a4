// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.debug;

import java.net.InetSocketAddress;
import org.rx4j.config.DebugReplies;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.VersionPacket;

/**
 * Answers the connectionless packets (rx-wire-facts.md §8, §9): VERSION with this endpoint's version string, DEBUG
 * through the installed {@link DebugResponder} (none: DEBUG is dropped). Only client-initiated queries are answered
 * (replies and NAT pings never, so two endpoints never loop), and no reply more than three times its query goes out
 * unless the debug-reply policy allows it (a VERSION reply is cut to its string to fit) (the source may be forged: docs/robustness.md "Rule: unsolicited traffic, loops and
 * amplification"). Counts both directions in the endpoint's counters. Engine thread only.
 */
public final class ConnectionlessResponder {
    private final RxConfig config;
    private final PacketSink sink;
    private final RxCounters counters;
    private final EngineView view;
    private DebugResponder debugResponder;
    /** rxdebug replies withheld by the policy; the sink hears of the first and of each power of ten. */
    private long debugRepliesWithheld;

    /**
     * @param config the version string and the debug-reply policy
     * @param sink where the answers go
     * @param counters the endpoint's counters (connectionless traffic, replies withheld)
     * @param view what a DEBUG answer reports
     */
    public ConnectionlessResponder(RxConfig config, PacketSink sink, RxCounters counters, EngineView view) {
        this.config = config;
        this.sink = sink;
        this.counters = counters;
        this.view = view;
    }

    /**
     * Installs the responder for DEBUG requests (rxdebug); without one DEBUG requests are dropped.
     *
     * @param responder the responder, or null
     */
    public void setDebugResponder(DebugResponder responder) {
        this.debugResponder = responder;
    }

    /**
     * Counts a VERSION or DEBUG packet and answers it when it is a query.
     *
     * <p>Ownership: does not take {@code p} (connectionless packets hold no buffer).
     *
     * @param from the sender's address
     * @param p the packet, of type VERSION or DEBUG
     */
    public void answer(InetSocketAddress from, RxPacket p) {
        RxHeader h = p.header();
        counters.increment(RxCounter.PACKETS_RECEIVED, RxCounters.typeSlot(h.type()));
        if (!h.isClientInitiated()) {
            return; // replies and NAT pings are not answered (§8, §9)
        }
        RxHeader reply = h.withFlags(h.flags() & ~PacketFlags.CLIENT_INITIATED);
        RxPacket answer = null;
        if (p instanceof VersionPacket) {
            answer = new VersionPacket(reply, VersionPacket.replyBody(config.debugQueries().versionString()));
        } else if (p instanceof DebugRequest d && debugResponder != null) {
            answer = debugResponder.answer(view, reply, d);
        }
        if (answer == null) {
            return;
        }
        boolean loopback = from.getAddress() != null && from.getAddress().isLoopbackAddress();
        DebugReplies policy = config.debugQueries().debugReplies();
        int queryBytes = RxConstants.HEADER_SIZE + p.bodyLength();
        if (answer instanceof VersionPacket && !policy.allows(queryBytes, RxConstants.HEADER_SIZE + answer.bodyLength(),
                loopback) && policy != DebugReplies.NEVER) {
            // Cut to the string: the whole 65-byte body would exceed the bound, the string alone may not.
            byte[] cut = VersionPacket.shortReplyBody(config.debugQueries().versionString(),
                    DebugReplies.largestBoundedReply(queryBytes) - RxConstants.HEADER_SIZE);
            if (cut != null) {
                answer = new VersionPacket(reply, cut);
            }
        }
        if (!policy.allows(queryBytes, RxConstants.HEADER_SIZE + answer.bodyLength(), loopback)) {
            answer.release();
            counters.increment(RxCounter.REPLIES_WITHHELD);
            debugRepliesWithheld++;
            if (isPowerOfTen(debugRepliesWithheld)) {
                sink.debugReplyWithheld(from, config.debugQueries().debugReplies(), debugRepliesWithheld);
            }
            return;
        }
        counters.increment(RxCounter.PACKETS_SENT, RxCounters.typeSlot(answer.header().type()));
        sink.send(from, answer);
    }

    private static boolean isPowerOfTen(long n) {
        long p = 1;
        while (p < n && p <= Long.MAX_VALUE / 10) {
            p *= 10;
        }
        return p == n;
    }
}
