// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.counters.RxCounter;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.peer.Peer;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.OutboundPackets;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * The receiver's ack policy of one {@link Call}: which ACK a received datagram or a consumed packet earns,
 * and when (at once, or after the soft/hard/last-ack delay), and the building of that ACK from the receive
 * queue (rx-wire-facts.md §3, §8 receiver policy, hard-ACK-only mode; the ack rate within a burst,
 * {@code RxConfig.ackPolicy().ackRate()}, docs/engine.md "Receiver ACK policy"). Gets its collaborators in its
 * constructor and sends through the call's {@link CallOutput}. Runs on the engine's thread; times are ns on the
 * engine's clock.
 */
public final class AckScheduler {
    private final CallEnv env;
    private final RxConfig config;
    private final CallOutput out;
    private final ReceiveQueue rq;
    private final CallActivity activity;
    private final boolean server;

    private int pendingAckReason;
    private int pendingAckSerial;
    /** DATA packets accepted since the last ACK sent. */
    private int arrivalsSinceAck;
    /** Packets the application consumed since the last ACK sent. */
    private int consumedSinceAck;
    private int advertisedFirst = 1;
    /** When the delayed ACK is due (engine clock, ns), or {@link Deadlines#NONE}. */
    private long ackDeadlineNs = Deadlines.NONE;
    private int lastTriggerSerial;
    /** The last datagram received ended the sender's burst (no MORE_PACKETS): the sender now waits for acks. */
    private boolean burstEnded;
    /**
     * The last datagram received asked for an ack (REQUEST_ACK): its sender is clocked by fine-grained acks (a
     * model-based controller asks on every datagram), so hard acks keep OpenAFS's rate for it.
     */
    private boolean ackRequested;
    /** The datagram before the last one asked for an ack too: the sender asks on every datagram. */
    private boolean ackRequestedBefore;

    AckScheduler(CallEnv env, CallOutput out, ReceiveQueue rq, CallActivity activity, boolean server) {
        this.env = env;
        this.config = env.config();
        this.out = out;
        this.rq = rq;
        this.activity = activity;
        this.server = server;
    }

    /**
     * Queues the ACK one received DATA packet earns, if any, from what the receive queue did with it (§3, §8).
     *
     * @param result {@link ReceiveQueue#offer}'s result: {@link ReceiveQueue#ACCEPTED}, {@link ReceiveQueue#DUPLICATE},
     *     {@link ReceiveQueue#EXCEEDS_WINDOW} or {@link ReceiveQueue#BEYOND_LAST} (answered like a duplicate: the
     *     stream already ended below it)
     * @param h the packet's header
     */
    void onArrival(int result, RxHeader h) {
        if (result == ReceiveQueue.DUPLICATE || result == ReceiveQueue.BEYOND_LAST) {
            queueAck(AckReason.DUPLICATE, h.serial());
        } else if (result == ReceiveQueue.EXCEEDS_WINDOW) {
            queueAck(AckReason.EXCEEDS_WINDOW, h.serial());
        } else {
            arrivalsSinceAck++;
            if (h.hasFlag(PacketFlags.REQUEST_ACK)) {
                queueAck(AckReason.REQUESTED, h.serial());
            } else if (rq.hasGap()) {
                queueAck(AckReason.OUT_OF_SEQUENCE, h.serial());
            }
        }
    }

    void queueAck(int reason, int serial) {
        // One ACK per datagram: keep the most urgent reason (REQUESTED beats the rest).
        if (pendingAckReason == 0 || reason == AckReason.REQUESTED
                || (pendingAckReason != AckReason.REQUESTED && reason != AckReason.DUPLICATE)) {
            pendingAckReason = reason;
            pendingAckSerial = serial;
        }
    }

    /**
     * Records the end of a received datagram (its last sub-packet's header) and decides the ACK it earns.
     *
     * @param now current time, ns
     * @param h the header of the datagram's last sub-packet
     */
    void endOfDatagram(long now, RxHeader h) {
        pendingAckSerial = pendingAckReason != 0 ? pendingAckSerial : h.serial();
        lastTriggerSerial = h.serial();
        burstEnded = !h.hasFlag(PacketFlags.MORE_PACKETS);
        ackRequestedBefore = ackRequested;
        ackRequested = h.hasFlag(PacketFlags.REQUEST_ACK);
        afterDatagram(now);
    }

