// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The transport's single-writer counters (no shared atomic on the data path): increments by one writer thread are all
 * seen by a reader on another thread once the writer's work is handed over, each counter on its own.
 */
class SingleWriterCountersTest {
    @Test
    void countsEachSlotAndReadsFromAnotherThread() throws Exception {
        SingleWriterCounters c = new SingleWriterCounters(3);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 1_000; i++) {
                    c.increment(0);
                }
                c.increment(2);
            }, writer).get();
        } finally {
            writer.shutdown();
        }
        assertEquals(3, c.size());
        assertEquals(1_000, c.get(0));
        assertEquals(0, c.get(1));
        assertEquals(1, c.get(2));
    }

    @Test
    void rejectsSlotsOutOfRange() {
        SingleWriterCounters c = new SingleWriterCounters(1);
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> c.increment(1));
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> c.get(-1));
    }
}
