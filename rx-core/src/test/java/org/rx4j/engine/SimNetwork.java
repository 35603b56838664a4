// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlyweights;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxPacket;

/**
 * A deterministic network simulator: two {@link RxEngine}s (a client and a server) joined by two
 * {@link LinkModel}s, driven on one thread in virtual time. Every packet is really encoded and decoded,
 * so the codec is exercised too. Seeded: the same seed gives the same run.
 *
 * <p>It also runs a stall detector: no interval longer than 2 × the current (backed-off) RTO + 1 ms in
 * which a call has data pending and nothing new is acknowledged, unless {@link #allowStalls} is set.
 */
public final class SimNetwork {
    /** The client's address. */
    public static final InetSocketAddress CLIENT = new InetSocketAddress("10.0.0.1", 7001);
    /** The server's address. */
    public static final InetSocketAddress SERVER = new InetSocketAddress("10.0.0.2", 7009);

    private final Random random;
    private final PriorityQueue<Delivery> queue = new PriorityQueue<>();
    private long now;
    private long order;
    private final Endpoint client;
    private final Endpoint server;
    /** Every client endpoint, {@link #client} first; all share the client-to-server link and its queue. */
    private final List<Endpoint> clients = new ArrayList<>();
    private final long seed;
    private boolean burstC2s;
    private boolean burstS2c;
    private LinkModel clientToServer;
    private LinkModel serverToClient;
    private long freeAtC2s;
    private long freeAtS2c;
    /** Stall detector state per engine: one {@link Watch} per connection, in the engine's iteration order. */
    private final Map<RxEngine, List<Watch>> watches = new IdentityHashMap<>();

    /**
     * The stall detector's view of one connection's channels: the call last seen on each, its ack-progress marker
     * and since when that marker (or the call's idleness) holds, ns. Arrays instead of a map keyed by call: the
     * check runs at every simulation step.
     */
    private static final class Watch {
        final Connection conn;
        final Call[] calls = new Call[org.rx4j.wire.RxConstants.MAX_CALLS];
        final long[] marker = new long[org.rx4j.wire.RxConstants.MAX_CALLS];
        final long[] since = new long[org.rx4j.wire.RxConstants.MAX_CALLS];

        Watch(Connection conn) {
            this.conn = conn;
        }
    }
    /** When true, the stall detector is off (e.g. while an application deliberately does not read). */
    public boolean allowStalls;
    /** When true, the link drops everything (a silent peer). */
    public boolean blackout;
    /** When true, datagrams from the client to the server are dropped (one-way blackout). */
    public boolean blackoutToServer;
    /** When true, datagrams from the server to the client are dropped (one-way blackout). */
    public boolean blackoutToClient;
    /** Sees every datagram an engine sends, before the link decides its fate; may be null. */
    public SendTap sendTap;
    /** Decides per decoded datagram whether it is delivered (after the link model); may be null. */
    public DeliveryFilter deliveryFilter;
    /** Traffic delivered to the server engine. */
    public final SimTraffic deliveredToServer = new SimTraffic();
    /** Traffic delivered to the client engine. */
    public final SimTraffic deliveredToClient = new SimTraffic();

    /** Observes what an engine sends. */
    @FunctionalInterface
    public interface SendTap {
        /**
         * @param now virtual time, ns
         * @param fromClient true when the client engine sent it
         * @param packets the datagram's packets (a jumbogram gives several); borrowed, do not release, and do not keep
         *     the packet objects: they are the engine's reused ones ({@link PacketSink#encodesOnSend()})
         */
        void onSend(long now, boolean fromClient, List<? extends RxPacket> packets);
    }

    /** Drops chosen datagrams at delivery. */
    @FunctionalInterface
    public interface DeliveryFilter {
        /**
         * @param now virtual time, ns
         * @param toServer true when the datagram goes to the server engine
         * @param packets the decoded packets; borrowed, do not release, and do not keep the packet objects: DATA and
         *     ACK packets are the simulator's reused ones, as the transport's decoder delivers them
         * @return true to deliver, false to drop
         */
        boolean deliver(long now, boolean toServer, List<RxPacket> packets);
    }
    /** Datagrams the links dropped (loss, queue overflow, MTU, blackout). */
    public long dropped;
    /** Datagrams delivered. */
    public long delivered;
    /**
     * The MTU of the interface both sides' routes to each other leave by, bytes ({@link PacketSink#routeMtu}); 0 =
     * unknown (Ethernet-size packets). Read when a side first meets the other, so set it before the first call.
     */
    public int routeMtu;
    /** Both sides' socket receive buffer, bytes ({@link PacketSink#receiveBufferBytes}); 0 = unknown. */
    public int receiveBufferBytes;
    /** Datagrams that failed to decode (must stay 0). */
    public long decodeErrors;

