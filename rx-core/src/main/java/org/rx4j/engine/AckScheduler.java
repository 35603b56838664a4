package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;

/**
 * The receiver's ack policy of one {@link Call}: which ACK a received datagram or a consumed packet earns,
 * and when (at once, or after the soft/hard/last-ack delay), and the building of that ACK from the receive
 * queue (rx-wire-facts.md §3, §8 receiver policy, hard-ACK-only mode). Runs on the engine's thread; times
 * are ns on the engine's clock.
 */
final class AckScheduler {
    private final Call call;
    private final RxConfig config;

    int pendingAckReason;
    int pendingAckSerial;
    /** DATA packets accepted since the last ACK sent. */
    int arrivalsSinceAck;
    /** Packets the application consumed since the last ACK sent. */
    int consumedSinceAck;
    private int advertisedFirst = 1;
    /** When the delayed ACK is due (engine clock, ns), or {@link Call#NONE}. */
    long ackDeadlineNs = Call.NONE;
    private int lastTriggerSerial;
    /** The last datagram received ended the sender's burst (no MORE_PACKETS): the sender now waits for acks. */
    private boolean burstEnded;

    AckScheduler(Call call) {
        this.call = call;
        this.config = call.config;
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
        afterDatagram(now);
    }

    /** Decides the one ACK a received datagram earns (rx-wire-facts.md §8 receiver policy, hard-ACK-only mode). */
    private void afterDatagram(long now) {
        ReceiveQueue rq = call.rq;
        if (pendingAckReason == 0) {
            if (config.hardAckOnly()) {
                if (windowNearlyClosed()) {
                    pendingAckReason = AckReason.DELAY;
                    pendingAckSerial = lastTriggerSerial;
                } else if (rq.allReceived()) {
                    scheduleAck(now, lastAckDelay());
                } else if (arrivalsSinceAck > 0) {
                    scheduleAck(now, config.softAckDelayNs());
                }
            } else if (arrivalsSinceAck > config.softAckRate()) {
                pendingAckReason = AckReason.IDLE;
                pendingAckSerial = lastTriggerSerial;
            } else if (rq.allReceived() && !call.server) {
                scheduleAck(now, lastAckDelay());
            } else {
                scheduleAck(now, config.softAckDelayNs());
            }
        }
    }

    private long lastAckDelay() {
        // The peer's RTO may be as short as minRto + slack; ack the last packet before it fires.
        return Math.min(config.lastAckDelayNs(), config.softAckDelayNs());
    }

    private boolean windowNearlyClosed() {
        ReceiveQueue rq = call.rq;
        int window = config.maxRwind();
        int used = rq.highest() + 1 - advertisedFirst;
        return rq.first() != advertisedFirst && used >= window - Math.min(config.hardAckInterval(), window / 2);
    }

    /**
     * Hard-ACK-only mode: the application has read everything up to the end of the sender's burst. A
     * window-limited sender sends its next burst only when acks open its window, so a hard ack held back
     * for the interval here would hide up to interval-1 packets from the sender for an extra round trip.
     */
    private boolean burstConsumed() {
        return burstEnded && !call.rq.hasReadable();
    }

    /** @return how long a short burst tail waits for the next burst: a quarter RTT once one is measured */
    private long burstTailDelay() {
        Peer peer = call.conn.peer;
        if (peer.rtt().samples() == 0) {
            return config.hardAckDelayNs();
        }
        return Math.min(config.hardAckDelayNs(), peer.rtt().srttNs() / 4);
    }

    /**
     * The application consumed a packet of a call still receiving: ack now, or arm the hard-ack delay.
     *
     * @param now current time, ns
     */
    void onConsumed(long now) {
        boolean ackNow;
        long delay = config.hardAckDelayNs();
        if (config.hardAckOnly()) {
            int interval = config.hardAckInterval();
            ackNow = consumedSinceAck >= interval || windowNearlyClosed()
                    || (burstConsumed() && 2 * consumedSinceAck > interval);
            if (!ackNow && burstConsumed()) {
                // A short tail: let the sender's next burst (already on its way if the sender is window-limited)
                // join it, so each ack covers more than half an interval and bursts do not fragment.
                delay = burstTailDelay();
            }
        } else {
            ackNow = consumedSinceAck > config.hardAckRate();
        }
        if (ackNow) {
            pendingAckReason = AckReason.DELAY;
            pendingAckSerial = 0;
            call.engine.touched(call);
        } else if (ackDeadlineNs == Call.NONE || delay < config.hardAckDelayNs()) {
            scheduleAck(now, delay);
            call.engine.touched(call);
        }
    }

    private void scheduleAck(long now, long delay) {
        long at = now + delay;
        if (ackDeadlineNs == Call.NONE || at - ackDeadlineNs < 0) {
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
        if (reason == AckReason.DELAY) {
            serial = 0;
        }
        Connection conn = call.conn;
        ReceiveQueue rq = call.rq;
        int flags = PacketFlags.SLOW_START_OK | (requestAck ? PacketFlags.REQUEST_ACK : 0);
        RxHeader h = conn.header(call.channel, call.callNumber, 0, conn.nextSerial(), PacketType.ACK, flags);
        int first = rq.first();
        AckPacket ack = AckPacket.of(h, first, rq.highest(), serial, reason, rq.softAcks(),
                config.advertisedMaxMtu(), config.ifMtu(), config.maxRwind(), config.jumboMax());
        advertisedFirst = first;
        arrivalsSinceAck = 0;
        consumedSinceAck = 0;
        pendingAckReason = 0;
        pendingAckSerial = 0;
        ackDeadlineNs = Call.NONE;
        conn.counters.acksSent[reason]++;
        call.timers.lastSendNs = now;
        call.engine.send(conn, ack);
    }

    boolean hasPendingAck() {
        return pendingAckReason != 0;
    }
}
