// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.counters.RxCounter;
import java.util.List;
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
 * One call's wire identity (channel, callNumber) and its way out: builds the headers of the call's packets (with the
 * connection's next serial) and sends them to its {@link CallOwner}, withholding them while the call is muted.
 * Shared by the call's parts, so none of them needs the call. Engine thread only.
 */
public final class CallOutput {
    private final CallEnv env;
    private final CallOwner owner;
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

    /**
     * @param env what the connection's calls share (headers, the peer, counters, trace)
     * @param owner the connection's serials and sending
     * @param channel 0..3, or -1 while the call waits for a channel
     * @param callNumber its number on the channel, 0 while it waits
     */
    CallOutput(CallEnv env, CallOwner owner, int channel, int callNumber) {
        this.env = env;
        this.owner = owner;
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
        return env.header(null, 0, channel, callNumber, seq, owner.nextSerial(), type, flags, 0);
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
        return env.header(reuse, slot, channel, callNumber, seq, owner.nextSerial(), type, flags, 0);
    }

    /**
     * As {@link #header(OutboundPackets, int, int, int, int)} for a DATA packet with its security checksum.
     *
     * @param spare the spare/checksum value the security class gave the packet
     * @return the header
     */
    RxHeader dataHeader(OutboundPackets reuse, int slot, int seq, int flags, int spare) {
        return env.header(reuse, slot, channel, callNumber, seq, owner.nextSerial(), PacketType.DATA, flags, spare);
    }

    /**
     * The security class refused to prepare a packet of this call ({@link #securityFailure} holds its code): the
     * connection is aborted with it.
     *
     * @param now current time, ns
     */
    void abortConnection(long now) {
        owner.abort(now, securityFailure);
    }

    /** @param p a packet of this call; ownership passes to the sink (or it is released while {@link #muted}) */
    void send(RxPacket p) {
        if (muted) {
            p.release();
            return;
        }
        owner.send(p);
    }

    /** @param p a packet sent even while {@link #muted} (the reachability PING); ownership passes to the sink */
    void sendUnmuted(RxPacket p) {
        owner.send(p);
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
        owner.sendData(batch);
    }

    /** Sends ABORT for this call with {@code code} (§2); nothing while {@link #muted}. */
    void sendAbort(int code) {
        if (!muted) {
            owner.send(new AbortPacket(header(0, PacketType.ABORT, 0), code));
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
        if (env.peer().allowAbortReply(now)) {
            sendAbort(code);
        }
    }

    /** Sends ACKALL for this call: every packet of the peer's stream counts as acknowledged (§2, §6.4). */
    void sendAckAll() {
        if (!muted) {
            owner.send(new ControlPacket(header(0, PacketType.ACKALL, 0), new byte[0]));
        }
    }

    /** @return the last serial the connection sent (the serial of this call's packet just sent, if it was last) */
    int lastSerial() {
        return owner.lastSerial();
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
        Peer peer = env.peer();
        env.trace().retransmit(why, peer.address(), channel, callNumber, first, next, peer.rtt().rtoNs());
    }

    /**
     * The retransmit timer fired: counted in the connection's timeouts and traced.
     *
     * @param first the first unacknowledged seq
     * @param next the next seq never sent
     */
    void timedOut(int first, int next) {
        env.counters().increment(RxCounter.RETRANSMIT_TIMEOUTS);
        retransmitting(PacketTrace.Retransmit.RTO, first, next);
    }
}
