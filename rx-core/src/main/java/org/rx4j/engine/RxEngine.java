// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.admission.ConnectionLimits;
import org.rx4j.engine.admission.ReachChallenger;
import org.rx4j.engine.admission.SecurityHandshake;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.ClientConnections;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.connection.ConnectionContext;
import org.rx4j.engine.connection.ConnectionTable;
import org.rx4j.engine.debug.ConnectionlessResponder;
import org.rx4j.engine.debug.DebugResponder;
import org.rx4j.engine.debug.EngineView;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.output.RawAborts;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.security.ConnectionSecurity;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.security.SecurityClass;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxPacket;

/**
 * The sans-I/O Rx endpoint (design.md "engine"): a thin facade at the top of the engine's ownership tree. It owns the
 * {@link ConnectionTable} (connections and peers), the {@link PacketDispatcher} that demultiplexes decoded packets,
 * the {@link ReachChallenger} whose proven sources' packets it replays, the services, the {@link EngineTimers}, the
 * {@link EventQueue} of deferred work and the endpoint's own counters. Each {@link Connection} gets the engine's
 * narrow {@link ConnectionContext} and owns its calls. Deterministic: every entry point takes {@code now} (ns from
 * an injected clock) and runs between one {@code events.enter()} / {@code events.exit(now)} pair; output goes to the
 * {@link PacketSink}; the engine owns no thread, socket or clock. Not thread-safe: one thread uses an engine.
 */
public final class RxEngine implements EngineView {
    private final RxConfig config;
    private final int epoch;
    private final ConnectionTable table;
    private final TimerQueue timers = new TimerQueue();
    private final RxCounters endpointCounters = new RxCounters(RxCounter.Scope.ENDPOINT);
    private final EventQueue events = new EventQueue(timers, endpointCounters);
    private final ServiceRegistry services;
    private final ConnectionContext link;
    private final ReachChallenger challenger;
    private final ConnectionlessResponder connectionless;
    private final PacketDispatcher dispatcher;
    private final EngineTimers engineTimers;
    private final SecurityHandshake handshake = new SecurityHandshake(endpointCounters);
    private final ClientConnections clients;
    /** True once {@link #shutdown} ran: datagrams are dropped unanswered. */
    private boolean closed;

    /**
     * @param config tunables
     * @param sink where packets go
     * @param alloc allocator for outgoing partial packets
     * @param seed seed for the epoch and connection ids (use a random seed outside tests)
     * @param now current time, ns
     * @throws NullPointerException if {@code config} is null
     */
    public RxEngine(RxConfig config, PacketSink sink, ByteBufAllocator alloc, long seed, long now) {
        this.config = config;
        SplittableRandom random = new SplittableRandom(seed);
        // OpenAFS 1.8: random epoch with bit 31 set and bit 30 clear (§1).
        this.epoch = (random.nextInt() & 0x3FFFFFFF) | 0x80000000;
        this.table = new ConnectionTable(config, random.nextInt() & RxConstants.CID_MASK & 0x7FFFFFFF, sink::routeMtu,
                sink::receiveBufferBytes);
        this.services = new ServiceRegistry(config, table, events);
        handshake.budget(config.limits().maxHeldBytes(), config.limits().maxHeldBytesPerPeer());
        this.link = new EngineContext(config, alloc, sink, events, timers, services);
        this.clients = new ClientConnections(link, table, epoch);
        ConnectionLimits limits = new ConnectionLimits(config, table, endpointCounters);
        this.challenger = new ReachChallenger(config, table, limits, sink, endpointCounters, alloc,
                random.nextLong());
        this.connectionless = new ConnectionlessResponder(config, sink, endpointCounters, this);
        this.dispatcher = new PacketDispatcher(config, table, services, link, endpointCounters,
                new ServerConnectionAdmission(config, table, services, link, limits, challenger,
                        new RawAborts(sink, endpointCounters)), connectionless, handshake);
        this.engineTimers = new EngineTimers(config, timers, events, challenger, table, endpointCounters, handshake,
                now);
    }

    @Override
    public RxConfig config() {
        return config;
    }

    /** @return the allocator for outgoing buffers */
    public ByteBufAllocator alloc() {
        return link.alloc();
    }

    /** @return this endpoint's epoch (client side), bit 31 set */
    public int epoch() {
        return epoch;
    }

    /**
     * Installs the responder for DEBUG requests (rxdebug); without one DEBUG requests are dropped.
     *
     * @param responder the responder, or null
     */
    public void setDebugResponder(DebugResponder responder) {
        connectionless.setDebugResponder(responder);
    }

    /**
     * Registers a service: calls arriving for {@code serviceId} with {@code securityIndex} reach {@code handler}.
     *
     * @param serviceId 0..65535
     * @param securityIndex 0 (rxnull; other classes with {@link #registerService(int, SecurityClass, ServiceHandler)})
     * @param handler told of each new call
     * @throws IllegalArgumentException if securityIndex is not 0
     */
    public void registerService(int serviceId, int securityIndex, ServiceHandler handler) {
        registerService(serviceId, ConnectionSecurity.rxnull(securityIndex), handler);
    }

