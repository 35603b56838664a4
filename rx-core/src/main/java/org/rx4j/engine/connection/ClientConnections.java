// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import java.net.InetSocketAddress;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.packet.PacketSecurity;

/**
 * Opens client connections and replaces one whose credentials ended (docs/security.md "Ticket expiry"): when a new
 * call is about to start on a connection whose class says so ({@link PacketSecurity#needsNewConnection}: rxkad's
 * ticket ended, or the server aborted the connection with RXKADEXPIRED), a new connection to the same peer, service
 * and class (a new cid, whose {@link PacketSecurity#newConnection} picks fresh credentials) takes the call instead.
 * The old one is marked retiring: its calls in flight finish, and the reaper ({@link ConnectionTable#reap}) closes it
 * once they have (sending nothing here keeps this a plain lookup for the caller). Engine thread only.
 */
public final class ClientConnections {
    private final ConnectionContext link;
    private final ConnectionTable table;
    private final int epoch;

    /**
     * @param link the engine's context for each new connection
     * @param table where client connections are kept
     * @param epoch the engine's epoch
     */
    public ClientConnections(ConnectionContext link, ConnectionTable table, int epoch) {
        this.link = link;
        this.table = table;
        this.epoch = epoch;
    }

    /**
     * Opens a client connection with the next free cid (no packet is sent until its first call).
     *
     * @param peer the server's address
     * @param serviceId 0..65535
     * @param securityClass the connection's class (its state is made now)
     * @return the connection
     */
    public Connection open(InetSocketAddress peer, int serviceId, SecurityClass securityClass) {
        int cid = table.nextClientCid();
        Connection c = new Connection(link, table.peer(peer), true, epoch, cid, serviceId, securityClass);
        table.addClient(c);
        return c;
    }

    /**
     * @param conn a client connection of this engine
     * @return {@code conn}, or its replacement when conn's class wants new calls on a new connection
     * @throws IllegalStateException if the replacement cannot be made (its class could not get credentials); conn is
     *     then left as it was
     */
    public Connection forNewCall(Connection conn) {
        if (!conn.client || conn.closed || !conn.security.needsNewConnection(conn.error)) {
            return conn;
        }
        Connection fresh;
        try {
            fresh = open(conn.peer.address(), conn.serviceId, conn.security.securityClass);
        } catch (RuntimeException e) { // the class's credential supplier failed
            throw new IllegalStateException("no fresh credentials for a new connection: " + e.getMessage(), e);
        }
        conn.retiring = true;
        return fresh;
    }
}
