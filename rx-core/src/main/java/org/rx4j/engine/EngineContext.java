package org.rx4j.engine;

import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.cc.CongestionControllerSupplier;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.OutboundPackets;

/**
 * The engine's side of {@link ConnectionContext}: what the engine passes down to each connection it creates — the
 * packet sink, the event and timer queues, the services (for reachability), and the endpoint's settings, among
 * them the congestion controller chosen from {@link RxConfig#congestionControl()}. Engine thread only.
 */
final class EngineContext implements ConnectionContext {
    private final RxConfig config;
    private final ByteBufAllocator alloc;
    private final CongestionControllerSupplier congestionControl;
    private final PacketSink sink;
    private final EventQueue events;
    private final TimerQueue timers;
    private final ServiceRegistry services;
    /** Packet objects filled for every ACK and DATA packet sent when the sink encodes on send (issue 10, target 9). */
    private final OutboundPackets reusablePackets;

    EngineContext(RxConfig config, ByteBufAllocator alloc, PacketSink sink, EventQueue events, TimerQueue timers,
            ServiceRegistry services) {
        this.config = config;
        this.alloc = alloc;
        this.congestionControl = CongestionControllerSupplier.of(config.congestionControl(), config.nackThreshold());
        this.sink = sink;
        this.events = events;
        this.timers = timers;
        this.services = services;
        this.reusablePackets = sink.encodesOnSend() ? new OutboundPackets() : null;
    }

    @Override
    public OutboundPackets reusablePackets() {
        return reusablePackets;
    }

    @Override
    public RxConfig config() {
        return config;
    }

    @Override
    public ByteBufAllocator alloc() {
        return alloc;
    }

    @Override
    public CongestionControllerSupplier congestionControl() {
        return congestionControl;
    }

    @Override
    public void send(InetSocketAddress to, RxPacket p) {
        sink.send(to, p);
    }

    @Override
    public void sendJumbogram(InetSocketAddress to, List<DataPacket> batch) {
        sink.sendJumbogram(to, batch);
    }

    @Override
    public void touched(Call c, long now) {
        events.touched(c, now);
    }

    @Override
    public void readable(Call c) {
        events.readable(c);
    }

    @Override
    public void writable(Call c) {
        events.writable(c);
    }

    @Override
    public void completed(Call c) {
        services.ended(c);
        events.complete(c);
    }

    @Override
    public void retire(Call c) {
        c.deadlineNs = Deadlines.NONE;
        timers.update(c);
    }

    @Override
    public void peerReachable(Peer peer, long now) {
        services.peerReachable(peer, now);
    }
}
