// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.counters.RxCounter;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.peer.CarriedWindow;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.recovery.AckValidator;
import org.rx4j.engine.recovery.LossDetector;
import org.rx4j.engine.recovery.RecoveryManager;
import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.engine.telemetry.CallCounters;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxConstants;

/**
 * What the peer's ACKs tell one call's send side (rx-wire-facts.md §3, §8): the trailer's limits and window, whether
 * an ACK is in range of what was sent, its hard and soft acks (through the call's {@link RecoveryManager}), the RTT
 * probe it answers, the payload bytes it hard-acks, and the RTT sample an ACK after the call's end may give. Counts
 * what it sees in the connection's counters. Runs on the engine's thread; times are ns on the engine's clock.
 */
final class AckIntake {
    private final CallEnv env;
    private final RxConfig config;
    private final CallOutput out;
    private final SendQueue sq;
    private final RecoveryManager recovery;
    private final CallCounters stats;
    /** True once an ACK carried SLOW_START_OK (the peer is not an old one that wants every other packet acked). */
    private boolean seenSlowStartOk;
    /** Serial of the outstanding RTT probe (a DATA packet with REQUEST_ACK), 0 for none, and when it left, ns. */
    private int rttProbeSerial;
    private long rttProbeSentNs;
    /** {@link SendQueue#releasedBytes()} when last added to the counters, bytes. */
    private long countedAckedBytes;
    /** Serial of the last DATA transmission (0: none, or already sampled) and when it left, ns. */
    private int lastDataSerial;
    private long lastDataSentNs;

    /**
     * When the peer's last calls had an RTT probe answered, ns (valid while {@link #carriedProbe}): until this call
     * sends its own probe, that answer counts as this call's, so the call's first datagram does not ask for an ACK.
     */
    private long carriedProbeNs;
    private boolean carriedProbe;
    /** When this call's last RTT probe was answered, ns, or {@link CarriedWindow#NEVER}. */
    private long probeAnsweredNs = CarriedWindow.NEVER;

    /**
     * @param start where the call started: a carried start hands on what the peer's ACKs showed to its last calls
     *     (SLOW_START_OK, the time of the last answered RTT probe; docs/engine.md "State carried between calls")
     */
    AckIntake(CallEnv env, CallOutput out, SendQueue sq, RecoveryManager recovery, CallCounters stats,
            CarriedWindow.Start start) {
        this.env = env;
        this.config = env.config();
        this.out = out;
        this.sq = sq;
        this.recovery = recovery;
        this.stats = stats;
        if (start.carried()) {
            seenSlowStartOk = start.slowStartOk();
            carriedProbe = start.probed();
            carriedProbeNs = start.probeAnsweredAtNs();
        }
    }

    /**
     * Applies an ACK's trailer (peer MTU, rwind, jumbogram size) and its SLOW_START_OK flag (§3). Values outside their
     * range are clamped (rwind read unsigned into 1..255, so the window never closes) and counted in
     * {@code trailersClamped} (docs/robustness.md "Rule: ACK trailers out of range").
     *
     * @param a the ACK (not consumed)
     * @param twind the transmit window before it, packets
     * @return the transmit window after it, packets
     */
    int applyTrailer(AckPacket a, int twind) {
        Peer peer = env.peer();
        int result = twind;
        if (a.hasTrailer()) {
            boolean clamped = peer.applyTrailer(a.trailerWords(), a.maxMTU(), a.ifMTU(), a.maxDgramPackets(),
                    config.packetSize().jumboMax());
            if (a.trailerWords() >= 3) {
                long advertised = Integer.toUnsignedLong(a.rwind());
                clamped |= advertised < 1 || advertised > RxConstants.MAX_ACKS;
                int rwind = (int) Math.max(1, Math.min(advertised, RxConstants.MAX_ACKS));
                peer.lastRwind = rwind;
                int t = Math.min(config.windows().maxTwind(), rwind);
                result = a.trailerWords() >= 4 ? t : Math.min(twind, t);
            }
            if (clamped) {
                env.counters().increment(RxCounter.TRAILERS_CLAMPED);
            }
        }
        if (a.header().hasFlag(PacketFlags.SLOW_START_OK)) {
            seenSlowStartOk = true;
        }
        return result;
    }

    /**
     * Checks an ACK against what this call transmitted (docs/robustness.md "Rule: ACKs checked against what was
     * transmitted").
     *
     * @param a the ACK (not consumed)
     * @return {@link AckValidator#OK} or why the ACK is out of range
     */
    int check(AckPacket a) {
        return AckValidator.check(a, sq);
    }

