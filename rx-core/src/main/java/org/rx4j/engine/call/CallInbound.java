// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.counters.RxCounter;
import org.rx4j.engine.recovery.AckValidator;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxHeader;

/**
 * What one {@link Call} does with the peer's packets (rx-wire-facts.md §2, §3, §6, §8): DATA to the receive side
 * (or, for a finished call, the ABORT or final ACK it still owes), ACK and ACKALL to the send side with the PING
 * answers and the server's completion on a fully acked reply, ABORT to the life cycle. Gets its collaborators in
 * its constructor and raises events through the call's {@link CallEvents}. Engine thread only; times are ns.
 */
public final class CallInbound {
    private final CallEnv env;
    private final CallLifecycle life;
    private final CallEvents events;
    private final CallOutput out;
    private final CallActivity activity;
    private final CallSender sender;
    private final CallReceiver receiver;
    private final AckScheduler acks;
    private final CallTimers timers;
    private final boolean server;
    /** Bumped whenever the peer acknowledges something new (hard or soft); read by tests' stall detector. */
    long ackProgress;

    CallInbound(CallEnv env, CallLifecycle life, CallEvents events, CallOutput out, CallActivity activity, CallSender sender,
            CallReceiver receiver, AckScheduler acks, CallTimers timers, boolean server) {
        this.env = env;
        this.life = life;
        this.events = events;
        this.out = out;
        this.activity = activity;
        this.sender = sender;
        this.receiver = receiver;
        this.acks = acks;
        this.timers = timers;
        this.server = server;
    }

    /** One DATA packet (one sub-packet of a datagram); ownership of {@code p} passes here. */
    public void onData(long now, DataPacket p, boolean lastInDatagram) {
        receiver.heardData(now);
        if (life.state == CallState.ERROR) {
            p.release();
            if (lastInDatagram) {
                out.answerWithAbort(now, life.error);
            }
            return;
        }
        if (life.state == CallState.DALLY) {
            if (receiver.onDataWhileDallying(p, lastInDatagram)) {
                // The peer missed our final ack: the engine flushes the DUPLICATE ack after the datagram.
                events.touched(now);
            }
            return;
        }
        if (!server && sender.requestFullySent()) {
            // The first reply packet acks the whole request implicitly (§6.3); all of it was sent.
            ackEverythingSent(now);
        }
        if (receiver.onData(now, p, lastInDatagram, life.state == CallState.PRECALL)) {
            events.readable();
        }
        if (lastInDatagram) {
            events.touched(now);
        }
    }

    /** One ACK: trailer, reachability answer, hard and soft acks, the PING answer it asks for (§3, §8). */
    public void onAck(long now, AckPacket a) {
        if (!life.isDone() && sender.checkAck(a) != AckValidator.OK) {
            // Describes packets never transmitted: hostile or broken, believed in nothing, not even as a sign of life
            // (docs/robustness.md "Rule: ACKs checked against what was transmitted"). A finished call reads no ACK
            // body; it still answers PINGs below.
            env.counters().increment(RxCounter.ACKS_REJECTED);
            return;
        }
        activity.lastReceiveNs = now;
        env.counters().increment(RxCounter.ACKS_RECEIVED, Math.min(a.reason(), AckReason.COUNT - 1));
        RxHeader h = a.header();
        sender.applyTrailer(a);
        if (timers.onPingResponse(now, a.reason(), a.serial())) {
            events.peerReachable(now);
        }
        boolean progress = false;
        if (life.isDone()) {
            sender.sampleAfterEnd(now, a);
        } else if (sender.processAckBody(now, a)) {
            progress = true;
            acked();
        }
        // Path-MTU probes' answers and progress (docs/engine.md "Path MTU below one full packet"); an ACK describes
        // the path even after the call ended. Read after the reachability answer: a probe's serial is never a
        // reachability PING's, so no path size changes between the two.
        sender.onAckForPathMtu(now, a, progress);
        if (h.hasFlag(PacketFlags.REQUEST_ACK)) {
            if (life.state == CallState.ERROR) {
                // A failed call answers with its ABORT, so the peer stops keeping the call alive (§2).
                out.answerWithAbort(now, life.error);
            } else {
                timers.repingIfWaiting(now, life.state == CallState.PRECALL);
                acks.sendAck(now, AckReason.PING_RESPONSE, h.serial(), false);
            }
        }
        afterAck(now);
    }

    /**
     * ACKALL: every packet transmitted counts as acknowledged (§2); dropped and counted when nothing transmitted is
     * unacked: it never releases what was never sent (docs/robustness.md "Rule: ACKs checked against what was
     * transmitted").
     */
    public void onAckAll(long now) {
        if (!sender.hasTransmittedUnacked()) {
            // Nothing transmitted waits for an ack: an ACKALL now cannot describe this call.
            env.counters().increment(RxCounter.ACKS_REJECTED);
            return;
        }
        activity.lastReceiveNs = now;
        ackEverythingSent(now);
        afterAck(now);
    }

    private void ackEverythingSent(long now) {
        sender.ackEverythingSent(now);
        acked();
    }

    /** Counts an ACK that acknowledged something new; the first one is told to the listener. */
    private void acked() {
        if (++ackProgress == 1) {
            events.firstAck();
        }
    }

    /** A server call whose whole reply is acked completes (§6.4); a running call sends what the windows allow. */
    private void afterAck(long now) {
        if (server && !life.isDone() && life.sendFinished && sender.allAcked()) {
            life.succeed(now);
        }
        if (!life.isDone()) {
            life.transmit(now);
        }
        events.touched(now);
    }

    /** The peer sent ABORT for this call (or its connection): fail with the code, send nothing. */
    public void onAbort(long now, int code) {
        if (life.isDone()) {
            return;
        }
        life.remoteError = true;
        life.fail(now, code);
        events.touched(now);
    }
}
