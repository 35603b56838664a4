// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.rpc.stats.ProcedureMetrics;

/**
 * {@link CallMetrics}' own table: every (side, service id, opcode) keeps its own meter however many there are (the
 * table grows), a snapshot lists each once in its order, and recording into a known procedure allocates nothing
 * (the lookup key is a primitive long).
 */
class CallMetricsTableTest {
    @Test
    void manyProceduresEachKeepTheirOwnCounts() {
        CallMetrics metrics = new CallMetrics();
        for (int op = 0; op < 300; op++) {
            for (int n = 0; n <= op % 3; n++) {
                metrics.record(true, 1, op, 0, 1_000);
                metrics.record(false, 1, op, 5, 1_000);
            }
        }
        metrics.record(false, 65535, -1, 0, 1_000); // negative opcode and top service id: another key
        for (int op = 0; op < 300; op++) {
            assertEquals(op % 3 + 1, metrics.find(true, 1, op).calls(), "server op " + op);
            assertEquals(op % 3 + 1, metrics.find(false, 1, op).errors(), "client op " + op);
        }
        assertEquals(1, metrics.find(false, 65535, -1).calls());
        assertNull(metrics.find(true, 2, 0), "never called");
        List<ProcedureMetrics> all = metrics.snapshot();
        assertEquals(601, all.size());
        assertTrue(all.get(0).server() && all.get(0).opcode() == 0, all.get(0).toString());
        assertEquals(299, all.get(299).opcode());
        assertTrue(!all.get(300).server() && all.get(300).opcode() == 0, all.get(300).toString());
    }

    @Test
    void recordingAKnownProcedureAllocatesNothing() throws Exception {
        CallMetrics metrics = new CallMetrics();
        for (int i = 0; i < 20_000; i++) { // warm: the meters exist, the code is compiled
            metrics.record(i % 2 == 0, 7, 1_000 + i % 40, i % 5 == 0 ? -3 : 0, 1_000L * i);
        }
        // com.sun.management's counter, by reflection: the test module does not read jdk.management
        Object threads = ManagementFactory.getThreadMXBean();
        java.lang.reflect.Method counter = Class.forName("com.sun.management.ThreadMXBean")
                .getMethod("getCurrentThreadAllocatedBytes");
        counter.invoke(threads);
        long before = (long) counter.invoke(threads);
        for (int i = 0; i < 200_000; i++) {
            metrics.record(i % 2 == 0, 7, 1_000 + i % 40, i % 5 == 0 ? -3 : 0, 1_000L * i);
        }
        long allocated = (long) counter.invoke(threads) - before;
        // A boxed key alone would be 16 B per call (3.2 MB here); the margin is for the measuring itself.
        assertTrue(allocated < 64 * 1024, allocated + " bytes allocated by 200,000 records");
    }
}
