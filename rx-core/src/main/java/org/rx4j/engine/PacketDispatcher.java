package org.rx4j.engine;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
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
    private static final byte[] NO_ACKS = new byte[0];
    /** Raw ABORTs (unknown service, refused connection) sent at once, endpoint-wide, before they are paced. */
    static final int RAW_ABORT_BURST = 100;
    /** Pace of raw ABORTs past the burst: one per this many ns (1,000 a second). */
    static final long RAW_ABORT_INTERVAL_NS = 1_000_000L;

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
    /** Pacing of raw ABORTs, endpoint-wide. */
    private final BurstPacer rawAborts = new BurstPacer(RAW_ABORT_BURST, RAW_ABORT_INTERVAL_NS);
    /** Set by {@link #serverConnection} when the reachability challenge took the packet (not to be dropped). */
    private boolean absorbed;
    /** Unproven sources' new-connection DATA, kept without a connection until they answer the PING. */
    private final ReachChallenges challenges;
    private long challengesSent;
    /** Proven sources whose kept packets wait to be replayed ({@link #takeReplay}), with their packets. */
    private final List<InetSocketAddress> replayFrom = new ArrayList<>(1);
    private final List<List<DataPacket>> replayPackets = new ArrayList<>(1);
    private long challengesAnswered;

    /**
     * @param config tunables (receive window, connection limit, reachability checks)
     * @param table the connection and peer tables
     * @param services the registered services; they start admitted server calls
     * @param link what new server connections get from the engine
     * @param sink where the ABORT for an unknown service goes
     * @param endpointCounters the counters of traffic no connection owns
     * @param secret the key of the reachability PING's serial (random outside tests)
     */
    PacketDispatcher(RxConfig config, ConnectionTable table, ServiceRegistry services, ConnectionContext link,
            PacketSink sink, RxCounters endpointCounters, long secret) {
        this.config = config;
        this.table = table;
        this.services = services;
        this.link = link;
        this.sink = sink;
        this.endpointCounters = endpointCounters;
        this.challenges = new ReachChallenges(secret, config.maxUnprovenConnections(), config.maxHeldPackets(),
                config.deadTimeNs());
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
            if (absorbed) {
                absorbed = false; // the reachability challenge took the packet (kept or released it)
            } else {
                drop(p);
            }
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
            sendRawAbort(now, from, h, AbortCodes.RX_INVALID_OPERATION, bytes);
        }
        if (known && h.type() == PacketType.ACK) {
            if (config.checkReach() && onUnknownConnectionAck(now, from, (AckPacket) p, bytes)) {
                p.release();
                absorbed = true; // taken: it proved its source
            }
            return null;
        }
        if (!known || h.type() != PacketType.DATA) {
            return null; // only DATA creates a connection (§2)
        }
        if (h.callNumber() == 0 || h.seq() < 1 || h.seq() > config.maxRwind()) {
            return null; // a DATA packet that could not admit a call opens no connection either (rule 7)
        }
        if (config.checkReach()) {
            Peer prior = table.knownPeer(from);
            if (prior == null || !prior.isReachable(now)) {
                challenge(now, from, (DataPacket) p, bytes);
                absorbed = true;
                return null;
            }
        }
        if (!makeRoom(now, from)) {
            connectionsRefused++;
            sendRawAbort(now, from, h, AbortCodes.RX_CALL_BUSY, bytes);
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
     * New-connection DATA from a source not proven reachable (checkReach on; docs/robustness.md "Stateless
     * reachability challenge"): no connection, call or peer is made. The source's record keeps its bytes (the reply
     * credit, rule 6) and the packet ({@code maxHeldPackets} in all, the oldest other records evicted), and the
     * source is sent the reachability PING on that call (§6.2) when the credit covers it: at once for the first, again
     * when the credit that withheld it grew, or when the source is heard again at least the minimum RTO later (the
     * PING or its answer was lost, or the client moved on to another call), as a held call re-PINGs
     * (CallTimers.repingIfWaiting). Per source, not per datagram: a flood source earns at most one PING per minimum
     * RTO. The PING_RESPONSE replays the kept packets ({@link #onUnknownConnectionAck}).
     *
     * <p>Ownership: takes {@code p}.
     */
    private void challenge(long now, InetSocketAddress from, DataPacket p, int bytes) {
        // Not counted as received here: a kept packet is counted by its connection when replayed.
        RxHeader h = p.header();
        ReachChallenges.Pending rec = challenges.open(now, from);
        rec.credit += bytes;
        boolean due = rec.pingSerial == 0 || rec.pingWithheld || now - rec.pingSentNs >= config.minRtoNs();
        rec.epoch = h.epoch();
        rec.cid = h.cid();
        rec.callNumber = h.callNumber();
        rec.securityIndex = h.securityIndex();
        rec.serviceId = h.serviceId();
        if (h.hasFlag(PacketFlags.REQUEST_ACK)) {
            endpointCounters.repliesWithheld++; // no ACK but the PING until the source answers (rule 6)
        }
        challenges.hold(from, rec, p);
        if (due) {
            sendChallengePing(now, from, rec);
        }
    }

    /**
     * Sends the reachability PING to a recorded source's last call, paid from its credit (rule 6): with the ACK
     * trailer when the credit covers 65 bytes, bare (46 bytes) when it covers that, else withheld. It soft-acks
     * nothing (firstPacket 1, no acks): the packets kept here may still be evicted, and a client must then resend
     * them. Its serial is {@link ReachChallenges#cookie}.
     */
    private void sendChallengePing(long now, InetSocketAddress to, ReachChallenges.Pending rec) {
        int bare = RxConstants.HEADER_SIZE + RxConstants.ACK_FIXED_SIZE;
        int full = bare + RxConstants.ACK_PAD_SIZE + 16;
        int size = rec.credit >= full ? full : rec.credit >= bare ? bare : 0;
        if (size == 0) {
            if (!rec.pingWithheld) {
                endpointCounters.repliesWithheld++;
            }
            rec.pingWithheld = true;
            return;
        }
        rec.credit -= size;
        rec.pingWithheld = false;
        rec.pingSerial = challenges.cookie(to, rec.epoch, rec.cid, rec.callNumber);
        rec.pingSentNs = now;
        RxHeader h = new RxHeader(rec.epoch, rec.cid, rec.callNumber, 0, rec.pingSerial, PacketType.ACK,
                PacketFlags.SLOW_START_OK | PacketFlags.REQUEST_ACK, 0, rec.securityIndex, 0, rec.serviceId);
        AckPacket ping = size == full
                ? AckPacket.of(h, 1, 0, 0, AckReason.PING, NO_ACKS, config.advertisedMaxMtu(), config.ifMtu(),
                        config.maxRwind(), config.jumboMax())
                : new AckPacket(h, 0, 0, 1, 0, 0, AckReason.PING, NO_ACKS, 0, 0, 0, 0, 0, 0);
        challengesSent++;
        endpointCounters.packetsSent[PacketType.ACK]++;
        endpointCounters.acksSent[AckReason.PING]++;
        endpointCounters.bytesSent += size;
        sink.send(to, ping);
    }

    /**
     * A client-initiated ACK for no known connection of a known service (checkReach on): a PING_RESPONSE whose serial
     * is the cookie of its call proves the source reachable — its peer is made and marked reachable, and the packets
     * its record kept are handed back for replay ({@link #takeReplay}: they open their connections and start their
     * calls at once). Any other such ACK adds to a recorded source's credit and may let a withheld PING go; a PING
     * from the source brings our PING again.
     *
     * <p>Ownership: does not take {@code a}.
     *
     * @return true when the ACK proved its source (counted as received here, not dropped); false when it is dropped
     */
    private boolean onUnknownConnectionAck(long now, InetSocketAddress from, AckPacket a, int bytes) {
        RxHeader h = a.header();
        if (a.reason() == AckReason.PING_RESPONSE && a.serial() != 0
                && a.serial() == challenges.cookie(from, h.epoch(), h.cid(), h.callNumber())) {
            if (table.knownPeer(from) == null && !roomForPeer(now)) {
                return false; // the peer table is full of peers with connections: the client resends later
            }
            challengesAnswered++;
            endpointCounters.packetsReceived[PacketType.ACK]++;
            endpointCounters.acksReceived[AckReason.PING_RESPONSE]++;
            endpointCounters.bytesReceived += bytes;
            ReachChallenges.Pending rec = challenges.take(from);
            Peer peer = table.peer(from);
            peer.heardFrom(now);
            peer.lastUsedNs = now;
            if (rec != null && rec.pingSerial == a.serial()) {
                peer.rtt().onSample(now - rec.pingSentNs);
            }
            services.peerReachable(peer, now);
            if (rec != null && !rec.packets.isEmpty()) {
                List<DataPacket> kept = new ArrayList<>(rec.packets.size());
                for (ReachChallenges.HeldPacket held : rec.packets) {
                    kept.add(held.toPacket(link.alloc()));
                }
                replayFrom.add(from);
                replayPackets.add(kept);
                rec.packets.clear();
            }
            return true;
        }
        ReachChallenges.Pending rec = challenges.get(now, from);
        if (rec != null) {
            rec.credit += bytes;
            // A client waiting for us PINGs on its resend timer: our PING or its answer may have been lost, so ask
            // again at once (at most once per minimum RTO), as a held call does (CallTimers.repingIfWaiting).
            boolean waiting = a.reason() == AckReason.PING && rec.pingSerial != 0
                    && now - rec.pingSentNs >= config.minRtoNs();
            if (rec.pingWithheld || waiting) {
                sendChallengePing(now, from, rec);
            }
        }
        return false;
    }

    /** @return true when a proven source's kept packets wait for {@link #takeReplay} */
    boolean hasReplay() {
        return !replayPackets.isEmpty();
    }

    /**
     * Takes the packets a proven source's record kept, to be handled as if they arrived now, each as its own
     * datagram (RxEngine does, after the PING_RESPONSE's datagram): one at a time, so that each earns its ACK as it
     * did on the wire (a REQUEST_ACK keeps its REQUESTED ack: the client's first RTT sample).
     *
     * <p>Ownership: the caller owns the returned packets.
     *
     * @param from receives the source address of the returned packets (element 0)
     * @return the packets, oldest first, or null when none wait
     */
    List<DataPacket> takeReplay(InetSocketAddress[] from) {
        if (replayPackets.isEmpty()) {
            return null;
        }
        from[0] = replayFrom.remove(0);
        return replayPackets.remove(0);
    }

    /**
     * Drops the records of sources whose time (a dead time) is up.
     *
     * @param now current time, ns
     */
    void expireChallenges(long now) {
        challenges.expire(now);
    }

    /** @return when the oldest challenge record's time is up, ns, or {@link Deadlines#NONE} */
    long nextChallengeExpiryNs() {
        return challenges.nextExpiryNs();
    }

    /** Forgets every unproven source's record and releases the proven sources' packets not yet replayed (shutdown). */
    void clearChallenges() {
        challenges.clear();
        for (List<DataPacket> kept : replayPackets) {
            for (DataPacket p : kept) {
                p.release();
            }
        }
        replayPackets.clear();
        replayFrom.clear();
    }

    /** @return the challenge table (counts for the engine's getters) */
    ReachChallenges challenges() {
        return challenges;
    }

    /** @return reachability PINGs sent to sources without a connection */
    long challengesSent() {
        return challengesSent;
    }

    /** @return PING_RESPONSEs that proved a source without a connection reachable */
    long challengesAnswered() {
        return challengesAnswered;
    }

    /**
     * At the peer limit, forgets peers without connections (at most once a second).
     *
     * @return true when a new peer may be made
     */
    private boolean roomForPeer(long now) {
        if (table.peerCount() < config.maxPeers()) {
            return true;
        }
        if (now - lastPeerSweepNs >= PEER_SWEEP_INTERVAL_NS || !peerSwept) {
            peerSwept = true;
            lastPeerSweepNs = now;
            table.reapPeers(now, -1);
        }
        return table.peerCount() < config.maxPeers();
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
        return table.knownPeer(from) != null || roomForPeer(now);
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
     * provoked it (rule 6). Endpoint-wide at most {@link #RAW_ABORT_BURST} at once, then one per
     * {@link #RAW_ABORT_INTERVAL_NS}: no peer object paces them (the source is unknown), and random garbage that
     * happens to decode as a client packet for an unknown service would otherwise earn one each (a third of a
     * random-bytes flood); the rest are counted as withheld replies.
     *
     * @param now current time, ns
     * @param to the offending packet's source
     * @param h the offending packet's header
     * @param code the abort code
     * @param provokedBy size of the offending packet, header + body, bytes
     */
    private void sendRawAbort(long now, InetSocketAddress to, RxHeader h, int code, int provokedBy) {
        if (provokedBy < RxConstants.HEADER_SIZE + 4) {
            endpointCounters.repliesWithheld++;
            return;
        }
        if (!rawAborts.allow(now)) {
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
