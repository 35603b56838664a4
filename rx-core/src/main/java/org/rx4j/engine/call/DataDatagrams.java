// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.counters.RxCounter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.engine.cc.CongestionController;
import org.rx4j.engine.recovery.RecoveryManager;
import org.rx4j.engine.recovery.SendQueue;
import org.rx4j.engine.security.ConnectionSecurity;
import org.rx4j.engine.telemetry.CallCounters;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.OutboundPackets;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * Puts one call's DATA datagrams on the wire, once its sender chose what goes: builds each packet (header and serial,
 * the send queue's payload with one more reference), records the transmission (send queue, delivery-rate snapshot,
 * counters, the congestion controller's datagram count) and hands the datagram to the call's
 * {@link CallOutput} (rx-wire-facts.md §4, §5). Runs on the engine's thread; times are ns on the engine's clock.
 */
final class DataDatagrams {
    private final CallEnv env;
    private final CallOutput out;
    private final SendQueue sq;
    private final CongestionController cc;
    private final RecoveryManager recovery;
    private final CallActivity activity;
    private final CallCounters stats;
    private final AckIntake intake;
    private final ByteBufAllocator alloc;
    /** The spare value {@link ConnectionSecurity#prepare} returns (one array per call, not per packet). */
    private final int[] spare = new int[1];
    /** The packets of one datagram on their way to the sink; allocated on first send, dropped at teardown. */
    private List<DataPacket> batch;

    DataDatagrams(CallEnv env, CallOutput out, SendQueue sq, CongestionController cc, RecoveryManager recovery,
            CallActivity activity, CallCounters stats, AckIntake intake) {
        this.env = env;
        this.out = out;
        this.sq = sq;
        this.cc = cc;
        this.recovery = recovery;
        this.activity = activity;
        this.stats = stats;
        this.intake = intake;
        this.alloc = env.alloc();
    }

    /**
     * Prepares the packets of the next datagram from {@code first} on ({@link #prepare}) and says how many go in it:
     * every sub-packet but the last carries exactly 1412 bytes on the wire and no LAST_PACKET (§4).
     *
     * @param first the first seq, the send queue's next to send
     * @param max the most packets the windows and the jumbogram limit allow, at least 1
     * @return packets in the datagram, 1..max; 0 when the security class refused one (nothing is sent)
     */
    int prepareDatagram(int first, int max) {
        int len = prepare(first);
        int k = 1;
        while (len == RxConstants.JUMBO_BUFFER_SIZE && k < max
                && (sq.get(first + k - 1).flags() & PacketFlags.LAST_PACKET) == 0) {
            len = prepare(first + k);
            if (len < 0) {
                return 0;
            }
            k++;
        }
        return len < 0 ? 0 : k;
    }

    /**
     * Makes sure packet {@code seq} has its wire body: the connection's security class prepares it once, before its
     * first transmission (a re-cut packet is a new one and comes here again; docs/security.md "In the engine").
     * When the class refuses, its code goes to {@link CallOutput#securityFailure} and nothing is sent.
     *
     * @param seq a queued seq, in [first, next)
     * @return the bytes of the packet's DATA body on the wire, or -1 when the class refused
     */
    private int prepare(int seq) {
        SendQueue.Entry e = sq.get(seq);
        ConnectionSecurity security = env.security();
        if (security.none || e.isPrepared()) {
            return e.wire().readableBytes();
        }
        try {
            e.prepare(security.prepare(alloc, out.channel, out.callNumber, seq, e.payload(), spare), spare[0]);
        } catch (SecurityAbortException ex) {
            out.securityFailure = ex.code();
            return -1;
        }
        return e.wire().readableBytes();
    }

    /**
     * Resends one lost packet, alone in its datagram, with REQUEST_ACK (§8).
     *
     * @param now current time, ns
     * @param seq its seq
     * @param e its send-queue entry
     */
    void resend(long now, int seq, SendQueue.Entry e) {
        List<DataPacket> b = batch();
        sq.markResent(e);
        env.counters().increment(RxCounter.RESENDS);
        env.peer().counters().increment(RxCounter.RESENDS);
        stats.resends++;
        b.add(dataPacket(now, 0, seq, e, PacketFlags.REQUEST_ACK));
        out.sendData(b);
        cc.onDatagramSent(now, 1);
        recovery.syncInFlight();
    }

    /**
     * Sends the next {@code k} new packets as one datagram (a jumbogram when {@code k} > 1, §4): MORE_PACKETS on
     * every packet but the last, and on the last when more follow; REQUEST_ACK on the last when asked.
     *
     * @param now current time, ns
     * @param first the first seq, the send queue's next to send
     * @param k packets in the datagram
     * @param moreAfter true when another datagram follows at once
     * @param requestAck true to ask for an ACK
     * @return the serial of the datagram's last packet
     */
    int sendNew(long now, int first, int k, boolean moreAfter, boolean requestAck) {
        List<DataPacket> b = batch();
        for (int i = 0; i < k; i++) {
            int seq = first + i;
            int flags = 0;
            boolean lastOfDgram = i == k - 1;
            if (!lastOfDgram || moreAfter) {
                flags |= PacketFlags.MORE_PACKETS;
            }
            if (lastOfDgram && requestAck) {
                flags |= PacketFlags.REQUEST_ACK;
            }
            SendQueue.Entry e = sq.get(seq);
            b.add(dataPacket(now, i, seq, e, flags));
        }
        int serial = out.lastSerial();
        sq.markSent(k);
        recovery.syncInFlight();
        if (k > 1) {
            env.counters().increment(RxCounter.JUMBOGRAMS_SENT);
        }
        out.sendData(b);
        cc.onDatagramSent(now, k);
        return serial;
    }

    /** Drops the batch list: an ended call keeps no 46-slot list (heap per idle connection). */
    void release() {
        batch = null;
    }

    private List<DataPacket> batch() {
        if (batch == null) {
            // Most calls send one packet per datagram: the list grows only for jumbograms, not to the 46-packet
            // maximum per call (SmallCallBenchmark's B/op).
            batch = new ArrayList<>(2);
        }
        return batch;
    }

    /**
     * @param slot the packet's position in its datagram (0-based): with a sink that encodes on send, the packet is the
     *     engine's reused one for that position, else a new one
     */
    private DataPacket dataPacket(long now, int slot, int seq, SendQueue.Entry e, int extraFlags) {
        OutboundPackets reuse = env.reusablePackets();
        RxHeader h = out.dataHeader(reuse, slot, seq, e.flags() | extraFlags, e.spare());
        e.snapshot(recovery.rate(), now);
        e.recordTransmit(h.serial(), now);
        intake.onDataSent(h.serial(), now);
        stats.dataPacketsSent++;
        activity.lastSendNs = now;
        // The send queue's own buffer with one more reference, not a duplicate: no buffer object per transmission.
        // PacketSink implementations read payloads without moving their indexes.
        ByteBuf payload = e.wire().retain();
        return reuse == null ? new DataPacket(h, payload) : reuse.data(slot, h, payload);
    }
}
