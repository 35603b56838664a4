// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineParts.source;

import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineParts;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * The paced ABORT to packets no connection owns, on plain {@code now} values (docs/robustness.md "Rule: unsolicited
 * traffic, loops and amplification").
 */
class RawAbortsTest {
    private static final int BIG = RxConstants.HEADER_SIZE + 100;

    private static RxHeader offending(int flags) {
        return new RxHeader(0x1234, 0x100 | 2, 7, 1, 1, PacketType.DATA, flags, 0, 0, 0, 99);
    }

    @Test
    void theAbortCarriesTheOffendingPacketsIdentityTurnedAround() {
        EngineParts e = new EngineParts(RxConfig.defaults());
        RawAborts aborts = new RawAborts(e.sink, e.counters);
        aborts.send(0, source(1), offending(PacketFlags.CLIENT_INITIATED), AbortCodes.RX_INVALID_OPERATION, BIG);
        assertEquals(1, e.sent.size());
        assertEquals(source(1), e.sent.get(0).to());
        AbortPacket a = (AbortPacket) e.sent.get(0).packet();
        assertEquals(AbortCodes.RX_INVALID_OPERATION, a.code());
        RxHeader h = a.header();
        assertFalse(h.isClientInitiated(), "the answer to a client goes back as the server");
        assertEquals(0x1234, h.epoch());
        assertEquals(0x102, h.cid());
        assertEquals(7, h.callNumber());
        assertEquals(99, h.serviceId());
        assertEquals(1, e.counters.get(RxCounter.PACKETS_SENT, PacketType.ABORT));
        aborts.send(0, source(1), offending(0), AbortCodes.RX_CALL_BUSY, BIG);
        assertTrue(e.sent.get(1).packet().header().isClientInitiated(), "the answer to a server goes as the client");
    }

    @Test
    void aDatagramAHeaderLongEarnsItsAbortWithinThreeTimesItsBytes() {
        EngineParts e = new EngineParts(RxConfig.defaults());
        RawAborts aborts = new RawAborts(e.sink, e.counters);
        aborts.send(0, source(1), offending(PacketFlags.CLIENT_INITIATED), AbortCodes.RX_INVALID_OPERATION,
                RxConstants.HEADER_SIZE);
        assertEquals(1, e.sent.size(), "32 bytes for 28: within 3x");
        aborts.send(0, source(1), offending(PacketFlags.CLIENT_INITIATED), AbortCodes.RX_INVALID_OPERATION, 10);
        assertEquals(1, e.sent.size(), "no ABORT for less than a third of its size (no such datagram decodes)");
        assertEquals(1, e.counters.get(RxCounter.REPLIES_WITHHELD));
    }

    @Test
    void aBurstGoesAtOnceThenOnePerInterval() {
        EngineParts e = new EngineParts(RxConfig.defaults());
        RawAborts aborts = new RawAborts(e.sink, e.counters);
        RxHeader h = offending(PacketFlags.CLIENT_INITIATED);
        for (int i = 0; i < RawAborts.BURST + 5; i++) {
            aborts.send(1000, source(i), h, AbortCodes.RX_INVALID_OPERATION, BIG);
        }
        assertEquals(RawAborts.BURST, e.sent.size());
        assertEquals(5, e.counters.get(RxCounter.REPLIES_WITHHELD));
        long quarter = RawAborts.INTERVAL_NS / 4;
        for (int i = 1; i <= 40; i++) { // one attempt every quarter interval, for 10 intervals
            aborts.send(1000 + i * quarter, source(0), h, AbortCodes.RX_INVALID_OPERATION, BIG);
        }
        assertEquals(RawAborts.BURST + 10, e.sent.size(), "one per interval past the burst");
        assertEquals(5 + 30, e.counters.get(RxCounter.REPLIES_WITHHELD));
    }
}
