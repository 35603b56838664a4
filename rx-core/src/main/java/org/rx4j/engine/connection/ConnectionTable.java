// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import org.rx4j.config.PacketSize;
import org.rx4j.config.RxConfig;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.ToIntFunction;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * The engine's connection and peer tables: client connections by connection id, server connections by
 * epoch + cid (+ address unless epoch bit 31 is set), peers by address, and client connection id allocation
 * (rx-wire-facts.md §1, §7). Insertion-ordered, so rxdebug's connection walk (one index per request) stays
 * stable as connections are added. Also keeps, oldest first, the server connections that are not yet proven (no
 * call started on them), the ones a limit evicts first (docs/robustness.md, "Rule: limits"); keeps each peer's count
 * of connections (only here); and reaps idle server connections and unused peers. Engine thread only.
 */
public final class ConnectionTable {
    private final RxConfig config;
    private final ToIntFunction<InetSocketAddress> routeMtu;
    private final IntSupplier receiveBuffer;
    private int nextCid;
    private final Map<InetSocketAddress, Peer> peers = new LinkedHashMap<>();
    private final Map<Integer, Connection> clientConns = new LinkedHashMap<>();
    private final Map<ServerKey, Connection> serverConns = new LinkedHashMap<>();
    // Per-packet lookups without boxing: client connections by cid, and server connections
    // whose epoch has bit 31 set (known by epoch + cid from any address, §7) by (epoch << 32 | cid). The maps above
    // keep the insertion order for iteration; server connections without bit 31 are looked up there.
    private final LongIndex<Connection> clientIndex = new LongIndex<>();
    private final LongIndex<Connection> anyAddressIndex = new LongIndex<>();
    private final LinkedHashSet<Connection> unproven = new LinkedHashSet<>();

    private record ServerKey(int epoch, int cid, InetSocketAddress address) {
    }

    /**
     * What an ACK trailer advertises toward an address (rx-wire-facts.md §3): the values a peer made for it would
     * advertise ({@link Peer#advertisedMaxMtu}, {@link Peer#localIfMtu}, {@link Peer#jumboLimit}).
     *
     * @param maxMtu trailer maxMTU, bytes
     * @param ifMtu trailer ifMTU, bytes
     * @param jumbo trailer maxDgramPackets, 1..46
     */
    public record RouteTrailer(int maxMtu, int ifMtu, int jumbo) {
    }

    /** The last {@link #trailerFor} answer and what it was computed from: one route serves most sources. */
    private RouteTrailer lastTrailer;
    private long lastTrailerKey;

    /**
     * @param config tunables (for new peers)
     * @param firstCid the first client connection id to try (channel bits and bit 31 cleared by the caller)
     */
    public ConnectionTable(RxConfig config, int firstCid) {
        this(config, firstCid, a -> 0, () -> 0);
    }

    /**
     * @param config this endpoint's configuration
     * @param firstCid the first client connection id (channel bits clear)
     * @param routeMtu the MTU of the interface the route to an address leaves by, bytes, 0 = unknown
     *     ({@link PacketSink#routeMtu}); asked once per new peer
     * @param receiveBuffer the socket's receive buffer, bytes, 0 = unknown ({@link PacketSink#receiveBufferBytes})
     */
    public ConnectionTable(RxConfig config, int firstCid, ToIntFunction<InetSocketAddress> routeMtu,
            IntSupplier receiveBuffer) {
        this.routeMtu = routeMtu;
        this.receiveBuffer = receiveBuffer;
        this.config = config;
        this.nextCid = firstCid;
    }

    /**
     * @return the next free client connection id: ids step by 4 (one per 4 channels), skipping ids still in
     *     use after wrap (§1, §7)
     */
    int nextClientCid() {
        int cid;
        do {
            cid = nextCid;
            nextCid = (nextCid + RxConstants.MAX_CALLS) & RxConstants.CID_MASK & 0x7FFFFFFF;
        } while (clientIndex.get(cid) != null);
        return cid;
    }

