package org.rx4j.transport;

import java.util.EnumMap;
import java.util.Map;
import org.rx4j.wire.DecodeError;

/**
 * Datagrams dropped by the transport, by reason (design.md: a malformed datagram is counted and dropped).
 * Written by the endpoint's event loop only.
 */
final class MalformedCounters {
    private final long[] byReason = new long[DecodeError.values().length];
    long handlerErrors;

    void count(DecodeError e) {
        byReason[e.ordinal()]++;
    }

    long total() {
        long n = handlerErrors;
        for (long v : byReason) {
            n += v;
        }
        return n;
    }

    Map<DecodeError, Long> snapshot() {
        Map<DecodeError, Long> m = new EnumMap<>(DecodeError.class);
        for (DecodeError e : DecodeError.values()) {
            if (byReason[e.ordinal()] != 0) {
                m.put(e, byReason[e.ordinal()]);
            }
        }
        return m;
    }
}
