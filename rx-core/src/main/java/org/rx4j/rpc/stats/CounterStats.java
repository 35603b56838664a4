// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.RxEndpoint;

/**
 * The {@link RxCounter}s of a connection or of a whole endpoint, as a read-only snapshot (what {@code rxdebug
 * -rxstats} and {@code rxperf -D} show): each counter's value by constant, and a labelled counter's values by label
 * (packet type, ACK reason, decode error). Counts since the connection or endpoint was created, in each counter's
 * {@link RxCounter#unit() unit}. A connection's snapshot holds the {@link RxCounter.Scope#CONNECTION} counters; the
 * endpoint's holds every counter.
 *
 * @param counts every counter this snapshot holds, by constant (a labelled counter: its sum over its labels)
 * @param byLabel each labelled counter's values by label name, in {@link RxCounter#labels()} order, zero counts left
 *     out
 */
public record CounterStats(Map<RxCounter, Long> counts, Map<RxCounter, Map<String, Long>> byLabel) {
    /**
     * Copies the maps into unmodifiable ones.
     *
     * @param counts see {@link #counts()}
     * @param byLabel see {@link #byLabel()}
     */
    public CounterStats {
        counts = Collections.unmodifiableMap(copy(counts));
        Map<RxCounter, Map<String, Long>> labels = new EnumMap<>(RxCounter.class);
        for (Map.Entry<RxCounter, Map<String, Long>> e : byLabel.entrySet()) {
            labels.put(e.getKey(), Collections.unmodifiableMap(new LinkedHashMap<>(e.getValue())));
        }
        byLabel = Collections.unmodifiableMap(labels);
    }

    private static <V> Map<RxCounter, V> copy(Map<RxCounter, V> m) {
        Map<RxCounter, V> c = new EnumMap<>(RxCounter.class);
        c.putAll(m);
        return c;
    }

    /**
     * @param counter the counter
     * @return its value (a labelled counter: the sum over its labels), or 0 if this snapshot does not hold it
     */
    public long get(RxCounter counter) {
        return counts.getOrDefault(counter, 0L);
    }

    /**
     * @param counter a labelled counter (e.g. {@link RxCounter#PACKETS_SENT})
     * @return its non-zero values by label name (e.g. {@code DATA}); empty for an unlabelled counter
     */
    public Map<String, Long> byLabel(RxCounter counter) {
        return byLabel.getOrDefault(counter, Map.of());
    }

    /**
     * The counters flattened to names, in {@link RxCounter} order: each counter under its {@link RxCounter#key()},
     * then, for a labelled one, each non-zero label under {@code key.LABEL} (e.g. {@code packetsSent.DATA}). The
     * one flattening behind {@link EndpointStats#toMap()}, {@link RxEndpoint#stats()} and {@code rxperf -D}.
     *
     * @return insertion-ordered, modifiable map of counter name to value
     */
    public Map<String, Long> toMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Map.Entry<RxCounter, Long> e : counts.entrySet()) {
            m.put(e.getKey().key(), e.getValue());
            for (Map.Entry<String, Long> l : byLabel(e.getKey()).entrySet()) {
                m.put(e.getKey().key() + "." + l.getKey(), l.getValue());
            }
        }
        return m;
    }
}