    /** Sets the next client connection id to try; its channel bits and bit 31 are cleared. */
    public void nextConnectionId(int cid) {
        nextCid = cid & RxConstants.CID_MASK & 0x7FFFFFFF;
    }

    /** Adds a client connection; its peer gains one connection. */
    void addClient(Connection c) {
        clientConns.put(c.cid, c);
        clientIndex.put(c.cid, c);
        c.peer.connections++;
    }

    /**
     * @return the client connection a reply packet's ids belong to, or null (unknown cid, epoch or security index);
     *     the caller checks that the packet came from the connection's server
     */
    public Connection clientConnection(RxHeader h) {
        Connection c = clientIndex.get(h.connectionId());
        if (c == null || c.epoch != h.epoch() || c.securityIndex() != h.securityIndex()) {
            return null;
        }
        return c;
    }

    private static ServerKey serverKey(int epoch, int cid, InetSocketAddress from) {
        // Epoch bit 31: the connection is known by epoch+cid from any address (§7).
        return new ServerKey(epoch, cid, epoch < 0 ? null : from);
    }

    /** @return the server connection with this epoch and cid (from this address unless epoch bit 31), or null */
    public Connection serverConnection(int epoch, int cid, InetSocketAddress from) {
        if (epoch < 0) {
            return anyAddressIndex.get(anyAddressKey(epoch, cid));
        }
        return serverConns.get(serverKey(epoch, cid, from));
    }

    private static long anyAddressKey(int epoch, int cid) {
        return ((long) epoch << 32) | (cid & 0xFFFF_FFFFL);
    }

    /** Adds a server connection first heard from {@code from}; it starts unproven; its peer gains a connection. */
    public void addServer(Connection c, InetSocketAddress from) {
        serverConns.put(serverKey(c.epoch, c.cid, from), c);
        if (c.epoch < 0) {
            anyAddressIndex.put(anyAddressKey(c.epoch, c.cid), c);
        }
        unproven.add(c);
        c.peer.connections++;
    }

    /** A call started on a server connection: it is proven and no longer evicted first. */
    public void proven(Connection c) {
        unproven.remove(c);
    }

    /** @return the number of server connections that never started a call */
    public int unprovenCount() {
        return unproven.size();
    }

    /**
     * @param peer a peer, or null for any
     * @return the oldest unproven server connection (of {@code peer} when not null), or null
     */
    public Connection oldestUnproven(Peer peer) {
        Iterator<Connection> it = unproven.iterator();
        while (it.hasNext()) {
            Connection c = it.next();
            if (peer == null || c.peer == peer) {
                return c;
            }
        }
        return null;
    }

    /** @return the number of server connections */
    public int serverCount() {
        return serverConns.size();
    }

    /**
     * Closes a connection and removes it (client or server) from its table; its counters go to {@code into} and
     * its peer loses one connection.
     *
     * @param conn the connection (its calls already ended or failed)
     * @param into the endpoint's counters of closed connections
     */
    public void remove(Connection conn, RxCounters into) {
        conn.close();
        if (conn.client) {
            clientConns.remove(conn.cid);
            clientIndex.remove(conn.cid);
        } else {
            serverConns.remove(serverKey(conn.epoch, conn.cid, conn.peer.address()));
            if (conn.epoch < 0) {
                anyAddressIndex.remove(anyAddressKey(conn.epoch, conn.cid));
            }
            unproven.remove(conn);
        }
        conn.counters.addTo(into);
        conn.peer.connections--;
    }

    /** @return the peer for an address, created on first use */
    public Peer peer(InetSocketAddress address) {
        return peers.computeIfAbsent(address, this::newPeer);
    }

    private Peer newPeer(InetSocketAddress a) {
        boolean v6 = a.getAddress() instanceof Inet6Address;
        int mtu = routeMtu.applyAsInt(a);
        // A window of the largest packets must fit the socket's receive buffer, or a burst overflows it.
        int ifMtu = config.packetSize().peerIfMtu(mtu, v6, receiveBuffer.getAsInt(), config.windows().maxRwind());
        return new Peer(a, config, ifMtu, PacketSize.jumbogramsFitting(mtu, v6));
    }

