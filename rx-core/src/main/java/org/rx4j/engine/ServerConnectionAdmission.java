// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import java.net.InetSocketAddress;
import org.rx4j.config.RxConfig;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * Finds the server connection of a client-initiated packet, or makes one for a DATA packet of a known service
 * (rx-wire-facts.md §2, §7): unknown services get one small ABORT ({@link RawAborts}); new-connection DATA from a
 * connection not yet proven (from any source), and the answer to its PING, go to the {@link ReachChallenger} (docs/robustness.md,
 * "Rule: reachability challenge"); a new connection past the {@link ConnectionLimits} gets a BUSY ABORT. When it
 * finds no connection it says why ({@link #refusal}). Engine thread only.
 */
final class ServerConnectionAdmission {
    private final RxConfig config;
    private final ConnectionTable table;
    private final ServiceRegistry services;
    private final ConnectionContext link;
    private final ConnectionLimits limits;
    private final ReachChallenger challenger;
    private final RawAborts rawAborts;
    /** Why the last {@link #connection} call found none; null when the reachability challenge took the packet. */
    private PacketTrace.In refusal;

    /**
     * @param config tunables (receive window, reachability checks)
     * @param table the connection and peer tables
     * @param services the registered services
     * @param link what new server connections get from the engine
     * @param limits whether a new server connection may be made
     * @param challenger the reachability challenge of unproven sources
     * @param rawAborts the ABORTs to packets no connection owns
     */
    ServerConnectionAdmission(RxConfig config, ConnectionTable table, ServiceRegistry services, ConnectionContext link,
            ConnectionLimits limits, ReachChallenger challenger, RawAborts rawAborts) {
        this.config = config;
        this.table = table;
        this.services = services;
        this.link = link;
        this.limits = limits;
        this.challenger = challenger;
        this.rawAborts = rawAborts;
    }

    /**
     * The server connection of a client-initiated packet, found or made.
     *
     * <p>Ownership: takes {@code p} only when it returns null and {@link #refusal} is null (the reachability
     * challenge kept or released it); otherwise the caller keeps it.
     *
     * @param now current time, ns
     * @param from the sender's address
     * @param p the packet (not VERSION or DEBUG)
     * @return the connection, or null (then {@link #refusal} says why)
     */
    Connection connection(long now, InetSocketAddress from, RxPacket p) {
        RxHeader h = p.header();
        Connection c = table.serverConnection(h.epoch(), h.connectionId(), from);
        if (c != null) {
            return c.securityIndex() == h.securityIndex() ? c : refuse(PacketTrace.In.SECURITY_INDEX_MISMATCH);
        }
        boolean known = services.isKnown(h.serviceId(), h.securityIndex());
        int bytes = RxConstants.HEADER_SIZE + p.bodyLength();
        if (!known && h.type() != PacketType.ABORT) {
            rawAborts.send(now, from, h, AbortCodes.RX_INVALID_OPERATION, bytes);
        }
        if (known && h.type() == PacketType.ACK) {
            Peer proven = config.reachability().checkReach() ? challenger.onAck(now, from, (AckPacket) p, bytes) : null;
            if (proven == null) {
                return refuse(PacketTrace.In.NO_CONNECTION);
            }
            link.trace().inbound(PacketTrace.In.REACHABLE, from, h);
            services.peerReachable(proven, now);
            p.release();
            return refuse(null); // taken: it proved its source
        }
        if (!known || h.type() != PacketType.DATA) {
            // only DATA creates a connection (§2)
            return refuse(known || h.type() == PacketType.ABORT ? PacketTrace.In.NO_CONNECTION
                    : PacketTrace.In.UNKNOWN_SERVICE);
        }
        if (h.callNumber() == 0 || h.seq() < 1 || h.seq() > config.windows().maxRwind()) {
            // A DATA packet that could not admit a call opens no connection either (docs/robustness.md, "Rule:
            // packets that never create a server call").
            return refuse(h.callNumber() == 0 || h.seq() == 0 ? PacketTrace.In.ZERO_CALL_OR_SEQ
                    : PacketTrace.In.OUT_OF_WINDOW);
        }
        if (config.reachability().checkReach() && !challenger.takeProof(from, h)) {
            // Every new connection proves itself, also from a proven address: a proof belongs to the connection that
            // answered (docs/robustness.md "Rule: stateless reachability challenge").
            link.trace().inbound(PacketTrace.In.CHALLENGED, from, h);
            challenger.challenge(now, from, (DataPacket) p, bytes);
            return refuse(null);
        }
        if (!limits.admit(now, from)) {
            rawAborts.send(now, from, h, AbortCodes.RX_CALL_BUSY, bytes);
            return refuse(PacketTrace.In.BUSY_REFUSED);
        }
        link.trace().inbound(PacketTrace.In.NEW_CONNECTION, from, h);
        c = new Connection(link, table.peer(from), false, h.epoch(), h.connectionId(), h.serviceId(),
                services.securityClass(h.serviceId(), h.securityIndex()));
        table.addServer(c, from);
        return c;
    }

    /** @return why the last {@link #connection} call found none: a drop reason, or null when the packet was taken */
    PacketTrace.In refusal() {
        return refusal;
    }

    private Connection refuse(PacketTrace.In why) {
        refusal = why;
        return null;
    }
}
