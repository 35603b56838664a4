// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallEnv;
import org.rx4j.engine.call.CallOwner;
import org.rx4j.engine.call.CallEvents;
import org.rx4j.engine.cc.CongestionControllerSupplier;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.OutboundPackets;
import org.rx4j.wire.RxPacket;

/**
 * What a {@link Connection} needs from the engine that owns it: the packet sink, the event queue and timer queue,
 * the endpoint's settings (which the connection puts in its calls' {@link CallEnv}), and the making of each call
 * with its events bound to it. The engine passes it down when it
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
     * Makes a call of a connection with its {@link CallEvents} bound to it (delivered to the engine's queues without a
     * further step, and the end of the call to {@code owner}'s channels).
     *
     * @param env what the connection's calls share
     * @param owner the connection: serials, sending, the channel work when the call ends
     * @param channel 0..3, or -1 for a client call that waits for a channel
     * @param callNumber its number on the channel, 0 while waiting
     * @param server true for a call received by a server
     * @param now current time, ns
     * @return the new call
     */
    Call newCall(CallEnv env, CallOwner owner, int channel, int callNumber, boolean server, long now);

    /** @param c a call that left its channel: it leaves the timer queue */
    void retire(Call c);
}
