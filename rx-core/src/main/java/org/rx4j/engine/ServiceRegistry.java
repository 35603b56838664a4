// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import io.netty.util.collection.IntObjectHashMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.connection.ConnectionTable;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.security.HeldBytes;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.security.SecurityClass;

/**
 * The engine's services and the start of server calls: which {@link ServiceHandler} takes calls for a service id and
 * security index, and when an admitted server call may start (its handler gets a new-call event). A new call is held in
 * PRECALL until its request's first packet has arrived and, with checkReach, its peer has answered a reachability PING
 * (rx-wire-facts.md §2, §6.2; docs/robustness.md "Rule: a call gets a handler only after packet 1, from a reachable
 * peer"): calls holding only later packets never reach a handler. The held calls are kept oldest first with their
 * connection and the packets they hold; past {@code RxConfig.limits().maxHeldPackets()} the oldest is forgotten. Engine
 * thread only.
 */
final class ServiceRegistry {
    private final RxConfig config;
    private final ConnectionTable table;
    private final EventQueue events;
    /** Keyed by {@link #key}; a primitive-keyed map, as it is looked up for every client-initiated packet. */
    private final IntObjectHashMap<ServiceHandler> services = new IntObjectHashMap<>();
    /** The security class of each registered pair, keyed like {@link #services}: new connections get it. */
    private final IntObjectHashMap<SecurityClass> classes = new IntObjectHashMap<>();
    /** Server calls admitted but not started, oldest first, each with its connection and packets last counted. */
    private final LinkedHashMap<Call, Held> held = new LinkedHashMap<>();
    private int heldPackets;
    /** The byte budget of held calls' packets ({@code maxHeldBytes}, {@code maxHeldBytesPerPeer}). */
    private final HeldBytes heldBytes;
    private long callsExecuted;
    private long callsForgotten;

    /**
     * @param config tunables (checkReach, the reachability TTL, maxHeldPackets)
     * @param table the connections (marked proven when a call starts on them)
     * @param events where new-call, readable and touched events go
     */
    ServiceRegistry(RxConfig config, ConnectionTable table, EventQueue events) {
        this.config = config;
        this.table = table;
        this.events = events;
        this.heldBytes = new HeldBytes(config.limits().maxHeldBytes(), config.limits().maxHeldBytesPerPeer());
    }

    private static int key(int serviceId, int securityIndex) {
        return (serviceId << 8) | securityIndex;
    }

    /** Registers (or replaces) the handler for a service id (0..65535) and a security class (its index 0..255). */
    void register(int serviceId, SecurityClass securityClass, ServiceHandler handler) {
        int key = key(serviceId, securityClass.securityIndex());
        classes.put(key, securityClass);
        services.put(key, handler);
    }

    /** @return the security class registered for the service id and security index, or null */
    SecurityClass securityClass(int serviceId, int securityIndex) {
        return classes.get(key(serviceId, securityIndex));
    }

    /**
     * @return true when a handler is registered for the service id with some security index: a packet of it with
     *     another index asks for a security class the service does not offer (docs/errors.md "Local reasons")
     */
    boolean offersService(int serviceId) {
        for (int key : services.keySet()) {
            if (key >>> 8 == serviceId) {
                return true;
            }
        }
        return false;
    }

    /** @return true when a handler is registered for the service id and security index */
    boolean isKnown(int serviceId, int securityIndex) {
        return services.containsKey(key(serviceId, securityIndex));
    }

    /**
     * A new server call was admitted for a DATA packet (not yet given to it): it is held in PRECALL, and its peer
     * is PINGed when checkReach is on and the peer's reachability is unknown.
     *
     * @param now current time, ns
     * @param call the new call
     * @param conn its connection
     */
    void admitted(long now, Call call, Connection conn) {
        call.hold(now, config.reachability().checkReach() && !conn.peer.isReachable(now));
        held.put(call, new Held(conn));
        call.inHeldList = true;
    }

