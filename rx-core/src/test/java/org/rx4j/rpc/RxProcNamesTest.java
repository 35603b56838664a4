// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@link RxProcNames#orElse}: the first naming wins, the second answers what the first does not know. */
class RxProcNamesTest {
    @Test
    void orElseAsksTheSecondOnlyWhenTheFirstDoesNotKnow() {
        RxProcNames vl = (service, opcode) -> service == 52 && opcode == 504 ? "VL_GetEntryByNameN" : null;
        RxProcNames pr = (service, opcode) -> service == 73 ? "PR_" + opcode : null;
        RxProcNames both = vl.orElse(pr);
        assertEquals("VL_GetEntryByNameN", both.name(52, 504));
        assertEquals("PR_500", both.name(73, 500));
        assertNull(both.name(52, 505));
        assertNull(both.name(1, 504));
        RxProcNames overlapping = vl.orElse((service, opcode) -> "other");
        assertEquals("VL_GetEntryByNameN", overlapping.name(52, 504));
        assertEquals("other", overlapping.name(52, 505));
        assertThrows(NullPointerException.class, () -> vl.orElse(null));
    }
}
