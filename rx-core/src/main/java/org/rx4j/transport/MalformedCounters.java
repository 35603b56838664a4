// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.util.EnumMap;
import java.util.Map;
import org.rx4j.wire.DecodeError;

/**
 * Datagrams the {@link DatagramDecoder} dropped, by reason (design.md: a malformed datagram is counted and
 * dropped). One writer, the event loop that runs the decoder; any thread may read ({@link SingleWriterCounters}:
 * plain counters, no shared atomics on the receive path); a reading may miss the latest increments.
 */
final class MalformedCounters {
    private static final DecodeError[] REASONS = DecodeError.values();
    /** Datagrams the decoder itself failed on (a bug, not the peer's fault): the slot after the reasons. */
    private static final int DECODER_FAILURES = REASONS.length;

    /** One slot per {@link DecodeError} ordinal, then {@link #DECODER_FAILURES}. */
    private final SingleWriterCounters counts = new SingleWriterCounters(REASONS.length + 1);

    /** @param e why one datagram did not decode (writer thread only) */
    void count(DecodeError e) {
        counts.increment(e.ordinal());
    }

    /** Counts one datagram on which {@link org.rx4j.wire.PacketDecoder} threw (writer thread only). */
    void countDecoderFailure() {
        counts.increment(DECODER_FAILURES);
    }

    /** @return datagrams the decoder threw on */
    long decoderFailures() {
        return counts.get(DECODER_FAILURES);
    }

    /** @return every dropped datagram: all reasons plus decoder failures */
    long total() {
        long n = 0;
        for (int i = 0; i < counts.size(); i++) {
            n += counts.get(i);
        }
        return n;
    }

    /** @return count by reason, only the reasons seen at least once, in {@link DecodeError} order */
    Map<DecodeError, Long> snapshot() {
        Map<DecodeError, Long> m = new EnumMap<>(DecodeError.class);
        for (DecodeError e : REASONS) {
            long n = counts.get(e.ordinal());
            if (n != 0) {
                m.put(e, n);
            }
        }
        return m;
    }
}
