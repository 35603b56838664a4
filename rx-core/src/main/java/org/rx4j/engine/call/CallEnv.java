// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import io.netty.buffer.ByteBufAllocator;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.cc.CongestionControllerSupplier;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.security.ConnectionSecurity;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.OutboundPackets;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxHeader;

/**
 * What every call of one connection shares, made once with the connection and never changed (docs/engine.md
 * "Classes"): the endpoint's settings, allocator, congestion-controller choice, packet trace and reused outgoing
 * packets, and the connection's peer, counters, security class and wire identity. A call and its parts read it;
 * what changes (the serial counter, the channels) stays with the connection behind {@link CallOwner}. Engine thread
 * only.
 *
 * @param config the endpoint's configuration
 * @param alloc the allocator for partial outgoing packets
 * @param congestionControl the congestion controller the configuration selects
 * @param trace the engine's TRACE log of packet decisions
 * @param reusablePackets the engine's reused outgoing packets when its sink encodes on send
 *     ({@code PacketSink.encodesOnSend()}), else null: then every packet sent is a new object
 * @param peer the connection's peer (fixed: no unauthenticated packet moves a connection, docs/robustness.md)
 * @param counters the connection's counters
 * @param security the connection's security class as the engine applies it
 * @param client true on the side that created the connection (its packets carry CLIENT_INITIATED)
 * @param epoch the connection's epoch, as on the wire (rx-wire-facts.md §1)
 * @param cid the connection id, channel bits clear
 * @param serviceId the destination service id, 0..65535
 */
public record CallEnv(RxConfig config, ByteBufAllocator alloc, CongestionControllerSupplier congestionControl,
               PacketTrace trace, OutboundPackets reusablePackets, Peer peer, RxCounters counters,
               ConnectionSecurity security, boolean client, int epoch, int cid, int serviceId) {

    /**
     * @return the peer's address and the connection's identity, for the application ({@link Call#origin()}); a new
     *     value each time (the security class may have proved the caller's identity since the last)
     */
    public CallOrigin origin() {
        return new CallOrigin(peer.address(), epoch, cid, serviceId, security.index(), security.identity());
    }

    /**
     * Builds the header of one packet of the connection (rx-wire-facts.md §1), in a slot of {@code reuse} when given
     * (no allocation per packet sent).
     *
     * @param reuse the engine's reused outgoing packets, or null for a new header
     * @param slot with reuse: {@link OutboundPackets#ACK_SLOT} for an ACK, a lower slot for a DATA sub-packet's
     *     position in its datagram
     * @param channel 0..3
     * @param callNumber the call's number, or 0 for connection-level packets
     * @param seq DATA seq or 0
     * @param serial the packet's serial
     * @param type ACK or DATA (matching the slot) with reuse; any type without
     * @param flags flags without CLIENT_INITIATED (added on the client side)
     * @param spare the spare/checksum field (a DATA packet's security checksum; else 0)
     * @return the header: the slot's (valid until its next use) or a new one
     */
    public RxHeader header(OutboundPackets reuse, int slot, int channel, int callNumber, int seq, int serial, int type,
                    int flags, int spare) {
        int f = client ? flags | PacketFlags.CLIENT_INITIATED : flags;
        if (reuse == null) {
            return new RxHeader(epoch, cid | channel, callNumber, seq, serial, type, f, 0, security.index(), spare,
                    serviceId);
        }
        return reuse.header(slot, epoch, cid | channel, callNumber, seq, serial, type, f, 0, security.index(), spare,
                serviceId);
    }
}
