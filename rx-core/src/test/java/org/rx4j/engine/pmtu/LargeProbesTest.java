// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.wire.AckReason;

/** {@link LargeProbes}: which sizes one try probes, and which answer proves which size (plain {@code now}). */
class LargeProbesTest {
    private final List<Integer> sent = new ArrayList<>();
    private final ProbeSender sender = (now, bytes) -> {
        sent.add(bytes);
        return 100 + sent.size(); // serials 101, 102, ...
    };

    @Test
    void aLoopbackTargetAlsoProbesTheWidePathStepsBelowIt() {
        LargeProbes p = new LargeProbes();
        assertEquals(3, p.send(0, 65_507, 1444, sender));
        assertEquals(List.of(65_507, 16_384, 8_972), sent);
        assertEquals(8_972, p.answered(AckReason.PING_RESPONSE, 103));
        assertEquals(0, p.answered(AckReason.PING_RESPONSE, 103), "one answer per probe");
        assertEquals(65_507, p.answered(AckReason.PING_RESPONSE, 101));
        assertEquals(0, p.answered(AckReason.REQUESTED, 102), "only a PING_RESPONSE proves a size");
    }

    @Test
    void stepsCloseToTheTargetOrAlreadyProvenAreSkipped() {
        LargeProbes p = new LargeProbes();
        assertEquals(1, p.send(0, 9_000, 1444, sender), "8972 is too close to 9000 to be worth a probe");
        assertEquals(2, p.send(0, 65_507, 8_972, sender), "8972 is proven already");
        assertEquals(List.of(9_000, 65_507, 16_384), sent);
        assertEquals(0, p.answered(AckReason.PING_RESPONSE, 101), "a new try supersedes the old one's probes");
    }
}
