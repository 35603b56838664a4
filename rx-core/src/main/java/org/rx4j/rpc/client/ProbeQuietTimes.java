// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When each server last answered an unreachability probe ({@link UnreachableProbe}), so that a server known to be
 * listening is not probed again for {@link #QUIET_NS}: without it every connection probed on its own, once per
 * call after its last probe had ended — a client round-robining small calls over 10,000 connections to one server
 * opened a UDP socket and sent a VERSION datagram for almost every call (1,658 probes in 5,000 calls over
 * 100 connections, docs/benchmarks.md "Cost growth with connections"). The trade: a server that answered less than a
 * second ago and has died since is found by the dead time, not by ICMP. A server that never answered (closed port,
 * ICMP) is probed with each call as before. Any thread; times are the endpoint's clock (ns).
 */
public final class ProbeQuietTimes {
    /** How long an answered probe vouches for its server, ns (1 s). */
    public static final long QUIET_NS = 1_000_000_000L;
    /** More servers than this and the table starts afresh (it is a cache: forgetting costs only a probe each). */
    static final int MAX_SERVERS = 4096;

    private final ConcurrentHashMap<InetSocketAddress, Long> answeredAt = new ConcurrentHashMap<>();
    private final AtomicLong started = new AtomicLong();

    /**
     * Whether a probe of {@code server} is due at {@code now}: it is unless the server answered one within
     * {@link #QUIET_NS}.
     *
     * @param server the server's address
     * @param now the endpoint's clock, ns
     * @return true if the caller should probe
     */
    public boolean due(InetSocketAddress server, long now) {
        Long at = answeredAt.get(server);
        return at == null || now - at >= QUIET_NS;
    }

    /** Counts a probe sent (for tests and diagnostics). */
    public void started() {
        started.incrementAndGet();
    }

    /**
     * Records that {@code server} answered a probe (something listens at its port).
     *
     * @param server the server's address
     * @param now the endpoint's clock, ns
     */
    public void answered(InetSocketAddress server, long now) {
        if (answeredAt.size() >= MAX_SERVERS) {
            answeredAt.clear();
        }
        answeredAt.put(server, now);
    }

    /** @return probes started since the endpoint opened */
    public long startedCount() {
        return started.get();
    }
}
