package org.rx4j.engine;

import java.net.InetSocketAddress;
import org.rx4j.config.RxConfig;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * The engine's inbound demultiplexer: finds (or, for a DATA packet of a known service, creates) the connection a
 * decoded packet belongs to, counts it there, and hands it to the call on its channel — DATA to a running call or
 * to a new server call the connection admits, ACK / ABORT / ACKALL / BUSY to the call or connection
 * (rx-wire-facts.md §2, §6, §7). Unknown services get one small ABORT. Connectionless VERSION and DEBUG
 * stay with the engine. Engine thread only.
 */
final class PacketDispatcher {
    /** The peer table is swept for peers without connections at most this often when it is full, ns. */
    private static final long PEER_SWEEP_INTERVAL_NS = 1_000_000_000L;

    private final RxConfig config;
    private final ConnectionTable table;
    private final ServiceRegistry services;
    private final ConnectionContext link;
    private final PacketSink sink;
    private final RxCounters endpointCounters;
    private long droppedPackets;
    private long connectionsEvicted;
    private long connectionsRefused;
    private long lastPeerSweepNs;
    private boolean peerSwept;

    /**
     * @param config tunables (receive window, connection limit, reachability checks)
     * @param table the connection and peer tables
     * @param services the registered services; they start admitted server calls
     * @param link what new server connections get from the engine
     * @param sink where the ABORT for an unknown service goes
     * @param endpointCounters the counters of traffic no connection owns
     */
    PacketDispatcher(RxConfig config, ConnectionTable table, ServiceRegistry services, ConnectionContext link,
            PacketSink sink, RxCounters endpointCounters) {
        this.config = config;
        this.table = table;
        this.services = services;
        this.link = link;
        this.sink = sink;
        this.endpointCounters = endpointCounters;
    }

    /**
     * Dispatches one packet of a connection (not VERSION or DEBUG).
     *
     * <p>Ownership: takes {@code p}.
     *
     * @param now current time, ns
     * @param from the sender's address
     * @param p the packet
     * @param lastInDatagram true for the datagram's last packet
     * @param jumbogram true when the datagram held several packets
     */
    void dispatch(long now, InetSocketAddress from, RxPacket p, boolean lastInDatagram, boolean jumbogram) {
        RxHeader h = p.header();
        int type = h.type();
        Connection conn = h.isClientInitiated() ? serverConnection(now, from, p) : table.clientConnection(h);
        if (conn == null) {
            drop(p);
            return;
        }
        conn.lastActivityNs = now;
        if (jumbogram && lastInDatagram) {
            conn.counters.jumbogramsReceived++; // counted with its connection, like jumbogramsSent
        }
        int bytes = RxConstants.HEADER_SIZE + p.bodyLength();
        conn.counters.bytesReceived += bytes;
        conn.peer.counters().bytesReceived += bytes;
        conn.peer.creditReply(now, bytes);
        conn.peer.heardFrom(now);
        conn.peer.lastUsedNs = now;
        int ch = h.channel();
        int callNumber = h.callNumber();
        switch (type) {
            case PacketType.DATA -> onData(now, conn, (DataPacket) p, lastInDatagram);
            case PacketType.ACK -> {
                conn.counters.packetsReceived[PacketType.ACK]++;
                Call call = conn.call(ch, callNumber);
                if (call != null) {
                    call.onAck(now, (AckPacket) p);
                } else {
                    drop(p);
                }
            }
            case PacketType.ABORT -> {
                conn.counters.packetsReceived[PacketType.ABORT]++;
                int code = ((AbortPacket) p).code();
                if (callNumber == 0) {
                    conn.fail(now, code, true);
                } else {
                    Call call = conn.call(ch, callNumber);
                    if (call != null) {
                        call.onAbort(now, code);
                    }
                }
            }
            case PacketType.BUSY -> {
                conn.counters.packetsReceived[PacketType.BUSY]++;
                conn.markBusy(ch);
            }
            case PacketType.ACKALL -> {
                conn.counters.packetsReceived[PacketType.ACKALL]++;
                Call call = conn.call(ch, callNumber);
                if (call != null) {
                    call.onAckAll(now);
                }
            }
            case PacketType.CHALLENGE, PacketType.RESPONSE, 9, 10, 11 -> {
                // rxnull never challenges; PARAMS are ignored by every implementation (§2).
                conn.counters.packetsReceived[RxCounters.typeSlot(type)]++;
            }
            default -> onUnknownType(now, conn, (ControlPacket) p);
        }
    }