    /** As {@link #registerService(int, int, ServiceHandler)} for a class: calls start once authenticated. */
    public void registerService(int serviceId, SecurityClass securityClass, ServiceHandler handler) {
        services.register(serviceId, securityClass, handler);
    }

    /**
     * Opens a client connection (no packet is sent until the first call). Connection ids start at a random
     * value with the channel bits clear and step by 4, skipping ids still in use after wrap (§1, §7).
     *
     * @param peer server address
     * @param serviceId 0..65535
     * @param securityIndex 0 (rxnull; other classes with {@link #connect(InetSocketAddress, int, SecurityClass)})
     * @return the connection
     * @throws IllegalArgumentException if securityIndex is not 0
     */
    public Connection connect(InetSocketAddress peer, int serviceId, int securityIndex) {
        return connect(peer, serviceId, ConnectionSecurity.rxnull(securityIndex));
    }

    /** As {@link #connect(InetSocketAddress, int, int)} with a security class (its state is made now). */
    public Connection connect(InetSocketAddress peer, int serviceId, SecurityClass securityClass) {
        return clients.open(peer, serviceId, securityClass);
    }

    /** {@link ClientConnections#forNewCall}: conn, or a new connection with fresh credentials (sends nothing). */
    public Connection connectionForNewCall(Connection conn) {
        return clients.forNewCall(conn);
    }

    /** @return the TRACE log of packet decisions (tests point it at a capture: {@link PacketTrace#logTo}) */
    PacketTrace packetTrace() {
        return link.trace();
    }

    /** Sets the next connection id {@link #connect} tries (its channel bits and bit 31 cleared): tests wrap ids. */
    void nextConnectionId(int cid) {
        table.nextConnectionId(cid);
    }

    /**
     * Starts a client call on a free channel (preferring non-busy, lowest-numbered), or queues it when all
     * 4 channels are taken; it starts when one frees (the connection allocates channels).
     *
     * @param now current time, ns
     * @param conn a client connection of this engine
     * @param listener the call's events
     * @return the call (state ACTIVE or WAITING)
     * @throws IllegalStateException if the connection is closed or failed, or too many calls wait
     */
    public Call newCall(long now, Connection conn, CallListener listener) {
        return conn.newCall(now, listener, config.limits().maxPendingCalls());
    }

    /**
     * Closes a client connection: its active calls are aborted with RX_USER_ABORT (−6); a finished call that
     * still owes its final ack sends ACKALL instead (rx-wire-facts.md §6.4).
     *
     * @param now current time, ns
     * @param conn the connection
     */
    public void closeConnection(long now, Connection conn) {
        if (!conn.closed) {
            entered(now, () -> {
                conn.endCalls(now);
                table.remove(conn, endpointCounters);
            });
        }
    }

    /**
     * Aborts every unfinished call of {@code conn} with {@code code} (an ABORT per running call, waiting calls
     * dropped) and keeps the connection usable for later calls (unlike {@link #abortConnection}); the RPC layer's
     * unreachability probe uses it with RX_CALL_DEAD.
     *
     * @param now current time, ns
     * @param conn the connection
     * @param code the abort code, non-zero
     */
    public void abortCalls(long now, Connection conn, int code) {
        if (!conn.closed) {
            entered(now, () -> conn.abortCalls(now, code));
        }
    }

    /**
     * Aborts a whole connection: sends ABORT with callNumber 0 and fails every call on it with {@code code}.
     *
     * @param now current time, ns
     * @param conn the connection
     * @param code the abort code
     */
    public void abortConnection(long now, Connection conn, int code) {
        entered(now, () -> conn.abort(now, code));
    }

    /**
     * Aborts every unfinished call with RX_USER_ABORT (−6), settles the pending final ack of finished client calls with
     * ACKALL (§6.4), and releases every buffer the engine holds; used when an endpoint closes. From then on every
     * datagram is dropped unanswered (docs/robustness.md "Rule: graceful shutdown": nothing is sent after close but the
     * ABORTs and ACKALLs of the shutdown itself).
     *
     * @param now current time, ns
     */
    public void shutdown(long now) {
        closed = true;
        entered(now, () -> {
            table.endAllCalls(now);
            challenger.clear();
        });
    }

    /** Runs an application's entry point's work between one enter / exit pair (deferred work drains at {@code now}). */
    private void entered(long now, Runnable work) {
        events.enter();
        try {
            work.run();
        } finally {
            events.exit(now);
        }
    }

