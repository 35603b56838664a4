// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.RxEngine;
import org.rx4j.engine.cc.CongestionControllerSupplier;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.connection.ConnectionContext;
import org.rx4j.engine.connection.ConnectionTable;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.security.ConnectionSecurity;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.OutboundPackets;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * The one way a {@link Call} talks to its owner: its connection passes this down when it creates the call
 * (design: ownership runs RxEngine → ConnectionTable → Connection → Call → the call's parts; nothing points back up).
 * It carries the connection's wire identity and serial counter, sends packets, hands out the call's
 * {@link CallEvents} (which go straight to the engine's event queue) and takes the two changes only the connection
 * can make: a channel freed, a waiting call withdrawn. Clock-free: whoever has work to do passes {@code now} (ns).
 * Engine thread only.
 */
public interface CallContext {
    /** @return the endpoint's configuration */
    RxConfig config();

    /** @return the allocator for partial outgoing packets */
    ByteBufAllocator alloc();

    /** @return the congestion controller the configuration selects */
    CongestionControllerSupplier congestionControl();

    /** @return the peer's current address and the connection's identity, for the application ({@link Call#origin()}) */
    CallOrigin origin();

    /** @return the connection's peer (fixed: no unauthenticated packet moves a connection, docs/robustness.md) */
    Peer peer();

    /** @return the connection's counters */
    RxCounters counters();

    /** @return the engine's TRACE log of packet decisions */
    PacketTrace trace();

    /**
     * Builds a header for one packet of the call and takes the connection's next serial for it.
     *
     * @param channel 0..3
     * @param callNumber the call's number
     * @param seq DATA seq or 0
     * @param type packet type
     * @param flags flags without CLIENT_INITIATED (the connection adds it on the client side)
     * @return the header
     */
    RxHeader header(int channel, int callNumber, int seq, int type, int flags);

    /** @return the engine's reused outgoing packets ({@link ConnectionContext#reusablePackets()}), or null */
    OutboundPackets reusablePackets();

    /**
     * As {@link #header(int, int, int, int, int)}, in a slot of the engine's reused outgoing packets when given.
     *
     * @param reuse the engine's reused outgoing packets, or null for a new header
     * @param slot with reuse: {@link OutboundPackets#ACK_SLOT} for an ACK, a lower slot for a DATA sub-packet's
     *     position in its datagram
     * @param channel 0..3
     * @param callNumber the call's number
     * @param seq DATA seq or 0
     * @param type ACK or DATA, matching the slot (any type without reuse)
     * @param flags flags without CLIENT_INITIATED
     * @param spare the spare/checksum field: a DATA packet's security checksum, else 0
     * @return the header
     */
    RxHeader header(OutboundPackets reuse, int slot, int channel, int callNumber, int seq, int type, int flags,
                    int spare);

    /** @return the connection's security class as the engine applies it (sizes, preparing DATA) */
    ConnectionSecurity security();

    /**
     * The connection's security class refused to prepare one of this call's packets: the whole connection is aborted
     * with {@code code} (ABORT with callNumber 0), this call included.
     *
     * @param now current time, ns
     * @param code the class's abort code
     */
    void abortConnection(long now, int code);

    /** @return the last serial the connection sent */
    int lastSerial();

    /**
     * Sends one packet to the peer and counts it.
     *
     * @param p the packet; ownership passes to the sink
     */
    void send(RxPacket p);

    /**
     * Sends DATA packets as one datagram (a jumbogram when there are several) and counts them; clears the list.
     *
     * @param batch 1..46 packets of one call; ownership of each passes to the sink
     */
    void sendData(List<DataPacket> batch);

    /**
     * @param c a call of this connection, being created
     * @return the events {@code c} and its parts raise, bound to {@code c}
     */
    CallEvents events(Call c);

    /**
     * The call reached DALLY or ERROR (its completion event is already queued): on a client, a waiting call takes
     * its channel.
     *
     * @param c the call
     * @param now current time, ns (a waiting call starts at it)
     */
    void ended(Call c, long now);

    /** @param c a call still waiting for a channel that was aborted: it leaves the waiting queue */
    void leaveWaiting(Call c);
}
