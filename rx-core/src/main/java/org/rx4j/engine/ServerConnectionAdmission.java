// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import java.net.InetSocketAddress;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.admission.ConnectionLimits;
import org.rx4j.engine.admission.ReachChallenger;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.connection.ConnectionContext;
import org.rx4j.engine.connection.ConnectionTable;
import org.rx4j.engine.output.RawAborts;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.ControlPacket;
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
        if (known && h.type() == PacketType.RESPONSE && config.reachability().checkReach()) {
            SecurityClass cls = services.securityClass(h.serviceId(), h.securityIndex());
            if (PacketSecurityAccess.of(cls).hasStatelessChallenge()) {
                return acceptResponse(now, from, (ControlPacket) p, cls, bytes);
            }
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
            challenger.challenge(now, from, (DataPacket) p, bytes,
                    services.securityClass(h.serviceId(), h.securityIndex()));
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

    /**
     * A RESPONSE that reached no connection, for a service whose class has a stateless CHALLENGE (docs/robustness.md
     * "Rule: stateless reachability challenge"): if the class accepts it against the nonce that CHALLENGE carried
     * ({@link ReachChallenger#checkResponse}), its connection is made at once, authenticated and proven, within the
     * limits; the DATA kept for it is replayed after this datagram and starts its calls. Refused: the RESPONSE is
     * dropped, and the source gets an ABORT with the class's code only when it is the one challenged for that
     * connection. Past a limit: dropped, nothing sent (the client resends its DATA and is challenged again).
     *
     * @return null: the RESPONSE is the caller's to drop ({@link #refusal} says why) or was taken
     */
    private Connection acceptResponse(long now, InetSocketAddress from, ControlPacket p, SecurityClass cls,
            int bytes) {
        RxHeader h = p.header();
        Connection[] made = new Connection[1];
        SecurityContext ctx = challenger.checkResponse(from, p, cls, ch -> made[0] == null ? 0
                : made[0].callNumber(ch));
        if (ctx == null) {
            if (challenger.challengedFor(now, from, h)) {
                // The challenged client's own RESPONSE was refused (an expired ticket, a level too low): it learns
                // why, as from a connection's handshake; a small ABORT, paced endpoint-wide.
                rawAborts.send(now, from, h, challenger.refusalCode(), bytes);
            }
            return refuse(PacketTrace.In.NO_CONNECTION);
        }
        if (!limits.roomForPeer(now, from) || !limits.admit(now, from)) {
            PacketSecurityAccess.of(cls).destroyConnection(ctx);
            return refuse(PacketTrace.In.BUSY_REFUSED);
        }
        Peer peer = challenger.provenByResponse(now, from, h, bytes);
        link.trace().inbound(PacketTrace.In.NEW_CONNECTION, from, h);
        made[0] = new Connection(link, peer, ctx, ctx.takeResponseCallNumbers());
        table.addServer(made[0], from);
        services.peerReachable(peer, now);
        p.release();
        return refuse(null);
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
