package org.rx4j.engine;

import java.util.HashMap;
import java.util.Map;
import org.rx4j.config.RxConfig;

/**
 * The engine's services and the start of server calls: which {@link ServiceHandler} takes calls for a service id
 * and security index, starting an admitted call (its handler gets a new-call event), and starting the calls held
 * in PRECALL once their peer proves reachable (rx-wire-facts.md §2, §6.2). Engine thread only.
 */
final class ServiceRegistry {
    private final RxConfig config;
    private final ConnectionTable table;
    private final EventQueue events;
    private final Map<Integer, ServiceHandler> services = new HashMap<>();
    private long callsExecuted;

    /**
     * @param config tunables (the reachability TTL)
     * @param table the connections whose PRECALL calls start when their peer is reachable
     * @param events where new-call events go
     */
    ServiceRegistry(RxConfig config, ConnectionTable table, EventQueue events) {
        this.config = config;
        this.table = table;
        this.events = events;
    }

    private static int key(int serviceId, int securityIndex) {
        return (serviceId << 8) | securityIndex;
    }

    /** Registers (or replaces) the handler for a service id (0..65535) and security index (0..255). */
    void register(int serviceId, int securityIndex, ServiceHandler handler) {
        services.put(key(serviceId, securityIndex), handler);
    }

    /** @return true when a handler is registered for the service id and security index */
    boolean isKnown(int serviceId, int securityIndex) {
        return services.containsKey(key(serviceId, securityIndex));
    }

    /**
     * Starts an admitted server call: counts it, and queues the new-call event for its service's handler.
     *
     * @param call the call (ACTIVE)
     * @param conn its connection
     */
    void start(Call call, Connection conn) {
        conn.counters.callsStarted++;
        callsExecuted++;
        ServiceHandler handler = services.get(key(conn.serviceId, conn.securityIndex));
        if (handler != null) {
            events.newCall(call, handler);
        }
    }

    /**
     * The peer answered a reachability PING: it counts as reachable for the TTL, and every PRECALL call of its
     * server connections starts (§6.2).
     *
     * @param peer the peer
     * @param now current time, ns
     */
    void peerReachable(Peer peer, long now) {
        peer.markReachable(now + config.reachTtlNs());
        for (Connection c : table.serverConnections()) {
            if (c.peer == peer) {
                c.startPrecalls(now, pc -> start(pc, c));
            }
        }
    }

    /** @return server calls started since the engine was created */
    long callsExecuted() {
        return callsExecuted;
    }
}
