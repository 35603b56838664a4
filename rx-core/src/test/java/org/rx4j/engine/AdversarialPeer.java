// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxPacket;

/**
 * A hostile client of a server engine driven by {@link EngineHarness} (virtual clock, every packet by hand): it sends a
 * one-packet request, then answers the server's packets for its call according to its {@link Behaviour}, each answer
 * {@code answerDelayNs} after the packet that earned it. The model of docs/robustness.md "Rule: progress, not activity,
 * keeps a server call alive".
 *
 * <p>Where its packets come from is {@link #source}, read when each answer is queued: {@link Behaviour#MOVES_ADDRESS}
 * changes it to {@link #movedAddress()}, and {@link Behaviour#REPLAYS_IDS} queues an attacker's copies of its call's
 * packets from {@link #attackerAddress()} beside its own (docs/robustness.md "Rule: a server connection's address
 * never moves on an unauthenticated packet").
 */
public final class AdversarialPeer {
    /** What the peer does after its request. */
    public enum Behaviour {
        /** Nothing: answers no PING, acknowledges no DATA. */
        SILENT,
        /** Answers every packet that asks for an ack (PING, or DATA with REQUEST_ACK) acknowledging nothing. */
        PINGS_ONLY,
        /**
         * Answers like {@link #PINGS_ONLY}, but soft-acks every packet it received, firstPacket never moving: an
         * application that stopped reading.
         */
        SOFT_ACKS_ONLY,
        /**
         * The control: answers like {@link #SOFT_ACKS_ONLY}, and every {@link #SLOW_READER_INTERVAL_NS} moves
         * firstPacket past everything received (an application that reads rarely but does read).
         */
        SLOW_READER,
        /**
         * A reader that moves (a NAT rebinding): it reads and hard-acks everything, until the first reply DATA
         * reaches it; from then on its packets come from {@link #movedAddress()} (its home port + 1) and nothing sent
         * to its home address reaches it any more (the old mapping is gone). It answers that first datagram from the
         * new port, then sends a PING acknowledging what it has every {@link #MOVED_PING_INTERVAL_NS} until its own
         * dead time ({@link #CLIENT_DEAD_TIME_NS}) after the move, when its side of the call gives up.
         */
        MOVES_ADDRESS,
        /**
         * A legitimate reader (reads and hard-acks everything, from its own address) whose call's ids an attacker
         * at {@link #attackerAddress()} replays: once the reply has begun, the attacker sends the request's DATA
         * once, and with each of the reader's answers a copy of it and a PING, all from its own address (no ABORT).
         */
        REPLAYS_IDS
    }

    /** How often a {@link Behaviour#SLOW_READER} reads, ns: well inside the 60 s idle dead time. */
    static final long SLOW_READER_INTERVAL_NS = 40 * EngineHarness.S;
    /** How often a moved {@link Behaviour#MOVES_ADDRESS} client PINGs from its new address, ns. */
    static final long MOVED_PING_INTERVAL_NS = 3 * EngineHarness.S;
    /** A client's own dead time (RxConfig's default), ns: a moved client that hears nothing stops after it. */
    static final long CLIENT_DEAD_TIME_NS = 12 * EngineHarness.S;

    final FakePeer ids;
    final Behaviour behaviour;
    final long answerDelayNs;
    /** The address its packets come from. */
    InetSocketAddress source;
    /** When its request went out, and when the server first sent reply DATA, ns (-1: not yet). */
    long requestAt = -1;
    public long firstReplyAt = -1;
    /** The ABORT code the server sent for its call, or 0 before one. */
    public int abortCode;
    long abortAt = -1;
    /** When a {@link Behaviour#MOVES_ADDRESS} client moved, ns (-1: not yet). */
    long movedAt = -1;
    /** Reply DATA bytes received (each seq counted once), and whether the LAST_PACKET arrived. */
    long replyBytes;
    boolean replyEnded;
    /** When it (or its attacker) last sent a packet with its call's ids, from any address, ns. */
    long lastSentAt = -1;
    /** Packets with its call's ids sent from an address other than its home address. */
    int sentFromElsewhere;
    private final InetSocketAddress home;
    private boolean replayedRequest;
    /** Reply DATA seqs received (index = seq), and firstPacket as this peer acknowledges it. */
    private final List<Boolean> received = new ArrayList<>();
    private int first = 1;
    private long lastReadAt;
    /** Answers queued, in time order: each packet with its due time and the address it comes from. */
    private final Deque<Answer> pending = new ArrayDeque<>();