    private void onUnknownType(long now, Connection conn, ControlPacket p) {
        conn.counters.packetsReceived[RxCounters.typeSlot(p.header().type())]++;
        int ch = p.header().channel();
        int callNumber = p.header().callNumber();
        if (callNumber == 0) {
            if (conn.peer.allowAbortReply(now)) {
                conn.abort(now, AbortCodes.RX_PROTOCOL_ERROR);
            } else {
                conn.fail(now, AbortCodes.RX_PROTOCOL_ERROR, false);
            }
            return;
        }
        Call call = conn.call(ch, callNumber);
        if (call != null) {
            call.abort(now, AbortCodes.RX_PROTOCOL_ERROR);
        } else if (conn.peer.allowAbortReply(now)) {
            RxHeader h = conn.header(ch, callNumber, 0, conn.nextSerial(), PacketType.ABORT, 0);
            conn.send(new AbortPacket(h, AbortCodes.RX_PROTOCOL_ERROR));
        }
    }

    /** Releases a packet no connection or call takes, and counts it. */
    void drop(RxPacket p) {
        p.release();
        droppedPackets++;
    }

    /** @return packets dropped because no connection or call took them */
    long droppedPackets() {
        return droppedPackets;
    }

    private void onData(long now, Connection conn, DataPacket p, boolean lastInDatagram) {
        // Datagrams per type, as OpenAFS's rx_stats counts them; sub-packets in dataPacketsReceived.
        if (lastInDatagram) {
            conn.counters.packetsReceived[PacketType.DATA]++;
        }
        conn.counters.dataPacketsReceived++;
        RxHeader h = p.header();
        if (h.callNumber() == 0 || h.seq() == 0) {
            drop(p);
            return;
        }
        Call call = conn.call(h.channel(), h.callNumber());
        if (call != null) {
            boolean wasHeld = call.state() == CallState.PRECALL;
            call.onData(now, p, lastInDatagram);
            if (wasHeld) {
                services.heldData(now, call, conn);
            }
            return;
        }
        Call fresh = conn.client ? null : conn.admitServerCall(now, h, config.maxRwind());
        if (fresh == null) {
            drop(p);
            return;
        }
        // Held in PRECALL until packet 1 is here and the peer proved reachable (rule 8): a call holding only
        // later packets never reaches a handler or a worker.
        services.admitted(now, fresh, conn);
        fresh.onData(now, p, lastInDatagram);
        services.heldData(now, fresh, conn);
        link.touched(fresh, now);
    }

    private Connection serverConnection(long now, InetSocketAddress from, RxPacket p) {
        RxHeader h = p.header();
        Connection c = table.serverConnection(h.epoch(), h.connectionId(), from);
        if (c != null) {
            if (c.securityIndex != h.securityIndex()) {
                return null;
            }
            if (!c.peer.address().equals(from)) {
                // Epoch bit 31: the client moved (NAT rebinding, new address); replies follow it (§7).
                c.peer.connections--;
                c.peer = table.peer(from);
                c.peer.connections++;
            }
            return c;
        }
        boolean known = services.isKnown(h.serviceId(), h.securityIndex());
        int bytes = RxConstants.HEADER_SIZE + p.bodyLength();
        if (!known && h.type() != PacketType.ABORT) {
            sendRawAbort(from, h, AbortCodes.RX_INVALID_OPERATION, bytes);
        }
        if (!known || h.type() != PacketType.DATA) {
            return null; // only DATA creates a connection (§2)
        }
        if (h.callNumber() == 0 || h.seq() < 1 || h.seq() > config.maxRwind()) {
            return null; // a DATA packet that could not admit a call opens no connection either (rule 7)
        }
        if (!makeRoom(now, from)) {
            connectionsRefused++;
            sendRawAbort(from, h, AbortCodes.RX_CALL_BUSY, bytes);
            return null;
        }
        Peer peer = table.peer(from);
        c = new Connection(link, peer, false, h.epoch(), h.connectionId(), h.serviceId(), h.securityIndex());
        peer.connections++;
        c.lastActivityNs = now;
        table.addServer(c, from);
        return c;
    }