    /**
     * Processes the packets decoded from one datagram (a jumbogram gives several DATA packets, all for
     * one call; {@link PacketDispatcher#onDatagram}). At most one ACK is sent per datagram for a call, after all its
     * sub-packets. A packet whose handling throws is dropped and counted in {@link RxCounter#INTERNAL_ERRORS}.
     *
     * <p>Ownership: takes every packet in {@code packets} (not the list, which the caller may reuse).
     *
     * @param now current time, ns
     * @param from the sender's address
     * @param packets the packets in wire order (at least one)
     */
    public void onDatagram(long now, InetSocketAddress from, List<RxPacket> packets) {
        if (closed) {
            dispatcher.dropAll(PacketTrace.In.CLOSED, from, packets);
            return;
        }
        events.enter();
        try {
            dispatcher.onDatagram(now, from, packets);
        } finally {
            events.exit(now);
        }
        if (challenger.hasReplay()) {
            // Packets kept for sources that just proved reachable, each as its own datagram arriving now.
            challenger.replay((source, packet) -> onDatagram(now, source, List.of(packet)));
        }
    }

    /**
     * A datagram from {@code from} did not decode as Rx (the transport counted and dropped it): counted at that
     * address's peer when one is known ({@link Peer#notRxDatagrams()}), so a call to an address that answers with
     * something other than Rx can say so when it dies (docs/errors.md "Local reasons": NOT_RX). Nothing is sent.
     *
     * @param now current time, ns
     * @param from the sender's address
     */
    public void onNotRx(long now, InetSocketAddress from) {
        Peer p = table.knownPeer(from);
        if (p != null) {
            p.notRxReceived();
        }
    }

    /**
     * Delivers the call events an application's task left queued: a task that reads a call's last packet ends the
     * call ({@link Call#read}), and its completion must not wait for the next datagram or timer tick. The transport
     * calls it after each task it runs on the loop; inside an entry point ({@link #onDatagram}, {@link #onTimer}) it
     * does nothing, as that entry point's end delivers them.
     *
     * @param now current time, ns
     */
    public void settle(long now) {
        events.settleOutsideEntryPoint(now);
    }

    /** @return the earliest time, ns, at which {@link #onTimer} has work; Long.MAX_VALUE for none */
    public long nextDeadline() {
        return engineTimers.nextDeadline();
    }

    /**
     * Runs every timer due at {@code now} ({@link EngineTimers}): the calls' retransmissions, delayed acks, pings and
     * dead-time checks, the expiry of reachability-challenge records, and the reaper of idle connections and peers.
     *
     * @param now current time, ns
     */
    public void onTimer(long now) {
        events.enter();
        try {
            engineTimers.run(now);
        } finally {
            events.exit(now);
        }
    }

    @Override
    public Collection<Connection> clientConnections() {
        return table.clientConnections();
    }

    @Override
    public Collection<Connection> serverConnections() {
        return table.serverConnections();
    }

    @Override
    public Collection<Peer> peers() {
        return table.peers();
    }

    /** @return the last exception counted in {@link RxCounter#INTERNAL_ERRORS} (for diagnosis), or null */
    public RuntimeException lastInternalError() {
        return dispatcher.lastInternalError();
    }

    /**
     * Whether the peer that sent the last datagram given to {@link #onDatagram} likely has another one waiting in the
     * socket already, so that the transport reads on in the same wake-up (docs/transport.md "Reads per wake-up"): the
     * peer sends every datagram with a send of its own, as OpenAFS does (its ACK trailers advertise jumbograms of base
     * packets, {@link Peer#basePacketReceiver}; an rx4j peer gathers what it sends at once into one GSO send, which one
     * read takes whole), and either the datagram's connection has more than one call in progress, whose datagrams are
     * on their way too, or the datagram came from the middle of a reply longer than one receive window (its last
     * packet DATA from the server side without LAST_PACKET, seq above maxRwind): past its first window OpenAFS's
     * server keeps a window-full in flight, each ACK releasing the next datagrams, where within it the sender may be
     * waiting for the acks of its slow start, and a read would find nothing. Not for a request's DATA: OpenAFS's client
     * sending 128 KiB calls to an rx4j server was slower with it in most rounds (docs/benchmarks.md "Reading on past a
     * reply's first window"). Asked after the datagram's unit of work (a completed call's successor already started).
     * Engine thread only.
     *
     * @return false before any datagram, for a datagram of no connection, toward rx4j peers, on a connection with one
     *     call in progress for a datagram of a request, of a reply's first window or of its end, and once the engine is
     *     shut down
     */
    public boolean lastSenderLikelyHasMore() {
        Connection c = closed ? null : dispatcher.lastConnection();
        // The field read before the scan of the connection's channels: asked after every datagram.
        return c != null && c.peer.basePacketReceiver()
                && (dispatcher.lastInsideLongReply() || c.callsInProgress() > 1);
    }

    @Override
    public RxCounters totals() {
        RxCounters t = new RxCounters(RxCounter.Scope.ENDPOINT);
        endpointCounters.addTo(t);
        table.addCountersTo(t);
        services.addCountersTo(t);
        challenger.addCountersTo(t);
        handshake.addCountersTo(t);
        return t;
    }
}
