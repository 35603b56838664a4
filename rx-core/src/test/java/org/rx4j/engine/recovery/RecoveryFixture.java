// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import io.netty.buffer.Unpooled;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;

/** Builds send queues with transmitted packets and ACKs for the recovery tests, on plain {@code now} values. */
final class RecoveryFixture {
    static final long MS = 1_000_000L;

    private RecoveryFixture() {
    }

    /**
     * @param n packets to queue and transmit, seqs 1..n, serials 1..n, all sent at {@code now}
     * @return the queue (release with {@link SendQueue#releaseAll()})
     */
    static SendQueue sent(int n, long now) {
        SendQueue sq = new SendQueue();
        for (int i = 0; i < n; i++) {
            sq.add(Unpooled.buffer(8).writeLong(i), 0);
            sq.get(i + 1).recordTransmit(i + 1, now);
        }
        sq.markSent(n);
        return sq;
    }

    /**
     * @param first firstPacket
     * @param serial the serial of the packet that triggered the ACK (0 for none)
     * @param reason the ACK reason
     * @param marks soft acks for first, first+1, ...: '+' acked, '-' not
     * @return the ACK (previousPacket = first + marks.length - 1)
     */
    static AckPacket ack(int first, int serial, int reason, String marks) {
        byte[] acks = new byte[marks.length()];
        for (int i = 0; i < acks.length; i++) {
            acks[i] = marks.charAt(i) == '+' ? AckPacket.ACKED : AckPacket.NACKED;
        }
        RxHeader h = new RxHeader(0x80000001, 4, 1, 0, 1000 + first, PacketType.ACK, 0, 0, 0, 0, 147);
        int prev = Math.max(first, first + marks.length() - 1);
        return AckPacket.of(h, first, prev, serial, reason, acks, 1444, 1444, 32, 1);
    }

    /** A REQUESTED ack (one that may carry RTT samples). */
    static AckPacket ack(int first, int serial, String marks) {
        return ack(first, serial, AckReason.REQUESTED, marks);
    }
}
