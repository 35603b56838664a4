// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.rx4j.counters.RxCounter;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketType;

/** The slots behind {@link RxCounter}: one per counter and label, combined by kind, sized by scope. */
class RxCountersTest {
    @Test
    void everyCounterAndLabelHasItsOwnSlot() {
        RxCounters c = new RxCounters(RxCounter.Scope.ENDPOINT);
        long n = 1;
        for (RxCounter k : RxCounter.values()) {
            for (int i = 0; i < Math.max(1, k.labels().size()); i++) {
                c.add(k, i, n++);
            }
        }
        n = 1;
        for (RxCounter k : RxCounter.values()) {
            long sum = 0;
            for (int i = 0; i < Math.max(1, k.labels().size()); i++) {
                if (!k.labels().isEmpty()) {
                    assertEquals(n, c.get(k, i), k + " label " + i);
                }
                sum += n++;
            }
            assertEquals(sum, c.get(k), k + ": the sum of its labels");
        }
    }

    @Test
    void totalsSumCountersAndGaugesAndKeepTheLargestMaximum() {
        RxCounters a = new RxCounters(RxCounter.Scope.ENDPOINT);
        RxCounters b = new RxCounters(RxCounter.Scope.ENDPOINT);
        a.add(RxCounter.BYTES_SENT, 100);
        b.add(RxCounter.BYTES_SENT, 50);
        a.add(RxCounter.HELD_BYTES, 7);
        b.add(RxCounter.HELD_BYTES, 3);
        a.raiseTo(RxCounter.LARGEST_JUMBOGRAM_RECEIVED, 4);
        b.raiseTo(RxCounter.LARGEST_JUMBOGRAM_RECEIVED, 6);
        b.raiseTo(RxCounter.LARGEST_JUMBOGRAM_RECEIVED, 5);
        a.increment(RxCounter.ACKS_SENT, AckReason.PING);
        b.increment(RxCounter.ACKS_SENT, AckReason.PING);
        RxCounters t = new RxCounters(RxCounter.Scope.ENDPOINT);
        a.addTo(t);
        b.addTo(t);
        assertEquals(150, t.get(RxCounter.BYTES_SENT));
        assertEquals(10, t.get(RxCounter.HELD_BYTES));
        assertEquals(6, t.get(RxCounter.LARGEST_JUMBOGRAM_RECEIVED));
        assertEquals(2, t.get(RxCounter.ACKS_SENT, AckReason.PING));
        assertEquals(0, t.get(RxCounter.ACKS_SENT, AckReason.IDLE));
    }

    @Test
    void aConnectionHoldsOnlyTheConnectionScopedCountersAndAddsIntoAnEndpointTotal() {
        RxCounters conn = new RxCounters(RxCounter.Scope.CONNECTION);
        conn.increment(RxCounter.PACKETS_SENT, PacketType.DATA);
        conn.increment(RxCounter.DATA_BEYOND_LAST);
        assertEquals(0, conn.get(RxCounter.INTERNAL_ERRORS), "an endpoint counter reads 0 in a connection's");
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> conn.increment(RxCounter.INTERNAL_ERRORS));
        RxCounters t = new RxCounters(RxCounter.Scope.ENDPOINT);
        t.increment(RxCounter.INTERNAL_ERRORS);
        conn.addTo(t);
        assertEquals(1, t.get(RxCounter.PACKETS_SENT, PacketType.DATA));
        assertEquals(1, t.get(RxCounter.DATA_BEYOND_LAST));
        assertEquals(1, t.get(RxCounter.INTERNAL_ERRORS));
    }

    @Test
    void aLabelOutsideTheCounterIsRefusedOnRead() {
        RxCounters c = new RxCounters(RxCounter.Scope.ENDPOINT);
        assertThrows(IndexOutOfBoundsException.class, () -> c.get(RxCounter.PACKETS_SENT, 16));
        assertThrows(IndexOutOfBoundsException.class, () -> c.get(RxCounter.RESENDS, 1));
    }
}