    /** Decides the one ACK a received datagram earns (rx-wire-facts.md §8 receiver policy, hard-ACK-only mode). */
    private void afterDatagram(long now) {
        if (pendingAckReason == 0) {
            if (config.ackPolicy().hardAckOnly()) {
                if (windowNearlyClosed()) {
                    pendingAckReason = AckReason.DELAY;
                    pendingAckSerial = lastTriggerSerial;
                } else if (rq.allReceived()) {
                    scheduleAck(now, lastAckDelay());
                } else if (arrivalsSinceAck > 0) {
                    scheduleAck(now, config.ackDelays().softAckDelayNs());
                }
            } else if (server && rq.allReceived()) {
                // The whole request is here: the reply, which acknowledges all of it (§6.3), follows as soon as the
                // handler answers and cancels this ack; an ACK now would be one more datagram each way per call.
                scheduleAck(now, lastAckDelay());
            } else if (arrivalsSinceAck > config.ackPolicy().softAckRate()
                    && (burstEnded || arrivalsSinceAck >= ackRate())) {
                // The sender's burst ended (it now waits for acks), or ackRate packets arrived within it.
                pendingAckReason = AckReason.IDLE;
                pendingAckSerial = lastTriggerSerial;
            } else if (rq.allReceived() && !server) {
                scheduleAck(now, lastAckDelay());
            } else {
                scheduleAck(now, config.ackDelays().softAckDelayNs());
            }
        }
    }

    /**
     * @return packets (new or consumed) within one burst of the sender between immediate acks:
     *     {@code RxConfig.ackPolicy().ackRate()}, at most half the advertised receive window (at least 1)
     */
    private int ackRate() {
        return Math.max(1, Math.min(config.ackPolicy().ackRate(), config.windows().maxRwind() / 2));
    }

    private long lastAckDelay() {
        // The peer's RTO may be as short as minRto + slack; ack the last packet before it fires.
        return Math.min(config.ackDelays().lastAckDelayNs(), config.ackDelays().softAckDelayNs());
    }

    private boolean windowNearlyClosed() {
        int window = config.windows().maxRwind();
        int used = rq.highest() + 1 - advertisedFirst;
        return rq.first() != advertisedFirst
                && used >= window - Math.min(config.ackPolicy().hardAckInterval(), window / 2);
    }

    /**
     * The application has read everything up to the end of the sender's burst. A window-limited sender sends its
     * next burst only when acks open its window, so a hard ack held back for the interval (hard-ACK-only mode) or
     * the ack rate (default mode) here would hide those packets from the sender for an extra round trip.
     */
    private boolean burstConsumed() {
        return burstEnded && !rq.hasReadable();
    }

    /** @return how long a short burst tail waits for the next burst: a quarter RTT once one is measured */
    private long burstTailDelay() {
        Peer peer = env.peer();
        if (peer.rtt().samples() == 0) {
            return config.ackDelays().hardAckDelayNs();
        }
        return Math.min(config.ackDelays().hardAckDelayNs(), peer.rtt().srttNs() / 4);
    }

    /**
     * The application consumed a packet of a call still receiving: ack now, or arm the hard-ack delay.
     *
     * @param now current time, ns
     * @return true when an ACK was queued or its timer moved: the call must be touched
     */
    boolean onConsumed(long now) {
        boolean ackNow;
        long delay = config.ackDelays().hardAckDelayNs();
        if (config.ackPolicy().hardAckOnly()) {
            int interval = config.ackPolicy().hardAckInterval();
            ackNow = consumedSinceAck >= interval || windowNearlyClosed()
                    || (burstConsumed() && 2 * consumedSinceAck > interval);
            if (!ackNow && burstConsumed()) {
                // A short tail: let the sender's next burst (already on its way if the sender is window-limited)
                // join it, so each ack covers more than half an interval and bursts do not fragment.
                delay = burstTailDelay();
            }
        } else {
            // Within a burst, hard acks wait for ackRate consumed packets; once the burst is read, or when the
            // sender asks for acks, it hears at once, as after every hardAckRate packets in OpenAFS. A server that
            // has the whole request leaves the hard ack to its reply (the sender has nothing left to send).
            ackNow = consumedSinceAck > config.ackPolicy().hardAckRate() && !(server && rq.allReceived())
                    && (consumedSinceAck >= ackRate() || burstConsumed() || ackRequested);
            if (!ackNow && server && rq.allReceived()) {
                delay = lastAckDelay();
            }
        }
        if (ackNow) {
            if (pendingAckReason != AckReason.REQUESTED || ackRequestedBefore) {
                pendingAckReason = AckReason.DELAY;
                pendingAckSerial = 0;
            }
            // A REQUESTED ack for a sender that asks now and then (rx4j's RTT probe, OpenAFS's retransmissions)
            // keeps its reason and serial, and carries the hard ack too: it is that sender's RTT sample, and with
            // the ack rate, consumption makes most acks due at once (a DELAY in its place left an rx4j sender's
            // srtt near the 3 s preset in a warm rxperf send). A sender that asks on every datagram (BBR) gets
            // DELAY acks for consumption, as before.
            return true;
        } else if (ackDeadlineNs == Deadlines.NONE || delay < config.ackDelays().hardAckDelayNs()) {
            scheduleAck(now, delay);
            return true;
        }
        return false;
    }

