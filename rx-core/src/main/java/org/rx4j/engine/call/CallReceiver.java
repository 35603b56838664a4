// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.counters.RxCounter;
import org.rx4j.engine.telemetry.CallCounters;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxHeader;

/**
 * The receive side of one {@link Call}: takes the peer's DATA packets into the {@link ReceiveQueue}, lets the
 * {@link AckScheduler} pick the ACK each datagram earns, and says what the application may read
 * (rx-wire-facts.md §3, §8); {@link Call#read} takes the in-order packets from the queue itself. Gets its
 * collaborators in its constructor; the call acts on what it returns. Runs on the engine's thread; times are ns on
 * the engine's clock.
 */
public final class CallReceiver {
    private final CallEnv env;
    private final ReceiveQueue rq;
    /** The receive window, packets. */
    private final int maxRwind;
    private final AckScheduler acks;
    private final CallTimers timers;
    private final CallActivity activity;
    private final CallCounters stats;
    private boolean notifyReadable;

    CallReceiver(CallEnv env, ReceiveQueue rq, AckScheduler acks, CallTimers timers, CallActivity activity, CallCounters stats) {
        this.env = env;
        this.rq = rq;
        this.maxRwind = env.config().windows().maxRwind();
        this.acks = acks;
        this.timers = timers;
        this.activity = activity;
        this.stats = stats;
    }

    /** Notes the arrival of a DATA packet for the liveness timers. */
    void heardData(long now) {
        activity.lastReceiveNs = now;
        activity.lastDataReceiveNs = now;
    }

    /**
     * Handles one DATA packet of a running call: queues it, picks the ACK it earns, re-PINGs a PRECALL peer that
     * asks for an ack, and decides the datagram's ACK after its last sub-packet.
     *
     * @param now current time, ns
     * @param p the packet; ownership passes to the receive queue
     * @param lastInDatagram true for the datagram's last sub-packet
     * @param precall true when the call waits for the peer's reachability (PRECALL)
     * @return true when the application should now be told the call is readable (only after the last sub-packet)
     */
    boolean onData(long now, DataPacket p, boolean lastInDatagram, boolean precall) {
        RxHeader h = p.header();
        int result = rq.offer(p, maxRwind);
        acks.onArrival(result, h);
        stats.dataPacketsReceived++;
        if (result == ReceiveQueue.DUPLICATE) {
            env.counters().increment(RxCounter.DUPLICATES_RECEIVED);
            env.trace().inbound(PacketTrace.In.DUPLICATE, env.peer().address(), h);
        } else if (result == ReceiveQueue.BEYOND_LAST) {
            env.counters().increment(RxCounter.DATA_BEYOND_LAST);
        } else if (result == ReceiveQueue.ACCEPTED) {
            if (rq.hasReadable()) {
                notifyReadable = true;
            }
        }
        if (precall) {
            // Still waiting for the peer's answer, and the PING or its answer may have been lost (a drop-tail queue at
            // start-up): every packet heard may bring the PING again, at most once per minimum RTO. The call is muted
            // meanwhile, so this is the only reply a datagram earns (no amplification: docs/robustness.md "Rule:
            // unsolicited traffic, loops and amplification").
            timers.repingIfWaiting(now, true);
        }
        if (!lastInDatagram) {
            return false;
        }
        acks.endOfDatagram(now, h);
        boolean readable = notifyReadable;
        notifyReadable = false;
        return readable;
    }

    /**
     * A finished call got DATA: a dallying one tells the peer, after the datagram, that everything arrived.
     *
     * @param p the packet (released here)
     * @param lastInDatagram true for the datagram's last sub-packet
     * @return true when an ACK was queued (the call must be touched)
     */
    boolean onDataWhileDallying(DataPacket p, boolean lastInDatagram) {
        int serial = p.header().serial();
        p.release();
        if (lastInDatagram) {
            acks.queueAck(AckReason.DUPLICATE, serial);
            return true;
        }
        return false;
    }

    /** @return true when seq 1 is held or was already consumed (a server call's request has begun) */
    boolean hasFirstPacket() {
        return rq.first() > 1 || rq.hasReadable();
    }

    /** @return packets held in the receive queue, in order or above a gap */
    int heldPackets() {
        return rq.held();
    }

    /** @return bytes of those packets (28-byte header + payload each) */
    long heldBytes() {
        return rq.heldBytes();
    }

    /** @return true when in-order data waits for the application */
    boolean isReadable() {
        return rq.hasReadable();
    }

    /** @return true when the peer's whole stream (through LAST_PACKET) has been consumed */
    boolean isReadComplete() {
        return rq.allConsumed();
    }

    /** Releases every held packet (call teardown). */
    void release() {
        rq.releaseAll();
    }
}
