// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.telemetry;

import java.net.InetSocketAddress;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's TRACE log of packet decisions (docs/embedding.md "Packet traces"): one line per inbound packet saying
 * what became of it and why ({@link In}) on {@value #INBOUND}, and one per retransmission decision, ACK and ABORT the
 * engine sends on {@value #OUTBOUND}. Off by default. Every method asks its logger's {@code isTraceEnabled()} before
 * it builds anything and takes only primitives and objects that already exist, so a call site allocates nothing while
 * TRACE is off (no varargs array, no boxing, no string); the line is built only when it is on. Every unsigned 32-bit
 * field (call number, seq, serial, first, prev, acknowledged serial) prints as an unsigned decimal, epoch and cid as
 * hex, so one serial reads the same in the in and out lines. Engine thread only.
 */
public final class PacketTrace {
    /** The logger of inbound packet decisions. */
    public static final String INBOUND = "org.rx4j.engine.packets.in";
    /** The logger of the retransmissions, ACKs and ABORTs the engine decides to send. */
    public static final String OUTBOUND = "org.rx4j.engine.packets.out";

    /** What became of one inbound packet: taken (first group) or dropped, with the reason (second group). */
    public enum In {
        /** Handed to the running call of its channel. */
        DELIVERED("delivered to its call"),
        /** A DATA packet that started a new server call on its connection. */
        NEW_CALL("admitted as a new server call"),
        /** A DATA packet that made a new server connection (it then goes on to its call). */
        NEW_CONNECTION("opened a new server connection"),
        /** A DATA packet the call already holds (its ACK says DUPLICATE). */
        DUPLICATE("duplicate DATA"),
        /** Kept by the reachability challenge: its source is asked to prove it hears us (a PING). */
        CHALLENGED("kept, source challenged for reachability"),
        /** The answer to a reachability PING: its source is proven and its kept packets are replayed. */
        REACHABLE("source proven reachable"),
        /** A packet for a service this endpoint does not offer: answered with a raw ABORT (paced). */
        UNKNOWN_SERVICE("dropped, unknown service: raw ABORT"),
        /** A new connection over the connection limits: answered with a raw BUSY ABORT (paced). */
        BUSY_REFUSED("dropped, connection limits: raw BUSY ABORT"),
        /** A BUSY packet: the channel is marked busy for new calls. */
        BUSY("channel marked busy"),
        /** An ABORT, ACKALL, CHALLENGE, RESPONSE or PARAMS packet handled by its connection or call. */
        HANDLED("handled by its connection"),
        /** No connection has the packet's ids and the packet may not create one. */
        NO_CONNECTION("dropped, no connection"),
        /** The connection has no call with the packet's channel and call number (stale or unknown). */
        UNKNOWN_CALL("dropped, stale or unknown call"),
        /** A jumbogram with too many sub-packets or seqs wrapping through 0: dropped whole. */
        BAD_JUMBOGRAM("dropped, bad jumbogram"),
        /** A DATA packet with call number 0 or seq 0. */
        ZERO_CALL_OR_SEQ("dropped, call number or seq 0"),
        /** A DATA packet for a new server connection whose seq lies beyond the receive window. */
        OUT_OF_WINDOW("dropped, seq beyond the receive window"),
        /** A client connection's ids from an address other than its server's. */
        STRANGER_ADDRESS("dropped, client connection's ids from a stranger's address"),
        /** A server connection's ids with another security index. */
        SECURITY_INDEX_MISMATCH("dropped, security index mismatch"),
        /** Held or refused by the connection's security class (awaiting RESPONSE, or failing its check). */
        SECURITY_HELD("held or refused by the security class"),
        /** The connection admits no new call here (client side, or a channel still busy). */
        NO_NEW_CALL("dropped, no new call admitted"),
        /** A VERSION or DEBUG request: answered by the connectionless responder (or dropped without one). */
        CONNECTIONLESS("to the connectionless responder"),
        /** Its handling threw: counted in internalErrors. */
        INTERNAL_ERROR("dropped, internal error"),
        /** The endpoint has shut down. */
        CLOSED("dropped, endpoint closed");

        final String text;

        In(String text) {
            this.text = text;
        }
    }

    /** Why the engine retransmits. */
    public enum Retransmit {
        /** The retransmission timer fired: everything in flight goes again (or a PING asks where the peer stands). */
        RTO("retransmission timeout"),
        /** ACKs reported holes past the NACK threshold: the holes go again (fast retransmit). */
        FAST("fast retransmit");

        final String text;

        Retransmit(String text) {
            this.text = text;
        }
    }

    private Logger in = LoggerFactory.getLogger(INBOUND);
    private Logger out = LoggerFactory.getLogger(OUTBOUND);

    /**
     * Points both kinds of line at {@code log} (tests capture them; the engine never calls it).
     *
     * @param log a logger, not null
     */
    public void logTo(Logger log) {
        in = log;
        out = log;
    }

    /**
     * One inbound packet's decision.
     *
     * @param decision what became of it
     * @param from the sender's address
     * @param h its header
     */
    public void inbound(In decision, InetSocketAddress from, RxHeader h) {
        if (in.isTraceEnabled()) {
            StringBuilder b = packet(new StringBuilder("in "), h, " from ", from);
            in.trace(b.append(": ").append(decision.text).toString());
        }
    }

    /**
     * A retransmission decision of one call.
     *
     * @param why RTO or fast retransmit
     * @param to the peer's address
     * @param channel the call's channel
     * @param callNumber the call's number
     * @param first the first unacknowledged seq
     * @param next the next seq never sent
     * @param rtoNs the retransmission timeout before the decision, ns
     */
    public void retransmit(Retransmit why, InetSocketAddress to, int channel, int callNumber, int first, int next,
            long rtoNs) {
        if (out.isTraceEnabled()) {
            out.trace("retransmit to " + to + " ch " + channel + " call " + Integer.toUnsignedString(callNumber)
                    + " seq " + Integer.toUnsignedString(first) + ".." + Integer.toUnsignedString(next - 1) + " rto "
                    + rtoNs / 1_000_000 + " ms: " + why.text);
        }
    }

    /**
     * A packet a connection sends: ACKs (with their reason) and ABORTs are traced, other types are not. A PING padded
     * to a datagram size is a path-MTU probe (docs/engine.md "Packet size"): its line says so and gives that size.
     *
     * @param to the peer's address
     * @param p the packet (not consumed; read before the sink takes it)
     */
    public void sent(InetSocketAddress to, RxPacket p) {
        int type = p.header().type();
        if ((type == PacketType.ACK || type == PacketType.ABORT) && out.isTraceEnabled()) {
            StringBuilder b = packet(new StringBuilder("out "), p.header(), " to ", to).append(": ");
            if (p instanceof AckPacket a) {
                b.append("reason ").append(AckReason.name(a.reason()));
                if (a.reason() == AckReason.PING && a.tailBytes() > 0) {
                    b.append(" (path-MTU probe, ").append(RxConstants.HEADER_SIZE + a.bodyLength()).append(" bytes)");
                }
                b.append(" first ").append(Integer.toUnsignedLong(a.firstPacket()))
                        .append(" prev ").append(Integer.toUnsignedLong(a.previousPacket()))
                        .append(" acks serial ").append(Integer.toUnsignedLong(a.serial()));
            } else if (p instanceof AbortPacket a) {
                b.append("code ").append(a.code());
            }
            out.trace(b.toString());
        }
    }

    private static StringBuilder packet(StringBuilder b, RxHeader h, String dir, InetSocketAddress peer) {
        return b.append(PacketType.name(h.type())).append(dir).append(peer)
                .append(" epoch ").append(Integer.toHexString(h.epoch()))
                .append(" cid ").append(Integer.toHexString(h.connectionId()))
                .append(" ch ").append(h.channel()).append(" call ").append(Integer.toUnsignedLong(h.callNumber()))
                .append(" seq ").append(Integer.toUnsignedLong(h.seq()))
                .append(" serial ").append(Integer.toUnsignedLong(h.serial()))
                .append(" service ").append(h.serviceId()).append(" sec ").append(h.securityIndex());
    }
}