    /**
     * A held (PRECALL) call took a DATA packet: recounts what it holds, starts it when it may, and forgets the
     * oldest held calls while more than {@code RxConfig.limits().maxHeldPackets()} packets or
     * {@code maxHeldBytes} bytes are held, and the peer's oldest while more than {@code maxHeldBytesPerPeer} bytes
     * are held for that peer (docs/robustness.md "Rule: a byte budget for what unproven sources leave").
     *
     * @param now current time, ns
     * @param call the call
     * @param conn its connection
     */
    void heldData(long now, Call call, Connection conn) {
        Held h = call.inHeldList ? held.get(call) : null;
        if (h == null) {
            return;
        }
        if (call.state() != CallState.PRECALL) {
            forgetCounted(call);
            return;
        }
        int n = call.heldPackets();
        heldPackets += n - h.packets;
        h.packets = n;
        long b = call.heldBytes();
        heldBytes.add(b - h.bytes);
        conn.peer.heldCallBytes += b - h.bytes;
        h.bytes = b;
        tryStart(now, call, conn);
        while ((heldPackets > config.limits().maxHeldPackets() || heldBytes.over()) && !held.isEmpty()) {
            forget(now, held.keySet().iterator().next());
        }
        Peer peer = conn.peer;
        while (heldBytes.overPeer(peer.heldCallBytes)) {
            Call oldest = null;
            for (Map.Entry<Call, Held> e : held.entrySet()) {
                if (e.getValue().conn.peer == peer) {
                    oldest = e.getKey();
                    break;
                }
            }
            if (oldest == null) {
                break;
            }
            forget(now, oldest);
        }
    }

    /** Forgets a held call silently (its packets released, nothing sent): it made room for others. */
    private void forget(long now, Call call) {
        Connection owner = forgetCounted(call).conn;
        callsForgotten++;
        owner.forgetCall(now, call);
    }

    private void tryStart(long now, Call call, Connection conn) {
        if (!call.hasFirstPacket() || (config.reachability().checkReach() && !conn.peer.isReachable(now))) {
            return;
        }
        forgetCounted(call);
        call.reachConfirmed();
        start(call, conn); // the new-call event also tells the handler of data already readable
        events.touched(call, now);
    }

    /** @return what was held for {@code call}, or null when it was not held */
    private Held forgetCounted(Call call) {
        if (!call.inHeldList) {
            return null; // started (or never held): every ending call asks, so no map look-up for those
        }
        call.inHeldList = false;
        Held h = held.remove(call);
        if (h != null) {
            heldPackets -= h.packets;
            heldBytes.add(-h.bytes);
            h.conn.peer.heldCallBytes -= h.bytes;
        }
        return h;
    }

    /** A call ended: if it was still held, its packets no longer count. */
    void ended(Call call) {
        forgetCounted(call);
    }

    /**
     * Starts a server call: marks its connection proven, counts it, and queues the new-call event for its
     * service's handler.
     *
     * @param call the call (ACTIVE)
     * @param conn its connection
     */
    private void start(Call call, Connection conn) {
        table.proven(conn);
        conn.counters.increment(RxCounter.CALLS_STARTED);
        callsExecuted++;
        ServiceHandler handler = services.get(key(conn.serviceId, conn.securityIndex()));
        if (handler != null) {
            events.newCall(call, handler);
        }
    }

    /**
     * The peer answered a reachability PING: it counts as reachable for the TTL, and every held call of its
     * that has its first packet starts (§6.2).
     *
     * @param peer the peer
     * @param now current time, ns
     */
    void peerReachable(Peer peer, long now) {
        peer.markReachable(now + config.reachability().reachTtlNs());
        List<Map.Entry<Call, Connection>> mine = new ArrayList<>();
        held.forEach((c, h) -> {
            if (h.conn.peer == peer) {
                mine.add(Map.entry(c, h.conn));
            }
        });
        for (Map.Entry<Call, Connection> e : mine) {
            e.getKey().stopReachPings();
            tryStart(now, e.getKey(), e.getValue());
        }
    }

    /** Adds this registry's counts (calls executed, held and forgotten, held packets) to an engine's totals. */
    void addCountersTo(RxCounters t) {
        t.add(RxCounter.CALLS_EXECUTED, callsExecuted());
        t.add(RxCounter.HELD_SERVER_CALLS, heldCalls());
        t.add(RxCounter.HELD_SERVER_PACKETS, heldPackets());
        t.add(RxCounter.HELD_CALLS_FORGOTTEN, callsForgotten());
        t.add(RxCounter.HELD_BYTES, heldBytes.bytes());
    }

    /** @return server calls started since the engine was created */
    long callsExecuted() {
        return callsExecuted;
    }

    /** @return server calls held (admitted, not started) right now */
    int heldCalls() {
        return held.size();
    }

    /** @return DATA packets held by server calls not yet started, as last counted */
    int heldPackets() {
        return heldPackets;
    }

    /** @return bytes of the packets held by server calls not yet started (28-byte header + payload each) */
    long heldBytes() {
        return heldBytes.bytes();
    }

    /** @return held calls forgotten because {@code RxConfig.limits().maxHeldPackets()} was exceeded */
    long callsForgotten() {
        return callsForgotten;
    }

    /** What is kept for one held call: its connection (for the engine's work on it) and its packets last counted. */
    private static final class Held {
        final Connection conn;
        int packets;
        long bytes;

        Held(Connection conn) {
            this.conn = conn;
        }
    }
}
