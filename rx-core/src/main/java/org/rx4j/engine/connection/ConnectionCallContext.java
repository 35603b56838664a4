// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallContext;
import org.rx4j.engine.call.CallEvents;
import org.rx4j.engine.call.CallOrigin;
import org.rx4j.engine.cc.CongestionControllerSupplier;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.security.ConnectionSecurity;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.OutboundPackets;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * The {@link CallContext} one {@link Connection} hands to each of its calls: the connection's side of the narrow
 * interface, created by and owned with the connection. Connection-level work (headers, serials, counting, the
 * channels and the waiting queue) goes to the connection; each call's events are made by the engine's
 * {@link ConnectionContext} and go to its event queue directly. Engine thread only.
 */
public final class ConnectionCallContext implements CallContext {
    private final Connection conn;
    private final ConnectionContext link;

    /**
     * @param conn the connection whose calls use this context
     * @param link the engine's side, passed down to the connection
     */
    ConnectionCallContext(Connection conn, ConnectionContext link) {
        this.conn = conn;
        this.link = link;
    }

    @Override
    public RxConfig config() {
        return link.config();
    }

    @Override
    public ByteBufAllocator alloc() {
        return link.alloc();
    }

    @Override
    public CongestionControllerSupplier congestionControl() {
        return link.congestionControl();
    }

    @Override
    public PacketTrace trace() {
        return link.trace();
    }

    @Override
    public CallOrigin origin() {
        return new CallOrigin(conn.peer.address(), conn.epoch, conn.cid, conn.serviceId, conn.securityIndex(),
                conn.security.identity());
    }

    @Override
    public Peer peer() {
        return conn.peer;
    }

    @Override
    public RxCounters counters() {
        return conn.counters;
    }

    @Override
    public RxHeader header(int channel, int callNumber, int seq, int type, int flags) {
        return conn.header(channel, callNumber, seq, conn.nextSerial(), type, flags);
    }

    @Override
    public OutboundPackets reusablePackets() {
        return link.reusablePackets();
    }

    @Override
    public RxHeader header(OutboundPackets reuse, int slot, int channel, int callNumber, int seq, int type,
                           int flags, int spare) {
        return conn.header(reuse, slot, channel, callNumber, seq, conn.nextSerial(), type, flags, spare);
    }

    @Override
    public ConnectionSecurity security() {
        return conn.security;
    }

    @Override
    public void abortConnection(long now, int code) {
        conn.abort(now, code);
    }

    @Override
    public int lastSerial() {
        return conn.lastSerial();
    }

    @Override
    public void send(RxPacket p) {
        conn.send(p);
    }

    @Override
    public void sendData(List<DataPacket> batch) {
        conn.sendData(batch);
    }

    @Override
    public CallEvents events(Call c) {
        return link.callEvents(c, this);
    }

    @Override
    public void ended(Call c, long now) {
        conn.callEnded(c, now);
    }

    @Override
    public void leaveWaiting(Call c) {
        conn.leaveWaiting(c);
    }
}