    /** The application took one packet from the receive queue. */
    void countConsumed() {
        consumedSinceAck++;
    }

    /** Server: reply data flows, so the delayed ack of a fully received request is no longer needed (§8). */
    void cancelDelayedAckIfAllReceived() {
        if (ackDeadlineNs != Deadlines.NONE && rq.allReceived()) {
            ackDeadlineNs = Deadlines.NONE;
        }
    }

    /** Stops the delayed-ack timer. */
    void cancelDelayedAck() {
        ackDeadlineNs = Deadlines.NONE;
    }

    /** @return when the delayed ACK is due (engine clock, ns), or {@link Deadlines#NONE} */
    long ackDeadlineNs() {
        return ackDeadlineNs;
    }

    private void scheduleAck(long now, long delay) {
        long at = now + delay;
        if (ackDeadlineNs == Deadlines.NONE || at - ackDeadlineNs < 0) {
            ackDeadlineNs = at;
        }
    }

    /** Sends the ACK queued for this call, if any (the engine calls it once per datagram or app action). */
    void flushAck(long now) {
        if (pendingAckReason != 0) {
            sendAck(now, pendingAckReason, pendingAckSerial, false);
        }
    }

    /**
     * Sends an ACK describing the receive queue.
     *
     * @param reason the reason code
     * @param serial the triggering packet's serial (0 for DELAY and PING)
     * @param requestAck true to set REQUEST_ACK (PINGs)
     */
    void sendAck(long now, int reason, int serial, boolean requestAck) {
        sendAck(now, reason, serial, requestAck, false);
    }

    /**
     * Sends a path-MTU probe: a PING (REQUEST_ACK) padded with zero bytes to {@code datagramBytes}, so only a path
     * that carries datagrams of that size delivers it and earns its PING_RESPONSE (docs/engine.md "Path MTU below
     * one full packet").
     *
     * @param now current time, ns
     * @param datagramBytes the probe's size on the wire (Rx header included), bytes
     * @return the probe's serial (the PING_RESPONSE carries it)
     */
    int sendMtuProbe(long now, int datagramBytes) {
        RxHeader h = out.header(0, PacketType.ACK, PacketFlags.SLOW_START_OK | PacketFlags.REQUEST_ACK);
        byte[] soft = rq.softAcks(null);
        int plain = RxConstants.HEADER_SIZE + RxConstants.ACK_FIXED_SIZE + soft.length + RxConstants.ACK_PAD_SIZE + 16;
        AckPacket probe = new AckPacket(h, 0, 0, rq.first(), rq.highest(), 0, AckReason.PING, soft, 4,
                env.peer().advertisedMaxMtu(), env.peer().localIfMtu(), config.windows().maxRwind(),
                env.peer().advertisedDgramPackets(),
                Math.max(0, datagramBytes - plain));
        env.counters().increment(RxCounter.ACKS_SENT, AckReason.PING);
        activity.lastSendNs = now;
        out.send(probe);
        return h.serial();
    }

    /**
     * Sends the reachability PING (REQUEST_ACK set), even while the call's output is muted (PRECALL: it is the one
     * reply an unproven peer gets; docs/robustness.md "Rule: unsolicited traffic, loops and amplification"). Like every
     * reply to an unproven peer it goes out only when three times the bytes the peer sent cover it
     * ({@link Peer#spendReplyCredit}): the full 65-byte PING, or without its trailer (46 bytes) when only that much is
     * covered.
     *
     * @param now current time, ns
     * @return true when the PING went out; false when it was withheld (the peer's next datagram may let it go)
     */
    boolean sendReachPing(long now) {
        return sendAck(now, AckReason.PING, 0, true, true);
    }