    /**
     * Hard and soft acks, RTT samples, congestion control and fast retransmit for one ACK (§3, §8), through
     * the recovery manager; counts what it reports.
     *
     * @param now current time, ns
     * @param a the ACK (not consumed)
     * @return true when the ACK acknowledged something new or moved tfirst
     */
    boolean onAckBody(long now, AckPacket a) {
        int result = recovery.onAck(now, a, env.peer().rtt());
        RxCounters counters = env.counters();
        countHardAcked(counters);
        if ((result & RecoveryManager.IGNORED) != 0) {
            counters.increment(RxCounter.ACKS_IGNORED);
            return false;
        }
        stats.rttSamples += recovery.rttSamplesOfLastAck();
        if ((result & RecoveryManager.FAST_RETRANSMIT) != 0) {
            counters.increment(RxCounter.FAST_RETRANSMITS);
            out.retransmitting(PacketTrace.Retransmit.FAST, sq.first(), sq.nextToSend());
        }
        int ackSerial = a.serial();
        if (rttProbeSerial != 0 && ackSerial - rttProbeSerial >= 0 && ackSerial != 0) {
            rttProbeSerial = 0;
            probeAnsweredNs = now;
        }
        return (result & RecoveryManager.PROGRESS) != 0;
    }

    /** Everything sent counts as hard-acked (an ACKALL, or a client's first reply packet, §2, §6.3). */
    void onAckAll() {
        recovery.onAckAll();
        countHardAcked(env.counters());
        env.peer().rtt().clearBackoff(); // the peer has all of it: the path delivers again
    }

    /**
     * A finished call's ACK that names its last DATA transmission and may time it
     * ({@link LossDetector#timesATransmission}): one RTT sample, timed from that transmission, so Karn's rule holds.
     * A client call ends on its reply's first packet, which the server sends before its ACK of a retransmitted
     * request; without this a client whose requests are answered by replies never got a sample and kept OpenAFS's
     * 3.2 s initial RTO for every lost request (docs/robustness.md "Flood").
     *
     * @param now current time, ns
     * @param a the ACK (not taken)
     */
    void sampleAfterEnd(long now, AckPacket a) {
        if (lastDataSerial == 0 || a.serial() != lastDataSerial || !LossDetector.timesATransmission(a)) {
            return;
        }
        env.peer().rtt().onSample(now - lastDataSentNs);
        stats.rttSamples++;
        lastDataSerial = 0;
    }

    /** Adds the payload bytes hard-acked since the last count to the connection's payloadBytesAcked. */
    private void countHardAcked(RxCounters counters) {
        long released = sq.releasedBytes();
        counters.add(RxCounter.PAYLOAD_BYTES_ACKED, released - countedAckedBytes);
        countedAckedBytes = released;
    }

    /**
     * A DATA packet left (a transmission {@link #sampleAfterEnd} may time).
     *
     * @param serial its serial
     * @param now current time, ns
     */
    void onDataSent(int serial, long now) {
        lastDataSerial = serial;
        lastDataSentNs = now;
    }

    /**
     * A datagram asking for an ACK to time it went out.
     *
     * @param serial the serial of its last packet
     * @param now current time, ns
     */
    void onRttProbeSent(int serial, long now) {
        rttProbeSerial = serial;
        rttProbeSentNs = now;
        carriedProbe = false;
    }

    /** @return when this call's last RTT probe was answered, ns, or {@link CarriedWindow#NEVER} for none */
    long probeAnsweredNs() {
        return probeAnsweredNs;
    }

    /**
     * @param now current time, ns
     * @return true when the next datagram should ask for an ACK to time: none is outstanding, or it has gone
     *     unanswered for two srtt (at least the minimum RTO): its ACK was lost, or a receiver's hard ack for consumed
     *     data (serial 0) went out instead; probe again rather than never. Before this call's first probe, an
     *     answer to the peer's last calls' probe less than that long ago stands for one (a short call on a path in
     *     use asks for no ACK it does not need).
     */
    boolean wantsRttProbe(long now) {
        long srtt = env.peer().rtt().srttNs();
        long interval = Math.max(2 * srtt, config.rto().minRtoNs());
        if (rttProbeSerial == 0) {
            return !carriedProbe || now - carriedProbeNs >= interval;
        }
        return now - rttProbeSentNs >= interval;
    }

    /** @return true once an ACK carried SLOW_START_OK */
    boolean seenSlowStartOk() {
        return seenSlowStartOk;
    }
}