    /** One side of the simulation. */
    public final class Endpoint implements PacketSink {
        /** This side's engine. */
        public final RxEngine engine;
        private final InetSocketAddress self;
        /** Datagrams this side sent. */
        public long datagramsSent;
        /**
         * Encoding scratch, reused for every datagram (the simulator copies each into its own byte array); a wrapped
         * array, which the leak detector does not track, so it needs no release.
         */
        private final ByteBuf scratch = Unpooled.wrappedBuffer(new byte[RxConstants.MAX_DATAGRAM_SIZE]);

        Endpoint(RxConfig config, InetSocketAddress self, long seed) {
            this.self = self;
            this.engine = new RxEngine(config, this, UnpooledByteBufAllocator.DEFAULT, seed, now);
        }

        /** @return true: every packet is encoded here, so the engine reuses its packet objects as in the transport */
        @Override
        public boolean encodesOnSend() {
            return true;
        }

        /** @return {@link SimNetwork#receiveBufferBytes} */
        @Override
        public int receiveBufferBytes() {
            return receiveBufferBytes;
        }

        /** @return {@link SimNetwork#routeMtu} */
        @Override
        public int routeMtu(InetSocketAddress peer) {
            return routeMtu;
        }

        @Override
        public void send(InetSocketAddress peer, RxPacket packet) {
            if (sendTap != null) {
                sendTap.onSend(now, this == client, List.of(packet));
            }
            scratch.clear();
            try {
                PacketEncoder.encode(packet, scratch);
            } finally {
                packet.release();
            }
            transmit(scratch, peer);
        }

        @Override
        public void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets) {
            if (sendTap != null) {
                sendTap.onSend(now, this == client, packets);
            }
            scratch.clear();
            try {
                PacketEncoder.encodeJumbogram(packets, scratch);
            } finally {
                for (DataPacket p : packets) {
                    p.release();
                }
            }
            transmit(scratch, peer);
        }

        /** Copies the encoded datagram out of {@code buf} (the scratch buffer, not released) and offers it. */
        private void transmit(ByteBuf buf, InetSocketAddress peer) {
            datagramsSent++;
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            offer(this, bytes, peer);
        }

