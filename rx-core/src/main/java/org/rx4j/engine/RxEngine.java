package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.VersionPacket;

/**
 * The sans-I/O Rx endpoint (design.md "engine"): connection and peer tables, demultiplexing of decoded
 * packets to calls, server call creation, client channel allocation, and one timer queue for every call.
 * Deterministic: every entry point takes {@code now} (ns from an injected clock); output goes to the
 * {@link PacketSink}; the engine owns no thread, socket or clock. Not thread-safe: exactly one thread
 * (an event loop, or the simulator) uses an engine.
 *
 * <p>Connection lookup follows rx-wire-facts.md §7; call creation §2, §6; DEBUG/VERSION §9.
 */
public final class RxEngine {
    private static final long REAP_INTERVAL_NS = 60_000_000_000L;
    private static final long IDLE_CONNECTION_NS = 700_000_000_000L;

    private final RxConfig config;
    private final PacketSink sink;
    private final ByteBufAllocator alloc;
    private final SplittableRandom random;
    private final int epoch;
    private final ConnectionTable table;
    private final Map<Integer, ServiceHandler> services = new HashMap<>();
    private final TimerQueue timers = new TimerQueue();
    private final EventQueue events = new EventQueue(this, timers);
    private final RxCounters endpointCounters = new RxCounters();
    private DebugResponder debugResponder;
    private boolean inDispatch;
    private long nextReapNs;
    private long droppedPackets;
    private long callsExecuted;

