package org.rx4j.engine;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
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
 * <p>Where its packets come from is {@link #source}, read for every packet it sends: a behaviour that moves the
 * client to another address, or a second peer that replays this one's ids from elsewhere, changes or copies it.
 */
final class AdversarialPeer {
    /** What the peer does after its request. */
    enum Behaviour {
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
        SLOW_READER
    }

    /** How often a {@link Behaviour#SLOW_READER} reads, ns: well inside the 60 s idle dead time. */
    static final long SLOW_READER_INTERVAL_NS = 40 * EngineHarness.S;

    final FakePeer ids;
    final Behaviour behaviour;
    final long answerDelayNs;
    /** The address its packets come from. */
    InetSocketAddress source;
    /** When its request went out, and when the server first sent reply DATA, ns (-1: not yet). */
    long requestAt = -1;
    long firstReplyAt = -1;
    /** The ABORT code the server sent for its call, or 0 before one. */
    int abortCode;
    long abortAt = -1;
    /** Reply DATA seqs received (index = seq), and firstPacket as this peer acknowledges it. */
    private final List<Boolean> received = new ArrayList<>();
    private int first = 1;
    private long lastReadAt;
    private final Deque<long[]> pendingTimes = new ArrayDeque<>();
    private final Deque<RxPacket> pending = new ArrayDeque<>();

    AdversarialPeer(FakePeer ids, InetSocketAddress source, Behaviour behaviour, long answerDelayNs) {
        this.ids = ids;
        this.source = source;
        this.behaviour = behaviour;
        this.answerDelayNs = answerDelayNs;
    }

    /** Sends the request: one DATA packet with LAST_PACKET, channel 0, call 1. */
    void sendRequest(EngineHarness h) {
        requestAt = h.now;
        lastReadAt = h.now;
        h.deliverFrom(source, ids.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
    }

    /** @return true when {@code d} went to this peer's call (its connection id and call 1) */
    boolean owns(EngineHarness.Datagram d) {
        RxPacket p = d.first();
        return (p.header().cid() & ~3) == ids.cid && p.header().epoch() == ids.epoch;
    }

    /** Reads one datagram the server sent to this peer and queues the answer its behaviour gives. */
    void onDatagram(EngineHarness h, EngineHarness.Datagram d) {
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
        if (behaviour == Behaviour.SILENT || !askedForAck) {
            return;
        }
        if (behaviour == Behaviour.SLOW_READER && d.at() - lastReadAt >= SLOW_READER_INTERVAL_NS) {
            lastReadAt = d.at();
            while (first < received.size() && received.get(first)) {
                first++;
            }
        }
        int reason = ping ? AckReason.PING_RESPONSE : AckReason.REQUESTED;
        byte[] acks = behaviour == Behaviour.PINGS_ONLY ? new byte[0] : softAcks();
        pendingTimes.add(new long[] {d.at() + answerDelayNs});
        pending.add(ids.ack(0, 1, first, Math.max(first - 1, 0), askSerial, reason, acks, 32, 1));
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
        return pendingTimes.isEmpty() ? Long.MAX_VALUE : pendingTimes.peek()[0];
    }

    /** Delivers every queued answer due at the harness's time, from {@link #source}. */
    void deliverDue(EngineHarness h) {
        while (!pendingTimes.isEmpty() && h.now - pendingTimes.peek()[0] >= 0) {
            pendingTimes.poll();
            h.deliverFrom(source, pending.poll());
        }
    }

    /** Releases answers never delivered. */
    void discard() {
        pendingTimes.clear();
        pending.forEach(RxPacket::release);
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
    static void run(EngineHarness h, List<AdversarialPeer> peers, long end) {
        while (true) {
            dispatch(h, peers);
            long next = h.engine.nextDeadline();
            for (AdversarialPeer p : peers) {
                next = Math.min(next, p.nextAnswerAt());
            }
            if (next == Long.MAX_VALUE || next - end > 0) {
                h.advanceTo(end);
                dispatch(h, peers);
                return;
            }
            h.advanceTo(Math.max(next, h.now));
            dispatch(h, peers);
            for (AdversarialPeer p : peers) {
                p.deliverDue(h);
            }
        }
    }

    private static void dispatch(EngineHarness h, List<AdversarialPeer> peers) {
        for (EngineHarness.Datagram d : h.sent) {
            for (AdversarialPeer p : peers) {
                if (p.owns(d)) {
                    p.onDatagram(h, d);
                }
            }
        }
        h.clear();
    }
}
