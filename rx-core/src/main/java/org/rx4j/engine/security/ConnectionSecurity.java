// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.security;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.engine.admission.SecurityHandshake;
import org.rx4j.engine.peer.Peer;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.SecurityIndex;
import org.rx4j.security.SecurityStats;
import org.rx4j.security.packet.ChannelCallNumbers;
import org.rx4j.security.packet.ConnectionRole;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * One connection's security class as the engine applies it (docs/security.md "In the engine"): the class, its packet
 * work ({@link PacketSecurity}) and its {@link SecurityContext}, the per-packet work (prepare an outgoing DATA body,
 * check an incoming one), the DATA of a server connection parked until its client answered the CHALLENGE, and the
 * handshake's per-connection counts (the {@link SecurityHandshake} drives them). rxnull costs nothing here: its packets
 * are neither copied nor checked. Engine thread only.
 */
public final class ConnectionSecurity {
    /** Most calls whose DATA a server connection parks before its client is authenticated. */
    public static final int MAX_PARKED_CALLS = 4;
    /** Most DATA packets a server connection parks before its client is authenticated (the client resends the rest). */
    public static final int MAX_PARKED_PACKETS = 16;

    /** The handle the connection was made with (a client's replacement connection is made with it again). */
    public final SecurityClass securityClass;
    /** The handle's packet work, found once per connection. */
    public final PacketSecurity packets;
    public final SecurityContext context;
    /** True for rxnull: nothing to prepare, check or challenge. */
    public final boolean none;
    /**
     * Refilled for each checked packet: the SPI lends it to the class (no header object per packet); made on the
     * first check, so rxnull connections carry none.
     */
    private PacketHeader header;
    /** Server: CHALLENGEs sent so far on this connection. */
    public int challengesSent;
    /** Server: when the next CHALLENGE may be resent (engine clock, ns). */
    public long nextChallengeNs;
    /** Server: the handshake gave up (too many CHALLENGEs unanswered); the connection takes no more DATA. */
    public boolean handshakeFailed;
    /** Client: the start of the current one-second window of RESPONSEs, and RESPONSEs sent in it. */
    public long responseWindowNs;
    public int responsesInWindow;
    private List<DataPacket> parked;
    private int parkedCalls;
    /** Bytes parked (28-byte header + payload each), counted in {@link #budget} and the peer's parkedBytes. */
    private long parkedBytes;
    /** The budget and peer the parked bytes are counted in; set by the first {@link #park}. */
    private HeldBytes budget;
    private Peer peer;

    /**
     * Makes the connection's {@link SecurityContext} and lets the class set up its state
     * ({@link PacketSecurity#newConnection}).
     *
     * @param securityClass the connection's class (one of this library's, see {@link PacketSecurityAccess#of})
     * @param client true on the side that created the connection
     * @param epoch the connection's epoch
     * @param cid the connection id
     * @param serviceId the service id
     * @param callNumbers the connection's view of its channels' call numbers
     */
    public ConnectionSecurity(SecurityClass securityClass, boolean client, int epoch, int cid, int serviceId,
            ChannelCallNumbers callNumbers) {
        this(new SecurityContext(securityClass, client ? ConnectionRole.CLIENT : ConnectionRole.SERVER,
                epoch, cid, serviceId, callNumbers));
        packets.newConnection(context);
    }

    /**
     * Takes a server context that is already set up and authenticated: the stateless challenge's RESPONSE was checked
     * on it before the connection existed ({@link PacketSecurity#newChallengedConnection}; docs/robustness.md "Rule:
     * stateless reachability challenge").
     *
     * @param checked the context, its class's state in it
     */
    public ConnectionSecurity(SecurityContext checked) {
        this.securityClass = checked.securityClass();
        this.packets = PacketSecurityAccess.of(securityClass);
        this.context = checked;
        this.none = securityClass == RxNullSecurityClass.INSTANCE;
    }

    /**
     * @param securityIndex a security index given without its class
     * @return rxnull, the one class the engine knows by its index
     * @throws IllegalArgumentException if the index is not 0
     */
    public static SecurityClass rxnull(int securityIndex) {
        if (securityIndex != SecurityIndex.RXNULL) {
            throw new IllegalArgumentException("security index " + securityIndex + " needs its SecurityClass");
        }
        return RxNullSecurityClass.INSTANCE;
    }

    /** @return the security index of every packet of the connection */
    public int index() {
        return securityClass.securityIndex();
    }

    /** @return true when calls may start (the client side, rxnull, or a server whose client answered) */
    public boolean isAuthenticated() {
        return none || context.isClient() || packets.isAuthenticated(context);
    }

    /**
     * @param abortCode the code the whole connection was aborted with, or 0
     * @return true on a client whose class wants new calls on a new connection
     *     ({@link PacketSecurity#needsNewConnection})
     */
    public boolean needsNewConnection(int abortCode) {
        return !none && context.isClient() && packets.needsNewConnection(context, abortCode);
    }

    /** @return the caller's identity the class proved, or null */
    public CallerIdentity identity() {
        return none ? null : packets.identity(context);
    }

    /** @return the class's statistics for the DEBUG connection listings ({@link PacketSecurity#stats}) */
    public SecurityStats stats() {
        return none ? SecurityStats.NONE : packets.stats(context);
    }

    /**
     * @param payloadBytes bytes of DATA body a packet may carry after the Rx header (the peer's packet size less 28)
     * @return data bytes per packet: the one place the security header and trailer come off
     *     ({@link PacketSecurity#maxDataPerPacket})
     */
    public int dataPerPacket(int payloadBytes) {
        return none ? payloadBytes
                : packets.maxDataPerPacket(context, payloadBytes + RxConstants.HEADER_SIZE);
    }

