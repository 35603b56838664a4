// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.connection.ConnectionContext;
import org.rx4j.engine.connection.ConnectionTable;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.RxPacket;

/**
 * The engine's tables and queues wired as RxEngine wires them, without an engine, for unit tests of one part
 * (limits, the reachability challenge, timers): a recording sink, the endpoint's counters, and server connections
 * made directly in the table.
 */
public final class EngineParts {
    /** One packet sent: its destination and the packet. */
    public record Sent(InetSocketAddress to, RxPacket packet) {
    }

    public final RxConfig config;
    public final List<Sent> sent = new ArrayList<>();
    public final PacketSink sink = new PacketSink() {
        @Override
        public void send(InetSocketAddress peer, RxPacket packet) {
            sent.add(new Sent(peer, packet));
        }

        @Override
        public void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets) {
            for (DataPacket p : packets) {
                sent.add(new Sent(peer, p));
            }
        }
    };
    public final RxCounters counters = new RxCounters(RxCounter.Scope.ENDPOINT);
    public final TimerQueue timers = new TimerQueue();
    public final EventQueue events = new EventQueue(timers, counters);
    public final ConnectionTable table;
    public final ServiceRegistry services;
    public final ConnectionContext link;
    private int nextCid = 0x100;

    public EngineParts(RxConfig config) {
        this.config = config;
        this.table = new ConnectionTable(config, 4);
        this.services = new ServiceRegistry(config, table, events);
        this.link = new EngineContext(config, UnpooledByteBufAllocator.DEFAULT, sink, events, timers, services);
    }

    /** @return a source address, distinct per {@code k} */
    public static InetSocketAddress source(int k) {
        return new InetSocketAddress("10.2." + (k / 250) + "." + (1 + k % 250), 7000 + k);
    }

    /** @return a new unproven server connection from {@code from} (epoch without bit 31), in the table */
    public Connection serverConnection(InetSocketAddress from) {
        Connection c = new Connection(link, table.peer(from), false, 0x1234, nextCid, 1,
                org.rx4j.security.RxNullSecurityClass.INSTANCE);
        nextCid += 4;
        table.addServer(c, from);
        return c;
    }
}
