// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallContext;
import org.rx4j.engine.call.CallEvents;
import org.rx4j.engine.cc.CongestionControllerSupplier;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.OutboundPackets;
import org.rx4j.wire.RxPacket;

/**
 * What a {@link Connection} (and, through its {@link CallContext}, each call) needs from the engine that owns it:
 * the packet sink, the event queue and timer queue, and the endpoint's settings. The engine passes it down when it
 * creates a connection; nothing below holds the engine itself. Clock-free; engine thread only.
 */
public interface ConnectionContext {
    /** @return the endpoint's configuration */
    RxConfig config();

    /** @return the allocator for partial outgoing packets */
    ByteBufAllocator alloc();

    /** @return the congestion controller the configuration selects */
    CongestionControllerSupplier congestionControl();

    /**
     * @param to the peer's address
     * @param p the packet; ownership passes to the sink
     */
    void send(InetSocketAddress to, RxPacket p);

    /**
     * @param to the peer's address
     * @param batch 2..46 DATA packets of one call; ownership of each passes to the sink (the list is not kept)
     */
    void sendJumbogram(InetSocketAddress to, List<DataPacket> batch);

    /** @return the engine's TRACE log of packet decisions */
    PacketTrace trace();

    /**
     * @return the engine's reused outgoing packets when its sink encodes on send
     *     ({@link PacketSink#encodesOnSend()}), else null: then every packet sent is a new object
     */
    default OutboundPackets reusablePackets() {
        return null;
    }

    /**
     * @param c a changed call (ACK flush and deadline recompute at the end of processing)
     * @param now current time, ns: used when no entry point is running and the change settles at once
     */
    void touched(Call c, long now);

    /**
     * @param c a call being created
     * @param owner the call's context (its connection's side: the channel work when the call ends, the peer)
     * @return the events of {@code c}, bound to it, delivered to the engine's queues without a further step
     */
    CallEvents callEvents(Call c, CallContext owner);

    /** @param c a call that left its channel: it leaves the timer queue */
    void retire(Call c);
}
