// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import java.util.List;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.security.ConnectionSecurity;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.OutboundPackets;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * One call's wire identity (channel, callNumber) and its way out: builds the headers of the call's packets and
 * sends them through the {@link CallContext} its connection passed down. Shared by the call's parts, so none of
 * them needs the call. Engine thread only.
 */
public final class CallOutput {
    private final CallContext ctx;
    /** 0..3; -1 while the call waits for a channel. */
    int channel;
    /** The call's number on its channel; 0 while it waits. */
    int callNumber;
    /**
     * True while a server call waits for its peer to prove reachable (PRECALL): everything the call would send is
     * dropped except the reachability PING ({@link #sendUnmuted}), so an unauthenticated datagram earns at most one
     * small reply, never a stream (docs/robustness.md "Rule: unsolicited traffic, loops and amplification").
     */
    boolean muted;
    /** The code the security class refused a packet of this call with, 0 while none (the connection is aborted). */
    int securityFailure;

    CallOutput(CallContext ctx, int channel, int callNumber) {
        this.ctx = ctx;
        this.channel = channel;
        this.callNumber = callNumber;
    }

    /**
     * @param seq DATA seq or 0
     * @param type packet type
     * @param flags flags without CLIENT_INITIATED
     * @return a header for this call's next packet (with the connection's next serial)
     */
    RxHeader header(int seq, int type, int flags) {
        return ctx.header(channel, callNumber, seq, type, flags);
    }

    /** @return the engine's reused outgoing packets when its sink encodes on send, else null (new objects) */
    OutboundPackets reusablePackets() {
        return ctx.reusablePackets();
    }

    /**
     * @param reuse the engine's reused outgoing packets, or null
     * @param slot with reuse: {@link OutboundPackets#ACK_SLOT} for an ACK, a lower slot for a DATA sub-packet's
     *     position in its datagram
     * @param seq DATA seq or 0
     * @param type ACK or DATA, matching the slot (any type without reuse)
     * @param flags flags without CLIENT_INITIATED
     * @return a header for this call's next packet (with the connection's next serial): the slot's, or a new one
     */
    RxHeader header(OutboundPackets reuse, int slot, int seq, int type, int flags) {
        return ctx.header(reuse, slot, channel, callNumber, seq, type, flags, 0);
    }

    /**
     * As {@link #header(OutboundPackets, int, int, int, int)} for a DATA packet with its security checksum.
     *
     * @param spare the spare/checksum value the security class gave the packet
     * @return the header
     */
    RxHeader dataHeader(OutboundPackets reuse, int slot, int seq, int flags, int spare) {
        return ctx.header(reuse, slot, channel, callNumber, seq, PacketType.DATA, flags, spare);
    }

    /** @return the connection's security class as the engine applies it */
    ConnectionSecurity security() {
        return ctx.security();
    }

    /**
     * @param payloadBytes bytes of DATA body a packet may carry (the peer's packet size less the 28-byte header)
     * @return data bytes per packet once the security class's header and trailer are off
     *     ({@link ConnectionSecurity#dataPerPacket}, the one place they come off)
     */
    int dataPerPacket(int payloadBytes) {
        return ctx.security().dataPerPacket(payloadBytes);
    }

    /**
     * The security class refused to prepare a packet of this call ({@link #securityFailure} holds its code): the
     * connection is aborted with it.
     *
     * @param now current time, ns
     */
    void abortConnection(long now) {
        ctx.abortConnection(now, securityFailure);
    }

    /** @param p a packet of this call; ownership passes to the sink (or it is released while {@link #muted}) */
    void send(RxPacket p) {
        if (muted) {
            p.release();
            return;
        }
        ctx.send(p);
    }

    /** @param p a packet sent even while {@link #muted} (the reachability PING); ownership passes to the sink */
    void sendUnmuted(RxPacket p) {
        ctx.send(p);
    }

    /** @param batch DATA packets of this call for one datagram; sent (or released while muted) and cleared */
    void sendData(List<DataPacket> batch) {
        if (muted) {
            for (DataPacket p : batch) {
                p.release();
            }
            batch.clear();
            return;
        }
        ctx.sendData(batch);
    }

    /** Sends ABORT for this call with {@code code} (§2); nothing while {@link #muted}. */
    void sendAbort(int code) {
        if (!muted) {
            ctx.send(new AbortPacket(header(0, PacketType.ABORT, 0), code));
        }
    }

    /**
     * Answers a packet of this ended call with its ABORT, unless the peer's ABORT replies are being paced
     * ({@link Peer#allowAbortReply}).
     *
     * @param now current time, ns
     * @param code the call's error code
     */
    void answerWithAbort(long now, int code) {
        if (peer().allowAbortReply(now)) {
            sendAbort(code);
        }
    }

    /** Sends ACKALL for this call: every packet of the peer's stream counts as acknowledged (§2, §6.4). */
    void sendAckAll() {
        if (!muted) {
            ctx.send(new ControlPacket(header(0, PacketType.ACKALL, 0), new byte[0]));
        }
    }

    /** @return the last serial the connection sent */
    int lastSerial() {
        return ctx.lastSerial();
    }

    /** @return the connection's peer (fixed for the connection's life) */
    Peer peer() {
        return ctx.peer();
    }

    /** @return the connection's counters */
    RxCounters counters() {
        return ctx.counters();
    }

    /** @return the engine's TRACE log of packet decisions */
    PacketTrace trace() {
        return ctx.trace();
    }

    /**
     * Traces a retransmission decision of this call ({@link PacketTrace#retransmit}); nothing is allocated while
     * TRACE is off.
     *
     * @param why RTO or fast retransmit
     * @param first the first unacknowledged seq
     * @param next the next seq never sent
     */
    void retransmitting(PacketTrace.Retransmit why, int first, int next) {
        Peer peer = ctx.peer();
        ctx.trace().retransmit(why, peer.address(), channel, callNumber, first, next, peer.rtt().rtoNs());
    }

    /**
     * The retransmit timer fired: counted in the connection's timeouts and traced.
     *
     * @param first the first unacknowledged seq
     * @param next the next seq never sent
     */
    void timedOut(int first, int next) {
        counters().increment(RxCounter.RETRANSMIT_TIMEOUTS);
        retransmitting(PacketTrace.Retransmit.RTO, first, next);
    }
}