    /** @return true when the ACK went out; false when it was muted or withheld (the peer is not proven) */
    private boolean sendAck(long now, int reason, int serial, boolean requestAck, boolean unmuted) {
        if (reason == AckReason.DELAY) {
            serial = 0;
        }
        if (out.muted && !unmuted && reason != AckReason.REQUESTED) {
            // PRECALL, peer not proven: only the reachability PING and the ACK a REQUEST_ACK asked for go out (each a
            // reply to the datagram that earned it, never a stream: docs/robustness.md "Rule: unsolicited traffic,
            // loops and amplification"; the REQUESTED ack keeps a legitimate client's start-up and RTT samples as they
            // were). Any other ACK the data earned stays owed and goes out with the first flush after the peer answers,
            // so the client is not left waiting for its RTO; the timers that asked for it (delayed ack, keepalive) move
            // on.
            if (reason != AckReason.PING && reason != AckReason.PING_RESPONSE) {
                // Serial 0: sent late, it must not give the peer an RTT sample.
                pendingAckReason = reason == AckReason.REQUESTED ? AckReason.DELAY : reason;
                pendingAckSerial = 0;
            }
            ackDeadlineNs = Deadlines.NONE;
            activity.lastSendNs = now;
            return false;
        }
        // The engine's reused ACK when the sink encodes on send: nothing allocated per ACK (docs/engine.md
        // "Known gaps").
        OutboundPackets reuse = env.reusablePackets();
        byte[] soft = null;
        int trailerWords = 4;
        if (out.muted) {
            // Unproven peer: no more than three times what it sent (RFC 9000 §8.1). The trailer is optional (receivers
            // go by length, §3), so a PING drops it before it is withheld. A rare path: a new packet, sized first.
            reuse = null;
            soft = rq.softAcks(null);
            int bare = RxConstants.HEADER_SIZE + RxConstants.ACK_FIXED_SIZE + soft.length;
            Peer peer = env.peer();
            if (!peer.spendReplyCredit(bare + RxConstants.ACK_PAD_SIZE + 16)) {
                if (reason == AckReason.PING && peer.spendReplyCredit(bare)) {
                    trailerWords = 0;
                } else {
                    env.counters().increment(RxCounter.REPLIES_WITHHELD);
                    if (reason == AckReason.REQUESTED) {
                        pendingAckReason = AckReason.DELAY; // owed, sent once the peer answers (as above)
                        pendingAckSerial = 0;
                        ackDeadlineNs = Deadlines.NONE;
                    }
                    return false;
                }
            }
        }
        int flags = PacketFlags.SLOW_START_OK | (requestAck ? PacketFlags.REQUEST_ACK : 0);
        RxHeader h = out.header(reuse, OutboundPackets.ACK_SLOT, 0, PacketType.ACK, flags);
        int first = rq.first();
        if (soft == null) {
            soft = rq.softAcks(reuse);
        }
        AckPacket ack;
        if (trailerWords == 0) {
            ack = new AckPacket(h, 0, 0, first, rq.highest(), serial, reason, soft, 0, 0, 0, 0, 0, 0);
        } else if (reuse == null) {
            ack = AckPacket.of(h, first, rq.highest(), serial, reason, soft, env.peer().advertisedMaxMtu(),
                    env.peer().localIfMtu(), config.windows().maxRwind(), env.peer().advertisedDgramPackets());
        } else {
            ack = reuse.ack(h, first, rq.highest(), serial, reason, soft, env.peer().advertisedMaxMtu(),
                    env.peer().localIfMtu(), config.windows().maxRwind(), env.peer().advertisedDgramPackets());
        }
        advertisedFirst = first;
        arrivalsSinceAck = 0;
        consumedSinceAck = 0;
        pendingAckReason = 0;
        pendingAckSerial = 0;
        ackDeadlineNs = Deadlines.NONE;
        activity.lastSendNs = now;
        env.counters().increment(RxCounter.ACKS_SENT, reason);
        out.sendUnmuted(ack);
        return true;
    }
}
