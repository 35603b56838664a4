package org.rx4j.engine;

import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import org.rx4j.config.RxConfig;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.VersionPacket;

/**
 * The sans-I/O Rx endpoint (design.md "engine"), top of the engine's ownership tree: it owns the
 * {@link ConnectionTable} (connections and peers), the {@link PacketDispatcher} that demultiplexes decoded packets,
 * the services, one {@link TimerQueue} for every call and the {@link EventQueue} of deferred work. Each
 * {@link Connection} gets the engine's narrow {@link ConnectionContext} and owns its calls.
 * Deterministic: every entry point takes {@code now} (ns from an injected clock) and runs between one
 * {@code events.enter()} / {@code events.exit(now)} pair; output goes to the {@link PacketSink}; the engine owns no
 * thread, socket or clock. Not thread-safe: exactly one thread (an event loop, or the simulator) uses an engine.
 *
 * <p>Connection lookup follows rx-wire-facts.md §7; call creation §2, §6; DEBUG/VERSION §9.
 */
public final class RxEngine {
    private final RxConfig config;
    private final PacketSink sink;
    private final ByteBufAllocator alloc;
    private final SplittableRandom random;
    private final int epoch;
    private final ConnectionTable table;
    private final TimerQueue timers = new TimerQueue();
    private final EventQueue events = new EventQueue(timers);
    private final RxCounters endpointCounters = new RxCounters();
    private final ServiceRegistry services;
    private final ConnectionContext link;
    private final PacketDispatcher dispatcher;
    private DebugResponder debugResponder;
    private long nextReapNs;
    /** True once {@link #shutdown} ran: datagrams are dropped unanswered. */
    private boolean closed;
    /** The last exception counted in {@link #internalErrors()}, for diagnosis; null for none. */
    private RuntimeException lastInternalError;
    /** Packets whose handling threw inside the engine (see {@link #internalErrors()}). */
    private long internalErrors;

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
        this.sink = sink;
        this.alloc = alloc;
        this.random = new SplittableRandom(seed);
        // OpenAFS 1.8: random epoch with bit 31 set and bit 30 clear (§1).
        this.epoch = (random.nextInt() & 0x3FFFFFFF) | 0x80000000;
        this.table = new ConnectionTable(config, random.nextInt() & RxConstants.CID_MASK & 0x7FFFFFFF);
        this.services = new ServiceRegistry(config, table, events);
        this.link = new EngineContext(config, alloc, sink, events, timers, services);
        this.dispatcher = new PacketDispatcher(config, table, services, link, sink, endpointCounters,
                random.nextLong());
        this.nextReapNs = now + config.reapIntervalNs();
    }

    /** @return the configuration */
    public RxConfig config() {
        return config;
    }

    /** @return the allocator for outgoing buffers */
    public ByteBufAllocator alloc() {
        return alloc;
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
        this.debugResponder = responder;
    }

    /**
     * Registers a service: calls arriving for {@code serviceId} with {@code securityIndex} reach {@code handler}.
     *
     * @param serviceId 0..65535
     * @param securityIndex 0..255 (0 = rxnull)
     * @param handler told of each new call
     */
    public void registerService(int serviceId, int securityIndex, ServiceHandler handler) {
        services.register(serviceId, securityIndex, handler);
    }

    // =====================================================================================
    // Client side

    /**
     * Opens a client connection (no packet is sent until the first call). Connection ids start at a random
     * value with the channel bits clear and step by 4, skipping ids still in use after wrap (§1, §7).
     *
     * @param peer server address
     * @param serviceId 0..65535
     * @param securityIndex 0..255
     * @return the connection
     */
    public Connection connect(InetSocketAddress peer, int serviceId, int securityIndex) {
        int cid = table.nextClientCid();
        Peer p = table.peer(peer);
        Connection c = new Connection(link, p, true, epoch, cid, serviceId, securityIndex);
        p.connections++;
        table.addClient(c);
        return c;
    }

    /**
     * Sets the next connection id {@link #connect} tries (package-private: lets tests force the 2^29-id
     * counter to wrap without opening 2^29 connections).
     *
     * @param cid a connection id; its channel bits and bit 31 are cleared
     */
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
        return conn.newCall(now, listener, config.maxPendingCalls());
    }

    /**
     * Closes a client connection: its active calls are aborted with RX_USER_ABORT (−6); a finished call that
     * still owes its final ack sends ACKALL instead (rx-wire-facts.md §6.4).
     *
     * @param now current time, ns
     * @param conn the connection
     */
    public void closeConnection(long now, Connection conn) {
        if (conn.closed) {
            return;
        }
        events.enter();
        try {
            conn.endCalls(now);
            removeConnection(conn);
        } finally {
            events.exit(now);
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
        if (conn.closed) {
            return;
        }
        events.enter();
        try {
            conn.abortCalls(now, code);
        } finally {
            events.exit(now);
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
        events.enter();
        try {
            conn.abort(now, code);
        } finally {
            events.exit(now);
        }
    }

    /**
     * Aborts every unfinished call with RX_USER_ABORT (−6), settles the pending final ack of finished client
     * calls with ACKALL (§6.4), and releases every buffer the engine holds; used when an endpoint closes. From then
     * on every datagram is dropped unanswered (issue 12 rule 13: nothing is sent after close but the ABORTs and
     * ACKALLs of the shutdown itself).
     *
     * @param now current time, ns
     */
    public void shutdown(long now) {
        closed = true;
        events.enter();
        try {
            List<Connection> all = new ArrayList<>(table.clientConnections());
            all.addAll(table.serverConnections());
            for (Connection conn : all) {
                conn.endCalls(now);
            }
            dispatcher.clearChallenges();
        } finally {
            events.exit(now);
        }
    }

    private void removeConnection(Connection conn) {
        table.remove(conn, endpointCounters);
    }

    // =====================================================================================
    // Inbound

    /**
     * Processes the packets decoded from one datagram (a jumbogram gives several DATA packets, all for
     * one call). At most one ACK is sent per datagram for a call, after all its sub-packets.
     *
     * <p>Ownership: takes every packet in {@code packets} (not the list, which the caller may reuse).
     *
     * @param now current time, ns
     * @param from the sender's address
     * @param packets the packets in wire order (at least one)
     */
    public void onDatagram(long now, InetSocketAddress from, List<RxPacket> packets) {
        if (closed) {
            for (RxPacket p : packets) {
                dispatcher.drop(p);
            }
            return;
        }
        events.enter();
        try {
            int n = packets.size();
            if (n > 1) {
                endpointCounters.largestJumbogramReceived = Math.max(endpointCounters.largestJumbogramReceived, n);
                if (!acceptableJumbogram(packets)) {
                    endpointCounters.jumbogramsRejected++;
                    for (RxPacket p : packets) {
                        dispatcher.drop(p);
                    }
                    return;
                }
            }
            for (int i = 0; i < n; i++) {
                RxPacket p = packets.get(i);
                try {
                    int type = p.header().type();
                    if (type == PacketType.VERSION || type == PacketType.DEBUG) {
                        answerConnectionless(from, p);
                    } else {
                        dispatcher.dispatch(now, from, p, i == n - 1, n > 1);
                    }
                } catch (RuntimeException e) {
                    internalErrors++;
                    lastInternalError = e;
                    dispatcher.drop(p);
                }
            }
        } finally {
            events.exit(now);
        }
        if (dispatcher.hasReplay()) {
            replayProven(now);
        }
    }

    /**
     * Handles the DATA packets kept for sources that just proved reachable (docs/robustness.md "Stateless reachability
     * challenge"), each as its own datagram arriving now, as they arrived on the wire.
     */
    private void replayProven(long now) {
        InetSocketAddress[] from = new InetSocketAddress[1];
        List<DataPacket> kept;
        while ((kept = dispatcher.takeReplay(from)) != null) {
            for (int i = 0; i < kept.size(); i++) {
                onDatagram(now, from[0], List.of(kept.get(i)));
            }
        }
    }

    /**
     * A jumbogram is taken whole or dropped whole (issue 12 rule 5): dropped when it holds more sub-packets than
     * this endpoint advertises (maxDgramPackets = jumboMax; no conforming sender exceeds it, §4) or when its seqs
     * wrap through 0 (seq 0 is never a DATA seq).
     *
     * @param packets the sub-packets of one datagram, 2 or more, in wire order
     * @return true when the jumbogram may be dispatched
     */
    private boolean acceptableJumbogram(List<RxPacket> packets) {
        int n = packets.size();
        if (n > config.jumboMax()) {
            return false;
        }
        int firstSeq = packets.get(0).header().seq();
        // Unsigned: the last seq must lie above the first, so no sub-packet carries seq 0.
        return firstSeq != 0 && Integer.compareUnsigned(firstSeq, firstSeq + n - 1) < 0;
    }

    private void answerConnectionless(InetSocketAddress from, RxPacket p) {
        RxHeader h = p.header();
        endpointCounters.packetsReceived[h.type()]++;
        if (!h.isClientInitiated()) {
            return; // replies and NAT pings are not answered (§8, §9)
        }
        RxHeader reply = h.withFlags(h.flags() & ~PacketFlags.CLIENT_INITIATED);
        RxPacket answer = null;
        if (p instanceof VersionPacket) {
            answer = new VersionPacket(reply, VersionPacket.replyBody(config.versionString()));
        } else if (p instanceof DebugRequest d && debugResponder != null) {
            answer = debugResponder.answer(this, reply, d);
        }
        if (answer == null) {
            return;
        }
        // No reply larger than its query unless the policy allows it (rule 6: the source may be forged).
        boolean loopback = from.getAddress() != null && from.getAddress().isLoopbackAddress();
        if (!config.debugReplies().allows(RxConstants.HEADER_SIZE + p.bodyLength(),
                RxConstants.HEADER_SIZE + answer.bodyLength(), loopback)) {
            answer.release();
            endpointCounters.repliesWithheld++;
            return;
        }
        endpointCounters.packetsSent[answer.header().type()]++;
        sink.send(from, answer);
    }

    // =====================================================================================
    // Timers

    /** @return the earliest time, ns, at which {@link #onTimer} has work; Long.MAX_VALUE for none */
    public long nextDeadline() {
        return Deadlines.earlier(Deadlines.earlier(timers.earliest(), nextReapNs),
                dispatcher.nextChallengeExpiryNs());
    }

    /**
     * Runs every timer due at {@code now}: retransmissions, delayed acks, keepalive and reachability
     * pings, dead/idle/hard-dead checks, and the reaper: every {@link RxConfig#reapIntervalNs()} it removes server
     * connections without running calls idle for {@link RxConfig#idleConnectionTimeNs()} and peers without
     * connections unused for {@link RxConfig#idlePeerTimeNs()}.
     *
     * @param now current time, ns
     */
    public void onTimer(long now) {
        events.enter();
        try {
            int guard = 0;
            while (timers.size() > 0 && now - timers.earliest() >= 0 && guard++ < 1_000_000) {
                Call c = timers.peek();
                c.onTimer(now);
                c.updateDeadline();
                if (c.deadlineNs != Deadlines.NONE && now - c.deadlineNs >= 0) {
                    c.deadlineNs = now + 1_000_000; // never spin on a timer that did not move
                }
                timers.update(c);
                events.touched(c, now);
            }
            dispatcher.expireChallenges(now);
            if (now - nextReapNs >= 0) {
                reap(now);
                nextReapNs = now + config.reapIntervalNs();
            }
        } finally {
            events.exit(now);
        }
    }

    private void reap(long now) {
        List<Connection> idle = new ArrayList<>();
        for (Connection c : table.serverConnections()) {
            if (!c.hasActiveCalls() && now - c.lastActivityNs > config.idleConnectionTimeNs()) {
                idle.add(c);
            }
        }
        for (Connection c : idle) {
            removeConnection(c);
        }
        table.reapPeers(now, config.idlePeerTimeNs());
    }

    // =====================================================================================
    // Introspection (rxdebug, stats)

    /** @return every client connection (live view; engine thread only) */
    public Collection<Connection> clientConnections() {
        return table.clientConnections();
    }

    /** @return every server connection (live view; engine thread only) */
    public Collection<Connection> serverConnections() {
        return table.serverConnections();
    }

    /** @return every known peer (live view; engine thread only) */
    public Collection<Peer> peers() {
        return table.peers();
    }

    /**
     * @return packets whose handling threw inside the engine (caught there, the packet dropped); any is a bug, and
     *     the stateful fuzzer (issue 12) checks it stays 0
     */
    public long internalErrors() {
        return internalErrors;
    }

    /** @return the last exception counted in {@link #internalErrors()} (for diagnosis), or null */
    public RuntimeException lastInternalError() {
        return lastInternalError;
    }

    /** @return packets dropped because no connection or call took them */
    public long droppedPackets() {
        return dispatcher.droppedPackets();
    }

    /** @return server calls started since the engine was created */
    public long callsExecuted() {
        return services.callsExecuted();
    }

    /**
     * @return server calls admitted but not started right now (in PRECALL: waiting for their request's packet 1
     *     or their peer's reachability answer)
     */
    public int heldServerCalls() {
        return services.heldCalls();
    }

    /** @return DATA packets held right now by server calls not yet started (bounded by maxHeldPackets) */
    public int heldServerPackets() {
        return services.heldPackets();
    }

    /** @return held server calls forgotten since the engine was created because maxHeldPackets was exceeded */
    public long heldCallsForgotten() {
        return services.callsForgotten();
    }

    /** @return unproven server connections evicted to make room for new ones, since the engine was created */
    public long connectionsEvicted() {
        return dispatcher.connectionsEvicted();
    }

    /** @return new server connections refused with ABORT RX_CALL_BUSY because a limit was reached */
    public long connectionsRefused() {
        return dispatcher.connectionsRefused();
    }

    /**
     * @return sources recorded right now that sent DATA for a new connection before proving reachable (no
     *     connection, call or peer exists for them; bounded by {@link RxConfig#maxUnprovenConnections()}; see
     *     docs/robustness.md "Stateless reachability challenge")
     */
    public int challengedSources() {
        return dispatcher.challenges().sources();
    }

    /** @return DATA packets kept right now for challenged sources (bounded by {@link RxConfig#maxHeldPackets()}) */
    public int challengedPackets() {
        return dispatcher.challenges().heldPackets();
    }

    /** @return reachability PINGs sent to challenged sources, since the engine was created */
    public long challengesSent() {
        return dispatcher.challengesSent();
    }

    /** @return PING_RESPONSEs that proved a challenged source reachable, since the engine was created */
    public long challengesAnswered() {
        return dispatcher.challengesAnswered();
    }

    /**
     * @return challenged sources' records dropped to make room for others (the source or packet limit), since the
     *     engine was created (their packets released; a client resends)
     */
    public long challengesEvicted() {
        return dispatcher.challenges().sourcesEvicted();
    }

    /** @return challenged sources' records dropped a dead time after they were made, unanswered */
    public long challengesExpired() {
        return dispatcher.challenges().sourcesExpired();
    }

    /**
     * Sums the counters of every connection, closed ones included, with connectionless traffic.
     *
     * @return a fresh snapshot
     */
    public RxCounters totals() {
        RxCounters t = new RxCounters();
        endpointCounters.addTo(t);
        for (Connection c : table.clientConnections()) {
            c.counters.addTo(t);
        }
        for (Connection c : table.serverConnections()) {
            c.counters.addTo(t);
        }
        return t;
    }
}
