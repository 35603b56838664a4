// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link LongIndex} against {@link HashMap} under random puts, removes and lookups (deterministic seed). */
class LongIndexTest {
    @Test
    void behavesLikeAHashMap() {
        LongIndex<String> index = new LongIndex<>();
        Map<Long, String> model = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int step = 0; step < 200_000; step++) {
            // Few distinct keys, clustered like cids stepping by 4, plus the sign bit as in epoch << 32.
            long key = (random.nextInt(3) == 0 ? Long.MIN_VALUE : 0) | (4L * random.nextInt(2_000));
            int op = random.nextInt(10);
            if (op < 4) {
                String v = "v" + step;
                index.put(key, v);
                model.put(key, v);
            } else if (op < 7) {
                index.remove(key);
                model.remove(key);
            } else {
                assertEquals(model.get(key), index.get(key), "key " + key);
            }
            assertEquals(model.size(), index.size());
        }
        for (Map.Entry<Long, String> e : model.entrySet()) {
            assertEquals(e.getValue(), index.get(e.getKey()));
        }
        for (Long k : model.keySet().toArray(new Long[0])) {
            index.remove(k);
        }
        assertEquals(0, index.size());
        assertNull(index.get(0));
    }

    @Test
    void refusesNullValues() {
        assertThrows(NullPointerException.class, () -> new LongIndex<String>().put(1, null));
    }
}