    /**
     * @param config tunables
     * @param sink where packets go
     * @param alloc allocator for outgoing partial packets
     * @param seed seed for the epoch and connection ids (use a random seed outside tests)
     * @param now current time, ns
     */
    public RxEngine(RxConfig config, PacketSink sink, ByteBufAllocator alloc, long seed, long now) {
        this.config = config;
        this.sink = sink;
        this.alloc = alloc;
        this.random = new SplittableRandom(seed);
        // OpenAFS 1.8: random epoch with bit 31 set and bit 30 clear (§1).
        this.epoch = (random.nextInt() & 0x3FFFFFFF) | 0x80000000;
        this.table = new ConnectionTable(config, random.nextInt() & RxConstants.CID_MASK & 0x7FFFFFFF);
        this.nextReapNs = now + REAP_INTERVAL_NS;
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
        services.put(serviceKey(serviceId, securityIndex), handler);
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
        Connection c = new Connection(this, p, true, epoch, cid, serviceId, securityIndex);
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
     * 4 channels are taken; it starts when one frees.
     *
     * @param now current time, ns
     * @param conn a client connection of this engine
     * @param listener the call's events
     * @return the call (state ACTIVE or WAITING)
     * @throws IllegalStateException if the connection is closed or failed, or too many calls wait
     */
    public Call newCall(long now, Connection conn, CallListener listener) {
        lastNow = now;
        if (!conn.client || conn.closed) {
            throw new IllegalStateException("connection closed");
        }
        if (conn.error != 0) {
            throw new IllegalStateException("connection aborted: " + AbortCodes.name(conn.error));
        }
        int ch = freeChannel(conn);
        if (ch < 0) {
            if (conn.waiting.size() >= config.maxPendingCalls()) {
                throw new IllegalStateException("too many calls waiting for a channel");
            }
            Call waiting = new Call(conn, -1, 0, false, now);
            waiting.state = CallState.WAITING;
            waiting.setListener(listener);
            conn.waiting.add(waiting);
            return waiting;
        }
        Call call = new Call(conn, -1, 0, false, now);
        call.setListener(listener);
        startClientCall(conn, ch, call, now);
        return call;
    }

    private void startClientCall(Connection conn, int ch, Call call, long now) {
        int callNumber = conn.callNumbers[ch] + 1;
        conn.callNumbers[ch] = callNumber;
        Call old = conn.calls[ch];
        if (old != null) {
            // The new call implicitly acknowledges the old reply: its delayed ack is not needed (§6.4).
            old.deadlineNs = Call.NONE;
            timers.update(old);
        }
        call.assignChannel(ch, callNumber, now);
        conn.calls[ch] = call;
        conn.busy[ch] = false;
        conn.counters.callsStarted++;
        conn.lastActivityNs = now;
    }

    private static int freeChannel(Connection conn) {
        int fallback = -1;
        for (int ch = 0; ch < RxConstants.MAX_CALLS; ch++) {
            Call c = conn.calls[ch];
            if (c == null || c.isDone()) {
                if (!conn.busy[ch]) {
                    return ch;
                }
                if (fallback < 0) {
                    fallback = ch;
                }
            }
        }
        return fallback;
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
        lastNow = now;
        boolean outer = !inDispatch;
        inDispatch = true;
        try {
            endCalls(now, conn);
            removeConnection(conn);
        } finally {
            if (outer) {
                drain();
            }
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
        lastNow = now;
        boolean outer = !inDispatch;
        inDispatch = true;
        try {
            RxHeader h = conn.header(0, 0, 0, conn.nextSerial(), PacketType.ABORT, 0);
            send(conn, new AbortPacket(h, code));
            failConnection(conn, code, false);
        } finally {
            if (outer) {
                drain();
            }
        }
    }

    /**
     * Aborts every unfinished call with RX_USER_ABORT (−6), settles the pending final ack of finished client
     * calls with ACKALL (§6.4), and releases every buffer the engine holds; used when an endpoint closes.
     *
     * @param now current time, ns
     */
    public void shutdown(long now) {
        lastNow = now;
        boolean outer = !inDispatch;
        inDispatch = true;
        try {
            List<Connection> all = new ArrayList<>(table.clientConnections());
            all.addAll(table.serverConnections());
            for (Connection conn : all) {
                endCalls(now, conn);
            }
        } finally {
            if (outer) {
                drain();
            }
        }
    }

    /**
     * Ends every call of a connection from this side: unfinished ones are aborted with RX_USER_ABORT (−6), waiting
     * ones fail with it, and a finished call that still owes its final ack sends ACKALL (§6.4).
     */
    private static void endCalls(long now, Connection conn) {
        failWaiting(conn, AbortCodes.RX_USER_ABORT);
        for (Call c : conn.calls) {
            if (c == null) {
                continue;
            }
            if (c.isDone()) {
                c.ackAllIfOwed();
            } else {
                c.abort(now, AbortCodes.RX_USER_ABORT);
            }
        }
    }

    /**
     * Fails the calls waiting for a channel. Done before the channels' calls end: each ending call would
     * otherwise hand its channel to a waiting call, which then started and was never ended.
     */
    private static void failWaiting(Connection conn, int code) {
        Call c;
        while ((c = conn.waiting.poll()) != null) {
            c.fail(code);
        }
    }

    /**
     * Fails every call of a connection, waiting ones included, and marks the connection unusable.
     *
     * @param remote true when the code came in the peer's connection ABORT
     */
    private void failConnection(Connection conn, int code, boolean remote) {
        conn.error = code;
        failWaiting(conn, code);
        for (Call c : conn.calls) {
            if (c != null) {
                if (remote) {
                    c.onAbort(code);
                } else {
                    c.fail(code);
                }
            }
        }
    }

    private void removeConnection(Connection conn) {
        conn.closed = true;
        for (Call c : conn.calls) {
            if (c != null) {
                c.deadlineNs = Call.NONE;
                timers.update(c);
            }
        }
        table.remove(conn);
        conn.counters.addTo(endpointCounters);
        conn.peer.connections--;
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
        lastNow = now;
        boolean outer = !inDispatch;
        inDispatch = true;
        try {
            int n = packets.size();
            if (n > 1) {
                endpointCounters.largestJumbogramReceived = Math.max(endpointCounters.largestJumbogramReceived, n);
            }
            for (int i = 0; i < n; i++) {
                RxPacket p = packets.get(i);
                try {
                    dispatch(now, from, p, i == n - 1, n > 1);
                } catch (RuntimeException e) {
                    drop(p);
                }
            }
        } finally {
            if (outer) {
                drain();
            }
        }
    }

    private void dispatch(long now, InetSocketAddress from, RxPacket p, boolean lastInDatagram, boolean jumbogram) {
        RxHeader h = p.header();
        int type = h.type();
        if (type == PacketType.VERSION || type == PacketType.DEBUG) {
            answerConnectionless(from, p);
            return;
        }
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
        conn.peer.lastUsedNs = now;
        int ch = h.channel();
        int callNumber = h.callNumber();
        switch (type) {
            case PacketType.DATA -> onData(now, conn, (DataPacket) p, lastInDatagram);
            case PacketType.ACK -> {
                conn.counters.packetsReceived[PacketType.ACK]++;
                Call call = callFor(conn, ch, callNumber);
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
                    failConnection(conn, code, true);
                } else {
                    Call call = callFor(conn, ch, callNumber);
                    if (call != null) {
                        call.onAbort(code);
                    }
                }
            }
            case PacketType.BUSY -> {
                conn.counters.packetsReceived[PacketType.BUSY]++;
                if (conn.client) {
                    conn.busy[ch] = true;
                }
            }
            case PacketType.ACKALL -> {
                conn.counters.packetsReceived[PacketType.ACKALL]++;
                Call call = callFor(conn, ch, callNumber);
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
            abortConnection(now, conn, AbortCodes.RX_PROTOCOL_ERROR);
            return;
        }
        Call call = callFor(conn, ch, callNumber);
        if (call != null) {
            call.abort(now, AbortCodes.RX_PROTOCOL_ERROR);
        } else {
            RxHeader h = conn.header(ch, callNumber, 0, conn.nextSerial(), PacketType.ABORT, 0);
            send(conn, new AbortPacket(h, AbortCodes.RX_PROTOCOL_ERROR));
        }
    }

    private static Call callFor(Connection conn, int ch, int callNumber) {
        Call c = conn.calls[ch];
        return c != null && c.callNumber == callNumber ? c : null;
    }

    /** Releases a packet no connection or call takes, and counts it. */
    private void drop(RxPacket p) {
        p.release();
        droppedPackets++;
    }

    private void onData(long now, Connection conn, DataPacket p, boolean lastInDatagram) {
        // Datagrams per type, as OpenAFS's rx_stats counts them; sub-packets in dataPacketsReceived.
        if (lastInDatagram) {
            conn.counters.packetsReceived[PacketType.DATA]++;
        }
        conn.counters.dataPacketsReceived++;
        RxHeader h = p.header();
        int ch = h.channel();
        int callNumber = h.callNumber();
        Call call = conn.calls[ch];
        if (callNumber == 0 || h.seq() == 0) {
            drop(p);
            return;
        }
        if (conn.client) {
            if (call == null || call.callNumber != callNumber) {
                    drop(p);
                return;
            }
            call.onData(now, p, lastInDatagram);
            return;
        }
        int current = conn.callNumbers[ch];
        if (call != null && callNumber == current) {
            call.onData(now, p, lastInDatagram);
            return;
        }
        if (callNumber - current < 0 && current != 0) {
            // An older call: never re-run a handler (§7).
            drop(p);
            return;
        }
        if (h.seq() < 1 || h.seq() > config.maxRwind()) {
            // A new call must start near seq 1 (§2): otherwise it is from before a restart.
            drop(p);
            return;
        }
        if (call != null && !call.isDone()) {
            if (call.replySent()) {
                call.succeed(); // the next call implicitly acknowledges the old reply (§6.4)
            } else {
                call.sendAbort(AbortCodes.RX_CALL_DEAD);
                call.fail(AbortCodes.RX_CALL_DEAD);
            }
        }
        ServiceHandler handler = service(conn);
        Call fresh = new Call(conn, ch, callNumber, true, now);
        conn.calls[ch] = fresh;
        conn.callNumbers[ch] = callNumber;
        if (call != null) {
            call.deadlineNs = Call.NONE;
            timers.update(call);
        }
        if (config.checkReach() && !conn.peer.isReachable(now)) {
            fresh.startReachCheck(now);
        } else {
            startServerCall(fresh, handler);
        }
        fresh.onData(now, p, lastInDatagram);
        touched(fresh);
    }

    private void startServerCall(Call call, ServiceHandler handler) {
        call.conn.counters.callsStarted++;
        callsExecuted++;
        if (handler != null) {
            events.newCall(call);
        }
    }

    /** The peer answered a reachability PING: start every PRECALL call to that peer's connections. */
    void peerReachable(Call call, long now) {
        Peer peer = call.conn.peer;
        peer.markReachable(now + config.reachTtlNs());
        for (Connection c : table.serverConnections()) {
            if (c.peer != peer) {
                continue;
            }
            for (Call pc : c.calls) {
                if (pc != null && pc.state == CallState.PRECALL) {
                    pc.reachConfirmed(now);
                    startServerCall(pc, service(c));
                    if (pc.isReadable()) {
                        events.readable(pc);
                    }
                    touched(pc);
                }
            }
        }
    }

    private static int serviceKey(int serviceId, int securityIndex) {
        return (serviceId << 8) | securityIndex;
    }

    /** @return the handler registered for the connection's service and security index, or null */
    ServiceHandler service(Connection c) {
        return services.get(serviceKey(c.serviceId, c.securityIndex));
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
        boolean known = services.containsKey(serviceKey(h.serviceId(), h.securityIndex()));
        if (!known && h.type() != PacketType.ABORT) {
            sendRawAbort(from, h);
        }
        if (!known || h.type() != PacketType.DATA) {
            return null; // only DATA creates a connection (§2)
        }
        if (table.serverCount() >= config.maxConnections()) {
            return null;
        }
        Peer peer = table.peer(from);
        c = new Connection(this, peer, false, h.epoch(), h.connectionId(), h.serviceId(), h.securityIndex());
        peer.connections++;
        c.lastActivityNs = now;
        table.addServer(c, from);
        return c;
    }

    /** Unknown service or security index: one small ABORT −2 with the offending packet's identity (§2, §13). */
    private void sendRawAbort(InetSocketAddress to, RxHeader h) {
        int flags = h.isClientInitiated() ? 0 : PacketFlags.CLIENT_INITIATED;
        RxHeader a = new RxHeader(h.epoch(), h.cid(), h.callNumber(), 0, 0, PacketType.ABORT, flags, 0,
                h.securityIndex(), 0, h.serviceId());
        endpointCounters.packetsSent[PacketType.ABORT]++;
        sink.send(to, new AbortPacket(a, AbortCodes.RX_INVALID_OPERATION));
    }

    private void answerConnectionless(InetSocketAddress from, RxPacket p) {
        RxHeader h = p.header();
        endpointCounters.packetsReceived[h.type()]++;
        if (!h.isClientInitiated()) {
            return; // replies and NAT pings are not answered (§8, §9)
        }
        RxHeader reply = h.withFlags(h.flags() & ~PacketFlags.CLIENT_INITIATED);
        if (p instanceof VersionPacket) {
            endpointCounters.packetsSent[PacketType.VERSION]++;
            sink.send(from, new VersionPacket(reply, VersionPacket.replyBody(config.versionString())));
        } else if (p instanceof DebugRequest d && debugResponder != null) {
            RxPacket answer = debugResponder.answer(this, reply, d);
            if (answer != null) {
                endpointCounters.packetsSent[PacketType.DEBUG]++;
                sink.send(from, answer);
            }
        }
    }

    // =====================================================================================
    // Timers

    /** @return the earliest time, ns, at which {@link #onTimer} has work; Long.MAX_VALUE for none */
    public long nextDeadline() {
        return TimerQueue.earlier(timers.earliest(), nextReapNs);
    }

    /**
     * Runs every timer due at {@code now}: retransmissions, delayed acks, keepalive and reachability
     * pings, dead/idle/hard-dead checks, and the idle-connection reaper.
     *
     * @param now current time, ns
     */
    public void onTimer(long now) {
        lastNow = now;
        boolean outer = !inDispatch;
        inDispatch = true;
        try {
            int guard = 0;
            while (timers.size() > 0 && now - timers.earliest() >= 0 && guard++ < 1_000_000) {
                Call c = timers.peek();
                c.onTimer(now);
                c.updateDeadline();
                if (c.deadlineNs != Call.NONE && now - c.deadlineNs >= 0) {
                    c.deadlineNs = now + 1_000_000; // never spin on a timer that did not move
                }
                timers.update(c);
                touched(c);
            }
            if (now - nextReapNs >= 0) {
                reap(now);
                nextReapNs = now + REAP_INTERVAL_NS;
            }
        } finally {
            if (outer) {
                drain();
            }
        }
    }

    private void reap(long now) {
        List<Connection> idle = new ArrayList<>();
        for (Connection c : table.serverConnections()) {
            if (!c.hasActiveCalls() && now - c.lastActivityNs > IDLE_CONNECTION_NS) {
                idle.add(c);
            }
        }
        for (Connection c : idle) {
            removeConnection(c);
        }
        table.reapPeers(now, REAP_INTERVAL_NS);
    }

    // =====================================================================================
    // Services for Call

    /** Marks a call changed: its pending ACK is flushed and its deadline recomputed once processing ends. */
    void touched(Call c) {
        events.touched(c);
        if (!inDispatch) {
            drain();
        }
    }

    void notifyReadable(Call c) {
        events.readable(c);
    }

    void notifyWritable(Call c) {
        events.writable(c);
    }

    /** A call reached DALLY or ERROR: queue the completion event, start a waiting call. */
    void callEnded(Call c) {
        events.complete(c, c.error);
        Connection conn = c.conn;
        if (conn.client && !conn.waiting.isEmpty() && !conn.closed && c.channel >= 0
                && conn.calls[c.channel] == c) {
            Call w = conn.waiting.poll();
            startClientCall(conn, c.channel, w, lastNow);
            w.transmit(lastNow);
            touched(w);
            events.writable(w);
        }
    }

    void send(Connection conn, RxPacket p) {
        int type = p.header().type();
        conn.counters.packetsSent[RxCounters.typeSlot(type)]++;
        int bytes = PacketEncoder.encodedLength(p);
        conn.counters.bytesSent += bytes;
        conn.peer.counters().bytesSent += bytes;
        sink.send(conn.peer.address(), p);
    }

    void sendData(Connection conn, List<DataPacket> batch) {
        int k = batch.size();
        conn.counters.packetsSent[PacketType.DATA]++; // datagrams, as documented; sub-packets go to dataPacketsSent
        conn.counters.dataPacketsSent += k;
        conn.peer.counters().dataPacketsSent += k;
        for (int i = 0; i < k; i++) {
            int bytes = RxConstants.HEADER_SIZE + batch.get(i).payload().readableBytes();
            conn.counters.bytesSent += bytes;
            conn.peer.counters().bytesSent += bytes;
        }
        if (k == 1) {
            sink.send(conn.peer.address(), batch.get(0));
        } else {
            sink.sendJumbogram(conn.peer.address(), batch);
        }
        batch.clear();
    }

    private void drain() {
        inDispatch = true;
        try {
            events.drain();
        } finally {
            inDispatch = false;
        }
    }

    /** The latest time any entry point was given; work deferred to {@link #drain()} runs at it. */
    private long lastNow;

    /** @return the latest time any entry point was given, ns */
    long lastNow() {
        return lastNow;
    }

    /** Records the caller's current time before deferred work runs. */
    void clock(long now) {
        lastNow = now;
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

    /** @return packets dropped because no connection or call took them */
    public long droppedPackets() {
        return droppedPackets;
    }

    /** @return server calls started since the engine was created */
    public long callsExecuted() {
        return callsExecuted;
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