    private record Answer(long at, InetSocketAddress from, RxPacket packet) {
    }

    /**
     * @param ids the connection's ids and serial counter
     * @param source the address its packets come from
     * @param behaviour how it answers the server's packets
     * @param answerDelayNs how long after a server packet it answers, ns
     */
    public AdversarialPeer(FakePeer ids, InetSocketAddress source, Behaviour behaviour, long answerDelayNs) {
        this.ids = ids;
        this.source = source;
        this.home = source;
        this.behaviour = behaviour;
        this.answerDelayNs = answerDelayNs;
    }

    /** Sends the request: one DATA packet with LAST_PACKET, channel 0, call 1. */
    public void sendRequest(EngineHarness h) {
        requestAt = h.now;
        lastReadAt = h.now;
        h.deliverFrom(source, ids.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
    }

    /** @return the address of its request, the only one of its addresses that proved itself to the server */
    InetSocketAddress homeAddress() {
        return home;
    }

    /** @return where a {@link Behaviour#MOVES_ADDRESS} client moves to: its home host, the next port */
    InetSocketAddress movedAddress() {
        return new InetSocketAddress(home.getAddress(), home.getPort() + 1);
    }

    /** @return where the attacker of a {@link Behaviour#REPLAYS_IDS} client sends from: another host */
    InetSocketAddress attackerAddress() {
        return new InetSocketAddress("10.99." + ((ids.cid >>> 8) & 0xff) + "." + (ids.cid & 0xff), 6666);
    }

    /** @return true when {@code d} went to this peer's call (its connection id and call 1) */
    boolean owns(EngineHarness.Datagram d) {
        RxPacket p = d.first();
        return (p.header().cid() & ~3) == ids.cid && p.header().epoch() == ids.epoch;
    }

    /** Reads one datagram the server sent to this peer and queues the answer its behaviour gives. */
    void onDatagram(EngineHarness h, EngineHarness.Datagram d) {
        if (movedAt >= 0) {
            return; // sent to the address it left: lost
        }
        boolean askedForAck = false;
        int askSerial = 0;
        boolean ping = false;
        for (RxPacket p : d.packets()) {
            if (p instanceof AbortPacket a && abortCode == 0) {
                abortCode = a.code();
                abortAt = d.at();
            } else if (p instanceof DataPacket dp) {
                if (firstReplyAt < 0) {
                    firstReplyAt = d.at();
                }
                int seq = dp.header().seq();
                while (received.size() <= seq) {
                    received.add(false);
                }
                if (!received.get(seq)) {
                    replyBytes += dp.bodyLength();
                    replyEnded |= dp.header().hasFlag(PacketFlags.LAST_PACKET);
                }
                received.set(seq, true);
                if (dp.header().hasFlag(PacketFlags.REQUEST_ACK)) {
                    askedForAck = true;
                    askSerial = dp.header().serial();
                }
            } else if (p instanceof AckPacket a && a.header().hasFlag(PacketFlags.REQUEST_ACK)) {
                askedForAck = true;
                ping = true;
                askSerial = a.header().serial();
            }
        }
        boolean moves = behaviour == Behaviour.MOVES_ADDRESS && firstReplyAt >= 0;
        if (behaviour == Behaviour.SILENT || !askedForAck && !moves) {
            return;
        }
        boolean readsAll = behaviour == Behaviour.MOVES_ADDRESS || behaviour == Behaviour.REPLAYS_IDS;
        if (readsAll) {
            readAll();
        }
        if (behaviour == Behaviour.SLOW_READER && d.at() - lastReadAt >= SLOW_READER_INTERVAL_NS) {
            lastReadAt = d.at();
            readAll();
        }
        int reason = ping ? AckReason.PING_RESPONSE : AckReason.REQUESTED;
        byte[] acks = behaviour == Behaviour.PINGS_ONLY ? new byte[0] : softAcks();
        long at = d.at() + answerDelayNs;
        if (moves) {
            source = movedAddress();
            movedAt = d.at();
            pending.add(new Answer(at, source, ack(askSerial, reason, acks)));
            for (long t = movedAt + MOVED_PING_INTERVAL_NS; t - (movedAt + CLIENT_DEAD_TIME_NS) <= 0;
                    t += MOVED_PING_INTERVAL_NS) {
                pending.add(new Answer(t, source, ids.ack(0, 1, first, Math.max(first - 1, 0), 0, AckReason.PING,
                        new byte[0], 4, 32, 1, PacketFlags.REQUEST_ACK)));
            }
            return;
        }
        pending.add(new Answer(at, source, ack(askSerial, reason, acks)));
        if (behaviour == Behaviour.REPLAYS_IDS && firstReplyAt >= 0) {
            InetSocketAddress attacker = attackerAddress();
            if (!replayedRequest) {
                replayedRequest = true;
                pending.add(new Answer(at, attacker, ids.data(0, 1, 1, PacketFlags.LAST_PACKET, 100)));
            }
            pending.add(new Answer(at, attacker, ack(askSerial, reason, acks)));
            pending.add(new Answer(at, attacker, ids.ping(0, 1)));
        }
    }

    /** Moves firstPacket past every reply packet received in order: the application read them. */
    private void readAll() {
        while (first < received.size() && received.get(first)) {
            first++;
        }
    }

    private AckPacket ack(int askSerial, int reason, byte[] acks) {
        return ids.ack(0, 1, first, Math.max(first - 1, 0), askSerial, reason, acks, 32, 1);
    }

    private byte[] softAcks() {
        int n = Math.max(0, Math.min(received.size() - first, 255));
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) {
            a[i] = received.get(first + i) ? AckPacket.ACKED : AckPacket.NACKED;
        }
        return a;
    }

