// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DelayLineTest {
    private record Item(long release, int order) {
    }

    @Test
    void releasesInTimeOrderAndArrivalOrderForEqualTimes() {
        DelayLine<Item> line = new DelayLine<>();
        List<Item> reference = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 5000; i++) {
            Item it = new Item(random.nextInt(200), i); // many equal release times
            line.add(it.release(), it, 10);
            reference.add(it);
            if (i % 7 == 0) { // interleave removals with additions
                reference.sort(Comparator.comparingLong(Item::release).thenComparingInt(Item::order));
                assertEquals(reference.remove(0), line.poll());
            }
        }
        assertEquals(reference.size() * 10L, line.bytes());
        reference.sort(Comparator.comparingLong(Item::release).thenComparingInt(Item::order));
        List<Item> out = new ArrayList<>();
        while (line.size() > 0) {
            out.add(line.poll());
        }
        assertEquals(reference, out);
        assertEquals(0, line.bytes());
        assertEquals(Long.MAX_VALUE, line.peekReleaseNs());
    }
}
