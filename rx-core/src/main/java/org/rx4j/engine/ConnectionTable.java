package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * The engine's connection and peer tables: client connections by connection id, server connections by
 * epoch + cid (+ address unless epoch bit 31 is set), peers by address, and client connection id allocation
 * (rx-wire-facts.md §1, §7). Insertion-ordered, so rxdebug's connection walk (one index per request) stays
 * stable as connections are added. Engine thread only.
 */
final class ConnectionTable {
    private final RxConfig config;
    private int nextCid;
    private final Map<InetSocketAddress, Peer> peers = new LinkedHashMap<>();
    private final Map<Integer, Connection> clientConns = new LinkedHashMap<>();
    private final Map<ServerKey, Connection> serverConns = new LinkedHashMap<>();
    // Per-packet lookups without boxing (issue 10, target 9): client connections by cid, and server connections
    // whose epoch has bit 31 set (known by epoch + cid from any address, §7) by (epoch << 32 | cid). The maps above
    // keep the insertion order for iteration; server connections without bit 31 are looked up there.
    private final LongIndex<Connection> clientIndex = new LongIndex<>();
    private final LongIndex<Connection> anyAddressIndex = new LongIndex<>();

    private record ServerKey(int epoch, int cid, InetSocketAddress address) {
    }

    /**
     * @param config tunables (for new peers)
     * @param firstCid the first client connection id to try (channel bits and bit 31 cleared by the caller)
     */
    ConnectionTable(RxConfig config, int firstCid) {
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
    void nextConnectionId(int cid) {
        nextCid = cid & RxConstants.CID_MASK & 0x7FFFFFFF;
    }

    void addClient(Connection c) {
        clientConns.put(c.cid, c);
        clientIndex.put(c.cid, c);
    }

    /** @return the client connection a reply packet belongs to, or null (unknown cid, epoch or security index) */
    Connection clientConnection(RxHeader h) {
        Connection c = clientIndex.get(h.connectionId());
        if (c == null || c.epoch != h.epoch() || c.securityIndex != h.securityIndex()) {
            return null;
        }
        return c;
    }

    private static ServerKey serverKey(int epoch, int cid, InetSocketAddress from) {
        // Epoch bit 31: the connection is known by epoch+cid from any address (§7).
        return new ServerKey(epoch, cid, epoch < 0 ? null : from);
    }

    /** @return the server connection with this epoch and cid (from this address unless epoch bit 31), or null */
    Connection serverConnection(int epoch, int cid, InetSocketAddress from) {
        if (epoch < 0) {
            return anyAddressIndex.get(anyAddressKey(epoch, cid));
        }
        return serverConns.get(serverKey(epoch, cid, from));
    }

    private static long anyAddressKey(int epoch, int cid) {
        return ((long) epoch << 32) | (cid & 0xFFFF_FFFFL);
    }

    /** Adds a server connection first heard from {@code from}. */
    void addServer(Connection c, InetSocketAddress from) {
        serverConns.put(serverKey(c.epoch, c.cid, from), c);
        if (c.epoch < 0) {
            anyAddressIndex.put(anyAddressKey(c.epoch, c.cid), c);
        }
    }

    /** @return the number of server connections */
    int serverCount() {
        return serverConns.size();
    }

    /** Removes a connection (client or server) from its table. */
    void remove(Connection conn) {
        if (conn.client) {
            clientConns.remove(conn.cid);
            clientIndex.remove(conn.cid);
        } else {
            serverConns.remove(serverKey(conn.epoch, conn.cid, conn.peer.address()));
            if (conn.epoch < 0) {
                anyAddressIndex.remove(anyAddressKey(conn.epoch, conn.cid));
            }
        }
    }

    /** @return the peer for an address, created on first use */
    Peer peer(InetSocketAddress address) {
        return peers.computeIfAbsent(address, a -> new Peer(a, config));
    }

    /** Forgets peers with no connection that were last used more than {@code unusedNs} before {@code now}. */
    void reapPeers(long now, long unusedNs) {
        peers.values().removeIf(p -> p.connections <= 0 && now - p.lastUsedNs > unusedNs);
    }

    /** @return every client connection (live view) */
    Collection<Connection> clientConnections() {
        return clientConns.values();
    }

    /** @return every server connection (live view) */
    Collection<Connection> serverConnections() {
        return serverConns.values();
    }

    /** @return every known peer (live view) */
    Collection<Peer> peers() {
        return peers.values();
    }
}
