// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.call.CallEnv;
import org.rx4j.engine.call.CallOwner;
import org.rx4j.engine.call.CallEvents;
import org.rx4j.engine.call.Deadlines;
import org.rx4j.engine.cc.CongestionControllerSupplier;
import org.rx4j.engine.connection.ConnectionContext;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.OutboundPackets;

/**
 * The engine's side of {@link ConnectionContext}: what the engine passes down to each connection it creates — the
 * packet sink, the timer queue, the endpoint's settings (among them the congestion controller chosen from
 * {@code RxConfig.congestion().congestionControl()}) — and the maker of each call with its {@link CallEvents}, which
 * deliver to the event queue and the services directly. Engine thread only.
 */
final class EngineContext implements ConnectionContext {
    private final RxConfig config;
    private final ByteBufAllocator alloc;
    private final CongestionControllerSupplier congestionControl;
    private final PacketSink sink;
    private final EventQueue events;
    private final TimerQueue timers;
    private final ServiceRegistry services;
    /**
     * Packet objects filled for every ACK and DATA packet sent when the sink encodes on send (docs/benchmarks.md
     * "Allocation per packet").
     */
    private final OutboundPackets reusablePackets;
    private final PacketTrace trace = new PacketTrace();

    EngineContext(RxConfig config, ByteBufAllocator alloc, PacketSink sink, EventQueue events, TimerQueue timers,
            ServiceRegistry services) {
        this.config = config;
        this.alloc = alloc;
        this.congestionControl = CongestionControllerSupplier.of(config.congestion().congestionControl(),
                config.congestion().nackThreshold());
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
        trace.sent(to, p);
        sink.send(to, p);
    }

    @Override
    public void sendJumbogram(InetSocketAddress to, List<DataPacket> batch) {
        sink.sendJumbogram(to, batch);
    }

    @Override
    public PacketTrace trace() {
        return trace;
    }

    @Override
    public void touched(Call c, long now) {
        events.touched(c, now);
    }

    @Override
    public Call newCall(CallEnv env, CallOwner owner, int channel, int callNumber, boolean server, long now) {
        BoundEvents ev = new BoundEvents(env.peer(), owner);
        Call c = new Call(env, owner, ev, channel, callNumber, server, now);
        ev.call = c; // the call raises no event while it is being made
        return c;
    }

    @Override
    public void retire(Call c) {
        c.deadlineNs = Deadlines.NONE;
        timers.update(c);
    }

    /**
     * One call's {@link CallEvents}: each goes to the engine's queue (and services) itself, naming the call, and the
     * end of the call to its connection's channels.
     */
    private final class BoundEvents implements CallEvents {
        private final Peer peer;
        private final CallOwner owner;
        /** Set once, right after the call is made ({@link #newCall}). */
        private Call call;

        BoundEvents(Peer peer, CallOwner owner) {
            this.peer = peer;
            this.owner = owner;
        }

        @Override
        public void touched(long now) {
            events.touched(call, now);
        }

        @Override
        public void readable() {
            events.readable(call);
        }

        @Override
        public void writable() {
            events.writable(call);
        }

        @Override
        public void ended(long now) {
            services.ended(call);
            events.complete(call);
            owner.callEnded(call.channel(), now); // after the completion event: a waiting call's events follow it
        }

        @Override
        public void stalled() {
            events.stalled(call);
        }

        @Override
        public void firstAck() {
            CallListener l = call.listener();
            if (l != null && l.wantsFirstAck()) {
                events.firstAck(call);
            }
        }

        @Override
        public void peerReachable(long now) {
            services.peerReachable(peer, now);
        }
    }
}
