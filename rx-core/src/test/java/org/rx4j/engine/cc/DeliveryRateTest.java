// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Delivery-rate samples (draft-ietf-ccwg-bbr §4.5) on plain ns values. */
class DeliveryRateTest {
    private static final long MS = 1_000_000L;

    /** A packet's snapshot at send, as SendQueue.Entry keeps it. */
    private record Sent(long at, long delivered, long deliveredTime, long firstSent, boolean appLimited, int inFlight,
                        long lost) {
        static Sent of(DeliveryRate r, long now) {
            r.onSend(now);
            Sent s = new Sent(now, r.delivered(), r.deliveredTimeNs(), r.firstSentTimeNs(), r.isAppLimited(),
                    r.inFlight() + 1, r.lost());
            r.addInFlight(1);
            return s;
        }

        void deliver(DeliveryRate r, long now) {
            r.addInFlight(-1);
            r.onDelivered(now, at, delivered, deliveredTime, firstSent, appLimited, inFlight, lost);
        }
    }

    @Test
    void aFlightOfTenPacketsAckedOneRttLaterGivesTenPacketsPerRtt() {
        DeliveryRate r = new DeliveryRate();
        Sent[] p = new Sent[20];
        for (int i = 0; i < 10; i++) {
            p[i] = Sent.of(r, i * MS);          // 10 packets, 1 ms apart
        }
        // ACKs return 10 ms after each send; each ACK's packet is re-sent as new data (a full pipe).
        RateSample last = null;
        for (int i = 0; i < 10; i++) {
            r.beginAck();
            p[i].deliver(r, (i + 10) * MS);
            last = r.endAck(0, 10 * MS, 10 * MS);
            p[i + 10] = Sent.of(r, (i + 10) * MS);
        }
        // The last sample: packet 9, sent at 9 ms when 0 were delivered (time 0), acked at 19 ms with 10 delivered.
        assertEquals(10, last.delivered);
        assertEquals(19 * MS, last.intervalNs, "max(send elapsed 9 ms, ack elapsed 19 ms)");
        assertEquals(10e9 / (19 * MS), last.ratePps(), 1e-6);
        // The second flight, acked 10 ms after each send: a steady pipe of one packet per ms.
        RateSample s = null;
        for (int i = 10; i < 20; i++) {
            r.beginAck();
            p[i].deliver(r, (i + 10) * MS);
            s = r.endAck(0, 10 * MS, 10 * MS);
        }
        assertEquals(10, s.delivered, "delivered between packet 19's send (10 delivered) and its ack (20)");
        assertEquals(10 * MS, s.intervalNs);
        assertEquals(1000.0, s.ratePps(), 1e-6, "one packet per ms");
        assertEquals(20, r.delivered());
    }

    @Test
    void anIntervalShorterThanTheMinRttIsNotASample() {
        DeliveryRate r = new DeliveryRate();
        Sent a = Sent.of(r, 0);
        r.beginAck();
        a.deliver(r, 2 * MS);
        RateSample s = r.endAck(0, 2 * MS, 10 * MS);
        assertEquals(0, s.delivered);
        assertEquals(0, s.ratePps());
        assertEquals(1, s.newlyAcked);
    }

    @Test
    void lossSinceSendAndAppLimitedAreCarriedByTheSampledPacket() {
        DeliveryRate r = new DeliveryRate();
        r.markAppLimited();
        Sent a = Sent.of(r, 0);
        Sent b = Sent.of(r, MS);
        assertTrue(a.appLimited());
        r.onLost(1);                            // b is lost
        r.addInFlight(-1);
        r.beginAck();
        a.deliver(r, 20 * MS);
        RateSample s = r.endAck(1, 20 * MS, 10 * MS);
        assertTrue(s.appLimited);
        assertEquals(1, s.lostSinceSend, "one loss between a's send and its ack");
        assertEquals(1, s.newlyLost);
        assertEquals(1, s.txInFlight, "in flight when a was sent, itself included");
        assertTrue(b.appLimited());
        // The mark was delivered + in flight = 0 + 0 = 0, floored at 1: the first delivery does not pass it.
        assertTrue(r.isAppLimited());
        r.beginAck();
        Sent c = Sent.of(r, 30 * MS);
        c.deliver(r, 40 * MS);
        r.endAck(0, 10 * MS, 10 * MS);
        assertFalse(r.isAppLimited(), "delivered 2 > mark 1: no longer application-limited");
    }
}
