// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import java.net.InetSocketAddress;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.admission.SecurityHandshake;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.connection.ConnectionContext;
import org.rx4j.engine.connection.ConnectionTable;
import org.rx4j.engine.debug.ConnectionlessResponder;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.engine.telemetry.RxCounters;
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
 * The engine's inbound demultiplexer: takes a decoded datagram whole or drops it whole (a bad jumbogram), sends
 * VERSION and DEBUG to the {@link ConnectionlessResponder}, and for every other packet finds the connection it belongs
 * to (a client-initiated packet's through the {@link ServerConnectionAdmission}, which may also create it), has the
 * connection count it, and hands it to the call on its channel — DATA to a running call or to a new server call the
 * connection admits, ACK / ABORT / ACKALL / BUSY to the call or connection (rx-wire-facts.md §2, §6, §7). DATA passes
 * the connection's security class ({@link SecurityHandshake}), which also takes CHALLENGE and RESPONSE. Each packet's
 * decision goes to the {@link PacketTrace}. Engine thread only.
 */
final class PacketDispatcher {
    private final RxConfig config;
    private final ConnectionTable table;
    private final ServiceRegistry services;
    private final ConnectionContext link;
    private final RxCounters endpointCounters;
    private final ServerConnectionAdmission admission;
    private final ConnectionlessResponder connectionless;
    private final SecurityHandshake handshake;
    private final PacketTrace trace;
    /** Why {@link #clientConnection} last found none. */
    private PacketTrace.In clientRefusal;
    /** The last exception counted in the endpoint's internalErrors, for diagnosis; null for none. */
    private RuntimeException lastInternalError;
    /** The connection of the last datagram dispatched ({@link #lastConnection}); null before one. */
    private Connection lastConnection;
    /**
     * The last datagram dispatched ended in a reply's DATA packet (from the server side) without LAST_PACKET beyond the
     * first receive window (its seq above maxRwind): a reply longer than one window, whose sender keeps its window in
     * flight.
     */
    private boolean lastInsideLongReply;

    /**
     * @param config tunables (receive window, jumbogram limit, reachability checks)
     * @param table the connection and peer tables
     * @param services the registered services; they start admitted server calls
     * @param link what new server connections get from the engine
     * @param endpointCounters the counters of traffic no connection owns
     * @param admission finds or makes the server connection of a client-initiated packet
     * @param connectionless the answers to VERSION and DEBUG
     * @param handshake the security classes' CHALLENGE / RESPONSE exchange and per-packet checks
     */
    PacketDispatcher(RxConfig config, ConnectionTable table, ServiceRegistry services, ConnectionContext link,
            RxCounters endpointCounters, ServerConnectionAdmission admission, ConnectionlessResponder connectionless,
            SecurityHandshake handshake) {
        this.config = config;
        this.table = table;
        this.services = services;
        this.link = link;
        this.endpointCounters = endpointCounters;
        this.admission = admission;
        this.connectionless = connectionless;
        this.handshake = handshake;
        this.trace = link.trace();
    }

    /**
     * Dispatches the packets decoded from one datagram (a jumbogram gives several DATA packets, all for one call).
     * A packet whose handling throws is dropped and counted in internalErrors; the others go on.
     *
     * <p>Ownership: takes every packet in {@code packets} (not the list).
     *
     * @param now current time, ns
     * @param from the sender's address
     * @param packets the packets in wire order (at least one)
     */
    void onDatagram(long now, InetSocketAddress from, List<RxPacket> packets) {
        lastConnection = null;
        int n = packets.size();
        RxHeader last = packets.get(n - 1).header();
        lastInsideLongReply = last.type() == PacketType.DATA && !last.isClientInitiated()
                && !last.hasFlag(PacketFlags.LAST_PACKET)
                && Integer.compareUnsigned(last.seq(), config.windows().maxRwind()) > 0;
        if (n > 1) {
            endpointCounters.raiseTo(RxCounter.LARGEST_JUMBOGRAM_RECEIVED, n);
            if (!acceptableJumbogram(packets)) {
                endpointCounters.increment(RxCounter.JUMBOGRAMS_REJECTED);
                dropAll(PacketTrace.In.BAD_JUMBOGRAM, from, packets);
                return;
            }
        }
        for (int i = 0; i < n; i++) {
            RxPacket p = packets.get(i);
            try {
                int type = p.header().type();
                if (type == PacketType.VERSION || type == PacketType.DEBUG) {
                    trace.inbound(PacketTrace.In.CONNECTIONLESS, from, p.header());
                    connectionless.answer(from, p);
                } else {
                    dispatch(now, from, p, i == n - 1, n > 1);
                }
            } catch (RuntimeException e) {
                endpointCounters.increment(RxCounter.INTERNAL_ERRORS);
                lastInternalError = e;
                drop(PacketTrace.In.INTERNAL_ERROR, from, p);
            }
        }
    }

    /**
     * A jumbogram is taken whole or dropped whole (docs/robustness.md, "Rule: jumbogram abuse"): dropped when it
     * holds more sub-packets than this endpoint advertises (maxDgramPackets = jumboMax; no conforming sender exceeds
     * it, §4) or when its seqs wrap through 0 (seq 0 is never a DATA seq).
     */
    private boolean acceptableJumbogram(List<RxPacket> packets) {
        int n = packets.size();
        if (n > config.packetSize().jumboMax()) {
            return false;
        }
        int firstSeq = packets.get(0).header().seq();
        // Unsigned: the last seq must lie above the first, so no sub-packet carries seq 0.
        return firstSeq != 0 && Integer.compareUnsigned(firstSeq, firstSeq + n - 1) < 0;
    }

    /** @return the last exception counted in internalErrors (for diagnosis), or null */
    RuntimeException lastInternalError() {
        return lastInternalError;
    }

    /** @return the connection of the last datagram dispatched, or null when it had none (refused, connectionless) */
    Connection lastConnection() {
        return lastConnection;
    }

    /**
     * @return true when the last datagram dispatched ended in a reply's DATA packet (from the server side) without
     *     LAST_PACKET whose seq lies beyond the first receive window (above maxRwind): the middle of a reply longer
     *     than one window
     */
    boolean lastInsideLongReply() {
        return lastInsideLongReply;
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
    private void dispatch(long now, InetSocketAddress from, RxPacket p, boolean lastInDatagram, boolean jumbogram) {
        RxHeader h = p.header();
        int type = h.type();
        Connection conn = h.isClientInitiated() ? admission.connection(now, from, p) : clientConnection(from, h);
        if (conn == null) {
            PacketTrace.In why = h.isClientInitiated() ? admission.refusal() : clientRefusal;
            if (why != null) { // null: the reachability challenge took the packet (kept or released it)
                drop(why, from, p);
            }
            return;
        }
        lastConnection = conn;
        // Counted with its connection (a jumbogram too, like jumbogramsSent) before any call sees it.
        int bytes = RxConstants.HEADER_SIZE + p.bodyLength();
        boolean fromOther = !conn.peer.address().equals(from);
        if (!fromOther) {
            conn.onReceived(now, type, bytes, lastInDatagram, jumbogram);
        } else {
            // A server connection's packet from another address (epoch bit 31 matches from any address, §7): processed
            // where the connection is, so replies keep going to its address and nothing goes to the new one. No packet
            // moves a server connection, whatever its security class, as in OpenAFS 1.8 (§7); a move on a packet rxkad
            // verified would first need the new path validated (docs/robustness.md, "Rule: a server connection's
            // address never moves on an unauthenticated packet").
            endpointCounters.increment(RxCounter.ADDRESS_CHANGES_REFUSED);
            conn.countReceived(now, type, bytes, lastInDatagram, jumbogram);
        }
        int ch = h.channel();
        int callNumber = h.callNumber();
        switch (type) {
            case PacketType.DATA -> {
                if (handshake.admit(now, conn, (DataPacket) p, fromOther)) {
                    onData(now, from, conn, (DataPacket) p, lastInDatagram);
                } else {
                    trace.inbound(PacketTrace.In.SECURITY_HELD, from, h);
                }
            }
            case PacketType.ACK -> {
                Call call = conn.call(ch, callNumber);
                if (call != null) {
                    trace.inbound(PacketTrace.In.DELIVERED, from, h);
                    call.inbound().onAck(now, (AckPacket) p);
                } else {
                    drop(PacketTrace.In.UNKNOWN_CALL, from, p);
                }
            }
            case PacketType.ABORT -> {
                int code = ((AbortPacket) p).code();
                Call call = callNumber == 0 ? null : conn.call(ch, callNumber);
                trace.inbound(callNumber == 0 ? PacketTrace.In.HANDLED
                        : call != null ? PacketTrace.In.DELIVERED : PacketTrace.In.UNKNOWN_CALL, from, h);
                if (callNumber == 0) {
                    conn.fail(now, code, true);
                } else if (call != null) {
                    call.inbound().onAbort(now, code);
                }
            }
            case PacketType.BUSY -> {
                trace.inbound(PacketTrace.In.BUSY, from, h);
                conn.markBusy(ch);
            }
            case PacketType.ACKALL -> {
                Call call = conn.call(ch, callNumber);
                trace.inbound(call != null ? PacketTrace.In.DELIVERED : PacketTrace.In.UNKNOWN_CALL, from, h);
                if (call != null) {
                    call.inbound().onAckAll(now);
                }
            }
            case PacketType.CHALLENGE -> {
                trace.inbound(PacketTrace.In.HANDLED, from, h);
                handshake.onChallenge(now, conn, (ControlPacket) p);
            }
            case PacketType.RESPONSE -> {
                trace.inbound(PacketTrace.In.HANDLED, from, h);
                List<DataPacket> released = handshake.onResponse(now, conn, (ControlPacket) p, fromOther);
                for (int i = 0; i < released.size(); i++) {
                    // Parked until the client answered: checked and dispatched now, as if they arrived.
                    DataPacket d = released.get(i);
                    if (handshake.admit(now, conn, d, false)) { // parked only from the connection's address
                        onData(now, from, conn, d, i == released.size() - 1);
                    } else {
                        trace.inbound(PacketTrace.In.SECURITY_HELD, from, d.header());
                    }
                }
            }
            case 9, 10, 11 -> trace.inbound(PacketTrace.In.HANDLED, from, h); // only counted: PARAMS (§2)
            default -> {
                trace.inbound(PacketTrace.In.HANDLED, from, h);
                onUnknownType(now, conn, (ControlPacket) p);
            }
        }
    }

    /**
     * A client connection hears only its server's host and port (docs/robustness.md, "Rule: a client connection
     * hears only its server's address"): its ids from any other address are counted and dropped.
     *
     * @return the client connection, or null (unknown ids, or a stranger's packet)
     */
    private Connection clientConnection(InetSocketAddress from, RxHeader h) {
        Connection c = table.clientConnection(h);
        clientRefusal = PacketTrace.In.NO_CONNECTION;
        if (c != null && !c.peer.address().equals(from)) {
            endpointCounters.increment(RxCounter.CLIENT_PACKETS_FROM_STRANGERS);
            clientRefusal = PacketTrace.In.STRANGER_ADDRESS;
            return null;
        }
        return c;
    }

    private void onUnknownType(long now, Connection conn, ControlPacket p) {
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

    /**
     * Releases a packet no connection or call takes, counts it in the endpoint's droppedPackets and traces why.
     *
     * @param why the drop reason
     * @param from the sender's address
     * @param p the packet; released here
     */
    void drop(PacketTrace.In why, InetSocketAddress from, RxPacket p) {
        trace.inbound(why, from, p.header());
        p.release();
        endpointCounters.increment(RxCounter.DROPPED_PACKETS);
    }

    /** Drops every packet of a datagram from {@code from} for {@code why} (see {@link #drop}). */
    void dropAll(PacketTrace.In why, InetSocketAddress from, List<RxPacket> packets) {
        for (int i = 0; i < packets.size(); i++) {
            drop(why, from, packets.get(i));
        }
    }

    private void onData(long now, InetSocketAddress from, Connection conn, DataPacket p, boolean lastInDatagram) {
        RxHeader h = p.header();
        if (h.callNumber() == 0 || h.seq() == 0) {
            drop(PacketTrace.In.ZERO_CALL_OR_SEQ, from, p);
            return;
        }
        Call call = conn.call(h.channel(), h.callNumber());
        if (call != null) {
            trace.inbound(PacketTrace.In.DELIVERED, from, h);
            boolean wasHeld = call.state() == CallState.PRECALL;
            call.inbound().onData(now, p, lastInDatagram);
            if (wasHeld) {
                services.heldData(now, call, conn);
            }
            return;
        }
        Call fresh = conn.client ? null : conn.admitServerCall(now, h, config.windows().maxRwind());
        if (fresh == null) {
            drop(PacketTrace.In.NO_NEW_CALL, from, p);
            return;
        }
        trace.inbound(PacketTrace.In.NEW_CALL, from, h);
        // Held in PRECALL until packet 1 is here and the peer proved reachable (docs/robustness.md, "Rule: a call
        // gets a handler only after packet 1, from a reachable peer"): a call holding only later packets never
        // reaches a handler or a worker.
        services.admitted(now, fresh, conn);
        fresh.inbound().onData(now, p, lastInDatagram);
        services.heldData(now, fresh, conn);
        link.touched(fresh, now);
    }
}
