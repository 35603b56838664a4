// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ImpairmentTest {
    @Test
    void unitsConvertToNanosecondsAndProbabilities() {
        Impairment imp = Impairment.builder().delayMs(5.5).jitterMs(0.25).lossPercent(0.5).duplicatePercent(1)
                .reorder(2, 3).rateBitsPerSecond(100_000_000).queuePackets(50).mtuBytes(9000).build();
        assertEquals(5_500_000, imp.delayNs());
        assertEquals(250_000, imp.jitterNs());
        assertEquals(0.005, imp.lossProbability(), 1e-15);
        assertEquals(0.01, imp.duplicateProbability(), 1e-15);
        assertEquals(0.02, imp.reorderProbability(), 1e-15);
        assertEquals(3_000_000, imp.reorderDelayNs());
        assertEquals(50, imp.queuePackets());
        assertEquals(9000, imp.mtuBytes());
        assertEquals("delay 5.5 ms, jitter 0.25 ms, loss 0.5 %, reorder 2 % by 3 ms, duplicate 1 %, "
                + "rate 100000000 bit/s queue 50, mtu 9000 B", imp.toString());
        assertEquals(imp.toString(), imp.toBuilder().build().toString());
        assertTrue(Impairment.NONE.isNone());
        assertEquals("none", Impairment.NONE.toString());
    }

    @Test
    void burstFormGivesTheGilbertParameters() {
        GilbertElliott.Params p = Impairment.builder().burstLoss(1, 5).build().burstLoss();
        assertEquals(0.2, p.badToGood(), 1e-12);
        assertEquals(0.01 * 0.2 / 0.99, p.goodToBad(), 1e-12);
        assertEquals(0, p.lossInGood());
        assertEquals(1, p.lossInBad());
        assertEquals(0.01, p.meanLossRate(), 1e-12);
    }

    @Test
    void outOfRangeValuesNameTheirParameter() {
        assertMessage("delayMs", () -> Impairment.builder().delayMs(-1));
        assertMessage("jitterMs", () -> Impairment.builder().jitterMs(Double.NaN));
        assertMessage("lossPercent", () -> Impairment.builder().lossPercent(100));
        assertMessage("duplicatePercent", () -> Impairment.builder().duplicatePercent(101));
        assertMessage("queuePackets", () -> Impairment.builder().queuePackets(0));
        assertMessage("mtuBytes", () -> Impairment.builder().mtuBytes(-5));
        assertMessage("rateBitsPerSecond", () -> Impairment.builder().rateBitsPerSecond(-5));
        assertMessage("mean burst length", () -> Impairment.builder().burstLoss(1, 0.5));
        assertMessage("badToGood", () -> Impairment.builder().gilbertElliott(1, 0, 0, 100));
    }

    private static void assertMessage(String name, org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
        assertTrue(ex.getMessage().contains(name), ex.getMessage());
    }
}
