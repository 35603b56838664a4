// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.rx4j.config.Reachability;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.RxEngine;
import org.rx4j.engine.call.CallTimers;
import org.rx4j.engine.call.Deadlines;
import org.rx4j.engine.connection.ConnectionTable;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.security.HeldBytes;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.packet.ChannelCallNumbers;
import org.rx4j.security.packet.ConnectionRole;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * The stateless reachability challenge (checkReach on; docs/robustness.md "Rule: stateless reachability challenge"):
 * new-connection DATA from a source not proven reachable makes no connection, call or peer; its record in
 * {@link ReachChallenges} keeps its reply credit ({@link Reachability#AMPLIFICATION_LIMIT} times the bytes it sent) and
 * the packet,
 * and the source is sent the reachability PING (§6.2) on that call. The PING_RESPONSE proves the source: its peer is
 * made and marked heard, and the kept packets wait for replay ({@link #takeReplay}). Counts its PINGs and their answers
 * in the endpoint's counters. Engine thread only.
 */
public final class ReachChallenger {
    private static final byte[] NO_ACKS = new byte[0];
    /**
     * Largest packet (header + body, bytes) kept for a source that never proved a larger one: OpenAFS's default
     * rx_maxReceiveSize, 4 · 1444 + 3 · 8 (rx-wire-facts.md §5), the largest datagram an OpenAFS server takes from
     * anyone. A source proven earlier may send packets up to the largest it sent then (docs/robustness.md "Rule: a
     * byte budget for what unproven sources leave").
     */
    public static final int UNPROVEN_MAX_PACKET = 5_800;

    private final RxConfig config;
    private final ConnectionTable table;
    private final ConnectionLimits limits;
    private final PacketSink sink;
    private final RxCounters counters;
    private final ByteBufAllocator alloc;
    /** Unproven sources' new-connection DATA, kept without a connection until they answer the PING. */
    private final ReachChallenges challenges;
    /** Proven sources whose kept packets wait to be replayed ({@link #takeReplay}), with their packets. */
    private final List<InetSocketAddress> replayFrom = new ArrayList<>(1);
    private final List<List<DataPacket>> replayPackets = new ArrayList<>(1);
    /** The class's code for the last stateless RESPONSE refused. */
    private int refusalCode;
    /** Stateless RESPONSEs refused from a source not challenged for their connection ({@link #challengedFor}). */
    private long otherAddressFailures;
    /** The connection the last proof was for ({@link #takeProof}); null once used or before any. */
    private InetSocketAddress provenFrom;
    private int provenEpoch;
    private int provenConnectionId;

    /**
     * @param config tunables (minimum RTO, the bounds of the challenge table, what a PING's trailer advertises)
     * @param table the connection and peer tables (a proven source's peer is made there)
     * @param limits whether a proven source's peer may be made
     * @param sink where the PINGs go
     * @param counters the endpoint's counters (PINGs sent and answered, replies withheld)
     * @param alloc where replayed packets' payload buffers come from
     * @param secret the key of the PING's serial (random outside tests)
     */
    public ReachChallenger(RxConfig config, ConnectionTable table, ConnectionLimits limits, PacketSink sink,
            RxCounters counters, ByteBufAllocator alloc, long secret) {
        this.config = config;
        this.table = table;
        this.limits = limits;
        this.sink = sink;
        this.counters = counters;
        this.alloc = alloc;
        this.challenges = new ReachChallenges(secret, config.limits().maxUnprovenConnections(),
                config.limits().maxHeldPackets(), config.timeouts().deadTimeNs(),
                new HeldBytes(config.limits().maxHeldBytes(), config.limits().maxHeldBytesPerPeer()));
    }

    /**
     * New-connection DATA from a source not proven reachable: the source's record keeps its bytes and the packet
     * ({@code maxHeldPackets} in all, the oldest other records evicted), and the source is sent the PING on that
     * call when the credit covers it: at once for the first, again when the credit that withheld it grew, or when
     * the source is heard again at least the minimum RTO later (the PING or its answer was lost, or the client moved
     * on to another call), as a held call re-PINGs (CallTimers.repingIfWaiting). Per source, not per datagram: a
     * flood source earns at most one PING per minimum RTO. Not counted as received: a kept packet is counted by its
     * connection when replayed.
     *
     * <p>Ownership: takes {@code p}.
     *
     * @param now current time, ns
     * @param from the source address
     * @param p the packet
     * @param bytes its size, header + body, bytes
     */
    public void challenge(long now, InetSocketAddress from, DataPacket p, int bytes) {
        challenge(now, from, p, bytes, null);
    }

    /**
     * As {@link #challenge(long, InetSocketAddress, DataPacket, int)}, for a service of {@code securityClass}.
     *
     * <p>Ownership: takes {@code p}.
     *
     * @param now current time, ns
     * @param from the source address
     * @param p the packet
     * @param bytes its size, header + body, bytes
     * @param securityClass the class of the packet's service: one with a stateless CHALLENGE gets that instead of
     *     the PING ({@link SecurityClass#statelessChallengeBody}); null: the PING
     */
    public void challenge(long now, InetSocketAddress from, DataPacket p, int bytes, SecurityClass securityClass) {
        RxHeader h = p.header();
        ReachChallenges.Pending rec = challenges.open(now, from);
        rec.credit += (long) Reachability.AMPLIFICATION_LIMIT * bytes;
        // Each connection proves itself: a connection not yet PINGed gets its own PING (within the credit).
        boolean otherConnection = rec.epoch != h.epoch()
                || (rec.cid & RxConstants.CID_MASK) != h.connectionId();
        boolean due = rec.pingSerial == 0 || rec.pingWithheld || otherConnection
                || now - rec.pingSentNs >= config.rto().minRtoNs();
        rec.epoch = h.epoch();
        rec.cid = h.cid();
        rec.callNumber = h.callNumber();
        rec.securityIndex = h.securityIndex();
        rec.serviceId = h.serviceId();
        rec.securityClass = securityClass;
        if (h.hasFlag(PacketFlags.REQUEST_ACK)) {
            counters.increment(RxCounter.REPLIES_WITHHELD); // no ACK but the PING until the source answers (no amplification)
        }
        Peer prior = table.knownPeer(from);
        challenges.hold(from, rec, p, prior == null ? UNPROVEN_MAX_PACKET
                : Math.max(UNPROVEN_MAX_PACKET, prior.provenReceivedSize()));
        if (due) {
            sendPing(now, from, rec);
        }
    }

    /**
     * Sends the PING to a recorded source's last call, paid from its credit (never more than
     * {@link Reachability#AMPLIFICATION_LIMIT} times the bytes the source sent):
     * with the ACK trailer when the credit covers 65 bytes, bare (46 bytes) when it covers that, else withheld. It
     * soft-acks nothing (firstPacket 1, no acks): the packets kept here may still be evicted, and a client must then
     * resend them. Its serial is {@link ReachChallenges#cookie}.
     */
    private void sendPing(long now, InetSocketAddress to, ReachChallenges.Pending rec) {
        if (rec.securityClass != null && sendChallenge(now, to, rec)) {
            return;
        }
        int bare = RxConstants.HEADER_SIZE + RxConstants.ACK_FIXED_SIZE;
        int full = bare + RxConstants.ACK_PAD_SIZE + 16;
        int size = rec.credit >= full ? full : rec.credit >= bare ? bare : 0;
        if (size == 0) {
            if (!rec.pingWithheld) {
                counters.increment(RxCounter.REPLIES_WITHHELD);
            }
            rec.pingWithheld = true;
            return;
        }
        rec.credit -= size;
        rec.pingWithheld = false;
        rec.pingSerial = challenges.cookie(to, rec.epoch, rec.cid, rec.callNumber);
        rec.pingSentNs = now;
        RxHeader h = new RxHeader(rec.epoch, rec.cid, rec.callNumber, 0, rec.pingSerial, PacketType.ACK,
                PacketFlags.SLOW_START_OK | PacketFlags.REQUEST_ACK, 0, rec.securityIndex, 0, rec.serviceId);
        AckPacket ping;
        if (size == full) {
            // What the route carries, as the later ACKs will say (docs/engine.md "Packet size"), not the defaults.
            ConnectionTable.RouteTrailer t = table.trailerFor(to);
            ping = AckPacket.of(h, 1, 0, 0, AckReason.PING, NO_ACKS, t.maxMtu(), t.ifMtu(), config.windows().maxRwind(),
                    t.jumbo());
        } else {
            ping = new AckPacket(h, 0, 0, 1, 0, 0, AckReason.PING, NO_ACKS, 0, 0, 0, 0, 0, 0);
        }
        counters.increment(RxCounter.CHALLENGES_SENT);
        counters.increment(RxCounter.PACKETS_SENT, PacketType.ACK);
        counters.increment(RxCounter.ACKS_SENT, AckReason.PING);
        counters.add(RxCounter.BYTES_SENT, size);
        sink.send(to, ping);
    }

    /**
     * The stateless CHALLENGE in place of the PING, for a service whose class has one: on the recorded connection
     * (callNumber 0, the connection id without channel bits), its nonce {@link ReachChallenges#cookie} of the source
     * and the connection with callNumber 0 (a PING's serial never has callNumber 0), paid from the record's credit
     * like the PING (44 bytes for rxkad: the smallest DATA, 28 bytes, pays for it three times over). Withheld when the
     * credit does not cover it.
     *
     * @return false when the class has no stateless CHALLENGE (the PING goes instead)
     */
    private boolean sendChallenge(long now, InetSocketAddress to, ReachChallenges.Pending rec) {
        int cid = rec.cid & RxConstants.CID_MASK;
        int nonce = challenges.cookie(to, rec.epoch, cid, 0);
        Optional<byte[]> body = PacketSecurityAccess.of(rec.securityClass).statelessChallengeBody(nonce);
        if (body.isEmpty()) {
            return false;
        }
        int size = RxConstants.HEADER_SIZE + body.get().length;
        if (rec.credit < size) {
            if (!rec.pingWithheld) {
                counters.increment(RxCounter.REPLIES_WITHHELD);
            }
            rec.pingWithheld = true;
            return true;
        }
        rec.credit -= size;
        rec.pingWithheld = false;
        rec.pingSerial = nonce;
        rec.pingSentNs = now;
        RxHeader h = new RxHeader(rec.epoch, cid, 0, 0, 1, PacketType.CHALLENGE, 0, 0, rec.securityIndex, 0,
                rec.serviceId);
        counters.increment(RxCounter.CHALLENGES_SENT);
        counters.increment(RxCounter.PACKETS_SENT, PacketType.CHALLENGE);
        counters.add(RxCounter.BYTES_SENT, size);
        counters.increment(RxCounter.SECURITY_CHALLENGES_SENT);
        sink.send(to, new ControlPacket(h, body.get()));
        return true;
    }

    /**
     * A RESPONSE for no known connection of a service whose class has a stateless CHALLENGE: checked by the class
     * against the nonce the CHALLENGE to this source and connection carried ({@link #sendChallenge}), recomputed,
     * on a context made for it alone. Nothing is kept or sent for a RESPONSE that fails (counted in the security
     * counters' {@code responsesRefused}); one that passes has proved both that its source hears us (it knew the
     * nonce, which went only to that address) and who it is. Its cost is the class's check: for rxkad the ticket's
     * opening, which refuses a forged one cheaply (docs/robustness.md "Rule: a forged RESPONSE is cheap").
     *
     * @param from the source address
     * @param p the RESPONSE (its body is read, not kept)
     * @param securityClass the service's class
     * @param callNumbers what the context reports as the connection's call numbers (the connection, once made)
     * @return the accepted context (authenticated; the RESPONSE's call numbers in it), or null
     */
    public SecurityContext checkResponse(InetSocketAddress from, ControlPacket p, SecurityClass securityClass,
            ChannelCallNumbers callNumbers) {
        RxHeader h = p.header();
        SecurityContext ctx = new SecurityContext(securityClass, ConnectionRole.SERVER, h.epoch(), h.connectionId(),
                h.serviceId(), callNumbers);
        PacketSecurity packets = PacketSecurityAccess.of(securityClass);
        packets.newChallengedConnection(ctx, challenges.cookie(from, h.epoch(), h.connectionId(), 0));
        int code;
        try {
            code = packets.checkResponse(ctx, p.body());
        } catch (RuntimeException e) {
            code = AbortCodes.RX_PROTOCOL_ERROR; // the SPI never throws for input bytes; refuse all the same
        }
        if (code != 0 || !packets.isAuthenticated(ctx)) {
            counters.increment(RxCounter.SECURITY_RESPONSES_REFUSED);
            packets.destroyConnection(ctx);
            refusalCode = code != 0 ? code : AbortCodes.RX_PROTOCOL_ERROR;
            return null;
        }
        return ctx;
    }

    /**
     * @return the class's code for the last RESPONSE {@link #checkResponse} refused
     */
    public int refusalCode() {
        return refusalCode;
    }

    /**
     * Whether {@code from} has a record whose last DATA was for the connection of {@code h}: the source that sent
     * that connection's DATA and was challenged, so the client a refused RESPONSE's ABORT is for. A RESPONSE from
     * any other source is dropped without an answer (docs/robustness.md "Rule: a security failure from another
     * address ends nothing").
     *
     * @param now current time, ns
     * @param from the RESPONSE's source
     * @param h the RESPONSE's header
     * @return true when the source was challenged for that connection; false counts a security failure from
     *     another address ({@code securityFailuresFromOtherAddresses})
     */
    public boolean challengedFor(long now, InetSocketAddress from, RxHeader h) {
        ReachChallenges.Pending rec = challenges.get(now, from);
        boolean mine = rec != null && rec.epoch == h.epoch() && (rec.cid & RxConstants.CID_MASK) == h.connectionId()
                && rec.securityClass != null;
        if (!mine) {
            otherAddressFailures++;
        }
        return mine;
    }

    /**
     * The connection of an accepted stateless RESPONSE proved its source ({@link #checkResponse}): as a
     * PING_RESPONSE does ({@link #onAck}), the peer is made and heard from, gets the CHALLENGE's round trip as its
     * first RTT sample, and the packets the record kept for that connection wait for replay; the caller makes the
     * connection before they are replayed.
     *
     * @param now current time, ns
     * @param from the source address
     * @param h the RESPONSE's header
     * @param bytes its size, header + body, bytes
     * @return the source's peer (the RESPONSE counted as received here)
     */
    public Peer provenByResponse(long now, InetSocketAddress from, RxHeader h, int bytes) {
        counters.increment(RxCounter.CHALLENGES_ANSWERED);
        counters.increment(RxCounter.PACKETS_RECEIVED, PacketType.RESPONSE);
        counters.add(RxCounter.BYTES_RECEIVED, bytes);
        int nonce = challenges.cookie(from, h.epoch(), h.connectionId(), 0);
        return proven(now, from, h, nonce);
    }

    /**
     * A client-initiated ACK for no known connection of a known service: a PING_RESPONSE whose serial is the cookie
     * of its call proves the source reachable and that connection able to hear us — its peer is made (when the peer
     * limit allows) and heard from, given the PING's RTT sample, and the packets its record kept for that connection
     * wait for replay ({@link #takeReplay}: they open the connection, {@link #takeProof}, and start their calls at
     * once); packets of the source's other connections stay until those answer their own PINGs. Any other such ACK adds to a recorded source's credit and may let
     * a withheld PING go; a PING from the source (waiting for us, on its resend timer: our PING or its answer may
     * have been lost) brings our PING again, at most once per minimum RTO.
     *
     * <p>Ownership: does not take {@code a}.
     *
     * @param now current time, ns
     * @param from the source address
     * @param a the ACK
     * @param bytes its size, header + body, bytes
     * @return the proven source's peer (the ACK counted as received here; the caller marks the peer reachable), or
     *     null when the ACK proved nothing (to be dropped)
     */
    public Peer onAck(long now, InetSocketAddress from, AckPacket a, int bytes) {
        RxHeader h = a.header();
        if (a.reason() == AckReason.PING_RESPONSE && a.serial() != 0
                && a.serial() == challenges.cookie(from, h.epoch(), h.cid(), h.callNumber())) {
            if (!limits.roomForPeer(now, from)) {
                return null; // the peer table is full of peers with connections: the client resends later
            }
            counters.increment(RxCounter.CHALLENGES_ANSWERED);
            counters.increment(RxCounter.PACKETS_RECEIVED, PacketType.ACK);
            counters.increment(RxCounter.ACKS_RECEIVED, AckReason.PING_RESPONSE);
            counters.add(RxCounter.BYTES_RECEIVED, bytes);
            provenFrom = from;
            provenEpoch = h.epoch();
            provenConnectionId = h.connectionId();
            return proven(now, from, h, a.serial());
        }
        ReachChallenges.Pending rec = challenges.get(now, from);
        if (rec != null) {
            rec.credit += (long) Reachability.AMPLIFICATION_LIMIT * bytes;
            boolean waiting = a.reason() == AckReason.PING && rec.pingSerial != 0
                    && now - rec.pingSentNs >= config.rto().minRtoNs();
            if (rec.pingWithheld || waiting) {
                sendPing(now, from, rec);
            }
        }
        return null;
    }

    /** Makes the proven source's peer, heard from now, and queues the packets kept for its proven connection. */
    private Peer proven(long now, InetSocketAddress from, RxHeader h, int answeredSerial) {
        ReachChallenges.Pending rec = challenges.get(now, from);
        Peer peer = table.peer(from);
        peer.heardFrom(now);
        if (rec != null && rec.pingSerial == answeredSerial) {
            peer.rtt().onSample(now - rec.pingSentNs);
        }
        List<ReachChallenges.HeldPacket> mine = challenges.takeConnection(from, h.epoch(), h.connectionId());
        if (!mine.isEmpty()) {
            List<DataPacket> kept = new ArrayList<>(mine.size());
            for (ReachChallenges.HeldPacket held : mine) {
                kept.add(held.toPacket(alloc));
            }
            replayFrom.add(from);
            replayPackets.add(kept);
        }
        return peer;
    }

    /**
     * Whether a new connection's DATA may open its connection without a challenge: only the connection that answered
     * the last PING_RESPONSE that proved anything (its kept packets replayed, or its resend after its record was
     * evicted). A proof belongs to the connection that answered, not to its address: a new connection from a proven
     * address gets its own PING and no more than an unproven source's credit (docs/robustness.md "Rule: stateless
     * reachability challenge"). The proof is used up by the first such DATA (the connection exists from then on).
     *
     * @param from the DATA's source
     * @param h the DATA's header
     * @return true when it may open its connection now
     */
    public boolean takeProof(InetSocketAddress from, RxHeader h) {
        if (provenFrom != null && provenEpoch == h.epoch() && provenConnectionId == h.connectionId()
                && provenFrom.equals(from)) {
            provenFrom = null;
            return true;
        }
        return false;
    }

    /** @return true when a proven source's kept packets wait for {@link #takeReplay} */
    public boolean hasReplay() {
        return !replayPackets.isEmpty();
    }

    /**
     * Takes the packets a proven source's record kept, to be handled as if they arrived now, each as its own
     * datagram (RxEngine does, after the PING_RESPONSE's datagram): one at a time, so that each earns its ACK as it
     * did on the wire (a REQUEST_ACK keeps its REQUESTED ack: the client's first RTT sample).
     *
     * <p>Ownership: the caller owns the returned packets.
     *
     * @param from receives the source address of the returned packets (element 0)
     * @return the packets, oldest first, or null when none wait
     */
    List<DataPacket> takeReplay(InetSocketAddress[] from) {
        if (replayPackets.isEmpty()) {
            return null;
        }
        from[0] = replayFrom.remove(0);
        return replayPackets.remove(0);
    }

    /**
     * Hands every packet waiting for replay to {@code datagram}, one at a time as its own datagram, oldest first
     * (docs/robustness.md "Rule: stateless reachability challenge"; {@link #takeReplay}).
     *
     * <p>Ownership: {@code datagram} takes each packet.
     *
     * @param datagram what handles one packet from its source
     */
    public void replay(BiConsumer<InetSocketAddress, DataPacket> datagram) {
        InetSocketAddress[] from = new InetSocketAddress[1];
        List<DataPacket> kept;
        while ((kept = takeReplay(from)) != null) {
            for (int i = 0; i < kept.size(); i++) {
                datagram.accept(from[0], kept.get(i));
            }
        }
    }

    /**
     * Drops the records of sources whose time (a dead time) is up.
     *
     * @param now current time, ns
     */
    public void expire(long now) {
        challenges.expire(now);
    }

    /** @return when the oldest record's time is up, ns, or {@link Deadlines#NONE} */
    public long nextExpiryNs() {
        return challenges.nextExpiryNs();
    }

    /** Forgets every unproven source's record and releases the proven sources' packets not yet replayed (shutdown). */
    public void clear() {
        challenges.clear();
        for (List<DataPacket> kept : replayPackets) {
            for (DataPacket p : kept) {
                p.release();
            }
        }
        replayPackets.clear();
        replayFrom.clear();
    }

    /**
     * Puts the challenge table's figures into an endpoint snapshot: sources and packets recorded now, records evicted
     * and expired so far.
     *
     * @param snapshot the counters being taken (the endpoint's own, not a connection's)
     */
    public void addCountersTo(RxCounters snapshot) {
        snapshot.add(RxCounter.CHALLENGED_SOURCES, challenges.sources());
        snapshot.add(RxCounter.CHALLENGED_PACKETS, challenges.heldPackets());
        snapshot.add(RxCounter.CHALLENGES_EVICTED, challenges.sourcesEvicted());
        snapshot.add(RxCounter.CHALLENGES_EXPIRED, challenges.sourcesExpired());
        snapshot.add(RxCounter.HELD_BYTES, challenges.heldBytes());
        snapshot.add(RxCounter.HELD_PACKETS_REFUSED, challenges.packetsRefused());
        snapshot.add(RxCounter.SECURITY_FAILURES_FROM_OTHER_ADDRESSES, otherAddressFailures);
    }
}