    /**
     * The ACK trailer values toward an address that may have no peer (the stateless reachability PING's,
     * docs/robustness.md "Rule: stateless reachability challenge"), computed as {@link #newPeer} does: the route's
     * interface MTU, not a default, so the PING says what the route carries (no fragments on a 1,500-byte route).
     * Cached for the last route asked about; makes no peer.
     *
     * @param a the address
     * @return the trailer values
     */
    public RouteTrailer trailerFor(InetSocketAddress a) {
        boolean v6 = a.getAddress() instanceof Inet6Address;
        int mtu = routeMtu.applyAsInt(a);
        int buffer = receiveBuffer.getAsInt();
        long key = (long) mtu << 33 | (v6 ? 1L << 32 : 0) | (buffer & 0xFFFFFFFFL);
        if (lastTrailer == null || key != lastTrailerKey) {
            int ifMtu = config.packetSize().peerIfMtu(mtu, v6, buffer, config.windows().maxRwind());
            int jumbo = config.packetSize().jumboLimit(PacketSize.jumbogramsFitting(mtu, v6));
            lastTrailer = new RouteTrailer(config.packetSize().advertisedMaxMtu(ifMtu, jumbo), ifMtu, jumbo);
            lastTrailerKey = key;
        }
        return lastTrailer;
    }

    /** @return the peer for an address, or null when none is known */
    public Peer knownPeer(InetSocketAddress address) {
        return peers.get(address);
    }

    /** @return the number of known peers */
    public int peerCount() {
        return peers.size();
    }

    /** Forgets a peer that has no connection left (an evicted flood source). */
    public void forgetPeer(Peer p) {
        if (p.connections <= 0) {
            peers.remove(p.address(), p);
        }
    }

    /** Forgets peers with no connection that were last used more than {@code unusedNs} before {@code now}. */
    public void reapPeers(long now, long unusedNs) {
        peers.values().removeIf(p -> p.connections <= 0 && now - p.lastUsedNs > unusedNs);
    }

    /**
     * The reaper's pass: removes server connections without running calls idle for
     * {@code RxConfig.reaping().idleConnectionTimeNs()}, retiring client connections ({@link ClientConnections})
     * whose calls have all finished, and peers without connections unused for
     * {@code RxConfig.reaping().idlePeerTimeNs()}.
     *
     * @param now current time, ns
     * @param into the endpoint's counters of closed connections
     */
    public void reap(long now, RxCounters into) {
        List<Connection> idle = new ArrayList<>();
        for (Connection c : serverConns.values()) {
            if (!c.hasActiveCalls() && now - c.lastActivityNs > config.reaping().idleConnectionTimeNs()) {
                idle.add(c);
            }
        }
        for (Connection c : clientConns.values()) {
            if (c.retiring && !c.hasActiveCalls()) {
                c.endCalls(now); // settles a finished call's owed final ack (ACKALL)
                idle.add(c);
            }
        }
        for (Connection c : idle) {
            remove(c, into);
        }
        reapPeers(now, config.reaping().idlePeerTimeNs());
    }

    /**
     * Adds the counters of every live connection into {@code total}.
     *
     * @param total accumulator
     */
    public void addCountersTo(RxCounters total) {
        for (Connection c : clientConns.values()) {
            c.counters.addTo(total);
        }
        for (Connection c : serverConns.values()) {
            c.counters.addTo(total);
        }
    }

    /**
     * Ends the calls of every connection, client and server ({@link Connection#endCalls}): the endpoint shuts down.
     * A server's parked DATA is released with its calls.
     *
     * @param now current time, ns
     */
    public void endAllCalls(long now) {
        List<Connection> all = new ArrayList<>(clientConns.values());
        all.addAll(serverConns.values());
        all.forEach(conn -> conn.endCalls(now));
    }

    /** @return every client connection (live view) */
    public Collection<Connection> clientConnections() {
        return clientConns.values();
    }

    /** @return every server connection (live view) */
    public Collection<Connection> serverConnections() {
        return serverConns.values();
    }

    /** @return every known peer (live view) */
    public Collection<Peer> peers() {
        return peers.values();
    }
}