    /** @return when its next queued answer is due, ns, or {@link Long#MAX_VALUE} for none */
    long nextAnswerAt() {
        return pending.isEmpty() ? Long.MAX_VALUE : pending.peek().at();
    }

    /** Delivers every queued answer due at the harness's time, each from the address it was queued with. */
    void deliverDue(EngineHarness h) {
        while (!pending.isEmpty() && h.now - pending.peek().at() >= 0) {
            Answer a = pending.poll();
            lastSentAt = h.now;
            if (!a.from().equals(home)) {
                sentFromElsewhere++;
            }
            h.deliverFrom(a.from(), a.packet());
        }
    }

    /** Releases answers never delivered. */
    public void discard() {
        pending.forEach(a -> a.packet().release());
        pending.clear();
    }

    /**
     * Runs the harness's engine and {@code peers} event by event until {@code end} (virtual time, ns): each engine
     * timer and each queued answer at its own time; every datagram the engine sends goes to the peer that owns it
     * (then the harness forgets it).
     *
     * @param h the harness (its engine serves the peers)
     * @param peers the peers, requests already sent
     * @param end virtual time to stop at, ns
     */
    public static void run(EngineHarness h, List<AdversarialPeer> peers, long end) {
        run(h, peers, end, null);
    }

    /**
     * As {@link #run(EngineHarness, List, long)}, counting every datagram the engine sent by its destination.
     *
     * @param sentTo datagrams sent per destination address, added to (null: not counted)
     */
    public static void run(EngineHarness h, List<AdversarialPeer> peers, long end, Map<InetSocketAddress, Integer> sentTo) {
        while (true) {
            dispatch(h, peers, sentTo);
            long next = h.engine.nextDeadline();
            for (AdversarialPeer p : peers) {
                next = Math.min(next, p.nextAnswerAt());
            }
            if (next == Long.MAX_VALUE || next - end > 0) {
                h.advanceTo(end);
                dispatch(h, peers, sentTo);
                return;
            }
            h.advanceTo(Math.max(next, h.now));
            dispatch(h, peers, sentTo);
            for (AdversarialPeer p : peers) {
                p.deliverDue(h);
            }
        }
    }

    private static void dispatch(EngineHarness h, List<AdversarialPeer> peers,
                                 Map<InetSocketAddress, Integer> sentTo) {
        for (EngineHarness.Datagram d : h.sent) {
            if (sentTo != null) {
                sentTo.merge(d.to(), 1, Integer::sum);
            }
            for (AdversarialPeer p : peers) {
                if (p.owns(d)) {
                    p.onDatagram(h, d);
                }
            }
        }
        h.clear();
    }
}