        /** @return this side's address */
        public InetSocketAddress address() {
            return self;
        }
    }

    private record Delivery(long at, long order, Endpoint to, InetSocketAddress from, byte[] bytes)
            implements Comparable<Delivery> {
        @Override
        public int compareTo(Delivery o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(order, o.order);
        }
    }

    /**
     * @param clientConfig the client engine's configuration
     * @param serverConfig the server engine's configuration
     * @param c2s client-to-server link
     * @param s2c server-to-client link
     * @param seed seed for the links and engines
     */
    public SimNetwork(RxConfig clientConfig, RxConfig serverConfig, LinkModel c2s, LinkModel s2c, long seed) {
        this.random = new Random(seed);
        this.seed = seed;
        this.client = new Endpoint(clientConfig, CLIENT, seed * 31 + 1);
        clients.add(client);
        this.server = new Endpoint(serverConfig, SERVER, seed * 31 + 2);
        this.clientToServer = c2s;
        this.serverToClient = s2c;
    }

    /** @return the client side */
    public Endpoint client() {
        return client;
    }

    /**
     * Adds another client engine (address 10.0.0.n, port 7001) that shares the client-to-server link, its
     * bandwidth and its queue with the others: competing flows through one bottleneck.
     *
     * @param config the new client's configuration
     * @return the new client side
     */
    public Endpoint addClient(RxConfig config) {
        InetSocketAddress addr = new InetSocketAddress("10.0.0." + (clients.size() + 2), 7001);
        Endpoint e = new Endpoint(config, addr, seed * 31 + 3 + clients.size());
        clients.add(e);
        return e;
    }

    /**
     * @param toServer the client-to-server direction (else server-to-client)
     * @return how long a datagram offered now would wait in that direction's bandwidth queue, ns
     */
    public long queueDelayNs(boolean toServer) {
        return Math.max(0, (toServer ? freeAtC2s : freeAtS2c) - now);
    }

    /** @return the server side */
    public Endpoint server() {
        return server;
    }

    /** @return the virtual time, ns */
    public long now() {
        return now;
    }

    /** @param c2s new client-to-server link @param s2c new server-to-client link */
    public void setLinks(LinkModel c2s, LinkModel s2c) {
        this.clientToServer = c2s;
        this.serverToClient = s2c;
    }

    private Endpoint clientAt(InetSocketAddress address) {
        for (Endpoint e : clients) {
            if (e.self.equals(address)) {
                return e;
            }
        }
        return client;
    }

    /** Gilbert–Elliott: moves the direction's state, then says whether the datagram falls in a burst. */
    private boolean burstLoss(boolean c2s, LinkModel link) {
        if (link.burstEnter() <= 0) {
            return false;
        }
        boolean bad = c2s ? burstC2s : burstS2c;
        bad = bad ? random.nextDouble() >= link.burstExit() : random.nextDouble() < link.burstEnter();
        if (c2s) {
            burstC2s = bad;
        } else {
            burstS2c = bad;
        }
        return bad;
    }

    private void offer(Endpoint from, byte[] bytes, InetSocketAddress dest) {
        boolean c2s = from != server;
        LinkModel link = c2s ? clientToServer : serverToClient;
        Endpoint to = c2s ? server : clientAt(dest);
        boolean oneWay = c2s ? blackoutToServer : blackoutToClient;
        if (blackout || oneWay || bytes.length > link.mtu() || burstLoss(c2s, link)
                || random.nextDouble() < link.loss()) {
            dropped++;
            return;
        }
        long depart = now;
        if (link.bitsPerSecond() > 0) {
            long freeAt = Math.max(now, c2s ? freeAtC2s : freeAtS2c);
            long backlogBytes = (freeAt - now) * link.bitsPerSecond() / 8_000_000_000L;
            if (backlogBytes + bytes.length > link.queueBytes()) {
                dropped++;
                return;
            }
            long serialization = bytes.length * 8L * 1_000_000_000L / link.bitsPerSecond();
            depart = freeAt + serialization;
            if (c2s) {
                freeAtC2s = depart;
            } else {
                freeAtS2c = depart;
            }
        }
        long at = depart + link.delayNs();
        if (link.jitterNs() > 0) {
            at += (long) (random.nextDouble() * link.jitterNs());
        }
        if (random.nextDouble() < link.reorder()) {
            at += link.delayNs() + 1_000_000;
        }
        queue.add(new Delivery(at, order++, to, from.self, bytes));
        if (random.nextDouble() < link.duplicate()) {
            queue.add(new Delivery(at + 100_000, order++, to, from.self, bytes.clone()));
        }
    }

    /**
     * Queues a hand-made packet for delivery now, as if the other side had sent it (bypasses the link
     * model, the send tap and blackouts).
     *
     * <p>Ownership: takes {@code packet} (it is encoded and released here).
     *
     * @param toServer true to deliver it to the server engine (from the client's address), false to the client
     * @param packet the packet
     */
    public void inject(boolean toServer, RxPacket packet) {
        injectFrom(toServer ? CLIENT : SERVER, toServer, packet);
    }

    /**
     * Delivers a packet now from any address (a stranger's, a spoofed one), bypassing the link.
     *
     * <p>Ownership: takes {@code packet} (it is encoded and released here).
     *
     * @param from the source address the receiver sees
     * @param toServer true to deliver it to the server engine, false to the client
     * @param packet the packet
     */
    public void injectFrom(InetSocketAddress from, boolean toServer, RxPacket packet) {
        ByteBuf buf;
        try {
            buf = PacketEncoder.encode(packet, UnpooledByteBufAllocator.DEFAULT);
        } finally {
            packet.release();
        }
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        buf.release();
        Endpoint to = toServer ? server : client;
        queue.add(new Delivery(now, order++, to, from, bytes));
    }

    /**
     * Runs until {@code done} is true or the virtual time passes {@code limitNs}.
     *
     * @param done checked after every step
     * @param limitNs virtual-time budget from now, ns
     * @return true if {@code done} became true
     * @throws AssertionError if the stall detector fires or a datagram fails to decode
     */
    public boolean runUntil(BooleanSupplier done, long limitNs) {
        long end = now + limitNs;
        List<RxPacket> packets = new ArrayList<>();
        // Decoded DATA/ACK packets are reused objects, as the transport's decoder hands them to the engine.
        PacketFlyweights reuse = new PacketFlyweights();
        while (!done.getAsBoolean()) {
            long next = Math.min(queue.isEmpty() ? Long.MAX_VALUE : queue.peek().at(), server.engine.nextDeadline());
            for (Endpoint c : clients) {
                next = Math.min(next, c.engine.nextDeadline());
            }
            if (next == Long.MAX_VALUE || next > end) {
                now = Math.max(now, end);
                return done.getAsBoolean();
            }
            now = Math.max(now, next);
            if (!queue.isEmpty() && queue.peek().at() <= now) {
                Delivery d = queue.poll();
                ByteBuf buf = Unpooled.wrappedBuffer(d.bytes());
                try {
                    DecodeError err = PacketDecoder.decode(buf, packets, reuse);
                    if (err != null) {
                        decodeErrors++;
                        throw new AssertionError("simulated datagram failed to decode: " + err);
                    }
                    boolean toServer = d.to() == server;
                    if (deliveryFilter != null && !deliveryFilter.deliver(now, toServer, packets)) {
                        dropped++;
                        for (RxPacket p : packets) {
                            p.release();
                        }
                    } else {
                        delivered++;
                        (toServer ? deliveredToServer : deliveredToClient).count(packets, d.bytes().length);
                        d.to().engine.onDatagram(now, d.from(), packets);
                    }
                } finally {
                    packets.clear();
                    buf.release();
                }
            }
            for (Endpoint c : clients) {
                if (c.engine.nextDeadline() <= now) {
                    c.engine.onTimer(now);
                }
            }
            if (server.engine.nextDeadline() <= now) {
                server.engine.onTimer(now);
            }
            for (Endpoint c : clients) {
                checkStalls(c.engine);
            }
            checkStalls(server.engine);
        }
        return true;
    }

    /**
     * Ends the simulation: both engines abort their unfinished calls and release every buffer;
     * datagrams still in flight are dropped (they are plain byte arrays).
     */
    public void shutdown() {
        for (Endpoint c : clients) {
            c.engine.shutdown(now);
        }
        server.engine.shutdown(now);
        queue.clear();
    }

    /**
     * Runs for a fixed stretch of virtual time.
     *
     * @param ns how long, ns
     */
    public void runFor(long ns) {
        runUntil(() -> false, ns);
    }

    private void checkStalls(RxEngine engine) {
        if (allowStalls) {
            watches.clear();
            return;
        }
        List<Watch> list = watches.get(engine);
        if (list == null) {
            list = new ArrayList<>();
            watches.put(engine, list);
        }
        int i = 0;
        for (Connection conn : engine.clientConnections()) {
            checkStalls(watch(list, i++, conn));
        }
        for (Connection conn : engine.serverConnections()) {
            checkStalls(watch(list, i++, conn));
        }
        while (list.size() > i) {
            list.remove(list.size() - 1);
        }
    }

    /** @return the watch at {@code i} for {@code conn}, moving or creating it when the connections changed */
    private static Watch watch(List<Watch> list, int i, Connection conn) {
        if (i < list.size() && list.get(i).conn == conn) {
            return list.get(i);
        }
        for (int j = i + 1; j < list.size(); j++) {
            if (list.get(j).conn == conn) {
                // Connections before it went away: keep this one's state, drop theirs.
                Watch w = list.remove(j);
                list.set(i, w);
                return w;
            }
        }
        Watch w = new Watch(conn);
        if (i < list.size()) {
            list.add(i, w);
        } else {
            list.add(w);
        }
        return w;
    }

    private void checkStalls(Watch w) {
        Connection conn = w.conn;
        for (int ch = 0; ch < org.rx4j.wire.RxConstants.MAX_CALLS; ch++) {
            Call call = conn.call(ch);
            if (call == null || call.isDone()) {
                w.calls[ch] = null;
                continue;
            }
            boolean pending = call.queuedPackets() > 0 && call.state() != CallState.PRECALL;
            long marker = call.ackProgress();
            if (w.calls[ch] != call) {
                // First sight of this call: progress counts from now.
                w.calls[ch] = call;
                w.marker[ch] = marker;
                w.since[ch] = now;
            }
            if (!pending || w.marker[ch] != marker) {
                w.marker[ch] = marker;
                w.since[ch] = now;
                continue;
            }
            long limit = 2 * conn.peer.rtt().rtoNs() + 1_000_000;
            if (now - w.since[ch] > limit) {
                throw new AssertionError("stall: " + call + " pending " + call.queuedPackets() + " packets, nothing acked for "
                        + (now - w.since[ch]) / 1_000_000 + " ms (limit " + limit / 1_000_000 + " ms) at t="
                        + now / 1_000_000 + " ms");
            }
        }
    }
}
