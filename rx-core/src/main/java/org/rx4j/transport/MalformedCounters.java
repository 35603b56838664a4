package org.rx4j.transport;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.rx4j.wire.DecodeError;

/**
 * Datagrams the {@link DatagramDecoder} dropped, by reason (design.md: a malformed datagram is counted and
 * dropped). Thread-safe, because the decoder is {@code @Sharable}: in practice one event loop writes and any
 * thread may read; a reading may miss increments still in flight.
 */
final class MalformedCounters {
    private final AtomicLongArray byReason = new AtomicLongArray(DecodeError.values().length);
    /** Datagrams the decoder itself failed on (a bug, not the peer's fault); dropped like malformed ones. */
    private final LongAdder decoderFailures = new LongAdder();

    /** @param e why one datagram did not decode */
    void count(DecodeError e) {
        byReason.incrementAndGet(e.ordinal());
    }

    /** Counts one datagram on which {@link org.rx4j.wire.PacketDecoder} threw. */
    void countDecoderFailure() {
        decoderFailures.increment();
    }

    /** @return datagrams the decoder threw on */
    long decoderFailures() {
        return decoderFailures.sum();
    }

    /** @return every dropped datagram: all reasons plus decoder failures */
    long total() {
        long n = decoderFailures.sum();
        for (int i = 0; i < byReason.length(); i++) {
            n += byReason.get(i);
        }
        return n;
    }

    /** @return count by reason, only the reasons seen at least once, in {@link DecodeError} order */
    Map<DecodeError, Long> snapshot() {
        Map<DecodeError, Long> m = new EnumMap<>(DecodeError.class);
        for (DecodeError e : DecodeError.values()) {
            long n = byReason.get(e.ordinal());
            if (n != 0) {
                m.put(e, n);
            }
        }
        return m;
    }
}