    /**
     * @param dataBytes data bytes of a packet
     * @return bytes of DATA body it goes out with ({@link PacketSecurity#preparedLength})
     */
    public int preparedLength(int dataBytes) {
        return none ? dataBytes : packets.preparedLength(context, dataBytes);
    }

    /**
     * Prepares one outgoing DATA packet ({@link PacketSecurity#prepareOutgoing}) into a new buffer: the queued data
     * stays as it was, so a re-cut starts from plain data. A class that {@link PacketSecurity#preparesWithoutChange
     * prepares without change} (rxkad at clear) gets a retained slice of the data instead: no copy, and still nothing
     * written to it. Ownership: {@code data} is borrowed; the returned buffer (new, or the slice holding its own
     * reference) belongs to the caller.
     *
     * @param alloc where the body's buffer comes from
     * @param channel the call's channel
     * @param callNumber the call's number
     * @param seq the packet's seq
     * @param data the packet's data (indexes unchanged)
     * @param spare receives the spare/checksum value in element 0
     * @return the prepared body
     * @throws SecurityAbortException if the class refuses (the connection is aborted with its code)
     */
    public ByteBuf prepare(ByteBufAllocator alloc, int channel, int callNumber, int seq, ByteBuf data, int[] spare)
            throws SecurityAbortException {
        int header = packets.headerSize(context);
        int trailer = packets.trailerSize(context);
        boolean inPlace = header == 0 && trailer == 0 && packets.preparesWithoutChange(context);
        int capacity = header + data.readableBytes() + trailer;
        ByteBuf body = inPlace ? data.retainedSlice() : alloc.buffer(capacity, capacity);
        try {
            if (!inPlace) {
                body.writeZero(header).writeBytes(data, data.readerIndex(), data.readableBytes());
            }
            spare[0] = packets.prepareOutgoing(context, channel, callNumber, seq, body);
            return body;
        } catch (SecurityAbortException | RuntimeException e) {
            body.release();
            throw e;
        }
    }

    /**
     * Checks one incoming DATA packet ({@link PacketSecurity#checkIncoming}) and narrows its payload to the data.
     * Ownership: the packet stays the caller's.
     *
     * @param p the packet
     * @return 0 when genuine, else the abort code for the connection
     */
    public int check(DataPacket p) {
        if (none) {
            return 0;
        }
        RxHeader h = p.header();
        if (header == null) {
            header = new PacketHeader();
        }
        PacketHeader ph = header.set(h.epoch(), h.cid(), h.callNumber(), h.seq(), h.serial(), h.type(), h.flags(),
                h.userStatus(), h.securityIndex(), h.spare(), h.serviceId());
        try {
            return packets.checkIncoming(context, ph, p.payload());
        } catch (RuntimeException e) {
            // The SPI never throws for input bytes; a class that does still must not let a packet through.
            return AbortCodes.RX_PROTOCOL_ERROR;
        }
    }

    /**
     * Server: keeps a DATA packet until the client is authenticated, within {@link #MAX_PARKED_CALLS} calls and
     * {@link #MAX_PARKED_PACKETS} packets (a copy of a packet already parked, or one beyond, is refused).
     * Ownership: on true the payload reference is kept (not the packet object, perhaps the decoder's flyweight); on
     * false the packet stays the caller's.
     *
     * @param p a DATA packet of the connection
     * @param budget the byte budget parked DATA counts in (the caller checked the packet fits)
     * @param peer the connection's peer, whose parked bytes count the packet
     * @return true when parked
     */
    public boolean park(DataPacket p, HeldBytes budget, Peer peer) {
        if (parked == null) {
            parked = new ArrayList<>();
        }
        if (parked.size() >= MAX_PARKED_PACKETS) {
            return false;
        }
        RxHeader h = p.header();
        boolean newCall = true;
        for (DataPacket q : parked) {
            RxHeader k = q.header();
            if (k.channel() == h.channel() && k.callNumber() == h.callNumber()) {
                if (k.seq() == h.seq()) {
                    return false;
                }
                newCall = false;
            }
        }
        if (newCall && parkedCalls >= MAX_PARKED_CALLS) {
            return false;
        }
        parkedCalls += newCall ? 1 : 0;
        // The packet may be the decoder's reused flyweight: keep its payload reference under a header of our own.
        parked.add(new DataPacket(h.copy(), p.payload()));
        int size = RxConstants.HEADER_SIZE + p.payload().readableBytes();
        this.budget = budget;
        this.peer = peer;
        parkedBytes += size;
        budget.add(size);
        peer.parkedBytes += size;
        return true;
    }

    /** @return true when DATA waits for the client's RESPONSE */
    public boolean hasParked() {
        return parked != null && !parked.isEmpty();
    }

    /**
     * Hands over the parked packets (the client answered: they go on as if they arrived now). Ownership: the caller
     * takes the packets.
     *
     * @return the packets in arrival order, possibly empty
     */
    public List<DataPacket> takeParked() {
        List<DataPacket> p = parked == null ? List.of() : parked;
        parked = null;
        parkedCalls = 0;
        if (parkedBytes != 0) {
            budget.add(-parkedBytes);
            peer.parkedBytes -= parkedBytes;
            parkedBytes = 0;
        }
        return p;
    }

    /** Releases the parked packets (the connection failed, closed or the engine shuts down). */
    public void releaseParked() {
        for (DataPacket p : takeParked()) {
            p.release();
        }
    }

    /** The connection is gone: releases what it parked and lets the class drop its state. */
    public void close() {
        releaseParked();
        packets.destroyConnection(context);
    }
}