    /**
     * Makes room for a new server connection from {@code from} under the limits (docs/robustness.md rule 9): the
     * oldest unproven connection (of that peer, at the per-peer limit; of anyone, at the unproven or total limit)
     * is evicted; at the peer limit, peers without connections are forgotten (at most once a second).
     *
     * @return true when the connection may be created
     */
    private boolean makeRoom(long now, InetSocketAddress from) {
        Peer known = table.knownPeer(from);
        if (known != null && known.connections >= config.maxConnectionsPerPeer()) {
            Connection victim = table.oldestUnproven(known);
            if (victim == null) {
                return false;
            }
            evict(now, victim);
        }
        while (table.unprovenCount() >= config.maxUnprovenConnections()
                || table.serverCount() >= config.maxConnections()) {
            Connection victim = table.oldestUnproven(null);
            if (victim == null) {
                break;
            }
            evict(now, victim);
        }
        if (table.serverCount() >= config.maxConnections()) {
            return false;
        }
        if (table.knownPeer(from) == null && table.peerCount() >= config.maxPeers()) {
            if (now - lastPeerSweepNs >= PEER_SWEEP_INTERVAL_NS || !peerSwept) {
                peerSwept = true;
                lastPeerSweepNs = now;
                table.reapPeers(now, -1);
            }
            return table.peerCount() < config.maxPeers();
        }
        return true;
    }

    /** Removes an unproven server connection silently: its calls fail with RX_CALL_DEAD, nothing is sent. */
    private void evict(long now, Connection victim) {
        connectionsEvicted++;
        victim.fail(now, AbortCodes.RX_CALL_DEAD, false);
        table.remove(victim, endpointCounters);
        if (!victim.peer.isReachable(now)) {
            table.forgetPeer(victim.peer);
        }
    }

    /** @return unproven server connections evicted to make room for new ones */
    long connectionsEvicted() {
        return connectionsEvicted;
    }

    /** @return new server connections refused (answered ABORT RX_CALL_BUSY) because a limit was reached */
    long connectionsRefused() {
        return connectionsRefused;
    }

    /**
     * One small ABORT (32 bytes) with {@code code} and the offending packet's identity (§2, §13): −2 for an unknown
     * service or security index, −10 for a connection refused at a limit. Not sent when the offending datagram was
     * smaller than the ABORT (a DATA packet of 0–3 bytes): no reply to unknown traffic is larger than what
     * provoked it (rule 6).
     *
     * @param to the offending packet's source
     * @param h the offending packet's header
     * @param code the abort code
     * @param provokedBy size of the offending packet, header + body, bytes
     */
    private void sendRawAbort(InetSocketAddress to, RxHeader h, int code, int provokedBy) {
        if (provokedBy < RxConstants.HEADER_SIZE + 4) {
            endpointCounters.repliesWithheld++;
            return;
        }
        int flags = h.isClientInitiated() ? 0 : PacketFlags.CLIENT_INITIATED;
        RxHeader a = new RxHeader(h.epoch(), h.cid(), h.callNumber(), 0, 0, PacketType.ABORT, flags, 0,
                h.securityIndex(), 0, h.serviceId());
        endpointCounters.packetsSent[PacketType.ABORT]++;
        sink.send(to, new AbortPacket(a, code));
    }
}
